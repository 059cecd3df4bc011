"""The statements of bench/statements, timed with the Python frontend (and
numpy with --numpy) on n x m float64 arrays A and B split by --split; run
under mpirun for several ranks. Prints one JSON line per statement from
rank 0: the best mean time per execution over 5 rounds of --reps, the
slowest rank's."""

import argparse
import json
import time

import numpy as np


def statements(xp):
    """name -> function of (A, B) (and C, A's values distributed
    otherwise, for `redistribute`) running the statement once."""
    def assign_expr(A, B):
        B[:, :] = A + 1.0

    def update_rows(A, B):
        B[1:-1, :] = B[1:-1, :] + A[1:-1, :]

    def iadd_rows(A, B):
        B[1:-1, :] += A[1:-1, :]

    def scale_columns(A, B):
        B[:, 1:-1] = A[:, 1:-1] * 2.0

    def imul_whole(A, B):
        view = B[:, :]
        view *= 0.5

    def stencil(A, B):
        B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2] +
                                A[1:-1, 2:])

    def stencil_inplace(A, B):
        # (A Jacobi sweep with a source term, updating B where it stands.)
        B[1:-1, 1:-1] = 0.25 * (B[:-2, 1:-1] + B[2:, 1:-1] + B[1:-1, :-2] +
                                B[1:-1, 2:] + A[1:-1, 1:-1])

    def normalize(A, B):
        B[:, :] = A / xp.sum(A)

    def where(A, B):
        B[:, :] = xp.where(A > 0.5, A, 0.0)

    def mask_assign(A, B):
        B[A > 0.5] = 0.0

    def redistribute(A, B, C):
        B[:, :] = C

    return {f.__name__: f for f in (assign_expr, update_rows, iadd_rows,
                                    scale_columns, imul_whole, stencil,
                                    stencil_inplace, normalize, where, mask_assign,
                                    redistribute)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--split", default="0")
    parser.add_argument("--only", default="")
    parser.add_argument("--numpy", action="store_true")
    args = parser.parse_args()
    i, j = np.meshgrid(np.arange(args.n), np.arange(args.m), indexing="ij")
    a = ((i * 7919 + j * 104729) % 1000) / 1000.0
    if args.numpy:
        xp, sync, slowest, rank = np, (lambda: None), (lambda t: t), 0
        A, B, C = a, np.zeros_like(a), a.copy()
    else:
        import imex as xp
        xp.init()
        split = tuple(int(s) for s in args.split.split(","))
        split = split[0] if len(split) == 1 else split
        A = xp.asarray(a, split=split)
        B = xp.zeros(a.shape, split=split)
        # A's values distributed otherwise (rows: on columns; grid: rows).
        C = xp.asarray(a, split=1 if split == 0 else 0)
        sync, rank = xp.sync, xp.rank()
        try:
            from mpi4py import MPI
            slowest = lambda t: MPI.COMM_WORLD.allreduce(t, op=MPI.MAX)
        except ImportError:
            slowest = lambda t: t
    chosen = [s for s in args.only.split(",") if s]
    reference = statements(np)
    for name, run in statements(xp).items():
        if chosen and name not in chosen:
            continue
        B[:, :] = 0.0
        arrays = (A, B, C) if name == "redistribute" else (A, B)
        run(*arrays)
        sync()
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(args.reps):
                run(*arrays)
            sync()
            best = min(best, slowest((time.perf_counter() - t0) / args.reps))
        if not args.numpy:
            check(name, reference[name], 1 + 5 * args.reps, a, B)
        if rank == 0:
            print(json.dumps({"statement": name, "seconds": best}),
                  flush=True)


def check(name, statement, runs, a, B):
    """B (run `runs` times from zeros) against numpy running the statement
    as often: a benchmark that computed wrong values would not count."""
    expected = np.zeros_like(a)
    arrays = (a, expected, a) if name == "redistribute" else (a, expected)
    for _ in range(runs):
        statement(*arrays)
    got = B.to_numpy()
    if not np.allclose(got, expected, rtol=1e-9, atol=1e-12):
        raise SystemExit(f"{name}: ours differs from numpy (largest "
                         f"difference {np.max(np.abs(got - expected))})")


if __name__ == "__main__":
    main()
