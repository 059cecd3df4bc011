"""Updates that read the array they write, against numpy: the rule is that
the right-hand side is evaluated as a whole before any element is written,
whichever views of the target it reads (the written slice itself, which
is computed in place, shifted or transposed slices overlapping it, the
whole array), on generated shapes, slices and statements."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import imex as xp
from helpers import check, sample

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def updates(draw):
    """(shape, destination slices, source slices reading the target, kind)
    with every source slice the shape of the destination's."""
    rank = draw(st.integers(1, 2))
    shape = tuple(draw(st.integers(0, 6)) for _ in range(rank))
    dest, reads = [], []
    for n in shape:
        size = draw(st.integers(0, n))
        start = draw(st.integers(0, n - size))
        dest.append(slice(start, start + size))
        # The same slice, or one shifted within the array.
        other = draw(st.sampled_from([start, draw(st.integers(0, n - size))]))
        reads.append(slice(other, other + size))
    kind = draw(st.sampled_from(["same", "shifted", "augmented",
                                 "augmented_view", "whole"]))
    return shape, tuple(dest), tuple(reads), kind


def run(shape, dest, reads, kind, module, b, a):
    if kind == "same":
        b[dest] = b[dest] * 2 + a[dest]
    elif kind == "shifted":
        b[dest] = b[reads] - b[dest] * a[reads]
    elif kind == "augmented":
        b[dest] += b[reads]
    elif kind == "augmented_view":
        view = b[dest]
        view *= b[reads] + 1
    else:
        b[...] = module.where(a > 0, b, -b) * 3
    return b


@SETTINGS
@given(updates())
def test_updates_reading_their_target_equal_numpy(case):
    shape, dest, reads, kind = case
    x, y = sample(shape, np.float64, seed=1), sample(shape, np.float64, seed=2)
    expected = run(shape, dest, reads, kind, np, x.copy(), y)
    got = run(shape, dest, reads, kind, xp, xp.asarray(x), xp.asarray(y))
    check(got, expected, exact=True)


@pytest.mark.parametrize("dtype", [xp.int32, xp.float32, xp.complex128])
def test_in_place_update_of_a_row_range_in_a_loop(dtype):
    # Offsets are run-time arguments: one kernel for every i, whichever
    # other views the statement reads.
    x = sample((6, 5), dtype, seed=4)
    b, expected = xp.asarray(x), x.copy()
    for i in range(4):
        if i == 1:
            compiles = xp.stats()["compiles"]
        b[i:i + 2, :] = b[i:i + 2, :] + b[i + 1:i + 3, :]
        expected[i:i + 2, :] = expected[i:i + 2, :] + expected[i + 1:i + 3, :]
        b[i, 1:] *= 2
        expected[i, 1:] *= 2
    assert xp.stats()["compiles"] == compiles
    check(b, expected, exact=True)


def test_boolean_mask_assignment_stores_no_mask():
    # `b[a > 0] = v`: the mask is computed in the kernel that writes b.
    x = sample((8, 8), np.float64, seed=5)
    a, b = xp.asarray(x), xp.asarray(-x)
    b[a > 0] = 7.0
    kept = a > 1
    b[kept] = 1.0
    expected = -x
    expected[x > 0] = 7.0
    expected[x > 1] = 1.0
    check(b, expected, exact=True)
    check(kept, x > 1)


@st.composite
def row_block_updates(draw):
    """(shape, destination slices, read slices, dtype, block bytes): updates
    reading their target are computed a block of rows at a time (32 KiB by
    default, IMEX_ROW_BLOCK_BYTES here: small, so that small arrays have
    many blocks of one or more rows), written back behind the rows still
    read; reads shifted anywhere along every axis, 1-3 of them."""
    rank = draw(st.integers(1, 3))
    limits = {1: [(0, 300)], 2: [(0, 40), (1, 12)],
              3: [(0, 12), (1, 5), (1, 5)]}[rank]
    shape = tuple(draw(st.sampled_from([high, high // 2 + 1, draw(
        st.integers(low, high))])) for low, high in limits)
    dest, reads = [], [[] for _ in range(draw(st.integers(1, 3)))]
    for n in shape:
        # (Mostly most of the axis: several blocks of rows.)
        size = draw(st.sampled_from([max(n - 2, 0), max(n - 1, 0), draw(
            st.integers(0, n))]))
        start = draw(st.integers(0, n - size))
        dest.append(slice(start, start + size))
        for read in reads:
            # Often one row (or column) away from the written slice.
            near = [s for s in (start - 1, start + 1, start)
                    if 0 <= s <= n - size]
            other = draw(st.sampled_from(near + [draw(st.integers(
                0, n - size))]))
            read.append(slice(other, other + size))
    dtype = draw(st.sampled_from([xp.float64, xp.float32, xp.int32,
                                  xp.complex128]))
    block_bytes = draw(st.sampled_from([1, 64, 256, 32768]))
    return shape, tuple(dest), [tuple(read) for read in reads], dtype, \
        block_bytes


def stencil_like(b, a, dest, reads):
    # (One expression: no variable keeps the value, which would be stored.)
    b[dest] = sum(((k + 2) * b[read] for k, read in enumerate(reads)),
                  a[dest])
    return b


@settings(max_examples=100, deadline=None, derandomize=True)
@given(row_block_updates())
def test_row_blocked_updates_equal_numpy(case):
    # The rule: the right-hand side is read as it was before the statement,
    # however far above or below the written rows its views lie.
    shape, dest, reads, dtype, block_bytes = case
    x, y = sample(shape, dtype, seed=6), sample(shape, dtype, seed=7)
    expected = stencil_like(x.copy(), y, dest, reads)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("IMEX_ROW_BLOCK_BYTES", str(block_bytes))
        # (Evaluated here: kernels compile when a value is needed.)
        got = stencil_like(xp.asarray(x), xp.asarray(y), dest,
                           reads).to_numpy()
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("shift", [-130, -1, 0, 1, 129])
def test_stencil_step_in_place_any_row_shift(shift):
    # One kernel for every shift (offsets are arguments); views behind the
    # written rows by more than a block of rows (32 KiB: 64 rows here) keep
    # several blocks.
    n, m = 300, 64
    x = sample((n, m), xp.float64, seed=8)
    lo, hi = max(0, -shift) + 1, min(n, n - shift) - 1
    expected, b = x.copy(), xp.asarray(x)
    for target in (expected, b):
        target[lo:hi, 1:-1] = 0.5 * (target[lo + shift:hi + shift, :-2] +
                                     target[lo - 1:hi - 1, 2:])
    check(b, expected, exact=True)
