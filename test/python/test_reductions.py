"""Reductions with axis and keepdims against numpy."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

KINDS = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max,
         "mean": np.mean, "var": np.var, "std": np.std, "any": np.any,
         "all": np.all}
NUMERIC = [xp.int8, xp.int32, xp.int64, xp.uint8, xp.uint32, xp.float32,
           xp.float64]


@pytest.mark.parametrize("dtype", NUMERIC + [xp.bool], ids=str)
@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reduction(kind, dtype, axis, keepdims):
    x = sample((3, 4, 2), dtype, seed=11, low=-2, high=3)
    if np.dtype(dtype) == np.bool_ and kind not in ("any", "all", "min",
                                                     "max"):
        pytest.skip("sums of bools: covered by the numeric dtypes")
    expected = KINDS[kind](x, axis=axis, keepdims=keepdims)
    got = getattr(xp, kind)(xp.asarray(x), axis=axis, keepdims=keepdims)
    check(got, np.asarray(expected), rtol=1e-4 if np.dtype(dtype) ==
          np.float32 else None)


@pytest.mark.parametrize("correction", [0.0, 1.0])
def test_var_std_correction(correction):
    x = sample((5, 3), np.float64, seed=12)
    check(xp.var(xp.asarray(x), axis=0, correction=correction),
          np.var(x, axis=0, ddof=correction))
    check(xp.std(xp.asarray(x), correction=correction),
          np.asarray(np.std(x, ddof=correction)))


def test_methods_and_scalars():
    x = sample((4, 4), np.float64, seed=13)
    a = xp.asarray(x)
    assert float(a.sum()) == pytest.approx(x.sum())
    check(a.max(axis=1), x.max(axis=1))
    assert float(xp.mean(a)) == pytest.approx(x.mean())


def test_empty_reductions():
    check(xp.sum(xp.zeros((0, 3))), np.asarray(0.0))
    check(xp.prod(xp.zeros((0,)), axis=0), np.asarray(1.0))
    with pytest.raises(ValueError, match="zero-size"):
        xp.max(xp.zeros((0, 2)), axis=0)


def test_bad_axis():
    with pytest.raises(ValueError, match="out of bounds"):
        xp.sum(xp.ones((2, 2)), axis=2)
    with pytest.raises(ValueError, match="repeated"):
        xp.sum(xp.ones((2, 2)), axis=(0, 0))
