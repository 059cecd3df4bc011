"""Linear algebra benchmarks, against named references in the same run:

  matmul   C = A @ B of n x n float64 matrices through the Python frontend
           (BLAS dgemm from the compiled kernel, imex-linalg-to-blas) vs
           OpenBLAS's cblas_dgemm called from C (gemm_reference.c) and
           numpy's matmul, all on the same BLAS thread count (--threads,
           default 1: the frontend's default of one BLAS thread per rank)

  solve    x = solve(A, b) of an n x n float64 matrix and a vector vs
           LAPACKE_dgesv from C on row-major data (lapack_reference.c: the
           copy that keeps A, LAPACKE's transpositions) and numpy
  qr       Q, R = qr(A) (reduced) vs LAPACKE_dgeqrf + dorgqr from C and
           numpy
  dist     C = A @ B of n x n float64 matrices on a grid of --ranks ranks
           (split=(0, 1), dist_matmul.py under mpirun) vs ScaLAPACK's pdgemm
           on the same grid (pdgemm_reference.c, block-cyclic blocks of 128)
  fft      fftn of an n x n (2-d) and an m x m x m (3-d) complex128 array vs
           FFTW3 from C (fft_reference.c: plan with FFTW_ESTIMATE, as the
           runtime, and execute into a reused buffer) and numpy.fft
  dist solve  solve of an n x n float64 matrix split on rows at --ranks
           ranks (dist_solve.py: ScaLAPACK through the runtime, with the
           moves to and from its layout) vs ScaLAPACK's pdgesv from C on
           data already in its layout (pdgesv_reference.c)
  dist qr  the reduced QR of an n x n float64 matrix split on rows
           (dist_qr.py) vs pdgeqrf + pdorgqr from C (pdgeqrf_reference.c)
  dist fft the same fftn of an array split on rows at --ranks ranks
           (dist_fft.py under mpirun) vs FFTW-MPI from C on the same ranks
           (fftw_mpi_reference.c, its slab decomposition)

Every frontend time includes allocating its result (as numpy's), which
the C references do not: where page faults are slow that is a visible part
(docs/pipeline.md).

Ratios > 1 mean the frontend is faster (ref/ours = t_ref / t_ours).
"""

import argparse
import os
import subprocess
import sys
import time

import numpy as np


def best(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def operands(n):
    i = np.arange(n * n, dtype=np.int64)
    return ((i % 7) - 3.0).reshape(n, n), ((i % 5) - 2.0).reshape(n, n)


def bench_matmul(xp, n, reps, threads, reference):
    a, b = operands(n)
    xa, xb = xp.asarray(a), xp.asarray(b)

    results = []

    def ours():
        # (Computed and kept, as numpy's a @ b returns a computed array; the
        # previous result is freed first, as numpy's is.)
        results.clear()
        results.append(xa @ xb)
        xp.sync()
    t_ours = best(ours, reps)
    results.clear()
    want = a @ b
    assert np.array_equal((xa @ xb).to_numpy(), want)
    t_numpy = best(lambda: a @ b, reps)
    out = subprocess.run([reference, str(n), str(reps), str(threads)],
                         capture_output=True, text=True, check=True)
    t_ref, checksum = (float(v) for v in out.stdout.split())
    assert checksum == want.sum(), (checksum, want.sum())
    gflops = 2.0 * n ** 3 / 1e9
    print(f"matmul {n}x{n} f64: ours {t_ours:8.4f} s ({gflops / t_ours:6.1f}"
          f" GFLOP/s)  openblas-dgemm-from-C {t_ref:8.4f} s  "
          f"C/ours {t_ref / t_ours:5.2f}  numpy {t_numpy:8.4f} s  "
          f"numpy/ours {t_numpy / t_ours:5.2f}", flush=True)


def solve_operands(n):
    """The matrix and vector of lapack_reference.c."""
    i = np.arange(n * n, dtype=np.int64)
    a = ((i * 7919 % 1000) / 1000.0 - 0.5).reshape(n, n)
    a[np.arange(n), np.arange(n)] += n
    return a, (np.arange(n) % 3) - 1.0


def report(name, t_ours, t_ref, ref_name, t_numpy):
    print(f"{name}: ours {t_ours:8.4f} s  {ref_name} {t_ref:8.4f} s  "
          f"C/ours {t_ref / t_ours:5.2f}  numpy {t_numpy:8.4f} s  "
          f"numpy/ours {t_numpy / t_ours:5.2f}", flush=True)


def run_reference(*command):
    out = subprocess.run(list(map(str, command)), capture_output=True,
                         text=True, check=True)
    return (float(v) for v in out.stdout.split())


def bench_lapack(xp, n, reps, reference):
    a, b = solve_operands(n)
    xa, xb = xp.asarray(a), xp.asarray(b)
    results = []

    def timed(fn):
        def run():
            results.clear()
            results.append(fn())
            xp.sync()
        return best(run, reps)

    t_ours = timed(lambda: xp.linalg.solve(xa, xb))
    x = results[0].to_numpy()
    t_ref, checksum = run_reference(reference, "solve", n, reps)
    assert np.allclose(x, np.linalg.solve(a, b))
    assert np.isclose(x.sum(), checksum, rtol=1e-6, atol=1e-9)
    report(f"solve {n}x{n} f64", t_ours, t_ref, "lapacke-dgesv-from-C",
           best(lambda: np.linalg.solve(a, b), reps))
    t_ours = timed(lambda: xp.linalg.qr(xa))
    r = results[0][1].to_numpy()
    t_ref, checksum = run_reference(reference, "qr", n, reps)
    assert np.isclose(np.abs(np.diag(r)).sum(), checksum, rtol=1e-9)
    results.clear()
    report(f"qr {n}x{n} f64", t_ours, t_ref,
           "lapacke-dgeqrf+dorgqr-from-C", best(lambda: np.linalg.qr(a),
                                                reps))


def bench_fft(xp, rank, n, reps, reference):
    i = np.arange(n ** rank, dtype=np.int64)
    c = ((i % 7 - 3) + 1j * (i % 5 - 2)).reshape((n,) * rank)
    xc = xp.asarray(c)
    results = []

    def ours():
        results.clear()
        results.append(xp.fft.fftn(xc))
        xp.sync()
    t_ours = best(ours, reps)
    want = np.fft.fftn(c)
    got = results[0].to_numpy()
    results.clear()
    assert np.allclose(got, want, rtol=1e-9, atol=1e-6 * n ** rank)
    t_ref, checksum = run_reference(reference, rank, n, reps)
    assert np.isclose(checksum, want.real.sum(), rtol=1e-9,
                      atol=1e-6 * n ** rank)
    shape = "x".join([str(n)] * rank)
    report(f"fftn {shape} c128", t_ours, t_ref, "fftw-from-C",
           best(lambda: np.fft.fftn(c), reps))


def run_distributed(ranks, python, driver, reference, *args):
    """(time, checksum) of the frontend's `driver` (a dist_*.py) and of the
    C `reference`, each under mpirun on `ranks` ranks with `args`."""
    mpirun = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n",
              str(ranks)]
    here = os.path.dirname(os.path.abspath(__file__))
    ours = run_reference(*mpirun, sys.executable, os.path.join(here, driver),
                         python, *args)
    return ours, run_reference(*mpirun, reference, *args)


def bench_dist_matmul(python, n, reps, ranks, reference):
    (t_ours, sum_ours), (t_ref, sum_ref) = run_distributed(
        ranks, python, "dist_matmul.py", reference, n, reps)
    a, b = operands(n)
    want = (a @ b).sum()
    assert sum_ours == want and sum_ref == want, (sum_ours, sum_ref, want)
    gflops = 2.0 * n ** 3 / 1e9
    print(f"dist matmul {n}x{n} f64 on {ranks} ranks: ours {t_ours:8.4f} s "
          f"({gflops / t_ours:6.1f} GFLOP/s)  scalapack-pdgemm {t_ref:8.4f} s"
          f"  pdgemm/ours {t_ref / t_ours:5.2f}", flush=True)


def bench_dist_solve(python, n, reps, ranks, reference):
    (t_ours, sum_ours), (t_ref, sum_ref) = run_distributed(
        ranks, python, "dist_solve.py", reference, n, reps)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from dist_solve import operands
    a, b = operands(n)
    want = np.linalg.solve(a, b).sum()
    for got in (sum_ours, sum_ref):
        assert np.isclose(got, want, rtol=1e-6, atol=1e-9), (got, want)
    print(f"dist solve {n}x{n} f64 on {ranks} ranks (split=0): ours "
          f"{t_ours:8.4f} s  scalapack-pdgesv {t_ref:8.4f} s  pdgesv/ours "
          f"{t_ref / t_ours:5.2f}", flush=True)


def bench_dist_qr(python, n, reps, ranks, reference):
    (t_ours, sum_ours), (t_ref, sum_ref) = run_distributed(
        ranks, python, "dist_qr.py", reference, n, reps)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from dist_solve import operands
    a, _ = operands(n)
    want = np.abs(np.linalg.qr(a)[1]).sum()
    for got in (sum_ours, sum_ref):
        assert np.isclose(got, want, rtol=1e-9), (got, want)
    print(f"dist qr {n}x{n} f64 on {ranks} ranks (split=0): ours "
          f"{t_ours:8.4f} s  scalapack-pdgeqrf+pdorgqr {t_ref:8.4f} s  "
          f"ref/ours {t_ref / t_ours:5.2f}", flush=True)


def bench_dist_fft(python, rank, n, reps, ranks, reference):
    (t_ours, sum_ours), (t_ref, sum_ref) = run_distributed(
        ranks, python, "dist_fft.py", reference, rank, n, reps)
    i = np.arange(n ** rank, dtype=np.int64)
    want = np.fft.fftn(((i % 7 - 3) + 1j * (i % 5 - 2)).reshape(
        (n,) * rank)).real.sum()
    for got in (sum_ours, sum_ref):
        assert np.isclose(got, want, rtol=1e-9, atol=1e-6 * n ** rank), (
            got, want)
    shape = "x".join([str(n)] * rank)
    print(f"dist fftn {shape} c128 on {ranks} ranks (split=0): ours "
          f"{t_ours:8.4f} s  fftw-mpi {t_ref:8.4f} s  fftw-mpi/ours "
          f"{t_ref / t_ours:5.2f}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.
                                     RawDescriptionHelpFormatter)
    parser.add_argument("--python", required=True,
                        help="build/python (the imex package)")
    parser.add_argument("--reference", required=True,
                        help="the gemm_reference executable")
    parser.add_argument("--lapack-reference",
                        help="the lapack_reference executable")
    parser.add_argument("--fft-reference",
                        help="the fft_reference executable")
    parser.add_argument("--sizes", default="1024,4096",
                        help="matmul sizes")
    parser.add_argument("--pdgemm-reference",
                        help="the pdgemm_reference executable")
    parser.add_argument("--dist-sizes", default="4096",
                        help="distributed matmul sizes")
    parser.add_argument("--ranks", type=int, default=4)
    parser.add_argument("--lapack-sizes", default="2048")
    parser.add_argument("--fft-sizes", default="2048:2,128:3",
                        help="n:rank of the fftn benchmarks")
    parser.add_argument("--pdgesv-reference",
                        help="the pdgesv_reference executable")
    parser.add_argument("--dist-solve-sizes", default="2048",
                        help="distributed solve sizes")
    parser.add_argument("--pdgeqrf-reference",
                        help="the pdgeqrf_reference executable")
    parser.add_argument("--dist-qr-sizes", default="2048",
                        help="distributed QR sizes")
    parser.add_argument("--fftw-mpi-reference",
                        help="the fftw_mpi_reference executable")
    parser.add_argument("--dist-fft-sizes", default="2048:2,128:3",
                        help="n:rank of the distributed fftn benchmarks")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.python)
    import imex as xp
    print(f"imex linalg vs references (host: {os.uname().nodename}, BLAS "
          f"threads {args.threads})", flush=True)
    for n in map(int, filter(None, args.sizes.split(","))):
        bench_matmul(xp, n, args.reps, args.threads, args.reference)
    if args.pdgemm_reference:
        for n in map(int, filter(None, args.dist_sizes.split(","))):
            bench_dist_matmul(args.python, n, args.reps, args.ranks,
                              args.pdgemm_reference)
    if args.lapack_reference:
        for n in map(int, filter(None, args.lapack_sizes.split(","))):
            bench_lapack(xp, n, args.reps, args.lapack_reference)
    if args.fft_reference:
        for spec in filter(None, args.fft_sizes.split(",")):
            n, rank = map(int, spec.split(":"))
            bench_fft(xp, rank, n, args.reps, args.fft_reference)
    if args.pdgesv_reference:
        for n in map(int, filter(None, args.dist_solve_sizes.split(","))):
            bench_dist_solve(args.python, n, args.reps, args.ranks,
                             args.pdgesv_reference)
    if args.pdgeqrf_reference:
        for n in map(int, filter(None, args.dist_qr_sizes.split(","))):
            bench_dist_qr(args.python, n, args.reps, args.ranks,
                          args.pdgeqrf_reference)
    if args.fftw_mpi_reference:
        for spec in filter(None, args.dist_fft_sizes.split(",")):
            n, rank = map(int, spec.split(":"))
            bench_dist_fft(args.python, rank, n, args.reps, args.ranks,
                           args.fftw_mpi_reference)


if __name__ == "__main__":
    main()
