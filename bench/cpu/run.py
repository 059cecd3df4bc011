"""CPU benchmarks: ndarray kernels through imex-cpu-pipeline (imex-bench)
against hand-written C++ (reference.cpp, -O3 -march=native) and numpy, in
the same run, from in-cache sizes to ~10x the last-level cache.

Prints a table of time per call, GB/s and ratios, and writes bench/cpu/
results.csv. Ratios > 1 mean ours is faster: cpp/ours = t_cpp / t_ours.
The bandwidth limit is the bytes each kernel must move at the STREAM triad
bandwidth measured by the C++ reference at the largest size.
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    from scipy.special import erf as np_erf
    NP_ERF = "scipy.special.erf"
except ImportError:  # numpy has no erf
    def np_erf(x):
        """Abramowitz-Stegun 7.1.26 (|error| < 1.5e-7): fewer operations
        than a full-precision erf, so numpy's time is a lower bound."""
        t = 1.0 / (1.0 + 0.3275911 * np.abs(x))
        y = 1.0 - t * (0.254829592 + t * (-0.284496736 + t * (
            1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * np.exp(-x * x)
        return np.copysign(y, x)
    NP_ERF = "Abramowitz-Stegun 7.1.26 in numpy (no scipy)"

SIZES = {
    "triad": [1 << 12, 1 << 16, 1 << 20, 1 << 23, 1 << 26],
    "blackscholes": [1 << 12, 1 << 16, 1 << 20, 1 << 23, 1 << 25],
    "rambo": [1 << 12, 1 << 16, 1 << 20, 1 << 23, 1 << 25],
    "stencil": [64, 256, 1024, 4096, 8192],
}
# Bytes a kernel must move per call (STREAM convention: no write-allocate).
BYTES = {
    "triad": lambda n: 24 * n,
    "blackscholes": lambda n: 40 * n,
    "rambo": lambda n: 64 * n,
    "stencil": lambda n: 16 * (n - 2) ** 2,
}
WORK = {"triad": lambda n: n, "blackscholes": lambda n: 20 * n,
        "rambo": lambda n: 20 * n, "stencil": lambda n: n * n}
# Kernels calling libm functions: also timed with scalar libm calls
# (imex-cpu-pipeline{vector-math=0}).
MATH_KERNELS = {"blackscholes", "rambo"}

ENTRY = {
    "triad": ("%a: {1}, %b: {1}, %c: {1}, %s: f64", ["a", "b", "c"], ", %s",
              "triad", "({1}, {1}, {1}, f64)"),
}


def specialize(kernel, n):
    """kernels.mlir plus `<kernel>_entry` with static argument shapes."""
    with open(os.path.join(HERE, "kernels.mlir")) as f:
        text = f.read()
    if kernel == "stencil":
        static, dynamic = f"!ndarray.ndarray<{n}x{n}xf64>", "!ndarray.ndarray<?x?xf64>"
        arrays, scalars = ["u", "v"], []
    else:
        static, dynamic = f"!ndarray.ndarray<{n}xf64>", "!ndarray.ndarray<?xf64>"
        arrays = {"triad": ["a", "b", "c"],
                  "blackscholes": ["price", "strike", "t", "call", "put"],
                  "rambo": ["r1", "r2", "r3", "r4", "px", "py", "pz", "w"]
                  }[kernel]
        scalars = {"triad": ["s"], "blackscholes": ["rate", "vol"],
                   "rambo": []}[kernel]
    params = [f"%{a}: {static}" for a in arrays] + [f"%{s}: f64" for s in scalars]
    lines = [f"func.func @{kernel}_entry({', '.join(params)}) "
             "attributes {llvm.emit_c_interface} {"]
    for a in arrays:
        lines.append(f"  %{a}_d = ndarray.cast %{a} : {static} to {dynamic}")
    args = [f"%{a}_d" for a in arrays] + [f"%{s}" for s in scalars]
    types = [dynamic] * len(arrays) + ["f64"] * len(scalars)
    lines.append(f"  func.call @{kernel}({', '.join(args)}) : "
                 f"({', '.join(types)}) -> ()")
    lines += ["  return", "}"]
    return text + "\n" + "\n".join(lines) + "\n"


def run_ours(bench, kernel, n, reps, tmpdir, pipeline=None):
    path = os.path.join(tmpdir, f"{kernel}_{n}.mlir")
    with open(path, "w") as f:
        f.write(specialize(kernel, n))
    cmd = [bench, path, kernel, str(n), str(reps)]
    if pipeline:
        cmd.append(f"--pipeline={pipeline}")
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    t, checksum = out.stdout.split()
    return float(t), float(checksum)


def run_cpp(reference, kernel, n, reps):
    out = subprocess.run([reference, kernel, str(n), str(reps)],
                         capture_output=True, text=True, check=True)
    t, checksum = out.stdout.split()
    return float(t), float(checksum)


def run_numpy(kernel, n, reps):
    if kernel == "triad":
        x = np.arange(n) / n
        a, b, c, s = np.ones(n), 1.0 + x, 2.0 + x, 3.0
        fn = lambda: a.__setitem__(slice(None), b + s * c)
        check = lambda: a[n // 2]
    elif kernel == "blackscholes":
        x = np.arange(n) / n
        S, K, T = 10 + 40 * x, 20 + 10 * x, 0.5 + 1.5 * x
        r, v = 0.02, 0.3
        out = {}

        def fn():
            sqrtT = np.sqrt(T)
            d1 = (np.log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrtT)
            d2 = d1 - v * sqrtT
            n1 = 0.5 + 0.5 * np_erf(d1 / np.sqrt(2.0))
            n2 = 0.5 + 0.5 * np_erf(d2 / np.sqrt(2.0))
            kd = K * np.exp(-r * T)
            out["call"] = S * n1 - kd * n2
            out["put"] = kd - S + out["call"]
        check = lambda: out["call"][n // 2] + out["put"][n // 3]
    elif kernel == "rambo":
        x = (np.arange(n) + 0.5) / n
        r1, r2, r3, r4 = x, 1.0 - x, 0.25 + 0.5 * x, 0.75 - 0.5 * x
        out = {}

        def fn():
            c = 2.0 * r1 - 1.0
            s = np.sqrt(1.0 - c * c)
            f = 6.283185307179586 * r2
            q = -np.log(r3 * r4)
            qs = q * s
            out["px"] = qs * np.cos(f)
            out["py"] = qs * np.sin(f)
            out["pz"] = q * c
            out["w"] = np.exp(-0.5 * (q * q))
        check = lambda: (out["px"][n // 3] + out["py"][n // 5] +
                         out["pz"][n // 2] + out["w"][n // 7])
    else:
        u, v = np.zeros((n, n)), np.zeros((n, n))
        u[0, :] = v[0, :] = 1.0
        state = {"u": u, "v": v}

        def fn():
            src, dst = state["u"], state["v"]
            dst[1:-1, 1:-1] = 0.25 * (src[:-2, 1:-1] + src[2:, 1:-1] +
                                      src[1:-1, :-2] + src[1:-1, 2:])
            state["u"], state["v"] = dst, src
        check = lambda: state["u"].sum()
    fn()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    t = (time.perf_counter() - t0) / reps
    return t, float(check())


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..", "build"))
    parser.add_argument("--reference", required=True)
    parser.add_argument("--kernels",
                        default="triad,blackscholes,rambo,stencil")
    parser.add_argument("--csv", default=os.path.join(HERE, "results.csv"))
    parser.add_argument("--quick", action="store_true",
                        help="two smallest sizes only")
    args = parser.parse_args()
    bench = os.path.join(args.build, "bin", "imex-bench")
    tmpdir = os.path.join(args.build, "bench-cpu")
    os.makedirs(tmpdir, exist_ok=True)

    # The machine's STREAM triad bandwidth, from the C++ reference.
    n_big = SIZES["triad"][-1]
    t_stream, _ = run_cpp(args.reference, "triad", n_big, 10)
    bandwidth = 24 * n_big / t_stream
    print(f"STREAM triad bandwidth (C++ reference, n={n_big}): "
          f"{bandwidth / 1e9:.2f} GB/s\n")

    print("pipeline: imex-cpu-pipeline (run-time bounds checks on: the "
          "kernels have dynamic sizes; vector math on: libm calls in loops "
          "call glibc's libmvec)")
    print("C++: clang++-22 -O3 -march=native, scalar libm calls; "
          f"numpy {np.__version__}, erf: {NP_ERF}")
    print("libm/ours: time with scalar libm calls (vector-math=0) over the "
          "default\n")
    rows = []
    header = (f"{'kernel':<13}{'n':>10}{'ours ms':>10}{'C++ ms':>10}"
              f"{'numpy ms':>10}{'GB/s':>8}{'C++/ours':>10}"
              f"{'numpy/ours':>11}{'libm/ours':>10}{'of BW':>8}")
    print(header)
    print("-" * len(header))
    for kernel in args.kernels.split(","):
        sizes = SIZES[kernel][:2] if args.quick else SIZES[kernel]
        for n in sizes:
            reps = max(3, min(2000, int(2e8 / WORK[kernel](n))))
            t_ours, c_ours = run_ours(bench, kernel, n, reps, tmpdir)
            t_cpp, c_cpp = run_cpp(args.reference, kernel, n, reps)
            t_np, c_np = run_numpy(kernel, n, max(1, reps // 4))
            t_libm = None
            if kernel in MATH_KERNELS:
                t_libm, c_libm = run_ours(
                    bench, kernel, n, reps, tmpdir,
                    pipeline="imex-cpu-pipeline{vector-math=0}")
                if not np.isclose(c_libm, c_cpp, rtol=1e-9):
                    sys.exit(f"{kernel} n={n}: scalar-libm checksum {c_libm} "
                             f"!= C++ {c_cpp}")
            if not np.isclose(c_ours, c_cpp, rtol=1e-9):
                sys.exit(f"{kernel} n={n}: checksum {c_ours} != C++ {c_cpp}")
            gbs = BYTES[kernel](n) / t_ours / 1e9
            t_bw = BYTES[kernel](n) / bandwidth
            row = {"kernel": kernel, "n": n, "ours_s": t_ours, "cpp_s": t_cpp,
                   "numpy_s": t_np, "ours_GBps": gbs,
                   "cpp_over_ours": t_cpp / t_ours,
                   "numpy_over_ours": (t_np / t_ours) if t_np else None,
                   "libm_over_ours": (t_libm / t_ours) if t_libm else None,
                   "bandwidth_fraction": t_bw / t_ours}
            rows.append(row)
            np_ms = f"{t_np * 1e3:10.3f}" if t_np else f"{'n/a':>10}"
            np_ratio = f"{t_np / t_ours:11.2f}" if t_np else f"{'n/a':>11}"
            libm_ratio = (f"{t_libm / t_ours:10.2f}" if t_libm
                          else f"{'-':>10}")
            print(f"{kernel:<13}{n:>10}{t_ours * 1e3:10.3f}{t_cpp * 1e3:10.3f}"
                  f"{np_ms}{gbs:8.2f}{t_cpp / t_ours:10.2f}{np_ratio}"
                  f"{libm_ratio}{t_bw / t_ours:8.2f}")
    with open(args.csv, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"\nwrote {args.csv}")


if __name__ == "__main__":
    main()
