"""Manipulation functions and matmul against numpy."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample


@pytest.mark.parametrize("dtype", [xp.int32, xp.float32, xp.float64],
                         ids=str)
@pytest.mark.parametrize("shapes", [((3, 4), (4, 5)), ((1, 3), (3, 1)),
                                    ((4,), (4, 2)), ((2, 3), (3,)),
                                    ((5,), (5,)), ((2, 3, 4), (4, 5)),
                                    ((2, 3, 4), (2, 4, 5)),
                                    ((2, 1, 3, 4), (5, 4, 2)),
                                    ((1, 3, 4), (2, 1, 4, 5))], ids=str)
def test_matmul(dtype, shapes):
    x = sample(shapes[0], dtype, seed=20)
    y = sample(shapes[1], dtype, seed=21)
    check(xp.matmul(xp.asarray(x), xp.asarray(y)), np.matmul(x, y),
          rtol=1e-5)
    check(xp.asarray(x) @ xp.asarray(y), x @ y, rtol=1e-5)


def test_matmul_errors():
    with pytest.raises(ValueError, match="core dimension"):
        xp.ones((2, 3)) @ xp.ones((2, 3))


@pytest.mark.parametrize("shape,new", [((2, 6), (3, 4)), ((2, 6), (-1,)),
                                       ((12,), (2, -1, 3)), ((1, 4), (4, 1)),
                                       ((3,), (3, 1))], ids=str)
def test_reshape(shape, new):
    x = sample(shape, np.float64, seed=22)
    check(xp.reshape(xp.asarray(x), new), np.reshape(x, new))
    check(xp.asarray(x).reshape(new), x.reshape(new))
    with pytest.raises(ValueError, match="cannot reshape"):
        xp.reshape(xp.asarray(x), (5, 5))


@pytest.mark.parametrize("axes", [(1, 0, 2), (2, 0, 1), (0, 2, 1)], ids=str)
def test_permute_dims(axes):
    x = sample((2, 3, 4), np.float64, seed=23)
    check(xp.permute_dims(xp.asarray(x), axes), np.transpose(x, axes))
    check(xp.asarray(x[0]).T, x[0].T)
    check(xp.asarray(x).mT, np.swapaxes(x, -1, -2))


@pytest.mark.parametrize("shape,target", [((3,), (2, 3)), ((3, 1), (3, 4)),
                                          ((1,), (2, 2)), ((), (3,))],
                         ids=str)
def test_broadcast_to(shape, target):
    x = sample(shape, np.float64, seed=24)
    check(xp.broadcast_to(xp.asarray(x), target), np.broadcast_to(x, target))
    if any(n != 1 for n in shape):
        with pytest.raises(ValueError, match="broadcast"):
            xp.broadcast_to(xp.asarray(x), (5, 7))


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_expand_dims_and_squeeze(axis):
    x = sample((2, 3), np.float64, seed=25)
    e = xp.expand_dims(xp.asarray(x), axis=axis)
    check(e, np.expand_dims(x, axis))
    check(xp.squeeze(e, axis=axis), x)
    with pytest.raises(ValueError, match="squeeze"):
        xp.squeeze(xp.asarray(x), axis=0)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_and_stack(axis):
    x = sample((2, 3), np.float64, seed=26)
    y = sample((2, 3), np.float32, seed=27)
    check(xp.concat([xp.asarray(x), xp.asarray(y)], axis=axis),
          np.concatenate([x, y], axis=axis))
    check(xp.stack([xp.asarray(x), xp.asarray(x)], axis=axis),
          np.stack([x, x], axis=axis))
    check(xp.concat([xp.asarray(x), xp.asarray(y)], axis=None),
          np.concatenate([x, y], axis=None))


def test_concat_errors():
    with pytest.raises(ValueError, match="must match"):
        xp.concat([xp.ones((2, 3)), xp.ones((2, 4))], axis=0)


def test_where_with_scalars():
    x = sample((4, 4), np.float64, seed=28)
    check(xp.where(xp.asarray(x) > 0, xp.asarray(x), 0.0),
          np.where(x > 0, x, 0.0))
    check(xp.where(xp.asarray(x) > 0, 1.0, -1.0), np.where(x > 0, 1.0, -1.0))


# --- functions built from the ops (compositions) ---------------------------

X = sample((4, 5, 3), np.float64, seed=3)
I = sample((4, 5, 3), np.int32, seed=4)


def test_matrix_transpose_and_moveaxis():
    check(xp.matrix_transpose(xp.asarray(X)), np.swapaxes(X, -1, -2))
    for source, dest in [(0, -1), (2, 0), ([0, 2], [2, 0]), ([1], [1])]:
        check(xp.moveaxis(xp.asarray(I), source, dest),
              np.moveaxis(I, source, dest))
    with pytest.raises(ValueError, match="repeated axis"):
        xp.moveaxis(xp.asarray(X), [0, 0], [1, 2])


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8], ids=str)
@pytest.mark.parametrize("bounds", [(-1, 2), (None, 0), (1, None)], ids=str)
def test_clip(dtype, bounds):
    x = sample((6, 7), dtype, seed=5)
    lo, hi = bounds
    if np.dtype(dtype).kind == "u":
        lo = None if lo is None else abs(lo)
    check(xp.clip(xp.asarray(x), lo, hi), np.clip(x, lo, hi))


@pytest.mark.parametrize("dtype", [xp.float64, xp.int32, xp.uint8], ids=str)
def test_outer(dtype):
    x = sample((5,), dtype, seed=43)
    y = sample((3,), dtype, seed=44)
    check(xp.outer(xp.asarray(x), xp.asarray(y)), np.outer(x, y), exact=True)
    check(xp.linalg.outer(xp.asarray(x), xp.asarray(y)), np.outer(x, y),
          exact=True)
    assert xp.linalg.matmul is xp.matmul and xp.linalg.vecdot is xp.vecdot
    with pytest.raises(ValueError, match="1-d"):
        xp.outer(xp.ones((2, 2)), xp.ones(2))


def test_vecdot_tensordot():
    check(xp.vecdot(xp.asarray(X), xp.asarray(X)), np.sum(X * X, axis=-1))
    check(xp.vecdot(xp.asarray(X), xp.asarray(X), axis=0),
          np.sum(X * X, axis=0))
    y = sample((5, 3, 2), np.float64, seed=6)
    for axes in [2, 0, ([1, 2], [0, 1]), ([2], [1])]:
        check(xp.tensordot(xp.asarray(X), xp.asarray(y), axes=axes),
              np.tensordot(X, y, axes=axes))


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("n", [0, 1, 2])
def test_diff(axis, n):
    check(xp.diff(xp.asarray(I), axis=axis, n=n), np.diff(I, axis=axis, n=n))
    edge = sample((4, 1, 3), np.float64, seed=7)
    check(xp.diff(xp.asarray(X), axis=1, prepend=xp.asarray(edge),
                  append=xp.asarray(edge)),
          np.diff(X, axis=1, prepend=edge, append=edge))


@pytest.mark.parametrize("repeats,axis", [(3, 1), (2, None), (1, 0), (0, 2)],
                         ids=str)
def test_repeat(repeats, axis):
    check(xp.repeat(xp.asarray(I), repeats, axis=axis),
          np.repeat(I, repeats, axis=axis))


@pytest.mark.parametrize("axis", [0, 1, 2, None], ids=str)
def test_repeat_with_array_of_counts(axis):
    n = I.size if axis is None else I.shape[axis]
    counts = (np.arange(n) * 7 + 3) % 4  # zeros included
    check(xp.repeat(xp.asarray(I), xp.asarray(counts), axis=axis),
          np.repeat(I, counts, axis=axis))
    check(xp.repeat(xp.asarray(I), counts.tolist(), axis=axis),
          np.repeat(I, counts, axis=axis))
    check(xp.repeat(xp.asarray(I), xp.asarray([2]), axis=axis),
          np.repeat(I, [2], axis=axis))
    with pytest.raises(ValueError, match="repeats has"):
        xp.repeat(xp.asarray(I), xp.asarray([1, 2]), axis=axis)
    with pytest.raises(ValueError, match=">= 0"):
        xp.repeat(xp.asarray(I), xp.asarray(counts - 4), axis=axis)


@pytest.mark.parametrize("reps", [(2, 1, 3), (2,), (2, 1, 1, 2), (1, 0, 1)],
                         ids=str)
def test_tile(reps):
    check(xp.tile(xp.asarray(X), reps), np.tile(X, reps))


@pytest.mark.parametrize("shift,axis", [(2, 1), (-7, None), ((1, -1), (0, 2)),
                                        (9, 0), (0, 1)], ids=str)
def test_roll(shift, axis):
    check(xp.roll(xp.asarray(I), shift, axis=axis),
          np.roll(I, shift, axis=axis))


@pytest.mark.parametrize("dtype", [xp.float64, xp.int16, xp.uint8, xp.bool],
                         ids=str)
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_argsort(dtype, axis, descending):
    x = sample((5, 6, 3), dtype, seed=23, low=-3, high=3)  # ties
    if np.dtype(dtype).kind == "f":
        x.reshape(-1)[[4, 30]] = np.nan
    if descending:
        n = x.shape[axis]
        order = n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis,
                                           kind="stable"), axis)
    else:
        order = np.argsort(x, axis=axis, kind="stable")
    a = xp.asarray(x)
    check(xp.argsort(a, axis=axis, descending=descending),
          order.astype(np.int64))
    check(xp.sort(a, axis=axis, descending=descending),
          np.take_along_axis(x, order, axis))


@pytest.mark.parametrize("dtype", [xp.float64, xp.int32, xp.uint8, xp.bool],
                         ids=str)
def test_unique_and_searchsorted(dtype):
    x = sample((4, 5), dtype, seed=29, low=-3, high=3)  # repeats
    if np.dtype(dtype).kind == "f":
        x[1, 1] = x[2, 3] = np.nan  # distinct unique values (array API)
    a = xp.asarray(x)
    flat = x.reshape(-1)
    order = np.argsort(flat, kind="stable")
    s = flat[order]
    first = np.concatenate([[True], s[1:] != s[:-1]])
    values = s[first]
    starts = np.flatnonzero(first)
    counts = np.diff(np.append(starts, flat.size))
    check(xp.unique_values(a), values)
    got = xp.unique_counts(a)
    check(got.values, values)
    check(got.counts, counts.astype(np.int64))
    # (Each NaN is its own unique value: its inverse index is its own.)
    inverse = (np.cumsum(first) - 1)[np.argsort(order, kind="stable")]
    inverse = inverse.reshape(x.shape)
    got = xp.unique_inverse(a)
    check(got.inverse_indices, inverse.astype(np.int64))
    got = xp.unique_all(a)
    check(got.indices, order[first].astype(np.int64))
    check(got.counts, counts.astype(np.int64))
    if np.dtype(dtype).kind != "f":
        np.testing.assert_array_equal(values[inverse], x)
    for side in ("left", "right"):
        check(xp.searchsorted(xp.asarray(values), a, side=side),
              np.searchsorted(values, x, side=side).astype(np.int64))
        shuffled = values[::-1].copy()
        sorter = np.argsort(shuffled, kind="stable")
        check(xp.searchsorted(xp.asarray(shuffled), a, side=side,
                              sorter=xp.asarray(sorter)),
              np.searchsorted(shuffled, x, side=side,
                              sorter=sorter).astype(np.int64))
    check(xp.unique_values(xp.zeros((0,), dtype=dtype)),
          np.zeros((0,), np.dtype(dtype)))


def test_sort_errors():
    with pytest.raises(ValueError, match="at least one dimension"):
        xp.sort(xp.asarray(1.0))
    with pytest.raises(IndexError, match="out of bounds"):
        xp.argsort(xp.ones((2, 2)), axis=2)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), ()], ids=str)
def test_flip(axis):
    check(xp.flip(xp.asarray(I), axis=axis), np.flip(I, axis=axis))
    check(xp.flip(xp.asarray(I[:, 1:3]), axis=axis),
          np.flip(I[:, 1:3], axis=axis))


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing):
    vectors = [np.arange(3.0), np.linspace(0, 1, 4), np.arange(2.0)]
    for k in (1, 2, 3):
        got = xp.meshgrid(*[xp.asarray(v) for v in vectors[:k]],
                          indexing=indexing)
        for g, e in zip(got, np.meshgrid(*vectors[:k], indexing=indexing),
                        strict=True):
            check(g, e)


def test_unstack_and_broadcast_arrays():
    for axis in (0, 1, -1):
        got = xp.unstack(xp.asarray(I), axis=axis)
        expected = [np.take(I, i, axis=axis) for i in range(I.shape[axis])]
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            check(g, e)
    row = sample((3,), np.float64, seed=8)
    for g, e in zip(xp.broadcast_arrays(xp.asarray(X), xp.asarray(row)),
                    np.broadcast_arrays(X, row), strict=True):
        check(g, e)


@pytest.mark.parametrize("shape", [(1,), (1, 1), (1, 3, 1)], ids=str)
def test_squeeze_of_data_dependent_sizes(shape):
    """Squeezing axes whose sizes are known only at run time (a masked
    selection, unique values) down to any rank, 0-d included (collapsing a
    dynamic dimension failed to bufferize)."""
    x = np.arange(np.prod(shape)).reshape(shape)
    a = xp.asarray(x)
    picked = a[a >= 0]                     # size known at run time only
    check(xp.squeeze(xp.reshape(picked, shape), axis=0),
          np.squeeze(x[x >= 0].reshape(shape), axis=0))
    values = xp.unique_values(xp.asarray(np.zeros(shape, np.int64)))
    check(xp.squeeze(values, axis=0), np.squeeze(np.unique(
        np.zeros(shape, np.int64)), axis=0))
