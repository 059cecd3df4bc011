"""Differential tester driver: random programs (gen.py) run by numpy (the
oracle, in this process) and by imex under `mpirun -n K` (worker.py, many
programs per launch), compared; findings reduced (reduce.py) and written
as standalone reproducers.

    python3 test/difftest/run.py --seed 0 --count 50 --ranks 1,2,3,4 \
        --timeout 60 --out /tmp/difftest

Exit status 1 if there are findings. See docs/testing.md
("Differential testing").
"""

import argparse
import collections
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import gen  # noqa: E402
import harness  # noqa: E402
import npxp  # noqa: E402

FINDING_CLASSES = ["wrong-result", "dtype-shape-mismatch", "missing-exception",
                   "spurious-exception", "wrong-exception-type", "crash",
                   "hang", "rank-disagreement"]


def numpy_result(prog):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            return harness.run_program(prog, npxp.namespace())


def numpy_valid(prog, res=None):
    """The program runs in numpy as generated: no unexpected exception and
    every error statement raises."""
    res = res or numpy_result(prog)
    if res["stop"] is not None or res["unsupported"]:
        return False
    return all(e["type"] is not None for e in res["err"])


class Runner:
    """Runs programs with imex under mpirun, isolating crashes and hangs."""

    def __init__(self, workdir, timeout=60, python=sys.executable,
                 mpirun=None, pythonpath=None, verbose=False):
        self.workdir = workdir
        self.timeout = timeout
        self.python = python
        self.mpirun = mpirun or os.environ.get("IMEX_MPIEXEC") or "mpirun"
        self.launches = 0
        self.startup = 20   # seconds to start MPI and import imex
        self.verbose = verbose
        env = dict(os.environ)
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1",
                    "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMPI_MCA_rmaps_base_oversubscribe": "1"})
        env.setdefault("OMPI_MCA_pml", "ob1")
        env.setdefault("OMPI_MCA_btl", "self,vader")
        pp = pythonpath or os.environ.get("IMEX_PYTHON_DIR") or \
            os.path.join(REPO, "build", "python")
        env["PYTHONPATH"] = pp + (":" + env["PYTHONPATH"]
                                  if env.get("PYTHONPATH") else "")
        if "IMEX_CACHE_DIR" not in os.environ:
            env["IMEX_CACHE_DIR"] = os.path.join(workdir, "jit-cache")
        self.env = env

    def _launch(self, batch, k, start, nprog):
        self.launches += 1
        prefix = os.path.join(self.workdir, f"L{self.launches}")
        cmd = [self.mpirun, "-n", str(k), self.python,
               os.path.join(HERE, "worker.py"), batch, prefix, str(start)]
        errf = open(prefix + ".stderr", "w")
        p = subprocess.Popen(cmd, stdout=errf, stderr=subprocess.STDOUT,
                             env=self.env, start_new_session=True)
        files = [f"{prefix}.r{r}.jsonl" for r in range(k)]
        results = {}
        last, done, hung = time.time(), start, False
        while True:
            rc = p.poll()
            per_rank = []
            for r, fn in enumerate(files):
                lines = []
                if os.path.exists(fn):
                    with open(fn) as f:
                        for line in f:
                            if line.endswith("\n"):
                                lines.append(json.loads(line))
                per_rank.append(lines)
            n = min(len(x) for x in per_rank)
            for j in range(n):
                i = per_rank[0][j]["i"]
                results[i] = [x[j] for x in per_rank]
            if start + n > done:
                done, last = start + n, time.time()
            if rc is not None:
                break
            # the first program also imports imex and starts MPI
            allowance = self.timeout + (self.startup if done == start else 0)
            if time.time() - last > allowance:
                hung = True
                self._kill(p)
                break
            time.sleep(0.1)
        errf.close()
        with open(prefix + ".stderr", errors="replace") as f:
            tail = f.read()[-3000:]
        where = []
        for r in range(k):
            try:
                with open(f"{prefix}.r{r}.cur") as f:
                    pi, st = f.read().split()
                if int(pi) not in results:
                    where.append(f"rank {r} in statement {st}")
            except (OSError, ValueError):
                where.append(f"rank {r} not started")
        if where:
            tail = ", ".join(where) + "\n" + tail
        return results, (p.returncode if not hung else "hang"), tail

    @staticmethod
    def _kill(p):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                return
            try:
                p.wait(5)
                return
            except subprocess.TimeoutExpired:
                continue

    def run(self, programs, k, confirm_crash=True, stop_at_failure=False):
        """{index: {"status": "ok"|"crash"|"hang", "ranks": [res, ...],
        "tail": stderr}} for every program."""
        batch = os.path.join(self.workdir, f"batch{self.launches + 1}.json")
        with open(batch, "w") as f:
            json.dump({"programs": programs}, f)
        out = {}
        start = 0
        while start < len(programs):
            results, rc, tail = self._launch(batch, k, start, len(programs))
            for i, rr in results.items():
                out[i] = {"status": "ok", "ranks": [x["res"] for x in rr],
                          "t": max(x["t"] for x in rr)}
            nxt = start
            while nxt in out:
                nxt += 1
            if nxt >= len(programs):
                break
            if rc == 0:
                out[nxt] = {"status": "crash", "ranks": [],
                            "tail": "launch ended early\n" + tail}
            elif rc == "hang":
                out[nxt] = {"status": "hang", "ranks": [], "tail": tail}
            else:
                status = "crash"
                if confirm_crash and nxt > start and not stop_at_failure:
                    alone = self.run([programs[nxt]], k, confirm_crash=False)
                    if alone[0]["status"] == "ok":
                        status = "crash"  # crashes only after others
                        tail = ("(passes when run alone: crashed after "
                                "earlier programs of the batch)\n" + tail)
                    else:
                        tail = alone[0].get("tail", tail)
                out[nxt] = {"status": status, "ranks": [],
                            "tail": f"exit status {rc}: " + tail}
            start = nxt + 1
            if stop_at_failure:
                break
        return out


def classify(exp, run, prog=None):
    """Findings [(class, detail)] of one imex run (all ranks) of a
    program against numpy's result `exp`."""
    if run["status"] != "ok":
        tail = run.get("tail", "")
        first, _, rest = tail.partition("\n")
        return [(run["status"], first + "\n" + rest[-1500:])]
    ranks = run["ranks"]
    out = []
    for r in ranks[1:]:
        if not harness.same_results(ranks[0], r):
            out.append(("rank-disagreement",
                        "ranks of one run disagree: " + json.dumps(
                            [(x["stop"] and x["stop"]["type"],
                              x["sync"] and x["sync"]["type"],
                              [e["type"] for e in x["err"]])
                             for x in ranks])[:500]))
            break
    out += harness.compare(exp, ranks[0], prog)
    return out


def op_key(prog, cls, detail):
    """A short name of the operation a finding is about (for grouping)."""
    stmts = prog["stmts"]
    idx = None
    m = re.match(r"(v\d+)", detail)
    if m:
        for i, s in enumerate(stmts):
            if re.match(rf"{m.group(1)} = ", s):
                idx = i
    m2 = re.search(r"statement (\d+)", detail)
    if m2:
        idx = int(m2.group(1))
    if idx is None or idx >= len(stmts):
        return "sync" if detail.startswith("at sync") else "?"
    s = stmts[idx]
    s = re.sub(r"inp\(np\.array\(.*?\)\.reshape\(.*?\)\), [^)]*\)", "IN", s)
    fns = re.findall(r"xp\.(\w+)", s)
    if fns:
        return fns[0]
    if "[" in s.split("=", 1)[0]:
        return "setitem"
    if "[" in s:
        return "getitem"
    ops = re.findall(r"(\*\*|//|<<|>>|[-+*/%&|^<>]=?|==|!=|@|~)", s)
    return ops[0] if ops else "?"


def write_reproducer(path, prog, k, cls, detail, exp):
    lines = [f"# difftest finding: {cls} under mpirun -n {k} "
             f"(program {prog.get('id')})",
             "# " + detail.replace("\n", "\n# ")[:1500],
             f"# Run: PYTHONPATH=build/python mpirun -n {k} "
             f"/usr/bin/python3 {os.path.basename(path)}",
             "# numpy's results (the oracle):"]
    for e in exp["err"]:
        if e["type"]:
            lines.append(f"#   statement {e['stmt']} raises {e['type']}: "
                         f"{e['msg'][:100]}")
    for name, v in exp["vars"].items():
        if "exc" in v:
            continue
        a = harness.decode(v)
        text = np.array2string(a, threshold=40, max_line_width=70)
        lines.append(f"#   {name}: {a.dtype} {a.shape} " +
                     text.replace("\n", "\n#     "))
    lines += ["", "import math", "import numpy as np", "import imex as xp",
              "", "xp.init()", "nan, inf = math.nan, math.inf",
              "jit, fori_loop = xp.jit, xp.fori_loop", "",
              "", "def inp(a, split=None):",
              "    return xp.asarray(a, split=split)", "", ""]
    errs = set(prog.get("err", ()))
    for i, s in enumerate(prog["stmts"]):
        if i in errs:
            lines += ["try:  # numpy raises " + next(
                (e["type"] for e in exp["err"] if e["stmt"] == i), "?"),
                "    " + s.replace("\n", "\n    "),
                "    _e = locals().get('_e')",
                "    if _e is not None: np.asarray(_e)",
                "    xp.print0(f'statement {0}: no exception')".format(i),
                "except Exception as ex:",
                "    xp.print0(f'statement {0}: {{type(ex).__name__}}: "
                "{{ex}}')".format(i)]
        else:
            lines.append(s)
    names = list(exp["vars"])
    expected = {n: (v["dtype"], v["shape"], v["data"])
                for n, v in exp["vars"].items() if "exc" not in v}
    lines += ["", "", "EXPECTED = " + repr(expected),
              "for name, (dt, shape, data) in EXPECTED.items():",
              "    import base64",
              "    want = np.frombuffer(base64.b64decode(data), dt)"
              ".reshape(shape)",
              "    got = np.asarray(globals()[name].to_numpy() if hasattr("
              "globals()[name], 'to_numpy') else globals()[name])",
              "    ok = got.dtype == want.dtype and got.shape == want.shape "
              "and (np.allclose(got, want, rtol=1e-5, atol=1e-5, "
              "equal_nan=True) if want.dtype.kind in 'fc' else "
              "np.array_equal(got, want))",
              "    xp.print0(name, 'OK' if ok else 'MISMATCH', got.dtype, "
              "got.shape, got.ravel()[:20].tolist() if not ok else '')",
              ""]
    del names
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--ranks", default="1,2,3,4")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--batch", type=int, default=50,
                    help="programs per mpirun launch")
    ap.add_argument("--out", default=None)
    ap.add_argument("--reduce", type=int, default=8,
                    help="reduce at most this many findings (one per "
                    "distinct class and operation)")
    ap.add_argument("--reduce-minutes", type=float, default=3)
    ap.add_argument("--json", default=None, help="write findings as JSON")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    findings = run_campaign(args)
    return 1 if findings else 0


def run_campaign(args):
    ranks = [int(x) for x in str(args.ranks).split(",") if x]
    out_dir = args.out or tempfile.mkdtemp(prefix="difftest-")
    os.makedirs(out_dir, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="work-", dir=out_dir)
    runner = Runner(workdir, args.timeout, verbose=args.verbose)
    t0 = time.time()
    programs = [gen.generate(s) for s in range(args.seed,
                                               args.seed + args.count)]
    expected = [numpy_result(p) for p in programs]
    good = [i for i, (p, e) in enumerate(zip(programs, expected))
            if numpy_valid(p, e)]
    programs = [programs[i] for i in good]
    expected = [expected[i] for i in good]
    findings = []
    counts = collections.Counter()
    for k in ranks:
        for b in range(0, len(programs), args.batch):
            chunk = programs[b:b + args.batch]
            res = runner.run(chunk, k)
            for j, p in enumerate(chunk):
                i = b + j
                counts["runs"] += 1
                fs = classify(expected[i], res[j], p)
                fs_real = [f for f in fs if f[0] != "unsupported"]
                if len(fs) != len(fs_real):
                    counts["unsupported"] += 1
                for cls, detail in fs_real[:1]:
                    findings.append({"class": cls, "ranks": k,
                                     "detail": detail, "id": p["id"],
                                     "index": i,
                                     "op": op_key(p, cls, detail)})
            if args.verbose:
                print(f"ranks={k} programs {b}..{b + len(chunk)}: "
                      f"{len(findings)} findings so far "
                      f"({time.time() - t0:.0f} s)", flush=True)
    counts["programs"] = len(programs)
    # group: one representative per (class, operation)
    groups = collections.OrderedDict()
    for f in findings:
        groups.setdefault((f["class"], f["op"]), []).append(f)
    import reduce as reducer
    reduced_paths = {}
    deadline = time.time() + 60 * args.reduce_minutes
    for n, ((cls, op), fs) in enumerate(groups.items()):
        f = min(fs, key=lambda f: (len(programs[f["index"]]["stmts"]),
                                   f["ranks"]))
        prog = programs[f["index"]]
        k = f["ranks"]
        if n < args.reduce and time.time() < deadline:
            try:
                prog, k = reducer.reduce(prog, cls, k, runner,
                                         deadline=deadline)
            except Exception as ex:  # noqa: BLE001
                print(f"reduce failed: {ex!r}", file=sys.stderr)
        exp = numpy_result(prog)
        detail = f["detail"]
        try:
            got = runner.run([prog], k)[0]
            fs2 = [x for x in classify(exp, got, prog) if x[0] == cls]
            if fs2:
                detail = fs2[0][1]
        except Exception:  # noqa: BLE001
            pass
        path = os.path.join(out_dir, f"{cls}-{re.sub(r'[^A-Za-z0-9_]', '_', op)}"
                            f"-{prog['id']}-n{k}.py")
        write_reproducer(path, prog, k, cls, detail, exp)
        reduced_paths[(cls, op)] = path
    summary = {"programs": counts["programs"], "runs": counts["runs"],
               "unsupported": counts["unsupported"],
               "launches": runner.launches,
               "seconds": round(time.time() - t0, 1),
               "findings": collections.Counter(f["class"] for f in findings),
               "groups": [{"class": c, "op": o, "count": len(fs),
                           "ids": sorted({f"{f['id']}@n{f['ranks']}"
                                          for f in fs})[:12],
                           "detail": fs[0]["detail"][:300],
                           "reproducer": reduced_paths.get((c, o))}
                          for (c, o), fs in groups.items()]}
    print(f"difftest: seeds {args.seed}..{args.seed + args.count - 1}, "
          f"{summary['programs']} programs, {summary['runs']} runs "
          f"(ranks {args.ranks}), {summary['unsupported']} unsupported, "
          f"{runner.launches} launches, {summary['seconds']} s")
    if findings:
        print(f"{len(findings)} findings in {len(groups)} groups:")
        for g in summary["groups"]:
            print(f"  {g['class']:22s} {g['op']:16s} x{g['count']:<4d} "
                  f"{g['reproducer'] or ''}\n      {g['detail'][:200]}")
    else:
        print("no findings")
    with open(args.json or os.path.join(out_dir, "findings.json"), "w") as f:
        json.dump(summary, f, indent=1, default=str)
    if not args.verbose:
        shutil.rmtree(workdir, ignore_errors=True)
    return findings


if __name__ == "__main__":
    sys.exit(main())
