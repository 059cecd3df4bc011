"""2-D Jacobi iteration, written with numpy syntax and distributed over the
MPI ranks by `split=0` (rows) or `--split 0,1` (the 2-D grid of the ranks);
checks itself against numpy.

    PYTHONPATH=build/python python3 python/examples/jacobi2d.py
    PYTHONPATH=build/python mpirun -n 4 python3 python/examples/jacobi2d.py --n 512
    PYTHONPATH=build/python mpirun -n 4 python3 python/examples/jacobi2d.py --split 0,1
"""

import argparse
import time

import numpy as np

import imex as xp


def jacobi(m, u, iterations):
    for _ in range(iterations):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
    return u


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--split", default="0",
                        help="the split axes: 0 (rows), 1 or 0,1 (a grid)")
    args = parser.parse_args()
    split = tuple(int(axis) for axis in args.split.split(","))
    xp.init()

    u = xp.zeros((args.n, args.n), split=split)
    u[0, :] = 1.0
    start = time.perf_counter()
    u = jacobi(xp, u, args.iterations)
    total = float(xp.sum(u))
    seconds = time.perf_counter() - start

    reference = np.zeros((args.n, args.n))
    reference[0, :] = 1.0
    reference = jacobi(np, reference, args.iterations)
    ok = np.allclose(u.to_numpy(), reference, rtol=1e-12, atol=1e-12)
    xp.print0(f"jacobi2d n={args.n} iterations={args.iterations} "
              f"ranks={xp.nprocs()} split={u.split}: sum={total:.12g} "
              f"({seconds:.3f} s) {'OK' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit("jacobi2d: result differs from numpy")


if __name__ == "__main__":
    main()
