"""Operations whose communicated volume is O(what they select, or what
must move), not O(array): each program reads a large distributed array
(1000 x 64 f64, 512 KiB) and no rank may send more than the op needs. (The
gather fallback would send each rank's whole block to every other rank.)"""

import numpy as np
import pytest

from dist_harness import RANKS, data, named, run_cases

ROWS, COLS = 1000, 64
# Any rank's block of the array is >= 128 KiB on up to 4 ranks.
MAX_BYTES = 16 * 1024


def row_reads(d, dynamic):
    """a[i], a[i, j:k], a[-1]: the owner sends the selected row(s)."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    d.check(d.view(a, 123), "a[123]")
    d.check(d.view(a, (ROWS - 1, slice(2, 9))), "a[-1, 2:9]")
    d.check(d.add(d.view(a, 0), d.view(a, 999)), "a[0] + a[999]")
    d.check(d.extract(a, (500, slice(None, None, 2))), "a[500, ::2].copy()")


def unit_dims(d, dynamic):
    """expand_dims/squeeze after dimension 0 stay local; the checked row
    sums (8 KiB) are what is gathered."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    e = d.expand_dims(a, [1, 3])
    s = d.squeeze(e, [3])
    d.check(d.reduce("max", s, axes=[1, 2]), "max(a[:, None, :], (1, 2))")


def triangles(d, dynamic):
    """tril/triu of a distributed array: each rank computes its rows of
    the mask (ndarray.tri with a team); the checked row sums (8 KiB) are
    what is gathered."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    zero = d.scalar(0.0)
    lower = d.where(d.tri((ROWS, COLS), 3, "i1", dynamic=dynamic), a, zero)
    d.check(d.reduce("sum", lower, axes=[1]), "sum(tril(a, 3), 1)")
    upper = d.where(d.tri((ROWS, COLS), -1, "i1", dynamic=dynamic), zero, a)
    d.check(d.reduce("max", upper, axes=[1]), "max(triu(a), 1)")


def column_broadcast(d):
    """broadcast_to keeping dimension 0: each rank broadcasts its rows
    (static sizes: a dynamic size 1 would broadcast dimension 0)."""
    c = d.array(data((ROWS, 1, COLS)))
    b = d.broadcast_to(c, [ROWS, 3, COLS])
    d.check(d.reduce("max", b, axes=[1, 2]),
            "max(broadcast (n, 1, m) to (n, 3, m), (1, 2))")


def row_concat(d, dynamic):
    """concat along dimension 0: each rank receives at most its block of
    the result (rows of the operands that fall into it)."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    r = d.array(data((50, COLS)), dist=False)
    b = d.array(data((700, COLS)), dynamic=dynamic)
    c = d.concat([a, r, b], 0)
    d.check(d.reduce("max", c, axes=[1]), "max(concat([a, r, b]), 1)")


def row_matmul(d, dynamic):
    """a @ b with a's rows distributed: each rank multiplies its rows by the
    whole b (64 x 8, gathered: 4 KiB), a's rows stay where they are."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    b = d.array(data((COLS, 8)), dynamic=dynamic)
    d.check(d.reduce("max", d.matmul(a, b), axes=[1]), "max(a @ b, 1)")
    x = d.array(data((COLS,)), dist=False)
    d.check(d.matmul(a, x), "a @ replicated x")
    # A stack of 250 4 x 64 matrices split on the stack dimension: the same
    # rows, the same volume.
    y = d.array(data((ROWS,)), dynamic=dynamic)
    d.check(d.matmul(y, a), "y @ a (partial products, one allreduce)")
    s = d.reshape(a, [ROWS // 4, 4, COLS], dynamic=dynamic)
    d.check(d.reduce("max", d.matmul(s, b), axes=[1, 2]), "max(s @ b, (1, 2))")


def column_reductions(d, dynamic):
    """Float sum/mean/std over dimension 0: blocks of 64 rows reduced where
    they are (less than a block moves between neighbours), only the block
    results gathered."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    d.check(d.reduce("sum", a, axes=[0]), "sum(a, 0)")
    d.check(d.reduce("mean", a, axes=[0]), "mean(a, 0)")
    d.check(d.reduce("std", a, axes=[0]), "std(a, 0)")
    d.check(d.reduce("sum", a), "sum(a)")


def masks(d, dynamic):
    """a[mask]: each rank keeps what it selects; only the counts move (an
    exclusive scan and an allreduce of one number)."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    m = d.array(data((ROWS,)) > 0, dynamic=dynamic)
    d.check(d.reduce("max", d.masked_select(a, m), axes=[1]),
            "max(a[a[:, 0] > 0], 1)")


def scans(d, dynamic):
    """cumsum/cumprod along dimension 0: each rank scans its rows; one row
    of rank totals goes into an exclusive scan (with include_initial the
    blocks also shift by one row)."""
    a = d.array(data((ROWS, COLS), low=0.5, high=1.5), dynamic=dynamic)
    d.check(d.reduce("max", d.cumulative("sum", a, 0), axes=[1]),
            "max(cumsum(a, 0), 1)")
    d.check(d.reduce("max", d.cumulative("prod", a, 0, True), axes=[1]),
            "max(cumprod(a, 0, include_initial), 1)")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_row_reads(dynamic):
    run_cases([named("row_reads", row_reads, dynamic)], max_bytes=MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_unit_dims(dynamic):
    # The row maxima (1000 x 8 bytes) are gathered for printing: each rank
    # sends its share to every other.
    run_cases([named("unit_dims", unit_dims, dynamic)],
              max_bytes=3 * ROWS * 8 + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_triangles(dynamic):
    run_cases([named("triangles", triangles, dynamic)],
              max_bytes=2 * 3 * ROWS * 8 + MAX_BYTES)


def test_column_broadcast():
    run_cases([named("column_broadcast", column_broadcast)],
              max_bytes=3 * ROWS * 8 + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_row_concat(dynamic):
    # A rank sends at most the rows it owns (under half of the 1750 rows
    # on 2 ranks or more), plus its row maxima for printing; a gather of the
    # operands sends (ranks - 1) / ranks of them, over the bound from 3 ranks.
    rows = ROWS + 50 + 700
    run_cases([named("row_concat", row_concat, dynamic)],
              max_bytes=(rows // 2 + 1) * COLS * 8 + 3 * rows * 8 + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_row_matmul(dynamic):
    # Printed: the row maxima and a @ x (1000 values each, gathered), the
    # stack maxima (250); the reshape to a stack keeps every row in place.
    run_cases([named("row_matmul", row_matmul, dynamic)],
              max_bytes=2 * 3 * ROWS * 8 + 3 * ROWS * 2 + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_masks(dynamic):
    # Printed: the row maxima of the selection (gathered).
    run_cases([named("masks", masks, dynamic)],
              max_bytes=3 * ROWS * 8 + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_scans(dynamic):
    # Per scan: one row of totals (64 values), with include_initial one
    # row to the next rank; printed: the row maxima (gathered).
    run_cases([named("scans", scans, dynamic)],
              max_bytes=2 * (2 * COLS * 8 + 3 * ROWS * 8) + MAX_BYTES)


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_column_reductions(dynamic):
    # Per reduction (std takes two): under a block of rows to a neighbour
    # and the block results (16 blocks of 64 values) to every other rank.
    per_reduction = 63 * COLS * 8 + 3 * 16 * COLS * 8
    run_cases([named("column_reductions", column_reductions, dynamic)],
              max_bytes=5 * per_reduction + MAX_BYTES)


def transpose(d, dynamic):
    """permute_dims of a split 2-d array: each element moves once, from the
    owner of its row to the owner of its column (IDTR's copy_permute).
    Checked through a weighted row sum, which a misplaced element changes
    (integers: the sums move no rows)."""
    a = d.array(data((ROWS, COLS), "i64", -9, 9), dynamic=dynamic)
    t = d.permute(a, [1, 0])
    w = d.array(np.arange(1, ROWS + 1, dtype=np.int64), dist=False)
    d.check(d.reduce("sum", d.mul(t, w), axes=[1]), "sum(a.T * w, 1)")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_transpose_moves_each_element_once(dynamic):
    # Per rank: its block (at most ceil(ROWS / n) rows) except the part
    # that stays (its share of the columns), plus metadata and the printed
    # sums (COLS x 8 bytes to every rank).
    for n in RANKS:
        block = -(-ROWS // n) * COLS * 8
        run_cases([named("transpose", transpose, dynamic)], ranks=[n],
                  max_bytes=block * (n - 1) // n + 4 * COLS * 8 + 4096)


def sort_split_axis(d, dynamic):
    """sort along dimension 0 of a split 2-d array: a transpose, a local
    sort and a transpose back move each element twice; checked through
    rows of the result (each from its owner)."""
    a = d.array(data((ROWS, COLS), "i64", -99, 99), dynamic=dynamic)
    s = d.sort(a, 0)
    for row in (0, 500, ROWS - 1):
        d.check(d.view(s, row), f"sort(a, 0)[{row}]")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_sort_split_axis_moves_each_element_twice(dynamic):
    for n in RANKS:
        block = -(-ROWS // n) * COLS * 8
        run_cases([named("sort_split_axis", sort_split_axis, dynamic)],
                  ranks=[n], max_bytes=2 * block * (n - 1) // n + MAX_BYTES)


def global_slices(d, dynamic):
    """Strided and reversed slices along the split axis stay distributed:
    a[::3] (a view rebalanced to the default partition of its rows) and
    a[::-2] (the view reversed: a repartition of mirrored rows); checked
    through row maxima."""
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    d.check(d.reduce("max", d.extract(a, (slice(None, None, 3),)), axes=[1]),
            "max(a[::3], 1)")
    d.check(d.reduce("max", d.flip(d.extract(a, (slice(1, None, 2),)), [0]),
                     axes=[1]), "max(a[::-2], 1)")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_global_slices(dynamic):
    # Each selected row moves at most once per op (a third and a half of
    # a block), plus the printed maxima; a gather would send P - 1 blocks.
    for n in RANKS:
        block = -(-ROWS // n) * COLS * 8
        run_cases([named("global_slices", global_slices, dynamic)],
                  ranks=[n], max_bytes=block + 3 * ROWS * 8 + MAX_BYTES)
