"""Reduces a failing program while the failure (its class, at one rank
count) persists: delta debugging over statements (chunks of halving size,
then single statements; candidates numpy rejects, e.g. because a variable
is no longer defined, are skipped), loops shortened to one iteration,
then the inputs simplified (replicated instead of split, smaller shapes).
Each round's candidates run in one mpirun launch (run.Runner isolates a
crash or hang to its candidate).

    python3 test/difftest/reduce.py PROGRAM.json CLASS K   # standalone
"""

import re
import time

import numpy as np

import run as driver

INP = re.compile(r"inp\((np\.array\(\[[^\]]*\], dtype='\w+'\)"
                 r"\.reshape\(\([\d, ]*\)\)), (None|\d|\([\d, ]+\))\)")


def _variants_drop(prog):
    n = len(prog["stmts"])
    size = max(n // 2, 1)
    seen = set()
    while True:
        for lo in range(0, n, size):
            keep = [i for i in range(n) if not lo <= i < lo + size]
            if len(keep) < n and tuple(keep) not in seen and keep:
                seen.add(tuple(keep))
                yield _subset(prog, keep)
        if size == 1:
            break
        size = max(size // 2, 1)


def _subset(prog, keep):
    errs = set(prog.get("err", ()))
    return {"id": prog["id"], "seed": prog.get("seed"),
            "stmts": [prog["stmts"][i] for i in keep],
            "err": [j for j, i in enumerate(keep) if i in errs]}


def _with_stmt(prog, i, code):
    p = dict(prog, stmts=list(prog["stmts"]))
    p["stmts"][i] = code
    return p


def _variants_simplify(prog):
    for i, s in enumerate(prog["stmts"]):
        for m in re.finditer(r"range\((\d+)\)|fori_loop\(0, (\d+)", s):
            if (m.group(1) or m.group(2)) not in ("0", "1"):
                t = s[:m.start()] + (
                    "range(1)" if m.group(1) else "fori_loop(0, 1") + \
                    s[m.end():]
                yield _with_stmt(prog, i, t)
        for m in INP.finditer(s):
            arr = eval(m.group(1), {"np": np})
            split = m.group(2)
            if split != "None":
                t = s[:m.start()] + f"inp({m.group(1)}, None)" + s[m.end():]
                yield _with_stmt(prog, i, t)
            for ax, n in enumerate(arr.shape):
                for new in sorted({1, 2, n // 2}):
                    if 0 < new < n:
                        sl = [slice(None)] * arr.ndim
                        sl[ax] = slice(0, new)
                        lit = driver.harness.literal(arr[tuple(sl)])
                        t = s[:m.start()] + f"inp({lit}, {split})" + \
                            s[m.end():]
                        yield _with_stmt(prog, i, t)


def _fails(prog, cls, exp, run):
    return any(c == cls for c, _ in driver.classify(exp, run, prog))


def _round(cands, cls, k, runner, limit=40):
    """The smallest candidate that still fails with `cls`, or None. For a
    crash or hang, candidates run smallest first and the first one that
    fails ends the round (each costs a launch or a timeout)."""
    valid = []
    cands = sorted(cands, key=lambda c: (len(c["stmts"]),
                                         sum(len(s) for s in c["stmts"])))
    for c in cands:
        exp = driver.numpy_result(c)
        if driver.numpy_valid(c, exp):
            valid.append((c, exp))
        if len(valid) >= limit:
            break
    if not valid:
        return None
    stop = cls in ("crash", "hang")
    runs = runner.run([c for c, _ in valid], k, confirm_crash=not stop,
                      stop_at_failure=stop)
    best = None
    for j, (c, exp) in enumerate(valid):
        if j in runs and _fails(c, cls, exp, runs[j]):
            size = (len(c["stmts"]), sum(len(s) for s in c["stmts"]))
            if best is None or size < best[0]:
                best = (size, c)
    return best and best[1]


def reduce(prog, cls, k, runner, deadline=None):
    """(reduced program, rank count)."""
    deadline = deadline or time.time() + 180
    cur = prog
    for phase in (_variants_drop, _variants_simplify):
        while time.time() < deadline:
            nxt = _round(list(phase(cur)), cls, k, runner)
            if nxt is None:
                break
            cur = nxt
    # a smaller rank count that fails the same way
    if k > 1 and time.time() < deadline:
        for k2 in range(1, k):
            exp = driver.numpy_result(cur)
            r = runner.run([cur], k2)
            if _fails(cur, cls, exp, r[0]):
                k = k2
                break
    cur = dict(cur, id=prog["id"] + "r")
    return cur, k


if __name__ == "__main__":
    import json
    import sys
    import tempfile
    p = json.load(open(sys.argv[1]))
    r = driver.Runner(tempfile.mkdtemp(prefix="difftest-reduce-"))
    red, k = reduce(p, sys.argv[2], int(sys.argv[3]), r)
    print(json.dumps(red, indent=1), k)
