"""The numpy program examples/jacobi2d.mlir is written after; prints the
same checksum (python3 examples/jacobi2d.py)."""
import numpy as np


def jacobi(n, iters):
    u = np.zeros((n, n))
    u[0, :] = 1.0
    for _ in range(iters):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
    return u.sum()


if __name__ == "__main__":
    print(repr(jacobi(64, 200)))
