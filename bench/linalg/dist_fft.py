"""Distributed FFT through the Python frontend, run under mpirun by
bench/linalg/run.py: fftn of an n^rank complex128 array split on its first
axis (split=0), timed between barriers as fftw_mpi_reference.c times
FFTW-MPI. Prints, on rank 0, the best time of `reps` transforms in seconds
and the checksum sum(real(fftn(x))).

    mpirun -n 4 python3 dist_fft.py PYTHON_DIR rank n reps
"""

import sys
import time

import numpy as np
from mpi4py import MPI


def main():
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    rank, n, reps = map(int, sys.argv[2:5])
    i = np.arange(n ** rank, dtype=np.int64)
    x = xp.asarray(((i % 7 - 3) + 1j * (i % 5 - 2)).reshape((n,) * rank),
                   split=0)
    comm = MPI.COMM_WORLD
    best = float("inf")
    results = []
    for rep in range(reps + 1):
        results.clear()
        comm.Barrier()
        t0 = time.perf_counter()
        results.append(xp.fft.fftn(x))
        xp.sync()
        comm.Barrier()
        if rep:  # (the first transform compiles the kernel)
            best = min(best, time.perf_counter() - t0)
    checksum = float(xp.sum(xp.real(results[0])))
    if comm.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
