"""Boolean indexing (ndarray.masked_select) of distributed arrays: each rank
selects from its rows and keeps the selection (block offsets from an
exclusive scan of the counts). Masks of rank 1 and 2, empty and full masks,
all selected elements on one rank, fewer rows than ranks, replicated masks
or sources, and selections used in further computation (repartitioned to
another selection's blocks)."""

import numpy as np
import pytest

import dist_harness
from dist_harness import RANKS_TO_5, data, named, run_cases


def mask(shape, density):
    return dist_harness.RNG.uniform(size=shape) < density


def selections(d, dtype, dynamic):
    a = d.array(data((13, 3), dtype), dynamic=dynamic)
    m1 = d.array(mask((13,), 0.5), dynamic=dynamic)
    m2 = d.array(mask((13, 3), 0.4), dynamic=dynamic)
    d.check(d.masked_select(a, m1), "a[rows]")
    d.check(d.masked_select(a, m2), "a[mask]")


def extremes(d, dynamic):
    a = d.array(data((11,)), dynamic=dynamic)
    none = d.array(np.zeros(11, np.bool_), dynamic=dynamic)
    every = d.array(np.ones(11, np.bool_), dynamic=dynamic)
    first = np.zeros(11, np.bool_)
    first[:3] = True  # all on the first ranks
    last = np.zeros(11, np.bool_)
    last[-1] = True
    d.check(d.masked_select(a, none), "a[no element]")
    d.check(d.masked_select(a, every), "a[every element]")
    d.check(d.masked_select(a, d.array(first, dynamic=dynamic)), "a[:3 mask]")
    d.check(d.masked_select(a, d.array(last, dynamic=dynamic)), "a[-1 mask]")


def few_rows(d, rows):
    a = d.array(data((rows, 2), "i64", -5, 5), via="create")
    m = d.array(mask((rows, 2), 0.5))
    d.check(d.masked_select(a, m), f"a[mask] of {rows} rows")


def replicated_operands(d):
    a = d.array(data((9, 2)))
    m = d.array(mask((9,), 0.5), dist=False)
    d.check(d.masked_select(a, m), "distributed a[replicated mask]")
    r = d.array(data((9, 2)), dist=False)
    dm = d.array(mask((9,), 0.5))
    d.check(d.masked_select(r, dm), "replicated a[distributed mask]")


def reused(d, dynamic):
    a = d.array(data((12,), "f64", 0.5, 2), dynamic=dynamic)
    b = d.array(data((12,), "f64", 0.5, 2), dynamic=dynamic)
    m = d.array(mask((12,), 0.6), dynamic=dynamic)
    x, y = d.masked_select(a, m), d.masked_select(b, m)
    d.check(d.add(x, y), "a[m] + b[m]")
    d.check(d.reduce("sum", d.mul(x, x)), "sum(a[m] ** 2)")
    d.check(d.argreduce("max", x), "argmax(a[m])")
    # A selection (blocks where the elements lie) with an array of the
    # default partition: repartitioned to one of them.
    n = mask((12,), 0.5)
    c = d.array(data((int(n.sum()),)), dynamic=dynamic)
    d.check(d.add(d.masked_select(a, d.array(n, dynamic=dynamic)), c),
            "a[n] + c")


def cases(dynamic):
    return [named(f"selections_{t}", selections, t, dynamic)
            for t in ("f64", "i32", "ui8", "i1")] + \
        [named("extremes", extremes, dynamic),
         named("reused", reused, dynamic),
         named("replicated_operands", replicated_operands),
         named("few_rows_1", few_rows, 1), named("few_rows_3", few_rows, 3)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_masks(dynamic):
    run_cases(cases(dynamic), ranks=RANKS_TO_5)
