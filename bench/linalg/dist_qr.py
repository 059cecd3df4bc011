"""Distributed QR through the Python frontend, run under mpirun by
bench/linalg/run.py: Q, R = qr(A) (reduced) of an n x n float64 matrix
split on rows (split=0; ScaLAPACK through the runtime, with the moves to
its block-cyclic layout and back), timed between barriers as
pdgeqrf_reference.c times ScaLAPACK. Prints, on rank 0, the best time of
`reps` factorizations in seconds and the checksum sum(|R|).

    mpirun -n 4 python3 dist_qr.py PYTHON_DIR n reps
"""

import sys

from dist_solve import operands
from mpi_timing import best_time


def main():
    from mpi4py import MPI
    sys.path.insert(0, sys.argv[1])
    import imex as xp
    n, reps = int(sys.argv[2]), int(sys.argv[3])
    a, _ = operands(n)
    x = xp.asarray(a, split=0)
    best, (_, r) = best_time(xp, lambda: xp.linalg.qr(x), reps)
    checksum = float(xp.sum(xp.abs(r)))
    if MPI.COMM_WORLD.rank == 0:
        print(f"{best:.9f} {checksum!r}")


if __name__ == "__main__":
    main()
