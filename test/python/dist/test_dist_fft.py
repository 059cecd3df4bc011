"""The fft extension on distributed arrays (rows, columns, the 2-D grid):
transforms over the unsplit axes of rows run on each rank's block, the
others on the gathered array; every rank gets numpy's result."""

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


@pytest.mark.parametrize("split", [None, 0, 1, (0, 1)], ids=str)
@pytest.mark.parametrize("rows", [0, 1, 3, 6])
def test_transforms_along_unsplit_axes(split, rows):
    """Each rank transforms its own rows (no gather): batches of signals
    split on the batch axis, with uneven blocks and ranks owning none."""
    shape = (rows, 4, 6)
    c = sample(shape, np.complex128, seed=rows)
    r = sample(shape, np.float64, seed=rows + 1)
    if split == (0, 1):
        split = (0, 2)
    x, y = xp.asarray(c, split=split), xp.asarray(r, split=split)
    check(xp.fft.fft(x), np.fft.fft(c), rtol=1e-10)
    check(xp.fft.ifftn(x, axes=(2, 1), norm="ortho"),
          np.fft.ifftn(c, axes=(2, 1), norm="ortho"), rtol=1e-10)
    check(xp.fft.rfftn(y, axes=(1, 2)), np.fft.rfftn(r, axes=(1, 2)),
          rtol=1e-10)
    check(xp.fft.irfftn(x, s=(3, 5), axes=(1, 2)),
          np.fft.irfftn(c, s=(3, 5), axes=(1, 2)), rtol=1e-10)
    # A transform over the split axis too (gathered), after a local one.
    if rows:
        check(xp.fft.fftn(xp.fft.fft(x, axis=1)),
              np.fft.fftn(np.fft.fft(c, axis=1)),
              rtol=1e-10)
