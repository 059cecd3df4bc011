"""The fft extension on distributed arrays (rows, columns, the 2-D grid):
computed on the gathered array, every rank gets numpy's result."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


@pytest.mark.parametrize("split", [None, 0, 1, (0, 1)], ids=str)
@pytest.mark.parametrize("shape", [(1, 4), (5, 3), (2, 8)], ids=str)
def test_transforms_of_split_arrays(split, shape):
    c = sample(shape, np.complex128, seed=3)
    r = sample(shape, np.float64, seed=4)
    x, y = xp.asarray(c, split=split), xp.asarray(r, split=split)
    check(xp.fft.fft(x, axis=0), np.fft.fft(c, axis=0), rtol=1e-10)
    check(xp.fft.fftn(x), np.fft.fftn(c), rtol=1e-10)
    check(xp.fft.rfft(y), np.fft.rfft(r), rtol=1e-10)
    check(xp.fft.irfftn(xp.fft.rfftn(y), s=shape), r, rtol=1e-10)
