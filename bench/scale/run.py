"""Cost per rank of each distributed operation as the number of ranks P
grows (issue 46): each operation runs on P = 1, 2, 4, ... ranks
(oversubscribed) with a fixed block per rank (weak scaling: ROWS_PER_RANK x
COLS float64 per rank), and IDTR's counters give, per rank, the messages
and bytes it sent point to point, the collectives it issued and the bytes
it contributed to them. Each operation's program is measured against the
same program without the operation, so the table shows the operation
(and the max of its result, one allreduce of one number where the result
is distributed) alone.

The model (a LogGP-style estimate, parameters below) turns the counts of
the busiest rank into a time, and fits each count as c * P^e between the
two largest rank counts measured to extrapolate to 10^3 and 10^4 ranks.

Usage: bench/scale/run.sh [--ranks 1,2,4,8,16,32] [--only halo,sort]
"""

import argparse
import math
import os
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "test", "Execution", "dist"),
                os.path.join(ROOT, "test", "Execution")]

from dist_harness import STAT_KINDS, _run, build, data, named  # noqa: E402

ROWS_PER_RANK, COLS = 16, 16
# Model parameters: latency per message or per step of a collective's
# tree (ALPHA, seconds) and time per byte (BETA, seconds: 10 GB/s).
ALPHA, BETA = 2e-6, 1e-10
BASE = len(STAT_KINDS)
# Columns of the harness's printed counters (dist_harness.Dist.finish).
P2P_BYTES, COLL_BYTES, MSGS, COLLS = BASE + 1, BASE + 2, BASE + 5, BASE + 6
PLAN_BYTES, STAGING_PEAK = BASE + 7, BASE + 8


def five_point(d, u):
    q = d.scalar(0.25)
    s = d.add(d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                    d.view(u, (slice(2, None), slice(1, -1)))),
              d.add(d.view(u, (slice(1, -1), slice(None, -2))),
                    d.view(u, (slice(1, -1), slice(2, None)))))
    d.setitem(u, (slice(1, -1), slice(1, -1)), d.mul(q, s))
    return u


def one_number(d, v):
    d.check(d.reduce("max", v), "max")


# name: (what it does, f(d, a) -> the result to reduce); a is ROWS x COLS.
OPS = {
    "halo": ("one 5-point Jacobi step (halo rows)", five_point),
    "replicated_read": ("a[i] read by every rank",
                        lambda d, a: d.view(a, a.dims[0] // 2)),
    "float_sum": ("sum(a) (ordered reduction)",
                  lambda d, a: d.reduce("sum", a, axes=[0])),
    "int_max": ("max(a, 0) (allreduce)",
                lambda d, a: d.reduce("max", a, axes=[0])),
    "transpose": ("a.T (redistribution)", lambda d, a: d.permute(a, (1, 0))),
    "gather": ("a printed (gathered on every rank)", None),
    "sort": ("sort of a 1-d array of 16 P values (sample sort)", None),
    "take": ("a[idx], 16 P random rows (all-to-alls)", None),
    "matmul": ("a @ b, b 16 x 8 (b gathered)",
               lambda d, a: d.matmul(a, d.array(data((COLS, 8))))),
}


def program(op, p, with_op):
    rows = ROWS_PER_RANK * p

    def case(d):
        a = d.array(data((rows, COLS)))
        if not with_op:
            return
        if op == "gather":
            d.check(a, "a")
        elif op == "sort":
            one_number(d, d.sort(d.array(data((rows,))), 0))
        elif op == "take":
            idx = d.array(np.random.default_rng(p).integers(
                0, rows, rows).astype(np.int64), "i64")
            one_number(d, d.take(a, idx, 0))
        else:
            one_number(d, OPS[op][1](d, a))
    return build([named(op, case)])


def counts(op, p):
    """Per rank: the counters of the op's program less the baseline's."""
    rows = {}
    for with_op in (False, True):
        _, stats, errors = _run(program(op, p, with_op), p)
        if errors:
            raise SystemExit(f"{op} on {p} ranks: {errors}")
        rows[with_op] = np.array([[int(s[c]) for c in
                                   (MSGS, P2P_BYTES, COLLS, COLL_BYTES,
                                    PLAN_BYTES, STAGING_PEAK)]
                                  for s in stats])
    return rows[True] - rows[False]


def model_time(msgs, p2p, colls, coll_bytes, p):
    return (msgs * ALPHA + p2p * BETA +
            colls * max(1, math.ceil(math.log2(p))) * ALPHA +
            coll_bytes * BETA)


def exponent(points):
    (p1, v1), (p2, v2) = points[-2:]
    if v1 <= 0 or v2 <= 0:
        return 0.0 if v2 <= max(v1, 0) else float("nan")
    return math.log(v2 / v1) / math.log(p2 / p1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ranks", default="1,2,4,8,16,32")
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    ranks = [int(n) for n in args.ranks.split(",")]
    ops = [o for o in OPS if not args.only or o in args.only.split(",")]
    print(f"weak scaling: {ROWS_PER_RANK} x {COLS} float64 per rank; "
          f"model: {ALPHA * 1e6:g} us per message or tree step, "
          f"{1 / BETA / 1e9:g} GB/s")
    print(f"{'op':16} {'P':>5} {'msgs':>6} {'p2p B':>9} {'colls':>6} "
          f"{'coll B':>9} {'plan B':>8} {'stage B':>8} {'model us':>9}   "
          f"(busiest rank; plan B: cached plans, stage B: peak staging "
          f"buffers)")
    for op in ops:
        series = []
        for p in ranks:
            c = counts(op, p)
            worst = c.max(axis=0)
            t = max(model_time(*row[:4], p) for row in c)
            series.append((p, worst, t))
            print(f"{op:16} {p:5} {worst[0]:6} {worst[1]:9} {worst[2]:6} "
                  f"{worst[3]:9} {worst[4]:8} {worst[5]:8} {t * 1e6:9.1f}")
        if len(series) >= 2 and series[-1][0] > 1:
            last_p, last, _ = series[-1]
            orders, exps = [], []
            for k, name in enumerate(("msgs", "p2p B", "colls", "coll B")):
                e = exponent([(p, w[k]) for p, w, _ in series])
                e = 1.0 if e != e else e  # from nothing to something
                exps.append(e)
                orders.append(f"{name} ~P^{e:.2f}")
            def at(q):
                return model_time(*(last[k] * (q / last_p) ** exps[k]
                                    for k in range(4)), q)
            extra = "  ".join(f"P={q:g}: {at(q) * 1e6:.0f} us"
                              for q in (1e3, 1e4))
            print(f"{'':16} {OPS[op][0]}; {', '.join(orders)}; "
                  f"model {extra}")

if __name__ == "__main__":
    main()
