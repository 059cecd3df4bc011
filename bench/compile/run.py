"""Compile time of ndarray programs, step by step, single-process vs
distributed (see README.md). Not a test: prints a table, asserts nothing."""

import argparse
import os
import re
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")

DEFAULT_PROGRAMS = [
    "examples/jacobi2d.mlir:imex-cpu-pipeline",
    "examples/jacobi2d_dist.mlir:imex-dist-cpu-pipeline",
    "examples/jacobi2d_gpu.mlir:imex-gpu-pipeline",
]
STEPS = ["parse", "lower", "translate", "llvm-opt", "codegen", "link", "run",
         "total"]
SIZES = ["lowered ops", "LLVM IR instructions", "object bytes"]


def run_once(runner, path, pipeline, extra, cache_dir=None):
    """Runs imex-runner --timing; returns (step -> s, size -> n, wall s)."""
    env = dict(os.environ)
    if cache_dir:
        env["IMEX_CACHE_DIR"] = cache_dir
        args = []
    else:
        args = ["--no-cache"]
    cmd = [runner, path, f"--pipeline={pipeline}", "--timing", *args, *extra]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    # (77: a GPU program compiled on a machine without a device; the
    # compilation is what is measured.)
    if proc.returncode not in (0, 77):
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    steps = {name: float(value) for name, value in
             re.findall(r"([a-z-]+) ([0-9.]+) s", proc.stderr)}
    sizes = {name: int(value) for value, name in
             re.findall(r"(\d+) (lowered ops|LLVM IR instructions|object bytes)",
                        proc.stderr)}
    return steps, sizes, wall


def best(runs):
    """Per step, the minimum over the runs (the least disturbed)."""
    return {step: min(r[0][step] for r in runs) for step in STEPS}


def compile_time(steps):
    return sum(steps[s] for s in ("lower", "translate", "llvm-opt", "codegen"))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--programs", default=",".join(DEFAULT_PROGRAMS),
                        help="comma-separated FILE:PIPELINE; the first is the "
                             "reference of the ratios")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--ablate-lsr", action="store_true",
                        help="also compile with loop strength reduction")
    args = parser.parse_args()
    runner = os.path.join(args.build, "bin", "imex-runner")

    variants = [("", [])]
    if args.ablate_lsr:
        variants.append((" +LSR", ["--loop-strength-reduction"]))
    configs = []
    for spec in args.programs.split(","):
        path, pipeline = spec.rsplit(":", 1)
        full = path if os.path.isabs(path) else os.path.join(ROOT, path)
        # Pipeline options tell variants of one program apart.
        options = pipeline[pipeline.find("{"):] if "{" in pipeline else ""
        for suffix, extra in variants:
            configs.append((os.path.basename(path) + options + suffix, full,
                            pipeline, extra))
    # Round-robin over the programs, so that a change of the machine's load
    # disturbs all of them alike (the ratios compare runs of one round).
    runs = {name: [] for name, *_ in configs}
    for _ in range(args.repeat):
        for name, full, pipeline, extra in configs:
            runs[name].append(run_once(runner, full, pipeline, extra))
    rows = []
    for name, full, pipeline, extra in configs:
        cache = os.path.join(args.build, "bench-compile-cache")
        subprocess.run(["rm", "-rf", cache], check=True)
        run_once(runner, full, pipeline, extra, cache)  # stores
        hit = min(run_once(runner, full, pipeline, extra, cache)[2]
                  for _ in range(args.repeat))
        program_runs = runs[name]
        rows.append((name, best(program_runs), program_runs[0][1],
                     min(r[2] for r in program_runs), hit))

    print(f"imex-runner --timing, best of {args.repeat} (s); 'wall' is the "
          f"whole process, 'cached' the wall time when the object comes from "
          f"the cache")
    header = ["program"] + STEPS + ["wall", "cached"] + SIZES
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, steps, sizes, wall, hit in rows:
        cells = [name] + [f"{steps[s]:.3f}" for s in STEPS] + \
            [f"{wall:.3f}", f"{hit:.3f}"] + [str(sizes.get(s, 0)) for s in SIZES]
        print("| " + " | ".join(cells) + " |")
    ref = rows[0]
    for name, steps, sizes, wall, _ in rows[1:]:
        # Per round, then the median over the rounds.
        paired = sorted(compile_time(mine[0]) / compile_time(theirs[0])
                        for mine, theirs in zip(runs[name], runs[ref[0]]))
        print(f"{name} / {ref[0]}: compile time "
              f"{compile_time(steps) / compile_time(ref[1]):.2f}x "
              f"(best of each; median of the rounds' ratios "
              f"{paired[len(paired) // 2]:.2f}x), wall "
              f"{wall / ref[3]:.2f}x, lowered ops "
              f"{sizes['lowered ops'] / ref[2]['lowered ops']:.2f}x, "
              f"LLVM IR instructions "
              f"{sizes['LLVM IR instructions'] / ref[2]['LLVM IR instructions']:.2f}x")


if __name__ == "__main__":
    main()
