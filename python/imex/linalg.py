"""The array API's linear algebra extension (`xp.linalg`).

Decompositions and solvers (`cholesky`, `solve`, `inv`, `det`, `slogdet`,
`eigh`, `eigvalsh`, `qr`, `svd`, `svdvals`) are one `ndarray.linalg` op
each, which the compiler lowers to LAPACK on every matrix of a stack (on
distributed arrays: on the gathered array). Integer and boolean inputs are
converted to float64, as numpy does. A routine that fails on a matrix
(singular, not positive definite) raises LinAlgError when the results are
next computed. The other functions are compositions of array operations.
"""

import builtins
import collections
import math

from . import (_core, _dtypes, abs, astype, broadcast_to, conj, eye, matmul,
               result_type,
               matrix_transpose, max, min, outer, reshape, sqrt, stack, sum,
               tensordot, vecdot, where)
from ._array import _split_of, ndarray
from ._core import Node

__all__ = ["LinAlgError", "cholesky", "cross", "det", "diagonal", "eigh",
           "eigvalsh", "inv", "matmul", "matrix_norm", "matrix_power",
           "matrix_rank", "matrix_transpose", "outer", "pinv", "qr",
           "slogdet", "solve", "svd", "svdvals", "tensordot", "trace",
           "vecdot", "vector_norm"]


class LinAlgError(ValueError):
    """A matrix the routine cannot handle (numpy.linalg.LinAlgError)."""


EighResult = collections.namedtuple("EighResult",
                                    ["eigenvalues", "eigenvectors"])
QRResult = collections.namedtuple("QRResult", ["Q", "R"])
SlogdetResult = collections.namedtuple("SlogdetResult",
                                       ["sign", "logabsdet"])
SVDResult = collections.namedtuple("SVDResult", ["U", "S", "Vh"])

_FAILURES = {"cholesky": "Matrix is not positive definite",
             "solve": "Singular matrix", "inv": "Singular matrix",
             "eigh": "Eigenvalues did not converge",
             "eigvalsh": "Eigenvalues did not converge",
             "qr": "QR factorization failed",
             "svd": "SVD did not converge",
             "svdvals": "SVD did not converge"}


def _inexact(x, name):
    """`x` as a stack of float or complex matrices."""
    if not isinstance(x, ndarray):
        raise TypeError(f"{name}: expected an imex array, got "
                        f"{type(x).__name__}")
    if x.ndim < 2:
        raise ValueError(f"{name}: expected a stack of matrices (at least 2 "
                         f"dimensions), got {x.ndim}")
    if x.dtype in (_dtypes.float32, _dtypes.float64, _dtypes.complex64,
                   _dtypes.complex128):
        return x
    if x.dtype == _dtypes.float16:
        raise TypeError(f"{name}: float16 is not supported (LAPACK)")
    return astype(x, _dtypes.float64)


def _real(dtype):
    return {_dtypes.complex64: _dtypes.float32,
            _dtypes.complex128: _dtypes.float64}.get(dtype, dtype)


def _call(kind, inputs, shapes, dtypes, flag=False):
    """The results of one ndarray.linalg op (shapes and dtypes before the
    status); registers the check of its status."""
    parent = _core.record(Node((), inputs[0].dtype, None, "linalg",
                               [x._node for x in inputs],
                               (kind, flag, tuple(dtypes))))
    # (Results of split inputs are split on rows: the runtime leaves this
    # rank's rows of them where it can, see docs/distribution.md.)
    results = [ndarray(_core.record(Node(
        shape, dtype, _split_of([x._node for x in inputs], len(shape)),
        "linalg_result", [parent], i)))
        for i, (shape, dtype) in enumerate(zip(shapes, dtypes))]
    if kind in _FAILURES and not _core._State.tracing:
        status = ndarray(_core.record(Node((), _dtypes.int64, None,
                                           "linalg_result", [parent],
                                           len(shapes))))
        message = _FAILURES[kind]

        def report():
            raise LinAlgError(message)
        _core.add_check(status != 0, report)
    return results


def _square(x, name):
    x = _inexact(x, name)
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"{name}: last 2 dimensions of the array must be "
                          f"square, got {x.shape[-2:]}")
    return x


def cholesky(x, /, *, upper=False):
    x = _square(x, "cholesky")
    return _call("cholesky", [x], [x.shape], [x.dtype], upper)[0]


def inv(x, /):
    x = _square(x, "inv")
    return _call("inv", [x], [x.shape], [x.dtype])[0]


def det(x, /):
    x = _square(x, "det")
    return _call("det", [x], [x.shape[:-2]], [x.dtype])[0]


def slogdet(x, /):
    x = _square(x, "slogdet")
    return SlogdetResult(*_call("slogdet", [x], [x.shape[:-2]] * 2,
                                [x.dtype, _real(x.dtype)]))


def eigh(x, /):
    x = _square(x, "eigh")
    return EighResult(*_call("eigh", [x], [x.shape[:-1], x.shape],
                             [_real(x.dtype), x.dtype]))


def eigvalsh(x, /):
    x = _square(x, "eigvalsh")
    return _call("eigvalsh", [x], [x.shape[:-1]], [_real(x.dtype)])[0]


def solve(x1, x2, /):
    """x1 @ result == x2; a 1-d x2 is one right-hand side (array API
    2024.12), batch dimensions broadcast."""
    a = _square(x1, "solve")
    if not isinstance(x2, ndarray):
        raise TypeError("solve: expected imex arrays")
    vector = x2.ndim == 1
    b = reshape(x2, (x2.shape[0], 1)) if vector else x2
    if b.shape[-2] != a.shape[-1]:
        raise ValueError(f"solve: x2 has {b.shape[-2]} rows, x1 is "
                         f"{a.shape[-2]} x {a.shape[-1]}")
    dtype = result_type(a.dtype, b.dtype)
    if dtype not in (_dtypes.float32, _dtypes.float64, _dtypes.complex64,
                     _dtypes.complex128):
        dtype = _dtypes.float64
    batch = _broadcast_batch(a.shape[:-2], b.shape[:-2])
    a = broadcast_to(astype(a, dtype, copy=False), batch + a.shape[-2:])
    b = broadcast_to(astype(b, dtype, copy=False), batch + b.shape[-2:])
    x = _call("solve", [a, b], [b.shape], [dtype])[0]
    return reshape(x, x.shape[:-1]) if vector else x


def _broadcast_batch(s, t):
    rank = builtins.max(len(s), len(t))
    s, t = (1,) * (rank - len(s)) + s, (1,) * (rank - len(t)) + t
    out = []
    for p, q in zip(s, t):
        if p != q and 1 not in (p, q):
            raise ValueError(f"solve: batch dimensions {s} and {t} do not "
                             "broadcast")
        out.append(q if p == 1 else p)
    return tuple(out)


def qr(x, /, *, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete', not "
                         f"{mode!r}")
    x = _inexact(x, "qr")
    m, n = x.shape[-2:]
    q = m if mode == "complete" else builtins.min(m, n)
    batch = x.shape[:-2]
    return QRResult(*_call("qr", [x], [batch + (m, q), batch + (q, n)],
                           [x.dtype] * 2, mode == "complete"))


def svd(x, /, *, full_matrices=True):
    x = _inexact(x, "svd")
    m, n = x.shape[-2:]
    k, batch = builtins.min(m, n), x.shape[:-2]
    shapes = ([batch + (m, m), batch + (k,), batch + (n, n)] if full_matrices
              else [batch + (m, k), batch + (k,), batch + (k, n)])
    # (Full and reduced are one factorization of a square matrix: reduced,
    # which ScaLAPACK computes on a split matrix.)
    return SVDResult(*_call("svd", [x], shapes,
                            [x.dtype, _real(x.dtype), x.dtype],
                            builtins.bool(full_matrices) and m != n))


def svdvals(x, /):
    x = _inexact(x, "svdvals")
    k = builtins.min(x.shape[-2:])
    return _call("svdvals", [x], [x.shape[:-2] + (k,)], [_real(x.dtype)])[0]


def _cutoff(s, rtol, shape):
    """The singular values of `s` below which they count as zero."""
    if rtol is None:
        rtol = builtins.max(shape[-2:]) * _eps(s.dtype)
    if isinstance(rtol, ndarray):
        rtol = reshape(rtol, rtol.shape + (1,))
    largest = max(s, axis=-1, keepdims=True) if s.shape[-1] else 0.0
    return rtol * largest


def _eps(dtype):
    return 1.1920929e-07 if dtype in (_dtypes.float32,
                                      _dtypes.complex64) else 2.220446049250313e-16


def pinv(x, /, *, rtol=None):
    x = _inexact(x, "pinv")
    u, s, vh = svd(x, full_matrices=False)
    keep = s > _cutoff(s, rtol, x.shape)
    s_inv = where(keep, 1.0 / where(keep, s, 1.0), 0.0)
    u_scaled = astype(reshape(s_inv, s_inv.shape[:-1] + (1, s.shape[-1])),
                      x.dtype) * conj(u)
    return matmul(conj(matrix_transpose(vh)), matrix_transpose(u_scaled))


def matrix_rank(x, /, *, rtol=None):
    x = _inexact(x, "matrix_rank")
    s = svdvals(x)
    return sum(astype(s > _cutoff(s, rtol, x.shape), _dtypes.int64),
               axis=-1)


def matrix_power(x, n, /):
    if not isinstance(n, int) or isinstance(n, builtins.bool):
        raise TypeError("matrix_power: the exponent must be an integer")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError("matrix_power: expected a stack of square matrices")
    if n == 0:
        return broadcast_to(eye(x.shape[-1], dtype=x.dtype), x.shape) + 0
    if n < 0:
        x, n = inv(x), -n
    result, power = None, x
    while n:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if n:
            power = matmul(power, power)
    return result


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    x = _inexact(x, "matrix_norm")
    a = abs(x)
    if ord == "fro":
        r = sqrt(sum(a * a, axis=(-2, -1)))
    elif ord == "nuc":
        r = sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        r = max(s, axis=-1) if ord == 2 else min(s, axis=-1)
    elif ord in (1, -1):
        c = sum(a, axis=-2)
        r = max(c, axis=-1) if ord == 1 else min(c, axis=-1)
    elif ord in (math.inf, -math.inf):
        c = sum(a, axis=-1)
        r = max(c, axis=-1) if ord > 0 else min(c, axis=-1)
    else:
        raise ValueError(f"matrix_norm: invalid ord {ord!r}")
    return reshape(r, r.shape + (1, 1)) if keepdims else r


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    if not isinstance(x, ndarray):
        raise TypeError("vector_norm: expected an imex array")
    if x.dtype not in (_dtypes.float32, _dtypes.float64, _dtypes.complex64,
                       _dtypes.complex128):
        x = astype(x, _dtypes.float64)
    a = abs(x)
    if ord == math.inf:
        return max(a, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return astype(sum(astype(a != 0, a.dtype), axis=axis,
                          keepdims=keepdims), a.dtype)
    if ord == 1:
        return sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return sqrt(sum(a * a, axis=axis, keepdims=keepdims))
    return sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def diagonal(x, /, *, offset=0):
    if x.ndim < 2:
        raise ValueError("diagonal: expected at least 2 dimensions")
    m, n = x.shape[-2:]
    count = builtins.max(0, builtins.min(m, n - offset) if offset >= 0
                         else builtins.min(m + offset, n))
    start = offset if offset >= 0 else -offset * n
    flat = reshape(x, x.shape[:-2] + (m * n,), copy=True)
    stop = start + (count - 1) * (n + 1) + 1 if count else start
    return flat[..., start:stop:n + 1]


def trace(x, /, *, offset=0, dtype=None):
    return sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def cross(x1, x2, /, *, axis=-1):
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("cross: the axis must have size 3 in both arrays")
    a = [_take(x1, i, axis) for i in range(3)]
    b = [_take(x2, i, axis) for i in range(3)]
    parts = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
             a[0] * b[1] - a[1] * b[0]]
    return stack(parts, axis=axis)


def _take(x, i, axis):
    key = [slice(None)] * x.ndim
    key[axis] = i
    return x[tuple(key)]
