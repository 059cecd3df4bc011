"""Linear algebra benchmarks, against named references in the same run:

  matmul   C = A @ B of n x n float64 matrices through the Python frontend
           (BLAS dgemm from the compiled kernel, imex-linalg-to-blas) vs
           OpenBLAS's cblas_dgemm called from C (gemm_reference.c) and
           numpy's matmul, all on the same BLAS thread count (--threads,
           default 1: the frontend's default of one BLAS thread per rank)

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


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.
                                     RawDescriptionHelpFormatter)
    parser.add_argument("--python", required=True,
                        help="build/python (the imex package)")
    parser.add_argument("--reference", required=True,
                        help="the gemm_reference executable")
    parser.add_argument("--sizes", default="1024,4096")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, args.python)
    import imex as xp
    print(f"imex linalg vs references (host: {os.uname().nodename}, BLAS "
          f"threads {args.threads})", flush=True)
    for n in map(int, args.sizes.split(",")):
        bench_matmul(xp, n, args.reps, args.threads, args.reference)


if __name__ == "__main__":
    main()
