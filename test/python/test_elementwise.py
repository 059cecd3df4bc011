"""Every elementwise function and operator against numpy, for every dtype
(both operands of one dtype, mixed dtypes, Python scalars, broadcasting)."""

import numpy as np
import pytest

import imex as xp
from helpers import DTYPES, check, sample

BINARY = {
    "add": np.add, "atan2": np.arctan2, "bitwise_and": np.bitwise_and,
    "bitwise_left_shift": np.left_shift, "bitwise_or": np.bitwise_or,
    "bitwise_right_shift": np.right_shift, "bitwise_xor": np.bitwise_xor,
    "copysign": np.copysign, "divide": np.true_divide, "equal": np.equal,
    "floor_divide": np.floor_divide, "greater": np.greater,
    "greater_equal": np.greater_equal, "hypot": np.hypot, "less": np.less,
    "less_equal": np.less_equal, "logaddexp": np.logaddexp,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor, "maximum": np.maximum,
    "minimum": np.minimum, "multiply": np.multiply,
    "not_equal": np.not_equal, "pow": np.power, "remainder": np.remainder,
    "subtract": np.subtract,
}
UNARY = {
    "abs": np.abs, "acos": np.arccos, "acosh": np.arccosh,
    "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
    "atanh": np.arctanh, "bitwise_invert": np.invert, "ceil": np.ceil,
    "cos": np.cos, "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1,
    "floor": np.floor, "isfinite": np.isfinite, "isinf": np.isinf,
    "isnan": np.isnan, "log": np.log, "log1p": np.log1p, "log2": np.log2,
    "log10": np.log10, "logical_not": np.logical_not,
    "negative": np.negative, "positive": np.positive, "round": np.round,
    "sign": np.sign, "signbit": np.signbit, "sin": np.sin, "sinh": np.sinh,
    "sqrt": np.sqrt, "square": np.square, "tan": np.tan, "tanh": np.tanh,
    "trunc": np.trunc,
}
# bool is not a numeric dtype in the array API: arithmetic on it raises
# TypeError where numpy computes with it.
NOT_FOR_BOOL = {"add", "multiply", "pow", "remainder", "bitwise_left_shift",
                "bitwise_right_shift", "abs", "ceil", "floor", "round",
                "square", "trunc"}
# numpy's integer results of rounding functions are floats; the array API
# (and imex) keep integers.
KEEPS_INTEGERS = {"ceil", "floor", "round", "trunc"}


def operands(kind, dtype):
    x = sample((3, 5), dtype, seed=1)
    y = sample((3, 5), dtype, seed=2)
    dt = np.dtype(dtype)
    if kind in ("divide", "floor_divide", "remainder") and dt.kind in "iub":
        y = np.where(y == 0, np.ones_like(y), y)
    if kind in ("bitwise_left_shift", "bitwise_right_shift") or (
            kind == "pow" and dt.kind in "iu"):
        y = np.abs(y) % 4 if dt.kind != "b" else y
    if kind == "pow" and dt.kind == "f":
        x = np.abs(x)
    return x, y


def numpy_result(function, *args):
    with np.errstate(all="ignore"):
        return function(*args)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("kind", sorted(BINARY))
def test_binary(kind, dtype):
    x, y = operands(kind, dtype)
    if np.dtype(dtype) == np.bool_ and kind in NOT_FOR_BOOL:
        with pytest.raises(TypeError, match="numeric|integer|bool"):
            getattr(xp, kind)(xp.asarray(x), xp.asarray(y))
        return
    try:
        expected = numpy_result(BINARY[kind], x, y)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(xp, kind)(xp.asarray(x), xp.asarray(y))
        return
    if kind == "floor_divide" and np.dtype(dtype) == np.bool_:
        pytest.skip("numpy floor_divide of bools gives int8")
    check(getattr(xp, kind)(xp.asarray(x), xp.asarray(y)), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("kind", sorted(UNARY))
def test_unary(kind, dtype):
    x = sample((4, 3), dtype, seed=3)
    if np.dtype(dtype) == np.bool_ and kind in NOT_FOR_BOOL:
        with pytest.raises(TypeError, match="numeric|integer|bool"):
            getattr(xp, kind)(xp.asarray(x))
        return
    try:
        expected = numpy_result(UNARY[kind], x)
    except TypeError:
        with pytest.raises(TypeError):
            getattr(xp, kind)(xp.asarray(x))
        return
    if kind in KEEPS_INTEGERS and x.dtype.kind in "iub":
        expected = expected.astype(x.dtype)
    # float16 transcendental functions: numpy computes them in float32.
    check(getattr(xp, kind)(xp.asarray(x)), expected,
          rtol=1e-3 if expected.dtype == np.float16 else None)


OPERATORS = [("__add__", np.add), ("__sub__", np.subtract),
             ("__mul__", np.multiply), ("__truediv__", np.true_divide),
             ("__floordiv__", np.floor_divide), ("__mod__", np.remainder),
             ("__pow__", np.power), ("__lt__", np.less),
             ("__le__", np.less_equal), ("__gt__", np.greater),
             ("__ge__", np.greater_equal), ("__eq__", np.equal),
             ("__ne__", np.not_equal)]


@pytest.mark.parametrize("dtype", [xp.int32, xp.int64, xp.float32,
                                   xp.float64], ids=str)
@pytest.mark.parametrize("name,function", OPERATORS,
                         ids=[o[0] for o in OPERATORS])
def test_operators_with_scalars(name, function, dtype):
    x = np.abs(sample((2, 3, 4), dtype, seed=4)) + 1
    a = xp.asarray(x)
    for scalar in (2, 3.0):
        if np.dtype(dtype).kind == "i" and isinstance(scalar, float):
            continue  # numpy 1.24 promotes by value; the array API differs
        expected = numpy_result(function, x, np.asarray(scalar, dtype))
        check(getattr(a, name)(scalar), expected)
        # Reflected: scalar on the left.
        reflected = name.replace("__", "__r", 1)
        if hasattr(a, reflected) and name not in (
                "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
            check(getattr(a, reflected)(scalar),
                  numpy_result(function, np.asarray(scalar, dtype), x))


def test_python_scalars_follow_the_array_dtype():
    a = xp.asarray(np.ones(3, np.float32))
    assert (a * 2.5).dtype == xp.float32
    assert (a + 1).dtype == xp.float32
    i = xp.asarray(np.ones(3, np.int16))
    assert (i + 7).dtype == xp.int16
    assert (i * 1.5).dtype == xp.float64
    b = xp.asarray(np.array([True, False]))
    assert (b & True).dtype == xp.bool


@pytest.mark.parametrize("lhs,rhs", [(xp.int8, xp.int64), (xp.uint8, xp.int16),
                                     (xp.float32, xp.float64),
                                     (xp.int32, xp.float32),
                                     (xp.bool, xp.int32),
                                     (xp.uint32, xp.int64)], ids=str)
def test_mixed_dtypes_promote_like_numpy(lhs, rhs):
    x = sample((5,), lhs, seed=5)
    y = sample((5,), rhs, seed=6)
    check(xp.asarray(x) + xp.asarray(y), x + y)
    check(xp.asarray(x) < xp.asarray(y), x < y)


@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((1, 4), (3, 1)),
                                    ((2, 1, 3), (4, 1)), ((), (2, 2)),
                                    ((5,), (1,)), ((0, 3), (1, 3))])
def test_broadcasting(shapes):
    x = sample(shapes[0], np.float64, seed=7)
    y = sample(shapes[1], np.float64, seed=8)
    check(xp.asarray(x) * xp.asarray(y), x * y)
    check(xp.where(xp.asarray(x) > 0, xp.asarray(x), xp.asarray(y)),
          np.where(x > 0, x, y))


def test_inplace_operators():
    x = sample((4, 4), np.float64, seed=9)
    a = xp.asarray(x)
    a += 1.0
    a *= xp.asarray(x)
    a[1:3, 1:3] -= 2.0
    expected = (x + 1.0) * x
    expected[1:3, 1:3] -= 2.0
    check(a, expected)
    i = xp.asarray(np.arange(6, dtype=np.int32))
    i //= 2
    i <<= 1
    check(i, (np.arange(6, dtype=np.int32) // 2) << 1)


def test_augmented_item_assignment_runs_one_kernel():
    # `a[k] op= x` is `t = a[k]; t op= x; a[k] = t` in Python: the in-place
    # operator writes the view, and the final self-assignment must not copy
    # the region again (a second kernel, as slow as the update itself).
    x = sample((6, 5), np.float64, seed=14)
    a, b = xp.asarray(x), xp.asarray(x)
    xp.sync()
    before = xp.stats()["dispatches"]
    a[1:-1, :] += b[1:-1, :]
    xp.sync()
    assert xp.stats()["dispatches"] - before == 1
    a[:, ::2] *= 3.0
    a[...] -= 1.0
    expected = x.copy()
    expected[1:-1, :] += x[1:-1, :]
    expected[:, ::2] *= 3.0
    expected -= 1.0
    check(a, expected)
    # A different region of the same array is still written.
    a[1:3] = a[0:2]
    expected[1:3] = expected[0:2].copy()
    check(a, expected)


def test_inplace_keeps_the_dtype():
    a = xp.asarray(np.arange(4, dtype=np.int32))
    a += xp.asarray(np.ones(4, np.int64))
    assert a.dtype == xp.int32
    check(a, np.arange(4, dtype=np.int32) + 1)


def test_a_chain_fuses_into_one_kernel():
    x = sample((100,), np.float64, seed=10)
    a = xp.asarray(x)
    before = xp.stats()["dispatches"]
    b = xp.sqrt(xp.abs(a)) * 2.0 + xp.sin(a) - a / 3.0
    check(b, np.sqrt(np.abs(x)) * 2.0 + np.sin(x) - x / 3.0)
    assert xp.stats()["dispatches"] == before + 1


@pytest.mark.parametrize("dtype", [xp.float64, xp.int32, xp.bool], ids=str)
def test_real_imag_conj_of_real_arrays(dtype):
    """numpy's identities on real arrays (complex ones: test_complex.py)."""
    x = sample((3, 4), dtype, seed=41)
    a = xp.asarray(x)
    check(xp.real(a), np.real(x), exact=True)
    check(xp.imag(a), np.imag(x), exact=True)
    # (numpy's conj of bool gives int8; the identity keeps bool.)
    check(xp.conj(a), x if dtype == xp.bool else np.conj(x), exact=True)
    r = xp.real(a)
    r[0, 0] = 0  # a new array, not a view of a
    check(a, x, exact=True)
