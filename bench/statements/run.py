"""Statements as users write them (bench/statements/statements.py), timed
with the Python frontend at 1 rank (no mpirun) and under mpirun at 2 and 4
ranks, split on rows and on the 2-D grid of the ranks, against the
hand-written C++/MPI loops of statements_mpi.cpp in the same run (and numpy
at 1 rank). Prints one row per statement, layout and rank count: ours, the
C++ time and C++/ours (> 1: ours is faster)."""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def lines(cmd, env=None):
    out = subprocess.run(cmd, capture_output=True, text=True, env=env,
                         timeout=1800)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stdout}\n{out.stderr}")
    return {r["statement"]: r["seconds"] for r in
            (json.loads(x) for x in out.stdout.splitlines()
             if x.startswith("{"))}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--reference", required=True)
    parser.add_argument("--python-dir", default=os.path.join(REPO, "build",
                                                             "python"))
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--m", type=int, default=4096)
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("--ranks", default="1,2,4")
    parser.add_argument("--layouts", default="rows,grid")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=args.python_dir)
    mpirun = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to",
              "none"]
    script = [sys.executable, os.path.join(HERE, "statements.py"),
              "--n", str(args.n), "--m", str(args.m), "--reps",
              str(args.reps), "--only", args.only]
    numpy = lines(script + ["--numpy"], env)
    print(f"{args.n} x {args.m} float64, best of 5 rounds of {args.reps}; "
          "ratios > 1: ours is faster")
    print(f"{'statement':<14} {'layout':<5} {'ranks':>5} {'ours ms':>9} "
          f"{'C++ ms':>9} {'C++/ours':>9} {'numpy/ours':>10}")
    for layout in args.layouts.split(","):
        split = "0" if layout == "rows" else "0,1"
        for ranks in map(int, args.ranks.split(",")):
            launch = [] if ranks == 1 else mpirun + ["-n", str(ranks)]
            ours = lines(launch + script + ["--split", split], env)
            refs = {}
            for name in ours:
                refs.update(lines(mpirun + ["-n", str(ranks), args.reference,
                                            name, str(args.n), str(args.m),
                                            str(args.reps),
                                            "1" if layout == "grid" else "0"]))
            for name, t in ours.items():
                np_cell = (f"{numpy[name] / t:10.2f}" if ranks == 1 else
                           f"{'':>10}")
                print(f"{name:<14} {layout:<5} {ranks:>5} {t * 1e3:9.2f} "
                      f"{refs[name] * 1e3:9.2f} {refs[name] / t:9.2f} "
                      f"{np_cell}", flush=True)


if __name__ == "__main__":
    main()
