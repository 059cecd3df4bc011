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


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8,
                                   np.bool_], ids=str)
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("include_initial", [False, True])
def test_cumulative_sum_prod(dtype, axis, include_initial):
    x = sample((4, 5), dtype, seed=11, low=0, high=3)
    for function, numpy_function, start in [
            (xp.cumulative_sum, np.cumsum, 0),
            (xp.cumulative_prod, np.cumprod, 1)]:
        result_dtype = np.result_type(np.sum(x[:1, :1]))
        expected = numpy_function(x.astype(result_dtype), axis=axis)
        if include_initial:
            shape = list(x.shape)
            shape[axis] = 1
            expected = np.concatenate(
                [np.full(shape, start, result_dtype), expected], axis=axis)
        check(function(xp.asarray(x), axis=axis,
                       include_initial=include_initial), expected)


def test_cumulative_defaults_and_errors():
    v = sample((7,), np.float64, seed=12)
    check(xp.cumulative_sum(xp.asarray(v)), np.cumsum(v))
    check(xp.cumulative_sum(xp.asarray(v), dtype=xp.float32),
          np.cumsum(v).astype(np.float32))
    check(xp.cumulative_prod(xp.asarray(np.zeros((0, 3))), axis=0),
          np.zeros((0, 3)))
    with pytest.raises(ValueError, match="axis is required"):
        xp.cumulative_sum(xp.ones((2, 2)))


@pytest.mark.parametrize("dtype", NUMERIC + [xp.bool], ids=str)
@pytest.mark.parametrize("kind", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_argmax_argmin(kind, dtype, axis, keepdims):
    x = sample((3, 4, 2), dtype, seed=13, low=-2, high=3)  # many ties
    if np.dtype(dtype).kind == "f":
        x.reshape(-1)[[5, 17]] = np.nan
    expected = getattr(np, kind)(x, axis=axis, keepdims=keepdims)
    got = getattr(xp, kind)(xp.asarray(x), axis=axis, keepdims=keepdims)
    check(got, np.asarray(expected, np.int64))
    assert got.dtype == xp.int64
    check(getattr(xp.asarray(x), kind)(axis=axis), getattr(x, kind)(axis))


def test_argmax_errors():
    with pytest.raises(ValueError, match="attempt to get argmax of an empty"):
        xp.argmax(xp.zeros((0, 3)))
    with pytest.raises(ValueError, match="attempt to get argmin of an empty"):
        xp.argmin(xp.zeros((2, 0)), axis=1)
    check(xp.argmin(xp.zeros((2, 0)), axis=0), np.zeros((0,), np.int64))
    with pytest.raises(IndexError, match="out of bounds"):
        xp.argmax(xp.zeros((2, 3)), axis=2)


@pytest.mark.parametrize("shape", [(1, 2, 1), (1, 1, 3), (2, 1, 1, 1)],
                         ids=str)
@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.float32], ids=str)
def test_scans_along_every_axis_of_arrays_with_unit_axes(shape, dtype):
    """(The scans slice one axis at a time: with several unit axes the
    slice must drop the scanned one, not the first.)"""
    x = (np.arange(np.prod(shape)) - 1).reshape(shape).astype(dtype)
    a = xp.asarray(x)
    for axis in range(-len(shape), len(shape)):
        check(xp.cumulative_sum(a, axis=axis),
              np.cumsum(x, axis=axis, dtype=xp.sum(a).dtype))
        check(xp.cumulative_prod(a, axis=axis),
              np.cumprod(x, axis=axis, dtype=xp.prod(a).dtype))
