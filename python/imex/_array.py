"""The array object: a Python handle on a node of the deferred graph."""

import builtins
import functools
import platform
import sys
import weakref

import numpy as np

from . import _core, _dtypes
from ._core import Node


_TEMPORARY_REFCOUNT = 3 if platform.python_implementation() == "CPython" \
    else 0


class ndarray:  # noqa: N801 (the array API's name for the array object)
    """An n-dimensional array whose operations are compiled with IMEX.

    Operations are recorded and evaluated at the next sync point (conversion
    to numpy or to a Python scalar, printing, `imex.sync()`, an in-place
    update); see docs/python.md.
    """

    __slots__ = ("_node", "__weakref__")
    __array_priority__ = 100  # numpy defers binary operators to us

    def __new__(cls, node):
        # One array object per node: the node's handle tells whether a
        # Python object still refers to it (pending values are computed
        # only then), so a second wrapper must not take the handle from a
        # living first one (a temporary wrapper dying with it would leave
        # the value uncomputed).
        if node.handle is not None:
            existing = node.handle()
            if existing is not None and type(existing) is cls:
                return existing
        return super().__new__(cls)

    def __init__(self, node):
        self._node = node
        node.handle = weakref.ref(self)

    # -- attributes --------------------------------------------------------
    @property
    def shape(self):
        return self._node.shape

    @property
    def dtype(self):
        return self._node.dtype

    @property
    def ndim(self):
        return len(self._node.shape)

    @property
    def size(self):
        return int(np.prod(self._node.shape, dtype=np.int64))

    @property
    def device(self):
        return "cpu"

    @property
    def split(self):
        """The distributed dimension (0), or None for a replicated array."""
        return self._node.split

    @property
    def T(self):
        if self.ndim != 2:
            raise ValueError(f"x.T requires a 2-d array, not {self.ndim}-d "
                             "(use permute_dims)")
        return permute_dims(self, (1, 0))

    @property
    def mT(self):
        if self.ndim < 2:
            raise ValueError("x.mT requires an array of at least 2 dims")
        axes = list(range(self.ndim))
        axes[-2], axes[-1] = axes[-1], axes[-2]
        return permute_dims(self, axes)

    def __array_namespace__(self, api_version=None):
        import imex
        if api_version not in (None, "2023.12", "2022.12", "2021.12"):
            raise ValueError(f"unsupported array API version {api_version}")
        return imex

    # -- conversion --------------------------------------------------------
    def to_numpy(self):
        """The values as a numpy array (a copy; a distributed array is
        gathered to every rank)."""
        return np.asarray(_core.to_numpy(self._node))

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None,
                   copy=None):
        """DLPack export (host memory, every dtype) of the synchronized
        values: this array's own buffer where it is one (a replicated,
        C-contiguous array computed or wrapped before), which the consumer
        then shares, else a copy (gathered for a split array; BufferError
        with copy=False)."""
        if dl_device is not None and tuple(dl_device) != (1, 0):
            raise BufferError(f"__dlpack__: only the host device (1, 0) is "
                              f"supported, not {tuple(dl_device)}")
        node = self._node
        if node.base().pending:
            _core.sync()
        own = (node.data is not None and node.split is None and
               isinstance(node.data, np.ndarray) and
               node.data.flags.c_contiguous)
        if copy is False and not own:
            raise BufferError("__dlpack__(copy=False): the array has no "
                              "buffer of its own (a view, split or pending "
                              "array); export a copy")
        data = node.data if own and not copy else self.to_numpy()
        return _core.ext().to_dlpack(data)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def __array__(self, dtype=None, copy=None):
        result = np.asarray(self.to_numpy())
        return result if dtype is None else result.astype(dtype)

    def _scalar(self, kind):
        if self.ndim != 0:
            raise TypeError(f"only 0-d arrays convert to Python {kind.__name__}"
                            f", not an array of shape {self.shape}")
        return kind(self.to_numpy()[()])

    def __float__(self):
        return self._scalar(float)

    def __complex__(self):
        return self._scalar(complex)

    def __int__(self):
        return self._scalar(int)

    def __bool__(self):
        return self._scalar(bool)

    def __index__(self):
        if not _dtypes.is_integer(self.dtype):
            raise TypeError("only integer 0-d arrays are indices")
        return self._scalar(int)

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __repr__(self):
        body = np.array2string(self.to_numpy(), separator=", ",
                               prefix="imex.asarray(")
        split = "" if self.split is None else f", split={self.split}"
        return f"imex.asarray({body}, dtype={self.dtype}{split})"

    def __str__(self):
        return str(self.to_numpy())

    __hash__ = None

    # -- operators ---------------------------------------------------------
    def __getitem__(self, key):
        if _is_boolean_mask(key):
            return masked_select(self, key)
        if _is_integer_array(key):
            return take(self, key, axis=0)
        if _has_index_array(key):
            return array_index(self, key)
        return _wrap(_view(self._node, key))

    def __setitem__(self, key, value):
        # A value or index array no variable holds (`a[k > 0] = expr`:
        # referenced only by the caller's stack, this frame and getrefcount's
        # argument) need not be stored: it is computed in the kernel that
        # writes the destination.
        if (_TEMPORARY_REFCOUNT and isinstance(value, ndarray) and
                sys.getrefcount(value) <= _TEMPORARY_REFCOUNT):
            value._node.handle = None
        if (_TEMPORARY_REFCOUNT and isinstance(key, ndarray) and
                sys.getrefcount(key) <= _TEMPORARY_REFCOUNT):
            key._node.handle = None
        if _is_boolean_mask(key):
            masked_assign(self, key, value)
            return
        if _is_integer_array(key):
            integer_assign(self, key, value)
            return
        destination, reversed_axes, new_axes = _view(self._node, key,
                                                     for_write=True)
        if (isinstance(value, ndarray) and not reversed_axes and
                not new_axes and _same_region(value._node, destination)):
            # `a[k] += x` ends with `a[k] = a[k]` (Python's augmented
            # assignment of an item): the in-place operator has written it.
            return
        source = _operand(value, self.dtype)
        if isinstance(source, Node):
            shape = source.shape
            if source.dtype != self.dtype:
                source = _core.record(Node(source.shape, self.dtype,
                                           source.split, "astype", [source],
                                           True))
        else:
            shape = ()
            source = (source[0], _dtypes.to_mlir(self.dtype))
        # numpy broadcasts the value to the view with its `None` axes, after
        # dropping the value's leading unit dimensions beyond the view's.
        view_shape = list(destination.shape)
        for axis in new_axes:
            view_shape.insert(axis, 1)
        view_shape = tuple(view_shape)
        extra = len(shape) - len(view_shape)
        if extra > 0 and all(n == 1 for n in shape[:extra]):
            shape = tuple(shape[extra:])
        try:
            fits = np.broadcast_shapes(shape, view_shape) == view_shape
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"could not broadcast input array from shape "
                             f"{tuple(shape)} into shape {view_shape}")
        if isinstance(source, Node) and (extra > 0 or new_axes):
            # (The unit axes go: the value in the destination's shape.)
            shape = tuple(n for k, n in enumerate(
                (1,) * (len(view_shape) - len(shape)) + tuple(shape))
                if k not in new_axes)
            source = reshape(ndarray(source), shape)._node
        if reversed_axes and isinstance(source, Node):
            # a[::-1] = v writes v reversed into the positive-step view.
            whole = tuple(destination.shape)
            if tuple(shape) != whole:
                source = broadcast_to(ndarray(source), whole)._node
            source = _core.record(Node(list(whole), source.dtype,
                                       source.split, "flip", [source],
                                       tuple(reversed_axes)))
        if _core._State.tracing:
            _core.record(Node((), None, op="write",
                              inputs=[destination, source]))
            return
        if destination.base().pending:
            _core.sync()
        _core.sync(write=(destination, source))

    def __neg__(self):
        return negative(self)

    def __pos__(self):
        return positive(self)

    def __abs__(self):
        return abs(self)

    def __invert__(self):
        return bitwise_invert(self)

    def __matmul__(self, other):
        return matmul(self, other)

    def __rmatmul__(self, other):
        return matmul(other, self)

    def __imatmul__(self, other):
        self[...] = matmul(self, other)
        return self


def _wrap(node):
    if node.handle is not None:
        handle = node.handle()
        if handle is not None:
            return handle
    return ndarray(node)


# Binary operators, reflected operators and in-place operators.
_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow",
    "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
}
_COMPARISONS = {
    "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
    "gt": "greater", "ge": "greater_equal",
}


def _install_operators():
    def forward(kind):
        def op(self, other):
            if type(other) is not float and type(other) is not int and \
                    _operand(other, self.dtype, strict=False) is None:
                return NotImplemented
            return _binary(kind, self, other)
        return op

    def reflected(kind):
        def op(self, other):
            if _operand(other, self.dtype, strict=False) is None:
                return NotImplemented
            return _binary(kind, other, self)
        return op

    def inplace(kind):
        def op(self, other):
            self[...] = _binary(kind, self, other)
            return self
        return op

    for name, kind in _OPERATORS.items():
        setattr(ndarray, f"__{name}__", forward(kind))
        setattr(ndarray, f"__r{name}__", reflected(kind))
        setattr(ndarray, f"__i{name}__", inplace(kind))
    for name, kind in _COMPARISONS.items():
        setattr(ndarray, f"__{name}__", forward(kind))


# --- operands ---------------------------------------------------------------

def _scalar_dtype(value, like):
    """The dtype of Python scalar `value` next to an array of dtype `like`
    (the array API: the array's dtype when the kinds agree)."""
    if isinstance(value, bool):
        return like if like is not None else _dtypes.bool
    if isinstance(value, int):
        if like is not None and like.kind in "iufc":
            return like
        return _dtypes.int64
    if isinstance(value, complex):
        if like is not None and like.kind == "c":
            return like
        if like is not None and like.kind == "f":
            return _dtypes.complex_of(like)
        return _dtypes.complex128
    if like is not None and like.kind in "fc":
        return like
    return _dtypes.float64


def _operand(value, like=None, strict=True):
    """A node, or (Python scalar, numpy dtype) for a scalar; None (or
    TypeError when `strict`) for anything else."""
    kind = type(value)
    if kind is ndarray:
        return value._node
    if kind is float or kind is int or kind is bool or isinstance(
            value, (bool, int, float, complex)):
        dtype = _scalar_dtype(value, like)
        if isinstance(value, int) and not isinstance(value, bool):
            _check_int_fits(value, dtype)
        return (value, dtype)
    if isinstance(value, (np.ndarray, np.generic)):
        return asarray(value)._node
    if strict:
        raise TypeError(f"unsupported operand type: {type(value).__name__}")
    return None


def _check_int_fits(value, dtype):
    """A Python int operand must fit 64 bits (of the unsigned range for an
    unsigned dtype): kernels take it as a 64-bit argument."""
    low, high = ((0, 2**64) if dtype.kind == "u" else (-2**63, 2**63))
    if not low <= value < high:
        raise OverflowError(f"Python int {value} does not fit a 64-bit "
                            f"{'unsigned ' if dtype.kind == 'u' else ''}"
                            f"integer")


def _scalar_node(scalar):
    """A Python scalar operand as a recorded 0-d node."""
    value, dtype = scalar
    return Node((), dtype, op="full", attrs=value)


@functools.lru_cache(maxsize=None)
def _ewbin_dtype(kind, lhs, rhs):
    return _dtypes.from_mlir(_core.ext().ewbin_dtype(
        kind, _dtypes.to_mlir(lhs), _dtypes.to_mlir(rhs)))


@functools.lru_cache(maxsize=None)
def _ewuny_dtype(kind, source):
    return _dtypes.from_mlir(_core.ext().ewuny_dtype(
        kind, _dtypes.to_mlir(source)))


def _split_of(nodes, ndim):
    if ndim and any(isinstance(n, Node) and n.split is not None
                    for n in nodes):
        return 0
    return None


def _binary(kind, x, y):
    if type(x) is ndarray and type(y) in (float, int):  # a * 2.0: fast path
        a = x._node
        scalar_dtype = _scalar_dtype(y, a.dtype)
        if type(y) is int and not -2**63 <= y < 2**63:
            _check_int_fits(y, scalar_dtype)
        try:
            dtype = _ewbin_dtype(kind, a.dtype, scalar_dtype)
        except TypeError as error:
            raise TypeError(f"{kind}: {error}") from None
        inputs = [a, (y, _dtypes.to_mlir(scalar_dtype))]
        return ndarray(_core.record(Node(a.shape, dtype, a.split, "ewbin",
                                         inputs, kind)))
    if isinstance(x, ndarray) or not isinstance(y, ndarray):
        a = _operand(x)
        b = _operand(y, a.dtype if isinstance(a, Node) else None)
        if not isinstance(a, Node):
            a = _operand(x, b.dtype if isinstance(b, Node) else None)
    else:
        b = _operand(y)
        a = _operand(x, b.dtype)
    # (Shapes first: numpy's ValueError where both shapes and dtypes are
    # wrong, e.g. bool + bool of mismatched shapes.)
    sa = a.shape if isinstance(a, Node) else ()
    sb = b.shape if isinstance(b, Node) else ()
    shape = sa if sa == sb or not sb else (
        sb if not sa else np.broadcast_shapes(sa, sb))
    da = a.dtype if isinstance(a, Node) else a[1]
    db = b.dtype if isinstance(b, Node) else b[1]
    try:
        dtype = _ewbin_dtype(kind, da, db)
    except TypeError as error:
        raise TypeError(f"{kind}: {error}") from None
    inputs = [n if isinstance(n, Node) else (n[0], _dtypes.to_mlir(n[1]))
              for n in (a, b)]
    return _wrap(_core.record(Node(shape, dtype, _split_of(inputs,
                                                           len(shape)),
                                   "ewbin", inputs, kind)))


def _unary(kind, x):
    node = _operand(x)
    if not isinstance(node, Node):
        node = _core.record(_scalar_node(node))
    try:
        dtype = _ewuny_dtype(kind, node.dtype)
    except TypeError as error:
        raise TypeError(f"{kind}: {error}") from None
    return _wrap(_core.record(Node(node.shape, dtype, node.split, "ewuny",
                                   [node], kind)))


# --- indexing ---------------------------------------------------------------

def _is_integer_array(key):
    """A 1-d integer array used as the whole index (`a[idx]`: take)."""
    return (isinstance(key, (ndarray, np.ndarray)) and
            np.dtype(key.dtype).kind in "iu" and len(key.shape) == 1)


def _has_index_array(key):
    """An index with an array in it (or a list, numpy's array index):
    integer-array indexing."""
    items = key if isinstance(key, tuple) else (key,)
    return builtins.any(isinstance(k, (ndarray, np.ndarray, list))
                        for k in items)


def _is_boolean_mask(key):
    """A boolean array used as the whole index (`a[mask]`)."""
    return (isinstance(key, (ndarray, np.ndarray)) and
            np.dtype(key.dtype) == np.bool_)


def _normalize_key(shape, key):
    """Per-dimension entries of a basic index, the positions of new axes
    and the axes of the view (new axes not counted) that negative steps
    reverse: each entry is (kind, start, start_from_end, size,
    size_from_end, step), with `*_from_end` set when the value is `dim - k`
    for a constant k (kept symbolic in kernels). A slice with a negative
    step is the positive-step slice of the same elements, reversed."""
    if not isinstance(key, tuple):
        key = (key,)
    for item in key:
        if isinstance(item, (ndarray, np.ndarray, list)) or (
                isinstance(item, bool)):
            raise NotImplementedError(
                "__getitem__: integer-array indexing (and boolean masks "
                "combined with other indices)")
        if not (item is None or item is Ellipsis or isinstance(item, slice)
                or hasattr(item, "__index__")):
            raise IndexError(f"invalid index {item!r}")
    if sum(1 for i in key if i is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(1 for i in key if i is not None and i is not Ellipsis)
    if used > len(shape):
        raise IndexError(f"too many indices for array: array is "
                         f"{len(shape)}-dimensional, but {used} were indexed")
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = (key[:at] + (slice(None),) * (len(shape) - used) +
               key[at + 1:])
    else:
        key = key + (slice(None),) * (len(shape) - used)
    entries, new_axes, reversed_axes, result_rank = [], [], [], 0
    d = 0
    for item in key:
        if item is None:
            new_axes.append(result_rank)
            result_rank += 1
            continue
        n = shape[d]
        if isinstance(item, slice):
            entry = _normalize_slice(item, n)
            if entry[5] < 0:
                reversed_axes.append(sum(1 for e in entries
                                         if e[0] == "slice"))
                entry = entry[:5] + (-entry[5],)
            entries.append(entry)
            result_rank += 1
        else:
            i = item.__index__()
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {d} "
                                 f"with size {n}")
            entries.append(("int", i, None, 1, None, 1) if i >= 0 else
                           ("int", n + i, -i, 1, None, 1))
        d += 1
    return entries, new_axes, reversed_axes


def _normalize_slice(item, n):
    start, stop, step = (item.start, item.stop,
                         1 if item.step is None else item.step.__index__())
    if step == 0:
        raise ValueError("slice step cannot be zero")
    if step < 0:
        # The same elements in increasing order (a negative step marks the
        # axis for reversal).
        s, e, _ = item.indices(n)
        size = len(range(s, e, step))
        first = s + (size - 1) * step if size else 0
        return ("slice", first, None, size, None, step)
    s, e, _ = item.indices(n)
    size = len(range(s, e, step))
    start_end = None
    if start is not None and start < 0 and n + start >= 0:
        start_end = -start
    size_end = None
    stop_from_end = stop is None or (stop < 0 and n + stop >= 0)
    if step == 1 and start_end is None and stop_from_end and e >= s:
        size_end = n - size
    return ("slice", s, start_end, size, size_end, step)


def _view(node, key, for_write=False):
    """The view of `node` selected by the basic index `key`; for a write,
    also the axes of the view that negative steps reverse (the written
    values are reversed along them instead) and the positions of the unit
    axes `None` adds (the written values are broadcast with them, then
    they are dropped)."""
    entries, new_axes, reversed_axes = _normalize_key(node.shape, key)
    if for_write:
        return _positive_view(node, entries, []), reversed_axes, new_axes
    view = _positive_view(node, entries, new_axes, reversed_axes)
    return view


def _same_region(node, other):
    """Whether two nodes are the same array or views of one node by the same
    index."""
    if node is other:
        return True
    return (node.op == "view" and other.op == "view" and
            node.inputs[0] is other.inputs[0] and node.attrs == other.attrs)


def _positive_view(node, entries, new_axes, reversed_axes=()):
    shape = [e[3] for e in entries if e[0] == "slice"]
    if all(e[0] == "slice" and e[1] == 0 and e[3] == n and e[5] == 1
           for e, n in zip(entries, node.shape)):
        view = node
    else:
        split = node.split
        if split is not None and entries and entries[0][0] == "int":
            split = None
        view = Node(shape, node.dtype, split, "view", [node], tuple(entries))
        if node.base().pending:
            _core.record(view)
    if reversed_axes:
        view = _core.record(Node(list(view.shape), node.dtype, view.split,
                                 "flip", [view], tuple(reversed_axes)))
    for axis in new_axes:
        view = _core.record(Node(shape[:axis] + [1] + shape[axis:],
                                 node.dtype, view.split, "expand_dims",
                                 [view], (axis,)))
        shape = list(view.shape)
    return view


# Names filled in by imex/__init__.py (circular: the operators use them).
negative = positive = abs = bitwise_invert = matmul = permute_dims = None
asarray = masked_select = masked_assign = integer_assign = take = None
array_index = None
broadcast_to = reshape = None
_install_operators()
