"""Scans (ndarray.cumulative) of distributed arrays: along the split
dimension each rank scans its rows and applies the exclusive scan of the
ranks' totals (one collective of one row); along other dimensions they are
local. Every dtype class, sum and prod, include_initial, uneven sizes,
fewer rows than ranks, empty arrays, views, and results used further."""

import pytest

from dist_harness import RANKS_TO_5, data, named, run_cases


def one_d(d, dtype, dynamic):
    low, high = (0.5, 1.5) if dtype.startswith("f") else (-2, 2)
    a = d.array(data((13,), dtype, low, high), dynamic=dynamic)
    for kind in ("sum", "prod"):
        if dtype == "i1" and kind == "prod":
            continue
        d.check(d.cumulative(kind, a, 0), f"cumulative {kind}")
        d.check(d.cumulative(kind, a, 0, include_initial=True),
                f"cumulative {kind} include_initial")


def two_d(d, dtype, dynamic):
    a = d.array(data((7, 3), dtype, -3, 3), dynamic=dynamic)
    for axis in (0, 1):
        d.check(d.cumulative("sum", a, axis), f"sum axis {axis}")
        d.check(d.cumulative("prod", a, axis, include_initial=True),
                f"prod axis {axis} include_initial")


def few_rows(d, rows):
    # Fewer rows than ranks: ranks owning nothing contribute the identity.
    a = d.array(data((rows, 2), "i64", -5, 5), via="create")
    d.check(d.cumulative("sum", a, 0), f"sum of {rows} rows")
    d.check(d.cumulative("prod", a, 0, include_initial=True),
            f"prod of {rows} rows include_initial")


def of_views_and_reused(d, dynamic):
    a = d.array(data((11, 4), "f64", 0.5, 1.5), dynamic=dynamic)
    odd = d.view(a, (slice(1, None, 2), slice(None)))
    d.check(d.cumulative("sum", odd, 0), "cumsum(a[1::2])")
    d.check(d.cumulative("prod", d.view(a, (slice(3, 9), slice(1, 3))), 0),
            "cumprod(a[3:9, 1:3])")
    s = d.cumulative("sum", a, 0)
    d.check(d.sub(s, a), "cumsum(a) - a")
    d.check(d.reduce("max", d.cumulative("sum", s, 0), axes=[1]),
            "max(cumsum(cumsum(a)), 1)")


def cases(dynamic):
    return [named(f"one_d_{t}", one_d, t, dynamic)
            for t in ("f64", "f32", "i64", "i32", "ui8", "i1")] + \
        [named("two_d_f64", two_d, "f64", dynamic),
         named("two_d_i16", two_d, "i16", dynamic),
         named("of_views_and_reused", of_views_and_reused, dynamic),
         named("few_rows_0", few_rows, 0), named("few_rows_1", few_rows, 1),
         named("few_rows_3", few_rows, 3)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_scans(dynamic):
    run_cases(cases(dynamic), ranks=RANKS_TO_5)
