"""Deferred evaluation: array operations record nodes of a graph; a sync
point turns the pending nodes into one ndarray-IR function, compiles it (or
finds it in the kernel cache) and runs it.

Kernels are keyed by their IR text, which holds the structure of the program
only (element types, ranks, which sizes are 1, distribution, slice bounds
along split axes); sizes, indices, Python scalars and data are arguments at
run time, so a loop of Python statements compiles once and then only
dispatches (docs/python.md, "Kernel cache").

Every array is a `Node`:
  * concrete: `data` holds a numpy array (for a distributed array: this
    rank's block of its distribution, `offset` its first global row, or
    with split axes its global offsets);
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
    # Checks of user errors found only at run time (indices out of range):
    # (flag, report) pairs; the 0-d boolean array `flag` is evaluated at the
    # next sync point even if nothing else uses it, and if it holds,
    # report() raises numpy's exception (on every rank: flags are
    # replicated).
    checks = []
    injected_failure = False  # IMEX_FAIL_COMPILE_ON_RANK was applied


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
        self.split = normalize_split(split, len(self.shape))
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


def ghosted_grid_block(sizes, split, dtype):
    """(block, buffer): an uninitialized block of `sizes` of an array split
    on the axes `split`, as the middle of a buffer with GHOST_ROWS spare
    elements on each side along each split axis."""
    spare = [2 * GHOST_ROWS if d in split else 0 for d in range(len(sizes))]
    buffer = np.empty([n + s for n, s in zip(sizes, spare)], dtype)
    return buffer[tuple(slice(s // 2, s // 2 + n)
                        for n, s in zip(sizes, spare))], buffer


def normalize_split(split, ndim):
    """How an array of `ndim` dimensions is distributed: None (replicated),
    0 (rows: dimension 0 split, the default distribution) or a tuple of the
    split axes (increasing; split over the balanced grid of the ranks, as
    `#dist.dist_env<split = [...]>`). Axes beyond `ndim` (the split of an
    operand kept by a result of lower rank) are dropped; none left: rows."""
    if split is None or ndim == 0:
        return None
    axes = (split,) if isinstance(split, int) else tuple(sorted(set(split)))
    axes = tuple(a for a in axes if a < ndim)
    return axes if axes and axes != (0,) else 0


def block_of(shape, split):
    """(offsets, sizes) of this rank's block of an array of `shape`
    distributed as `split` (see normalize_split)."""
    if split == 0:
        offset, rows = default_partition(shape[0])
        return ((offset,) + (0,) * (len(shape) - 1),
                (rows,) + tuple(shape[1:]))
    offsets, sizes = ext().grid_block(_State.team, list(shape), list(split))
    return tuple(offsets), tuple(sizes)


def concrete(data, split=None, copy=True):
    """A node holding numpy `data` (the whole array; for a split array this
    rank keeps its block): a copy, or `data` itself (C-contiguous)."""
    data = np.asarray(data)
    split = normalize_split(split, data.ndim)
    if isinstance(split, tuple):
        offsets, sizes = block_of(data.shape, split)
        # (One rank: kernels take the whole array, contiguous.)
        block, buffer = (ghosted_grid_block(sizes, split, data.dtype)
                         if team_info()[0] > 1 else
                         (np.empty(sizes, data.dtype), None))
        block[...] = data[tuple(slice(o, o + n)
                                for o, n in zip(offsets, sizes))]
        return Node(data.shape, data.dtype, split, data=block,
                    offset=offsets, buffer=buffer)
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


# --- the IR construction and the emitters (other files) -------------------

from ._builder import (  # noqa: E402
    Builder,
    _TYPES,
    _broadcast_dims,
    _static_dims,
    _type,
)
from ._emitters import (  # noqa: E402
    EMITTERS,
    _cast_to,
    _creation_sizes,
    _emit_argreduce,
    _emit_astype,
    _emit_broadcast_to,
    _emit_concat,
    _emit_cumulative,
    _emit_ewbin,
    _emit_ewuny,
    _emit_expand_dims,
    _emit_flip,
    _emit_full,
    _emit_linspace,
    _emit_loop,
    _emit_loop_index,
    _emit_loop_result,
    _emit_masked_select,
    _emit_matmul,
    _emit_operands,
    _emit_permute_dims,
    _emit_put,
    _emit_random,
    _emit_reduction,
    _emit_reshape,
    _emit_searchsorted,
    _emit_sort,
    _emit_squeeze,
    _emit_take,
    _emit_tri,
    _emit_view,
    _emit_where,
    _emit_while,
    _emit_write,
    _sized_result,
    _slice_operand,
    _team_attr,
    _view_slice,
    emit_in_order,
)


# --- evaluation -------------------------------------------------------------

def _pipeline(distributed):
    """The pipeline with the options the environment variables set."""
    pipeline = "imex-dist-cpu-pipeline" if distributed else "imex-cpu-pipeline"
    options = [f"{option}=0" for option, variable in
               (("bounds-checks", "IMEX_BOUNDS_CHECKS"),
                ("vector-math", "IMEX_VECTOR_MATH"))
               if os.environ.get(variable, "1") == "0"]
    block = os.environ.get("IMEX_ROW_BLOCK_BYTES")
    if block is not None:
        # Rows per block of updates reading their target (tests: small).
        options.append(f"row-block-bytes={int(block)}")
    depth = os.environ.get("IMEX_GHOST_ZONE_DEPTH")
    if distributed and depth is not None:
        # Steps per halo exchange of stencil loops (0: the cost model).
        options.append(f"ghost-zone-depth={int(depth)}")
    if options:
        pipeline += "{" + " ".join(options) + "}"
    return pipeline


def _run(builder):
    text = builder.text()
    pipeline = _pipeline(builder.distributed)
    kernel = _State.kernels.get((pipeline, text))
    if kernel is None:
        if os.environ.get("IMEX_PRINT_KERNELS"):
            sys.stderr.write(f"// imex kernel ({pipeline})\n{text}")
        try:
            kernel, error = ext().compile(text, "kernel", pipeline), None
        except ext().CompileError as failure:
            kernel, error = None, failure
        inject = os.environ.get("IMEX_FAIL_COMPILE_ON_RANK")
        if (error is None and inject is not None and
                not _State.injected_failure and
                inject == str(team_info()[1])):
            _State.injected_failure = True
            # (Fault injection into the first compile, for the tests of
            # what follows.)
            error = ext().CompileError("compile failure injected on this "
                                       "rank (IMEX_FAIL_COMPILE_ON_RANK)")
        if builder.distributed:
            # A rank whose compile failed raises; the others must too, not
            # wait for it in the kernel's communication.
            first = ext().team_first_message(
                _State.team, None if error is None else str(error))
            if first is not None and error is None:
                error = ext().CompileError(first)
        if error is not None:
            raise error
        if os.environ.get("IMEX_PRINT_KERNELS"):
            sys.stderr.write(f"// {kernel.stats}\n")
        _State.kernels[(pipeline, text)] = kernel
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
    for flag, _ in _State.checks:
        if flag._node.pending:
            needed[flag._node.id] = flag._node
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
        _raise_failed_checks()
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
    _raise_failed_checks()
    return gathered


def add_check(flag, report):
    """Registers a run-time check of a user error (see _State.checks)."""
    _State.checks.append((flag, report))


def _raise_failed_checks():
    checks, _State.checks = _State.checks, []
    for flag, report in checks:
        if flag._node.data is not None and flag._node.data.item():
            report()


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
