"""ewbin, ewuny, where and cast_elemtype against numpy, across dtypes,
broadcasting, 0-d and empty arrays, static and dynamic shapes."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(1234)


def values(dtype, shape, low=None, high=None, nonzero=False):
    np_type = NUMPY_OF[dtype]
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("f"):
        data = RNG.uniform(-4 if low is None else low, 4 if high is None else high,
                           size=shape)
        if nonzero:
            data[np.abs(data) < 0.25] = 0.5
        return data.astype(np_type)
    info = np.iinfo(np_type)
    lo = max(info.min, -20 if low is None else low)
    hi = min(info.max, 20 if high is None else high)
    data = RNG.integers(lo, hi + 1, size=shape)
    if nonzero:
        data[data == 0] = 3
    return data.astype(np_type)


def shape_of(shape, dynamic):
    return [None] * len(shape) if dynamic else list(shape)


def run_binary(kind, a, b, adtype, bdtype, rdtype, dynamic):
    p = Program()
    x, xt = p.input(a, adtype, dynamic)
    y, yt = p.input(b, bdtype, dynamic)
    shape = np.broadcast_shapes(a.shape, b.shape)
    rt = array_type(shape_of(shape, dynamic), rdtype)
    r = p.op(f"ndarray.ewbin {kind} {x}, {y} : ({xt}, {yt}) -> {rt}")
    p.output(r, shape_of(shape, dynamic), rdtype)
    return p.run()[0]


NUMPY_BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "divide": np.true_divide, "floor_divide": np.floor_divide,
    "remainder": np.remainder, "pow": np.power, "maximum": np.maximum,
    "minimum": np.minimum, "atan2": np.arctan2, "hypot": np.hypot,
    "copysign": np.copysign, "logaddexp": np.logaddexp,
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor, "bitwise_left_shift": np.left_shift,
    "bitwise_right_shift": np.right_shift,
}
FLOAT_ONLY = {"atan2", "hypot", "copysign", "logaddexp"}
INT_ONLY = {"bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
            "bitwise_right_shift"}
ARITHMETIC = {"add", "subtract", "multiply", "floor_divide", "remainder", "pow"}
DTYPES = ["f64", "f32", "i64", "i32", "i16", "i8", "ui8", "ui32", "i1"]


def binary_cases():
    for kind in NUMPY_BINARY:
        for dtype in DTYPES:
            if kind in FLOAT_ONLY and not dtype.startswith("f"):
                continue
            if kind in INT_ONLY and dtype.startswith("f"):
                continue
            if kind.startswith("bitwise_") and "shift" in kind and dtype == "i1":
                continue
            if kind in ARITHMETIC and dtype == "i1":
                continue
            yield kind, dtype


def operands(kind, dtype, shape_a, shape_b):
    a = values(dtype, shape_a)
    if kind == "pow" and not dtype.startswith("f"):
        b = values(dtype, shape_b, low=0, high=3)
    elif kind == "pow":
        a = np.abs(a) + np.asarray(0.5, a.dtype)
        b = values(dtype, shape_b, low=-2, high=2)
    elif "shift" in kind:
        width = np.dtype(NUMPY_OF[dtype]).itemsize * 8
        b = values(dtype, shape_b, low=0, high=width + 2)
    else:
        b = values(dtype, shape_b)
    return a, b


@pytest.mark.parametrize("kind,dtype", list(binary_cases()))
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_binary(kind, dtype, dynamic):
    a, b = operands(kind, dtype, (3, 5), (3, 5))
    if kind in ("floor_divide", "remainder") and not dtype.startswith("f"):
        b[0, :2] = 0  # numpy gives 0 for integer division by zero
    with np.errstate(all="ignore"):
        expected = NUMPY_BINARY[kind](a, b)
    rdtype = {np.dtype(np.bool_): "i1"}.get(expected.dtype, None)
    if rdtype is None:
        from harness import mlir_dtype
        rdtype = mlir_dtype(expected.dtype)
    if kind == "divide" and not dtype.startswith("f"):
        rdtype = "f64"
        expected = expected.astype(np.float64)
    result = run_binary(kind, a, b, dtype, dtype, rdtype, dynamic)
    assert_matches(result, expected, rdtype)


@pytest.mark.parametrize("shapes", [((3, 1), (4,)), ((), (2, 3)), ((2, 1, 3), (4, 1)),
                                    ((0,), (0,)), ((1,), (0,)), ((5,), ())],
                         ids=str)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_broadcasting(shapes, dynamic):
    a, b = values("f64", shapes[0]), values("f64", shapes[1])
    result = run_binary("subtract", a, b, "f64", "f64", "f64", dynamic)
    assert_matches(result, a - b, "f64")


def test_broadcast_dynamic_unit_at_run_time():
    # Both shapes are fully dynamic; one operand is 1 along dim 0 at run time.
    a, b = values("i32", (1, 4)), values("i32", (3, 4))
    result = run_binary("add", a, b, "i32", "i32", "i32", dynamic=True)
    assert_matches(result, a + b, "i32")


@pytest.mark.parametrize("pair", [("i32", "f32", "f64"), ("i8", "ui8", "i16"),
                                  ("i1", "f32", "f32"), ("ui32", "i64", "i64"),
                                  ("i16", "f32", "f32"), ("ui64", "i64", "f64")],
                         ids=str)
def test_promotion(pair):
    adtype, bdtype, rdtype = pair
    a, b = values(adtype, (6,)), values(bdtype, (6,))
    expected = np.add(a.astype(NUMPY_OF[rdtype]), b.astype(NUMPY_OF[rdtype]))
    result = run_binary("add", a, b, adtype, bdtype, rdtype, dynamic=False)
    assert_matches(result, expected, rdtype)


def test_integer_division_corner_cases():
    a = np.array([7, -7, 7, -7, -128, 5, 0], dtype=np.int8)
    b = np.array([2, 2, -2, -2, -1, 0, 0], dtype=np.int8)
    with np.errstate(all="ignore"):
        for kind, fn in (("floor_divide", np.floor_divide),
                         ("remainder", np.remainder)):
            result = run_binary(kind, a, b, "i8", "i8", "i8", dynamic=False)
            assert_matches(result, fn(a, b), "i8")


def test_float_division_corner_cases():
    a = np.array([7.5, -7.5, 1.0, -1.0, 0.0, np.inf, 1.0, -0.0])
    b = np.array([2.0, 2.0, 0.0, 0.0, -3.0, 2.0, -np.inf, 5.0])
    def floor_divide(x, y):
        # numpy's, but for infinite operands the array API's x / y
        # (inf // 2 is inf, 1 // -inf is -0; numpy 1 gives nan and -1).
        return np.where(np.isinf(x) | np.isinf(y), x / y,
                        np.floor_divide(x, y))

    with np.errstate(all="ignore"):
        for kind, fn in (("floor_divide", floor_divide),
                         ("remainder", np.remainder)):
            result = run_binary(kind, a, b, "f64", "f64", "f64", dynamic=False)
            assert_matches(result, fn(a, b), "f64")
            # Signed zeros match (the sign of a NaN carries no meaning).
            finite = ~np.isnan(result)
            assert np.array_equal(np.signbit(result[finite]),
                                  np.signbit(fn(a, b)[finite]))


def test_shared_intermediates_fuse():
    """A DAG whose intermediates feed several outputs (imex-fuse-elementwise
    makes it one loop): every output against numpy."""
    r, f = values("f64", (33,), 0.1, 1.0), values("f64", (33,), -3, 3)
    p = Program()
    x, t = p.input(r, "f64")
    y, _ = p.input(f, "f64")
    q = p.op(f"ndarray.ewuny log {x} : {t} -> {t}")
    qs = p.op(f"ndarray.ewbin multiply {q}, {x} : ({t}, {t}) -> {t}")
    c = p.op(f"ndarray.ewuny cos {y} : {t} -> {t}")
    s = p.op(f"ndarray.ewuny sin {y} : {t} -> {t}")
    outputs = [p.op(f"ndarray.ewbin multiply {qs}, {c} : ({t}, {t}) -> {t}"),
               p.op(f"ndarray.ewbin multiply {qs}, {s} : ({t}, {t}) -> {t}"),
               p.op(f"ndarray.ewbin multiply {q}, {q} : ({t}, {t}) -> {t}")]
    for o in outputs:
        p.output(o, [33], "f64")
    qn = np.log(r)
    for result, expected in zip(p.run(), [qn * r * np.cos(f),
                                          qn * r * np.sin(f), qn * qn]):
        assert_matches(result, expected, "f64")


def test_nan_propagation():
    a = np.array([np.nan, 1.0, np.nan, -np.inf])
    b = np.array([1.0, np.nan, np.nan, 2.0])
    for kind, fn in (("maximum", np.maximum), ("minimum", np.minimum),
                     ("not_equal", np.not_equal), ("equal", np.equal),
                     ("less", np.less)):
        expected = fn(a, b)
        rdtype = "i1" if expected.dtype == np.bool_ else "f64"
        result = run_binary(kind, a, b, "f64", "f64", rdtype, dynamic=False)
        assert_matches(result, expected, rdtype)


NUMPY_UNARY = {
    "abs": np.abs, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh,
    "bitwise_invert": np.invert, "ceil": np.ceil, "cos": np.cos,
    "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1, "floor": np.floor,
    "isfinite": np.isfinite, "isinf": np.isinf, "isnan": np.isnan,
    "log": np.log, "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
    "logical_not": np.logical_not, "negative": np.negative,
    "positive": np.positive, "round": np.round, "sign": np.sign,
    "signbit": np.signbit, "sin": np.sin, "sinh": np.sinh, "sqrt": np.sqrt,
    "square": np.square, "tan": np.tan, "tanh": np.tanh, "trunc": np.trunc,
}
TRANSCENDENTAL = {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos",
                  "cosh", "exp", "expm1", "log", "log1p", "log2", "log10",
                  "sin", "sinh", "sqrt", "tan", "tanh"}
DOMAIN = {"acos": (-1, 1), "asin": (-1, 1), "atanh": (-0.99, 0.99),
          "acosh": (1, 6), "log": (0.01, 8), "log2": (0.01, 8),
          "log10": (0.01, 8), "sqrt": (0, 9), "log1p": (-0.9, 6)}


def unary_cases():
    for kind in NUMPY_UNARY:
        for dtype in ["f64", "f32", "i64", "i32", "i8", "ui16", "i1"]:
            numeric = kind in ("abs", "negative", "positive", "sign",
                               "square", "ceil", "floor", "round", "trunc")
            if dtype == "i1" and (numeric or kind in TRANSCENDENTAL):
                continue
            if kind == "bitwise_invert" and dtype.startswith("f"):
                continue
            if kind in TRANSCENDENTAL and dtype not in ("f64", "f32", "i32"):
                continue
            if kind == "negative" and dtype.startswith("ui"):
                continue
            yield kind, dtype


@pytest.mark.parametrize("kind,dtype", list(unary_cases()))
def test_unary(kind, dtype):
    low, high = DOMAIN.get(kind, (None, None))
    if dtype.startswith("f"):
        a = values(dtype, (4, 3), low, high)
    else:
        a = values(dtype, (4, 3), None if low is None else int(np.ceil(low)),
                   None if high is None else int(high))
    if kind in ("isnan", "isinf", "isfinite", "signbit") and dtype.startswith("f"):
        a.flat[:4] = [np.nan, np.inf, -np.inf, -0.0]
    with np.errstate(all="ignore"):
        expected = NUMPY_UNARY[kind](a)
    if kind in ("ceil", "floor", "round", "trunc") and not dtype.startswith("f"):
        expected = a  # the array API keeps integers (numpy 2 does too)
    if kind in TRANSCENDENTAL and dtype == "i32":
        expected = expected.astype(np.float64)
    from harness import mlir_dtype
    rdtype = "i1" if expected.dtype == np.bool_ else mlir_dtype(expected.dtype)
    if rdtype != "i1" and dtype.startswith("ui") and rdtype.startswith("ui"):
        rdtype = dtype
    p = Program()
    x, xt = p.input(a, dtype)
    r = p.op(f"ndarray.ewuny {kind} {x} : {xt} -> "
             f"{array_type(list(a.shape), rdtype)}")
    p.output(r, list(a.shape), rdtype)
    assert_matches(p.run()[0], expected, rdtype)


def test_where_broadcasts_and_promotes():
    c = values("i1", (3, 1))
    x, y = values("i32", (4,)), values("f32", ())
    expected = np.where(c, x, y)  # f64
    p = Program()
    cv, ct = p.input(c, "i1")
    xv, xt = p.input(x, "i32")
    yv, yt = p.input(y, "f32")
    r = p.op(f"ndarray.where {cv}, {xv}, {yv} : ({ct}, {xt}, {yt}) -> "
             f"{array_type([3, 4], 'f64')}")
    p.output(r, [3, 4], "f64")
    assert_matches(p.run()[0], expected, "f64")


@pytest.mark.parametrize("pair", [("f64", "i32"), ("f32", "i64"), ("i64", "f32"),
                                  ("i32", "i8"), ("i8", "i64"), ("ui8", "i32"),
                                  ("f64", "i1"), ("i1", "f64"), ("i32", "ui16"),
                                  ("f64", "f32"), ("f32", "f64"), ("ui32", "f64"),
                                  ("i16", "i1")], ids=str)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_cast_elemtype(pair, dynamic):
    src, dst = pair
    a = values(src, (2, 3), low=-100 if not src.startswith("ui") else 0, high=100)
    if src.startswith("f") and dst.startswith("ui"):
        a = np.abs(a)
    expected = a.astype(NUMPY_OF[dst])
    shape = shape_of(a.shape, dynamic)
    p = Program()
    x, xt = p.input(a, src, dynamic)
    r = p.op(f"ndarray.cast_elemtype {x} : {xt} to {array_type(shape, dst)}")
    p.output(r, shape, dst)
    assert_matches(p.run()[0], expected, dst)
