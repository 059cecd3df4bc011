"""numpy oracles for the frontend tests."""

import numpy as np

import imex as xp

DTYPES = [xp.bool, xp.int8, xp.int16, xp.int32, xp.int64, xp.uint8,
          xp.uint16, xp.uint32, xp.uint64, xp.float32, xp.float64]
FLOATS = [xp.float32, xp.float64]
INTS = [xp.int8, xp.int16, xp.int32, xp.int64, xp.uint8, xp.uint16,
        xp.uint32, xp.uint64]


def sample(shape, dtype, seed=0, low=-5, high=5):
    """Deterministic data of `dtype` (non-negative for unsigned types)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.kind == "u":
        return rng.integers(0, high, shape).astype(dtype)
    if dtype.kind == "i":
        return rng.integers(low, high, shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.uniform(low, high, shape) +
                1j * rng.uniform(low, high, shape)).astype(dtype)
    return rng.uniform(low, high, shape).astype(dtype)


def check(actual, expected, exact=False, rtol=None):
    """`actual` (an imex array) equals numpy's `expected` in shape, dtype
    and values (floats to a few ulps unless `exact`)."""
    expected = np.asarray(expected)
    got = actual.to_numpy() if isinstance(actual, xp.ndarray) else actual
    assert got.shape == expected.shape, (got.shape, expected.shape)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    if got.dtype.kind in "fc" and not exact:
        component = got.dtype.itemsize // (2 if got.dtype.kind == "c" else 1)
        tol = rtol or {2: 2e-3, 4: 1e-5, 8: 1e-12}[component]
        np.testing.assert_allclose(got, expected, rtol=tol, atol=tol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)
