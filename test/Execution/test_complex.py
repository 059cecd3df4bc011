"""complex<f32> and complex<f64> arrays (numpy complex64/complex128) against
numpy: elementwise functions, mixed real/complex promotion, reductions,
matmul, conversions and data movement. Each test is one program with many
outputs (one compile per dtype)."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(4321)
COMPLEX = ["complex<f64>", "complex<f32>"]
COMPONENT = {"complex<f64>": "f64", "complex<f32>": "f32"}


def complex_values(dtype, shape, scale=2.0):
    data = (RNG.uniform(-scale, scale, size=shape) +
            1j * RNG.uniform(-scale, scale, size=shape))
    return data.astype(NUMPY_OF[dtype])


def check(result, expected, dtype, rtol=None):
    if rtol is None:
        assert_matches(result, expected, dtype)
    else:
        np.testing.assert_allclose(result.astype(np.complex128),
                                   np.asarray(expected).astype(np.complex128),
                                   rtol=rtol, atol=rtol)


UNARY = {
    "negative": np.negative, "positive": np.positive, "square": np.square,
    "sqrt": np.sqrt, "exp": np.exp, "expm1": np.expm1, "log": np.log,
    "log1p": np.log1p, "log2": np.log2, "log10": np.log10, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh,
    "tanh": np.tanh, "conj": np.conj,
    # numpy 2's sign of complex numbers: z / |z|.
    "sign": lambda z: np.where(z == 0, 0, z / np.where(z == 0, 1, np.abs(z))),
}
TO_REAL = {"abs": np.abs, "real": np.real, "imag": np.imag}
TO_BOOL = {"isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
           "logical_not": np.logical_not}


@pytest.mark.parametrize("dtype", COMPLEX)
def test_unary(dtype):
    a = complex_values(dtype, (3, 5))
    a[0, 0] = 0  # sign(0), logical_not(0)
    p = Program()
    x, xt = p.input(a, dtype)
    expected = []
    for table, rdtype in ((UNARY, dtype), (TO_REAL, COMPONENT[dtype]),
                          (TO_BOOL, "i1")):
        for kind, f in table.items():
            if kind in ("log", "log2", "log10"):
                continue  # log(0): below, on non-zero inputs
            r = p.op(f"ndarray.ewuny {kind} {x} : {xt} -> "
                     f"{array_type([3, 5], rdtype)}")
            p.output(r, [3, 5], rdtype)
            expected.append((kind, f(a), rdtype))
    nz = a.copy()
    nz[0, 0] = 1 + 1j
    y, yt = p.input(nz, dtype)
    for kind in ("log", "log2", "log10"):
        r = p.op(f"ndarray.ewuny {kind} {y} : {yt} -> {yt}")
        p.output(r, [3, 5], dtype)
        expected.append((kind, UNARY[kind](nz), dtype))
    results = p.run()
    for result, (kind, want, rdtype) in zip(results, expected):
        # Transcendental functions: a few ulps of the component type (the
        # complex dialect's formulas are not numpy's).
        rtol = {"complex<f64>": 1e-12, "complex<f32>": 1e-5}[dtype] \
            if kind in UNARY and kind not in ("negative", "positive", "conj") \
            else None
        if rdtype == "i1":
            np.testing.assert_array_equal(result, want, err_msg=kind)
        else:
            check(result, want, rdtype, rtol)


def test_nan_and_inf_tests():
    z = np.array([complex(r, m) for r, m in (
        (np.nan, 0.0), (1.0, np.nan), (np.inf, 1.0), (2.0, -np.inf),
        (-np.inf, 3.0), (1.0, -2.0))])
    p = Program()
    x, xt = p.input(z)
    for kind in TO_BOOL:
        p.output(p.op(f"ndarray.ewuny {kind} {x} : {xt} -> "
                      f"{array_type([6], 'i1')}"), [6], "i1")
    # Printed back exactly (NaN and infinite components included).
    p.output(x, [6], "complex<f64>")
    results = p.run()
    for result, (kind, f) in zip(results, TO_BOOL.items()):
        np.testing.assert_array_equal(result, f(z), err_msg=kind)
    np.testing.assert_array_equal(results[-1], z)


BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply,
          "divide": np.true_divide, "equal": np.equal,
          "not_equal": np.not_equal}


@pytest.mark.parametrize("dtype", COMPLEX)
def test_binary_and_promotion(dtype):
    a = complex_values(dtype, (4, 3))
    b = complex_values(dtype, (3,))
    b[1] = a[2, 1]  # an equal pair
    real_dtype = COMPONENT[dtype]
    r = RNG.uniform(-3, 3, size=(4, 1)).astype(NUMPY_OF[real_dtype])
    i = RNG.integers(-5, 6, size=(3,)).astype(np.int32)
    ulps = {"complex<f64>": 1e-12, "complex<f32>": 1e-5}[dtype]
    p = Program()
    x, xt = p.input(a, dtype)
    y, yt = p.input(b, dtype)
    rr, rt = p.input(r, real_dtype)
    ii, it = p.input(i, "i32")
    expected = []  # (numpy result, dtype, rtol or None for exact)

    def out(kind, lhs, rhs, want, rdtype, rtol=None):
        value = p.op(f"ndarray.ewbin {kind} {lhs[0]}, {rhs[0]} : ({lhs[1]}, "
                     f"{rhs[1]}) -> {array_type([4, 3], rdtype)}")
        p.output(value, [4, 3], rdtype)
        expected.append((want, rdtype, rtol))

    for kind, f in BINARY.items():
        out(kind, (x, xt), (y, yt), f(a, b),
            "i1" if "equal" in kind else dtype,
            ulps if kind == "divide" else None)
    # Mixed kinds: with its component type a complex type keeps its width;
    # with i32 numpy gives complex128.
    out("multiply", (rr, rt), (x, xt), r * a, dtype)
    out("subtract", (x, xt), (ii, it), a - i, "complex<f64>")
    # pow is exp(y log x) in the complex dialect (numpy multiplies for
    # small integer exponents): a few ulps.
    out("pow", (x, xt), (y, yt), np.power(a, b), dtype, ulps)
    results = p.run()
    assert results[-2].dtype == np.complex128
    for result, (want, rdtype, rtol) in zip(results, expected):
        if rdtype == "i1":
            np.testing.assert_array_equal(result, want)
        else:
            check(result, want, rdtype, rtol)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_reductions(dtype):
    a = complex_values(dtype, (4, 3, 2), scale=1.0)
    p = Program()
    x, xt = p.input(a, dtype)
    expected = []
    for kind, f in (("sum", np.sum), ("prod", np.prod), ("mean", np.mean)):
        for axes in (None, (0,), (1, 2)):
            attr = "" if axes is None else \
                f" axes [{', '.join(map(str, axes))}]"
            want = f(a, axis=axes)
            shape = list(np.shape(want))
            out = p.op(f"ndarray.reduction {kind} {x}{attr} : {xt} -> "
                       f"{array_type(shape, dtype)}")
            p.output(out, shape, dtype)
            expected.append((want, dtype))
    for kind, f in (("any", np.any), ("all", np.all)):
        z = a.copy()
        z[1] = 0
        y, yt = p.input(z, dtype)
        want = f(z, axis=0)
        out = p.op(f"ndarray.reduction {kind} {y} axes [0] : "
                   f"{yt} -> {array_type([3, 2], 'i1')}")
        p.output(out, [3, 2], "i1")
        expected.append((want, "i1"))
    results = p.run()
    rtol = {"complex<f64>": 1e-12, "complex<f32>": 1e-5}[dtype]
    for result, (want, rdtype) in zip(results, expected):
        if rdtype == "i1":
            np.testing.assert_array_equal(result, want)
        else:
            check(result, want, rdtype, rtol)


@pytest.mark.parametrize("dtype", COMPLEX)
def test_matmul_where_and_movement(dtype):
    a = complex_values(dtype, (2, 3, 4))
    b = complex_values(dtype, (4, 5))
    v = complex_values(dtype, (4,))
    cond = RNG.integers(0, 2, size=(3, 4)).astype(np.bool_)
    idx = np.array([2, 0, -1, 1], dtype=np.int64)
    p = Program()
    x, xt = p.input(a, dtype)
    y, yt = p.input(b, dtype)
    w, wt = p.input(v, dtype)
    c, ct = p.input(cond)
    k, kt = p.input(idx)
    expected = []

    def out(text, want, rdtype=dtype):
        shape = list(np.shape(want))
        value = p.op(text.replace("@RT", array_type(shape, rdtype)))
        p.output(value, shape, rdtype)
        expected.append((want, rdtype))

    out(f"ndarray.matmul {x}, {y} : ({xt}, {yt}) -> @RT", a @ b)
    out(f"ndarray.matmul {x}, {w} : ({xt}, {wt}) -> @RT", a @ v)
    out(f"ndarray.where {c}, {x}, {w} : ({ct}, {xt}, {wt}) -> @RT",
        np.where(cond, a, v))
    out(f"ndarray.take {x}[{k}] axis 1 : ({xt}, {kt}) -> @RT",
        np.take(a, idx, axis=1))
    out(f"ndarray.flip {x} [0, 2] : {xt} -> @RT",
        np.flip(a, axis=(0, 2)))
    out(f"ndarray.permute_dims {x} [2, 0, 1] : {xt} -> @RT",
        np.transpose(a, (2, 0, 1)))
    out(f"ndarray.concat {x}, {x} axis 2 : ({xt}, {xt}) -> @RT",
        np.concatenate([a, a], axis=2))
    # Conversions: to complex of the other width, to the real part, to bool;
    # from real and integer arrays.
    other = "complex<f32>" if dtype == "complex<f64>" else "complex<f64>"
    out(f"ndarray.cast_elemtype {x} : {xt} to @RT",
        a.astype(NUMPY_OF[other]), other)
    out(f"ndarray.cast_elemtype {x} : {xt} to @RT", a.real, "f64")
    out(f"ndarray.cast_elemtype {x} : {xt} to @RT", a.real.astype(np.int32),
        "i32")
    out(f"ndarray.cast_elemtype {k} : {kt} to @RT", idx.astype(complex))
    # Scans, boolean indexing, put (the last of repeated indices wins).
    out(f"ndarray.cumulative sum {x} axis 1 : {xt} -> @RT",
        np.cumsum(a, axis=1))
    out(f"ndarray.cumulative prod {x} axis 2 include_initial : {xt} -> @RT",
        np.concatenate([np.ones((2, 3, 1), a.dtype), np.cumprod(a, axis=2)],
                       axis=2))
    lead = RNG.integers(0, 2, size=(2, 3)).astype(np.bool_)
    lm, lt = p.input(lead)
    out(f"ndarray.masked_select {x}[{lm}] : {xt}, {lt} -> @RT", a[lead])
    vals = complex_values(dtype, (2, 4, 4))
    q, qt = p.input(vals, dtype)
    want = a.copy()
    for j, i in enumerate(idx):
        want[:, i] = vals[:, j]
    out(f"ndarray.put {q} into {x}[{k}] axis 1 : ({qt}, {xt}, {kt}) -> @RT",
        want)
    results = p.run()
    rtol = {"complex<f64>": 1e-12, "complex<f32>": 1e-5}[dtype]
    for result, (want, rdtype) in zip(results, expected):
        if rdtype.startswith("complex"):
            check(result, want, rdtype, rtol)
        else:
            assert_matches(result, want, rdtype)


def test_fill_and_load():
    p = Program()
    c = p.fresh("c")
    p.line(f"{c} = complex.constant [1.5 : f32, -2.0 : f32] : complex<f32>")
    t = array_type([2, 3], "complex<f32>")
    full = p.op(f"ndarray.create value {c} : {t}")
    p.output(full, [2, 3], "complex<f32>")
    i0 = p.constant(1, "index")
    e = p.op(f"ndarray.load {full}[{i0}, {i0}] : {t}")
    again = p.op(f"ndarray.create value {e} : {array_type([1], 'complex<f32>')}")
    p.output(again, [1], "complex<f32>")
    results = p.run()
    np.testing.assert_array_equal(results[0], np.full((2, 3), 1.5 - 2j))
    np.testing.assert_array_equal(results[1], [1.5 - 2j])
