"""The array API's Fourier transform extension (`xp.fft`).

Every transform is one `ndarray.fft` op over its axes, which the compiler
lowers to FFTW plans (on distributed arrays: on each rank's block, see
docs/distribution.md; the result is split on rows);
`norm` scales the result. Real inputs of the complex transforms and
integer inputs are converted as numpy does (float32 keeps its precision).
"""

import math

from . import (_core, _dtypes, arange, astype, concat, conj, exp, flip,
               permute_dims, real, reshape, roll, where, zeros)
from ._array import _split_of, ndarray
from ._core import Node

__all__ = ["fft", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifftn",
           "ifftshift", "ihfft", "irfft", "irfftn", "rfft", "rfftfreq",
           "rfftn"]

_NORMS = ("backward", "ortho", "forward")


def _complex(x):
    if x.dtype in (_dtypes.complex64, _dtypes.complex128):
        return x
    return astype(x, _dtypes.complex64 if x.dtype == _dtypes.float32
                  else _dtypes.complex128)


def _real(x):
    if x.dtype in (_dtypes.complex64, _dtypes.complex128):
        raise TypeError("the input of a real transform must be real, not "
                        f"{x.dtype}")
    if x.dtype in (_dtypes.float32, _dtypes.float64):
        return x
    return astype(x, _dtypes.float64)


def _axis(x, axis):
    if not -x.ndim <= axis < x.ndim or x.ndim == 0:
        raise ValueError(f"axis {axis} is out of range for an array of "
                         f"{x.ndim} dimensions")
    return axis % x.ndim


def _resize(x, n, axis):
    """`x` cropped or zero-padded to `n` elements along `axis`."""
    size = x.shape[axis]
    if n == size:
        return x
    if n < size:
        key = [slice(None)] * x.ndim
        key[axis] = slice(0, n)
        return x[tuple(key)]
    shape = list(x.shape)
    shape[axis] = n - size
    return concat([x, zeros(tuple(shape), dtype=x.dtype)], axis=axis)


def _scale(x, norm, n, inverse):
    if norm not in _NORMS:
        raise ValueError(f"norm must be one of {_NORMS}, not {norm!r}")
    if norm == "ortho":
        factor = 1.0 / math.sqrt(n) if n else 1.0
    elif (norm == "backward") == inverse:
        factor = 1.0 / n if n else 1.0
    else:
        return x
    return x * factor


def _lanes(x, sizes, axes, convert, default_last):
    """`x` converted and cropped or padded to `sizes` along `axes` (None:
    the size, or `default_last(size)` for the last axis), with the
    transform's lengths, checked."""
    if not isinstance(x, ndarray):
        raise TypeError("expected an imex array")
    x = convert(x)
    axes = [_axis(x, axis) for axis in axes]
    lengths = []
    for i, (axis, n) in enumerate(zip(axes, sizes)):
        if n is None:
            n = (default_last if i == len(axes) - 1 else
                 (lambda size: size))(x.shape[axis])
        if n < 1:
            raise ValueError(f"invalid number of data points ({n})")
        lengths.append(n)
    return x, axes, lengths


def _transform(kind, x, axes, n, size, dtype):
    """The ndarray.fft of `x` over `axes` (the last one of length `n`, with
    `size` elements along it in the result)."""
    shape = list(x.shape)
    shape[axes[-1]] = size
    return ndarray(_core.record(Node(tuple(shape), dtype,
                                     _split_of([x._node], len(shape)), "fft",
                                     [x._node], (kind, tuple(axes), n))))


def _split_1d(x, n, inverse):
    """The unnormalized complex transform of the length-`n` 1-d array `x`
    split over ranks, without gathering it: the four-step algorithm over
    n = n1 * n2 (n1 the largest divisor up to sqrt(n)): as an n1 x n2 array
    split on rows, transforms over axis 0 (the array moved to split on
    axis 1 and back), twiddle factors, transforms over axis 1 (local), a
    transpose. A prime length is transformed on the gathered array."""
    n1 = next(d for d in range(math.isqrt(n), 0, -1) if n % d == 0)
    kind = "backward" if inverse else "forward"
    if n1 == 1:
        return _transform(kind, x, [0], n, n, x.dtype)
    n2 = n // n1
    b = _transform(kind, reshape(x, (n1, n2)), [0], n1, n1, x.dtype)
    # (k1 * j2 < n: exact, so each angle is rounded once.)
    k1 = reshape(arange(n1, dtype=_dtypes.int64, split=0), (n1, 1))
    j2 = arange(n2, dtype=_dtypes.int64)
    angle = astype(k1 * j2, _dtypes.float64) * (
        (2j if inverse else -2j) * math.pi / n)
    c = b * astype(exp(angle), x.dtype)
    d = _transform(kind, c, [1], n2, n2, x.dtype)
    return reshape(permute_dims(d, (1, 0)), (n,))


def _split_vector(x):
    return x.ndim == 1 and x._node.split is not None


def _c2c(x, sizes, axes, norm, inverse):
    x, axes, lengths = _lanes(x, sizes, axes, _complex, lambda size: size)
    for axis, n in zip(axes, lengths):
        x = _resize(x, n, axis)
    if _split_vector(x):
        y = _split_1d(x, lengths[0], inverse)
    else:
        y = _transform("backward" if inverse else "forward", x, axes,
                       lengths[-1], lengths[-1], x.dtype)
    return _scale(y, norm, math.prod(lengths), inverse)


def _r2c(x, sizes, axes, norm):
    x, axes, lengths = _lanes(x, sizes, axes, _real, lambda size: size)
    for axis, n in zip(axes, lengths):
        x = _resize(x, n, axis)
    n = lengths[-1]
    if _split_vector(x):
        # (The complex transform's first half.)
        y = _split_1d(_complex(x), n, False)[:n // 2 + 1]
    else:
        y = _transform("r2c", x, axes, n, n // 2 + 1,
                       _dtypes.complex64 if x.dtype == _dtypes.float32
                       else _dtypes.complex128)
    return _scale(y, norm, math.prod(lengths), False)


def _c2r(x, sizes, axes, norm):
    x, axes, lengths = _lanes(x, sizes, axes, _complex,
                              lambda size: 2 * (size - 1))
    for axis, n in zip(axes[:-1], lengths[:-1]):
        x = _resize(x, n, axis)
    n = lengths[-1]
    x = _resize(x, n // 2 + 1, axes[-1])
    real_type = (_dtypes.float32 if x.dtype == _dtypes.complex64
                 else _dtypes.float64)
    if _split_vector(x):
        # The Hermitian spectrum completed, its complex transform's real
        # part (as c2r, the imaginary parts of elements 0 and n / 2 do not
        # contribute to it).
        full = concat([x, conj(flip(x[1:(n + 1) // 2]))])
        y = astype(real(_split_1d(full, n, True)), real_type)
    else:
        y = _transform("c2r", x, axes, n, n, real_type)
    return _scale(y, norm, math.prod(lengths), True)


def fft(x, /, *, n=None, axis=-1, norm="backward"):
    return _c2c(x, [n], [axis], norm, False)


def ifft(x, /, *, n=None, axis=-1, norm="backward"):
    return _c2c(x, [n], [axis], norm, True)


def rfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _r2c(x, [n], [axis], norm)


def irfft(x, /, *, n=None, axis=-1, norm="backward"):
    return _c2r(x, [n], [axis], norm)


def _swapped(norm):
    return {"backward": "forward", "forward": "backward"}.get(norm, norm)


def hfft(x, /, *, n=None, axis=-1, norm="backward"):
    """The transform of a signal with Hermitian symmetry (real spectrum)."""
    return irfft(conj(_complex(x)), n=n, axis=axis, norm=_swapped(norm))


def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
    return conj(rfft(x, n=n, axis=axis, norm=_swapped(norm)))


def _axes_and_sizes(x, s, axes):
    if axes is None:
        axes = (list(range(x.ndim)) if s is None
                else list(range(x.ndim - len(s), x.ndim)))
    axes = [_axis(x, a) for a in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    if s is None:
        s = [None] * len(axes)
    elif len(s) != len(axes):
        raise ValueError("s and axes must have the same length")
    return axes, [None if n == -1 else n for n in s]


# The n-d transforms are one ndarray.fft over all their axes: one FFTW plan
# of that rank.
def fftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes(x, s, axes)
    if not axes:
        return _complex(x)
    return _c2c(x, sizes, axes, norm, False)


def ifftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes(x, s, axes)
    if not axes:
        return _complex(x)
    return _c2c(x, sizes, axes, norm, True)


def rfftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes(x, s, axes)
    if not axes:
        return _complex(_real(x))
    return _r2c(x, sizes, axes, norm)


def irfftn(x, /, *, s=None, axes=None, norm="backward"):
    axes, sizes = _axes_and_sizes(x, s, axes)
    if not axes:
        return _real(x) if x.dtype not in (
            _dtypes.complex64, _dtypes.complex128) else astype(
            x, _dtypes.float32 if x.dtype == _dtypes.complex64
            else _dtypes.float64)
    return _c2r(x, sizes, axes, norm)


def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, not {n!r}")
    k = arange(n, dtype=_dtypes.int64)
    k = where(k < (n + 1) // 2, k, k - n)
    return astype(astype(k, _dtypes.float64) / (d * n),
                  dtype or _dtypes.float64)


def rfftfreq(n, /, *, d=1.0, dtype=None, device=None):
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, not {n!r}")
    dtype = dtype or _dtypes.float64
    k = arange(n // 2 + 1, dtype=_dtypes.float64)
    return astype(k / (d * n), dtype)


def _shift(x, axes, sign):
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, int):
        axes = [axes]
    axes = [_axis(x, a) for a in axes]
    shifts = [sign * (x.shape[a] // 2) for a in axes]
    return roll(x, tuple(shifts), axis=tuple(axes)) if axes else x


def fftshift(x, /, *, axes=None):
    return _shift(x, axes, 1)


def ifftshift(x, /, *, axes=None):
    return _shift(x, axes, -1)

