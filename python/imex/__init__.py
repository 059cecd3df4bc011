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

__array_api_version__ = "2023.12"

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


def sync():
    """Evaluates every pending operation."""
    _core.sync()


def stats():
    """Counters of the kernel cache: compiles, cache_hits, disk_hits,
    dispatches."""
    return dict(_core._State.stats)


def print0(*args, **kwargs):
    """print() on rank 0 only (the arguments are converted on every rank,
    so that gathers run everywhere)."""
    text = [str(a) for a in args]
    if not _core.under_mpi() or _core.team_info()[1] == 0:
        builtins.print(*text, **kwargs)


# --- compiled functions -----------------------------------------------------

def jit(function):
    """Compiles `function` over arrays as one kernel per call signature.

    The function is traced with the arrays it is called with: its array
    operations and in-place updates are recorded (not run) and compiled
    together, so a whole time-step loop written with `fori_loop` is one
    compiled function. Kernels are cached by structure (dtypes, ranks,
    distribution), so later calls with other sizes or scalars only
    dispatch. Inside, arrays have no values: converting one to numpy or a
    Python scalar raises RuntimeError (return it instead).
    """
    @functools.wraps(function)
    def traced(*args, **kwargs):
        if _core._State.tracing:
            return function(*args, **kwargs)  # nested: part of the trace
        _core.sync()
        _core._State.tracing += 1
        try:
            result = function(*args, **kwargs)
            _core.sync()
        except BaseException:
            _core._State.pending.clear()
            _core._State.pending_views.clear()
            _core._State.scopes.clear()
            raise
        finally:
            _core._State.tracing -= 1
        return result
    return traced


_loop_keys = itertools.count()


def _loop_index(key, scale, offset, lower):
    """The index of an iteration of a traced fori_loop, as a 0-d int64
    array: `lower + offset + scale * iv` with `iv` the induction variable
    of the compiled loop `key` (None: an iteration traced outside it)."""
    return ndarray(Node((), int64, None, "loop_index",
                        attrs=(key, scale, offset, lower)))


def _loop_values(name, init_val):
    """(single, list of arrays) of a loop's initial value."""
    single = isinstance(init_val, ndarray)
    inits = [init_val] if single else list(init_val)
    if not inits or not builtins.all(isinstance(a, ndarray) for a in inits):
        raise TypeError(f"{name}: init_val must be an array or a tuple of "
                        "arrays")
    return single, inits


def _loop_results(name, out, inits, single):
    """The arrays a loop body returned, checked against the initial ones."""
    outs = [out] if single else list(out)
    if len(outs) != len(inits):
        raise TypeError(f"{name}: the body returned {len(outs)} values for "
                        f"{len(inits)} loop-carried arrays")
    outs = [o if isinstance(o, ndarray) else asarray(o) for o in outs]
    for k, (o, n) in enumerate(zip(outs, inits)):
        if o.shape != n.shape or o.dtype != n.dtype:
            raise TypeError(f"{name}: value {k} changes from shape {n.shape} "
                            f"{n.dtype} to {o.shape} {o.dtype} in the body")
    return outs


def fori_loop(lower, upper, body, init_val):
    """`for i in range(lower, upper): val = body(i, val)`; returns val.

    `init_val` is an array or a tuple of arrays. Inside an @imex.jit
    function the loop stays a loop in the compiled code (the number of
    iterations is a run-time argument); elsewhere it runs in Python. The
    body may update arrays in place. A body that returns its arrays
    unchanged or permuted (`return v, u`: double buffering) updates them in
    place, as in Python; a body that returns new arrays carries them.
    Under jit, the body's `i` is a 0-d int64 array holding the index.
    """
    lower, upper = operator.index(lower), operator.index(upper)
    if not _core._State.tracing:
        value = init_val
        for i in range(lower, upper):
            value = body(i, value)
        return value
    single, inits = _loop_values("fori_loop", init_val)
    key = next(_loop_keys)

    def call(values, index, scope=None):
        """Traces one iteration into `scope` (None: where the loop is)."""
        if scope is not None:
            _core._State.scopes.append(scope)
        try:
            out = body(index, values[0] if single else tuple(values))
        finally:
            if scope is not None:
                _core._State.scopes.pop()
        return _loop_results("fori_loop", out, inits, single)

    # Trace once on stand-ins to see what the body returns.
    init_nodes = [a._node for a in inits]
    args = [Node(n.shape, n.dtype, n.split, "loop_arg") for n in init_nodes]
    probe_scope = []
    outs = call([ndarray(a) for a in args], _loop_index(key, 1, 0, lower),
                probe_scope)
    position = {a.id: k for k, a in enumerate(args)}
    permutation = [position.get(o._node.id) for o in outs]
    trips = builtins.max(0, upper - lower)
    if None not in permutation:
        return _permuting_loop(call, inits, permutation, lower, trips, single,
                               key)
    # New arrays each iteration: loop-carried values.
    results = [o._node for o in outs]
    loop = _core.record(Node((), None, op="loop", inputs=init_nodes,
                             attrs=(0, trips, args, probe_scope, results,
                                    key)))
    handles = [ndarray(_core.record(Node(n.shape, n.dtype, n.split,
                                         "loop_result", [loop], k)))
               for k, n in enumerate(init_nodes)]
    return handles[0] if single else tuple(handles)


def while_loop(cond_fun, body_fun, init_val):
    """`while cond_fun(val): val = body_fun(val)`; returns val.

    `cond_fun` returns a 0-d boolean array (e.g. a comparison of a
    reduction); `init_val` is an array or a tuple of arrays. Inside an
    @imex.jit function the loop stays a loop (`scf.while`); elsewhere it runs
    in Python. Arrays the body returns unchanged are updated in place; the
    others are carried (new arrays each iteration).
    """
    if not _core._State.tracing:
        value = init_val
        while builtins.bool(cond_fun(value)):
            value = body_fun(value)
        return value
    single, inits = _loop_values("while_loop", init_val)
    pack = (lambda values: values[0]) if single else tuple
    init_nodes = [a._node for a in inits]

    def stand_ins():
        return [Node(n.shape, n.dtype, n.split, "loop_arg")
                for n in init_nodes]

    def trace(function, values, scope):
        _core._State.scopes.append(scope)
        try:
            return function(pack(values))
        finally:
            _core._State.scopes.pop()

    def results_of(out):
        return _loop_results("while_loop", out, inits, single)

    # Which arrays does the body return unchanged? Those are the arrays
    # themselves, updated in place; the others are carried.
    probe = stand_ins()
    outs = results_of(trace(body_fun, [ndarray(a) for a in probe], []))
    carried = [k for k, o in enumerate(outs) if o._node is not probe[k]]

    def bind(args):
        values = list(inits)
        for k in carried:
            values[k] = ndarray(args[k])
        return values

    cond_args, body_args = stand_ins(), stand_ins()
    cond_scope, body_scope = [], []
    condition = trace(cond_fun, bind(cond_args), cond_scope)
    if not isinstance(condition, ndarray) or condition.shape != () or \
            condition.dtype != bool:
        raise TypeError("while_loop: cond_fun must return a 0-d boolean "
                        "array")
    outs = results_of(trace(body_fun, bind(body_args), body_scope))
    loop = _core.record(Node(
        (), None, op="while", inputs=[init_nodes[k] for k in carried],
        attrs=([cond_args[k] for k in carried], cond_scope,
               condition._node, [body_args[k] for k in carried],
               body_scope, [outs[k]._node for k in carried])))
    results = list(inits)
    for position, k in enumerate(carried):
        n = init_nodes[k]
        results[k] = ndarray(_core.record(Node(n.shape, n.dtype, n.split,
                                               "loop_result", [loop],
                                               position)))
    return pack(results)


def _permuting_loop(call, inits, permutation, lower, trips, single, key):
    """The loop of a body that returns its own arrays, permuted: the arrays
    are updated in place. The compiled loop runs blocks of as many
    iterations as the permutation's order (after which every array is back
    in its place); the rest of the iterations follow it."""
    order = 1
    cycle = list(range(len(permutation)))
    while True:
        cycle = [permutation[c] for c in cycle]
        if cycle == list(range(len(permutation))):
            break
        order += 1
    blocks, rest = divmod(trips, order)
    scope = []
    current = list(inits)
    for k in range(order):
        current = call(current, _loop_index(key, order, k, lower), scope)
    _core.record(Node((), None, op="loop", attrs=(0, blocks, [], scope,
                                                  [], key)))
    for r in range(rest):
        current = call(current,
                       _loop_index(None, 0, blocks * order + r, lower))
    return current[0] if single else tuple(current)


# --- creation ---------------------------------------------------------------

def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        shape = (shape,)
    shape = tuple(operator.index(n) for n in shape)
    if builtins.any(n < 0 for n in shape):
        raise ValueError(f"negative dimensions are not allowed: {shape}")
    return shape


def _check_split(split, shape):
    if split not in (None, 0):
        raise NotImplementedError(
            f"split={split}: only dimension 0 is distributed")
    return split if shape else None


def asarray(obj, /, *, dtype=None, copy=None, split=None):
    """An array holding `obj` (an array, numpy array, nested sequence or
    scalar). numpy data is copied, unless `copy=False`: then the array
    wraps a C-contiguous numpy array of a supported dtype without copying
    (see from_dlpack for the ownership rule). `split=0` distributes
    dimension 0."""
    if isinstance(obj, ndarray):
        if dtype is not None and _dtypes.canonical(dtype) != obj.dtype:
            return astype(obj, dtype)
        if split is not None and obj.split is None:
            return asarray(obj.to_numpy(), split=split)
        return _array._wrap(_copy(obj._node)) if copy else obj
    if copy is False:
        return _wrap_without_copy(obj, dtype, split)
    data = np.asarray(obj, dtype=None if dtype is None else
                      _dtypes.canonical(dtype))
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
    """An array on the data of any DLPack producer (a numpy array, ...).
    A writable C-contiguous buffer is not copied (unless `copy=True`; a
    read-only or strided one is, unless `copy=False`, which then raises),
    and the ownership rule is numpy's: the imex array keeps the producer's
    buffer alive and aliases it; writes through either are seen by the other once the imex array is
    synchronized (operations are deferred: do not write the buffer from
    outside while operations on the imex array are pending, and call
    `imex.sync()` before reading the buffer after writing through imex)."""
    # (numpy marks what it imports through DLPack read-only: a numpy array
    # is wrapped itself; other read-only data is copied, imex arrays being
    # writable.)
    data = x if isinstance(x, np.ndarray) else np.from_dlpack(x)
    if copy or (copy is None and not (data.flags.writeable and
                                      data.flags.c_contiguous)):
        return asarray(data, copy=True)
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
    num = builtins.max(0, math.ceil((stop - start) / step))
    if dtype is None:
        ints = builtins.all(isinstance(v, int) for v in (start, stop, step))
        dtype = int64 if ints else float64
    dtype = _dtypes.canonical(dtype)
    values = linspace(start, start + num * step, num, endpoint=False,
                      split=split)
    if dtype.kind in "iu":
        values = round(values)
    return astype(values, dtype) if dtype != float64 else values


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
           "logical_xor", "maximum", "minimum", "multiply", "not_equal",
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


def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
    result = _reduce("sum", x, axis, keepdims)
    return result if dtype is None else astype(result, dtype)


def prod(x, /, *, axis=None, dtype=None, keepdims=False):
    result = _reduce("prod", x, axis, keepdims)
    return result if dtype is None else astype(result, dtype)


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


# --- linear algebra and manipulation -----------------------------------------

def matmul(x1, x2, /):
    a, b = x1._node, x2._node
    if a.shape == () or b.shape == ():
        raise ValueError("matmul: operands must not be 0-d")
    sa = a.shape if len(a.shape) > 1 else (1,) + a.shape
    sb = b.shape if len(b.shape) > 1 else b.shape + (1,)
    if sa[-1] != sb[-2]:
        raise ValueError(f"matmul: mismatch in its core dimension: "
                         f"{a.shape} @ {b.shape}")
    batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    shape = batch + (sa[-2],) * (len(a.shape) > 1) + (sb[-1],) * (
        len(b.shape) > 1)
    dtype = _dtypes.from_mlir(_core.ext().promote(
        _dtypes.to_mlir(a.dtype), _dtypes.to_mlir(b.dtype)))
    split = a.split if len(shape) and len(a.shape) == len(shape) else None
    return ndarray(_core.record(Node(shape, dtype, split, "matmul",
                                     [a, b])))


def reshape(x, /, shape, *, copy=None):
    node = x._node
    shape = list(shape if isinstance(shape, (tuple, list)) else (shape,))
    if shape.count(-1) > 1:
        raise ValueError("reshape: can only specify one unknown dimension")
    known = int(np.prod([n for n in shape if n != -1], dtype=np.int64))
    if -1 in shape:
        if known == 0 or x.size % known:
            raise ValueError(f"cannot reshape array of size {x.size} into "
                             f"shape {tuple(shape)}")
        shape[shape.index(-1)] = x.size // known
    if int(np.prod(shape, dtype=np.int64)) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape "
                         f"{tuple(shape)}")
    return ndarray(_core.record(Node(shape, node.dtype,
                                     node.split if shape else None,
                                     "reshape", [node],
                                     builtins.bool(copy))))


def permute_dims(x, /, axes):
    node = x._node
    axes = tuple(a % x.ndim if x.ndim else a for a in axes)
    if sorted(axes) != list(range(x.ndim)):
        raise ValueError(f"permute_dims: axes {axes} are not a permutation "
                         f"of {x.ndim} dimensions")
    shape = [node.shape[a] for a in axes]
    split = node.split if axes and axes[0] == 0 else (
        0 if node.split is not None else None)
    return ndarray(_core.record(Node(shape, node.dtype, split,
                                     "permute_dims", [node], axes)))


def broadcast_to(x, /, shape):
    node = x._node
    shape = _shape_tuple(shape)
    if np.broadcast_shapes(node.shape, shape) != shape:
        raise ValueError(f"operands could not be broadcast together with "
                         f"remapped shapes [original->remapped]: "
                         f"{node.shape} and requested shape {shape}")
    return ndarray(_core.record(Node(shape, node.dtype, _array._split_of(
        [node], len(shape)), "broadcast_to", [node])))


def expand_dims(x, /, *, axis=0):
    node = x._node
    ndim = x.ndim + 1
    if not -ndim <= axis < ndim:
        raise IndexError(f"expand_dims: axis {axis} is out of bounds for "
                         f"the result of {ndim} dimensions")
    axis %= ndim
    shape = list(node.shape)
    shape.insert(axis, 1)
    return ndarray(_core.record(Node(shape, node.dtype, node.split,
                                     "expand_dims", [node], (axis,))))


def squeeze(x, /, axis):
    node = x._node
    axes = _axes(axis, x.ndim)
    for a in axes:
        if node.shape[a] != 1:
            raise ValueError("cannot select an axis to squeeze out which "
                             "has size not equal to one")
    shape = [n for d, n in enumerate(node.shape) if d not in axes]
    split = None if 0 in axes else node.split
    return ndarray(_core.record(Node(shape, node.dtype, split, "squeeze",
                                     [node], axes)))


def concat(arrays, /, *, axis=0):
    nodes = [a._node for a in arrays]
    if not nodes:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        return concat([reshape(a, (-1,)) for a in arrays], axis=0)
    ndim = len(nodes[0].shape)
    if ndim == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = _axes(axis, ndim)[0]
    for n in nodes:
        if len(n.shape) != ndim or builtins.any(
                n.shape[d] != nodes[0].shape[d] for d in range(ndim)
                if d != axis):
            raise ValueError("all the input array dimensions except for "
                             "the concatenation axis must match exactly")
    shape = list(nodes[0].shape)
    shape[axis] = builtins.sum(n.shape[axis] for n in nodes)
    dtype = nodes[0].dtype
    for n in nodes[1:]:
        dtype = _dtypes.from_mlir(_core.ext().promote(
            _dtypes.to_mlir(dtype), _dtypes.to_mlir(n.dtype)))
    return ndarray(_core.record(Node(shape, dtype, _array._split_of(
        nodes, ndim), "concat", nodes, axis)))


def stack(arrays, /, *, axis=0):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("need at least one array to stack")
    ndim = arrays[0].ndim + 1
    if not -ndim <= axis < ndim:
        raise IndexError(f"stack: axis {axis} is out of bounds")
    for a in arrays:
        if a.shape != arrays[0].shape:
            raise ValueError("all input arrays must have the same shape")
    return concat([expand_dims(a, axis=axis % ndim) for a in arrays],
                  axis=axis % ndim)


# --- manipulation built from the ops above (one fused kernel each where
# elementwise; views where numpy has views) --------------------------------

def _axis(axis, ndim, name):
    if not -ndim <= axis < ndim:
        raise IndexError(f"{name}: axis {axis} is out of bounds for an "
                         f"array of {ndim} dimensions")
    return axis % ndim


def matrix_transpose(x, /):
    if x.ndim < 2:
        raise ValueError("matrix_transpose: x must have at least 2 "
                         "dimensions")
    axes = list(range(x.ndim))
    axes[-2], axes[-1] = axes[-1], axes[-2]
    return permute_dims(x, axes)


def moveaxis(x, source, destination, /):
    source = [source] if isinstance(source, int) else list(source)
    destination = ([destination] if isinstance(destination, int)
                   else list(destination))
    if len(source) != len(destination):
        raise ValueError("moveaxis: source and destination must have the "
                         "same number of elements")
    source = [_axis(a, x.ndim, "moveaxis") for a in source]
    destination = [_axis(a, x.ndim, "moveaxis") for a in destination]
    if len(set(source)) != len(source) or \
            len(set(destination)) != len(destination):
        raise ValueError("moveaxis: repeated axis")
    order = [a for a in range(x.ndim) if a not in source]
    for dest, src in sorted(zip(destination, source)):
        order.insert(dest, src)
    return permute_dims(x, order)


def broadcast_arrays(*arrays):
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    return [broadcast_to(a, shape) for a in arrays]


def unstack(x, /, *, axis=0):
    axis = _axis(axis, x.ndim, "unstack")
    return tuple(x[(slice(None),) * axis + (i,)] for i in range(x.shape[axis]))


def meshgrid(*arrays, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    for a in arrays:
        if a.ndim != 1:
            raise ValueError("meshgrid: the arrays must be 1-d")
    shape = [a.shape[0] for a in arrays]
    where_ = list(range(len(arrays)))
    if indexing == "xy" and len(arrays) > 1:
        shape[0], shape[1] = shape[1], shape[0]
        where_[0], where_[1] = 1, 0
    grids = []
    for a, d in zip(arrays, where_):
        ones_shape = [1] * len(arrays)
        ones_shape[d] = a.shape[0]
        grids.append(broadcast_to(reshape(a, ones_shape), tuple(shape)))
    return grids


def clip(x, /, min=None, max=None):  # noqa: A002
    result = x
    if min is not None:
        result = maximum(result, min)
    if max is not None:
        result = minimum(result, max)
    return result if result.dtype == x.dtype else astype(result, x.dtype)


def outer(x1, x2, /):
    """The outer product of two 1-d arrays (array API linalg.outer): an
    elementwise product of x1 as a column and x2 as a row (on split arrays
    each rank computes its rows, from its elements of x1)."""
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"outer: x1 and x2 must be 1-d arrays, got "
                         f"{x1.ndim}-d and {x2.ndim}-d")
    return multiply(expand_dims(x1, axis=1), expand_dims(x2, axis=0))


def vecdot(x1, x2, /, *, axis=-1):
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError("vecdot: the contracted dimensions differ")
    # The array API conjugates the first operand (a no-op on real arrays).
    if x1.dtype.kind == "c":
        x1 = conj(x1)
    return sum(multiply(x1, x2), axis=axis)


def tensordot(x1, x2, /, *, axes=2):
    if isinstance(axes, int):
        if axes < 0 or axes > builtins.min(x1.ndim, x2.ndim):
            raise ValueError(f"tensordot: axes={axes} is out of range")
        a_axes = list(range(x1.ndim - axes, x1.ndim))
        b_axes = list(range(axes))
    else:
        a_axes = [_axis(a, x1.ndim, "tensordot") for a in axes[0]]
        b_axes = [_axis(a, x2.ndim, "tensordot") for a in axes[1]]
    if [x1.shape[a] for a in a_axes] != [x2.shape[b] for b in b_axes]:
        raise ValueError("tensordot: the contracted dimensions differ")
    a_free = [a for a in range(x1.ndim) if a not in a_axes]
    b_free = [b for b in range(x2.ndim) if b not in b_axes]
    size = lambda shape, axes: int(np.prod([shape[a] for a in axes],  # noqa
                                           dtype=np.int64))
    k = size(x1.shape, a_axes)
    a = reshape(permute_dims(x1, a_free + a_axes),
                (size(x1.shape, a_free), k), copy=True)
    b = reshape(permute_dims(x2, b_axes + b_free),
                (k, size(x2.shape, b_free)), copy=True)
    return reshape(matmul(a, b), [x1.shape[a] for a in a_free] +
                   [x2.shape[b] for b in b_free])


def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
    axis = _axis(axis, x.ndim, "diff")
    if n < 0:
        raise ValueError(f"diff: order n must be >= 0, not {n}")
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        x = concat(parts, axis=axis)
    head = (slice(None),) * axis
    for _ in range(n):
        x = subtract(x[head + (slice(1, None),)], x[head + (slice(None, -1),)])
    return x


def repeat(x, repeats, /, *, axis=None):
    if isinstance(repeats, (ndarray, np.ndarray, list, tuple)):
        counts = asarray(repeats)
        if counts.ndim == 0 or counts.shape == (1,):
            repeats = builtins.int(reshape(counts, ()))
        else:
            return _repeat_each(x, counts, axis)
    repeats = operator.index(repeats)
    if repeats < 0:
        raise ValueError("repeat: repeats must be >= 0")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = _axis(axis, x.ndim, "repeat")
    shape = list(x.shape)
    wide = shape[:axis + 1] + [repeats] + shape[axis + 1:]
    spread = broadcast_to(expand_dims(x, axis=axis + 1), tuple(wide))
    return reshape(spread, shape[:axis] + [shape[axis] * repeats] +
                   shape[axis + 1:], copy=True)


def _repeat_each(x, counts, axis):
    """repeat with one count per element along `axis`: element j of the
    result is element searchsorted(ends, j, right) of x, where `ends` are
    the running totals of the counts (the total is a sync point)."""
    if counts.ndim != 1 or counts.dtype.kind not in "iu":
        raise ValueError("repeat: repeats must be an integer or a 1-d array "
                         "of integers")
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    axis = _axis(axis, x.ndim, "repeat")
    n = x.shape[axis]
    if counts.shape[0] != n:
        raise ValueError(f"repeat: repeats has {counts.shape[0]} elements "
                         f"but axis {axis} has {n}")
    if n == 0:
        return x
    counts = astype(counts, int64)
    if builtins.bool(any(less(counts, 0))):
        raise ValueError("repeat: repeats must be >= 0")
    ends = cumulative_sum(counts)
    total = builtins.int(ends[n - 1])
    positions = arange(total, dtype=int64, split=counts._node.split)
    return take(x, searchsorted(ends, positions, side="right"), axis=axis)


def tile(x, repetitions, /):
    reps = [operator.index(r) for r in repetitions]
    if builtins.any(r < 0 for r in reps):
        raise ValueError("tile: repetitions must be >= 0")
    ndim = builtins.max(x.ndim, len(reps))
    reps = [1] * (ndim - len(reps)) + reps
    shape = [1] * (ndim - x.ndim) + list(x.shape)
    # (1, d0, 1, d1, ...) broadcast to (r0, d0, r1, d1, ...), then merged.
    interleaved = [n for d in shape for n in (1, d)]
    wide = tuple(n for r, d in zip(reps, shape) for n in (r, d))
    spread = broadcast_to(reshape(x, interleaved), wide)
    return reshape(spread, [r * d for r, d in zip(reps, shape)], copy=True)


def _sort(name, x, axis, descending):
    _require_order(x, name)
    if x.ndim == 0:
        raise ValueError(f"{name}: the array must have at least one "
                         "dimension")
    axis = _axis(axis, x.ndim, name)
    node = x._node
    dtype = _dtypes.int64 if name == "argsort" else node.dtype
    return ndarray(_core.record(Node(list(node.shape), dtype, node.split,
                                     "sort", [node],
                                     (name, axis, builtins.bool(descending)))))


def sort(x, /, *, axis=-1, descending=False, stable=True):
    return _sort("sort", x, axis, descending)


def argsort(x, /, *, axis=-1, descending=False, stable=True):
    return _sort("argsort", x, axis, descending)


def flip(x, /, *, axis=None):
    axes = _axes(axis, x.ndim)
    if not axes:
        return x
    node = x._node
    return ndarray(_core.record(Node(list(node.shape), node.dtype, node.split,
                                     "flip", [node], axes)))


def roll(x, /, shift, *, axis=None):
    if axis is None:
        return reshape(roll(reshape(x, (-1,)), shift, axis=0), x.shape)
    shifts = [shift] if isinstance(shift, int) else list(shift)
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(shifts) != len(axes):
        if len(shifts) == 1:
            shifts = shifts * len(axes)
        else:
            raise ValueError("roll: shift and axis must have the same length")
    for s, a in zip(shifts, axes):
        a = _axis(a, x.ndim, "roll")
        n = x.shape[a]
        if n == 0 or s % n == 0:
            continue
        s %= n
        head = (slice(None),) * a
        x = concat([x[head + (slice(n - s, None),)],
                    x[head + (slice(None, n - s),)]], axis=a)
    return x


# --- data type functions (no compilation) ----------------------------------

def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays and dtypes (the dialect's
    promotion rules, which follow numpy's)."""
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype needed")
    dtypes = [a.dtype if isinstance(a, ndarray) else _dtypes.canonical(a)
              for a in arrays_and_dtypes]
    result = dtypes[0]
    for dtype in dtypes[1:]:
        result = _dtypes.from_mlir(_core.ext().promote(
            _dtypes.to_mlir(result), _dtypes.to_mlir(dtype)))
    return result


def finfo(type, /):
    """Machine limits of a floating dtype (numpy's finfo: bits, eps, max,
    min, smallest_normal, dtype)."""
    dtype = _dtypes.canonical(type.dtype if isinstance(type, ndarray)
                              else type)
    if dtype.kind != "f":
        raise ValueError(f"finfo: {dtype} is not a floating dtype")
    return np.finfo(dtype)


def iinfo(type, /):
    """Machine limits of an integer dtype (numpy's iinfo: bits, max, min,
    dtype)."""
    dtype = _dtypes.canonical(type.dtype if isinstance(type, ndarray)
                              else type)
    if dtype.kind not in "iu":
        raise ValueError(f"iinfo: {dtype} is not an integer dtype")
    return np.iinfo(dtype)


def can_cast(from_, to, /):
    """Whether promotion turns `from_` (an array or dtype) into `to`."""
    to = _dtypes.canonical(to)
    return result_type(from_, to) == to


_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u",
          "integral": "iu", "real floating": "f", "complex floating": "c",
          "numeric": "iufc"}


def isdtype(dtype, kind):
    """Whether `dtype` is `kind`: a dtype, a kind name of the array API, or
    a tuple of those."""
    dtype = _dtypes.canonical(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        if kind not in _KINDS:
            raise ValueError(f"isdtype: unknown kind {kind!r}")
        return dtype.kind in _KINDS[kind]
    return dtype == _dtypes.canonical(kind)


def count_nonzero(x, /, *, axis=None, keepdims=False):
    return sum(astype(not_equal(x, 0), int64), axis=axis, keepdims=keepdims)


# --- boolean indexing ---------------------------------------------------------

def _check_mask(x, mask):
    if mask.ndim == 0 or mask.ndim > x.ndim:
        raise IndexError(f"a boolean index must have 1 to {x.ndim} "
                         f"dimensions, got {mask.ndim}")
    for d, (n, m) in enumerate(zip(x.shape, mask.shape)):
        if n != m:
            raise IndexError(f"boolean index did not match indexed array "
                             f"along axis {d}; size of axis is {n} but size "
                             f"of corresponding boolean axis is {m}")


def _masked_select(x, mask):
    """x[mask]: the number of selected elements is data dependent, so it is
    computed first (a sync point); the selection keeps the split."""
    mask = asarray(mask)
    _check_mask(x, mask)
    count = builtins.int(count_nonzero(mask))
    a, m = x._node, mask._node
    split = 0 if a.split is not None or m.split is not None else None
    return ndarray(_core.record(Node([count] + list(a.shape[mask.ndim:]),
                                     a.dtype, split, "masked_select",
                                     [a, m])))


def _masked_assign(x, mask, value):
    """x[mask] = value for values broadcasting to one selected element (or
    sub-array): an elementwise where, no sync."""
    mask = asarray(mask)
    _check_mask(x, mask)
    rest = x.shape[mask.ndim:]
    shape = np.shape(value) if not isinstance(value, ndarray) else value.shape
    try:
        fits = np.broadcast_shapes(shape, rest) == tuple(rest)
    except ValueError:
        fits = False
    if fits:
        wide = reshape(mask, tuple(mask.shape) + (1,) * len(rest))
        x[...] = where(wide, value, x)
        return
    # One value (or sub-array) per selected element, in row-major order of
    # the mask: a put at the positions of the selected elements.
    count = builtins.int(count_nonzero(mask))
    try:
        fits = (np.broadcast_shapes(shape, (count,) + tuple(rest)) ==
                (count,) + tuple(rest))
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"boolean array indexing assignment cannot assign "
                         f"values of shape {tuple(shape)} to the {count} "
                         f"elements where the mask is true (shape "
                         f"{(count,) + tuple(rest)})")
    if mask.ndim == 1:
        x[...] = _put(x, nonzero(mask)[0], value, 0)
        return
    lead = math.prod(x.shape[:mask.ndim])
    flat = reshape(x, (lead,) + tuple(rest))
    updated = _put(flat, nonzero(reshape(mask, (lead,)))[0], value, 0)
    x[...] = reshape(updated, x.shape)


def _put(x, indices, values, axis):
    """x with its elements `indices` along `axis` replaced by `values`
    (broadcast to one element per index; the last of repeated indices
    wins), as a new array."""
    indices = asarray(indices)
    if indices.ndim != 1 or indices.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be 1-d integer arrays")
    if indices.size and x.shape[axis] == 0:
        raise IndexError(f"index out of bounds for the empty axis {axis}")
    shape = list(x.shape)
    shape[axis] = indices.shape[0]
    if isinstance(values, ndarray):
        v = values if values.dtype == x.dtype else astype(values, x.dtype)
    else:
        v = asarray(values, dtype=x.dtype)
    try:
        fits = np.broadcast_shapes(v.shape, tuple(shape)) == tuple(shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"shape mismatch: value array of shape "
                         f"{tuple(v.shape)} could not be broadcast to "
                         f"indexing result of shape {tuple(shape)}")
    if tuple(v.shape) != tuple(shape):
        v = broadcast_to(v, tuple(shape))
    node = x._node
    return ndarray(_core.record(Node(list(node.shape), node.dtype, node.split,
                                     "put", [node, indices._node, v._node],
                                     axis)))


def _integer_assign(x, indices, value):
    """x[indices] = value with a 1-d integer array (numpy's order: the last
    of repeated indices wins)."""
    x[...] = _put(x, indices, value, 0)


def take(x, indices, /, *, axis=None):
    if axis is None:
        if x.ndim != 1:
            raise ValueError("take: axis is required for arrays of "
                             f"{x.ndim} dimensions")
        axis = 0
    axis = _axis(axis, x.ndim, "take")
    indices = asarray(indices)
    if indices.ndim != 1 or indices.dtype.kind not in "iu":
        raise IndexError("take: indices must be a 1-d integer array")
    n = x.shape[axis]
    if indices.size and n == 0:
        raise IndexError(f"take: cannot take from an empty axis {axis}")
    node, idx = x._node, indices._node
    shape = list(node.shape)
    shape[axis] = indices.shape[0]
    split = node.split if node.split is not None else (
        idx.split if axis == 0 else None)
    return ndarray(_core.record(Node(shape, node.dtype, split, "take",
                                     [node, idx], axis)))


def take_along_axis(x, indices, /, *, axis=-1):
    """Elements of x at `indices` along `axis` (the other dimensions
    matched, as numpy's take_along_axis): a take from the flattened array
    at the flat positions."""
    indices = asarray(indices)
    if indices.ndim != x.ndim or indices.dtype.kind not in "iu":
        raise ValueError("take_along_axis: indices must be an integer array "
                         "with the rank of x")
    axis = _axis(axis, x.ndim, "take_along_axis")
    for d, (n, m) in enumerate(zip(x.shape, indices.shape)):
        if d != axis and n != m:
            raise ValueError(f"take_along_axis: indices and x differ in "
                             f"dimension {d} ({m} and {n})")
    n = x.shape[axis]
    if indices.size and n == 0:
        raise IndexError(f"take_along_axis: cannot take from the empty axis "
                         f"{axis}")
    idx = astype(indices, int64)
    idx = where(less(idx, 0), add(idx, n), idx)
    stride = math.prod(x.shape[axis + 1:])
    flat = multiply(idx, stride)
    for d in range(x.ndim):
        if d == axis or x.shape[d] == 1:
            continue
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        position = reshape(arange(x.shape[d], dtype=int64), tuple(shape))
        flat = add(flat, multiply(position, math.prod(x.shape[d + 1:])))
    result = take(reshape(x, (-1,)), reshape(flat, (-1,)), axis=0)
    return reshape(result, indices.shape)


def searchsorted(x1, x2, /, *, side="left", sorter=None):
    _require_order(x1, "searchsorted")
    if sorter is not None:
        # x1 in the order of `sorter` (the positions that sort it).
        x1 = take(x1, sorter, axis=0)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', "
                         f"got {side!r}")
    x2 = asarray(x2)
    if x1.ndim != 1:
        raise ValueError("searchsorted: x1 must be 1-d")
    common = result_type(x1, x2)
    a, v = astype(x1, common, copy=False), astype(x2, common, copy=False)
    split = v._node.split if a._node.split is None else None
    return ndarray(_core.record(Node(list(v.shape), _dtypes.int64, split,
                                     "searchsorted", [a._node, v._node],
                                     side == "right")))


UniqueAllResult = collections.namedtuple(
    "UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult",
                                            ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult",
                                             ["values", "inverse_indices"])


def _unique(x, indices=False):
    """The flattened array sorted (stable), the mask of the first element
    of every run of equal values (NaNs are all distinct, as the array API
    says) and the unique values; with `indices` also the sorting order."""
    flat = reshape(x, (-1,))
    order = argsort(flat) if indices else None
    s = sort(flat)
    n = flat.shape[0]
    if n == 0:
        first = zeros((0,), dtype=bool, split=flat.split)
    else:
        first = concat([ones((1,), dtype=bool),
                        not_equal(s[1:], s[:-1])])
    return flat, order, first, s[first]


def _counts(first, n):
    (starts,) = nonzero(first) if first.shape[0] else (zeros((0,), dtype=int64),)
    ends = concat([starts[1:], full((1,), n, dtype=int64)])
    return ends - starts


def unique_values(x, /):
    return _unique(x)[3]


def unique_counts(x, /):
    flat, _, first, values = _unique(x)
    return UniqueCountsResult(values, _counts(first, flat.shape[0]))


def unique_inverse(x, /):
    flat, _, _, values = _unique(x)
    inverse = reshape(searchsorted(values, flat), x.shape)
    return UniqueInverseResult(values, inverse)


def unique_all(x, /):
    flat, order, first, values = _unique(x, indices=True)
    return UniqueAllResult(values, order[first],
                           reshape(searchsorted(values, flat), x.shape),
                           _counts(first, flat.shape[0]))


def nonzero(x, /):
    if x.ndim == 0:
        raise ValueError("nonzero of a 0-d array is not allowed; use "
                         "nonzero(atleast_1d(x))")
    mask = not_equal(x, 0) if x.dtype != bool else x
    count = builtins.int(count_nonzero(mask))
    result = []
    for d, n in enumerate(x.shape):
        shape = [1] * x.ndim
        shape[d] = n
        grid = broadcast_to(reshape(arange(n, dtype=int64), shape), x.shape)
        node = Node([count], _dtypes.int64,
                    0 if mask._node.split is not None else None,
                    "masked_select", [grid._node, mask._node])
        result.append(ndarray(_core.record(node)))
    return tuple(result)


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
_array.masked_select = _masked_select
_array.masked_assign = _masked_assign
_array.integer_assign = _integer_assign
_array.broadcast_to = broadcast_to
_array.take = take

del _kind, _name

from . import linalg, random  # noqa: E402  (use the functions above)
