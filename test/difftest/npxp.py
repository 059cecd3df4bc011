"""The numpy oracle: the array-API names the generated programs use, over
numpy (1.24 here, with NEP 50 "weak" promotion of Python scalars, as
imex and numpy 2 do), with imex's documented differences from numpy
(docs/python.md): bool is not numeric, rounding keeps integers, complex
numbers have no order, `split=` is accepted and ignored.

`namespace()` gives the dict a program runs in (see harness.py): `xp` is
this module, `inp(a, split)` returns `a`, `jit` is the identity and
`fori_loop` a Python loop.
"""

import builtins
import collections
import math
import sys
import types

import numpy as np

if hasattr(np, "_set_promotion_state"):
    np._set_promotion_state("weak")

bool = np.bool_  # noqa: A001
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
e, pi, inf, nan, newaxis = math.e, math.pi, math.inf, math.nan, None
ndarray = np.ndarray


def _arr(x):
    return x if isinstance(x, np.ndarray) else np.asarray(x)


def _kind(x):
    if isinstance(x, np.ndarray) or isinstance(x, np.generic):
        return x.dtype.kind
    if isinstance(x, builtins.bool):
        return "b"
    if isinstance(x, int):
        return "i"
    if isinstance(x, float):
        return "f"
    if isinstance(x, complex):
        return "c"
    return "?"


def _no_bool(name, *xs):
    if builtins.any(_kind(x) == "b" for x in xs):
        raise TypeError(f"{name}: bool is not a numeric type")


def _ordered(name, *xs):
    if builtins.any(_kind(x) == "c" for x in xs):
        raise TypeError(f"{name}: complex numbers have no order")


# --- creation -------------------------------------------------------------

def asarray(obj, dtype=None, copy=None, split=None):
    if isinstance(obj, np.ndarray) and dtype is None:
        return obj.copy() if copy else obj
    return np.array(obj, dtype=dtype)


def zeros(shape, *, dtype=None, split=None):
    return np.zeros(shape, dtype=dtype or np.float64)


def ones(shape, *, dtype=None, split=None):
    return np.ones(shape, dtype=dtype or np.float64)


def full(shape, fill_value, *, dtype=None, split=None):
    if dtype is None:
        dtype = {"b": np.bool_, "i": np.int64, "f": np.float64,
                 "c": np.complex128}[_kind(fill_value)]
    return np.full(shape, fill_value, dtype=dtype)


def arange(start, stop=None, step=1, *, dtype=None, split=None):
    return np.arange(start, stop, step, dtype=dtype)


def linspace(start, stop, num, *, dtype=None, endpoint=True, split=None):
    return np.linspace(start, stop, num, dtype=dtype or np.float64,
                       endpoint=endpoint)


def eye(n_rows, n_cols=None, *, k=0, dtype=None, split=None):
    return np.eye(n_rows, n_cols, k=k, dtype=dtype or np.float64)


def zeros_like(x, *, dtype=None, split=None):
    return np.zeros_like(x, dtype=dtype)


def ones_like(x, *, dtype=None, split=None):
    return np.ones_like(x, dtype=dtype)


def tril(x, *, k=0):
    return np.tril(x, k)


def triu(x, *, k=0):
    return np.triu(x, k)


# --- elementwise ------------------------------------------------------------

def _binary(name, f, numeric=False, ordered=False):
    def function(x1, x2):
        if numeric:
            _no_bool(name, x1, x2)
        if ordered:
            _ordered(name, x1, x2)
        return f(x1, x2)
    function.__name__ = name
    return function


def _unary(name, f, numeric=False, ordered=False, keep_int=False):
    def function(x):
        if numeric:
            _no_bool(name, x)
        if ordered:
            _ordered(name, x)
        if keep_int and _kind(x) in "iu":
            return np.array(x, copy=True)
        return f(x)
    function.__name__ = name
    return function


_B = {"add": (np.add, 1, 0), "subtract": (np.subtract, 1, 0),
      "multiply": (np.multiply, 1, 0), "divide": (np.true_divide, 1, 0),
      "floor_divide": (lambda x, y: _floor_divide(x, y), 1, 1),
      "remainder": (np.remainder, 1, 1), "pow": (np.power, 1, 0),
      "atan2": (np.arctan2, 1, 1), "hypot": (np.hypot, 1, 1),
      "copysign": (np.copysign, 1, 1), "logaddexp": (np.logaddexp, 1, 1),
      "nextafter": (np.nextafter, 1, 1),
      "maximum": (np.maximum, 0, 1), "minimum": (np.minimum, 0, 1),
      "bitwise_and": (np.bitwise_and, 0, 0),
      "bitwise_or": (np.bitwise_or, 0, 0),
      "bitwise_xor": (np.bitwise_xor, 0, 0),
      "bitwise_left_shift": (np.left_shift, 1, 0),
      "bitwise_right_shift": (np.right_shift, 1, 0),
      "equal": (np.equal, 0, 0), "not_equal": (np.not_equal, 0, 0),
      "less": (np.less, 0, 1), "less_equal": (np.less_equal, 0, 1),
      "greater": (np.greater, 0, 1),
      "greater_equal": (np.greater_equal, 0, 1),
      "logical_and": (np.logical_and, 0, 0),
      "logical_or": (np.logical_or, 0, 0),
      "logical_xor": (np.logical_xor, 0, 0)}
for _n, (_f, _num, _ord) in _B.items():
    globals()[_n] = _binary(_n, _f, _num, _ord)
power = globals()["pow"]

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _floor_divide(x, y):
    """numpy's, but for infinite float operands the array API's x / y
    (inf // 2 is inf, 1 // -inf is -0; numpy 1 gives nan and -1)."""
    result = np.floor_divide(x, y)
    if _kind(result) != "f":
        return result
    infinite = np.isinf(x) | np.isinf(y)
    if not np.any(infinite):
        return result
    return np.where(infinite, np.true_divide(x, y), result).astype(
        result.dtype)


def _complex_sign(x):
    """The array API's sign of complex numbers, z / |z| (numpy 1 gives the
    sign of the real part)."""
    x = np.asarray(x)
    size = np.abs(x)
    return np.where(size == 0, 0, x / np.where(size == 0, 1, size)).astype(
        x.dtype)


def _erf_typed(x):
    x = np.asarray(x)
    return _erf(x).astype(x.dtype if x.dtype.kind == "f" else np.float64)


_U = {"abs": (np.abs, 1, 0, 0), "negative": (np.negative, 1, 0, 0),
      "positive": (np.positive, 1, 0, 0), "square": (np.square, 1, 0, 0),
      "sqrt": (np.sqrt, 1, 0, 0), "exp": (np.exp, 1, 0, 0),
      "expm1": (np.expm1, 1, 0, 0), "log": (np.log, 1, 0, 0),
      "log1p": (np.log1p, 1, 0, 0), "log2": (np.log2, 1, 0, 0),
      "log10": (np.log10, 1, 0, 0), "sin": (np.sin, 1, 0, 0),
      "cos": (np.cos, 1, 0, 0), "tan": (np.tan, 1, 0, 0),
      "asin": (np.arcsin, 1, 0, 0), "acos": (np.arccos, 1, 0, 0),
      "atan": (np.arctan, 1, 0, 0), "sinh": (np.sinh, 1, 0, 0),
      "cosh": (np.cosh, 1, 0, 0), "tanh": (np.tanh, 1, 0, 0),
      "asinh": (np.arcsinh, 1, 0, 0), "acosh": (np.arccosh, 1, 0, 0),
      "atanh": (np.arctanh, 1, 0, 0), "erf": (_erf_typed, 1, 0, 0),
      "floor": (np.floor, 1, 1, 1), "ceil": (np.ceil, 1, 1, 1),
      "trunc": (np.trunc, 1, 1, 1), "round": (np.round, 1, 0, 1),
      "sign": (lambda x: _complex_sign(x) if _kind(x) == "c" else
               np.sign(x) + 0, 1, 0, 0),
      "signbit": (np.signbit, 0, 1, 0),
      "reciprocal": (np.reciprocal, 1, 0, 0),
      "isnan": (np.isnan, 0, 0, 0), "isinf": (np.isinf, 0, 0, 0),
      "isfinite": (np.isfinite, 0, 0, 0),
      "bitwise_invert": (np.invert, 0, 0, 0),
      "logical_not": (np.logical_not, 0, 0, 0),
      "real": (lambda x: np.array(np.real(x), copy=True), 0, 0, 0),
      "imag": (lambda x: np.array(np.imag(x), copy=True), 0, 0, 0),
      "conj": (np.conj, 0, 0, 0)}
for _n, (_f, _num, _ord, _ki) in _U.items():
    globals()[_n] = _unary(_n, _f, _num, _ord, _ki)
abs = globals()["abs"]  # noqa: A001
round = globals()["round"]  # noqa: A001


def where(condition, x1, x2):
    return np.where(condition, x1, x2)


def astype(x, dtype, copy=True):
    return x.astype(dtype, copy=copy)


def clip(x, min=None, max=None):  # noqa: A002
    _ordered("clip", x)
    if min is None and max is None:
        return x.copy()
    return np.clip(x, min, max)


# --- reductions -------------------------------------------------------------

def _sum_dtype(x, dtype):
    if dtype is not None:
        return dtype
    k = x.dtype.kind
    if k == "i":
        return np.int64
    if k == "u":
        return np.uint64
    return None


def sum(x, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    _no_bool("sum", x)
    return np.sum(x, axis=axis, dtype=_sum_dtype(x, dtype),
                  keepdims=keepdims)


def prod(x, *, axis=None, dtype=None, keepdims=False):
    _no_bool("prod", x)
    return np.prod(x, axis=axis, dtype=_sum_dtype(x, dtype),
                   keepdims=keepdims)


def min(x, *, axis=None, keepdims=False):  # noqa: A001
    _ordered("min", x)
    return np.min(x, axis=axis, keepdims=keepdims)


def max(x, *, axis=None, keepdims=False):  # noqa: A001
    _ordered("max", x)
    return np.max(x, axis=axis, keepdims=keepdims)


def mean(x, *, axis=None, keepdims=False):
    _no_bool("mean", x)
    return np.mean(x, axis=axis, keepdims=keepdims)


def var(x, *, axis=None, correction=0.0, keepdims=False):
    _no_bool("var", x)
    return np.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def std(x, *, axis=None, correction=0.0, keepdims=False):
    _no_bool("std", x)
    return np.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def any(x, *, axis=None, keepdims=False):  # noqa: A001
    return np.any(x, axis=axis, keepdims=keepdims)


def all(x, *, axis=None, keepdims=False):  # noqa: A001
    return np.all(x, axis=axis, keepdims=keepdims)


def count_nonzero(x, *, axis=None, keepdims=False):
    r = np.count_nonzero(x, axis=axis, keepdims=keepdims)
    return np.asarray(r, dtype=np.int64)


def argmax(x, *, axis=None, keepdims=False):
    _ordered("argmax", x)
    return np.asarray(np.argmax(x, axis=axis, keepdims=keepdims),
                      dtype=np.int64)


def argmin(x, *, axis=None, keepdims=False):
    _ordered("argmin", x)
    return np.asarray(np.argmin(x, axis=axis, keepdims=keepdims),
                      dtype=np.int64)


def _cumulative(f, name, x, axis, dtype, include_initial, initial):
    _no_bool(name, x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"{name}: axis is required for more than one "
                             f"dimension")
        axis = 0
    r = f(x, axis=axis, dtype=_sum_dtype(x, dtype))
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        r = np.concatenate([np.full(shape, initial, r.dtype), r], axis=axis)
    return r


def cumulative_sum(x, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(np.cumsum, "cumulative_sum", x, axis, dtype,
                       include_initial, 0)


def cumulative_prod(x, *, axis=None, dtype=None, include_initial=False):
    return _cumulative(np.cumprod, "cumulative_prod", x, axis, dtype,
                       include_initial, 1)


# --- manipulation -----------------------------------------------------------

def reshape(x, shape, *, copy=None):
    return np.reshape(x, shape)


def permute_dims(x, axes):
    return np.transpose(x, axes)


def matrix_transpose(x):
    return np.swapaxes(x, -1, -2)


def broadcast_to(x, shape):
    return np.broadcast_to(x, shape)


def expand_dims(x, *, axis=0):
    return np.expand_dims(x, axis)


def squeeze(x, axis):
    return np.squeeze(x, axis)


def concat(arrays, *, axis=0):
    return np.concatenate(arrays, axis=axis)


def stack(arrays, *, axis=0):
    return np.stack(arrays, axis=axis)


def moveaxis(x, source, destination):
    return np.moveaxis(x, source, destination)


def flip(x, *, axis=None):
    return np.flip(x, axis)


def roll(x, shift, *, axis=None):
    return np.roll(x, shift, axis)


def tile(x, repetitions):
    return np.tile(x, repetitions)


def repeat(x, repeats, *, axis=None):
    return np.repeat(x, repeats, axis)


def diff(x, *, axis=-1, n=1, prepend=None, append=None):
    kw = {}
    if prepend is not None:
        kw["prepend"] = prepend
    if append is not None:
        kw["append"] = append
    return np.diff(x, n=n, axis=axis, **kw)


def matmul(x1, x2):
    _no_bool("matmul", x1, x2)
    return np.matmul(x1, x2)


def vecdot(x1, x2, *, axis=-1):
    _no_bool("vecdot", x1, x2)
    products = np.conj(x1) * x2
    return np.sum(products, axis=axis, dtype=products.dtype)


def tensordot(x1, x2, *, axes=2):
    _no_bool("tensordot", x1, x2)
    return np.tensordot(x1, x2, axes)


def outer(x1, x2):
    _no_bool("outer", x1, x2)
    return np.outer(x1, x2)


# --- sorting, searching, sets, indexing ---------------------------------------

def sort(x, *, axis=-1, descending=False, stable=True):
    _ordered("sort", x)
    r = np.sort(x, axis=axis, kind="stable")
    return np.flip(r, axis=axis).copy() if descending else r


def argsort(x, *, axis=-1, descending=False, stable=True):
    _ordered("argsort", x)
    if not descending:
        return np.argsort(x, axis=axis, kind="stable").astype(np.int64)
    n = x.shape[axis]
    s = np.argsort(np.flip(x, axis=axis), axis=axis, kind="stable")
    return (n - 1 - np.flip(s, axis=axis)).astype(np.int64)


def searchsorted(x1, x2, *, side="left", sorter=None):
    _ordered("searchsorted", x1, x2)
    return np.searchsorted(x1, x2, side=side, sorter=sorter).astype(
        np.int64)


# (Complex values sort by real, then imaginary part, as numpy's.)
def unique_values(x):
    return np.unique(x)


_UniqueAll = collections.namedtuple(
    "UniqueAllResult", "values indices inverse_indices counts")
_UniqueCounts = collections.namedtuple("UniqueCountsResult", "values counts")
_UniqueInverse = collections.namedtuple("UniqueInverseResult",
                                        "values inverse_indices")


def unique_all(x):
    x = np.asarray(x)
    v, i, inv, c = np.unique(x, return_index=True, return_inverse=True,
                             return_counts=True)
    return _UniqueAll(v, i.astype(np.int64),
                      inv.reshape(x.shape).astype(np.int64),
                      c.astype(np.int64))


def unique_counts(x):
    v, c = np.unique(x, return_counts=True)
    return _UniqueCounts(v, c.astype(np.int64))


def unique_inverse(x):
    x = np.asarray(x)
    v, inv = np.unique(x, return_inverse=True)
    return _UniqueInverse(v, inv.reshape(x.shape).astype(np.int64))


def take(x, indices, *, axis=None):
    if axis is None and x.ndim > 1:
        raise ValueError("take: axis is required for more than one dimension")
    return np.take(x, indices, axis=axis)


def take_along_axis(x, indices, *, axis=-1):
    return np.take_along_axis(x, indices, axis)


def nonzero(x):
    return tuple(i.astype(np.int64) for i in np.nonzero(x))


def sync():
    pass


# --- the namespace programs run in ------------------------------------------

def _fori_loop(lower, upper, body, init):
    for i in range(lower, upper):
        init = body(i, init)
    return init


# --- extensions -------------------------------------------------------------

def _single_precision(f):
    """numpy.fft computes in double precision; imex keeps float32 and
    complex64 inputs in single precision (docs/python.md)."""
    def transform(x, *args, **kwargs):
        x = _arr(x)
        y = f(x, *args, **kwargs)
        if x.dtype in (np.float32, np.complex64):
            y = y.astype(np.complex64 if y.dtype.kind == "c" else np.float32)
        return y
    return transform


fft = types.SimpleNamespace(
    **{name: _single_precision(getattr(np.fft, name))
       for name in ("fft", "ifft", "fftn", "ifftn", "rfft", "irfft",
                    "rfftn", "irfftn", "hfft", "ihfft")},
    fftshift=np.fft.fftshift, ifftshift=np.fft.ifftshift)


def _diagonal(x, *, offset=0):
    return np.diagonal(x, offset, axis1=-2, axis2=-1)


def _trace(x, *, offset=0, dtype=None):
    return sum(_diagonal(x, offset=offset), axis=-1, dtype=dtype)


linalg = types.SimpleNamespace(
    inv=np.linalg.inv, det=np.linalg.det, solve=np.linalg.solve,
    cholesky=np.linalg.cholesky, eigvalsh=np.linalg.eigvalsh,
    svdvals=lambda x: np.linalg.svd(x, compute_uv=False),
    matrix_power=np.linalg.matrix_power,
    cross=lambda x1, x2, *, axis=-1: np.cross(x1, x2, axis=axis),
    diagonal=_diagonal, trace=_trace, matmul=matmul, outer=outer)


def namespace():
    return {"xp": sys.modules[__name__], "np": np, "nan": nan, "inf": inf,
            "inp": lambda a, split=None: a, "jit": lambda f: f,
            "fori_loop": _fori_loop}
