"""Distributed matmul through the Python frontend, run under mpirun by
bench/linalg/run.py: C = A @ B of n x n float64 matrices split over the
most square grid of the ranks (split=(0, 1)), timed between barriers as
pdgemm_reference.c times ScaLAPACK. Prints, on rank 0, the best time of
`reps` products in seconds and the checksum sum(C).

    mpirun -n 4 python3 dist_matmul.py PYTHON_DIR n reps
"""

import sys
import time

import numpy as np
from mpi4py import MPI


def main():
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    n, reps = int(sys.argv[2]), int(sys.argv[3])
    i = np.arange(n * n, dtype=np.int64)
    a = xp.asarray(((i % 7) - 3.0).reshape(n, n), split=(0, 1))
    b = xp.asarray(((i % 5) - 2.0).reshape(n, n), split=(0, 1))
    comm = MPI.COMM_WORLD
    best = float("inf")
    results = []
    for rep in range(reps + 1):
        results.clear()
        comm.Barrier()
        t0 = time.perf_counter()
        results.append(a @ b)
        xp.sync()
        comm.Barrier()
        if rep:  # (the first product compiles the kernel)
            best = min(best, time.perf_counter() - t0)
    checksum = float(xp.sum(results[0]))
    if comm.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
