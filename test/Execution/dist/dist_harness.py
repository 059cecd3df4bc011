"""Distributed execution tests: ndarray programs whose arrays are distributed
over MPI ranks (`dist.team = 1`), compiled with imex-dist-cpu-pipeline and
run under mpirun on 1, 2, 3 and 4 ranks.

A test is a list of *cases*. A case is a function taking a `Dist` builder;
it creates its own inputs (distributed with `ndarray.copy {dist.team = 1}`,
created with a team, or replicated), computes with the builder, which emits
the ndarray IR and evaluates the same expression with numpy, and `check`s
results. `run_cases` puts all cases of a test into one program (one mpirun
launch per rank count keeps the suite fast) and checks

* every printed array against numpy;
* that every rank count prints the same arrays, bitwise (float
  reductions too: they are reproducible);
* that every rank holds the whole array `ndarray.to_tensor` gathers (all
  ranks print, IMEX_PRINT_ALL_RANKS=1, and must agree bitwise);
* that every rank frees each buffer it allocates exactly once;
* with more than one rank, that the program communicated through IDTR at
  all (and exchanged halos, for tests that say so; and sent no more than a
  given number of bytes, for tests that bound the communicated volume),
  read from the IDTR counters (`_idtr_stats`) the program prints last.

When a launch fails (compiler error, crash, abort), each case is run alone
on that rank count (and still checked), so the failure names the cases
that break, each with its own small program.

Environment: IMEX_RUNNER, IMEX_OPT, IMEX_MPIEXEC (see harness.py);
IMEX_DIST_RANKS (default "1,2,3,4"); IMEX_DIST_EMULATE=1 runs the same
programs without team attributes through imex-cpu-pipeline (every rank
computes everything), which checks the tests themselves before the
distributed pipeline exists.
"""

import math
import os
import re
import zlib

import numpy as np

from harness import (NUMPY_OF, Program, _element, array_type,
                     assert_matches, mlir_dtype, random_numbers)
from dist_data_ops import DataDependentOps
from dist_values import (NUMPY_BINARY, NUMPY_REDUCE, NUMPY_UNARY, Check, Val,
                         is_complex, is_float, reduction_dtype)

DIST_PIPELINE = "imex-dist-cpu-pipeline"
# Set (by test_dist_gpu.py) to a GPU environment: every array but the
# inputs' host data lives there (each input is copied to the device), and
# programs run through imex-dist-gpu-emulation-pipeline.
GPU_ENV = None
GPU_PIPELINE = "imex-dist-gpu-emulation-pipeline"
# The emulated kernels are compiled without LLVM optimization: they check
# the GPU lowering's semantics, not host code (the CPU tests compile at -O3),
# and optimizing the large emulation loop nests of a whole test program
# costs LLVM about a minute (loop rotation and GVN), running them well under
# a second.
GPU_RUNNER_ARGS = ("--O0",)
_NDARRAY_TYPE = re.compile(r"!ndarray\.ndarray<([^<>]*)>")
_FROM_MEMREF = re.compile(r"^(\s*)(%\w+) = (ndarray\.from_memref .* -> )"
                          r"(!ndarray\.ndarray<[^<>]*>)$")


def _on_gpu(text):
    """`text` with its arrays in GPU_ENV: host data (from_memref) copied to
    the device, every other array type in the environment."""
    lines = []
    for line in text.splitlines():
        m = _FROM_MEMREF.match(line)
        if m:
            indent, name, op, host = m.groups()
            lines.append(f"{indent}{name}_host = {op}{host}")
            lines.append(f"{indent}{name} = ndarray.copy {name}_host : {host} "
                         f"-> {_NDARRAY_TYPE.sub(_gpu_type, host)}")
        else:
            lines.append(_NDARRAY_TYPE.sub(_gpu_type, line))
    return "\n".join(lines) + "\n"


def _gpu_type(match):
    return f"!ndarray.ndarray<{match.group(1)}, {GPU_ENV}>"
EMULATE = os.environ.get("IMEX_DIST_EMULATE") == "1"
RANKS = tuple(int(n) for n in
              os.environ.get("IMEX_DIST_RANKS", "1,2,3,4").split(","))
# The data-dependent operations (sort, take, put, masks, scans) also run on
# 5 ranks by default: their IDTR routing has per-rank tables and prime
# rank counts leave uneven blocks everywhere.
RANKS_TO_5 = (RANKS + (5,) if "IMEX_DIST_RANKS" not in os.environ
              else RANKS)
TEAM = "" if EMULATE else " {dist.team = 1 : i64}"


def team_attrs(split=None, grid=None):
    """The attributes creating an array on team 1 split on the axes `split`
    over a grid of ranks of shape `grid` (None: the defaults, rows and a
    grid chosen at run time)."""
    if EMULATE:
        return ""
    attrs = ["dist.team = 1 : i64"]
    if split is not None:
        attrs.append(f"dist.split = array<i64: {', '.join(map(str, split))}>")
    if grid is not None:
        attrs.append(f"dist.grid = array<i64: {', '.join(map(str, grid))}>")
    return " {" + ", ".join(attrs) + "}"

# IDTR statistics (runtime/include/idtr/idtr.h) the programs print last.
STAT_KINDS = ["halo", "reshape", "permute", "repartition", "gather",
              "alltoall", "reduce", "metadata", "all"]
STAT_HALO, STAT_REPARTITION, STAT_ALL = 0, 3, 8
CNT_CALLS, CNT_MSGS_SENT, CNT_BYTES_SENT, CNT_COLLECTIVES, CNT_COLL_BYTES = \
    0, 1, 2, 5, 6
MEM_PLAN_BYTES, MEM_STAGING_PEAK = 1, 3

RNG = np.random.default_rng(20240611)  # reseeded per case by build()


def data(shape, dtype="f64", low=-4, high=4):
    """Reproducible input data of an ndarray dtype."""
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("f"):
        return RNG.uniform(low, high, size=shape).astype(NUMPY_OF[dtype])
    if is_complex(dtype):
        return (RNG.uniform(low, high, size=shape) + 1j *
                RNG.uniform(low, high, size=shape)).astype(NUMPY_OF[dtype])
    return RNG.integers(low, high + 1, size=shape).astype(NUMPY_OF[dtype])


def iota(shape, dtype="f64"):
    """0, 1, 2, ... in row-major order: positions are easy to read."""
    return np.arange(math.prod(shape)).reshape(shape).astype(NUMPY_OF[dtype])


def _bound(value, n, default_end):
    """A slice bound as (from_end, k): k, or n - k when from_end."""
    if value is None:
        return (True, 0) if default_end else (False, 0)
    return (True, -value) if value < 0 else (False, value)


class Dist(DataDependentOps):
    """Builds one program: ndarray IR and its numpy twin side by side."""

    def __init__(self, distribution=None):
        self.p = Program()
        # (split, grid) of the distributed arrays a case creates, for those
        # whose rank has the split axes (others are split on rows).
        self.distribution = distribution
        self.checks = []
        self.case = ""
        self.emit = True
        self.opaque = 0

    # -- low level -------------------------------------------------------
    def line(self, text):
        if self.emit:
            self.p.line(text)

    def op(self, text):
        result = self.p.fresh()
        self.line(f"{result} = {text}")
        return result

    def index(self, k):
        return self.op(f"arith.constant {int(k)} : index")

    def opaque_index(self, k):
        """An index the compiler cannot see through (a load from a
        writable global): keeps shapes dynamic after canonicalization."""
        self.opaque += 1
        name = f"@opaque{self.opaque}"
        self.p.globals.append(f'memref.global "private" {name} : '
                              f"memref<index> = dense<{int(k)}>")
        m = self.op(f"memref.get_global {name} : memref<index>")
        return self.op(f"memref.load {m}[] : memref<index>")

    def scalar_constant(self, value, dtype):
        if is_complex(dtype):
            value, component = complex(value), dtype[8:-1]
            return self.op(f"complex.constant [{value.real!r} : {component}, "
                           f"{value.imag!r} : {component}] : {dtype}")
        if dtype == "i1":
            return self.op(f"arith.constant {'true' if value else 'false'}")
        if dtype.startswith("f"):
            return self.op(f"arith.constant {_element(value, dtype)} : "
                           f"{dtype}")
        assert not dtype.startswith("ui"), "unsigned constants: use inputs"
        return self.op(f"arith.constant {int(value)} : {dtype}")

    def team(self, ndim):
        """The team attributes for creating a distributed array of rank
        `ndim` in this program's distribution."""
        if self.distribution is None or ndim <= max(self.distribution[0]):
            return TEAM
        return team_attrs(*self.distribution)

    def redistribute(self, a, split=None, grid=None):
        """`a` copied into another distribution (`ndarray.copy` with
        `dist.split` and `dist.grid`: a dist.redistribute)."""
        t = array_type(a.dims, a.dtype)
        v = self.op(f"ndarray.copy {a.name}{team_attrs(split, grid)} : "
                    f"{t} -> {t}")
        return Val(v, a.dims, a.dtype, a.value.copy())

    # -- inputs ----------------------------------------------------------
    def array(self, value, dtype=None, dist=True, dynamic=False, via="copy"):
        """An input array holding `value`: distributed (`ndarray.copy`
        with a team of a replicated array, or `via="create"`: created with
        a team and filled by insert_slice of replicated data), or
        replicated (`dist=False`). `dynamic` makes every size opaque to the
        compiler."""
        value = np.asarray(value)
        dtype = dtype or mlir_dtype(value.dtype)
        if not self.emit:
            return Val("%unused", [None] * value.ndim, dtype, value.copy())
        x, xt = self.p.input(value, dtype)
        dims = list(value.shape)
        if value.ndim and (dynamic or (via == "create" and dist)):
            sizes = ([self.opaque_index(n) for n in value.shape] if dynamic
                     else [str(n) for n in value.shape])
            if dynamic:
                dims = [None] * value.ndim
            t = array_type(dims, dtype)
            # Overwritten by the insert below (unsigned: no constants).
            fill = "" if dtype.startswith("ui") else \
                f" value {self.scalar_constant(0, dtype)}"
            with_team = via == "create" and dist
            size_list = f"({', '.join(sizes)})" if dynamic else ""
            y = self.op(f"ndarray.create{size_list}{fill}"
                        f"{self.team(len(dims)) if with_team else ''} : {t}")
            self.line(f"ndarray.insert_slice {x} into {y}"
                      f"[{', '.join('0' for _ in dims)}] [{', '.join(sizes)}]"
                      f" [{', '.join('1' for _ in dims)}] : {xt} into {t}")
            if with_team:
                return Val(y, dims, dtype, value.copy())
            x, xt = y, t
        if dist:
            x = self.op(f"ndarray.copy {x}{self.team(len(dims))} : {xt} -> "
                        f"{xt}")
        return Val(x, dims, dtype, value.copy())

    def scalar(self, value, dtype="f64", dist=False):
        """A 0-d array (`ndarray.create value`), optionally with a team."""
        c = self.scalar_constant(value, dtype)
        team = TEAM if dist else ""
        v = self.op(f"ndarray.create value {c}{team} : "
                    f"{array_type([], dtype)}")
        return Val(v, [], dtype, np.asarray(value, NUMPY_OF[dtype]))

    def create(self, shape, fill, dtype="f64", dynamic=False, team=True):
        c = self.scalar_constant(fill, dtype)
        dims = [None] * len(shape) if dynamic else list(shape)
        sizes = ""
        if dynamic:
            sizes = "(" + ", ".join(self.opaque_index(n) for n in shape) + ")"
        team = self.team(len(shape)) if team else ""
        v = self.op(f"ndarray.create{sizes} value {c}{team}"
                    f" : {array_type(dims, dtype)}")
        return Val(v, dims, dtype, np.full(shape, fill, NUMPY_OF[dtype]))

    def linspace(self, start, stop, num, endpoint=True, dtype="f64",
                 dynamic=False, team=True):
        s = self.scalar_constant(start, "f64")
        e = self.scalar_constant(stop, "f64")
        n = self.opaque_index(num) if dynamic else self.index(num)
        flag = " endpoint" if endpoint else ""
        dims = [None] if dynamic else [num]
        v = self.op(f"ndarray.linspace {s}, {e}, {n}{flag}"
                    f"{TEAM if team else ''} : f64 -> "
                    f"{array_type(dims, dtype)}")
        expected = np.linspace(start, stop, num, endpoint=endpoint)
        return Val(v, dims, dtype, expected.astype(NUMPY_OF[dtype]))

    def random(self, distribution, shape, seed, stream, dtype="f64",
               dynamic=False, team=True):
        """ndarray.random: every rank computes its own block."""
        s = self.scalar_constant(seed, "i64")
        t = self.scalar_constant(stream, "i64")
        dims = [None] * len(shape) if dynamic else list(shape)
        sizes = [self.opaque_index(n) for n in shape] if dynamic else []
        operands = f" ({', '.join(sizes)})" if sizes else ""
        v = self.op(f"ndarray.random {distribution} {s}, {t}{operands}"
                    f"{TEAM if team else ''} : {array_type(dims, dtype)}")
        expected = random_numbers(distribution, shape, seed, stream, dtype)
        return Val(v, dims, dtype, expected)

    def tri(self, shape, k, dtype="f64", dynamic=False, team=True):
        """ndarray.tri (numpy's tri): every rank computes its own rows."""
        kv = self.opaque_index(k) if dynamic else self.index(k)
        dims = [None, None] if dynamic else list(shape)
        sizes = [self.opaque_index(n) for n in shape] if dynamic else []
        operands = f" ({', '.join(sizes)})" if sizes else ""
        v = self.op(f"ndarray.tri {kv}{operands}{TEAM if team else ''} : "
                    f"{array_type(dims, dtype)}")
        return Val(v, dims, dtype, np.tri(*shape, k, dtype=NUMPY_OF[dtype]))

    # -- computation -----------------------------------------------------
    def _bcast_dims(self, *vals):
        rank = max(v.ndim for v in vals)
        shape = np.broadcast_shapes(*(v.shape for v in vals))
        dims = []
        for i in range(rank):
            dyn = False
            for v in vals:
                j = i - (rank - v.ndim)
                if j >= 0 and v.dims[j] is None:
                    dyn = True
            dims.append(None if dyn else shape[i])
        return dims

    def ewbin(self, kind, a, b, rdtype=None):
        with np.errstate(all="ignore"):
            expected = np.asarray(NUMPY_BINARY[kind](a.value, b.value))
        if kind == "divide" and not expected.dtype.kind == "f":
            expected = expected.astype(np.float64)
        if rdtype is None:
            # bf16 values are float32 in numpy: bf16 with bf16 stays bf16.
            same = a.dtype == b.dtype == "bf16" and expected.dtype.kind == "f"
            rdtype = "bf16" if same else mlir_dtype(expected.dtype)
        dims = self._bcast_dims(a, b)
        r = self.op(f"ndarray.ewbin {kind} {a.name}, {b.name} : "
                    f"({a.type}, {b.type}) -> {array_type(dims, rdtype)}")
        return Val(r, dims, rdtype, expected.astype(NUMPY_OF[rdtype]),
                   a.exact and b.exact)

    def add(self, a, b):
        return self.ewbin("add", a, b)

    def sub(self, a, b):
        return self.ewbin("subtract", a, b)

    def mul(self, a, b):
        return self.ewbin("multiply", a, b)

    def ewuny(self, kind, a):
        with np.errstate(all="ignore"):
            expected = np.asarray(NUMPY_UNARY[kind](a.value))
        rdtype = mlir_dtype(expected.dtype)
        if kind in ("floor", "ceil", "round", "trunc"):
            rdtype = a.dtype  # integers keep their type (array API)
        r = self.op(f"ndarray.ewuny {kind} {a.name} : {a.type} -> "
                    f"{array_type(a.dims, rdtype)}")
        return Val(r, a.dims, rdtype, expected.astype(NUMPY_OF[rdtype]),
                   a.exact)

    def where(self, c, x, y):
        expected = np.asarray(np.where(c.value, x.value, y.value))
        rdtype = mlir_dtype(expected.dtype)
        dims = self._bcast_dims(c, x, y)
        r = self.op(f"ndarray.where {c.name}, {x.name}, {y.name} : "
                    f"({c.type}, {x.type}, {y.type}) -> "
                    f"{array_type(dims, rdtype)}")
        return Val(r, dims, rdtype, expected, c.exact and x.exact and y.exact)

    def astype(self, a, dtype, copy=False):
        flag = " copy" if copy else ""
        r = self.op(f"ndarray.cast_elemtype {a.name}{flag} : {a.type} to "
                    f"{array_type(a.dims, dtype)}")
        return Val(r, a.dims, dtype, a.value.astype(NUMPY_OF[dtype]), a.exact)

    def reduce(self, kind, a, axes=None, keepdims=False, correction=None):
        rdtype = reduction_dtype(kind, a.dtype)
        axes_t = tuple(range(a.ndim)) if axes is None else tuple(axes)
        kwargs = {} if correction is None else {"ddof": correction}
        with np.errstate(all="ignore"):
            expected = np.asarray(NUMPY_REDUCE[kind](
                a.value, axis=axes_t, keepdims=keepdims, **kwargs))
        dims = []
        for i, d in enumerate(a.dims):
            if i not in axes_t:
                dims.append(d)
            elif keepdims:
                dims.append(1)
        attrs = ""
        if axes is not None:
            attrs += f" axes [{', '.join(map(str, axes))}]"
        if keepdims:
            attrs += " keepdims"
        if correction is not None:
            attrs += f" correction {float(correction)}"
        r = self.op(f"ndarray.reduction {kind} {a.name}{attrs} : {a.type} -> "
                    f"{array_type(dims, rdtype)}")
        # Float reductions are reproducible: the same bits on any number of
        # ranks (a fixed blocking of dimension 0, see docs/distribution.md).
        return Val(r, dims, rdtype, expected.astype(NUMPY_OF[rdtype]), a.exact)

    def _slice(self, a, index):
        """Offsets, sizes, strides (strings), the kept dims and the numpy
        index of a numpy-style index tuple (ints and slices with positive
        steps) on `a`. Dynamic dims compute bounds from `ndarray.dim`."""
        if not isinstance(index, tuple):
            index = (index,)
        index = index + (slice(None),) * (a.ndim - len(index))
        offsets, sizes, strides, dims = [], [], [], []
        for axis, (ix, n, d) in enumerate(zip(index, a.shape, a.dims)):
            if isinstance(ix, int):
                k = ix + n if ix < 0 else ix
                assert 0 <= k < n
                if d is None and ix < 0:
                    dim = self.op(f"ndarray.dim {a.name}, "
                                  f"{self.index(axis)} : {a.type}")
                    offsets.append(self.op(f"arith.subi {dim}, "
                                           f"{self.index(-ix)} : index"))
                else:
                    offsets.append(str(k))
                sizes.append("1")
                strides.append("1")
                continue
            start, stop, step = ix.indices(n)
            step = ix.step or 1
            assert step > 0
            count = len(range(start, stop, step))
            lo = _bound(ix.start, n, False)
            hi = _bound(ix.stop, n, True)
            if d is None and (lo[0] or hi[0]):
                dim = self.op(f"ndarray.dim {a.name}, {self.index(axis)} : "
                              f"{a.type}")

                def at(bound):
                    if not bound[0]:
                        return self.index(bound[1])
                    return self.op(f"arith.subi {dim}, {self.index(bound[1])}"
                                   f" : index")
                lo_v, hi_v = at(lo), at(hi)
                span = self.op(f"arith.subi {hi_v}, {lo_v} : index")
                if step > 1:
                    span = self.op(f"arith.addi {span}, "
                                   f"{self.index(step - 1)} : index")
                    span = self.op(f"arith.divui {span}, {self.index(step)} "
                                   f": index")
                offsets.append(lo_v if lo[0] else str(lo[1]))
                sizes.append(span)
                dims.append(None)
            else:
                offsets.append(str(start))
                sizes.append(str(count))
                dims.append(count)
            strides.append(str(step))
        return offsets, sizes, strides, dims, index

    def view(self, a, index):
        """`a[index]`: ndarray.subview, a view (numpy twin: a numpy view)."""
        offsets, sizes, strides, dims, index = self._slice(a, index)
        expected = a.value[index]
        r = self.op(f"ndarray.subview {a.name}[{', '.join(offsets)}] "
                    f"[{', '.join(sizes)}] [{', '.join(strides)}] : {a.type} "
                    f"to {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, expected, a.exact, base=a)

    def setitem(self, dst, index, src):
        """`dst[index] = src`: ndarray.insert_slice (in place). Integer
        indices drop dimensions as in numpy: a non-0-d source is inserted
        into the rank-reduced view `dst[index]`."""
        full = index if isinstance(index, tuple) else (index,)
        if src.ndim and any(isinstance(i, int) for i in full):
            view = self.view(dst, index)
            return self.setitem(view, (slice(None),) * view.ndim, src)
        offsets, sizes, strides, _, index = self._slice(dst, index)
        self.line(f"ndarray.insert_slice {src.name} into {dst.name}"
                  f"[{', '.join(offsets)}] [{', '.join(sizes)}] "
                  f"[{', '.join(strides)}] : {src.type} into {dst.type}")
        dst.value[index] = src.value
        while dst is not None:
            dst.exact = dst.exact and src.exact
            dst = dst.base

    def global_slice(self, a, index):
        """`a[index].copy()` with any steps: the axes sliced with negative
        steps are flipped (ndarray.flip), then sliced with positive steps
        (caput's global_slice: the result stays distributed)."""
        index = index if isinstance(index, tuple) else (index,)
        flipped = [axis for axis, ix in enumerate(index)
                   if isinstance(ix, slice) and (ix.step or 1) < 0]
        mirrored = []
        for axis, ix in enumerate(index):
            if axis not in flipped:
                mirrored.append(ix)
                continue
            n = a.shape[axis]
            taken = range(*ix.indices(n))
            first = n - 1 - taken[0] if taken else 0
            mirrored.append(slice(first, first + len(taken) * -ix.step
                                  if taken else 0, -ix.step))
        source = self.flip(a, flipped) if flipped else a
        return self.extract(source, tuple(mirrored))

    def extract(self, a, index):
        """`a[index].copy()`: ndarray.extract_slice (a fresh array)."""
        offsets, sizes, strides, dims, index = self._slice(a, index)
        r = self.op(f"ndarray.extract_slice {a.name}[{', '.join(offsets)}] "
                    f"[{', '.join(sizes)}] [{', '.join(strides)}] : {a.type} "
                    f"to {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, a.value[index].copy(), a.exact)

    def immutable_setitem(self, dst, index, src):
        """A copy of dst with `[index] = src` (immutable_insert_slice);
        dst is unchanged."""
        offsets, sizes, strides, _, index = self._slice(dst, index)
        r = self.op(f"ndarray.immutable_insert_slice {src.name} into "
                    f"{dst.name}[{', '.join(offsets)}] [{', '.join(sizes)}] "
                    f"[{', '.join(strides)}] : {src.type} into {dst.type}")
        value = dst.value.copy()
        value[index] = src.value
        return Val(r, dst.dims, dst.dtype, value, dst.exact and src.exact)

    def expand_dims(self, a, axes):
        value, dims = a.value, list(a.dims)
        for axis in axes:
            value = np.expand_dims(value, axis)
            dims.insert(axis, 1)
        r = self.op(f"ndarray.expand_dims {a.name} [{', '.join(map(str, axes))}]"
                    f" : {a.type} -> {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, value.copy(), a.exact)

    def squeeze(self, a, axes):
        dims = [d for i, d in enumerate(a.dims) if i not in axes]
        r = self.op(f"ndarray.squeeze {a.name} [{', '.join(map(str, axes))}] "
                    f": {a.type} -> {array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, np.squeeze(a.value, tuple(axes)).copy(),
                   a.exact)

    def broadcast_to(self, a, shape):
        r = self.op(f"ndarray.broadcast_to {a.name} : {a.type} -> "
                    f"{array_type(shape, a.dtype)}")
        return Val(r, shape, a.dtype,
                   np.broadcast_to(a.value, shape).copy(), a.exact)

    def matmul(self, a, b):
        expected = np.asarray(np.matmul(a.value, b.value))
        rdtype = mlir_dtype(expected.dtype)
        dims = list(expected.shape)
        r = self.op(f"ndarray.matmul {a.name}, {b.name} : ({a.type}, "
                    f"{b.type}) -> {array_type(dims, rdtype)}")
        # sums of products: the order may depend on the partition
        return Val(r, dims, rdtype, expected,
                   a.exact and b.exact and not (is_float(rdtype) or is_complex(rdtype)))

    def load(self, a, index):
        """`a[i, j]` as a scalar, returned as a replicated 0-d array."""
        idx = [self.index(i) for i in index]
        e = self.op(f"ndarray.load {a.name}[{', '.join(idx)}] : {a.type}")
        r = self.op(f"ndarray.create value {e} : {array_type([], a.dtype)}")
        return Val(r, [], a.dtype, np.asarray(a.value[tuple(index)]), a.exact)

    def reshape(self, a, shape, copy=False, dynamic=False):
        """numpy reshape; with `dynamic` dimension 0 of the result is a
        size computed at run time from the source's sizes."""
        flag = " copy" if copy else ""
        dims, sizes = list(shape), ""
        if dynamic and shape:
            total = self.index(1)
            for axis in range(a.ndim):
                dim = self.op(f"ndarray.dim {a.name}, {self.index(axis)} : "
                              f"{a.type}")
                total = self.op(f"arith.muli {total}, {dim} : index")
            rest = self.index(math.prod(shape[1:]))
            sizes = f"({self.op(f'arith.divui {total}, {rest} : index')})"
            dims[0] = None
        r = self.op(f"ndarray.reshape {a.name}{sizes}{flag} : {a.type} -> "
                    f"{array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, a.value.reshape(shape).copy(), a.exact)

    def permute(self, a, perm):
        dims = [a.dims[p] for p in perm]
        r = self.op(f"ndarray.permute_dims {a.name} "
                    f"[{', '.join(map(str, perm))}] : {a.type} -> "
                    f"{array_type(dims, a.dtype)}")
        return Val(r, dims, a.dtype, np.transpose(a.value, perm).copy(),
                   a.exact)

    def concat(self, vals, axis):
        expected = np.concatenate([v.value for v in vals], axis=axis)
        rdtype = mlir_dtype(expected.dtype)
        dims = []
        for i in range(vals[0].ndim):
            dyn = any(v.dims[i] is None for v in vals)
            dims.append(None if dyn else expected.shape[i])
        names = ", ".join(v.name for v in vals)
        types = ", ".join(v.type for v in vals)
        r = self.op(f"ndarray.concat {names} axis {axis} : ({types}) -> "
                    f"{array_type(dims, rdtype)}")
        return Val(r, dims, rdtype, expected,
                   all(v.exact for v in vals))

    def loop(self, count, body, dynamic=False):
        """`for _ in range(count): body(self)` as one scf.for; body may only
        update arrays defined outside (setitem). numpy runs it `count`
        times, the IR is emitted once."""
        c0, c1 = self.index(0), self.index(1)
        n = self.opaque_index(count) if dynamic else self.index(count)
        self.line(f"scf.for %it{self.p.count} = {c0} to {n} step {c1} {{")
        for i in range(count):
            body(self)
            self.emit = False
        self.emit = True
        if count == 0:
            raise ValueError("loop needs count >= 1 to emit its body")
        self.line("}")

    # -- results ---------------------------------------------------------
    def check(self, val, label=""):
        """Prints `val`; its current numpy value is the expected output."""
        self.p.output(val.name, val.dims, val.dtype)
        name = f"{self.case}:{label}" if label else self.case
        taken = {c.label for c in self.checks}
        if name in taken:
            name += f" #{sum(c.label.startswith(name) for c in self.checks)}"
        self.checks.append(Check(name, val.value.astype(NUMPY_OF[val.dtype]),
                                 val.dtype, val.exact))

    def finish(self):
        """Prints the IDTR counters: calls per kind, halo messages sent,
        bytes sent point-to-point and contributed to collectives (all, the
        halo and repartition kinds' broadcasts), messages sent and
        collectives issued; then the runtime's memory: bytes of cached
        plans and the peak bytes of staging buffers."""
        if EMULATE:
            return
        self.p.globals.append("func.func private @_idtr_stats(i64, i64) -> "
                              "i64")
        values = []
        for kind in range(len(STAT_KINDS)):
            k = self.op(f"arith.constant {kind} : i64")
            c = self.op(f"arith.constant {CNT_CALLS} : i64")
            values.append(self.op(f"func.call @_idtr_stats({k}, {c}) : "
                                  f"(i64, i64) -> i64"))
        for kind, counter in ((STAT_HALO, CNT_MSGS_SENT),
                              (STAT_ALL, CNT_BYTES_SENT),
                              (STAT_ALL, CNT_COLL_BYTES),
                              (STAT_HALO, CNT_COLL_BYTES),
                              (STAT_REPARTITION, CNT_COLL_BYTES),
                              (STAT_ALL, CNT_MSGS_SENT),
                              (STAT_ALL, CNT_COLLECTIVES)):
            k = self.op(f"arith.constant {kind} : i64")
            c = self.op(f"arith.constant {counter} : i64")
            values.append(self.op(f"func.call @_idtr_stats({k}, {c}) : "
                                  "(i64, i64) -> i64"))
        self.p.globals.append("func.func private @_idtr_memory(i64) -> i64")
        for what in (MEM_PLAN_BYTES, MEM_STAGING_PEAK):
            w = self.op(f"arith.constant {what} : i64")
            values.append(self.op(f"func.call @_idtr_memory({w}) : "
                                  "(i64) -> i64"))
        n = len(values)
        t = self.op(f"tensor.from_elements {', '.join(values)} : "
                    f"tensor<{n}xi64>")
        u = self.op(f"tensor.cast {t} : tensor<{n}xi64> to tensor<*xi64>")
        self.line(f"func.call @imexPrintI64({u}) : (tensor<*xi64>) -> ()")
        self.p.outputs.append("i64")


def build(cases, distribution=None):
    """One program running `cases` (creating distributed arrays in
    `distribution`, see Dist); a case gets the same data whether it runs
    with others or alone (the generator is seeded by its name)."""
    global RNG
    d = Dist(distribution)
    for case in cases:
        d.case = case_name(case)
        RNG = np.random.default_rng(zlib.crc32(d.case.encode()))
        case(d)
    d.finish()
    if GPU_ENV:
        host_text = d.p.text
        d.p.text = lambda: _on_gpu(host_text())
    return d


def case_name(case):
    return getattr(case, "case_name", None) or case.__name__


def named(name, fn, *args, **kwargs):
    """A case calling fn(d, *args, **kwargs), named `name`."""
    def case(d):
        fn(d, *args, **kwargs)
    case.case_name = name
    return case


def _same(x, y, exact):
    if x.shape != y.shape:
        return False
    if exact or x.dtype.kind not in "fc":
        return np.array_equal(x, y, equal_nan=x.dtype.kind in "fc")
    component = x.dtype.itemsize // (2 if x.dtype.kind == "c" else 1)
    tol = 1e-12 if component >= 8 else 1e-5
    return np.allclose(x, y, rtol=tol, atol=tol, equal_nan=True)


class LaunchFailed(Exception):
    pass


def _run(d, nprocs, options=""):
    """Runs d's program on nprocs ranks (with pipeline `options` for the
    distributed pipeline); returns ({label: rank 0's array}, per-rank IDTR
    stats or None, errors) after checking that every rank printed the same
    arrays (the stats, printed last, differ)."""
    pipeline = "imex-cpu-pipeline" if EMULATE else \
        GPU_PIPELINE if GPU_ENV else DIST_PIPELINE
    if options and pipeline == DIST_PIPELINE:
        pipeline += f"{{{options}}}"
    try:
        per_rank = d.p.run_mpi(nprocs, pipeline=pipeline,
                               extra_args=GPU_RUNNER_ARGS if GPU_ENV else ())
    except AssertionError as e:
        raise LaunchFailed(str(e)) from None
    errors = []
    for r, arrays in enumerate(per_rank[1:], 1):
        for check, mine, theirs in zip(d.checks, arrays, per_rank[0]):
            if not _same(mine, theirs, True):
                errors.append(f"{check.label} on {nprocs} ranks: rank {r} "
                              f"holds {mine}, rank 0 holds {theirs}")
    stats = [arrays[-1] for arrays in per_rank] if not EMULATE else None
    got = {c.label: a for c, a in zip(d.checks, per_rank[0])}
    return got, stats, errors


def _run_and_compare(d, n, expect_halo, errors, max_bytes=None, options=""):
    got, stats, rank_errors = _run(d, n, options)
    errors += rank_errors
    for check in d.checks:
        try:
            assert_matches(got[check.label], check.expected, check.dtype)
        except AssertionError as e:
            errors.append(f"{check.label} on {n} ranks differs from "
                          f"numpy:\n{e}")
    if stats is not None and n > 1:
        errors += _check_stats(stats, n, expect_halo, max_bytes)
    return got


def run_cases(cases, ranks=None, expect_halo=False, max_bytes=None,
              options="", distribution=None):
    """Runs all `cases` in one program on each rank count; see the module
    docstring for what is checked. `max_bytes`: no rank may send more bytes
    (point-to-point and into collectives, over the whole program).
    `options`: of the distributed pipeline (e.g. "split-interior=1").
    `distribution`: (split axes, grid shape or None) of the arrays the cases
    create (see Dist). When the program fails on some rank
    count, each case runs alone there (still checked) and the failing ones
    are reported with their own, small program; later rank counts run the
    program without them. Raises AssertionError listing every problem."""
    __tracebackhide__ = True
    ranks = ranks or RANKS
    errors, results, broken = [], {}, {}
    for n in ranks:
        working = [c for c in cases if case_name(c) not in broken]
        if not working:
            break
        d = build(working, distribution)
        try:
            results[n] = _run_and_compare(d, n, expect_halo, errors,
                                          max_bytes, options)
            continue
        except LaunchFailed as e:
            batch_error = str(e)
        results[n], failing = {}, []
        for case in working:
            try:
                results[n].update(_run_and_compare(build([case],
                                                         distribution), n,
                                                   expect_halo, errors,
                                                   max_bytes, options))
            except LaunchFailed as e:
                failing.append(case_name(case))
                broken[case_name(case)] = n
                errors.append(f"=== case {case_name(case)} fails on {n} "
                              f"ranks (not run on more ranks):\n"
                              f"{_shorten(str(e))}")
        if not failing:
            errors.append(f"=== the program fails on {n} ranks, every case "
                          f"passes alone:\n{_shorten(batch_error)}")
    labels = {}
    for got in results.values():
        labels.update(dict.fromkeys(got))
    exact = {c.label: c.exact for c in build(cases, distribution).checks}
    base = min(results) if results else None
    for n, got in results.items():
        for label in labels:
            a, b = got.get(label), results[base].get(label)
            if n != base and a is not None and b is not None and \
                    not _same(a, b, exact[label]):
                errors.append(f"{label}: {n} ranks give {a}, {base} ranks "
                              f"give {b}")
    assert not errors, "\n\n".join(errors)


def data_bytes_sent(stats_row):
    """The bytes of array data a rank sent: point to point, and as the root
    of the broadcasts IDTR makes of the halo and repartition plans that
    every rank reads alike (replicated reads)."""
    base = len(STAT_KINDS)
    return int(stats_row[base + 1]) + int(stats_row[base + 3]) + \
        int(stats_row[base + 4])


def _check_stats(stats, n, expect_halo, max_bytes=None):
    errors = []
    if max_bytes is not None:
        sent = [int(s[len(STAT_KINDS) + 1]) + int(s[len(STAT_KINDS) + 2])
                for s in stats]
        if max(sent) > max_bytes:
            errors.append(f"on {n} ranks a rank sent {max(sent)} bytes, more "
                          f"than the {max_bytes} allowed (bytes sent per "
                          f"rank {sent}, stats {stats})")
    calls = [int(s[STAT_ALL]) for s in stats]
    if max(calls) == 0:
        errors.append(f"on {n} ranks no rank called IDTR at all: the arrays "
                      f"were not distributed (stats {stats})")
    if expect_halo:
        halos = [int(s[STAT_HALO]) for s in stats]
        msgs = [int(s[len(STAT_KINDS)]) for s in stats]
        if max(halos) == 0 or max(msgs) == 0:
            errors.append(f"on {n} ranks no halo was exchanged: halo calls "
                          f"per rank {halos}, halo messages sent {msgs}")
    return errors


def _shorten(text, limit=12000):
    if len(text) <= limit:
        return text
    return text[:limit // 2] + "\n[...]\n" + text[-limit // 2:]
