"""2-D wave equation (second-order leapfrog in time, 5-point Laplacian),
distributed by `split=0`; checks itself against numpy.

    PYTHONPATH=build/python mpirun -n 3 python3 python/examples/wave2d.py
"""

import argparse
import time

import numpy as np

import imex as xp


def initial(m, n):
    x = m.linspace(-1.0, 1.0, n)
    return m.exp(-20.0 * (x[:, None] ** 2 + x[None, :] ** 2))


def wave(m, u, u_prev, steps, c2):
    for _ in range(steps):
        lap = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] -
               4.0 * u[1:-1, 1:-1])
        u_next = m.zeros_like(u)
        u_next[1:-1, 1:-1] = 2.0 * u[1:-1, 1:-1] - u_prev[1:-1, 1:-1] + \
            c2 * lap
        u_prev, u = u, u_next
    return u


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    xp.init()
    c2 = 0.2

    start_values = initial(np, args.n)
    u = xp.asarray(start_values, split=0)
    u_prev = xp.asarray(start_values, split=0)
    start = time.perf_counter()
    u = wave(xp, u, u_prev, args.steps, c2)
    energy = float(xp.sum(u * u))
    seconds = time.perf_counter() - start

    reference = wave(np, start_values, start_values.copy(), args.steps, c2)
    ok = np.allclose(u.to_numpy(), reference, rtol=1e-10, atol=1e-12)
    xp.print0(f"wave2d n={args.n} steps={args.steps} ranks={xp.nprocs()}: "
              f"energy={energy:.12g} ({seconds:.3f} s) "
              f"{'OK' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit("wave2d: result differs from numpy")


if __name__ == "__main__":
    main()
