"""Python frontend benchmarks, against named references in the same run:

  dispatch   a cached 1-op kernel on 16 elements, call to return, vs numpy
  chain      a 10-op elementwise chain on 1k elements, vs numpy
  compile    first compile of a 50-op elementwise program (empty disk
             cache) and a persistent-cache hit in a new process
  jacobi     n x n 5-point Jacobi, double-buffered as bench/cpu's C++
             reference: a Python time-step loop and @imex.jit + fori_loop,
             and as numpy users write it in place (`u[1:-1, 1:-1] = 0.25 *
             (u[:-2, 1:-1] + ...)`, one grid), vs numpy and the C++
             reference (clang++ -O3 -march=native)
  blackscholes  call and put prices of n options, vs the C++ reference
  dist       the Jacobi (Python time-step loop, jit + fori_loop, in place) split
             over 1, 2, 4 ranks under mpirun vs bench/dist's hand-written
             C++/MPI (jacobi_mpi); `--split 0,1`: over the 2-D grid of the
             ranks, vs its 2-D decomposition (jacobi-grid)
  sort       sort and argsort of --sort-n f64 split over 1, 2, 4 ranks (a
             sample sort) vs numpy.sort / numpy.argsort(kind="stable") of
             the same data on one core

Ratios > 1 mean the frontend is faster (ref/ours = t_ref / t_ours).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def best(fn, reps, rounds=5):
    """Best mean time per call over `rounds` rounds of `reps` calls."""
    fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return min(times)


def row(name, ours, refs):
    cells = [f"{name:<34} {ours * 1e6:12.1f} us"]
    for label, t in refs:
        if t is None:
            cells.append(f"{label}: n/a")
        else:
            cells.append(f"{label} {t * 1e6:10.1f} us  {label}/ours "
                         f"{t / ours:5.2f}")
    print("  ".join(cells), flush=True)


def bench_dispatch(xp):
    a = xp.asarray(np.ones(16))
    x = np.ones(16)

    def ours():
        a + 1.0
        xp.sync()
    row("dispatch: 1 op, 16 elements", best(ours, 2000),
        [("numpy", best(lambda: x + 1.0, 2000))])


def chain(m, a):
    for _ in range(5):
        a = a * 1.01 + 0.5
    return a


def bench_chain(xp):
    x = np.linspace(0.0, 1.0, 1000)
    a = xp.asarray(x)

    def ours():
        chain(xp, a)
        xp.sync()
    row("chain: 10 ops, 1k elements", best(ours, 1000),
        [("numpy", best(lambda: chain(np, x), 1000))])


COMPILE_PROGRAM = """
import sys, time
sys.path.insert(0, {path!r})
import numpy as np
import imex as xp
a = xp.asarray(np.linspace(0.0, 1.0, 64))
b = a
ops = [lambda v: v * 1.001, lambda v: v + 0.25, xp.sin, lambda v: v - 0.5,
       xp.abs]
for k in range(50):
    b = ops[(k * {seed}) % 5](b)
xp.asarray(np.ones(2)).to_numpy()  # set-up (engine, first session)
t0 = time.perf_counter()
b.to_numpy()
print(time.perf_counter() - t0, xp.stats()["disk_hits"])
"""


def bench_compile(python_dir):
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, IMEX_CACHE_DIR=cache)
        program = COMPILE_PROGRAM.format(path=python_dir,
                                         seed=int(time.time()) % 97 * 2 + 1)
        results = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", program], env=env,
                                 capture_output=True, text=True, check=True)
            results.append(out.stdout.split())
    first, hit = float(results[0][0]), float(results[1][0])
    print(f"{'compile: 50-op program, first':<34} {first * 1e3:12.1f} ms  "
          f"(disk hits {results[0][1]})")
    print(f"{'compile: 50-op program, disk hit':<34} {hit * 1e3:12.1f} ms  "
          f"(disk hits {results[1][1]})", flush=True)


def jacobi_numpy(u, v, steps):
    for _ in range(steps):
        v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
        u, v = v, u
    return u, v


def jacobi_python_loop(xp, u, v, steps):
    """`steps` Jacobi steps as a Python loop, one kernel per step."""
    a, b = u, v
    for _ in range(steps):
        b[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] +
                                a[1:-1, :-2] + a[1:-1, 2:])
        a, b = b, a
    xp.sync()


def jacobi_inplace_python_loop(xp, u, steps):
    """`steps` Jacobi steps updating one grid, as numpy users write them
    (the right-hand side is evaluated before the assignment): one kernel
    per step, which reads the views of the array it writes."""
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] +
                                u[1:-1, :-2] + u[1:-1, 2:])
    xp.sync()


def make_jacobi_jit(xp):
    @xp.jit
    def jacobi(u, v, steps):
        def step(i, state):
            u, v = state
            v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] +
                                    u[1:-1, :-2] + u[1:-1, 2:])
            return v, u
        return xp.fori_loop(0, steps, step, (u, v))
    return jacobi


def reference(binary, *args):
    if not binary or not os.path.exists(binary):
        return None
    out = subprocess.run([binary, *map(str, args)], capture_output=True,
                         text=True, check=True)
    return float(out.stdout.split()[0])


def bench_jacobi(xp, n, steps, cpp):
    grid = np.zeros((n, n))
    grid[0, :] = 1.0
    u, v = xp.asarray(grid), xp.asarray(grid)

    def python_loop():
        jacobi_python_loop(xp, u, v, steps)
    jacobi = make_jacobi_jit(xp)

    def jit():
        jacobi(u, v, steps)
        xp.sync()

    def in_place():
        jacobi_inplace_python_loop(xp, u, steps)
    nu, nv = grid.copy(), grid.copy()
    t_numpy = best(lambda: jacobi_numpy(nu, nv, steps), 1, 3) / steps
    t_cpp = reference(cpp, "stencil", n, steps * 5)
    refs = [("numpy", t_numpy), ("c++", t_cpp)]
    row(f"jacobi {n}^2, per step, Python loop",
        best(python_loop, 1, 3) / steps, refs)
    row(f"jacobi {n}^2, per step, jit+fori_loop", best(jit, 1, 3) / steps,
        refs)
    row(f"jacobi {n}^2, per step, in place u[c] = f(u)",
        best(in_place, 1, 3) / steps, refs)


def bench_blackscholes(xp, n, cpp):
    x = np.arange(n) / n
    price, strike, t = 10 + 40 * x, 20 + 10 * x, 0.5 + 1.5 * x
    S, K, T = xp.asarray(price), xp.asarray(strike), xp.asarray(t)
    r, v = 0.02, 0.3

    def prices():
        sqrt_t = xp.sqrt(T)
        d1 = (xp.log(S / K) + (r + 0.5 * v * v) * T) / (v * sqrt_t)
        d2 = d1 - v * sqrt_t
        n1 = 0.5 + 0.5 * xp.erf(d1 / np.sqrt(2.0))
        n2 = 0.5 + 0.5 * xp.erf(d2 / np.sqrt(2.0))
        kd = K * xp.exp(-r * T)
        call = S * n1 - kd * n2
        put = kd - S + call
        return call, put

    def ours():
        # Synced once the intermediates are out of scope: one fused loop
        # that stores only the two results.
        result = prices()
        xp.sync()
        return result
    row(f"blackscholes n={n}", best(ours, 3, 3),
        [("c++", reference(cpp, "blackscholes", n, 10))])


DIST_PROGRAM = """
import sys, time
sys.path.insert(0, {path!r})
sys.path.insert(0, {here!r})
import numpy as np
import imex as xp
from run import jacobi_inplace_python_loop, jacobi_python_loop, make_jacobi_jit
xp.init()
n, steps = {n}, {steps}
grid = np.zeros((n, n)); grid[0, :] = 1.0
u, v = xp.asarray(grid, split={split}), xp.asarray(grid, split={split})
jacobi = make_jacobi_jit(xp)


def python_loop():
    jacobi_python_loop(xp, u, v, steps)


def jit():
    jacobi(u, v, steps)
    xp.sync()


def in_place():
    jacobi_inplace_python_loop(xp, u, steps)


for run in (python_loop, jit, in_place):
    run()  # compile
    times = []
    for _ in range(3):
        t0 = time.perf_counter(); run()
        times.append((time.perf_counter() - t0) / steps)
    xp.print0(min(times))
"""


def bench_dist(python_dir, n, steps, mpi_reference, ranks, split):
    """split: "0" (rows) or the split axes, e.g. "0,1" (the 2-D grid of the
    ranks, against the reference's 2-D decomposition, jacobi-grid)."""
    axes = tuple(int(a) for a in split.split(","))
    kernel = "jacobi" if axes == (0,) else "jacobi-grid"
    label = "" if axes == (0,) else f" split={split}"
    for p in ranks:
        program = DIST_PROGRAM.format(path=python_dir, here=HERE, n=n,
                                      steps=steps, split=axes)
        out = subprocess.run(["mpirun", "-n", str(p), sys.executable, "-c",
                              program], capture_output=True, text=True,
                             check=True)
        loop, jit, in_place = (float(t) for t in out.stdout.split()[:3])
        ref = None
        if mpi_reference and os.path.exists(mpi_reference):
            r = subprocess.run(["mpirun", "-n", str(p), mpi_reference,
                                kernel, str(n), str(n), str(steps * 5),
                                "2"], capture_output=True, text=True,
                               check=True)
            ref = float(r.stdout.split("time=")[1].split()[0])
        row(f"dist jacobi {n}^2{label} Python loop, {p} ranks", loop,
            [("c++/mpi", ref)])
        row(f"dist jacobi {n}^2{label} jit, {p} ranks", jit,
            [("c++/mpi", ref)])
        row(f"dist jacobi {n}^2{label} in place u[c] = f(u), {p} ranks",
            in_place, [("c++/mpi", ref)])


SORT_PROGRAM = """
import sys, time
sys.path.insert(0, {path!r})
import numpy as np
import imex as xp
x = np.random.default_rng(5).uniform(size={n})
a = xp.asarray(x, split=0)
xp.sync()
for name, fn in (("sort", xp.sort), ("argsort", xp.argsort)):
    fn(a)
    xp.sync()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        r = fn(a)
        xp.sync()
        times.append(time.perf_counter() - t0)
        del r
    xp.print0(name, min(times))
"""


def bench_sort(python_dir, n, ranks):
    x = np.random.default_rng(5).uniform(size=n)
    refs = {"sort": min(_timed(lambda: np.sort(x)) for _ in range(3)),
            "argsort": min(_timed(lambda: np.argsort(x, kind="stable"))
                           for _ in range(3))}
    for p in ranks:
        out = subprocess.run(["mpirun", "-n", str(p), sys.executable, "-c",
                              SORT_PROGRAM.format(path=python_dir, n=n)],
                             capture_output=True, text=True, check=True)
        for line in out.stdout.splitlines():
            name, t = line.split()
            row(f"{name} {n:.0e} f64, {p} ranks", float(t),
                [(f"numpy.{name}", refs[name])])


def _timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--python", default=os.path.join(REPO, "build",
                                                         "python"))
    parser.add_argument("--cpp", help="bench/cpu reference executable")
    parser.add_argument("--mpi-reference", help="bench/dist jacobi_mpi")
    parser.add_argument("--n", type=int, default=2048)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--options", type=int, default=1 << 22)
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--split", default="0",
                        help="dist: the split axes, 0 (rows) or e.g. 0,1 "
                        "(a 2-D grid, against the reference's jacobi-grid)")
    parser.add_argument("--sort-n", type=int, default=10**7)
    parser.add_argument("--only", default="dispatch,chain,compile,jacobi,"
                        "blackscholes,dist,sort")
    args = parser.parse_args()
    sys.path.insert(0, args.python)
    import imex as xp
    only = args.only.split(",")
    print(f"imex Python frontend vs references (host: {os.uname().nodename},"
          f" {os.cpu_count()} cores, run-time bounds checks "
          f"{'off' if os.environ.get('IMEX_BOUNDS_CHECKS') == '0' else 'on'})")
    if "dispatch" in only:
        bench_dispatch(xp)
    if "chain" in only:
        bench_chain(xp)
    if "compile" in only:
        bench_compile(args.python)
    if "jacobi" in only:
        bench_jacobi(xp, args.n, args.steps, args.cpp)
    if "blackscholes" in only:
        bench_blackscholes(xp, args.options, args.cpp)
    if "dist" in only:
        bench_dist(args.python, args.n, args.steps, args.mpi_reference,
                   [int(p) for p in args.ranks.split(",")], args.split)
    if "sort" in only:
        bench_sort(args.python, args.sort_n,
                   [int(p) for p in args.ranks.split(",")])


if __name__ == "__main__":
    main()
