"""Distributed elementwise ops: ewbin/ewuny/where/cast_elemtype with
distributed operands, broadcasting against distributed and replicated arrays
of the same rank, of lower rank, 0-d and with a dim 0 of size 1; uneven
partitions and arrays with fewer rows than ranks (some ranks own nothing)."""

import pytest

from dist_harness import data, iota, named, run_cases


def binary_same_shape(d, rows, dynamic):
    a = d.array(data((rows, 3)), dynamic=dynamic)
    # b is created with a team and filled from replicated data
    b = d.array(data((rows, 3), low=0.5, high=3), dynamic=dynamic,
                via="create")
    d.check(d.add(a, b), "add")
    d.check(d.ewbin("subtract", a, b), "subtract")
    d.check(d.ewbin("divide", a, b), "divide")
    d.check(d.ewbin("maximum", a, b), "maximum")
    d.check(d.ewbin("atan2", a, b), "atan2")
    d.check(d.ewbin("less", a, b), "less")
    # a chain the CPU pipeline fuses into one loop
    d.check(d.sub(d.mul(d.add(a, b), a), d.ewbin("divide", a, b)), "chain")


def integer_ops(d, dynamic):
    x = d.array(data((7, 4), "i64", -20, 20), dynamic=dynamic)
    y = d.array(data((7, 4), "i64", 1, 9), dynamic=dynamic)
    d.check(d.ewbin("floor_divide", x, y), "floor_divide")
    d.check(d.ewbin("remainder", x, y), "remainder")
    d.check(d.ewbin("bitwise_xor", x, y), "xor")
    i = d.array(data((7,), "i32", -9, 9), dynamic=dynamic)
    # i32 with f64 promotes to f64
    f = d.array(data((7,)), dynamic=dynamic)
    d.check(d.mul(i, f), "i32*f64")
    p = d.array(data((7,), "i1"), dynamic=dynamic)
    q = d.array(data((7,), "i1"), dynamic=dynamic)
    d.check(d.ewbin("logical_xor", p, q), "logical_xor")
    d.check(d.ewuny("logical_not", p), "logical_not")


def with_replicated(d, rows, dynamic):
    a = d.array(data((rows, 4)), dynamic=dynamic)
    same = d.array(data((rows, 4)), dist=False, dynamic=dynamic)
    row = d.array(data((4,)), dist=False, dynamic=dynamic)
    one_row = d.array(data((1, 4)), dist=False)
    zero_d = d.scalar(2.5)
    d.check(d.add(a, same), "dist+repl same shape")
    d.check(d.sub(same, a), "repl-dist same shape")
    d.check(d.mul(a, row), "dist*repl lower rank")
    d.check(d.sub(row, a), "repl lower rank - dist")
    d.check(d.add(a, one_row), "dist+repl 1xN")
    d.check(d.mul(zero_d, a), "0-d*dist")
    d.check(d.ewbin("divide", a, zero_d), "dist/0-d")


def size_one_dim0(d, dynamic):
    # a distributed array with one row is owned by one rank; broadcasting it
    # against an array distributed over all ranks needs that row everywhere
    a = d.array(data((6, 4)), dynamic=dynamic)
    top = d.array(data((1, 4)))
    col = d.array(data((6, 1)), dynamic=dynamic)
    repl_row = d.array(data((1, 4)), dist=False)
    d.check(d.add(a, top), "dist(6x4)+dist(1x4)")
    d.check(d.mul(top, a), "dist(1x4)*dist(6x4)")
    d.check(d.sub(col, repl_row), "dist(6x1)-repl(1x4) outer")
    d.check(d.add(col, a), "dist(6x1)+dist(6x4)")
    one = d.array(data((1,)))
    v = d.array(data((9,)), dynamic=dynamic)
    d.check(d.add(v, one), "dist(9)+dist(1)")
    zero_d_dist = d.scalar(-1.5, dist=True)
    d.check(d.mul(v, zero_d_dist), "dist*0-d with a team")


def unary(d, rows, dynamic):
    a = d.array(data((rows, 3)), dynamic=dynamic)
    for kind in ("exp", "sin", "negative", "floor", "round", "tanh",
                 "signbit"):
        d.check(d.ewuny(kind, a), kind)
    d.check(d.ewuny("sqrt", d.ewuny("abs", a)), "sqrt(abs)")
    k = d.array(data((rows,), "i32", -50, 50), dynamic=dynamic)
    d.check(d.ewuny("abs", k), "abs i32")
    d.check(d.ewuny("bitwise_invert", k), "invert i32")


def where_and_casts(d, dynamic):
    a = d.array(data((8, 3)), dynamic=dynamic)
    b = d.array(data((8, 3)), dynamic=dynamic)
    zero = d.scalar(0.0)
    cond = d.ewbin("greater", a, zero)
    d.check(d.where(cond, a, b), "where dist dist dist")
    d.check(d.where(cond, a, zero), "where with 0-d")
    r = d.array(data((3,)), dist=False)
    d.check(d.where(cond, r, a), "where with replicated lower rank")
    rc = d.array(data((8, 1), "i1"), dist=False)
    d.check(d.where(rc, a, b), "where with replicated condition")
    d.check(d.astype(a, "i32"), "f64 -> i32")
    d.check(d.astype(a, "i1"), "f64 -> i1")
    d.check(d.astype(cond, "f32"), "i1 -> f32")
    n = d.array(iota((8, 3), "i64"), dynamic=dynamic)
    d.check(d.astype(n, "f64", copy=True), "i64 -> f64 copy")


def empty_rows(d, dynamic):
    # zero rows: every rank owns nothing
    a = d.array(data((0, 3)), dynamic=dynamic)
    row = d.array(data((3,)), dist=False)
    d.check(d.add(a, row), "0x3 + row")


def dynamic_shapes(d, rows):
    # One op per broadcasting configuration: with sizes unknown to the
    # compiler, each distributed elementwise op carries run-time partition
    # and broadcast logic (and much code), so the static cases above cover
    # the op kinds and these the shapes.
    a = d.array(data((rows, 4)), dynamic=True)
    b = d.array(data((rows, 4), low=0.5, high=3), dynamic=True, via="create")
    d.check(d.ewbin("divide", d.sub(a, b), b), "(a - b) / b")
    d.check(d.ewbin("less", a, b), "a < b")
    same = d.array(data((rows, 4)), dist=False, dynamic=True)
    d.check(d.add(a, same), "dist + repl same shape")
    row = d.array(data((4,)), dist=False, dynamic=True)
    d.check(d.mul(row, a), "repl lower rank * dist")
    d.check(d.mul(a, d.scalar(2.5)), "dist * 0-d")
    top = d.array(data((1, 4)))
    d.check(d.add(a, top), "dist + dist(1x4)")
    col = d.array(data((rows, 1)), dynamic=True)
    d.check(d.sub(col, d.array(data((1, 4)), dist=False)),
            "dist(nx1) - repl(1x4)")
    d.check(d.where(d.ewbin("greater", a, d.scalar(0.0)), a, row),
            "where(a > 0, a, repl row)")
    d.check(d.astype(d.ewuny("exp", a), "i32"), "exp(a) -> i32")


def cases(dynamic):
    if dynamic:
        # 3 rows: uneven on 2 ranks, a rank without rows on 4
        return [named("dynamic_3rows", dynamic_shapes, 3),
                named("empty_rows", empty_rows, True)]
    out = [named(f"binary_{rows}rows", binary_same_shape, rows, dynamic)
           for rows in (10, 3, 1)]
    out += [named("integer_ops", integer_ops, dynamic),
            named("with_replicated_7", with_replicated, 7, dynamic),
            named("with_replicated_2", with_replicated, 2, dynamic),
            named("size_one_dim0", size_one_dim0, dynamic),
            named("unary_5", unary, 5, dynamic),
            named("where_and_casts", where_and_casts, dynamic),
            named("empty_rows", empty_rows, dynamic)]
    return out


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_elementwise(dynamic):
    run_cases(cases(dynamic))
