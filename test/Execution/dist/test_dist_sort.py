"""sort / argsort of distributed arrays: a 1-d array by the sample sort of
IDTR into the default partition, other axes locally; against numpy's stable
sort for every dtype class, descending, NaNs, duplicate keys, all keys on
one rank (a view of the last rows), fewer elements than ranks, random sizes
and values; sorted results used further; searchsorted with either array
split."""

import numpy as np
import pytest

import dist_harness
from dist_harness import RANKS_TO_5, data, named, run_cases


def keys(n, dtype, distinct=5):
    rng = dist_harness.RNG
    if dtype == "i1":
        return rng.integers(0, 2, size=n).astype(np.bool_)
    a = rng.integers(0 if dtype.startswith("ui") else -distinct, distinct,
                     size=n).astype(dist_harness.NUMPY_OF[dtype])
    if dtype.startswith("f") and n > 6:
        a[[2, n - 3]] = np.nan
    return a


def one_d(d, dtype, n, dynamic):
    a = d.array(keys(n, dtype), dynamic=dynamic)
    for descending in (False, True):
        d.check(d.sort(a, 0, descending), f"sort desc={descending}")
        d.check(d.sort(a, 0, descending, indices=True),
                f"argsort desc={descending}")


def random_sizes(d, seed):
    rng = np.random.default_rng(seed)
    for k in range(4):
        n = int(rng.integers(0, 60))
        a = d.array(rng.normal(size=n) if k % 2 else
                    rng.integers(-3, 3, size=n).astype(np.int64))
        d.check(d.sort(a, 0), f"sort of {n} random")
        d.check(d.sort(a, 0, indices=True), f"argsort of {n} random")


def skewed(d, dynamic):
    """All keys on the last rank (a view of the last rows), all equal."""
    a = d.array(data((40,), "f64"), dynamic=dynamic)
    tail = d.view(a, slice(34, 40))
    d.check(d.sort(tail, 0), "sort(a[34:])")
    same = d.array(np.full(17, 2.5), dynamic=dynamic)
    d.check(d.sort(same, 0, indices=True), "argsort(all equal)")


def other_axes_and_reuse(d, dynamic):
    a = d.array(data((9, 4), "i32", -3, 3), dynamic=dynamic)
    d.check(d.sort(a, 1), "sort(a, 1)")
    d.check(d.sort(a, 1, True, indices=True), "argsort(a, 1, desc)")
    x = d.array(data((23,)), dynamic=dynamic)
    s = d.sort(x, 0)
    d.check(d.sub(s, x), "sort(x) - x (realigned)")
    d.check(d.reduce("sum", d.sort(x, 0, True)), "sum(sort(x, desc))")


def split_axis_of_nd(d, dynamic):
    """Sorts along dimension 0 of n-d arrays: through a transpose (each
    element moves twice), not a gather; fewer columns than ranks too."""
    a = d.array(data((11, 4), "i32", -3, 3), dynamic=dynamic)
    d.check(d.sort(a, 0), "sort(a, 0)")
    d.check(d.sort(a, 0, True, indices=True), "argsort(a, 0, desc)")
    b = d.array(data((7, 2, 3)), dynamic=dynamic)
    d.check(d.sort(b, 0), "sort(b, 0) of 3-d")
    c = d.array(data((10, 1), "f32"), dynamic=dynamic)
    d.check(d.sort(c, 0, indices=True), "argsort(c, 0) of one column")


def searches(d, dynamic):
    """searchsorted with either array split (a sorted split array: counts
    per rank summed; split values: local)."""
    a = d.array(data((29,), "i64", -6, 6), dynamic=dynamic)
    s = d.sort(a, 0)
    v = data((3, 4), "i64", -8, 8)
    for right in (False, True):
        d.check(d.searchsorted(s, d.array(v, dist=False), right),
                f"searchsorted(split sorted, values) right={right}")
        d.check(d.searchsorted(s, d.array(v[0], dynamic=dynamic), right),
                f"searchsorted(split sorted, split values) right={right}")
        r = d.array(np.sort(data((11,), "i64", -6, 6)), dist=False)
        d.check(d.searchsorted(r, d.array(v, dynamic=dynamic), right),
                f"searchsorted(sorted, split values) right={right}")
    few = d.sort(d.array(data((2,))), 0)
    d.check(d.searchsorted(few, d.array(data((5,)), dist=False)),
            "searchsorted in 2 split elements")


def cases(dynamic):
    return [named(f"one_d_{t}_{n}", one_d, t, n, dynamic)
            for t, n in (("f64", 31), ("f32", 8), ("i64", 13), ("i32", 2),
                         ("ui8", 20), ("i1", 11), ("f64", 0))] + \
        [named("skewed", skewed, dynamic),
         named("other_axes_and_reuse", other_axes_and_reuse, dynamic),
         named("split_axis_of_nd", split_axis_of_nd, dynamic),
         named("searches", searches, dynamic)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_sort(dynamic):
    run_cases(cases(dynamic), ranks=RANKS_TO_5)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_sizes(seed):
    run_cases([named(f"random_sizes_{seed}", random_sizes, seed)],
              ranks=RANKS_TO_5)
