"""Indexing, slicing with views and in-place updates against numpy."""

import itertools

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

KEYS = [
    (slice(1, -1), slice(1, -1)), (slice(None, None, 2),), (0,), (-1,),
    (1, slice(None)), (slice(None), 2), (Ellipsis, 1), (slice(2, None),),
    (slice(-3, None), slice(None, -2)), (slice(0, 100),), (None, 0),
    (slice(1, 3), None, slice(None)), (2, 3), (slice(5, 2),),
    (slice(None), slice(1, None, 3)),
    # Negative steps: the positive-step view of the same elements, reversed.
    (slice(None, None, -1),), (slice(None), slice(4, 0, -2)),
    (slice(-2, None, -3),), (slice(3, None, -1), 1), (slice(1, 4, -1),),
    (None, slice(None, None, -2), slice(None, None, -1)),
]


@pytest.mark.parametrize("key", KEYS, ids=str)
def test_getitem(key):
    x = sample((5, 6), np.float64, seed=30)
    check(xp.asarray(x)[key], x[key], exact=True)


@pytest.mark.parametrize("key", [k for k in KEYS if None not in k], ids=str)
def test_setitem(key):
    x = sample((5, 6), np.float64, seed=31)
    a = xp.asarray(x)
    value = sample(x[key].shape, np.float64, seed=32)
    a[key] = xp.asarray(value)
    x[key] = value
    check(a, x, exact=True)
    a[key] = 3.5
    x[key] = 3.5
    check(a, x, exact=True)


def test_negative_step_setitem_broadcasts_before_reversing():
    x = sample((5, 6), np.float64, seed=36)
    a = xp.asarray(x)
    row = np.arange(3.0)
    a[::-2, 4:1:-1] = xp.asarray(row)
    x[::-2, 4:1:-1] = row
    check(a, x, exact=True)
    a[::-1, 0] = xp.asarray(np.arange(5.0))
    x[::-1, 0] = np.arange(5.0)
    check(a, x, exact=True)


def test_views_alias_their_base():
    x = np.arange(12.0).reshape(3, 4)
    a = xp.asarray(x)
    v = a[1:, 1:]
    a[2, 2] = -1.0
    x[2, 2] = -1.0
    check(v, x[1:, 1:])
    v[0, 0] = 100.0  # writes through to a
    x[1, 1] = 100.0
    check(a, x)
    w = v[1:, :2]  # a view of a view
    w[...] = 0.0
    x[2:, 1:3] = 0.0
    check(a, x)


def test_reads_before_a_write_see_old_values():
    x = np.arange(6.0)
    a = xp.asarray(x)
    b = a * 2.0  # pending
    a[:] = 0.0
    check(b, x * 2.0)
    check(a, np.zeros(6))


def test_view_of_a_computed_array():
    x = sample((4, 4), np.float64, seed=33)
    a = xp.asarray(x)
    v = (a + 1.0)[1:3]
    check(v * 2.0, (x + 1.0)[1:3] * 2.0)
    check(v, (x + 1.0)[1:3])


def test_stencil_step_in_place():
    x = sample((8, 9), np.float64, seed=34)
    u = xp.asarray(x)
    for _ in range(3):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
        x[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] +
                                x[1:-1, 2:])
    check(u, x)


@pytest.mark.parametrize("key,error", [
    ((0, 0, 0), "too many indices"), ((7,), "out of bounds"),
    ((Ellipsis, Ellipsis), "single ellipsis"), (("a",), "invalid index")])
def test_index_errors(key, error):
    with pytest.raises(IndexError, match=error):
        xp.ones((3, 3))[key]


def test_take_and_integer_array_indexing():
    x = sample((5, 4), np.float64, seed=31)
    a = xp.asarray(x)
    i = np.array([4, 0, -1, 2, 2])
    check(a[xp.asarray(i)], x[i])
    check(a[i], x[i])
    check(xp.take(a, xp.asarray([3, -4]), axis=1), np.take(x, [3, -4], axis=1))
    check(xp.take(xp.asarray(x[0]), xp.asarray(np.array([1], np.uint8))),
          x[0][[1]])
    with pytest.raises(ValueError, match="axis is required"):
        xp.take(a, xp.asarray([0]))
    with pytest.raises(IndexError, match="1-d integer array"):
        xp.take(a, xp.asarray([[0]]), axis=0)


@pytest.mark.parametrize("dtype", [xp.float64, xp.int32, xp.uint8, xp.bool],
                         ids=str)
def test_integer_array_assignment(dtype):
    """a[idx] = v: repeated indices (the last write wins), negative ones,
    broadcast and converted values, numpy and imex index arrays."""
    x = sample((6, 3), dtype, seed=33)
    v = sample((5, 3), dtype, seed=34)
    a = xp.asarray(x)
    i = np.array([4, 0, -1, 4, 2], dtype=np.int32)
    a[xp.asarray(i)] = xp.asarray(v)
    x[i] = v
    check(a, x, exact=True)
    a[np.array([1, 1], np.uint8)] = x[0]  # one row, broadcast
    x[[1, 1]] = x[0]
    check(a, x, exact=True)
    a[np.array([], np.int64)] = 7
    check(a, x, exact=True)
    w = xp.asarray(x[:, 0])
    w[xp.asarray([0, -2])] = 1.5 if dtype == xp.float64 else 1
    want = x[:, 0].copy()
    want[[0, -2]] = 1.5 if dtype == xp.float64 else 1
    check(w, want, exact=True)


def test_integer_array_assignment_errors():
    a = xp.zeros((4, 3))
    with pytest.raises(ValueError, match="shape mismatch: value array of "
                       "shape \\(2,\\) could not be broadcast to indexing "
                       "result of shape \\(3, 3\\)"):
        a[np.array([0, 1, 2])] = xp.asarray([1.0, 2.0])


def test_boolean_mask_assignment_per_element():
    """a[mask] = values with one value per selected element (row-major
    order of the mask), 1-d and n-d masks."""
    x = sample((5, 4), np.float64, seed=35)
    a = xp.asarray(x)
    m = x > 0
    vals = np.arange(m.sum(), dtype=np.float64)
    a[xp.asarray(m)] = xp.asarray(vals)
    x[m] = vals
    check(a, x, exact=True)
    rows = np.array([True, False, False, True, True])
    a[rows] = xp.asarray(-np.arange(12.0).reshape(3, 4))
    x[rows] = -np.arange(12.0).reshape(3, 4)
    check(a, x, exact=True)
    a[rows] = xp.asarray(np.array([[9.0], [8.0], [7.0]]))  # broadcast rows
    x[rows] = np.array([[9.0], [8.0], [7.0]])
    check(a, x, exact=True)


def test_unsupported_indexing_raises():
    a = xp.ones((3, 3))
    with pytest.raises(IndexError, match="integers and integer arrays"):
        a[xp.asarray(np.array([[0, 1]])), 1:]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        a[::0]


def test_setitem_broadcast_error():
    a = xp.ones((3, 3))
    with pytest.raises(ValueError, match="could not broadcast"):
        a[0] = xp.ones(4)


@pytest.mark.parametrize("dtype", [xp.float64, xp.int32, xp.uint8, xp.bool],
                         ids=str)
def test_boolean_mask_indexing(dtype):
    x = sample((5, 4, 3), dtype, seed=17)
    a = xp.asarray(x)
    for m in (x.reshape(-1)[:60].reshape(5, 4, 3) != x.reshape(-1)[0],
              np.arange(5) % 2 == 0, np.zeros((5, 4), bool),
              np.ones((5, 4), bool)):
        check(a[xp.asarray(m)], x[m])
        check(a[m], x[m])  # a numpy mask
    check(a[a > a[0, 0, 0]] if dtype != xp.bool else a[a],
          x[x > x[0, 0, 0]] if dtype != xp.bool else x[x])


def test_boolean_mask_assignment_and_nonzero():
    x = sample((6, 3), np.float64, seed=19)
    a = xp.asarray(x)
    a[a < 0] = 0.0
    x[x < 0] = 0.0
    check(a, x)
    rows = np.array([True, False, True, False, False, True])
    a[xp.asarray(rows)] = xp.asarray([1.0, 2.0, 3.0])
    x[rows] = [1.0, 2.0, 3.0]
    check(a, x)
    for got, want in zip(xp.nonzero(a > 0.5), np.nonzero(x > 0.5)):
        check(got, want.astype(np.int64))
    (i,) = xp.nonzero(xp.asarray([0, 3, 0, 1]))
    check(i, np.array([1, 3]))
    with pytest.raises(IndexError, match="boolean index did not match"):
        a[xp.asarray(np.ones(5, bool))]
    with pytest.raises(ValueError, match="cannot assign values of shape"):
        a[a > 0] = xp.asarray([1.0, 2.0])
    with pytest.raises(ValueError, match="nonzero of a 0-d array"):
        xp.nonzero(xp.asarray(1.0))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_take_along_axis(axis):
    x = sample((4, 5), np.float64, seed=45)
    order = np.argsort(x, axis=axis)
    check(xp.take_along_axis(xp.asarray(x), xp.asarray(order), axis=axis),
          np.take_along_axis(x, order, axis=axis), exact=True)
    idx = np.zeros((4, 5), np.int32) - 1 if axis != 0 else \
        np.zeros((2, 5), np.int32) - 1
    if axis != 0:
        idx = idx[:, :2]
    check(xp.take_along_axis(xp.asarray(x), xp.asarray(idx), axis=axis),
          np.take_along_axis(x, idx, axis=axis), exact=True)


@pytest.mark.parametrize("key", [
    lambda i, j: (i,), lambda i, j: (i, j), lambda i, j: (1, j),
    lambda i, j: (i, -2, j), lambda i, j: ([0, -1],), lambda i, j: i,
    lambda i, j: (i[:0],)], ids=["array", "two arrays", "int and array",
                                 "arrays around an int", "list", "2-d alone",
                                 "empty"])
def test_integer_array_indexing_with_integers(key):
    x = sample((3, 4, 5), np.float64, seed=41)
    a = xp.asarray(x)
    i = np.array([[1, 0], [-1, 2]])
    j = np.array([3, -4])
    want = x[key(i, j)]
    got = a[key(xp.asarray(i), xp.asarray(j))]
    check(got, want)
    with pytest.raises(IndexError, match="out of bounds"):
        a[xp.asarray(np.array([0, 3])), 1].to_numpy()
    with pytest.raises(IndexError, match="integer type"):
        a[xp.asarray(np.array([0.5])), 1]


def test_an_empty_mask_axis_selects_nothing():
    a = xp.asarray(np.ones((3, 2)))
    got = a[xp.asarray(np.zeros((0,), bool))]
    assert got.shape == (0, 2)
    a[xp.asarray(np.zeros((0, 2), bool))] = 5.0
    check(a, np.ones((3, 2)))


def test_zero_dimensional_boolean_index():
    x = sample((2, 3), np.float64, seed=42)
    a = xp.asarray(x)
    for flag in (True, False):
        check(a[xp.asarray(flag)], x[np.array(flag)])
        b, y = xp.asarray(x), x.copy()
        b[xp.asarray(flag)] = -1.0
        y[np.array(flag)] = -1.0
        check(b, y)


def test_finfo_iinfo():
    for dtype in (xp.float16, xp.float32, xp.float64):
        assert xp.finfo(dtype).eps == np.finfo(dtype).eps
        assert type(xp.finfo(dtype).eps) is float
    assert xp.finfo(xp.complex64).dtype == xp.float32
    assert xp.finfo(xp.complex128).max == np.finfo(np.float64).max
    assert type(xp.iinfo(xp.int16).min) is int
    assert xp.finfo(xp.ones(2)).bits == 64
    assert xp.iinfo(xp.uint8).max == 255 and xp.iinfo(xp.int64).bits == 64
    with pytest.raises(ValueError, match="not an integer"):
        xp.iinfo(xp.float32)


UNIT_AXES_SHAPES = [(1, 5, 1, 2, 1), (1, 1, 3), (3, 1, 1), (1, 2, 1, 1),
                    (1, 1, 1)]


@pytest.mark.parametrize("shape", UNIT_AXES_SHAPES, ids=str)
def test_integer_indices_among_several_unit_axes(shape):
    """Every set of integer-indexed axes of arrays with several unit axes:
    the view drops exactly those axes (read whole, permuted and flattened,
    and written), not other unit axes."""
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    nd = len(shape)
    for k in range(1, nd + 1):
        for positions in itertools.combinations(range(nd), k):
            key = tuple(0 if d in positions else slice(None)
                        for d in range(nd))
            got, want = xp.asarray(x)[key], x[key]
            check(got, want)
            if got.ndim >= 2:
                axes = tuple(reversed(range(got.ndim)))
                check(xp.reshape(xp.permute_dims(got, axes), (-1,),
                                 copy=True),
                      np.transpose(want, axes).reshape(-1))
            a, y = xp.asarray(x), x.copy()
            value = -1.0 - np.arange(want.size).reshape(want.shape)
            a[key] = xp.asarray(value)
            y[key] = value
            check(a, y)


def random_index(rng, size):
    """An integer or a slice (any bounds, out of range too, any step) of an
    axis of `size`."""
    if size and rng.random() < 0.4:
        return int(rng.integers(-size, size))
    bound = lambda: (None if rng.random() < 0.3
                     else int(rng.integers(-2 * size - 2, 2 * size + 3)))
    step = [None, 1, 2, 3, -1, -2][rng.integers(6)]
    return slice(bound(), bound(), step)


@pytest.mark.parametrize("shape", UNIT_AXES_SHAPES + [(3, 1, 1, 4)],
                         ids=str)
def test_random_views_among_several_unit_axes(shape):
    """Random integer/strided-slice keys into arrays with several unit axes,
    read and written with a scalar and with an array (views whose unit axes
    have equal strides, where the dropped axis is ambiguous)."""
    rng = np.random.default_rng(len(shape) * 100 + shape[0])
    x = np.arange(np.prod(shape), dtype=np.uint8).reshape(shape)
    for _ in range(12):
        key = tuple(random_index(rng, n) for n in shape)
        check(xp.asarray(x)[key], x[key])
        a, y = xp.asarray(x), x.copy()
        a[key] = 200
        y[key] = 200
        check(a, y)
        value = (np.arange(y[key].size, dtype=np.uint8) + 100).reshape(
            y[key].shape)
        a[key] = xp.asarray(value)
        y[key] = value
        check(a, y)
