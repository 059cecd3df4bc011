"""Views, slices and in-place updates: subview is always a view,
insert_slice writes in place (visible through every alias), value ops never
alias; compared with the same numpy program."""

import numpy as np
import pytest

from harness import Program, array_type, assert_matches
from test_elementwise import values


def ty(shape, dtype="f64"):
    return array_type(shape, dtype)


def test_strided_subview_and_extract():
    a = values("f64", (10, 8))
    p = Program()
    x, xt = p.input(a)
    v = p.op(f"ndarray.subview {x}[1, 2] [4, 3] [2, 2] : {xt} to {ty([4, 3])}")
    e = p.op(f"ndarray.extract_slice {x}[0, 1] [5, 7] [2, 1] : {xt} to {ty([5, 7])}")
    row = p.op(f"ndarray.subview {x}[3, 0] [1, 8] [1, 1] : {xt} to {ty([8])}")
    p.output(v, [4, 3], "f64")
    p.output(e, [5, 7], "f64")
    p.output(row, [8], "f64")
    r = p.run()
    assert_matches(r[0], a[1:9:2, 2:8:2], "f64")
    assert_matches(r[1], a[0:10:2, 1:8], "f64")
    assert_matches(r[2], a[3, :], "f64")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_update_visible_through_views(dynamic):
    # numpy: v = a[1:5]; a[2:4] = 7; w = v * 2; v[0] = -1  -> a changed too.
    a = values("f64", (8,))
    expected = a.copy()
    v_np = expected[1:5]
    expected[2:4] = 7.0
    w_np = v_np * 2
    v_np[0] = -1.0
    p = Program()
    x, xt = p.input(a, dynamic=dynamic)
    shape = [None] if dynamic else [8]
    v = p.op(f"ndarray.subview {x}[1] [4] [1] : {xt} to {ty([4])}")
    seven = p.op(f"ndarray.create value {p.constant(7.0, 'f64')} : {ty([])}")
    p.line(f"ndarray.insert_slice {seven} into {x}[2] [2] [1] : {ty([])} into {xt}")
    two = p.op(f"ndarray.create value {p.constant(2.0, 'f64')} : {ty([])}")
    w = p.op(f"ndarray.ewbin multiply {v}, {two} : ({ty([4])}, {ty([])}) -> {ty([4])}")
    minus = p.op(f"ndarray.create value {p.constant(-1.0, 'f64')} : {ty([])}")
    p.line(f"ndarray.insert_slice {minus} into {v}[0] [1] [1] : {ty([])} into {ty([4])}")
    p.output(w, [4], "f64")
    p.output(x, shape, "f64")
    p.output(v, [4], "f64")
    r = p.run()
    assert_matches(r[0], w_np, "f64")
    assert_matches(r[1], expected, "f64")
    assert_matches(r[2], v_np, "f64")


def test_value_ops_do_not_alias():
    # b = a + 0 is a fresh array: writing a afterwards leaves b unchanged;
    # extract_slice copies.
    a = values("i32", (6,))
    p = Program()
    x, xt = p.input(a)
    zero = p.op(f"ndarray.create value {p.constant(0, 'i32')} : {ty([], 'i32')}")
    b = p.op(f"ndarray.ewbin add {x}, {zero} : ({xt}, {ty([], 'i32')}) -> {xt}")
    c = p.op(f"ndarray.extract_slice {x}[0] [3] [1] : {xt} to {ty([3], 'i32')}")
    nine = p.op(f"ndarray.create value {p.constant(9, 'i32')} : {ty([], 'i32')}")
    p.line(f"ndarray.insert_slice {nine} into {x}[0] [6] [1] : {ty([], 'i32')} into {xt}")
    p.output(b, [6], "i32")
    p.output(c, [3], "i32")
    p.output(x, [6], "i32")
    r = p.run()
    assert_matches(r[0], a, "i32")
    assert_matches(r[1], a[:3], "i32")
    assert_matches(r[2], np.full(6, 9), "i32")


def test_insert_broadcast_and_convert():
    a = values("f32", (4, 5))
    row = values("i64", (5,))
    expected = a.copy()
    expected[1:3, :] = row
    p = Program()
    x, xt = p.input(a)
    r, rt = p.input(row)
    p.line(f"ndarray.insert_slice {r} into {x}[1, 0] [2, 5] [1, 1] : {rt} into {xt}")
    p.output(x, [4, 5], "f32")
    assert_matches(p.run()[0], expected, "f32")


def test_insert_into_rank_reduced_view():
    # col = a[:, 2]; col[1:3] = (5, 6) -- writes a column of a.
    a = values("f64", (4, 4))
    src = np.array([5.0, 6.0])
    expected = a.copy()
    expected[1:3, 2] = src
    p = Program()
    x, xt = p.input(a)
    s, st = p.input(src)
    col = p.op(f"ndarray.subview {x}[0, 2] [4, 1] [1, 1] : {xt} to {ty([4])}")
    p.line(f"ndarray.insert_slice {s} into {col}[1] [2] [1] : {st} into {ty([4])}")
    p.output(x, [4, 4], "f64")
    assert_matches(p.run()[0], expected, "f64")


def test_overlapping_self_assignment():
    # a[1:] = a[:-1] reads the old values (numpy evaluates the right side
    # first).
    a = values("i64", (6,))
    expected = a.copy()
    expected[1:] = a[:-1]
    p = Program()
    x, xt = p.input(a)
    lo = p.op(f"ndarray.subview {x}[0] [5] [1] : {xt} to {ty([5], 'i64')}")
    p.line(f"ndarray.insert_slice {lo} into {x}[1] [5] [1] : {ty([5], 'i64')} into {xt}")
    p.output(x, [6], "i64")
    assert_matches(p.run()[0], expected, "i64")


def test_immutable_insert_and_load():
    a = values("f64", (3, 3))
    v = values("f64", (2,))
    expected = a.copy()
    expected[0, 1:3] = v
    p = Program()
    x, xt = p.input(a)
    y, yt = p.input(v)
    r = p.op(f"ndarray.immutable_insert_slice {y} into {x}[0, 1] [1, 2] [1, 1] : {yt} into {xt}")
    i = p.constant(2, "index")
    j = p.constant(1, "index")
    e = p.op(f"ndarray.load {x}[{i}, {j}] : {xt}")
    s = p.op(f"ndarray.create value {e} : {ty([])}")
    p.output(r, [3, 3], "f64")
    p.output(x, [3, 3], "f64")
    p.output(s, [], "f64")
    out = p.run()
    assert_matches(out[0], expected, "f64")
    assert_matches(out[1], a, "f64")
    assert_matches(out[2], a[2, 1], "f64")


def test_updates_in_loops_and_branches():
    # for i in range(4): a[i % 3] += i; if i == 2: a[3:] = 0
    a = values("i64", (6,))
    expected = a.copy()
    for i in range(4):
        expected[i % 3] += i
        if i == 2:
            expected[3:] = 0
    p = Program()
    x, xt = p.input(a)
    c0, c1, c3, c4 = (p.constant(v, "index") for v in (0, 1, 3, 4))
    c2 = p.constant(2, "index")
    p.line(f"scf.for %i = {c0} to {c4} step {c1} {{")
    p.line(f"  %k = arith.remui %i, {c3} : index")
    p.line(f"  %old = ndarray.subview {x}[%k] [1] [1] : {xt} to {ty([1], 'i64')}")
    p.line(f"  %ii = arith.index_cast %i : index to i64")
    p.line(f"  %inc = ndarray.create value %ii : {ty([], 'i64')}")
    p.line(f"  %new = ndarray.ewbin add %old, %inc : ({ty([1], 'i64')}, {ty([], 'i64')}) -> {ty([1], 'i64')}")
    p.line(f"  ndarray.insert_slice %new into {x}[%k] [1] [1] : {ty([1], 'i64')} into {xt}")
    p.line(f"  %is2 = arith.cmpi eq, %i, {c2} : index")
    p.line(f"  scf.if %is2 {{")
    p.line(f"    %z = arith.constant 0 : i64")
    p.line(f"    %zero = ndarray.create value %z : {ty([], 'i64')}")
    p.line(f"    ndarray.insert_slice %zero into {x}[3] [3] [1] : {ty([], 'i64')} into {xt}")
    p.line(f"  }}")
    p.line(f"}}")
    p.output(x, [6], "i64")
    assert_matches(p.run()[0], expected, "i64")
