"""Linear algebra and manipulation: matmul, reshape, permute_dims,
broadcasting, concat/stack, sorting, and the manipulation functions built
from them (one fused kernel each where possible).

Part of the imex namespace (imex/__init__.py re-exports every name).
"""

import builtins
import operator

import numpy as np

from . import _array, _core, _dtypes
from ._array import ndarray
from ._core import Node
from ._dtypes import int64  # noqa: A004


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


def expand_dims(x, /, axis=0):
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
    products = multiply(x1, x2)
    return sum(products, axis=axis, dtype=products.dtype)


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
        return astype(x, x.dtype)   # repeat returns a new array
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
        return astype(x, x.dtype)   # a new array, as numpy's flip of 0-d
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
    source = x
    for s, a in zip(shifts, axes):
        a = _axis(a, x.ndim, "roll")
        n = x.shape[a]
        if n == 0 or s % n == 0:
            continue
        s %= n
        head = (slice(None),) * a
        x = concat([x[head + (slice(n - s, None),)],
                    x[head + (slice(None, n - s),)]], axis=a)
    # roll returns a new array even when every shift is a whole turn.
    return astype(x, x.dtype) if x is source else x


# Names of the other parts of the namespace, bound once all are defined
# (the functions above use them only when called).
from . import (  # noqa: E402
    _axes,
    _require_order,
    _shape_tuple,
    any,
    arange,
    asarray,
    astype,
    conj,
    cumulative_sum,
    less,
    maximum,
    minimum,
    multiply,
    subtract,
    sum,
)
from ._indexing import (  # noqa: E402
    searchsorted,
    take,
)
