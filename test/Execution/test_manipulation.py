"""Creation, shape manipulation, matmul and concat against numpy, plus
function calls and regions."""

import numpy as np
import pytest

from harness import Program, array_type, assert_matches
from test_elementwise import values


def ty(shape, dtype="f64"):
    return array_type(shape, dtype)


@pytest.mark.parametrize("args", [(0.0, 1.0, 5, True), (0.0, 1.0, 5, False),
                                  (-3.0, 7.5, 11, True), (2.0, 2.0, 1, True),
                                  (1.0, 5.0, 0, True)], ids=str)
@pytest.mark.parametrize("dtype", ["f64", "f32", "i64"])
def test_linspace(args, dtype):
    start, stop, num, endpoint = args
    expected = np.linspace(start, stop, num, endpoint=endpoint).astype(
        {"f64": np.float64, "f32": np.float32, "i64": np.int64}[dtype])
    p = Program()
    s, e = p.constant(start, "f64"), p.constant(stop, "f64")
    n = p.constant(num, "index")
    flag = " endpoint" if endpoint else ""
    r = p.op(f"ndarray.linspace {s}, {e}, {n}{flag} : f64 -> {ty([None], dtype)}")
    p.output(r, [None], dtype)
    assert_matches(p.run()[0], expected, dtype)


def test_arange_through_linspace():
    # arange(3, 20, 4) == linspace(3, 3 + n*4, n, endpoint=False), n = 5
    p = Program()
    s, e = p.constant(3, "i64"), p.constant(3 + 5 * 4, "i64")
    n = p.constant(5, "index")
    r = p.op(f"ndarray.linspace {s}, {e}, {n} : i64 -> {ty([None], 'i64')}")
    p.output(r, [None], "i64")
    assert_matches(p.run()[0], np.arange(3, 20, 4), "i64")


def test_create():
    p = Program()
    n = p.constant(3, "index")
    v = p.op(f"ndarray.create({n}) value {p.constant(2.5, 'f32')} : {ty([None, 2], 'f32')}")
    z = p.op(f"ndarray.create value {p.constant(True, 'i1')} : {ty([], 'i1')}")
    p.output(v, [None, 2], "f32")
    p.output(z, [], "i1")
    r = p.run()
    assert_matches(r[0], np.full((3, 2), 2.5, np.float32), "f32")
    assert_matches(r[1], np.array(True), "i1")


@pytest.mark.parametrize("dtype", ["ui8", "ui16", "ui32", "ui64"])
def test_unsigned_scalars(dtype):
    # Scalars of unsigned element types (loaded elements, fill values) have
    # the same storage as the arrays; the largest values keep their bits.
    np_type = {"ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32,
               "ui64": np.uint64}[dtype]
    a = np.array([1, np.iinfo(np_type).max, 200], np_type)
    p = Program()
    x, xt = p.input(a, dtype)
    e = p.op(f"ndarray.load {x}[{p.constant(1, 'index')}] : {xt}")
    filled = p.op(f"ndarray.create value {e} : {ty([3], dtype)}")
    p.output(filled, [3], dtype)
    assert_matches(p.run()[0], np.full(3, np.iinfo(np_type).max, np_type),
                   dtype)


@pytest.mark.parametrize("copy", [False, True], ids=["view", "copy"])
def test_reshape(copy):
    a = values("i32", (3, 4))
    p = Program()
    x, xt = p.input(a)
    flag = " copy" if copy else ""
    r = p.op(f"ndarray.reshape {x}{flag} : {xt} -> {ty([2, 3, 2], 'i32')}")
    n = p.constant(6, "index")
    d, dt = p.input(a, dynamic=True)
    s = p.op(f"ndarray.reshape {d}({n}){flag} : {dt} -> {ty([None, 2], 'i32')}")
    p.output(r, [2, 3, 2], "i32")
    p.output(s, [None, 2], "i32")
    out = p.run()
    assert_matches(out[0], a.reshape(2, 3, 2), "i32")
    assert_matches(out[1], a.reshape(6, 2), "i32")


@pytest.mark.parametrize("copy", [False, True], ids=["view", "copy"])
def test_reshape_0d(copy):
    a = values("f64", (1,))
    p = Program()
    flag = " copy" if copy else ""
    d, dt = p.input(a, dynamic=True)
    s = p.op(f"ndarray.reshape {d}{flag} : {dt} -> {ty([])}")
    n = p.constant(1, "index")
    b = p.op(f"ndarray.reshape {s}({n}, {n}){flag} : {ty([])} -> {ty([None, None])}")
    p.output(s, [], "f64")
    p.output(b, [None, None], "f64")
    out = p.run()
    assert_matches(out[0], a.reshape(()), "f64")
    assert_matches(out[1], a.reshape(1, 1), "f64")


def test_reshape_of_strided_view():
    a = values("f64", (4, 6))
    p = Program()
    x, xt = p.input(a)
    v = p.op(f"ndarray.subview {x}[0, 1] [4, 2] [1, 2] : {xt} to {ty([4, 2])}")
    r = p.op(f"ndarray.reshape {v} : {ty([4, 2])} -> {ty([8])}")
    p.output(r, [8], "f64")
    assert_matches(p.run()[0], a[:, 1:4:2].reshape(8), "f64")


@pytest.mark.parametrize("perm", [(1, 0), (2, 0, 1), (0, 2, 1)], ids=str)
def test_permute_dims(perm):
    shape = (3, 4) if len(perm) == 2 else (2, 3, 4)
    a = values("f32", shape)
    expected = np.transpose(a, perm)
    p = Program()
    x, xt = p.input(a, dynamic=True)
    dyn = [None] * len(shape)
    r = p.op(f"ndarray.permute_dims {x} [{', '.join(map(str, perm))}] : {xt} -> {ty(dyn, 'f32')}")
    p.output(r, dyn, "f32")
    assert_matches(p.run()[0], expected, "f32")


@pytest.mark.parametrize("dtype", ["f64", "i32", "ui8", "i1"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_flip(dtype, dynamic):
    p = Program()
    want = []
    for shape, axes in [((7,), [0]), ((3, 4), [0]), ((3, 4), [1]),
                        ((3, 4), [0, 1]), ((2, 3, 4), [0, 2]), ((0, 3), [0]),
                        ((1, 5), [0, 1])]:
        a = values(dtype, shape)
        x, xt = p.input(a, dtype, dynamic)
        dims = [None] * len(shape) if dynamic else list(shape)
        r = p.op(f"ndarray.flip {x} [{', '.join(map(str, axes))}] : {xt} -> "
                 f"{ty(dims, dtype)}")
        p.output(r, dims, dtype)
        want.append(np.flip(a, axis=tuple(axes)))
    for e, got in zip(want, p.run()):
        assert_matches(got, e, dtype)


def test_broadcast_to():
    a = values("i64", (3, 1))
    p = Program()
    x, xt = p.input(a)
    r = p.op(f"ndarray.broadcast_to {x} : {xt} -> {ty([2, 3, 4], 'i64')}")
    n = p.constant(5, "index")
    y, yt = p.input(a, dynamic=True)
    s = p.op(f"ndarray.broadcast_to {y}({n}) : {yt} -> {ty([3, None], 'i64')}")
    p.output(r, [2, 3, 4], "i64")
    p.output(s, [3, None], "i64")
    out = p.run()
    assert_matches(out[0], np.broadcast_to(a, (2, 3, 4)), "i64")
    assert_matches(out[1], np.broadcast_to(a, (3, 5)), "i64")


def test_expand_dims_and_squeeze():
    a = values("f64", (3, 4))
    p = Program()
    x, xt = p.input(a)
    e = p.op(f"ndarray.expand_dims {x} [0, 3] : {xt} -> {ty([1, 3, 4, 1])}")
    s = p.op(f"ndarray.squeeze {e} [0, 3] : {ty([1, 3, 4, 1])} -> {ty([3, 4])}")
    z, zt = p.input(np.array(7.0))
    ez = p.op(f"ndarray.expand_dims {z} [0, 1] : {zt} -> {ty([1, 1])}")
    d, dt = p.input(a[:1], dynamic=True)
    sd = p.op(f"ndarray.squeeze {d} [0] : {dt} -> {ty([None])}")
    p.output(e, [1, 3, 4, 1], "f64")
    p.output(s, [3, 4], "f64")
    p.output(ez, [1, 1], "f64")
    p.output(sd, [None], "f64")
    out = p.run()
    assert_matches(out[0], a[None, :, :, None], "f64")
    assert_matches(out[1], a, "f64")
    assert_matches(out[2], np.array([[7.0]]), "f64")
    assert_matches(out[3], a[0], "f64")


def test_squeeze_non_unit_aborts():
    p = Program()
    d, dt = p.input(values("f64", (2, 3)), dynamic=True)
    sd = p.op(f"ndarray.squeeze {d} [0] : {dt} -> {ty([None])}")
    p.output(sd, [None], "f64")
    with pytest.raises(AssertionError, match="cannot squeeze"):
        p.run()


def test_incompatible_broadcast_aborts():
    p = Program()
    a, at = p.input(values("f64", (3,)), dynamic=True)
    b, bt = p.input(values("f64", (4,)), dynamic=True)
    r = p.op(f"ndarray.ewbin add {a}, {b} : ({at}, {bt}) -> {ty([None])}")
    p.output(r, [None], "f64")
    with pytest.raises(AssertionError, match="could not be broadcast"):
        p.run()


@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((3, 4), (4,)),
                                    ((4,), (4, 2)), ((4,), (4,)),
                                    ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((1, 1, 3, 4), (2, 1, 4, 2)), ((4,), (3, 4, 2))],
                         ids=str)
@pytest.mark.parametrize("dynamic", ["", "lhs", "rhs", "both"])
def test_matmul(shapes, dynamic):
    """Batch dimensions broadcast, also a static unit one against a dynamic
    one and dynamic ones that are 1 at run time."""
    a = values("f64", shapes[0])
    b = values("i32", shapes[1])
    expected = np.matmul(a, b)
    p = Program()
    x, xt = p.input(a, dynamic=dynamic in ("lhs", "both"))
    y, yt = p.input(b, dynamic=dynamic in ("rhs", "both"))
    dims = [None] * expected.ndim if dynamic else list(expected.shape)
    r = p.op(f"ndarray.matmul {x}, {y} : ({xt}, {yt}) -> {ty(dims)}")
    p.output(r, dims, "f64")
    assert_matches(p.run()[0], expected, "f64")


def test_concat():
    a, b, c = values("i32", (2, 3)), values("f64", (1, 3)), values("i32", (3, 3))
    p = Program()
    x, xt = p.input(a)
    y, yt = p.input(b, dynamic=True)
    z, zt = p.input(c)
    r = p.op(f"ndarray.concat {x}, {y}, {z} axis 0 : ({xt}, {yt}, {zt}) -> {ty([None, 3])}")
    s = p.op(f"ndarray.concat {x}, {x} axis 1 : ({xt}, {xt}) -> {ty([2, 6], 'i32')}")
    p.output(r, [None, 3], "f64")
    p.output(s, [2, 6], "i32")
    out = p.run()
    assert_matches(out[0], np.concatenate([a, b, c]), "f64")
    assert_matches(out[1], np.concatenate([a, a], axis=1), "i32")


def test_copy_is_independent():
    a = values("f64", (4,))
    p = Program()
    x, xt = p.input(a)
    c = p.op(f"ndarray.copy {x} : {xt} -> {xt}")
    one = p.op(f"ndarray.create value {p.constant(1.0, 'f64')} : {ty([])}")
    p.line(f"ndarray.insert_slice {one} into {c}[0] [4] [1] : {ty([])} into {xt}")
    p.output(x, [4], "f64")
    p.output(c, [4], "f64")
    out = p.run()
    assert_matches(out[0], a, "f64")
    assert_matches(out[1], np.ones(4), "f64")


def test_function_updates_argument_in_place():
    # def scale(a, s): a[...] *= s   -- called twice from main.
    a = values("f64", (5,))
    p = Program()
    p.globals.append(
        "func.func private @scale(%a: !ndarray.ndarray<?xf64>, %s: f64) {\n"
        "  %c = ndarray.create value %s : !ndarray.ndarray<f64>\n"
        "  %m = ndarray.ewbin multiply %a, %c : (!ndarray.ndarray<?xf64>, "
        "!ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %n = ndarray.dim %a, %c0 : !ndarray.ndarray<?xf64>\n"
        "  ndarray.insert_slice %m into %a[0] [%n] [1] : "
        "!ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>\n"
        "  return\n}")
    x, xt = p.input(a, dynamic=True)
    p.line(f"func.call @scale({x}, {p.constant(2.0, 'f64')}) : ({xt}, f64) -> ()")
    p.line(f"func.call @scale({x}, {p.constant(-3.0, 'f64')}) : ({xt}, f64) -> ()")
    p.output(x, [None], "f64")
    assert_matches(p.run()[0], a * -6.0, "f64")


def test_env_region():
    a = values("f64", (6,))
    p = Program()
    x, xt = p.input(a)
    p.line(f'%r = region.env_region "cpu" -> {xt} {{')
    p.line(f"  %s = ndarray.ewuny sqrt {x} : {xt} -> {xt}")
    p.line(f"  %h = ndarray.subview {x}[0] [3] [1] : {xt} to {ty([3])}")
    p.line(f"  ndarray.insert_slice %h into {x}[3] [3] [1] : {ty([3])} into {xt}")
    p.line(f"  region.env_region_yield %s : {xt}")
    p.line("}")
    p.output("%r", [6], "f64")
    p.output(x, [6], "f64")
    out = p.run()
    expected = a.copy()
    expected[3:] = a[:3]
    with np.errstate(all="ignore"):
        assert_matches(out[0], np.sqrt(a), "f64")
    assert_matches(out[1], expected, "f64")
