"""Distributed matmul through the Python frontend, run under mpirun by
bench/linalg/run.py: C = A @ B of n x n float64 matrices split over the
most square grid of the ranks (split=(0, 1)), timed between barriers as
pdgemm_reference.c times ScaLAPACK. Prints, on rank 0, the best time of
`reps` products in seconds and the checksum sum(C).

    mpirun -n 4 python3 dist_matmul.py PYTHON_DIR n reps
"""

import sys

import numpy as np
from mpi4py import MPI

from mpi_timing import best_time


def main():
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    n, reps = int(sys.argv[2]), int(sys.argv[3])
    i = np.arange(n * n, dtype=np.int64)
    a = xp.asarray(((i % 7) - 3.0).reshape(n, n), split=(0, 1))
    b = xp.asarray(((i % 5) - 2.0).reshape(n, n), split=(0, 1))
    best, c = best_time(xp, lambda: a @ b, reps)
    checksum = float(xp.sum(c))
    if MPI.COMM_WORLD.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
