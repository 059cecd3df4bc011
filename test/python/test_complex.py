"""complex64 and complex128 arrays in the frontend against numpy: creation,
operators with Python complex scalars, promotion with real arrays, the
elementwise functions defined on complex numbers, reductions, matmul,
indexing, conversions, and clear errors for what needs an order."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

COMPLEX = [xp.complex64, xp.complex128]


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_creation_and_round_trip(dtype):
    x = sample((3, 4), dtype, seed=1)
    a = xp.asarray(x)
    assert a.dtype == dtype
    check(a, x, exact=True)
    check(xp.zeros((2, 3), dtype=dtype), np.zeros((2, 3), dtype))
    check(xp.ones(4, dtype=dtype), np.ones(4, dtype))
    check(xp.full((2, 2), 1.5 - 2j, dtype=dtype), np.full((2, 2), 1.5 - 2j,
                                                           dtype))
    check(xp.zeros_like(a), np.zeros_like(x))
    assert complex(a[1, 2]) == complex(x[1, 2])
    assert xp.isdtype(dtype, "complex floating")
    assert not xp.isdtype(dtype, "real floating")


def test_default_dtypes():
    check(xp.full(3, 2j), np.full(3, 2j))  # complex128
    check(xp.asarray(np.array([1 + 1j], np.clongdouble)),
          np.array([1 + 1j], np.complex128))
    assert "complex128" in repr(xp.asarray(np.array([1 + 2j])))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_operators_and_scalars(dtype):
    x, y = sample((3, 4), dtype, seed=2), sample((4,), dtype, seed=3)
    a, b = xp.asarray(x), xp.asarray(y)
    check(a + b, x + y)
    check(a - b, x - y)
    check(a * b, x * y)
    check(a / b, x / y)
    check(a ** 2, x ** 2, rtol=1e-4 if dtype == xp.complex64 else 1e-11)
    check(-a, -x)
    check(a * 1j, x * 1j)
    check(2 - a, 2 - x)
    check(a / 2.5, x / 2.5)
    check(a == a, x == x)
    check(a != b, x != y)
    c = xp.asarray(x)
    c += 1j
    check(c, x + 1j)


@pytest.mark.parametrize("real", [xp.float32, xp.float64, xp.int32,
                                  xp.int64, xp.bool], ids=str)
@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_promotion_with_real_arrays(dtype, real):
    x, r = sample((5,), dtype, seed=4), sample((5,), real, seed=5)
    a, q = xp.asarray(x), xp.asarray(r)
    check(a + q, x + r)
    check(q * a, r * x)
    # A float32 array with a Python complex scalar stays single precision.
    if real == xp.float32:
        check(q * 1j, r * np.complex64(1j))


UNARY = {"abs": np.abs, "real": np.real, "imag": np.imag, "conj": np.conj,
         "sqrt": np.sqrt, "exp": np.exp, "expm1": np.expm1, "log": np.log,
         "log1p": np.log1p, "log2": np.log2, "log10": np.log10,
         "sin": np.sin, "cos": np.cos, "tan": np.tan, "sinh": np.sinh,
         "cosh": np.cosh, "tanh": np.tanh, "square": np.square,
         "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
         "acos": np.arccos, "asin": np.arcsin, "atan": np.arctan,
         "acosh": np.arccosh, "asinh": np.arcsinh, "atanh": np.arctanh,
         "round": np.round}


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_unary_functions(dtype):
    x = sample((4, 3), dtype, seed=6, low=-2, high=2)
    a = xp.asarray(x)
    for name, f in UNARY.items():
        check(getattr(xp, name)(a), f(x),
              rtol=1e-4 if dtype == xp.complex64 else 1e-11)
    check(xp.sign(a), x / np.abs(x))
    check(abs(a), np.abs(x))


INF, NAN = np.inf, np.nan
# C99 Annex G, which the array API adopts (numpy gives NaNs for some).
SPECIAL_CASES = [
    ("exp", complex(-INF, INF), 0j),
    ("exp", complex(INF, NAN), complex(INF, NAN)),
    ("expm1", complex(-INF, INF), complex(-1, 0)),
    ("log", complex(NAN, INF), complex(INF, NAN)),
    ("log1p", complex(-1, 0), complex(-INF, 0)),
    ("sinh", complex(INF, 0), complex(INF, 0)),
    ("cosh", complex(0, NAN), complex(NAN, 0)),
    ("tanh", complex(0, INF), complex(0, NAN)),
    ("tanh", complex(INF, 2.0), complex(1, 0.0)),  # (C99: 1 - 0j)
    ("acos", complex(-INF, 1), complex(np.pi, -INF)),
    ("asinh", complex(INF, INF), complex(INF, np.pi / 4)),
    ("atanh", complex(1, 0), complex(INF, 0)),
    ("sign", complex(-0.0, 0.0), 0j),
]


def _same(got, want, rtol):
    return all(np.isnan(g) and np.isnan(w) or g == w or
               np.isclose(g, w, rtol=rtol, atol=0)
               for g, w in ((got.real, want.real), (got.imag, want.imag)))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
@pytest.mark.parametrize("name, z, want", SPECIAL_CASES,
                         ids=[f"{c[0]}({c[1]})" for c in SPECIAL_CASES])
def test_special_cases_of_the_array_api(dtype, name, z, want):
    got = getattr(xp, name)(xp.asarray(np.array([z], dtype)))
    got = complex(got.to_numpy()[0])
    assert _same(got, want, 1e-6 if dtype == xp.complex64 else 1e-15), (
        name, z, got, want)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_unique_sorts_by_real_then_imaginary_part(dtype):
    z = np.array([1 + 2j, 1 + 1j, 0j, 1 + 2j, 3 - 1j, 1 + 1j], dtype)
    got = xp.unique_all(xp.asarray(z))
    values, index, inverse, counts = np.unique(
        z, return_index=True, return_inverse=True, return_counts=True)
    check(got.values, values)
    check(got.indices, index.astype(np.int64))
    check(got.inverse_indices, inverse.reshape(z.shape).astype(np.int64))
    check(got.counts, counts.astype(np.int64))


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_reductions_and_linear_algebra(dtype):
    x = sample((4, 5), dtype, seed=7, low=-1, high=1)
    v = sample((5,), dtype, seed=8)
    a, w = xp.asarray(x), xp.asarray(v)
    tol = 1e-4 if dtype == xp.complex64 else 1e-11
    check(xp.sum(a), np.sum(x), rtol=tol)
    check(xp.sum(a, axis=0), np.sum(x, axis=0), rtol=tol)
    check(xp.prod(a, axis=1), np.prod(x, axis=1), rtol=tol)
    check(xp.mean(a, axis=1), np.mean(x, axis=1), rtol=tol)
    check(xp.any(a), np.any(x))
    check(xp.all(a), np.all(x))
    check(a @ w, x @ v, rtol=tol)
    check(xp.matmul(a.mT, a), x.T @ x, rtol=tol)
    # vecdot conjugates its first operand.
    check(xp.vecdot(a, w), np.sum(np.conj(x) * v, axis=-1), rtol=tol)
    check(xp.cumulative_sum(a, axis=1), np.cumsum(x, axis=1), rtol=tol)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_indexing_and_manipulation(dtype):
    x = sample((6, 4), dtype, seed=9)
    a = xp.asarray(x)
    check(a[1:5:2, ::-1], x[1:5:2, ::-1])
    idx = np.array([3, 0, 5])
    check(a[xp.asarray(idx)], x[idx])
    mask = np.abs(x) > 4
    check(a[xp.asarray(mask)], x[mask])
    check(xp.where(xp.asarray(mask), a, 0), np.where(mask, x, 0))
    check(xp.concat([a, a], axis=1), np.concatenate([x, x], axis=1))
    check(xp.flip(a, axis=0), np.flip(x, axis=0))
    check(xp.roll(a, 2, axis=0), np.roll(x, 2, axis=0))
    check(xp.reshape(a, (4, 6)), x.reshape(4, 6))
    b = xp.asarray(x)
    b[2, 1] = 3 - 4j
    y = x.copy()
    y[2, 1] = 3 - 4j
    check(b, y)


def test_conversions():
    x = sample((5,), xp.complex128, seed=10)
    a = xp.asarray(x)
    check(xp.astype(a, xp.complex64), x.astype(np.complex64))
    check(xp.astype(xp.asarray(x.real), xp.complex128),
          x.real.astype(np.complex128))
    check(xp.astype(xp.arange(4), xp.complex64),
          np.arange(4).astype(np.complex64))
    check(xp.astype(a, xp.bool), x.astype(np.bool_))


def test_operations_needing_an_order_are_errors():
    a = xp.asarray(np.array([1 + 2j, 3 - 1j]))
    for bad in (lambda: xp.max(a), lambda: xp.sort(a), lambda: a < a,
                lambda: xp.argmax(a), lambda: xp.floor(a),
                lambda: xp.var(a), lambda: xp.maximum(a, a),
                lambda: xp.searchsorted(a, a),
                lambda: xp.argsort(a)):
        with pytest.raises(TypeError, match="real|order"):
            bad()
