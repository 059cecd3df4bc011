"""Distributed solve through the Python frontend, run under mpirun by
bench/linalg/run.py: X = solve(A, B) of an n x n float64 matrix and n x 2
right-hand sides split on rows (split=0; ScaLAPACK through the runtime,
with the moves to its block-cyclic layout and back), timed between
barriers as pdgesv_reference.c times ScaLAPACK. Prints, on rank 0, the
best time of `reps` solves in seconds and the checksum sum(X).

    mpirun -n 4 python3 dist_solve.py PYTHON_DIR n reps
"""

import sys

import numpy as np

from mpi_timing import best_time


def operands(n):
    i = np.arange(n * n, dtype=np.int64).reshape(n, n)
    a = 2.0 * n * np.eye(n) + (i % 7 - 3) / 4.0
    j = np.arange(n * 2, dtype=np.int64).reshape(n, 2)
    return a, (j % 5 - 2).astype(np.float64)


def main():
    from mpi4py import MPI
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    n, reps = int(sys.argv[2]), int(sys.argv[3])
    a, b = operands(n)
    x, y = xp.asarray(a, split=0), xp.asarray(b, split=0)
    best, solution = best_time(xp, lambda: xp.linalg.solve(x, y), reps)
    checksum = float(xp.sum(solution))
    if MPI.COMM_WORLD.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
