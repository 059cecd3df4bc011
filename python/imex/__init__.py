"""imex: numpy-style arrays compiled with MLIR, distributed over MPI ranks.

    import imex as xp
    a = xp.linspace(0.0, 1.0, 1000, split=0)   # distributed under mpirun
    b = xp.sin(a) * 2.0 + a                    # recorded, not yet computed
    print(float(xp.sum(b)))                    # compiled, run, reduced

See docs/python.md.
"""

import builtins
import collections
import functools
import itertools
import math
import operator
import sys

import numpy as np

from . import _array, _core, _dtypes
from ._array import ndarray
from ._core import Node
from ._dtypes import (bool, complex64, complex128, float16, float32,  # noqa: A004
                      float64, int8, int16, int32,
                      int64, uint8, uint16, uint32, uint64)

__array_api_version__ = "2024.12"

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
newaxis = None

Array = ndarray


from ._imex import CompileError  # noqa: E402 (a compiler diagnostic)


# --- set-up -----------------------------------------------------------------

def init(comm=None):
    """Distributes arrays created with `split=` over the ranks of `comm`
    (an mpi4py communicator; default MPI_COMM_WORLD) and returns the number
    of ranks. With more than one rank, an uncaught exception on any rank
    ends all of them (MPI_Abort) rather than leaving them waiting."""
    _core.sync()
    if comm is not None:
        _core._State.team = _core.ext().register_team(comm.py2f())
    else:
        _core._State.team = 1
    _core._State.team_info = None
    return _core.team_info()[0]


def nprocs():
    """Ranks of the team distributed arrays live on."""
    return _core.team_info()[0]


def rank():
    """This process's rank in that team."""
    return _core.team_info()[1]


def grid_comm(split):
    """The mpi4py Cartesian communicator (`MPI.Cartcomm`) of the grid of
    ranks that arrays created with `split` (a tuple of axes) are
    distributed over: rank r of the team sits at the grid coordinates of
    its blocks, so `Get_coords`, `Shift` and `Sub` describe the blocks'
    neighbourhood (e.g. for MPI code of one's own on `a._node.data`). Made
    once per grid (collective the first time; MPI_Cart_create, not
    periodic, not reordered). Needs mpi4py."""
    from mpi4py import MPI
    axes = (split,) if isinstance(split, int) else tuple(split)
    handle = _core.ext().grid_comm(_core._State.team, len(axes))
    return MPI.Cartcomm.f2py(handle)


def sync():
    """Evaluates every pending operation."""
    _core.sync()


def stats():
    """Counters of the kernel cache: compiles, cache_hits, disk_hits,
    dispatches."""
    return dict(_core._State.stats)


def comm_stats():
    """This process's communication counters since it started (the
    runtime's, over every kind of exchange): calls, messages_sent,
    bytes_sent, collectives, collective_bytes, local_bytes (copied within
    the process by exchanges)."""
    return dict(_core.ext().comm_stats())


def print0(*args, **kwargs):
    """print() on rank 0 only (the arguments are converted on every rank,
    so that gathers run everywhere)."""
    text = [str(a) for a in args]
    if not _core.under_mpi() or _core.team_info()[1] == 0:
        builtins.print(*text, **kwargs)


# --- creation ---------------------------------------------------------------

def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(operator.index(n) for n in shape)
    if builtins.any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _check_split(split, shape):
    """`split` of a new array of `shape`: None (replicated), 0 (rows) or an
    axis or tuple of axes (split over the balanced grid of the ranks, e.g.
    `(0, 1)` for a 2-D decomposition); see docs/python.md."""
    if split is None or not shape:
        return None
    axes = (split,) if isinstance(split, int) else split
    if (not isinstance(axes, (tuple, list)) or not axes or
            not builtins.all(isinstance(a, int) and 0 <= a < len(shape)
                             for a in axes)
            or list(axes) != sorted(set(axes))):
        raise ValueError(f"split={split!r}: expected an axis or increasing "
                         f"axes of an array of {len(shape)} dimensions")
    return _core.normalize_split(axes, len(shape))


def asarray(obj, /, *, dtype=None, device=None, copy=None, split=None):
    """An array holding `obj` (an array, numpy array, nested sequence or
    scalar). numpy data is copied, unless `copy=False`: then the array
    wraps a C-contiguous numpy array of a supported dtype without copying
    (see from_dlpack for the ownership rule). `split=0` distributes
    dimension 0, `split=(0, 1)` (any increasing axes) the block of the
    balanced grid of the ranks; an array in another distribution is
    redistributed."""
    if isinstance(obj, ndarray):
        if dtype is not None and _dtypes.canonical(dtype) != obj.dtype:
            return astype(obj, dtype)
        if split is not None and obj.split != _check_split(split, obj.shape):
            # A copy in the other distribution: a redistribution (each
            # element moves once), not a gather.
            node = obj._node
            return ndarray(_core.record(Node(
                node.shape, node.dtype, _check_split(split, node.shape),
                "astype", [node], True)))
        return _array._wrap(_copy(obj._node)) if copy else obj
    if copy is False:
        return _wrap_without_copy(obj, dtype, split)
    if isinstance(obj, int) and not isinstance(obj, builtins.bool) and (
            dtype is None):
        _array._check_int_fits(obj, int64)
    data = np.asarray(obj, dtype=None if dtype is None else
                      _dtypes.canonical(dtype))
    if data.dtype == object:
        raise OverflowError("asarray: a Python int does not fit a 64-bit "
                            "integer") if _has_int(obj) else TypeError(
            f"asarray: cannot make an array of {type(obj).__name__}")
    if dtype is None:
        if data.dtype.kind == "f" and data.dtype not in (np.float16,
                                                         np.float32):
            data = data.astype(np.float64)  # (float128)
        elif data.dtype.kind == "c" and data.dtype != np.complex64:
            data = data.astype(np.complex128)  # (complex256)
        elif data.dtype.kind == "i" and data.dtype.itemsize > 8:
            data = data.astype(np.int64)
    _dtypes.to_mlir(data.dtype)
    split = _check_split(split, data.shape)
    return ndarray(_core.concrete(data, split))


from_numpy = asarray


def _has_int(obj):
    if isinstance(obj, (list, tuple)):
        return builtins.any(_has_int(o) for o in obj)
    return isinstance(obj, int)


def _wrap_without_copy(obj, dtype, split):
    data = np.asarray(obj)
    if dtype is not None and _dtypes.canonical(dtype) != data.dtype:
        raise ValueError(f"asarray(copy=False): the data is {data.dtype}, "
                         f"not {_dtypes.canonical(dtype)}; a conversion "
                         f"copies")
    if not data.flags.c_contiguous or not data.flags.writeable:
        raise ValueError("asarray(copy=False): the data must be a writable "
                         "C-contiguous buffer")
    if split is not None:
        raise ValueError("asarray(copy=False): a split array holds only "
                         "this rank's block; distribute a copy")
    _dtypes.to_mlir(data.dtype)
    return ndarray(_core.concrete(data, copy=False))


def from_dlpack(x, /, *, device=None, copy=None):
    """An array on the data of any DLPack producer (a numpy array, an imex
    array, ...; host memory, every dtype). A writable C-contiguous buffer
    is not copied (unless `copy=True`; a strided one is, unless
    `copy=False`, which then raises BufferError), and the ownership rule is
    numpy's: the imex array keeps the producer's buffer alive and aliases
    it; writes through either are seen by the other once the imex array is
    synchronized (operations are deferred: do not write the buffer from
    outside while operations on the imex array are pending, and call
    `imex.sync()` before reading the buffer after writing through imex)."""
    if device is not None and device != "cpu":
        raise ValueError(f"from_dlpack: unknown device {device!r}")
    if isinstance(x, np.ndarray):
        data = x
    else:
        try:
            capsule = x.__dlpack__(copy=copy) if copy is not None else \
                x.__dlpack__()
        except TypeError:  # (a producer before the copy keyword)
            capsule = x.__dlpack__()
        data = _core.ext().from_dlpack(capsule)
    if copy or (copy is None and not (data.flags.writeable and
                                      data.flags.c_contiguous)):
        return asarray(data, copy=True)
    if not data.flags.c_contiguous:
        raise BufferError("from_dlpack(copy=False): the producer's data is "
                          "strided; imex arrays are C-contiguous")
    return _wrap_without_copy(data, None, None)


def _copy(node):
    return _core.record(Node(node.shape, node.dtype, node.split, "astype",
                             [node], True))


def _full(shape, fill, dtype, split):
    shape = _shape_tuple(shape)
    dtype = _dtypes.canonical(dtype)
    split = _check_split(split, shape)
    if split is not None:
        _core.team_info()
    return ndarray(_core.record(Node(shape, dtype, split, "full",
                                     attrs=fill)))


def _fill_dtype(fill, dtype):
    if dtype is not None:
        return dtype
    if isinstance(fill, builtins.bool):
        return _dtypes.bool
    if isinstance(fill, int):
        return _dtypes.int64
    if isinstance(fill, complex):
        return _dtypes.complex128
    return _dtypes.float64


def empty(shape, *, dtype=None, device=None, split=None):
    return _full(shape, None, dtype or float64, split)


def zeros(shape, *, dtype=None, device=None, split=None):
    return _full(shape, 0, dtype or float64, split)


def ones(shape, *, dtype=None, device=None, split=None):
    return _full(shape, 1, dtype or float64, split)


def full(shape, fill_value, *, dtype=None, device=None, split=None):
    if isinstance(fill_value, ndarray):
        fill_value = fill_value.to_numpy()[()].item()
    return _full(shape, fill_value, _fill_dtype(fill_value, dtype), split)


def _like(x, dtype, split):
    return (x.shape, dtype or x.dtype, x.split if split is None else split)


def empty_like(x, /, *, dtype=None, device=None, split=None):
    shape, dtype, split = _like(x, dtype, split)
    return empty(shape, dtype=dtype, split=split)


def zeros_like(x, /, *, dtype=None, device=None, split=None):
    shape, dtype, split = _like(x, dtype, split)
    return zeros(shape, dtype=dtype, split=split)


def ones_like(x, /, *, dtype=None, device=None, split=None):
    shape, dtype, split = _like(x, dtype, split)
    return ones(shape, dtype=dtype, split=split)


def full_like(x, /, fill_value, *, dtype=None, device=None, split=None):
    shape, dtype, split = _like(x, dtype, split)
    return full(shape, fill_value, dtype=dtype, split=split)


def linspace(start, stop, /, num, *, dtype=None, device=None,
             endpoint=True, split=None):
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: num must be >= 0, not {num}")
    dtype = _dtypes.canonical(dtype or float64)
    split = _check_split(split, (num,))
    if split is not None:
        _core.team_info()
    return ndarray(_core.record(Node(
        (num,), dtype, split, "linspace",
        attrs=(float(start), float(stop), num, builtins.bool(endpoint)))))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None,
           split=None):
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ValueError("arange: step must not be 0")
    ints = builtins.all(isinstance(v, int) for v in (start, stop, step))
    # (Exact for Python ints of any size: the values are start + i * step.)
    num = builtins.max(0, -((start - stop) // step) if ints else
                       math.ceil((stop - start) / step))
    dtype = _dtypes.canonical(dtype or (int64 if ints else float64))
    index = linspace(0, num, num, endpoint=False, split=split)
    if dtype.kind in "iu" and ints:
        # In 64-bit integers: float64 holds no integer beyond 2**53 exactly.
        wide = uint64 if dtype.kind == "u" and start >= 0 and step > 0 \
            else int64
        values = astype(index, wide) * step + start
    else:
        values = index * step + start
        if dtype.kind in "iu":
            values = floor(values)
    return astype(values, dtype) if values.dtype != dtype else values


def _tri(shape, k, dtype, split):
    """numpy's tri: ones where column - row <= k (ndarray.tri; computed
    block by block when split, without communication)."""
    shape = tuple(operator.index(n) for n in shape)
    if len(shape) != 2 or builtins.min(shape) < 0:
        raise ValueError(f"tri: a 2-d shape of sizes >= 0, not {shape}")
    split = _check_split(split, shape)
    if split is not None:
        _core.team_info()
    return ndarray(_core.record(Node(shape, _dtypes.canonical(dtype), split,
                                     "tri", attrs=(operator.index(k),))))


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None,
        split=None):
    shape = (n_rows, n_rows if n_cols is None else n_cols)
    # (A diagonal beyond the matrix is all zeros: any k of that side.)
    k = builtins.max(builtins.min(operator.index(k), shape[1]), -shape[0])
    band = logical_and(_tri(shape, k, bool, split),
                       logical_not(_tri(shape, k - 1, bool, split)))
    return astype(band, dtype or float64)


def _triangle(x, k, lower):
    if x.ndim < 2:
        raise ValueError(f"{'tril' if lower else 'triu'}: x must have at "
                         f"least 2 dimensions, not {x.ndim}")
    # The mask of the last two dimensions, split as x's rows where those
    # are them.
    split = x.split if x.ndim == 2 else None
    mask = _tri(x.shape[-2:], k if lower else k - 1, bool, split)
    zero = zeros((), dtype=x.dtype)
    return where(mask, x, zero) if lower else where(mask, zero, x)


def tril(x, /, *, k=0):
    """The elements of x on and below the k-th diagonal of its last two
    dimensions, zeros above."""
    return _triangle(x, k, lower=True)


def triu(x, /, *, k=0):
    """The elements of x on and above the k-th diagonal of its last two
    dimensions, zeros below."""
    return _triangle(x, k, lower=False)


# --- elementwise ------------------------------------------------------------

_BINARY = ["add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
           "bitwise_right_shift", "bitwise_xor", "copysign", "divide",
           "equal", "floor_divide", "greater", "greater_equal", "hypot",
           "less", "less_equal", "logaddexp", "logical_and", "logical_or",
           "logical_xor", "maximum", "minimum", "multiply", "nextafter",
           "not_equal",
           "pow", "remainder", "subtract"]
_UNARY = ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh",
          "bitwise_invert", "ceil", "cos", "cosh", "exp", "expm1", "floor",
          "isfinite", "isinf", "isnan", "log", "log1p", "log2", "log10",
          "logical_not", "negative", "positive", "round", "sign", "signbit",
          "sin", "sinh", "sqrt", "square", "tan", "tanh", "trunc",
          "real", "imag", "conj",
          "erf"]  # erf: not in the array API, but in the dialect


def _make_binary(kind):
    def function(x1, x2, /):
        return _array._binary(kind, x1, x2)
    function.__name__ = function.__qualname__ = kind
    function.__doc__ = f"Elementwise {kind} (array API), with broadcasting."
    return function


def _make_unary(kind):
    def function(x, /):
        return _array._unary(kind, x)
    function.__name__ = function.__qualname__ = kind
    function.__doc__ = f"Elementwise {kind} (array API)."
    return function


for _kind in _BINARY:
    globals()[_kind] = _make_binary(_kind)
for _kind in _UNARY:
    globals()[_kind] = _make_unary(_kind)
abs = globals()["abs"]  # noqa: A001
round = globals()["round"]  # noqa: A001
arccos, arcsin, arctan = acos, globals()["asin"], globals()["atan"]
power = globals()["pow"]


def reciprocal(x, /):
    """Elementwise 1 / x (array API)."""
    return divide(1.0, x)


def _not_implemented(name):
    def function(*args, **kwargs):
        raise NotImplementedError(f"{name} is not supported by imex yet")
    function.__name__ = name
    return function


def where(condition, x1, x2, /):
    c = _array._operand(condition)
    if not isinstance(c, Node):
        c = _core.record(_array._scalar_node(c))
    a = _array._operand(x1)
    b = _array._operand(x2, a.dtype if isinstance(a, Node) else None)
    if not isinstance(a, Node):
        a = _array._operand(x1, b.dtype if isinstance(b, Node) else None)
    nodes = [n if isinstance(n, Node) else _core.record(
        _array._scalar_node(n)) for n in (a, b)]
    dtype = _dtypes.from_mlir(_core.ext().promote(
        _dtypes.to_mlir(nodes[0].dtype), _dtypes.to_mlir(nodes[1].dtype)))
    shape = np.broadcast_shapes(c.shape, nodes[0].shape, nodes[1].shape)
    inputs = [c] + nodes
    return ndarray(_core.record(Node(shape, dtype, _array._split_of(
        inputs, len(shape)), "where", inputs)))


def astype(x, dtype, /, *, copy=True, device=None):
    dtype = _dtypes.canonical(dtype)
    if dtype == x.dtype and not copy:
        return x
    node = x._node
    return ndarray(_core.record(Node(node.shape, dtype, node.split,
                                     "astype", [node],
                                     builtins.bool(copy))))


ndarray.astype = lambda self, dtype, copy=True: astype(self, dtype, copy=copy)
ndarray.to_device = lambda self, device, /, *, stream=None: self


# --- reductions -------------------------------------------------------------

def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, int):
        axis = (axis,)
    result = []
    for a in axis:
        if not -ndim <= a < ndim:
            raise ValueError(f"axis {a} is out of bounds for array of "
                             f"dimension {ndim}")
        result.append(a % ndim)
    if len(set(result)) != len(result):
        raise ValueError("repeated axis")
    return tuple(sorted(result))


def _reduce(kind, x, axis, keepdims, correction=0.0):
    if x.dtype == _dtypes.float16 and kind in ("sum", "prod", "mean", "var",
                                                "std"):
        # numpy accumulates float16 in float32 and rounds once: partial
        # sums and products would overflow float16 (inf, then inf * 0).
        wide = _reduce(kind, astype(x, _dtypes.float32), axis, keepdims,
                       correction)
        return astype(wide, _dtypes.float16)
    node = x._node
    axes = _axes(axis, x.ndim)
    if kind in ("min", "max") and builtins.any(node.shape[a] == 0
                                               for a in axes):
        raise ValueError(f"zero-size array to reduction operation {kind} "
                         "which has no identity")
    dtype = _dtypes.from_mlir(_core.ext().reduction_dtype(
        kind, _dtypes.to_mlir(node.dtype)))
    shape = []
    for d, n in enumerate(node.shape):
        if d in axes:
            if keepdims:
                shape.append(1)
        else:
            shape.append(n)
    split = None if 0 in axes else node.split
    return ndarray(_core.record(Node(shape, dtype, split, "reduction",
                                     [node], (kind, axes,
                                              builtins.bool(keepdims),
                                              float(correction)))))


def _cumulative(kind, x, axis, dtype, include_initial):
    node = x._node
    if axis is None:
        if x.ndim != 1:
            raise ValueError(f"cumulative_{kind}: axis is required for "
                             f"arrays of {x.ndim} dimensions")
        axis = 0
    axis = _axis(axis, x.ndim, f"cumulative_{kind}")
    result_dtype = _dtypes.from_mlir(_core.ext().reduction_dtype(
        kind, _dtypes.to_mlir(node.dtype)))
    shape = list(node.shape)
    if include_initial:
        shape[axis] += 1
    result = ndarray(_core.record(Node(
        shape, result_dtype, node.split, "cumulative",
        [node], (kind, axis, builtins.bool(include_initial)))))
    if dtype is not None and _dtypes.canonical(dtype) != result_dtype:
        result = astype(result, dtype)
    return result


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("sum", x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
    return _cumulative("prod", x, axis, dtype, include_initial)


def _accumulating(kind, x, axis, dtype, keepdims):
    """sum or prod with `dtype`: accumulated in `dtype` as numpy does (the
    elements converted first); integer results wrap as they would, so they
    are reduced in the default width and converted at the end."""
    if dtype is None:
        return _reduce(kind, x, axis, keepdims)
    dtype = _dtypes.canonical(dtype)
    if dtype.kind in "fc":
        return _reduce(kind, astype(x, dtype, copy=False), axis, keepdims)
    return astype(_reduce(kind, x, axis, keepdims), dtype)


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    return _accumulating("sum", x, axis, dtype, keepdims)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    return _accumulating("prod", x, axis, dtype, keepdims)


def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("min", x, axis, keepdims)


def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("max", x, axis, keepdims)


def mean(x, /, *, axis=None, keepdims=False):
    return _reduce("mean", x, axis, keepdims)


def var(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _reduce("var", x, axis, keepdims, correction)


def std(x, /, *, axis=None, correction=0.0, keepdims=False):
    return _reduce("std", x, axis, keepdims, correction)


def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("any", x, axis, keepdims)


def all(x, /, *, axis=None, keepdims=False):  # noqa: A001
    return _reduce("all", x, axis, keepdims)


def _require_order(x, name):
    """TypeError for complex arrays, whose values have no order."""
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex numbers ({x.dtype}) have no order")


def _argreduce(kind, x, axis, keepdims):
    node = x._node
    name = f"arg{kind}"
    _require_order(x, name)
    if axis is not None:
        axis = _axis(axis, x.ndim, name)
    reduced = range(x.ndim) if axis is None else (axis,)
    if builtins.any(node.shape[a] == 0 for a in reduced):
        raise ValueError(f"attempt to get {name} of an empty sequence")
    shape = []
    for d, n in enumerate(node.shape):
        if d not in reduced:
            shape.append(n)
        elif keepdims:
            shape.append(1)
    split = node.split if axis not in (None, 0) else None
    return ndarray(_core.record(Node(shape, _dtypes.int64, split,
                                     "argreduce", [node],
                                     (kind, axis, builtins.bool(keepdims)))))


def argmax(x, /, *, axis=None, keepdims=False):
    return _argreduce("max", x, axis, keepdims)


def argmin(x, /, *, axis=None, keepdims=False):
    return _argreduce("min", x, axis, keepdims)


for _name in ["sum", "prod", "min", "max", "mean", "var", "std", "any",
              "all", "argmax", "argmin"]:
    setattr(ndarray, _name, (lambda f: lambda self, **kw: f(self, **kw))(
        globals()[_name]))


def count_nonzero(x, /, *, axis=None, keepdims=False):
    return sum(astype(not_equal(x, 0), int64), axis=axis, keepdims=keepdims)


# --- the parts of the namespace in other files ------------------------------

from ._loops import (  # noqa: E402
    _loop_index,
    _loop_keys,
    _loop_results,
    _loop_values,
    _permuting_loop,
    fori_loop,
    jit,
    while_loop,
)
from ._manipulation import (  # noqa: E402
    _axis,
    _repeat_each,
    _sort,
    argsort,
    broadcast_arrays,
    broadcast_to,
    clip,
    concat,
    diff,
    expand_dims,
    flip,
    matmul,
    matrix_transpose,
    meshgrid,
    moveaxis,
    outer,
    permute_dims,
    repeat,
    reshape,
    roll,
    sort,
    squeeze,
    stack,
    tensordot,
    tile,
    unstack,
    vecdot,
)
from ._info import (  # noqa: E402
    __array_namespace_info__,
    can_cast,
    finfo,
    iinfo,
    isdtype,
    result_type,
)
from ._indexing import (  # noqa: E402
    UniqueAllResult,
    UniqueCountsResult,
    UniqueInverseResult,
    _check_mask,
    _counts,
    _array_index,
    _integer_assign,
    _masked_assign,
    _masked_select,
    _put,
    _unique,
    nonzero,
    searchsorted,
    take,
    take_along_axis,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)


def to_numpy(x, /):
    return x.to_numpy()


ndarray.reshape = lambda self, *shape: reshape(
    self, shape[0] if len(shape) == 1 else shape)

_array.negative = globals()["negative"]
_array.positive = globals()["positive"]
_array.abs = abs
_array.bitwise_invert = globals()["bitwise_invert"]
_array.matmul = matmul
_array.permute_dims = permute_dims
_array.asarray = asarray
_array.reshape = reshape
_array.masked_select = _masked_select
_array.masked_assign = _masked_assign
_array.integer_assign = _integer_assign
_array.array_index = _array_index
_array.broadcast_to = broadcast_to
_array.take = take

del _kind, _name

from . import fft, linalg, random  # noqa: E402  (use the functions above)
