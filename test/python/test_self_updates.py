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
