"""Runs a batch of programs with imex, inside `mpirun -n K`.

    mpirun -n K python3 worker.py BATCH.json OUTPREFIX [START]

BATCH.json holds {"programs": [...]}; programs START.. are run in order in
this one interpreter, each isolated in try/except (harness.run_program).
Every rank appends one JSON line per program to OUTPREFIX.r<rank>.jsonl
(flushed), {"i": index, "id": ..., "res": result, "t": seconds}, so the
driver sees each rank's progress and results (and can tell which program
a crash or hang happened in).
"""

import gc
import json
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import harness  # noqa: E402


def main():
    batch, prefix = sys.argv[1], sys.argv[2]
    start = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with open(batch) as f:
        programs = json.load(f)["programs"]
    import imex as xp
    xp.init()
    rank = xp.rank()
    out = open(f"{prefix}.r{rank}.jsonl", "a")
    cur_path = f"{prefix}.r{rank}.cur"

    def progress(i, stmt):
        with open(cur_path, "w") as f:
            f.write(f"{i} {stmt}")

    def inp(a, split=None):
        return xp.asarray(a, split=split)

    for i in range(start, len(programs)):
        prog = programs[i]
        ns = {"xp": xp, "np": np, "nan": math.nan, "inf": math.inf,
              "inp": inp, "jit": xp.jit, "fori_loop": xp.fori_loop}
        t0 = time.time()
        try:
            res = harness.run_program(
                prog, ns, imex=xp, progress=lambda s: progress(i, s))
        except BaseException as ex:  # noqa: BLE001 (harness bug)
            res = {"err": [], "stop": harness.exc_record(-2, ex),
                   "sync": None, "unsupported": None, "vars": {}}
        try:
            xp.sync()
        except Exception:  # noqa: BLE001
            pass
        del ns
        gc.collect()
        out.write(json.dumps({"i": i, "id": prog.get("id"), "res": res,
                              "t": round(time.time() - t0, 3)}) + "\n")
        out.flush()
    out.close()


if __name__ == "__main__":
    main()
