"""Floating point sums, products and moments of split arrays give the bits
of one process (the pairwise tree of each axis's global indices,
helpers.pairwise_reduce) on every distribution and rank count: rows,
columns, grids and splits of 3-D arrays, uneven sizes, ranks owning
nothing."""

import itertools

import numpy as np
import pytest

import imex as xp
from helpers import pairwise_reduce, sample

SPLITS = [0, 1, (0, 1)]
SHAPES = [(1, 2), (3, 70), (70, 3), (130, 65), (2, 1)]


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


def assert_bits(got, expected):
    got = np.asarray(got)
    expected = np.asarray(expected, dtype=got.dtype)
    assert got.shape == expected.shape
    assert got.tobytes() == expected.tobytes()


def axes_of(ndim):
    for r in range(1, ndim + 1):
        yield from itertools.combinations(range(ndim), r)


@pytest.mark.parametrize("split", SPLITS, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", [xp.float32, xp.float64, xp.complex128],
                         ids=str)
def test_sums_and_products_are_the_tree_of_one_process(split, shape, dtype):
    x = sample(shape, dtype, seed=sum(shape), low=-3, high=3)
    a = xp.asarray(x, split=split)
    for axes in axes_of(len(shape)):
        assert_bits(xp.sum(a, axis=axes), pairwise_reduce(x, axes))
        if np.dtype(dtype).kind != "c":
            y = (1 + x / 50).astype(dtype)
            assert_bits(xp.prod(1 + a / 50, axis=axes),
                        pairwise_reduce(y, axes, "prod"))


@pytest.mark.parametrize("split", [0, 2, (0, 2), (1, 2)], ids=str)
def test_three_dimensional_splits(split):
    x = sample((5, 66, 9), np.float64, seed=21)
    a = xp.asarray(x, split=split)
    for axes in axes_of(3):
        assert_bits(xp.sum(a, axis=axes), pairwise_reduce(x, axes))


@pytest.mark.parametrize("split", SPLITS, ids=str)
@pytest.mark.parametrize("kind", ["mean", "var", "std"])
def test_moments_equal_one_process(split, kind):
    x = sample((67, 130), np.float64, seed=22)
    local = xp.asarray(x)  # replicated: reduced by each rank alone
    a = xp.asarray(x, split=split)
    for axes in (None, 0, 1):
        assert_bits(getattr(xp, kind)(a, axis=axes),
                    np.asarray(getattr(xp, kind)(local, axis=axes)))


def test_float32_sum_of_many_ones_on_every_rank_count():
    for split in SPLITS[:2]:
        a = xp.ones((2**13, 2**12), dtype=xp.float32, split=split)
        assert float(xp.sum(a)) == 33554432.0
        assert float(xp.mean(a)) == 1.0
