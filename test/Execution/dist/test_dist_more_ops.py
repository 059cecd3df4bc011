"""Operations on distributed arrays beyond the core list (a separate
program, so a missing one does not hide the others): extract_slice,
immutable_insert_slice, expand_dims/squeeze (adding or removing a leading
unit dimension changes which dimension is split), broadcast_to, matmul."""

import pytest

from dist_harness import data, iota, named, run_cases


def slices(d, dynamic):
    a = d.array(iota((9, 4)), dynamic=dynamic, via="create")
    e = d.extract(a, (slice(1, None, 2), slice(1, 3)))
    d.setitem(a, slice(None), d.scalar(0.0))  # e is a copy: unchanged
    d.check(e, "a[1::2, 1:3].copy()")
    b = d.array(data((9, 4)), dynamic=dynamic)
    r = d.array(data((3, 4)), dist=False)
    c = d.immutable_setitem(b, slice(2, 5), r)
    d.check(c, "immutable b[2:5] = repl")
    d.check(b, "b unchanged")
    s = d.immutable_setitem(b, (slice(None, None, 3), 1), d.scalar(5.0))
    d.check(s, "immutable b[::3, 1] = 5")


def unit_dims(d, dynamic):
    v = d.array(iota((7,)), dynamic=dynamic)
    row = d.expand_dims(v, [0])
    d.check(row, "v[None, :]")
    col = d.expand_dims(v, [1])
    d.check(col, "v[:, None]")
    d.check(d.sub(col, row), "v[:, None] - v[None, :]")
    m = d.array(iota((1, 5)))
    d.check(d.squeeze(m, [0]), "squeeze (1, 5)")
    k = d.array(iota((6, 1)), dynamic=False)
    d.check(d.squeeze(k, [1]), "squeeze (6, 1)")


def broadcasts(d):
    r = d.array(iota((4,)))
    d.check(d.broadcast_to(r, [5, 4]), "broadcast (4,) to (5, 4)")
    c = d.array(iota((5, 1)))
    d.check(d.broadcast_to(c, [5, 3]), "broadcast (5, 1) to (5, 3)")


def matmuls(d):
    a = d.array(data((6, 4)))
    b = d.array(data((4, 3)))
    d.check(d.matmul(a, b), "dist (6,4) @ dist (4,3)")
    rb = d.array(data((4, 2)), dist=False)
    d.check(d.matmul(a, rb), "dist @ repl")
    x = d.array(data((4,)))
    d.check(d.matmul(a, x), "matrix @ vector")
    ia = d.array(data((5, 3), "i64", -5, 5))
    ib = d.array(data((3, 2), "i64", -5, 5))
    d.check(d.matmul(ia, ib), "i64 matmul (exact)")
    # Stacks of matrices split on the batch dimension: each rank its
    # matrices times the whole rhs.
    s = d.array(data((5, 3, 4)))
    d.check(d.matmul(s, b), "dist (5,3,4) @ dist (4,3)")
    d.check(d.matmul(s, x), "dist (5,3,4) @ vector")
    d.check(d.matmul(s, rb), "dist (5,3,4) @ repl (4,2)")
    # A vector times a split matrix: partial products and an allreduce.
    d.check(d.matmul(x, b), "dist vector @ dist (4,3)")
    d.check(d.matmul(d.array(data((4,)), dist=False), b),
            "repl vector @ dist (4,3)")
    iv = d.array(data((5,), "i32", -5, 5))
    d.check(d.matmul(iv, ia), "i32 vector @ i64 (5,3)")


def cases(dynamic):
    return [named("slices", slices, dynamic),
            named("unit_dims", unit_dims, dynamic),
            named("broadcasts", broadcasts),
            named("matmuls", matmuls)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_more_ops(dynamic):
    cs = cases(dynamic)
    if dynamic:  # broadcast_to and matmul have static shapes only
        cs = cs[:2]
    run_cases(cs)
