"""Distributed stencil benchmarks: ndarray kernels (bench/dist/kernels.mlir)
compiled by imex-dist-cpu-pipeline and JIT-run on every rank by
imex-dist-bench, against the hand-written C++/MPI version
(bench/dist/jacobi_mpi.cpp, -O3 -march=native -ffp-contract=off: the
same floating-point operations as ours), in the same run, on 1, 2
and 4 ranks (4 oversubscribes a 2-core machine).

For each kernel, grid (n: n x n, or RxC: R rows, the distributed
dimension, by C columns) and rank count it prints the time per step of
both (the best of --repeat runs; each run's time is the slowest rank's),
t_mpi / t_ours (> 1: ours is faster), the halo messages each rank sends
per step (ours from the IDTR counters, max over ranks; the C++ version
sends one per neighbour), and the halo time per step, min and max over
the ranks: ours in IDTR (in the exchange calls and blocked in their waits:
the communication time overlap did not hide; from the IDTR time counters),
the reference's in its exchange (Isend/Irecv/Waitall). The rank arriving
last at an exchange waits least, so the min is the cost of communicating
and the max adds the imbalance between ranks. The checksums of both must
agree. With --ablate including overlap-comm-and-compute it also prints the
fraction of that time overlap hides (and overlap plus IDTR's asynchronous
progress thread, with async-progress; and split-interior=1 against =0 with
split-interior).

Pipeline variants (for the communication optimizations): --variant
NAME=PIPELINE adds a row per variant; --ablate OPT,... (or `auto`: the
known options the pipeline accepts, read from `imex-opt --help`, and
async-progress) adds two variants per option, `OPT=0` and `OPT=1`, e.g.
  run.py --ablate dist-coalesce,overlap-comm-and-compute
`async-progress` is a runtime option: IDTR_ASYNC_PROGRESS=0/1 in the
environment of the ranks (IDTR's progress thread), with the default
pipeline. Results are appended to --csv.
"""

import argparse
import csv
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PIPELINE = "imex-dist-cpu-pipeline"
# Options of imex-dist-cpu-pipeline that switch communication optimizations.
KNOWN_OPTIONS = ["dist-coalesce", "overlap-comm-and-compute", "split-interior",
                 "add-comm-cache-keys", "double-buffer-loops", "bounds-checks"]
SIZES = {"jacobi": [1024, 4096], "wave2d": [1024, 2048]}
# Runtime options for --ablate: environment variables of the ranks.
RUNTIME_OPTIONS = {"async-progress": "IDTR_ASYNC_PROGRESS"}
# Point updates per timed run (about a second on one rank), and at least
# MIN_ITERS steps: the time loop's one-time costs (the second buffer of a
# double-buffered grid is allocated and first touched inside it, a copy of
# an array when two start from one value, an odd last step through a
# temporary) are amortized as in a real time loop.
MIN_ITERS = 20
WORK = {"jacobi": 1e9, "wave2d": 5e8}
TEAM = " {dist.team = 1 : i64}"


def parse_grid(text):
    """`n` (n x n) or `RxC` -> (rows, cols)."""
    rows, _, cols = text.lower().partition("x")
    return int(rows), int(cols or rows)


def grid_name(rows, cols):
    return str(rows) if rows == cols else f"{rows}x{cols}"


def specialize(kernel, rows, cols, dist=True, split=None):
    """kernels.mlir plus @bench_main(%iters) calling `kernel` on a rows x
    cols grid (its arrays split on the axes `split` over the run-time grid
    of ranks, if given)."""
    with open(os.path.join(HERE, "kernels.mlir")) as f:
        text = f.read()
    if not dist:
        text = text.replace(TEAM, "")
    elif split:
        text = text.replace(TEAM, f" {{dist.team = 1 : i64, dist.split = "
                            f"array<i64: {split}>}}")
    return text + f"""
func.func @bench_main(%iters: index) -> f64 {{
  %rows = arith.constant {rows} : index
  %cols = arith.constant {cols} : index
  %r = func.call @{kernel}(%rows, %cols, %iters)
      : (index, index, index) -> f64
  return %r : f64
}}
"""


def mpirun(nprocs, cmd, extra_env=None):
    # Ranks are pinned to cores while there are enough cores; beyond that
    # Open MPI oversubscribes (and yields the core while waiting).
    bind = "core" if nprocs <= (os.cpu_count() or 1) else "none"
    flags = ["--oversubscribe", "--bind-to", bind]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    for name, value in (extra_env or {}).items():
        env[name] = value
        flags += ["-x", name]
    proc = subprocess.run(["mpirun", "-n", str(nprocs), *flags, *cmd],
                          capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} on {nprocs} ranks failed "
                           f"({proc.returncode}):\n{proc.stdout}\n"
                           f"{proc.stderr}")
    fields = {}
    for line in proc.stdout.splitlines():
        for key, value in re.findall(r"(\w+)=(\S+)", line):
            fields[key] = float(value)
    if "time" not in fields:
        raise RuntimeError(f"no result from {' '.join(cmd)}:\n{proc.stdout}"
                           f"\n{proc.stderr}")
    return fields


def best_interleaved(nprocs, commands, repeat):
    """Runs each (cmd, env) of `commands` `repeat` times, round-robin (the
    reference and every variant side by side in time, so that a change of
    the machine's speed during the run, which is large on a shared VM,
    affects them alike), and returns for each the fastest run, or the
    RuntimeError of its first failure."""
    results = [[] for _ in commands]
    for _ in range(repeat):
        for runs, (cmd, env) in zip(results, commands):
            if runs and isinstance(runs[0], RuntimeError):
                continue
            try:
                runs.append(mpirun(nprocs, cmd, env))
            except RuntimeError as e:
                runs[:] = [e]
    return [runs[0] if isinstance(runs[0], RuntimeError)
            else min(runs, key=lambda r: r["time"]) for runs in results]


def pipeline_options(opt):
    """The KNOWN_OPTIONS imex-opt lists for the pipeline."""
    try:
        text = subprocess.run([opt, "--help"], capture_output=True,
                              text=True).stdout
    except OSError:
        return []
    match = re.search(rf"--{PIPELINE}\b(.*?)(?=\n {{6}}--\w|\Z)", text,
                      re.S)
    section = match.group(1) if match else ""
    return [o for o in KNOWN_OPTIONS if re.search(rf"--{o}\b", section)]


def exposed(result):
    """Halo time a rank spends in IDTR per step (ms, max over ranks): in the
    exchange calls plus blocked in their waits; what overlap does not
    hide."""
    return result.get("halo_call_ms", 0.0) + result.get("halo_wait_ms", 0.0)


def print_hidden(rows):
    """For runs with overlap-comm-and-compute off and on (and async-progress
    on, with overlap): the fraction of the exposed halo time without overlap
    that is hidden, for the min and the max over the ranks."""
    by_case = {}
    for row in rows:
        key = (row["kernel"], row["grid"], row["ranks"])
        by_case.setdefault(key, {})[row["variant"]] = row
    lines = []
    for (kernel, grid, ranks), variants in by_case.items():
        if ranks == 1:
            continue
        for base_name, name, what in (
                ("overlap-comm-and-compute=0", "overlap-comm-and-compute=1",
                 "overlap"),
                ("overlap-comm-and-compute=0", "async-progress=1",
                 "overlap + async progress"),
                ("split-interior=0", "split-interior=1",
                 "computing the interior while halos are in flight")):
            off, on = variants.get(base_name), variants.get(name)
            if not off or not on:
                continue
            parts = []
            for col, label in (("halo_exposed_ms_min", "min"),
                               ("halo_exposed_ms_per_step", "max")):
                base, now = off[col], on[col]
                hidden = (f"{(1.0 - now / base) * 100:.0f}%" if base > 0
                          else "-")
                parts.append(f"{label} {base:.4f} -> {now:.4f} ({hidden})")
            lines.append(f"{kernel:<8}{grid:>12}{ranks:>6}  exposed halo "
                         f"ms/step, hidden by {what}: {', '.join(parts)}")
    if lines:
        print("\n" + "\n".join(lines))


def variants(args):
    """(name, pipeline, environment of the ranks) to run."""
    out = [("default", args.pipeline, {})] + [
        (*v.split("=", 1), {}) for v in args.variant]
    if args.ablate:
        options = (pipeline_options(os.path.join(args.build, "bin",
                                                 "imex-opt"))
                   + list(RUNTIME_OPTIONS)
                   if args.ablate == "auto" else args.ablate.split(","))
        for o in options:
            for value in (0, 1):
                if o in RUNTIME_OPTIONS:
                    out.append((f"{o}={value}", args.pipeline,
                                {RUNTIME_OPTIONS[o]: str(value)}))
                else:
                    out.append((f"{o}={value}",
                                f"{args.pipeline}{{{o}={value}}}", {}))
    return out


def append_csv(path, rows):
    """Appends to `path`; an existing file with other columns (an older
    version of this script) is renamed to path.old first."""
    if os.path.exists(path):
        with open(path, newline="") as f:
            header = next(csv.reader(f), None)
        if header != list(rows[0]):
            os.replace(path, path + ".old")
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        if new:
            writer.writeheader()
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "..",
                                                        "build"))
    parser.add_argument("--reference", required=True,
                        help="the jacobi_mpi executable")
    parser.add_argument("--kernels", default="jacobi,wave2d")
    parser.add_argument("--sizes", help="grids for every kernel: n (n x n) "
                        "or RxC (R rows, split over the ranks, by C "
                        "columns), e.g. 512,2048,16x524288 (default: per "
                        "kernel)")
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--iters", type=int,
                        help="steps per timed run (default: ~1 s of work)")
    parser.add_argument("--pipeline", default=PIPELINE)
    parser.add_argument("--variant", action="append", default=[],
                        metavar="NAME=PIPELINE")
    parser.add_argument("--ablate", metavar="OPT,...|auto")
    parser.add_argument("--no-dist", action="store_true",
                        help="drop the team attributes (every rank computes "
                        "the whole grid): checks the driver without the "
                        "distributed pipeline; times are not comparable")
    parser.add_argument("--split", metavar="AXES",
                        help="split the arrays on these axes (e.g. 0,1: a "
                        "2-D grid of ranks chosen at run time) instead of "
                        "rows; with 0,1 the reference splits the same 2-D "
                        "grid (jacobi-grid, wave2d-grid), otherwise rows")
    parser.add_argument("--csv", help="default: <build>/bench-dist/"
                        "results.csv")
    args = parser.parse_args()
    if args.no_dist and args.pipeline == PIPELINE:
        args.pipeline = "imex-cpu-pipeline"

    bench = os.path.join(args.build, "bin", "imex-dist-bench")
    tmpdir = os.path.join(args.build, "bench-dist")
    os.makedirs(tmpdir, exist_ok=True)
    args.csv = args.csv or os.path.join(tmpdir, "results.csv")
    ranks = [int(r) for r in args.ranks.split(",")]
    pipelines = variants(args)

    print(f"pipeline: {args.pipeline} (run-time bounds checks on unless "
          f"bounds-checks=0)")
    print(f"load average before: {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} cores (other processes disturb the times)")
    header = (f"{'kernel':<8}{'grid':>12}{'ranks':>6}  {'variant':<30}"
              f"{'ours ms':>9}{'MPI ms':>9}{'MPI/ours':>9}"
              f"{'halo msgs/rank/step':>21}{'MPI msgs':>9}"
              f"{'halo ms min-max':>19}{'MPI halo ms min-max':>21}")
    print(header)
    print("-" * len(header))
    rows, failures = [], []
    for kernel in args.kernels.split(","):
        sizes = ([parse_grid(s) for s in args.sizes.split(",")] if args.sizes
                 else [(n, n) for n in SIZES[kernel]])
        for nrows, ncols in sizes:
            grid = grid_name(nrows, ncols)
            split = f"_split{args.split.replace(',', '')}" if args.split \
                else ""
            path = os.path.join(tmpdir, f"{kernel}_{grid}{split}.mlir")
            with open(path, "w") as f:
                f.write(specialize(kernel, nrows, ncols,
                                   dist=not args.no_dist, split=args.split))
            iters = args.iters or max(
                MIN_ITERS, min(2000, int(WORK[kernel] / nrows / ncols)))
            reference = f"{kernel}-grid" if args.split == "0,1" else kernel
            for p in ranks:
                commands = [([args.reference, reference, str(nrows),
                              str(ncols), str(iters), "2"], None)]
                commands += [([bench, path, str(iters),
                               f"--pipeline={pipeline}"], env)
                             for _, pipeline, env in pipelines]
                ref, *results = best_interleaved(p, commands, args.repeat)
                if isinstance(ref, RuntimeError):
                    raise ref
                for (name, pipeline, env), ours in zip(pipelines, results):
                    if isinstance(ours, RuntimeError):
                        e = ours
                        failures.append(f"{kernel} grid={grid} ranks={p} "
                                        f"{name}: {e}")
                        print(f"{kernel:<8}{grid:>12}{p:>6}  {name:<30}  "
                              f"FAILED")
                        continue
                    close = abs(ours["checksum"] - ref["checksum"]) <= \
                        1e-9 * max(1.0, abs(ref["checksum"]))
                    if not close:
                        failures.append(
                            f"{kernel} grid={grid} ranks={p} {name}: checksum "
                            f"{ours['checksum']!r} != MPI "
                            f"{ref['checksum']!r}")
                    ratio = ref["time"] / ours["time"]
                    lo = ours.get("halo_exposed_ms_min", 0.0)
                    ours_halo = f"{lo:.3f}-{exposed(ours):.3f}"
                    ref_halo = (f"{ref['halo_ms_min']:.3f}-"
                                f"{ref['halo_ms']:.3f}")
                    print(f"{kernel:<8}{grid:>12}{p:>6}  {name:<30}"
                          f"{ours['time'] * 1e3:9.3f}{ref['time'] * 1e3:9.3f}"
                          f"{ratio:9.2f}{ours['halo_msgs']:21.2f}"
                          f"{ref['halo_msgs']:9.2f}"
                          f"{ours_halo:>19}{ref_halo:>21}"
                          f"{'' if close else '  CHECKSUM MISMATCH'}")
                    sys.stdout.flush()
                    rows.append({
                        "kernel": kernel, "grid": grid, "rows": nrows,
                        "cols": ncols, "ranks": p, "variant": name,
                        "pipeline": pipeline,
                        "env": " ".join(f"{k}={v}" for k, v in env.items()),
                        "iters": iters,
                        "ours_s": ours["time"], "mpi_s": ref["time"],
                        "mpi_over_ours": ratio,
                        "halo_msgs_per_rank_step": ours["halo_msgs"],
                        "halo_msgs_mean": ours.get("halo_msgs_mean"),
                        "halo_calls_per_step": ours.get("halo_calls"),
                        "halo_bytes_per_step": ours.get("halo_bytes"),
                        "msgs_per_rank_step": ours.get("msgs"),
                        "collectives_per_rank_step": ours.get("collectives"),
                        "mpi_halo_msgs_per_rank_step": ref["halo_msgs"],
                        "halo_exposed_ms_per_step": exposed(ours),
                        "halo_exposed_ms_min": lo,
                        "mpi_halo_ms_per_step": ref["halo_ms"],
                        "mpi_halo_ms_min": ref["halo_ms_min"],
                        "checksum_ok": close})
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print_hidden(rows)
    if rows:
        append_csv(args.csv, rows)
        print(f"\nappended {len(rows)} rows to {args.csv}")
    if failures:
        print("\n" + "\n\n".join(failures), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
