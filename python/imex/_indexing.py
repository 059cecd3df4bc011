"""Indexing with arrays: boolean masks (selection and assignment), take,
put, searchsorted, unique and nonzero.

Part of the imex namespace (imex/__init__.py re-exports every name).
"""

import builtins
import collections
import math
import operator

import numpy as np

from . import _core, _dtypes
from ._array import ndarray
from ._core import Node
from ._dtypes import bool, int64  # noqa: A004


# --- boolean indexing ---------------------------------------------------------

def _check_mask(x, mask):
    if mask.ndim > x.ndim:
        raise IndexError(f"a boolean index must have 1 to {x.ndim} "
                         f"dimensions, got {mask.ndim}")
    for d, (n, m) in enumerate(zip(x.shape, mask.shape)):
        if n != m and m != 0:  # (an empty mask axis selects nothing)
            raise IndexError(f"boolean index did not match indexed array "
                             f"along axis {d}; size of axis is {n} but size "
                             f"of corresponding boolean axis is {m}")


def _masked_select(x, mask):
    """x[mask]: the number of selected elements is data dependent, so it is
    computed first (a sync point); the selection keeps the split."""
    mask = asarray(mask)
    _check_mask(x, mask)
    if mask.ndim == 0:
        # numpy: a new leading axis, of length 1 where the mask is true.
        return expand_dims(x, axis=0)[:1 if builtins.bool(mask) else 0]
    if mask.size == 0:
        return zeros((0,) + tuple(x.shape[mask.ndim:]), dtype=x.dtype)
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
    if mask.ndim == 0:
        x[...] = where(mask, value, x)
        return
    if mask.size == 0:
        return
    rest = x.shape[mask.ndim:]
    shape = np.shape(value) if not isinstance(value, ndarray) else value.shape
    try:
        fits = np.broadcast_shapes(shape, rest) == tuple(rest)
    except ValueError:
        fits = False
    if fits:
        if rest:
            mask = reshape(mask, tuple(mask.shape) + (1,) * len(rest))
            mask._node.handle = None  # (an intermediate: not stored)
        x[...] = where(mask, value, x)
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
    indices = _checked_indices(indices, x.shape[axis], "put", axis,
                               now=True)
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


def _checked_indices(indices, n, what, axis, now=False):
    """`indices` (1-d, integer) with those outside [-n, n) replaced by 0,
    and numpy's IndexError for the first of them: raised here when the
    indices are known, else at the next sync point (`now`: before
    returning, a sync point), on every rank. Inside @jit the indices are
    passed on unchecked (the kernel's own check ends the process)."""
    def report(index):
        raise IndexError(f"{what}: index {index} is out of bounds for axis "
                         f"{axis} with size {n}")

    if indices.size == 0 or _core._State.tracing:
        return indices
    node = indices._node
    if node.data is not None and node.split is None:
        known = node.data
        bad = np.flatnonzero((known < -n) | (known >= n))
        if bad.size:
            report(builtins.int(known[bad[0]]))
        return indices
    wide = astype(indices, int64, copy=False)
    bad = greater_equal(wide, n)
    if indices.dtype.kind != "u":
        bad = logical_or(bad, less(wide, -n))
    flag = any(bad)
    first = reshape(argmax(bad), (1,))

    def report_first():
        value = ndarray(_core.record(Node([1], int64, wide._node.split,
                                          "take", [wide._node, first._node],
                                          0)))
        report(builtins.int(value.to_numpy()[0]))

    if now:
        if builtins.bool(flag):
            report_first()
        return indices
    _core.add_check(flag, report_first)
    return where(bad, 0, wide)


def _array_index(x, key):
    """x[key] for an index of integers and integer arrays (one at least;
    numpy's and the array API's integer-array indexing): the arrays
    broadcast together and select elements along the leading dimensions,
    a take from x with those dimensions flattened."""
    items = key if isinstance(key, tuple) else (key,)
    if len(items) > x.ndim:
        raise IndexError(f"too many indices for array: array is "
                         f"{x.ndim}-dimensional, but {len(items)} were "
                         f"indexed")
    arrays = []
    for item in items:
        if isinstance(item, (ndarray, np.ndarray, list)):
            item = asarray(item)
            if item.dtype.kind == "b":
                raise NotImplementedError(
                    "__getitem__: boolean masks combined with other indices")
            if item.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer "
                                 "type")
        elif hasattr(item, "__index__") and not isinstance(item,
                                                            builtins.bool):
            item = asarray(operator.index(item), dtype=int64)
        else:
            raise IndexError(f"integer-array indexing combines integers and "
                             f"integer arrays only, not {item!r}")
        arrays.append(item)
    shape = tuple(np.broadcast_shapes(*(a.shape for a in arrays)))
    lead, rest = x.shape[:len(arrays)], tuple(x.shape[len(arrays):])
    count = math.prod(shape)
    flat = None
    for d, (a, n) in enumerate(zip(arrays, lead)):
        if count and n == 0:
            raise IndexError(f"index out of bounds for the empty axis {d}")
        idx = reshape(broadcast_to(astype(a, int64), shape), (count,))
        idx = _checked_indices(idx, n, "index", d)
        idx = where(less(idx, 0), add(idx, n), idx)
        term = multiply(idx, math.prod(lead[d + 1:]))
        flat = term if flat is None else add(flat, term)
    source = reshape(x, (math.prod(lead),) + rest)
    return reshape(take(source, flat, axis=0), shape + rest)


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
    indices = _checked_indices(indices, n, "take", axis)
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
    says) and the unique values; with `indices` also the sorting order.
    Complex values sort by real part, then imaginary part."""
    flat = reshape(x, (-1,))
    if flat.dtype.kind == "c":
        by_imag = argsort(imag(flat))
        order = take(by_imag, argsort(take(real(flat), by_imag)))
        s = take(flat, order)
    else:
        order = argsort(flat) if indices else None
        s = sort(flat)
    n = flat.shape[0]
    if n == 0:
        first = zeros((0,), dtype=bool, split=flat.split)
    else:
        first = concat([ones((1,), dtype=bool),
                        not_equal(s[1:], s[:-1])])
    return flat, order, first, s[first]


def _inverse(x, order, first):
    """The position of each element of x among the unique values: the
    running count of first elements, scattered back from sorted order."""
    n = first.shape[0]
    rank = cumulative_sum(astype(first, int64)) - 1
    return reshape(_put(zeros((n,), dtype=int64), order, rank, 0), x.shape)


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
    _, order, first, values = _unique(x, indices=True)
    return UniqueInverseResult(values, _inverse(x, order, first))


def unique_all(x, /):
    flat, order, first, values = _unique(x, indices=True)
    return UniqueAllResult(values, order[first], _inverse(x, order, first),
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


# Names of the other parts of the namespace, bound once all are defined
# (the functions above use them only when called).
from . import (  # noqa: E402
    _require_order,
    add,
    any,
    arange,
    argmax,
    asarray,
    astype,
    count_nonzero,
    cumulative_sum,
    full,
    greater_equal,
    imag,
    less,
    logical_or,
    multiply,
    not_equal,
    ones,
    real,
    where,
    zeros,
)
from ._info import result_type  # noqa: E402
from ._manipulation import (  # noqa: E402
    _axis,
    argsort,
    broadcast_to,
    concat,
    expand_dims,
    reshape,
    sort,
)
