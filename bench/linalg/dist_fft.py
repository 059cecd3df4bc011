"""Distributed FFT through the Python frontend, run under mpirun by
bench/linalg/run.py: fftn of an n^rank complex128 array split on its first
axis (split=0), timed between barriers as fftw_mpi_reference.c times
FFTW-MPI. Prints, on rank 0, the best time of `reps` transforms in seconds
and the checksum sum(real(fftn(x))).

    mpirun -n 4 python3 dist_fft.py PYTHON_DIR rank n reps
"""

import sys

import numpy as np
from mpi4py import MPI

from mpi_timing import best_time


def main():
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    rank, n, reps = map(int, sys.argv[2:5])
    i = np.arange(n ** rank, dtype=np.int64)
    x = xp.asarray(((i % 7 - 3) + 1j * (i % 5 - 2)).reshape((n,) * rank),
                   split=0)
    best, y = best_time(xp, lambda: xp.fft.fftn(x), reps)
    checksum = float(xp.sum(xp.real(y)))
    if MPI.COMM_WORLD.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
