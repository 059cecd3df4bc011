"""Linearized shallow water equations on a 2-D grid (forward-backward time
stepping of the surface elevation h and the velocities u, v with reflecting
boundaries), distributed by `split=0`; checks itself against numpy and
prints the conserved total mass.

    PYTHONPATH=build/python mpirun -n 4 python3 python/examples/shallow_water.py
"""

import argparse
import time

import numpy as np

import imex as xp

G, DEPTH = 9.81, 10.0


def initial(m, n):
    x = m.linspace(0.0, 1.0, n)
    return 1.0 + 0.1 * m.exp(-100.0 * ((x[:, None] - 0.5) ** 2 +
                                        (x[None, :] - 0.3) ** 2))


def step(m, h, u, v, dt, dx):
    # Velocities from the elevation gradient (interior faces).
    u[1:-1, :] = u[1:-1, :] - (G * dt / dx) * (h[1:, :] - h[:-1, :])
    v[:, 1:-1] = v[:, 1:-1] - (G * dt / dx) * (h[:, 1:] - h[:, :-1])
    # Elevation from the divergence of the new velocities.
    h[...] = h - (DEPTH * dt / dx) * (u[1:, :] - u[:-1, :] + v[:, 1:] -
                                      v[:, :-1])


def run(m, h, steps, dt, dx, **split):
    n = h.shape[0]
    u = m.zeros((n + 1, n), **split)
    v = m.zeros((n, n + 1), **split)
    for _ in range(steps):
        step(m, h, u, v, dt, dx)
    return h


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--steps", type=int, default=50)
    args = parser.parse_args()
    xp.init()
    dx = 1.0 / args.n
    dt = 0.2 * dx / np.sqrt(G * DEPTH)

    h0 = initial(np, args.n)
    start = time.perf_counter()
    h = run(xp, xp.asarray(h0, split=0), args.steps, dt, dx, split=0)
    mass = float(xp.sum(h))
    seconds = time.perf_counter() - start

    reference = run(np, h0.copy(), args.steps, dt, dx)
    ok = (np.allclose(h.to_numpy(), reference, rtol=1e-10, atol=1e-12) and
          abs(mass - h0.sum()) < 1e-8 * h0.sum())
    xp.print0(f"shallow_water n={args.n} steps={args.steps} "
              f"ranks={xp.nprocs()}: mass={mass:.12g} ({seconds:.3f} s) "
              f"{'OK' if ok else 'MISMATCH'}")
    if not ok:
        raise SystemExit("shallow_water: result differs from numpy or mass "
                         "is not conserved")


if __name__ == "__main__":
    main()
