"""Matrix products through BLAS (imex-linalg-to-blas) against numpy, on
generated operands: every BLAS dtype and integers (loops), matrices,
vectors and stacks, views in every layout the wrapper distinguishes
(contiguous, transposed, strided without a unit stride, reversed,
broadcast), sizes 0 and 1, and results written into views."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

BLAS_DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
RTOL = {np.float32: 1e-4, np.float64: 1e-12, np.complex64: 1e-4,
        np.complex128: 1e-12, np.int64: None}


def layouts(rng, x):
    """(imex view, numpy view) pairs of `x` (2-d) in a random layout with
    the same shape as `x`."""
    kind = rng.integers(5)
    if kind == 0:                       # contiguous
        return xp.asarray(x), x
    if kind == 1:                       # transposed (columns contiguous)
        t = np.ascontiguousarray(x.T)
        return xp.asarray(t).mT, t.T
    if kind == 2:                       # every other row and column
        big = np.zeros((2 * x.shape[0] + 1, 2 * x.shape[1] + 1), x.dtype)
        big[1::2, 1::2] = x
        return xp.asarray(big)[1::2, 1::2], big[1::2, 1::2]
    if kind == 3:                       # reversed rows
        r = x[::-1].copy()
        return xp.asarray(r)[::-1], r[::-1]
    # a row broadcast (stride 0) where x has one row
    if x.shape[0] == 1:
        return (xp.broadcast_to(xp.asarray(x[0]), x.shape),
                np.broadcast_to(x[0], x.shape))
    return xp.asarray(x), x


@pytest.mark.parametrize("dtype", BLAS_DTYPES + [np.int64], ids=str)
@pytest.mark.parametrize("seed", range(12))
def test_generated_matrix_products(dtype, seed):
    rng = np.random.default_rng(seed)
    m, k, n = (int(rng.choice([0, 1, 2, 3, 7])) for _ in range(3))
    a = sample((m, k), dtype, seed=seed)
    b = sample((k, n), dtype, seed=seed + 100)
    xa, na = layouts(rng, a)
    xb, nb = layouts(rng, b)
    check(xa @ xb, na @ nb, rtol=RTOL[dtype])
    # Matrix-vector, vector-matrix, and the product into a view.
    v = sample((k,), dtype, seed=seed + 200)
    check(xa @ xp.asarray(v), na @ v, rtol=RTOL[dtype])
    check(xp.asarray(v) @ xb, v @ nb, rtol=RTOL[dtype])
    out, want = xp.zeros((m + 2, n + 1), dtype=dtype), np.zeros(
        (m + 2, n + 1), dtype)
    out[1:m + 1, 1:] = xa @ xb
    want[1:m + 1, 1:] = na @ nb
    check(out, want, rtol=RTOL[dtype])


@pytest.mark.parametrize("dtype", BLAS_DTYPES, ids=str)
@pytest.mark.parametrize("shapes", [((2, 3, 4), (4, 5)), ((2, 3, 4),
                                                          (2, 4, 5)),
                                    ((2, 1, 3, 4), (5, 4, 2)),
                                    ((3, 4), (2, 4, 1)), ((0, 3, 4), (4, 2)),
                                    ((2, 3, 4), (4,))], ids=str)
def test_stacks(dtype, shapes):
    x = sample(shapes[0], dtype, seed=1)
    y = sample(shapes[1], dtype, seed=2)
    check(xp.asarray(x) @ xp.asarray(y), x @ y, rtol=RTOL[dtype])
    # A transposed stack (the batch axis not outermost in memory).
    if len(shapes[0]) == 3:
        t = np.ascontiguousarray(np.moveaxis(x, 0, 2))
        check(xp.permute_dims(xp.asarray(t), (2, 0, 1)) @ xp.asarray(y),
              np.moveaxis(t, 2, 0) @ y, rtol=RTOL[dtype])


def test_product_of_an_array_with_itself_in_place():
    # C overlaps an input: the wrapper packs the input first.
    x = sample((4, 4), np.float64, seed=3)
    a, e = xp.asarray(x), x.copy()
    a[...] = a @ a
    e[...] = e @ e
    check(a, e)


def test_special_values_propagate():
    x = np.array([[np.inf, 1.0], [np.nan, 0.0]])
    y = np.array([[0.0, 1.0], [2.0, 3.0]])
    with np.errstate(invalid="ignore"):
        check(xp.asarray(x) @ xp.asarray(y), x @ y)
