"""Arrays split on any axes and over grids of ranks (`dist.split`,
`dist.grid`): the same programs with every array of rank 2 (and 3) created
split on columns, over the run-time grid and over fixed 2x2, 1x3,
3x1 and 2x3 grids (on the rank counts that have enough ranks; ranks beyond
the grid own nothing), uneven sizes; every op against numpy, and every rank
count giving the same bits. Elementwise ops, copies, views (strided too)
and inserts compute on each rank's block (stencil updates with halos
exchanged into ghost cells); reductions and argmax/argmin on the blocks,
combined over the team when they reduce split axes (floating point sums in
tiles fixed by global indices); permute_dims, flips, strided views,
concatenations and loads move each element at most once (exact bytes
checked on a 2x2 grid); other ops redistribute their operands to rows
(`dist.redistribute`, one all-to-all-v); redistribution between every pair
of distributions moves each element at most once."""

import numpy as np
import pytest

from dist_harness import (RANKS, STAT_KINDS, _run, build, data,
                          data_bytes_sent, iota, named, run_cases)

# name: (split axes, grid shape or None)
# (Rows, the default distribution, are what every other test runs.)
DISTRIBUTIONS = {
    "columns": ([1], None),
    "grid": ([0, 1], None),
    "grid 2x2": ([0, 1], [2, 2]),
    "grid 1x3": ([0, 1], [1, 3]),
    "grid 3x1": ([0, 1], [3, 1]),
}


def cells(distribution):
    split, grid = distribution
    return int(np.prod(grid)) if grid else 1


def elementwise(d):
    a = d.array(data((7, 5)))
    b = d.array(data((7, 5), low=0.5, high=3), via="create")
    two = d.scalar(2.0)
    d.check(d.add(a, b), "a + b")
    d.check(d.sub(d.mul(d.add(a, b), a), d.ewbin("divide", a, b)), "chain")
    d.check(d.mul(two, a), "0-d * a")
    d.check(d.ewuny("sin", a), "sin(a)")
    d.check(d.where(d.ewbin("less", a, b), a, b), "where(a < b, a, b)")
    d.check(d.astype(a, "i32"), "a as i32")
    # broadcasting a replicated row and a replicated array of the same
    # shape (computed on rows)
    d.check(d.mul(a, d.array(data((5,)), dist=False)), "a * replicated row")
    d.check(d.add(a, d.array(data((7, 5)), dist=False)), "a + replicated")
    # uneven and small: 3 rows and 2 columns leave blocks empty on a grid
    s = d.array(data((3, 2)))
    d.check(d.add(s, d.array(data((3, 2)), via="create")), "3x2 + 3x2")


def dynamic_sizes(d):
    a = d.array(data((6, 9)), dynamic=True)
    b = d.array(iota((6, 9)), dynamic=True)
    d.check(d.sub(a, b), "dynamic a - b")
    d.check(d.reduce("max", d.add(a, b), axes=(1,)), "dynamic max over axis 1")


def reductions(d):
    a = d.array(data((7, 5)))
    i = d.array(data((7, 5), "i64", -9, 9))
    for kind in ["sum", "max", "mean", "std"]:
        d.check(d.reduce(kind, a), f"{kind}(a)")
    d.check(d.reduce("sum", a, axes=(0,)), "sum over axis 0")
    d.check(d.reduce("min", a, axes=(1,), keepdims=True),
            "min over axis 1 keepdims")
    d.check(d.reduce("prod", i, axes=(1,)), "prod of integers over axis 1")


def tiled_reductions(d):
    # Larger than a tile (64 elements) along the split axes: tiles straddle
    # the blocks of neighbouring ranks (the rank holding a tile's first
    # element fetches the rest), and floating point sums and products still
    # give the same bits on every grid and rank count.
    a = d.array(data((150, 131)))
    for kind in ["sum", "mean", "var", "std", "min", "max"]:
        d.check(d.reduce(kind, a), f"{kind}(a) 150x131")
    d.check(d.reduce("sum", a, axes=(0,)), "sum over axis 0")
    d.check(d.reduce("std", a, axes=(1,), keepdims=True),
            "std over axis 1 keepdims")
    d.check(d.reduce("var", a, axes=(0,), correction=1), "var ddof 1 axis 0")
    p = d.array(data((150, 131), low=0.99, high=1.01))
    d.check(d.reduce("prod", p, axes=(0,)), "prod over axis 0")
    i = d.array(data((150, 131), "i64", -9, 9))
    d.check(d.reduce("sum", i, axes=(1,)), "integer sum over axis 1")
    d.check(d.reduce("max", i, axes=(0,), keepdims=True),
            "integer max over axis 0 keepdims")


def arg_reductions(d):
    # argmax/argmin over split axes (each and all) and over a non-split axis
    # of a 3-d array; ties, an inf and a NaN late in the array (numpy's
    # first occurrence).
    values = data((9, 7), "f64", -2, 2).round()
    flat = values.reshape(-1)
    flat[-3], flat[5] = np.nan, np.inf
    a = d.array(values)
    i = d.array(data((9, 7), "i32", -3, 3))
    for kind in ("max", "min"):
        d.check(d.argreduce(kind, a), f"arg{kind}(a)")
        d.check(d.argreduce(kind, i), f"arg{kind}(i)")
        for axis in (0, 1):
            d.check(d.argreduce(kind, a, axis), f"arg{kind}(a, {axis})")
            d.check(d.argreduce(kind, i, axis, keepdims=True),
                    f"arg{kind}(i, {axis}, keepdims)")
    c = d.array(data((3, 5, 4), "f64"))
    d.check(d.argreduce("max", c, 2), "argmax(c, 2) (3-d)")
    d.check(d.argreduce("min", c, 0), "argmin(c, 0) (3-d)")


def views_and_inserts(d):
    u = d.array(data((9, 8)))
    d.check(d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                  d.view(u, (slice(2, None), slice(1, -1)))),
            "u[:-2, 1:-1] + u[2:, 1:-1]")
    d.check(d.view(u, (slice(1, 8, 3), slice(None, None, 2))),
            "u[1:8:3, ::2]")
    d.check(d.extract(u, (3, slice(None))), "u[3, :]")
    d.check(d.view(u, (slice(1, 8), 5)), "u[1:8, 5]")
    d.check(d.add(d.view(u, (2, slice(1, 7))), d.view(u, (6, slice(2, 8)))),
            "u[2, 1:7] + u[6, 2:8]")
    v = d.array(data((9, 8)))
    d.setitem(v, (slice(2, 5), slice(1, 7)), d.scalar(-1.0))
    d.setitem(v, (slice(None), 0), d.array(data((9,)), dist=False))
    d.check(v, "v after inserts")
    d.check(d.load(u, (4, 6)), "u[4, 6]")


def global_slices(d):
    a = d.array(iota((9, 7)))
    d.check(d.global_slice(a, (slice(None, None, -1),)), "a[::-1]")
    d.check(d.global_slice(a, (slice(7, 1, -2), slice(None, None, -3))),
            "a[7:1:-2, ::-3]")
    d.check(d.global_slice(a, (slice(1, None, 3), slice(5, None, -1))),
            "a[1::3, 5::-1]")
    d.check(d.global_slice(a, (slice(2, 2, -1),)), "a[2:2:-1] (empty)")
    # with steps, dropping axes (a strided view keeping the rank, then a
    # box view dropping the unit axes)
    d.check(d.extract(a, (slice(1, None, 2), 3)), "a[1::2, 3]")
    d.check(d.view(a, (4, slice(None, None, 3))), "a[4, ::3]")
    d.check(d.add(d.view(a, (slice(0, 8, 2), 6)), d.view(a, (slice(1, 9, 2), 0))),
            "a[0:8:2, 6] + a[1:9:2, 0]")


def five_point_update(d, u, q):
    """u[1:-1, 1:-1] = q * ((N + S) + (W + E)), one Jacobi step."""
    s = d.add(d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                    d.view(u, (slice(2, None), slice(1, -1)))),
              d.add(d.view(u, (slice(1, -1), slice(None, -2))),
                    d.view(u, (slice(1, -1), slice(2, None)))))
    d.setitem(u, (slice(1, -1), slice(1, -1)), d.mul(q, s))


def nine_point_steps(d):
    # Views shifted along both axes: the halos include the corners.
    n, m = 11, 9
    u = d.array(data((n, m)))
    q = d.scalar(0.125)

    def step(d):
        total = None
        for i in range(3):
            for j in range(3):
                if (i, j) != (1, 1):
                    v = d.view(u, (slice(i, n - 2 + i), slice(j, m - 2 + j)))
                    total = v if total is None else d.add(total, v)
        d.setitem(u, (slice(1, -1), slice(1, -1)), d.mul(q, total))
    d.loop(3, step)
    d.check(u, "9-point 3 steps")


def asymmetric_steps(d):
    # Shifts of -2 and +1 rows and -1 column: ghost cells 2 before and 1
    # after along the rows, 1 before along the columns; a second array of
    # the same shape read with a shift as well.
    n, m = 12, 10
    u = d.array(data((n, m)))
    v = d.array(data((n, m)))
    half = d.scalar(0.5)

    def step(d):
        s = d.add(d.view(u, (slice(0, n - 3), slice(0, m - 1))),
                  d.view(u, (slice(3, n), slice(1, m))))
        s = d.add(s, d.view(v, (slice(1, n - 2), slice(0, m - 1))))
        d.setitem(u, (slice(2, n - 1), slice(1, m)), d.mul(half, s))
    d.loop(3, step)
    d.check(u, "asymmetric 3 steps")


def jacobi_steps(d):
    # The 5-point stencil of examples/jacobi2d in a time loop; every array
    # created in the distribution (the update goes through rows).
    n = 10
    u = d.create((n, n), 0.0)
    d.setitem(u, (0, slice(None)), d.scalar(1.0))
    q = d.scalar(0.25)
    d.loop(3, lambda d: five_point_update(d, u, q))
    d.check(u, "jacobi 3 steps")
    d.check(d.reduce("sum", u), "checksum")


def manipulation(d):
    a = d.array(data((6, 4)))
    d.check(d.permute(a, (1, 0)), "a.T")
    d.check(d.reshape(a, (4, 6)), "reshape 4x6")
    d.check(d.concat([a, d.array(data((6, 4)))], 0), "concat axis 0")
    d.check(d.concat([a, d.array(data((6, 2)))], 1), "concat axis 1")
    d.check(d.concat([a, d.array(data((3, 4)), dist=False),
                      d.array(data((2, 4)))], 0),
            "concat axis 0 with a replicated operand")
    d.check(d.matmul(a, d.array(data((4, 3)), dist=False)), "a @ b")
    d.check(d.matmul(a, d.array(data((4, 7)))), "a @ b (both distributed)")
    i = d.array(data((5, 6), "i64", -3, 3))
    d.check(d.matmul(i, d.array(data((6, 2), "i64", -3, 3))),
            "integer a @ b (both distributed)")
    # operands in other distributions: redistributed to the first's
    rows = d.redistribute(d.array(data((4, 5))), [0], None)
    d.check(d.matmul(a, rows), "a @ b (b on rows)")
    d.check(d.matmul(d.redistribute(a, [0], None), d.array(data((4, 3)))),
            "a on rows @ b")
    d.check(d.concat([a, d.redistribute(d.array(data((2, 4))), [1], None)],
                     0), "concat with a column-split operand")
    d.check(d.expand_dims(a, (0,)), "a[None]")


def scans_and_sorts(d):
    # Along an axis the distribution does not split (axis 0 of columns):
    # each rank's lanes, local; along a split axis: on rows.
    a = d.array(data((7, 5)))
    i = d.array(data((7, 5), "i32", -9, 9))
    for axis in (0, 1):
        d.check(d.cumulative("sum", a, axis), f"cumsum axis {axis}")
        d.check(d.cumulative("prod", i, axis), f"int cumprod axis {axis}")
        d.check(d.sort(a, axis), f"sort axis {axis}")
        d.check(d.sort(i, axis, descending=True, indices=True),
                f"argsort descending axis {axis}")
    d.check(d.cumulative("sum", a, 0, include_initial=True),
            "cumsum axis 0 include_initial")


def redistributions(d):
    # every pair of the distributions of this test (2x2 and 2x3 grids need
    # 4 and 6 ranks: the run-time grid stands for them here)
    a = d.array(iota((7, 5)))
    targets = [([0], None), ([1], None), ([0, 1], None), ([0, 1], [1, 1])]
    for split, grid in targets:
        b = d.redistribute(a, split, grid)
        d.check(b, f"to split {split} grid {grid}")
        for split2, grid2 in targets:
            c = d.redistribute(b, split2, grid2)
            d.check(d.add(c, c), f"{split}/{grid} to {split2}/{grid2}")


CASES = [named(f.__name__, f) for f in
         [elementwise, dynamic_sizes, reductions, views_and_inserts,
          global_slices, jacobi_steps, nine_point_steps, asymmetric_steps,
          manipulation, scans_and_sorts, redistributions]]


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_distribution(name):
    distribution = DISTRIBUTIONS[name]
    ranks = [n for n in RANKS if n >= cells(distribution)]
    if not ranks:
        pytest.skip(f"{name} needs {cells(distribution)} ranks")
    run_cases(CASES, ranks=ranks, distribution=distribution)


@pytest.mark.parametrize("name", ["grid", "columns", "grid 3x1"])
def test_reductions_over_split_axes(name):
    # (Three distributions: the run-time grid, one split axis, and a fixed
    # grid leaving a rank without a block at 4 ranks.)
    distribution = DISTRIBUTIONS[name]
    run_cases([named("tiled_reductions", tiled_reductions),
               named("arg_reductions", arg_reductions)],
              ranks=[n for n in RANKS if n >= cells(distribution)],
              distribution=distribution)


def three_dimensional(d):
    a = d.array(data((4, 5, 3)))
    b = d.array(iota((4, 5, 3)), via="create")
    d.check(d.mul(a, b), "a * b (3-d)")
    d.check(d.reduce("sum", d.add(a, b), axes=(2,)), "sum over axis 2")
    # over axes that are not split: on the blocks, the result split on the
    # same axes (renumbered); over split axes: replicated
    d.check(d.reduce("sum", a, axes=(0,)), "sum over axis 0 (3-d)")
    d.check(d.reduce("mean", a, axes=(1,), keepdims=True),
            "mean over axis 1 keepdims (3-d)")
    d.check(d.reduce("max", a, axes=(0, 2)), "max over axes 0, 2 (3-d)")
    d.check(d.permute(a, (2, 0, 1)), "permute (2, 0, 1)")
    # views dropping axes: split axes kept (renumbered) or dropped
    d.check(d.extract(a, (slice(None), 2, slice(None))), "a[:, 2, :] (3-d)")
    d.check(d.mul(d.view(a, (1, slice(None), slice(None))),
                  d.view(b, (3, slice(None), slice(None)))),
            "a[1] * b[3] (3-d)")
    d.check(d.reduce("sum", d.view(a, (slice(1, 3), slice(None), 0)),
                     axes=(0,)), "sum(a[1:3, :, 0], axis 0)")
    # A 7-point stencil: halos along every split axis.
    u = d.array(data((6, 7, 5)))
    q = d.scalar(1.0 / 6.0)
    inner = (slice(1, -1),) * 3

    def step(d):
        total = None
        for axis in range(3):
            for shift in (-1, 1):
                index = list(inner)
                index[axis] = slice(1 + shift, [6, 7, 5][axis] - 1 + shift)
                v = d.view(u, tuple(index))
                total = v if total is None else d.add(total, v)
        d.setitem(u, inner, d.mul(q, total))
    d.loop(2, step)
    d.check(u, "7-point 2 steps")


@pytest.mark.parametrize("split", [[0, 1, 2], [1, 2], [2]])
def test_three_dimensional(split):
    run_cases([named("three_dimensional", three_dimensional)],
              distribution=(split, None))


def redistribution_volume(d):
    a = d.array(iota((12, 10)))
    d.check(d.redistribute(a, [1]), "rows to columns")


def _blocks(n, p):
    """The default partition of n elements over p ranks (IDTR's)."""
    sizes = [n // p + (r >= p - n % p) for r in range(p)]
    return [range(sum(sizes[:r]), sum(sizes[:r + 1])) for r in range(p)]


def test_redistribution_moves_each_element_at_most_once():
    # rows -> columns, then (printing) the gather of the columns, every
    # rank fetching all rows from the column blocks: the bytes a rank sends
    # are exactly the elements of its row block it does not own in columns
    # (point to point), plus its column block once (the root of its
    # broadcast to every other rank).
    for p in RANKS:
        if p == 1:
            continue
        d = build([named("volume", redistribution_volume)])
        got, stats, errors = _run(d, p)
        assert not errors, errors
        np.testing.assert_array_equal(got["volume:rows to columns"], iota((12, 10)))
        rows, cols = _blocks(12, p), _blocks(10, p)
        for r, s in enumerate(stats):
            own_rows, own_cols = len(rows[r]) * 10, 12 * len(cols[r])
            both = len(rows[r]) * len(cols[r])
            expected = own_rows - both + own_cols
            assert data_bytes_sent(s) == 8 * expected, \
                f"rank {r} of {p} sent {data_bytes_sent(s)} bytes, " \
                f"expected {8 * expected} (stats {s})"


def _extra_bytes_on_grid(case, expected):
    """Bytes each rank sends (data_bytes_sent) for the op `case(d, True)`
    performs on a 2x2 grid at 4 ranks: the difference from `case(d, False)`,
    the same program printing an array of the same shape and distribution
    without the op. Both print `expected`."""
    sent = {}
    for with_op in (False, True):
        d = build([named("volume", case, with_op)], DISTRIBUTIONS["grid 2x2"])
        got, stats, errors = _run(d, 4)
        assert not errors, errors
        np.testing.assert_array_equal(got["volume:result"], expected)
        sent[with_op] = [data_bytes_sent(s) for s in stats]
    return [x - y for x, y in zip(sent[True], sent[False])]


def transpose_volume(d, transpose):
    a = d.array(iota((12, 10)) if transpose
                else np.ascontiguousarray(iota((12, 10)).T))
    d.check(d.permute(a, (1, 0)) if transpose else a, "result")


def test_grid_transpose_moves_each_element_at_most_once():
    # permute_dims on a 2x2 grid: each rank permutes its block and sends the
    # elements whose owner in the result (the same distribution) is another
    # rank, once.
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(transpose_volume, iota((12, 10)).T)
    rows, cols = _blocks(12, 2), _blocks(10, 2)  # of the 12x10 source
    result_rows, result_cols = _blocks(10, 2), _blocks(12, 2)
    for r in range(4):
        gi, gj = divmod(r, 2)
        expected = sum(1 for i in rows[gi] for j in cols[gj]
                       if j not in result_rows[gi] or i not in result_cols[gj])
        assert moved[r] == 8 * expected, \
            f"rank {r} sent {moved[r]} bytes for the transpose, expected " \
            f"{8 * expected} ({moved})"


def flip_volume(d, flip):
    a = d.array(iota((12, 10)) if flip
                else np.ascontiguousarray(iota((12, 10))[::-1]))
    d.check(d.flip(a, [0]) if flip else a, "result")


def test_grid_flip_moves_each_element_at_most_once():
    # a[::-1] on a 2x2 grid: each rank fetches the mirrored rows of its
    # block; a rank sends the elements whose mirror another rank owns, once.
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(flip_volume, iota((12, 10))[::-1])
    rows, cols = _blocks(12, 2), _blocks(10, 2)
    for r in range(4):
        gi, gj = divmod(r, 2)
        expected = sum(len(cols[gj]) for i in rows[gi]
                       if 11 - i not in rows[gi])
        assert moved[r] == 8 * expected, \
            f"rank {r} sent {moved[r]} bytes for the flip, expected " \
            f"{8 * expected} ({moved})"


def strided_volume(d, view):
    a = d.array(iota((12, 10)) if view
                else np.ascontiguousarray(iota((12, 10))[1:11:3, ::2]))
    d.check(d.view(a, (slice(1, 11, 3), slice(None, None, 2))) if view
            else a, "result")


def test_grid_strided_view_moves_each_element_at_most_once():
    # a[1:11:3, ::2] on a 2x2 grid: the rank holding an element of the view
    # sends it to the element's owner in the view's partition, once.
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(strided_volume, iota((12, 10))[1:11:3, ::2])

    def owner(blocks0, blocks1, i, j):
        return next(2 * r + c for r in range(2) for c in range(2)
                    if i in blocks0[r] and j in blocks1[c])
    expected = [0] * 4
    for vi in range(4):
        for vj in range(5):
            holder = owner(_blocks(12, 2), _blocks(10, 2), 1 + 3 * vi, 2 * vj)
            if holder != owner(_blocks(4, 2), _blocks(5, 2), vi, vj):
                expected[holder] += 8
    assert moved == expected, f"bytes sent per rank {moved}, expected {expected}"


def row_volume(d, extract):
    a = d.array(iota((12, 10)))
    d.check(d.extract(a, (7, slice(None))) if extract
            else d.array(iota((12, 10))[7], dist=False), "result")


def plane_volume(d, extract):
    a = d.array(iota((6, 5, 4)))
    d.check(d.extract(a, (slice(None), slice(None), 2)) if extract
            else d.array(np.ascontiguousarray(iota((6, 5, 4))[:, :, 2])),
            "result")


def test_grid_views_dropping_axes_move_only_the_view():
    # On a 2x2 grid: a[7, :] drops a split axis, so it is replicated (as
    # a[i, :] of rows): the two owners of parts of row 7 (ranks 2 and 3)
    # each broadcast their 5 elements to the 3 other ranks; a[:, :, 2] keeps both
    # split axes: each rank's block of the plane lies in its block of a, so
    # nothing moves (not the whole array through rows, as before).
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(row_volume, iota((12, 10))[7])
    assert moved == [0, 0, 8 * 5, 8 * 5], f"row: {moved}"
    moved = _extra_bytes_on_grid(plane_volume, iota((6, 5, 4))[:, :, 2])
    assert moved == [0] * 4, f"plane: {moved}"


def matmul_volume(d, multiply):
    a = d.array(iota((12, 10)))
    b = d.array(iota((10, 8)))
    d.check(d.matmul(a, b) if multiply
            else d.array(iota((12, 10)) @ iota((10, 8))), "result")


def test_grid_matmul_moves_the_panels():
    # a @ b on a 2x2 grid: rank (i, j) computes its block of the result
    # from rows I of a and columns J of b; it receives the half of each
    # panel its grid neighbour owns, so each rank sends its block of a (6 x
    # 5) to its row neighbour and its block of b (5 x 4) to its column
    # neighbour, not b to every rank.
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(matmul_volume, iota((12, 10)) @ iota((10, 8)))
    assert moved == [8 * (6 * 5 + 5 * 4)] * 4, f"bytes sent per rank {moved}"


def load_volume(d, load):
    a = d.array(iota((12, 10)))
    d.check(d.load(a, (7, 3)) if load else d.scalar(73.0), "result")


def test_grid_load_moves_one_element():
    # a[7, 3] of an array on a 2x2 grid: the owner broadcasts the element
    # to the other ranks, nothing else moves.
    if 4 not in RANKS:
        pytest.skip("needs 4 ranks")
    moved = _extra_bytes_on_grid(load_volume, 73.0)
    assert sorted(moved) == [0, 0, 0, 8], \
        f"bytes sent per rank for the load: {moved}"


def grid_jacobi(d, n, steps):
    u = d.array(data((n, n)))
    q = d.scalar(0.25)
    d.loop(steps, lambda d: five_point_update(d, u, q))
    d.check(u, f"jacobi {steps} steps")


@pytest.mark.parametrize("name", ["grid 2x2", "columns"])
def test_grid_stencil_moves_boundaries_only(name):
    # A 5-point step on an n x n array split over a grid exchanges halos
    # of width 1 into the ghost cells: per step a rank sends at most one
    # block edge per split axis and direction (4 on a 2-D grid, 2 for
    # columns), not its block (the copy in and the printing move the array
    # once, whatever the step count), all faces in one exchange
    # (fetch_boxes: one repartition call per step).
    n, p = 96, 4
    if p not in RANKS:
        pytest.skip("needs 4 ranks")
    distribution = DISTRIBUTIONS[name]
    sent, calls = {}, {}
    repartition = STAT_KINDS.index("repartition")
    for steps in (1, 5):
        d = build([named("jacobi", grid_jacobi, n, steps)], distribution)
        got, stats, errors = _run(d, p)
        assert not errors, errors
        sent[steps] = max(data_bytes_sent(s) for s in stats)
        calls[steps] = [int(s[repartition]) for s in stats]
    assert all(b - a == 4 for a, b in zip(calls[1], calls[5])), \
        f"{name}: exchange calls per rank after 1 and 5 steps: {calls}"
    grid = name == "grid 2x2"
    edge = max(len(b) for b in _blocks(n, 2 if grid else 1))
    faces = 4 if grid else 2
    per_step = (sent[5] - sent[1]) / 4
    assert per_step <= 8 * faces * edge, \
        f"{name}: a rank sends {per_step} bytes per step (bound " \
        f"{8 * faces * edge}; the array is {8 * n * n} bytes; {sent})"


def test_six_ranks_grid_2x3():
    run_cases(CASES[:3], ranks=[6], distribution=([0, 1], [2, 3]))
