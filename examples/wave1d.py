"""The numpy program examples/wave1d.mlir is written after: the 1-D wave
equation u_tt = c^2 u_xx, leapfrog in time, 4th-order Laplacian in space
(five shifted reads of u per step, halo width 2), u = 0 on the two outer
points at each end. Prints the same checksums (python3 examples/wave1d.py):
sum(u) and sum(u * u) after `steps` steps."""
import numpy as np


def wave(n, steps):
    x = np.linspace(0.0, 1.0, n)
    d = (x - 0.3) / 0.05
    u = np.exp(-(d * d))  # a Gaussian pulse, initially at rest
    u[:2] = 0.0
    u[-2:] = 0.0
    uprev = np.zeros(n)
    uprev[...] = u
    c2 = 0.25  # (c dt / dx)^2
    for _ in range(steps):
        lap = (-u[:-4] + 16.0 * u[1:-3] - 30.0 * u[2:-2] + 16.0 * u[3:-1] -
               u[4:]) / 12.0
        new = 2.0 * u[2:-2] - uprev[2:-2] + c2 * lap
        uprev[2:-2] = u[2:-2]
        u[2:-2] = new
    return u.sum(), (u * u).sum()


if __name__ == "__main__":
    for checksum in wave(1000, 500):
        print(repr(checksum))
