"""Reductions of distributed arrays: every kind, over all axes (a 0-d
replicated result), over axis 0 (combined across ranks), over other axes
(stays distributed), with keepdims, of views, of arrays with fewer rows
than ranks, and reduction results used in further distributed
computation; argmax/argmin (first occurrence and NaN across ranks)."""

import numpy as np
import pytest

from dist_harness import data, named, run_cases

KINDS = ["sum", "prod", "min", "max", "mean", "var", "std", "any", "all"]


def full(d, shape, dtype, dynamic):
    low, high = (-3, 3) if dtype != "f64" else (0.5, 1.5)  # prod stays finite
    a = d.array(data(shape, dtype, low, high), dynamic=dynamic)
    for kind in KINDS:
        if dtype == "i1" and kind in ("prod", "mean", "var", "std"):
            continue
        d.check(d.reduce(kind, a), f"{kind}(a)")


def axes(d, dtype, dynamic):
    a = d.array(data((7, 3, 2), dtype, -3, 3), dynamic=dynamic)
    for kind in ("sum", "max", "mean", "std", "any"):
        d.check(d.reduce(kind, a, axes=[0]), f"{kind} axis 0")
        d.check(d.reduce(kind, a, axes=[1]), f"{kind} axis 1")
        d.check(d.reduce(kind, a, axes=[0, 2], keepdims=True),
                f"{kind} axes (0, 2) keepdims")
        d.check(d.reduce(kind, a, axes=[2], keepdims=True),
                f"{kind} axis 2 keepdims")
    d.check(d.reduce("var", a, axes=[0], correction=1), "var axis 0 ddof 1")
    d.check(d.reduce("min", a, axes=[1, 2]), "min axes (1, 2)")


def of_views(d, dynamic):
    a = d.array(data((11, 4)), dynamic=dynamic)
    d.check(d.reduce("sum", d.view(a, (slice(1, None, 2), slice(None)))),
            "sum(a[1::2])")
    d.check(d.reduce("max", d.view(a, (slice(None), 2))), "max(a[:, 2])")
    d.check(d.reduce("sum", d.view(a, slice(3, 3))), "sum(a[3:3]) empty")
    d.check(d.reduce("prod", d.view(a, (slice(4, 8), slice(1, 3))),
                     axes=[0]), "prod(a[4:8, 1:3], axis 0)")


def small(d, rows):
    a = d.array(data((rows, 3), "i64", -9, 9), via="create")
    for kind in ("sum", "min", "max", "all"):
        d.check(d.reduce(kind, a), f"{kind} of {rows} rows")
        d.check(d.reduce(kind, a, axes=[0]), f"{kind} axis 0 of {rows} rows")
    d.check(d.reduce("mean", a, axes=[1]), f"mean axis 1 of {rows} rows")


def results_reused(d, dynamic):
    # a - mean(a, axis=0), a / sum(a): replicated results broadcast back
    a = d.array(data((9, 4), "f64", 0.5, 2), dynamic=dynamic)
    d.check(d.sub(a, d.reduce("mean", a, axes=[0])), "a - mean(a, 0)")
    d.check(d.ewbin("divide", a, d.reduce("sum", a)), "a / sum(a)")
    rows = d.reduce("max", a, axes=[1], keepdims=True)
    d.check(d.sub(a, rows), "a - max(a, 1, keepdims)")
    # a full reduction of a distributed expression
    d.check(d.reduce("sum", d.mul(a, a)), "sum(a * a)")


def arg_values(shape, dtype):
    """Few distinct values (ties across ranks); floats with inf and a NaN
    late in the array."""
    if dtype == "i1":
        return data(shape, dtype)
    a = data(shape, dtype, 0 if dtype.startswith("ui") else -2, 2)
    if dtype.startswith("f"):
        flat = a.reshape(-1)
        flat[-2], flat[1] = np.nan, np.inf
    return a


def argreduce(d, shape, dtype, dynamic):
    a = d.array(arg_values(shape, dtype), dynamic=dynamic)
    for kind in ("max", "min"):
        d.check(d.argreduce(kind, a), f"arg{kind}(a)")
        for axis in range(len(shape)):
            d.check(d.argreduce(kind, a, axis), f"arg{kind}(a, {axis})")
        d.check(d.argreduce(kind, a, 0, keepdims=True),
                f"arg{kind}(a, 0, keepdims)")
        # (Ranks owning nothing contribute the identity, also unsigned.)
        d.check(d.reduce(kind, a, axes=[0]), f"{kind}(a, 0)")


def argreduce_ties(d, rows):
    """Equal values on every rank: the first occurrence wins; one row per
    rank or fewer rows than ranks."""
    a = d.array(np.zeros((rows, 2)), via="create")
    d.check(d.argreduce("max", a, 0), f"argmax(zeros({rows}, 2), 0)")
    b = d.array(np.full((rows,), -np.inf))
    d.check(d.argreduce("max", b), f"argmax(-inf * {rows})")
    c = d.array(np.full((rows,), np.nan))
    d.check(d.argreduce("min", c), f"argmin(nan * {rows})")


def row_blocks(d, rows, dtype, dynamic):
    """Float sums and products over the split axis reduce blocks of 64
    global rows in a fixed order: with more rows than a block, blocks
    straddle the ranks' boundaries (the rest of a block moves to the rank
    holding its first row), and every rank count gives the same bits."""
    a = d.array(data((rows, 3), dtype, -2, 2), dynamic=dynamic)
    d.check(d.reduce("sum", a, axes=[0]), f"sum(a[{rows}x3], 0)")
    d.check(d.reduce("mean", a), f"mean(a[{rows}x3])")
    p = d.array(data((rows,), dtype, 0.95, 1.05), dynamic=dynamic)
    d.check(d.reduce("prod", p), f"prod(p[{rows}])")


def cases(dynamic):
    return [named("full_f64_2d", full, (7, 3), "f64", dynamic),
            named("full_i64_3d", full, (5, 2, 3), "i64", dynamic),
            named("full_i1", full, (6,), "i1", dynamic),
            named("axes_f64", axes, "f64", dynamic),
            named("axes_i32", axes, "i32", dynamic),
            named("of_views", of_views, dynamic),
            named("small_1", small, 1), named("small_3", small, 3),
            named("results_reused", results_reused, dynamic),
            named("argreduce_f64", argreduce, (9, 3), "f64", dynamic),
            named("argreduce_f32", argreduce, (7,), "f32", dynamic),
            named("argreduce_i32", argreduce, (5, 2, 3), "i32", dynamic),
            named("argreduce_ui8", argreduce, (6, 2), "ui8", dynamic),
            named("argreduce_i1", argreduce, (10,), "i1", dynamic),
            named("argreduce_ties_1", argreduce_ties, 1),
            named("argreduce_ties_5", argreduce_ties, 5),
            named("row_blocks_f64", row_blocks, 130, "f64", dynamic),
            named("row_blocks_f32", row_blocks, 65, "f32", dynamic)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_reductions(dynamic):
    run_cases(cases(dynamic))
