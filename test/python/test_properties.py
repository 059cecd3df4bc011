"""Property tests (hypothesis) of broadcasting, type promotion and slicing
against numpy."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import imex as xp
from helpers import DTYPES, check, sample

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
NUMERIC = [d for d in DTYPES if d != xp.bool]


@SETTINGS
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0,
                                         max_dims=3, max_side=4))
def test_broadcasting(shapes):
    x = sample(shapes.input_shapes[0], np.float64, seed=1)
    y = sample(shapes.input_shapes[1], np.float64, seed=2)
    check(xp.asarray(x) - xp.asarray(y), x - y)


@SETTINGS
@given(st.sampled_from(NUMERIC), st.sampled_from(NUMERIC))
def test_promotion(lhs, rhs):
    x = sample((3,), lhs, seed=3)
    y = sample((3,), rhs, seed=4)
    expected = np.multiply(x, y)
    got = xp.asarray(x) * xp.asarray(y)
    assert got.dtype == expected.dtype
    check(got, expected)


@SETTINGS
@given(st.data())
def test_slicing(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                       max_side=6))
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True,
                                      allow_ellipsis=True))
    if any(isinstance(k, slice) and k.step is not None and k.step < 0
           for k in (key if isinstance(key, tuple) else (key,))):
        return  # negative steps: NotImplementedError (tested elsewhere)
    x = sample(shape, np.float64, seed=5)
    check(xp.asarray(x)[key], x[key], exact=True)


@SETTINGS
@given(st.data())
def test_slice_assignment(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1,
                                       max_side=5))
    key = data.draw(hnp.basic_indices(shape, allow_ellipsis=True))
    if any(isinstance(k, slice) and k.step is not None and k.step < 0
           for k in (key if isinstance(key, tuple) else (key,))):
        return
    x = sample(shape, np.float64, seed=6)
    a = xp.asarray(x)
    value = sample(x[key].shape, np.float64, seed=7)
    a[key] = xp.asarray(value)
    x[key] = value
    check(a, x, exact=True)


BINARY_OPS = ["add", "subtract", "multiply", "maximum", "minimum"]
UNARY_OPS = ["negative", "abs", "sin", "square", "tanh"]


def expressions(depth):
    """Random expression trees over three inputs a, b (broadcastable) and
    c, as nested tuples."""
    leaves = st.sampled_from(["a", "b", "c", "1.5"])
    if depth == 0:
        return leaves
    sub = expressions(depth - 1)
    return st.one_of(
        leaves,
        st.tuples(st.sampled_from(BINARY_OPS), sub, sub),
        st.tuples(st.sampled_from(UNARY_OPS), sub),
        st.tuples(st.just("where"), sub, sub, sub),
        st.tuples(st.just("slice"), sub))


def evaluate(m, expr, env):
    if isinstance(expr, str):
        return 1.5 if expr == "1.5" else env[expr]
    op, *args = expr
    values = [evaluate(m, a, env) for a in args]
    if op == "where":
        return m.where(values[0] > values[1], values[1], values[2])
    if op == "slice":  # a view of whatever was computed (if it has rows)
        v = values[0]
        return v[1:] if getattr(v, "ndim", 0) and v.shape[0] > 1 else v
    name = {"negative": "negative", "abs": "abs"}.get(op, op)
    return getattr(m, name)(*values)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(expressions(4))
def test_random_expressions(expr):
    env_np = {"a": sample((4, 3), np.float64, seed=8),
              "b": sample((3,), np.float64, seed=9),
              "c": sample((4, 1), np.float64, seed=10)}
    env_xp = {k: xp.asarray(v) for k, v in env_np.items()}
    try:
        expected = np.asarray(evaluate(np, expr, env_np))
    except ValueError:  # slices made the shapes incompatible
        with np.testing.assert_raises(ValueError):
            evaluate(xp, expr, env_xp)
        return
    got = evaluate(xp, expr, env_xp)
    if isinstance(got, float):
        return
    check(got, expected)


# --- data type functions -----------------------------------------------------

DTYPE_LIST = [xp.bool, xp.int8, xp.int16, xp.int32, xp.int64, xp.uint8,
              xp.uint16, xp.uint32, xp.uint64, xp.float16, xp.float32,
              xp.float64]


def test_result_type_and_can_cast_follow_numpy():
    for a in DTYPE_LIST:
        for b in DTYPE_LIST:
            if a.kind in "ui" and b.kind in "ui" and {a.kind, b.kind} == \
                    {"u", "i"} and max(a.itemsize, b.itemsize) == 8:
                continue  # numpy gives float64 for uint64 with int64
            expected = np.result_type(a, b)
            assert xp.result_type(a, b) == expected, (a, b)
            assert xp.result_type(xp.ones(2, dtype=a), b) == expected
            assert xp.can_cast(a, b) == (np.result_type(a, b) == b), (a, b)
    assert xp.result_type(xp.int8, xp.int16, xp.float32) == xp.float32
    with pytest.raises(ValueError):
        xp.result_type()


def test_isdtype():
    assert xp.isdtype(xp.int8, "integral")
    assert xp.isdtype(xp.uint16, "unsigned integer")
    assert not xp.isdtype(xp.uint16, "signed integer")
    assert xp.isdtype(xp.float16, ("bool", "real floating"))
    assert xp.isdtype(xp.bool, "bool") and not xp.isdtype(xp.bool, "numeric")
    assert xp.isdtype(xp.float32, xp.float32)
    assert not xp.isdtype(xp.float32, "complex floating")
    with pytest.raises(ValueError, match="unknown data type kind"):
        xp.isdtype(xp.int8, "integer")


def test_inspection_namespace():
    info = xp.__array_namespace_info__()
    assert xp.__array_api_version__ == "2024.12"
    assert info.capabilities()["boolean indexing"] is True
    assert info.default_device() in info.devices()
    assert info.default_dtypes()["indexing"] == xp.int64
    assert set(info.dtypes(kind="unsigned integer")) == {
        "uint8", "uint16", "uint32", "uint64"}
    assert "float16" not in info.dtypes()  # (not an array API dtype)
    with pytest.raises(ValueError, match="unknown device"):
        info.dtypes(device="tpu")
    assert xp.result_type(xp.bool, xp.bool, True) == xp.bool
    assert xp.result_type(xp.int8, 1.0) == xp.float64
    assert xp.result_type(xp.float32, 1j) == xp.complex64


def test_large_python_ints():
    check(xp.arange(2**53, 2**53 + 4), np.arange(2**53, 2**53 + 4))
    check(xp.arange(-7, 8, 3), np.arange(-7, 8, 3))
    check(xp.arange(0.5, 3.0, 0.5), np.arange(0.5, 3.0, 0.5))
    check(xp.full(3, 2**62 + 1), np.full(3, 2**62 + 1))
    check(xp.asarray(np.ones(2, np.uint64)) + (2**64 - 1),
          np.zeros(2, np.uint64))
    with pytest.raises(OverflowError):
        xp.asarray([1, 2]) + 2**64
    with pytest.raises(OverflowError):
        xp.asarray(2**63)
    check(xp.eye(3, k=2**63), np.zeros((3, 3)))


@pytest.mark.parametrize("dtype", [xp.float32, xp.float64], ids=str)
def test_nextafter_and_reciprocal(dtype):
    x = np.array([0.0, -0.0, 1.0, 1.0, -1.0, np.nan, np.inf, 5.0], dtype)
    y = np.array([1.0, 0.0, 2.0, 0.0, -2.0, 1.0, 0.0, 5.0], dtype)
    got = xp.nextafter(xp.asarray(x), xp.asarray(y)).to_numpy()
    want = np.nextafter(x, y)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[1]) == np.signbit(want[1])
    check(xp.reciprocal(xp.asarray(y[:5] + 1)), 1 / (y[:5] + 1))


def test_sign_of_zero_is_positive_zero():
    got = xp.sign(xp.asarray([-0.0, 0.0, -3.0, np.nan])).to_numpy()
    np.testing.assert_array_equal(got, [0.0, 0.0, -1.0, np.nan])
    assert not np.signbit(got[0])


def test_floor_divide_infinities_follow_the_array_api():
    x = xp.asarray([np.inf, -np.inf, 1.0, -1.0, 7.0])
    y = xp.asarray([2.0, 2.0, -np.inf, np.inf, -2.0])
    got = xp.floor_divide(x, y).to_numpy()
    np.testing.assert_array_equal(got, [np.inf, -np.inf, -0.0, -0.0, -4.0])
    assert np.signbit(got[2]) and np.signbit(got[3])


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_count_nonzero(axis):
    x = np.array([[0, 1, 2], [3, 0, 0]], dtype=np.int32)
    check(xp.count_nonzero(xp.asarray(x), axis=axis),
          np.asarray(np.count_nonzero(x, axis=axis), dtype=np.int64))
    f = np.array([0.0, -0.0, np.nan, 2.5])
    check(xp.count_nonzero(xp.asarray(f)),
          np.asarray(np.count_nonzero(f), dtype=np.int64))
