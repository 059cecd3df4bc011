"""The ndarray IR of recorded nodes: MLIR types of array shapes and the
Builder that writes a module's text.

Part of imex._core (which imports every name).
"""

import numpy as np

from . import _dtypes


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


def _static_dims(shape, split=None):
    """The static sizes of an array's type (1, or None: dynamic); the split
    axes of a distributed block (`split`: 0 or a tuple of axes) are dynamic
    (a rank may own none)."""
    dims = [1 if n == 1 else None for n in shape]
    for axis in (() if split is None else (0,) if split == 0 else split):
        dims[axis] = None
    return dims


def _split_attr(split):
    """The attribute naming the split axes of a distribution other than
    rows (`split`: 0 or a tuple of axes), to follow `dist.team`."""
    if not isinstance(split, tuple):
        return ""
    return f", dist.split = array<i64: {', '.join(map(str, split))}>"


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
        self.write_offsets = {}  # (shape, axis, offset) -> argument
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

    def offset_arg(self, n, shape, axis):
        """The index argument holding the run-time offset `n` of a view
        along `axis` of an array of `shape`: shared by the views of arrays
        of the write's shape at the written offsets (`share_write_offsets`),
        so that the compiler sees an update reading its target or arrays
        like it at the written slice (`b[1:, k:] = b[1:, k:] + a[1:, k:]`)
        as that slice: computed in place, aligned with the target."""
        key = (tuple(shape), axis, int(n))
        if key not in self.write_offsets:
            return self.index_arg(n)
        if self.write_offsets[key] is None:
            self.write_offsets[key] = self.index_arg(n)
        return self.write_offsets[key]

    def share_write_offsets(self, shape, offsets):
        """Views at `offsets` (axis -> offset) of arrays of `shape` are to
        share their offset arguments with the write into one (emitted
        later)."""
        for axis, n in offsets.items():
            self.write_offsets.setdefault((tuple(shape), axis, int(n)), None)

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

    def dist_arg(self, type_text, block, shape, buffer=None, split=0):
        """A distributed array argument: this rank's `block` of an array of
        global `shape` (docs/distribution.md), passed as the `buffer` with
        GHOST_ROWS spare rows (elements along each split axis) around it
        where there is one; split on the axes `split` (a tuple) over the
        grid of ranks, or on rows."""
        self.distributed = True
        numbers = ", ".join(str(self.size(n)[0]) for n in shape)
        ghost = "" if buffer is None else \
            f", dist.ghost = array<i64: {GHOST_ROWS}, {GHOST_ROWS}>"
        return self._arg(type_text, [block if buffer is None else buffer],
                         f" {{dist.team = {_State.team} : i64, "
                         f"dist.shape = array<i64: {numbers}>{ghost}"
                         f"{_split_attr(split)}}}")

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
        value = int(value)
        if value >= 2**63:
            value -= 2**64  # (an unsigned value: the same 64 bits)
        v = self._arg("i64", [value])
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

    def size_minus(self, n, k, literal=True):
        """`n - k` for a size `n` (at function level, one value per pair, so
        that equal sizes of different views are one value); `k` is an
        argument unless `literal`."""
        key = ("minus", n, k, literal)
        if key not in self.constants:
            amount = self.index(k) if literal else self.index_arg(k)
            name = self.fresh()
            self.prologue.append(f"  {name} = arith.subi {self.size_value(n)}"
                                 f", {amount} : index")
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
            result = self._static_ones(node, EMITTERS[node.op](self, node))
        self.ssa[node.id] = result
        return result

    def _static_ones(self, node, result):
        """`result` with static size 1 wherever `node` has size 1 (a
        masked selection or a split axis that left 1 element, typed
        dynamic): the compiler sees where an array broadcasts only from
        the static 1s of its type."""
        if not isinstance(result, tuple) or len(result) != 3:
            return result   # (a loop's results)
        name, dims, dtype = result
        shape = node.shape
        if (not isinstance(dims, (list, tuple)) or
                not isinstance(shape, (list, tuple)) or
                len(dims) != len(shape)):
            return result
        ones = [1 if n == 1 else d for n, d in zip(shape, dims)]
        if list(ones) == list(dims):
            return result
        name = self.op(f"ndarray.cast {name} : {_type(dims, dtype)} to "
                       f"{_type(ones, dtype)}")
        return name, ones, dtype

    def _input(self, node):
        dtype = _dtypes.to_mlir(node.dtype)
        if distributed(node):
            dims = _static_dims(node.shape, node.split)
            name = self.dist_arg(_type(dims, dtype), node.data, node.shape,
                                 node.buffer, node.split)
            # A split axis of global size 1 (a rank's block has 0 or 1
            # elements along it): the global type says 1, so that the
            # compiler sees where the array broadcasts.
            whole = _static_dims(node.shape)
            if whole != dims:
                name = self.op(f"ndarray.cast {name} : {_type(dims, dtype)} "
                               f"to {_type(whole, dtype)}")
                dims = whole
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
        if split and isinstance(node.split, tuple):
            offset, sizes = block_of(shape, node.split)
            data, buffer = ghosted_grid_block(sizes, node.split, node.dtype)
            dims = _static_dims(shape, node.split)
            out = self.dist_arg(_type(dims, dtype), data, shape, buffer,
                                split=node.split)
        elif split:
            offset, rows = default_partition(shape[0])
            data, buffer = ghosted_block(rows, shape, node.dtype)
            dims = _static_dims(shape, 0)
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


# Names of the other parts of imex._core, bound once all are defined
# (the functions above use them only when called).
from ._core import (  # noqa: E402
    GHOST_ROWS,
    _State,
    block_of,
    default_partition,
    distributed,
    ghosted_block,
    ghosted_grid_block,
)
from ._emitters import (  # noqa: E402
    EMITTERS,
    _emit_view,
)
