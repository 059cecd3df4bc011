"""The fft extension against numpy.fft on generated arrays: complex and
real transforms along every axis, cropped and padded lengths, every norm,
n-d transforms, float32 and float64 precisions, sizes 1 and more, views."""

import numpy as np
import pytest

import imex as xp
from helpers import sample

NORMS = ["backward", "ortho", "forward"]


def close(got, want, single):
    got = got.to_numpy()
    want = np.asarray(want)
    if single:
        want = want.astype(np.complex64 if want.dtype.kind == "c"
                           else np.float32)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape, (got.shape, want.shape)
    tol = 1e-4 if single else 1e-10
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("single", [False, True], ids=["f64", "f32"])
@pytest.mark.parametrize("seed", range(16))
def test_generated_transforms(single, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(rng.integers(1, 7)) for _ in range(rng.integers(1, 4)))
    axis = int(rng.integers(-len(shape), len(shape)))
    n = [None, shape[axis], 1, shape[axis] + 3,
         max(1, shape[axis] - 1)][rng.integers(5)]
    norm = NORMS[rng.integers(3)]
    ctype, rtype = ((np.complex64, np.float32) if single else
                    (np.complex128, np.float64))
    c = sample(shape, ctype, seed=seed)
    r = sample(shape, rtype, seed=seed + 50)
    xc, xr = xp.asarray(c), xp.asarray(r)
    kw = dict(n=n, axis=axis, norm=norm)
    close(xp.fft.fft(xc, **kw), np.fft.fft(c, **kw), single)
    close(xp.fft.ifft(xc, **kw), np.fft.ifft(c, **kw), single)
    close(xp.fft.rfft(xr, **kw), np.fft.rfft(r, **kw), single)
    close(xp.fft.ihfft(xr, **kw), np.fft.ihfft(r, **kw), single)
    if n is not None or shape[axis] > 1:
        close(xp.fft.irfft(xc, **kw), np.fft.irfft(c, **kw), single)
        close(xp.fft.hfft(xc, **kw), np.fft.hfft(c, **kw), single)
    close(xp.fft.fftn(xc, norm=norm), np.fft.fftn(c, norm=norm), single)
    close(xp.fft.ifftn(xc, norm=norm), np.fft.ifftn(c, norm=norm), single)
    close(xp.fft.rfftn(xr, norm=norm), np.fft.rfftn(r, norm=norm), single)
    if shape[-1] > 1:
        close(xp.fft.irfftn(xc, norm=norm), np.fft.irfftn(c, norm=norm),
              single)
    # Random axes (a subset in any order: one multi-dimensional transform)
    # with random lengths.
    axes = [int(a) for a in rng.permutation(len(shape))[
        :rng.integers(1, len(shape) + 1)]]
    s = [int(rng.integers(1, 8)) for _ in axes]
    kw = dict(s=s, axes=axes, norm=norm)
    close(xp.fft.fftn(xc, **kw), np.fft.fftn(c, **kw), single)
    close(xp.fft.ifftn(xc, **kw), np.fft.ifftn(c, **kw), single)
    close(xp.fft.rfftn(xr, **kw), np.fft.rfftn(r, **kw), single)
    close(xp.fft.irfftn(xc, **kw), np.fft.irfftn(c, **kw), single)
    # A strided, reversed view as the input.
    key = (slice(None, None, -1),) * len(shape)
    close(xp.fft.fft(xc[key], axis=axis), np.fft.fft(c[key], axis=axis),
          single)
    close(xp.fft.fftn(xc[key], axes=axes), np.fft.fftn(c[key], axes=axes),
          single)
    close(xp.fft.irfftn(xc[key], s=s, axes=axes),
          np.fft.irfftn(c[key], s=s, axes=axes), single)


def test_sizes_and_axes_of_n_d_transforms():
    c = sample((3, 4, 5), np.complex128, seed=1)
    r = sample((3, 4, 5), np.float64, seed=2)
    x, y = xp.asarray(c), xp.asarray(r)
    close(xp.fft.fftn(x, s=(2, 6), axes=(0, 2)),
          np.fft.fftn(c, s=(2, 6), axes=(0, 2)), False)
    close(xp.fft.rfftn(y, s=(3, 8)), np.fft.rfftn(r, s=(3, 8)), False)
    close(xp.fft.irfftn(x, s=(4, 7), axes=(1, 0)),
          np.fft.irfftn(c, s=(4, 7), axes=(1, 0)), False)


@pytest.mark.parametrize("n", [1, 2, 7, 8])
def test_frequencies_and_shifts(n):
    close(xp.fft.fftfreq(n, d=0.3), np.fft.fftfreq(n, d=0.3), False)
    close(xp.fft.rfftfreq(n, d=2.0), np.fft.rfftfreq(n, d=2.0), False)
    assert xp.fft.fftfreq(n, dtype=xp.float32).dtype == xp.float32
    r = sample((n, 3), np.float64, seed=n)
    close(xp.fft.fftshift(xp.asarray(r)), np.fft.fftshift(r), False)
    close(xp.fft.ifftshift(xp.asarray(r), axes=0),
          np.fft.ifftshift(r, axes=0), False)


def test_integers_and_errors():
    a = np.arange(6)
    close(xp.fft.fft(xp.asarray(a)), np.fft.fft(a), False)
    close(xp.fft.rfft(xp.asarray(a)), np.fft.rfft(a), False)
    with pytest.raises(ValueError, match="invalid number of data points"):
        xp.fft.fft(xp.asarray(a), n=0)
    with pytest.raises(ValueError, match="norm"):
        xp.fft.fft(xp.asarray(a), norm="twice")
    with pytest.raises(TypeError, match="real"):
        xp.fft.rfft(xp.asarray(a + 1j))
