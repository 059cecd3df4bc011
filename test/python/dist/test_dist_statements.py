"""Pointwise statements on arrays of one shape and distribution (rows,
columns, the grid) move no data; assignments between distributions move
each element at most once: the runtime's communication counters do
not change while they run (after their first run, which compiles and
agrees on the kernel), and their results equal numpy's. Sizes do not
divide evenly; with 3 and 4 ranks some ranks own nothing of the smallest
arrays."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import imex as xp
from helpers import check, sample

SPLITS = [0, 1, (0, 1)]
SHAPES = [(37, 29), (3, 5)]


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


def statements(module):
    """name -> (statement on (a, b)), each written as users write it."""
    def assign(a, b):
        b[:, :] = a + 1.0

    def update_rows(a, b):
        b[1:-1, :] = b[1:-1, :] + a[1:-1, :]

    def iadd_columns(a, b):
        b[:, 1:] += a[:, 1:]

    def scale_block(a, b):
        b[1:, 1:-1] = a[1:, 1:-1] * 2.0

    def imul(a, b):
        view = b[:, :]
        view *= 0.5

    def where(a, b):
        b[:, :] = module.where(a > 0.0, a, b)

    def mask(a, b):
        b[a > 1.0] = 0.0

    return {f.__name__: f for f in (assign, update_rows, iadd_columns,
                                    scale_block, imul, where, mask)}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("name", sorted(statements(np)))
def test_aligned_statement_moves_no_data(name, split, shape):
    x, y = sample(shape, np.float64, seed=1), sample(shape, np.float64, seed=2)
    a, b = xp.asarray(x, split=split), xp.asarray(y, split=split)
    run, expected = statements(xp)[name], y.copy()
    reference = statements(np)[name]
    run(a, b)
    reference(x, expected)
    xp.sync()
    before = xp.comm_stats()
    for _ in range(3):
        run(a, b)
        reference(x, expected)
    xp.sync()
    after = xp.comm_stats()
    moved = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert not moved, f"{name} on split={split} communicated: {moved}"
    check(b, expected)


@st.composite
def aligned_statements(draw):
    """(shape, split, slice, kind): a statement whose every view is the
    written slice of an array of the written array's shape and
    distribution."""
    shape = (draw(st.integers(1, 9)), draw(st.integers(1, 9)))
    region = []
    for n in shape:
        start = draw(st.integers(0, n - 1))
        region.append(slice(start, draw(st.integers(start + 1, n))))
    return (shape, draw(st.sampled_from(SPLITS)), tuple(region),
            draw(st.sampled_from(["expr", "self", "augmented", "where"])))


def run_aligned(kind, region, module, a, b):
    if kind == "expr":
        b[region] = a[region] * 3.0 - 1.0
    elif kind == "self":
        b[region] = b[region] * a[region] + a[region]
    elif kind == "augmented":
        b[region] -= a[region]
    else:
        b[region] = module.where(a[region] > b[region], a[region],
                                 b[region] * 2.0)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(aligned_statements())
def test_generated_aligned_statements_move_no_data(case):
    """The rule: a pointwise statement whose views are all the written
    slice, of arrays of one shape and distribution, moves no data, whatever
    the slice (a rank owning none of it included)."""
    shape, split, region, kind = case
    x, y = sample(shape, np.float64, seed=3), sample(shape, np.float64, seed=4)
    a, b = xp.asarray(x, split=split), xp.asarray(y, split=split)
    expected = y.copy()
    run_aligned(kind, region, xp, a, b)
    run_aligned(kind, region, np, x, expected)
    xp.sync()
    before = xp.comm_stats()
    run_aligned(kind, region, xp, a, b)
    run_aligned(kind, region, np, x, expected)
    xp.sync()
    after = xp.comm_stats()
    moved = {k: after[k] - before[k] for k in after if after[k] != before[k]}
    assert not moved, f"{kind} {region} on split={split}: {moved}"
    check(b, expected)


@pytest.mark.parametrize("split", SPLITS)
def test_global_size_one_axis(split):
    x, y = sample((1, 1), np.float64, seed=3), sample((1, 1), np.float64, seed=4)
    a, b = xp.asarray(x, split=split), xp.asarray(y, split=split)
    b[:, :] = a * 3.0
    xp.sync()
    before = xp.comm_stats()
    b[:, :] = a * 3.0
    xp.sync()
    after = xp.comm_stats()
    check(b, x * 3.0)
    assert after == before


@st.composite
def shifted_updates(draw):
    """(shape, split, destination slices, read slices, block bytes): an
    update reading views of its target shifted from the written slice
    (halos or redistribution, then a kernel computing it a block of rows at
    a time, small blocks here: IMEX_ROW_BLOCK_BYTES)."""
    split = draw(st.sampled_from(SPLITS))
    shape = tuple(draw(st.sampled_from([high, draw(st.integers(1, high))]))
                  for high in (33, 9))
    dest, reads = [], [[] for _ in range(draw(st.integers(1, 2)))]
    for n in shape:
        size = draw(st.sampled_from([max(n - 2, 0), draw(st.integers(0, n))]))
        start = draw(st.integers(0, n - size))
        dest.append(slice(start, start + size))
        for read in reads:
            near = [s for s in (start - 1, start + 1) if 0 <= s <= n - size]
            other = draw(st.sampled_from(near + [draw(st.integers(
                0, n - size))]))
            read.append(slice(other, other + size))
    block_bytes = draw(st.sampled_from([8, 256, 32768]))
    return shape, split, tuple(dest), [tuple(r) for r in reads], block_bytes


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(shifted_updates())
def test_generated_shifted_self_updates(case):
    """The rule: the right-hand side is read as it was before the
    statement, on every distribution, however far the views of the target
    lie from the written rows (their owners included)."""
    shape, split, dest, reads, block_bytes = case
    x, y = sample(shape, np.float64, seed=5), sample(shape, np.float64, seed=6)

    def run(b, a):
        b[dest] = sum(((k + 2) * b[r] for k, r in enumerate(reads)), a[dest])

    expected = x.copy()
    run(expected, y)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IMEX_ROW_BLOCK_BYTES", str(block_bytes))
        b = xp.asarray(x, split=split)
        run(b, xp.asarray(y, split=split))
        got = b.to_numpy()
    np.testing.assert_array_equal(got, expected)


@st.composite
def assignments_between_distributions(draw):
    """(shape, source split, destination split, dtype, statement): the
    source's values assigned to an array of another distribution, whole
    or a slice of it, as is or in an expression."""
    shape = tuple(draw(st.sampled_from([0, 1, 2, draw(st.integers(0, 11))]))
                  for _ in range(2))
    splits = [None] + SPLITS
    return (shape, draw(st.sampled_from(splits)), draw(st.sampled_from(splits)),
            draw(st.sampled_from([np.float64, np.float32, np.int64,
                                  np.complex128])),
            draw(st.sampled_from(["ellipsis", "whole", "expr", "slice",
                                  "rows", "mixed", "transpose"])))


def run_assignment(kind, c, b):
    if kind == "ellipsis":
        b[...] = c
    elif kind == "whole":
        b[:, :] = c
    elif kind == "expr":
        b[:] = c * 2 + 1
    elif kind == "slice":
        b[1:, :-1] = c[:-1, 1:]
    elif kind == "rows":
        # (Rows of all columns: fetched from the blocks of c.)
        b[1:-1] = c[:-2] - c[2:]
    elif kind == "mixed":
        b[:, :] = b * 2 + c
    else:
        # (Reads the destination: the transposed values are the old ones.)
        b[:, :] = b.T if b.shape[0] == b.shape[1] else c


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(assignments_between_distributions())
def test_generated_assignments_between_distributions(case):
    """The rule: an assignment from an array of another distribution
    equals numpy's on every pair of distributions and sizes (empty ones
    and ranks owning nothing included), and a whole-array assignment moves
    each element at most once (bytes sent across all ranks at most the
    array's)."""
    shape, source_split, split, dtype, kind = case
    x = sample(shape, dtype, seed=7)
    y = sample(shape, dtype, seed=8)
    c = xp.asarray(x, split=source_split)
    b = xp.asarray(y, split=split)
    expected = y.copy()
    run_assignment(kind, x, expected)
    run_assignment(kind, c, b)
    check(b, expected, exact=True)
    if kind not in ("ellipsis", "whole") or split is None:
        return
    xp.sync()
    before = xp.comm_stats()
    run_assignment(kind, c, b)
    xp.sync()
    after = xp.comm_stats()
    from mpi4py import MPI
    # (Point to point: the collectives agree on the plan, a few records.)
    moved = MPI.COMM_WORLD.allreduce(after["bytes_sent"] - before["bytes_sent"])
    assert moved <= x.nbytes, (
        f"{kind} from split={source_split} to split={split}: "
        f"{moved} bytes sent for a {x.nbytes}-byte array")
    check(b, x, exact=True)
