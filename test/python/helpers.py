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


def pairwise_reduce(x, axes, kind="sum"):
    """The documented order of floating point sums and products (docs/
    python.md, Reductions): each reduced axis, innermost first, by the
    pairwise tree of its indices (elements 2i and 2i+1 combined, then those
    results pairwise, an odd last one passed up), level by level; then the
    identity combined with the result (numpy's +0.0 for sums of -0.0)."""
    op = np.multiply if kind == "prod" else np.add
    x = np.asarray(x)
    for axis in sorted(axes, reverse=True):
        x = np.moveaxis(x, axis, 0)
        while x.shape[0] > 1:
            half = x.shape[0] // 2
            pairs = op(x[0:2 * half:2], x[1:2 * half:2])
            x = np.concatenate([pairs, x[2 * half:]], axis=0)
        identity = np.ones if kind == "prod" else np.zeros
        result = identity(x.shape[1:], dtype=x.dtype)
        x = op(result, x[0]) if x.shape[0] == 1 else result
    return x
