"""Deferred evaluation: array operations record nodes of a graph; a sync
point turns the pending nodes into one ndarray-IR function, compiles it (or
finds it in the kernel cache) and runs it.

Kernels are keyed by their IR text, which holds the structure of the program
only (element types, ranks, which sizes are 1, distribution, constant slice
bounds); sizes, Python scalars and data are arguments at run time, so a loop
of Python statements compiles once and then only dispatches.

Every array is a `Node`:
  * concrete: `data` holds a numpy array (for a distributed array: this
    rank's block of the default partition, `offset` its first global row);
  * a view (`op == "view"`): a slice of another node, evaluated wherever it
    is used, so it always sees the current contents of its base;
  * pending: an operation on other nodes, evaluated at the next sync point
    if a Python array still refers to it (temporaries are fused away).
"""

import itertools
import os
import sys
import weakref

import numpy as np

from . import _dtypes

# Pending operations beyond which recording syncs by itself (bounds the size
# of a kernel when a program never syncs).
MAX_PENDING = 256


class _State:
    ext = None
    team = 1
    team_info = None  # (nprocs, rank), queried on first distributed use
    kernels = {}
    pending = {}  # id -> Node: computations not evaluated yet
    pending_views = []  # weak references to views of pending nodes
    tracing = 0  # > 0 inside @imex.jit: writes are recorded, not run
    scopes = []  # node lists of the loop bodies being traced
    stats = {"compiles": 0, "cache_hits": 0, "dispatches": 0,
             "disk_hits": 0}


_ids = itertools.count()


def ext():
    """The extension, set up on first use."""
    if _State.ext is None:
        from . import _config, _imex
        path = _imex.__file__
        status = os.stat(path)
        identity = f"{path}:{status.st_size}:{status.st_mtime_ns}"
        _imex.init(_config.SHARED_LIBS, _imex.default_cache_dir(), identity)
        _State.ext = _imex
    return _State.ext


def team_info():
    if _State.team_info is None:
        e = ext()
        _State.team_info = (e.team_size(_State.team),
                            e.team_rank(_State.team))
        if _State.team_info[0] > 1:
            _install_abort_hook()
    return _State.team_info


def _install_abort_hook():
    """An uncaught exception on one rank ends every rank (MPI_Abort)
    instead of leaving the others waiting in a collective."""
    if getattr(sys.excepthook, "imex_abort", False):
        return
    previous = sys.excepthook

    def hook(kind, value, traceback):
        previous(kind, value, traceback)
        sys.stderr.flush()
        ext().abort(1)

    hook.imex_abort = True
    sys.excepthook = hook


def under_mpi():
    """Whether this process was started by an MPI launcher."""
    return any(v in os.environ for v in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE",
                                         "PMIX_RANK"))


def default_partition(rows):
    """(offset, size) of this rank's block of `rows` rows, as
    dist.default_partition and the runtime compute it."""
    nprocs, rank = team_info()
    base, extra = divmod(rows, nprocs)
    first_bigger = nprocs - extra
    size = base + (1 if rank >= first_bigger else 0)
    offset = rank * base + max(0, rank - first_bigger)
    return offset, size


class Node:
    __slots__ = ("id", "shape", "dtype", "split", "op", "inputs", "attrs",
                 "data", "offset", "buffer", "handle", "__weakref__")

    def __init__(self, shape, dtype, split=None, op=None, inputs=(),
                 attrs=None, data=None, offset=0, buffer=None):
        self.id = next(_ids)
        self.shape = shape if type(shape) is tuple else tuple(
            int(n) for n in shape)
        self.dtype = dtype
        self.split = split if self.shape else None
        self.op = op
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.data = data
        self.offset = offset
        # For this rank's block of a split array: the buffer that holds it
        # with GHOST_ROWS spare rows before and after (`data` is a view).
        self.buffer = buffer
        self.handle = None

    @property
    def pending(self):
        return self.data is None and self.op not in (None, "view")

    def base(self):
        """The node a chain of views ends at."""
        node = self
        while node.op == "view":
            node = node.inputs[0]
        return node


# Spare rows around the block of a split array: ghost cells that kernels
# exchange halos into in place (`dist.ghost`, docs/distribution.md); kernels
# needing wider halos copy the block into a wider buffer.
GHOST_ROWS = 2


def ghosted_block(rows, shape, dtype):
    """(block, buffer): an uninitialized block of `rows` rows of an array of
    `shape`, as the middle of a buffer with GHOST_ROWS spare rows on each
    side."""
    buffer = np.empty((rows + 2 * GHOST_ROWS,) + tuple(shape[1:]), dtype)
    return buffer[GHOST_ROWS:GHOST_ROWS + rows], buffer


def concrete(data, split=None, copy=True):
    """A node holding numpy `data` (the whole array; for `split=0` this
    rank keeps its block): a copy, or `data` itself (C-contiguous)."""
    data = np.asarray(data)
    if split is not None and data.ndim > 0:
        offset, size = default_partition(data.shape[0])
        block, buffer = ghosted_block(size, data.shape, data.dtype)
        block[...] = data[offset:offset + size]
        return Node(data.shape, data.dtype, 0, data=block, offset=offset,
                    buffer=buffer)
    return Node(data.shape, data.dtype,
                data=np.array(data, order="C") if copy else data)


def record(node):
    """Registers a pending node (its Python handle is attached later)."""
    if _State.scopes:
        _State.scopes[-1].append(node)
        return node
    _State.pending[node.id] = node
    if node.op == "view" and node.base().pending:
        _State.pending_views.append(weakref.ref(node))
    if len(_State.pending) > MAX_PENDING and not _State.tracing:
        sync()
    return node


def check_not_tracing(what):
    if _State.tracing:
        raise RuntimeError(f"{what} of an array inside an @imex.jit function:"
                           " its value is not known while the function is "
                           "traced (return the array instead)")


def distributed(node):
    """Whether kernels treat `node` as distributed: split over more than one
    rank (on one rank its block is the whole array, and the single-process
    code is the faster code)."""
    return node.split is not None and team_info()[0] > 1


def _alive(node):
    return node.handle is not None and node.handle() is not None


# --- IR construction --------------------------------------------------------

_TYPES = {}


def _type(dims, dtype):
    key = (tuple(dims), dtype)
    text = _TYPES.get(key)
    if text is None:
        shape = "".join(("?" if d is None else str(d)) + "x" for d in dims)
        text = _TYPES[key] = f"!ndarray.ndarray<{shape}{dtype}>"
    return text


def _broadcast_dims(*dim_lists):
    if len(dim_lists) == 2:  # the common cases: equal, or one is 0-d
        x, y = dim_lists
        if x == y or not y:
            return list(x)
        if not x:
            return list(y)
    rank = max(len(d) for d in dim_lists)
    result = []
    for i in range(rank):
        ones = True
        for dims in dim_lists:
            j = i - (rank - len(dims))
            if j >= 0 and dims[j] != 1:
                ones = False
        result.append(1 if ones else None)
    return result


def _static_dims(shape, dynamic_first=False):
    dims = [1 if n == 1 else None for n in shape]
    if dynamic_first and dims:
        dims[0] = None
    return dims


class Builder:
    """One kernel: `func.func @kernel` with its arguments and body."""

    def __init__(self):
        self.args = []  # signature entries
        self.values = []  # run-time arguments, in signature order
        self.lines = []
        self.prologue = []  # constants, usable in every region
        self.indent = "  "
        self.ssa = {}  # node id -> (name, dims, mlir dtype)
        self.constants = {}
        self.sizes = {}  # size -> (argument number, argument)
        self.inputs = set()  # ids of the nodes passed as arguments
        self.count = 0
        self.distributed = False
        self.loop_ivs = {}  # fori_loop key -> its induction variable

    def fresh(self):
        self.count += 1
        return f"%{self.count}"

    def line(self, text):
        self.lines.append(self.indent + text)

    def op(self, text):
        name = self.fresh()
        self.line(f"{name} = {text}")
        return name

    def index(self, k):
        k = int(k)
        if k not in self.constants:
            name = self.fresh()
            self.prologue.append(f"  {name} = arith.constant {k} : index")
            self.constants[k] = name
        return self.constants[k]

    def _arg(self, type_text, values, attrs=""):
        name = f"%a{len(self.args)}"
        self.args.append(f"{name}: {type_text}{attrs}")
        self.values.extend(values)
        return name

    def index_arg(self, n):
        return self._arg("index", [int(n)])

    def size(self, n):
        """The index argument holding size `n`, shared by every array
        dimension of that size: the compiler then sees which sizes agree
        (no broadcasting checks, aligned distributed arrays)."""
        if n not in self.sizes:
            self.sizes[n] = (len(self.args), self.index_arg(n))
        return self.sizes[n]

    def array_arg(self, dims, dtype, data, shape):
        """A local array argument whose sizes are the shared size
        arguments: a memref given those sizes (memref.reinterpret_cast)
        wrapped as an array, at function level."""
        if None not in dims or dtype.startswith("ui"):
            return self.view_with_sizes(self._arg(_type(dims, dtype), [data]),
                                        dims, dtype, shape, prologue=True)
        memref = "memref<" + "".join(
            ("?" if d is None else str(d)) + "x" for d in dims) + dtype + ">"
        name = self._arg(memref, [data])
        sizes = [str(n) if d == 1 else self.size(n)[1]
                 for n, d in zip(shape, dims)]
        strides = ["1"]
        for size, d in zip(reversed(sizes[1:]), reversed(dims[1:])):
            inner = strides[0]
            if d == 1:
                strides.insert(0, inner)
            elif inner == "1":
                strides.insert(0, size)
            else:
                product = self.fresh()
                self.prologue.append(f"  {product} = arith.muli {inner}, "
                                     f"{size} : index")
                strides.insert(0, product)
        cast, array = self.fresh(), self.fresh()
        self.prologue.append(
            f"  {cast} = memref.reinterpret_cast {name} to offset: [0], "
            f"sizes: [{', '.join(sizes)}], strides: [{', '.join(strides)}] : "
            f"{memref} to {memref}")
        self.prologue.append(f"  {array} = ndarray.from_memref {cast} : "
                             f"{memref} -> {_type(dims, dtype)}")
        return array

    def view_with_sizes(self, name, dims, dtype, shape, prologue=False):
        """`name` viewed whole, with the shared size arguments as sizes
        (at function level with `prologue`)."""
        if None not in dims:
            return name
        sizes = [str(n) if d == 1 else self.size(n)[1]
                 for n, d in zip(shape, dims)]
        zeros = ", ".join("0" for _ in dims)
        ones = ", ".join("1" for _ in dims)
        text = (f"ndarray.subview {name}[{zeros}] [{', '.join(sizes)}] "
                f"[{ones}] : {_type(dims, dtype)} to {_type(dims, dtype)}")
        if not prologue:
            return self.op(text)
        view = self.fresh()
        self.prologue.append(f"  {view} = {text}")
        return view

    def forget_region(self, outside):
        """Forgets the values defined in a region just emitted (all but
        `outside` and the arguments, which are at function level)."""
        for key in set(self.ssa) - outside:
            if key not in self.inputs:
                del self.ssa[key]

    def dist_arg(self, type_text, block, shape, buffer=None):
        """A distributed array argument: this rank's `block` of an array of
        global `shape` (docs/distribution.md), passed as the `buffer` with
        GHOST_ROWS spare rows around it where there is one."""
        self.distributed = True
        numbers = ", ".join(str(self.size(n)[0]) for n in shape)
        ghost = "" if buffer is None else \
            f", dist.ghost = array<i64: {GHOST_ROWS}, {GHOST_ROWS}>"
        return self._arg(type_text, [block if buffer is None else buffer],
                         f" {{dist.team = {_State.team} : i64, "
                         f"dist.shape = array<i64: {numbers}>{ghost}}}")

    def element(self, value, dtype):
        """The Python scalar `value` as an SSA value of the storage type of
        mlir element type `dtype` (an argument: constants would enter the
        kernel's key)."""
        storage = dtype[1:] if dtype.startswith("ui") else dtype
        if dtype.startswith("complex"):
            value = complex(value)
            parts = [self.element(v, dtype[8:-1])[0]
                     for v in (value.real, value.imag)]
            return self.op(f"complex.create {parts[0]}, {parts[1]} : "
                           f"{dtype}"), storage
        if dtype.startswith("f"):
            v = self._arg("f64", [float(value)])
            if dtype != "f64":
                v = self.op(f"arith.truncf {v} : f64 to {dtype}")
            return v, storage
        v = self._arg("i64", [int(value)])
        if storage == "i1":
            zero = self.op("arith.constant 0 : i64")
            v = self.op(f"arith.cmpi ne, {v}, {zero} : i64")
        elif storage != "i64":
            v = self.op(f"arith.trunci {v} : i64 to {storage}")
        return v, storage

    def scalar(self, value, dtype):
        """A 0-d array of mlir element type `dtype` holding `value`."""
        v, storage = self.element(value, dtype)
        a = self.op(f"ndarray.create value {v} : {_type([], storage)}")
        return self.cast_unsigned((a, [], storage), dtype)

    def cast_unsigned(self, value, dtype):
        """`value` (of the signless storage type) as element type `dtype`."""
        name, dims, storage = value
        if storage == dtype:
            return value
        name = self.op(f"ndarray.cast_elemtype {name} : "
                       f"{_type(dims, storage)} to {_type(dims, dtype)}")
        return name, dims, dtype

    def dim(self, value, d):
        name, dims, dtype = value
        if dims[d] == 1:
            return self.index(1)
        return self.op(f"ndarray.dim {name}, {self.index(d)} : "
                       f"{_type(dims, dtype)}")

    def dims_of(self, value):
        return [self.dim(value, d) for d in range(len(value[1]))]

    def size_value(self, n):
        """An index value holding size `n`: 1 is a constant, others the
        shared size argument."""
        return self.index(1) if n == 1 else self.size(n)[1]

    def size_minus(self, n, k):
        """`n - k` for a size `n` (at function level, one value per pair, so
        that equal sizes of different views are one value)."""
        key = ("minus", n, k)
        if key not in self.constants:
            name = self.fresh()
            self.prologue.append(f"  {name} = arith.subi {self.size_value(n)}"
                                 f", {self.index(k)} : index")
            self.constants[key] = name
        return self.constants[key]

    # -- nodes -------------------------------------------------------------
    def value(self, node):
        """The SSA value (name, dims, dtype) of `node`, emitted on first
        use."""
        known = self.ssa.get(node.id)
        if known is not None:
            return known
        if node.data is not None:
            result = self._input(node)
            self.inputs.add(node.id)
        elif node.op in ("loop_arg", "traced_out_of_scope"):
            raise RuntimeError("an array computed inside an imex.fori_loop "
                               "body is used outside of it (return it from "
                               "the body instead)")
        elif node.op == "view":
            result = _emit_view(self, node)
        else:
            result = EMITTERS[node.op](self, node)
        self.ssa[node.id] = result
        return result

    def _input(self, node):
        dtype = _dtypes.to_mlir(node.dtype)
        if distributed(node):
            dims = _static_dims(node.shape, dynamic_first=True)
            name = self.dist_arg(_type(dims, dtype), node.data, node.shape,
                                 node.buffer)
        else:
            dims = _static_dims(node.shape)
            name = self.array_arg(dims, dtype, node.data, node.shape)
        return name, dims, dtype

    def output(self, node, replicated=False):
        """Writes `node`'s value into a fresh numpy array (distributed like
        `node` unless `replicated`); returns (array, offset, buffer)."""
        value = self.value(node)
        dtype = value[2]
        split = distributed(node) and not replicated
        shape = node.shape
        offset, buffer = 0, None
        if split:
            offset, rows = default_partition(shape[0])
            data, buffer = ghosted_block(rows, shape, node.dtype)
            dims = _static_dims(shape, dynamic_first=True)
            out = self.dist_arg(_type(dims, dtype), data, shape, buffer)
        else:
            data = np.empty(shape, node.dtype)
            dims = _static_dims(shape)
            out = self.array_arg(dims, dtype, data, shape)
        self.insert(value, (out, dims, dtype), shape)
        return data, offset, buffer

    def insert(self, source, destination, shape=None):
        """`destination[...] = source` (numpy broadcasting). The sizes are
        the shared size arguments for a whole array of `shape`, else the
        destination's (a view: its dims fold to the view's sizes)."""
        rank = len(destination[1])
        sizes = (self.dims_of(destination) if shape is None else
                 [self.size_value(n) for n in shape])
        zeros = ", ".join("0" for _ in range(rank))
        ones = ", ".join("1" for _ in range(rank))
        self.line(f"ndarray.insert_slice {source[0]} into {destination[0]}"
                  f"[{zeros}] [{', '.join(sizes)}] [{ones}] : "
                  f"{_type(source[1], source[2])} into "
                  f"{_type(destination[1], destination[2])}")

    def text(self):
        return "\n".join(
            [f"func.func @kernel({', '.join(self.args)}) {{"] +
            self.prologue + self.lines +
            ["  return", "}", ""])


# --- emitters ---------------------------------------------------------------

def _emit_operands(b, node):
    return [b.value(x) if isinstance(x, Node) else
            b.scalar(x[0], x[1]) for x in node.inputs]


def _emit_ewbin(b, node):
    x, y = _emit_operands(b, node)
    dims = _broadcast_dims(x[1], y[1])
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.ewbin {node.attrs} {x[0]}, {y[0]} : "
                f"({_type(x[1], x[2])}, {_type(y[1], y[2])}) -> "
                f"{_type(dims, dtype)}")
    return name, dims, dtype


def _emit_ewuny(b, node):
    (x,) = _emit_operands(b, node)
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.ewuny {node.attrs} {x[0]} : {_type(x[1], x[2])} "
                f"-> {_type(x[1], dtype)}")
    return name, x[1], dtype


def _emit_where(b, node):
    c, x, y = _emit_operands(b, node)
    dims = _broadcast_dims(c[1], x[1], y[1])
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.where {c[0]}, {x[0]}, {y[0]} : "
                f"({_type(c[1], c[2])}, {_type(x[1], x[2])}, "
                f"{_type(y[1], y[2])}) -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_reduction(b, node):
    (x,) = _emit_operands(b, node)
    kind, axes, keepdims, correction = node.attrs
    dims = []
    for d, n in enumerate(x[1]):
        if d in axes:
            if keepdims:
                dims.append(1)
        else:
            dims.append(n)
    dtype = _dtypes.to_mlir(node.dtype)
    text = f"ndarray.reduction {kind} {x[0]}"
    if len(axes) != len(x[1]):
        text += f" axes [{', '.join(str(a) for a in axes)}]"
    if keepdims:
        text += " keepdims"
    if correction:
        text += f" correction {float(correction)!r}"
    name = b.op(f"{text} : {_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_sort(b, node):
    (x,) = _emit_operands(b, node)
    name, axis, descending = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    flag = " descending" if descending else ""
    r = b.op(f"ndarray.{name} {x[0]} axis {axis}{flag} : {_type(x[1], x[2])} "
             f"-> {_type(x[1], dtype)}")
    return r, x[1], dtype


def _emit_take(b, node):
    x, i = _emit_operands(b, node)
    axis = node.attrs
    dims = list(x[1])
    dims[axis] = i[1][0]
    r = b.op(f"ndarray.take {x[0]}[{i[0]}] axis {axis} : ({_type(x[1], x[2])}"
             f", {_type(i[1], i[2])}) -> {_type(dims, x[2])}")
    return r, dims, x[2]


def _emit_put(b, node):
    x, i, v = _emit_operands(b, node)
    r = b.op(f"ndarray.put {v[0]} into {x[0]}[{i[0]}] axis {node.attrs} : "
             f"({_type(v[1], v[2])}, {_type(x[1], x[2])}, "
             f"{_type(i[1], i[2])}) -> {_type(x[1], x[2])}")
    return r, x[1], x[2]


def _emit_searchsorted(b, node):
    x, v = _emit_operands(b, node)
    flag = " right" if node.attrs else ""
    r = b.op(f"ndarray.searchsorted {x[0]}, {v[0]}{flag} : ({_type(x[1], x[2])}"
             f", {_type(v[1], v[2])}) -> {_type(v[1], 'i64')}")
    return r, v[1], "i64"


def _emit_flip(b, node):
    (x,) = _emit_operands(b, node)
    axes = ", ".join(str(a) for a in node.attrs)
    t = _type(x[1], x[2])
    return b.op(f"ndarray.flip {x[0]} [{axes}] : {t} -> {t}"), x[1], x[2]


def _emit_masked_select(b, node):
    x, m = _emit_operands(b, node)
    dims = [None] + list(x[1][len(m[1]):])
    name = b.op(f"ndarray.masked_select {x[0]}[{m[0]}] : {_type(x[1], x[2])}, "
                f"{_type(m[1], m[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_argreduce(b, node):
    (x,) = _emit_operands(b, node)
    kind, axis, keepdims = node.attrs
    dims = []
    for d, n in enumerate(x[1]):
        if axis is not None and d != axis:
            dims.append(n)
        elif keepdims:
            dims.append(1)
    text = f"ndarray.argreduce {kind} {x[0]}"
    if axis is not None:
        text += f" axis {axis}"
    if keepdims:
        text += " keepdims"
    name = b.op(f"{text} : {_type(x[1], x[2])} -> {_type(dims, 'i64')}")
    return name, dims, "i64"


def _emit_cumulative(b, node):
    (x,) = _emit_operands(b, node)
    kind, axis, include_initial = node.attrs
    dims = list(x[1])
    if include_initial and dims[axis] is not None:
        dims[axis] += 1
    dtype = _dtypes.to_mlir(node.dtype)
    flag = " include_initial" if include_initial else ""
    name = b.op(f"ndarray.cumulative {kind} {x[0]} axis {axis}{flag} : "
                f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_matmul(b, node):
    x, y = _emit_operands(b, node)
    dims = [None] * len(node.shape)  # conservative: always valid
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.matmul {x[0]}, {y[0]} : ({_type(x[1], x[2])}, "
                f"{_type(y[1], y[2])}) -> {_type(dims, dtype)}")
    return name, dims, dtype


def _sized_result(b, node, mnemonic, suffix=""):
    """An op whose result sizes are operands for its dynamic dimensions."""
    (x,) = _emit_operands(b, node)
    dims = _static_dims(node.shape)
    dtype = _dtypes.to_mlir(node.dtype)
    dynamic = [b.size(n)[1] for n, d in zip(node.shape, dims) if d is None]
    operands = f"({', '.join(dynamic)})" if dynamic else ""
    name = b.op(f"ndarray.{mnemonic} {x[0]}{operands}{suffix} : "
                f"{_type(x[1], x[2])} -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_reshape(b, node):
    return _sized_result(b, node, "reshape",
                         " copy" if node.attrs else "")


def _emit_broadcast_to(b, node):
    return _sized_result(b, node, "broadcast_to")


def _emit_permute_dims(b, node):
    (x,) = _emit_operands(b, node)
    dims = [x[1][a] for a in node.attrs]
    name = b.op(f"ndarray.permute_dims {x[0]} "
                f"[{', '.join(str(a) for a in node.attrs)}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_expand_dims(b, node):
    (x,) = _emit_operands(b, node)
    dims = list(x[1])
    for a in sorted(node.attrs):
        dims.insert(a, 1)
    name = b.op(f"ndarray.expand_dims {x[0]} "
                f"[{', '.join(str(a) for a in sorted(node.attrs))}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_squeeze(b, node):
    (x,) = _emit_operands(b, node)
    dims = [n for d, n in enumerate(x[1]) if d not in node.attrs]
    name = b.op(f"ndarray.squeeze {x[0]} "
                f"[{', '.join(str(a) for a in sorted(node.attrs))}] : "
                f"{_type(x[1], x[2])} -> {_type(dims, x[2])}")
    return name, dims, x[2]


def _emit_concat(b, node):
    xs = _emit_operands(b, node)
    axis = node.attrs
    dims = []
    for d in range(len(node.shape)):
        dims.append(1 if d != axis and all(x[1][d] == 1 for x in xs)
                    else None)
    dtype = _dtypes.to_mlir(node.dtype)
    name = b.op(f"ndarray.concat {', '.join(x[0] for x in xs)} axis {axis} "
                f": ({', '.join(_type(x[1], x[2]) for x in xs)}) -> "
                f"{_type(dims, dtype)}")
    return name, dims, dtype


def _emit_astype(b, node):
    (x,) = _emit_operands(b, node)
    dtype = _dtypes.to_mlir(node.dtype)
    copy = " copy" if node.attrs else ""
    name = b.op(f"ndarray.cast_elemtype {x[0]}{copy} : {_type(x[1], x[2])} "
                f"to {_type(x[1], dtype)}")
    return name, x[1], dtype


def _team_attr(node):
    return (f" {{dist.team = {_State.team} : i64}}"
            if distributed(node) else "")


def _creation_sizes(b, node):
    """The dims of a created array and its dynamic-size operand list
    (`(%a, %b)` or empty); marks the kernel distributed if it is."""
    dims = _static_dims(node.shape)
    sizes = [b.size(n)[1] for n, d in zip(node.shape, dims) if d is None]
    if distributed(node):
        b.distributed = True
    return dims, f"({', '.join(sizes)})" if sizes else ""


def _emit_full(b, node):
    dtype = _dtypes.to_mlir(node.dtype)
    storage = dtype[1:] if dtype.startswith("ui") else dtype
    dims, operands = _creation_sizes(b, node)
    fill = ""
    if node.attrs is not None:
        fill = f" value {b.element(node.attrs, dtype)[0]}"
    name = b.op(f"ndarray.create{operands}{fill}{_team_attr(node)} : "
                f"{_type(dims, storage)}")
    return b.cast_unsigned((name, dims, storage), dtype)


def _emit_linspace(b, node):
    start, stop, num, endpoint = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    s = b._arg("f64", [float(start)])
    e = b._arg("f64", [float(stop)])
    n = b.size(num)[1]
    dims = _static_dims(node.shape)
    if distributed(node):
        b.distributed = True
    flag = " endpoint" if endpoint else ""
    name = b.op(f"ndarray.linspace {s}, {e}, {n}{flag}{_team_attr(node)} : "
                f"f64 -> {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_random(b, node):
    distribution, seed, stream = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    signed = lambda v: (v + 2 ** 63) % 2 ** 64 - 2 ** 63  # noqa: E731
    s = b._arg("i64", [signed(seed)])
    t = b._arg("i64", [signed(stream)])
    dims, operands = _creation_sizes(b, node)
    name = b.op(f"ndarray.random {distribution} {s}, {t} {operands}"
                f"{_team_attr(node)} : {_type(dims, dtype)}")
    return name, dims, dtype


def _emit_tri(b, node):
    (k,) = node.attrs
    dtype = _dtypes.to_mlir(node.dtype)
    dims, operands = _creation_sizes(b, node)
    # (k is an argument: every diagonal runs the same kernel.)
    name = b.op(f"ndarray.tri {b.index_arg(k)} {operands}{_team_attr(node)} "
                f": {_type(dims, dtype)}")
    return name, dims, dtype


def _slice_operand(b, shape, d, value, from_end):
    """An offset or size: a literal, or `size - from_end` when it was given
    relative to the end of dimension `d` of an array of `shape` (so that the
    kernel does not depend on the size)."""
    if from_end is None:
        return str(int(value))
    if from_end == 0:
        return b.size_value(shape[d])
    return b.size_minus(shape[d], from_end)


def _view_slice(b, node):
    """The offsets, sizes and strides of the view `node` in its parent,
    and the view's dims."""
    shape = node.inputs[0].shape
    offsets, sizes, strides, dims = [], [], [], []
    for d, entry in enumerate(node.attrs):
        kind, start, start_end, size, size_end, step = entry
        offsets.append(_slice_operand(b, shape, d, start, start_end))
        strides.append(str(step))
        if kind == "int":
            sizes.append("1")
            continue
        if size == 1 and size_end is None:
            sizes.append("1")
            dims.append(1)
        else:
            sizes.append(_slice_operand(b, shape, d, size, size_end)
                         if size_end is not None else b.index(size))
            dims.append(None)
    return offsets, sizes, strides, dims


def _emit_view(b, node):
    parent = b.value(node.inputs[0])
    offsets, sizes, strides, dims = _view_slice(b, node)
    name = b.op(f"ndarray.subview {parent[0]}[{', '.join(offsets)}] "
                f"[{', '.join(sizes)}] [{', '.join(strides)}] : "
                f"{_type(parent[1], parent[2])} to {_type(dims, parent[2])}")
    return name, dims, parent[2]


def _emit_write(b, destination, source):
    """`destination[...] = source`; a view is written as a slice of its
    parent (the same IR as `parent[slice] = source`, which distributed
    arrays update in place without copies of the view)."""
    src = (b.value(source) if isinstance(source, Node)
           else b.scalar(*source))
    # (Views dropping dimensions keep the subview: the source broadcasts to
    # the view's shape, not to the slice's.)
    if destination.op != "view" or any(
            entry[0] == "int" for entry in destination.attrs):
        b.insert(src, b.value(destination))
        return
    parent = b.value(destination.inputs[0])
    offsets, sizes, strides, _ = _view_slice(b, destination)
    b.line(f"ndarray.insert_slice {src[0]} into {parent[0]}"
           f"[{', '.join(offsets)}] [{', '.join(sizes)}] "
           f"[{', '.join(strides)}] : {_type(src[1], src[2])} into "
           f"{_type(parent[1], parent[2])}")


def _cast_to(b, value, dims):
    name, vdims, dtype = value
    if list(vdims) == list(dims):
        return name
    return b.op(f"ndarray.cast {name} : {_type(vdims, dtype)} to "
                f"{_type(dims, dtype)}")


def _emit_loop(b, node):
    """`scf.for` over the traced body of an imex.fori_loop."""
    lower, upper, args, body, results, key = node.attrs
    inits = [b.value(n) for n in node.inputs]
    # Loop-carried arrays keep the types of their initial values, with sizes
    # other than 1 dynamic (the body may change which sizes are static).
    types = [[None if d != 1 else 1 for d in v[1]] for v in inits]
    init_names = [_cast_to(b, v, t) for v, t in zip(inits, types)]
    lb, ub = b.index_arg(lower), b.index_arg(upper)
    name = b.fresh()
    iv = b.fresh()
    carried = [b.fresh() for _ in args]
    type_list = ", ".join(_type(t, v[2]) for t, v in zip(types, inits))
    iter_args = ", ".join(f"{c} = {i}" for c, i in zip(carried, init_names))
    count = f":{len(args)}" if len(args) > 1 else ""
    if args:
        b.line(f"{name}{count} = scf.for {iv} = {lb} to {ub} step "
               f"{b.index(1)} iter_args({iter_args}) -> ({type_list}) {{")
    else:
        b.line(f"scf.for {iv} = {lb} to {ub} step {b.index(1)} {{")
    outer_indent = b.indent
    b.indent += "  "
    outside = set(b.ssa)
    b.loop_ivs[key] = iv
    for arg, c, t, v in zip(args, carried, types, inits):
        # Seen through a view with the shared sizes, as arguments are.
        b.ssa[arg.id] = (b.view_with_sizes(c, t, v[2], arg.shape), t, v[2])
    emit_in_order(b, body)
    yields = [_cast_to(b, b.value(r), t) for r, t in zip(results, types)]
    if yields:
        b.line(f"scf.yield {', '.join(yields)} : {type_list}")
    b.indent = outer_indent
    b.line("}")
    # Values defined in the body are not visible after the loop.
    b.forget_region(outside)
    return [(f"{name}#{k}" if len(args) > 1 else name, t, v[2])
            for k, (t, v) in enumerate(zip(types, inits))]


def _emit_while(b, node):
    """`scf.while` over the traced condition and body of an
    imex.while_loop."""
    cond_args, cond_scope, condition, body_args, body_scope, results = \
        node.attrs
    inits = [b.value(n) for n in node.inputs]
    types = [[None if d != 1 else 1 for d in v[1]] for v in inits]
    init_names = [_cast_to(b, v, t) for v, t in zip(inits, types)]
    type_list = ", ".join(_type(t, v[2]) for t, v in zip(types, inits))
    name = b.fresh()
    before = [b.fresh() for _ in inits]
    after = [b.fresh() for _ in inits]
    if inits:
        count = f":{len(inits)}" if len(inits) > 1 else ""
        operands = ", ".join(f"{x} = {i}" for x, i in zip(before, init_names))
        b.line(f"{name}{count} = scf.while ({operands}) : ({type_list}) -> "
               f"({type_list}) {{")
    else:
        b.line("scf.while : () -> () {")

    def region(args, names, scope, finish):
        outer_indent = b.indent
        b.indent += "  "
        outside = set(b.ssa)
        for arg, n, t, v in zip(args, names, types, inits):
            b.ssa[arg.id] = (b.view_with_sizes(n, t, v[2], arg.shape), t,
                             v[2])
        emit_in_order(b, scope)
        finish()
        b.forget_region(outside)
        b.indent = outer_indent

    def condition_op():
        flag = b.op(f"ndarray.load {b.value(condition)[0]}[] : "
                    f"{_type([], 'i1')}")
        forwarded = f" {', '.join(before)} : {type_list}" if inits else ""
        b.line(f"scf.condition({flag}){forwarded}")

    def yield_op():
        yields = [_cast_to(b, b.value(r), t) for r, t in zip(results, types)]
        b.line(f"scf.yield {', '.join(yields)} : {type_list}" if yields
               else "scf.yield")

    region(cond_args, before, cond_scope, condition_op)
    b.line("} do {")
    if inits:
        b.line("^bb0(" + ", ".join(f"{a}: {_type(t, v[2])}" for a, t, v in
                                   zip(after, types, inits)) + "):")
    region(body_args, after, body_scope, yield_op)
    b.line("}")
    return [(f"{name}#{k}" if len(inits) > 1 else name, t, v[2])
            for k, (t, v) in enumerate(zip(types, inits))]


def _emit_loop_index(b, node):
    """The 0-d int64 array of a fori_loop index (see imex._loop_index): the
    lower bound is a run-time argument, the rest is structure."""
    key, scale, offset, lower = node.attrs
    if key is None:
        index = b.index_arg(lower + offset)
    else:
        index = b.loop_ivs[key]
        if scale != 1:
            index = b.op(f"arith.muli {index}, {b.index(scale)} : index")
        index = b.op(f"arith.addi {index}, {b.index_arg(lower)} : index")
        if offset:
            index = b.op(f"arith.addi {index}, {b.index(offset)} : index")
    value = b.op(f"arith.index_cast {index} : index to i64")
    name = b.op(f"ndarray.create value {value} : !ndarray.ndarray<i64>")
    return name, [], "i64"


def _emit_loop_result(b, node):
    return b.value(node.inputs[0])[node.attrs]


def emit_in_order(b, nodes):
    """Emits traced nodes in program order (writes among them)."""
    for node in nodes:
        if node.op == "write":
            _emit_write(b, *node.inputs)
        else:
            b.value(node)


EMITTERS = {
    "ewbin": _emit_ewbin, "ewuny": _emit_ewuny, "where": _emit_where,
    "reduction": _emit_reduction, "matmul": _emit_matmul,
    "reshape": _emit_reshape, "broadcast_to": _emit_broadcast_to,
    "permute_dims": _emit_permute_dims, "expand_dims": _emit_expand_dims,
    "squeeze": _emit_squeeze, "concat": _emit_concat, "astype": _emit_astype,
    "full": _emit_full, "linspace": _emit_linspace, "random": _emit_random,
    "tri": _emit_tri, "cumulative": _emit_cumulative,
    "argreduce": _emit_argreduce, "masked_select": _emit_masked_select,
    "flip": _emit_flip, "sort": _emit_sort,
    "searchsorted": _emit_searchsorted, "take": _emit_take, "put": _emit_put,
    "loop": _emit_loop,
    "while": _emit_while,
    "loop_result": _emit_loop_result, "loop_index": _emit_loop_index,
}


# --- evaluation -------------------------------------------------------------

def _run(builder):
    text = builder.text()
    kernel = _State.kernels.get(text)
    if kernel is None:
        pipeline = ("imex-dist-cpu-pipeline" if builder.distributed
                    else "imex-cpu-pipeline")
        options = [f"{option}=0" for option, variable in
                   (("bounds-checks", "IMEX_BOUNDS_CHECKS"),
                    ("vector-math", "IMEX_VECTOR_MATH"))
                   if os.environ.get(variable, "1") == "0"]
        if options:
            pipeline += "{" + " ".join(options) + "}"
        if os.environ.get("IMEX_PRINT_KERNELS"):
            sys.stderr.write(f"// imex kernel ({pipeline})\n{text}")
        kernel = ext().compile(text, "kernel", pipeline)
        if os.environ.get("IMEX_PRINT_KERNELS"):
            sys.stderr.write(f"// {kernel.stats}\n")
        _State.kernels[text] = kernel
        _State.stats["compiles"] += 1
        if kernel.stats["cache"] == "hit":
            _State.stats["disk_hits"] += 1
    else:
        _State.stats["cache_hits"] += 1
    _State.stats["dispatches"] += 1
    kernel(*builder.values)


def _needed():
    """Pending nodes a Python array refers to (directly or through a
    view), in program order."""
    needed = {n.id: n for n in _State.pending.values()
              if n.op not in ("view", "write", "loop", "while") and
              _alive(n)}
    for ref in _State.pending_views:
        view = ref()
        if view is not None and _alive(view):
            base = view.base()
            if base.pending:
                needed[base.id] = base
    return [needed[k] for k in sorted(needed)]


def sync(write=None, gather=None):
    """Evaluates every pending node a Python array refers to, then performs
    `write` (destination view node, source node or (scalar, dtype)) and
    returns the whole value of `gather` (a node) as a numpy array."""
    needed = _needed()
    effects = _State.tracing and any(
        n.op in ("write", "loop", "while") for n in _State.pending.values())
    if not needed and write is None and gather is None and not effects:
        _State.pending.clear()
        _State.pending_views.clear()
        return None
    b = Builder()
    if _State.tracing:
        emit_in_order(b, sorted(_State.pending.values(), key=lambda n: n.id))
    for node in needed:
        b.value(node)
    if write is not None:
        _emit_write(b, *write)
    outputs = [(node, b.output(node)) for node in needed]
    gathered = b.output(gather, replicated=True)[0] if gather else None
    _State.pending.clear()
    _State.pending_views.clear()
    _run(b)
    for node, (data, offset, buffer) in outputs:
        node.data, node.offset, node.buffer = data, offset, buffer
        node.op, node.inputs, node.attrs = None, (), None
    return gathered


def to_numpy(node):
    """The whole array as a numpy array (gathered to every rank if it is
    distributed)."""
    check_not_tracing("conversion to numpy or a Python scalar")
    if node.base().pending:
        sync()
    if node.data is not None and node.split is None:
        return node.data.copy()
    local = _local_view(node)
    if local is not None:
        return local.copy()
    return sync(gather=node)


def _local_view(node):
    """A numpy view of a replicated node made of views of concrete data."""
    if node.data is not None:
        return node.data if node.split is None else None
    if node.op != "view":
        return None
    parent = _local_view(node.inputs[0])
    if parent is None:
        return None
    key = tuple(e[1] if e[0] == "int" else
                slice(e[1], e[1] + e[3] * e[5], e[5]) for e in node.attrs)
    return parent[key]
