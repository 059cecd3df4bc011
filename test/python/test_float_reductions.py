"""Floating point sums and products: the pairwise tree of each axis's
indices (helpers.pairwise_reduce), bit for bit, and numpy's accuracy."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import imex as xp
from helpers import pairwise_reduce, sample

SIZES = [0, 1, 2, 3, 7, 8, 63, 64, 65, 127, 130, 4097]


def assert_bits(got, expected):
    got = np.asarray(got)
    expected = np.asarray(expected, dtype=got.dtype)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected, strict=True)
    # The same values, signed zeros included; a NaN's sign and payload are
    # unspecified (x86 makes inf - inf a negative NaN).
    nan = np.isnan(got) & np.isnan(expected)
    assert np.all((got == expected) | nan)
    assert np.array_equal(np.signbit(got.real)[~nan],
                          np.signbit(expected.real)[~nan])


@pytest.mark.parametrize("dtype", [xp.float32, xp.float64, xp.complex128],
                         ids=str)
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", ["sum", "prod"])
def test_one_axis_is_the_pairwise_tree(dtype, n, kind):
    x = sample((n,), dtype, seed=n, low=-3, high=3)
    if kind == "prod":
        x = (1 + x / 50).astype(dtype)
    got = getattr(xp, kind)(xp.asarray(x))
    expected = pairwise_reduce(x, (0,), kind)
    if kind == "prod" and np.dtype(dtype).kind == "c":
        # (The complex multiplication itself rounds differently from
        # numpy's in the last bit: MLIR's complex.mul, Annex G.)
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-14)
    else:
        assert_bits(got, expected)


@pytest.mark.parametrize("shape", [(3, 130), (130, 3), (65, 66),
                                   (2, 70, 5), (0, 9), (9, 0), (1, 1)],
                         ids=str)
@pytest.mark.parametrize("dtype", [xp.float32, xp.float64], ids=str)
def test_every_axis_subset_innermost_first(shape, dtype):
    x = sample(shape, dtype, seed=3)
    a = xp.asarray(x)
    for r in range(1, len(shape) + 1):
        for axes in itertools.combinations(range(len(shape)), r):
            for kind in ("sum", "prod"):
                y = x if kind == "sum" else (1 + x / 50).astype(dtype)
                b = a if kind == "sum" else 1 + a / 50
                assert_bits(getattr(xp, kind)(b, axis=axes),
                            pairwise_reduce(y, axes, kind))


FLOAT_VALUES = st.one_of(
    st.floats(-1e6, 1e6, width=32),
    st.sampled_from([0.0, -0.0, 1e30, -1e30, float("inf"), float("-inf"),
                     float("nan"), 1e-40]))


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_generated_arrays_and_axes(data):
    ndim = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.sampled_from([0, 1, 2, 5, 9, 64, 70]),
                                     min_size=ndim, max_size=ndim)))
    dtype = data.draw(st.sampled_from([np.float32, np.float64]))
    count = math.prod(shape)
    values = data.draw(st.lists(FLOAT_VALUES, min_size=count,
                                max_size=count))
    x = np.array(values, dtype=dtype).reshape(shape)
    axes = tuple(sorted(data.draw(st.sets(st.integers(0, ndim - 1),
                                          min_size=1))))
    kind = data.draw(st.sampled_from(["sum", "prod"]))
    with np.errstate(all="ignore"):
        expected = pairwise_reduce(x, axes, kind)
    assert_bits(getattr(xp, kind)(xp.asarray(x), axis=axes), expected)


def test_float32_sum_of_many_ones_is_exact():
    a = xp.ones((2**25,), dtype=xp.float32)
    assert float(xp.sum(a)) == 33554432.0
    assert float(xp.mean(a)) == 1.0
    assert float(xp.sum(a, dtype=xp.float64)) == 33554432.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
@pytest.mark.parametrize("layout", ["contiguous", "axis0", "axis1"])
def test_error_within_the_documented_bound(dtype, layout):
    # Values whose sequential sum loses most digits: many of one magnitude,
    # then cancellation; the bound is ceil(log2 n) + 1 roundings of the sum
    # of magnitudes, against the exact sum (math.fsum).
    rng = np.random.default_rng(5)
    n = 1 << 20
    x = (rng.uniform(0, 1, n) * 1000 + 1e3).astype(dtype)
    x[::7] *= -1.1
    eps = np.finfo(dtype).eps
    if layout == "contiguous":
        got = float(xp.sum(xp.asarray(x)))
        exact, scale, count = math.fsum(x.astype(float)), np.abs(
            x.astype(float)).sum(), n
        assert abs(got - exact) <= (math.ceil(math.log2(count)) + 1) * \
            eps * scale
        return
    m = x.reshape(1024, 1024)
    axis = 0 if layout == "axis0" else 1
    got = np.asarray(xp.sum(xp.asarray(m), axis=axis)).astype(float)
    exact = np.array([math.fsum(v) for v in np.moveaxis(
        m.astype(float), axis, -1)])
    scale = np.abs(m.astype(float)).sum(axis=axis)
    assert np.all(np.abs(got - exact) <= 11 * eps * scale)


def test_alternating_magnitudes_match_numpy():
    x = np.tile(np.array([1e8, 1.0, -1e8, 1.0], dtype=np.float32), 1000)
    # numpy's pairwise sum and ours both lose the ones here (float32 has 24
    # bits); in float64 both are exact.
    assert float(xp.sum(xp.asarray(x))) == float(pairwise_reduce(x, (0,)))
    assert float(xp.sum(xp.asarray(x), dtype=xp.float64)) == 2000.0


def test_signed_zeros_as_numpy():
    for x in (np.array([-0.0]), -np.zeros(64), -np.zeros((3, 70))):
        got = np.asarray(xp.sum(xp.asarray(x)))
        assert got == 0.0 and not np.signbit(got)
        assert np.signbit(np.sum(x)) == np.signbit(got)


@pytest.mark.parametrize("kind", ["sum", "prod"])
def test_dtype_accumulates_in_that_dtype(kind):
    x = sample((1000,), np.float32, seed=9, low=0.5, high=1.5)
    a = xp.asarray(x)
    for dtype in (np.float64, np.complex128):
        assert_bits(getattr(xp, kind)(a, dtype=dtype),
                    pairwise_reduce(x.astype(dtype), (0,), kind))
    y = sample((1000,), np.float64, seed=10, low=0.99, high=1.01)
    assert_bits(getattr(xp, kind)(xp.asarray(y), dtype=xp.float32),
                pairwise_reduce(y.astype(np.float32), (0,), kind))
    i = np.arange(300).astype(np.int8)
    assert int(getattr(xp, kind)(xp.asarray(i), dtype=xp.int8)) == int(
        getattr(np, kind)(i, dtype=np.int8))


def test_float16_accumulates_in_float32():
    x = sample((5000,), np.float16, seed=4, low=0, high=8)
    expected = pairwise_reduce(x.astype(np.float32), (0,)).astype(
        np.float16)
    assert_bits(xp.sum(xp.asarray(x)), expected)
