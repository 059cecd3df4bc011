"""The fft extension on distributed arrays (rows, columns, the 2-D grid):
transforms over the unsplit axes of rows run on each rank's block, those
over the split axis on the array redistributed to split on another axis
(in two phases over every axis); only 1-d transforms gather. Every rank
gets numpy's result."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from mpi4py import MPI

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


TRANSFORMS = ["fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn",
              "irfftn", "hfft", "ihfft"]


@st.composite
def split_axis_transforms(draw):
    """A transform over axis 0 of a 1-d, 2-d or 3-d array (with other axes
    or not, in any order), any distribution, sizes with ranks owning
    nothing, prime and composite lengths, axes left alone of size 0, both
    precisions, any norm."""
    name = draw(st.sampled_from(TRANSFORMS))
    ndim = draw(st.sampled_from([1, 2, 3]))
    if name.endswith("n"):
        others = draw(st.lists(st.integers(1, ndim - 1), unique=True,
                               max_size=ndim - 1))
        axes = draw(st.permutations([0] + others))
    else:
        axes = [0]
    lengths = [draw(st.sampled_from([1, 2, 3, 5, 12, 30,
                                     draw(st.integers(1, 9))]))
               for _ in range(ndim)]
    shape = tuple(lengths[d] if d in axes else
                  draw(st.sampled_from([0, 1, lengths[d]]))
                  for d in range(ndim))
    real_in = name in ("rfft", "rfftn", "ihfft")
    if name in ("irfft", "irfftn", "hfft") and shape[axes[-1]] < 2:
        # (numpy: a c2r transform of one element has no default length)
        shape = tuple(2 if d == axes[-1] else n for d, n in enumerate(shape))
    precision = draw(st.sampled_from(["single", "double"]))
    dtype = {("single", True): np.float32, ("single", False): np.complex64,
             ("double", True): np.float64,
             ("double", False): np.complex128}[precision, real_in]
    split = draw(st.sampled_from([None, 0, 1, (0, 1), ndim - 1]
                                 if ndim > 1 else [None, 0]))
    norm = draw(st.sampled_from(["backward", "ortho", "forward"]))
    return name, shape, tuple(axes), dtype, split, norm


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(split_axis_transforms())
def test_generated_transforms_over_the_split_axis(case):
    name, shape, axes, dtype, split, norm = case
    data = sample(shape, dtype, seed=len(axes))
    x = xp.asarray(data, split=split)
    kwargs = {"norm": norm}
    if name.endswith("n"):
        kwargs["axes"] = axes
    else:
        kwargs["axis"] = axes[0]
    got = getattr(xp.fft, name)(x, **kwargs)
    want = getattr(np.fft, name)(data, **kwargs)
    if np.dtype(dtype) in (np.float32, np.complex64):
        want = want.astype(np.complex64 if want.dtype.kind == "c"
                           else np.float32)
    check(got, want, rtol=2e-3 if dtype in (np.float32, np.complex64)
          else 1e-10)


@pytest.mark.parametrize("transform,shape,all_to_alls", [
    (xp.fft.fftn, (64, 48), 2), (xp.fft.fftn, (16, 12, 10), 2),
    (xp.fft.fft, (4096,), 3), (xp.fft.ifft, (2 * 3 * 5 * 7 * 11 * 13,), 3)],
    ids=["fftn-2d", "fftn-3d", "fft-1d", "ifft-1d-uneven"])
def test_transform_over_the_split_axis_is_not_gathered(transform, shape,
                                                       all_to_alls):
    """A transform over the split axis sends each element in a few
    all-to-alls (fftn: two redistributions; a 1-d transform: the four-step
    algorithm's two and its transpose, with the reshapes' few rows), each
    at most the (P - 1) / P of the array other ranks own; nothing is
    gathered (collectives carry only the exchanges' plans)."""
    c = sample(shape, np.complex128, seed=5)
    x = xp.asarray(c, split=0)
    want = getattr(np.fft, transform.__name__)(c)
    check(transform(x), want, rtol=1e-10)
    xp.sync()
    before = xp.comm_stats()
    y = transform(x)
    xp.sync()
    after = xp.comm_stats()
    comm = MPI.COMM_WORLD

    def moved(key):
        return comm.allreduce(after[key] - before[key])
    share = (comm.size - 1) / comm.size
    assert moved("bytes_sent") <= (all_to_alls * share + 0.1) * c.nbytes, (
        moved("bytes_sent"), c.nbytes)
    assert moved("collective_bytes") <= 0.5 * c.nbytes, (
        moved("collective_bytes"), c.nbytes)
    check(y, want, rtol=1e-10)
