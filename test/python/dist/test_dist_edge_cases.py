"""Bug classes found by programs written without the code (random programs
compared with numpy, the differential tester of test/difftest): each test
covers its class on every distribution (replicated, rows, columns, grids),
at every rank count test_distributed.py runs (1-4), with sizes 0, 1 and
sizes smaller than the rank count. Every rank checks against numpy."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


# Distributions of a 2-d array: replicated, rows, columns, the 2-d grid.
SPLITS_2D = [None, 0, 1, (0, 1)]
THIN_SHAPES = [(0, 3), (3, 0), (1, 3), (3, 1), (1, 1), (2, 3), (0, 0)]


def array(data, split):
    return xp.asarray(np.array(data), split=split)


# --- empty arrays and views ---------------------------------------------------

@pytest.mark.parametrize("split", SPLITS_2D)
@pytest.mark.parametrize("shape", THIN_SHAPES)
def test_stencil_on_thin_arrays(shape, split):
    """Shifted-slice updates whose views are empty along an axis write
    nothing (the rule: a slice's size is max(stop - start, 0), also when
    the bounds are relative to the end of a dimension of size < 2)."""
    x = np.arange(float(np.prod(shape))).reshape(shape) + 1
    a, e = array(x, split), x.copy()
    a[1:-1, 1:-1] = a[:-2, 1:-1] + a[2:, 1:-1]
    e[1:-1, 1:-1] = e[:-2, 1:-1] + e[2:, 1:-1]
    check(a, e)
    v, w = xp.zeros(shape, split=split), np.zeros(shape)
    v[1:, 2:-2] = a[:-1, 2:-2]
    w[1:, 2:-2] = e[:-1, 2:-2]
    check(v, w)
    assert float(xp.sum(a)) == float(np.sum(e))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_empty_slices_of_split_arrays(split):
    x = np.arange(9.0).reshape(3, 3)
    b = array(x, split)
    check(b[:, :0], x[:, :0])
    check(b[:0], x[:0])
    check(b[:0, :0] * 2.0, x[:0, :0] * 2.0)
    check(b[:, 2:1] + 1.0, x[:, 2:1] + 1.0)
    check(xp.concat([b[:, :0], b[:, 1:1]], axis=1), x[:, :0])
    check(xp.concat([b[:0], b[3:]], axis=0), x[:0])
    check(xp.sum(b[:, :0], axis=1), np.sum(x[:, :0], axis=1))


@pytest.mark.parametrize("split", SPLITS_2D)
@pytest.mark.parametrize("shape", [(4, 0), (0, 4), (0, 0)])
def test_created_empty(shape, split):
    a = xp.asarray(np.zeros(shape), split=split)
    check(a * 2.0, np.zeros(shape))
    check(xp.ones(shape, split=split) + a, np.ones(shape))
    check(xp.sum(a, axis=0), np.zeros(shape[1:]))


@pytest.mark.parametrize("split", SPLITS_2D)
@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0)])
@pytest.mark.parametrize("reduction", ["sum", "prod", "max", "var"])
def test_reductions_of_constant_empty_views(reduction, shape, split):
    """Reductions of views whose sizes are constants, one of them 0 (the
    compiler sees a static empty axis: no slice of it at a constant offset
    verifies, 0 included), over every axis choice."""
    x = np.ones(shape)
    b = array(x, split)
    for axis in (None, 0, 1):
        if reduction == "max" and (axis is None or x.shape[axis] == 0):
            continue   # (numpy raises: no identity)
        with np.errstate(all="ignore"):
            expected = getattr(np, reduction)(x[:3, :3], axis=axis)
        check(getattr(xp, reduction)(b[:3, :3], axis=axis), expected)


@pytest.mark.parametrize("split", SPLITS_2D)
def test_writes_into_empty_views(split):
    x = np.arange(6.0).reshape(2, 3)
    a, e = array(x, split), x.copy()
    a[:, 1:1] = 5.0
    a[2:, :] = a[:0, :] + 1.0
    a[:, :0][a[:, :0] > 0] = 7.0
    a[xp.asarray(np.zeros(0, dtype=np.int64))] = 3.0
    check(a, e)


def test_fused_producer_of_empty_broadcast():
    """An elementwise result that a broadcast against an empty array also
    reads is computed (fusing it into the empty loop left it unwritten)."""
    for split in (None, 0):
        a = array([[1.0, 2.0]], split)
        e = xp.asarray(np.zeros((0, 2)), split=split)
        b = a + 1
        c = e + b
        check(b, np.array([[2.0, 3.0]]))
        check(c, np.zeros((0, 2)))
        # The same with a broadcast over several rows: b is written once.
        f = xp.asarray(np.ones((3, 2)), split=split)
        b = a * 3
        c = f + b
        check(b, np.array([[3.0, 6.0]]))
        check(c, np.ones((3, 2)) + np.array([[3.0, 6.0]]))


# --- broadcasting between distributions -----------------------------------

@pytest.mark.parametrize("left", SPLITS_2D)
@pytest.mark.parametrize("right", SPLITS_2D)
def test_broadcast_between_distributions(left, right):
    r = sample((2, 1), np.float64, seed=1)
    c = sample((1, 1), np.float64, seed=2)
    m = sample((3, 4), np.float64, seed=3)
    row = sample((1, 4), np.float64, seed=4)
    check(array(c, left) + array(r, right), c + r)
    check(array(r, left) + array(c, right), r + c)
    check(array(m, left) - array(row, right), m - row)
    check(array(row, left) * array(m, right), row * m)


@pytest.mark.parametrize("split", SPLITS_2D)
@pytest.mark.parametrize("other", SPLITS_2D)
@pytest.mark.parametrize("keep", [0, 1, 2, 3])
def test_broadcast_of_selections_and_computed_sizes(split, other, keep):
    """An array whose size 1 is known only when it runs (a masked
    selection: its type says dynamic) broadcasts like one of static size 1
    (the rule: every value's type has static 1 where its size is 1), within
    the kernel that selects and in later ones, against every
    distribution."""
    x = np.array([[5.0, 1.0, 7.0], [2.0, 9.0, 4.0]])
    threshold = np.sort(x.ravel())[::-1][keep - 1] if keep else 10.0
    a = array(x, split)
    m = sample((2, 3), np.float64, seed=5)
    for same_kernel in (True, False):
        sel = a[a >= threshold]
        want = x[x >= threshold]
        if not same_kernel:
            sel.to_numpy()
        row = xp.reshape(sel, (1, -1)) if keep == 3 else sel
        if keep == 1:
            check(array(m, other) * sel, m * want)
            check(xp.where(array(m, other) > 0, sel, array(m, other)),
                  np.where(m > 0, want, m))
        if keep == 3:
            check(array(m, other) + row, m + want.reshape(1, -1))
        check(sel + xp.max(sel, keepdims=True) if keep else sel,
              want + want.max(keepdims=True) if keep else want)
        check(sel, want)


@pytest.mark.parametrize("split", [None, 0])
@pytest.mark.parametrize("other", [None, 0])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_broadcast_of_1d_selections(split, other, n):
    """As above on vectors: a selection that kept one element broadcasts
    against a vector of any distribution (found by the differential tester
    as a halo exchange outside the array)."""
    x = np.arange(n, dtype=np.int8) + 3
    v = xp.asarray(x, split=split)
    sel = v[v > n + 1]
    w = np.arange(2 * n, dtype=np.int8).reshape(2, n)[1]
    check(xp.asarray(w, split=other) | sel, w | x[x > n + 1])
    check(xp.where(xp.asarray(w, split=other) > 2, sel, 0),
          np.where(w > 2, x[x > n + 1], 0))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_row_normalisation(split):
    x = np.arange(6.0).reshape(3, 2) + 1
    a = array(x, split)
    s = xp.sum(a, axis=1, keepdims=True)
    s.to_numpy()                                # a sync point between
    check(a / s, x / x.sum(axis=1, keepdims=True))
    check(a / xp.sum(a, axis=0, keepdims=True), x / x.sum(axis=0))


@pytest.mark.parametrize("split", [1, (0, 1)])
def test_row_sums_of_split_arrays_in_scans_and_concats(split):
    for _ in range(3):
        a = xp.asarray(np.ones((7, 2)), split=split)
        s = xp.sum(a, axis=1)
        check(xp.cumulative_sum(s, include_initial=True),
              np.arange(8) * 2.0)
        check(xp.concat([s, s[-1:]]), np.full(8, 2.0))
        check(xp.diff(s, append=s[:1]), np.zeros(7))


# --- inserts that convert -------------------------------------------------------

@pytest.mark.parametrize("split", SPLITS_2D)
@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.float32, np.int64])
def test_broadcast_insert_with_cast(split, dtype):
    w = xp.asarray(np.zeros((5, 3)), split=split)
    src = np.array([[3, 4, 1]]).astype(dtype)
    w[:] = xp.asarray(src)
    check(w, np.broadcast_to(src.astype(np.float64), (5, 3)))
    w[1:4, ::2] = xp.asarray(np.array([[7, 0]]).astype(dtype))
    e = np.broadcast_to(src.astype(np.float64), (5, 3)).copy()
    e[1:4, ::2] = np.array([[7, 0]]).astype(dtype)
    check(w, e)
    v = xp.asarray(np.zeros(4), split=0 if split is not None else None)
    v[:] = xp.asarray(np.array([3]).astype(dtype))
    check(v, np.full(4, np.array([3]).astype(dtype)[0], dtype=np.float64))


# --- results that are new arrays ---------------------------------------------

@pytest.mark.parametrize("split", [None, 0])
def test_results_are_new_arrays(split):
    """Functions numpy answers with a copy give a new array, also where
    the result equals the input (a roll by a whole turn)."""
    for make in (lambda a, m: m.roll(a, 4, axis=0),
                 lambda a, m: m.roll(a, 0),
                 lambda a, m: m.roll(a, (0, 8), axis=(0, 0)),
                 lambda a, m: (m.astype(a, a.dtype) if m is xp
                               else a.astype(a.dtype)),
                 lambda a, m: m.clip(a, -1.0, 10.0),
                 lambda a, m: m.repeat(a, 1)):
        x = np.arange(4.0)
        a = xp.asarray(x, split=split)
        r, e = make(a, xp), make(x, np)
        a[0] = 100.0
        x[0] = 100.0
        check(r, e)


# --- user errors are exceptions on every rank ---------------------------------

@pytest.mark.parametrize("split", [None, 0])
def test_take_out_of_range_raises(split):
    x = xp.asarray(np.arange(6.0), split=split)
    with pytest.raises(IndexError, match="index 6 is out of bounds"):
        xp.take(x, xp.asarray([6], dtype=xp.int64), axis=0).to_numpy()
    with pytest.raises(IndexError, match="index -7 is out of bounds"):
        x[xp.asarray([1, -7, 9])].to_numpy()
    # Indices computed by a kernel (not known to the frontend); the result
    # is never used: the check still raises at the next sync point.
    idx = xp.asarray(np.array([0, 2, 5, 3]), split=split) * 2
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        xp.take(x, idx)
        xp.sync()
    # The interpreter and the arrays stay usable.
    check(xp.take(x, idx // 2), np.arange(6.0)[[0, 2, 5, 3]])


@pytest.mark.parametrize("split", [None, 0])
def test_put_out_of_range_raises_and_writes_nothing(split):
    a = xp.asarray(np.arange(5.0), split=split)
    idx = xp.asarray(np.array([1, 2]), split=split) * 3
    with pytest.raises(IndexError, match="index 6 is out of bounds"):
        a[idx] = 9.0
    with pytest.raises(IndexError, match="out of bounds"):
        a[xp.asarray([0, 5])] = 1.0
    check(a, np.arange(5.0))


def test_roll_by_multiple_of_length_is_a_copy():
    a = xp.asarray(np.arange(4.0))
    r = xp.roll(a, 4, axis=0)
    a[0] = 100.0
    check(r, np.arange(4.0))


# --- found by the differential tester (test/difftest) ----------------------

SPLITS_3D = [None, 0, 1, 2, (0, 1), (1, 2)]


@pytest.mark.parametrize("split", [None, 0, 1])
def test_inplace_update_with_new_axes(split):
    """numpy drops leading unit dimensions of the value: the view with a
    None axis is (1, 1), the destination without it (1,)."""
    x = np.array([3, 7, 1, 4], dtype=np.uint16)
    a, e = xp.asarray(x, split=0 if split == 0 else None), x.copy()
    a[:-5:-1, None] += 2
    e[:-5:-1, None] += 2
    check(a, e)
    y = np.arange(12).reshape(3, 4)
    b, f = xp.asarray(y, split=split), y.copy()
    b[None, -4:6:-3, :3:3] -= -1
    f[None, -4:6:-3, :3:3] -= -1
    b[1] = xp.asarray(np.full((1, 1, 4), 5))
    f[1] = np.full((1, 1, 4), 5)
    check(b, f)


@pytest.mark.parametrize("split", [None, 0, 1, (0, 1)])
def test_unit_dimensions_with_steps(split):
    """Slices of one element with a step (a[2::2, -1]): the step of a unit
    dimension is no stride (the compiler crashed telling the dropped unit
    dimension from the kept one)."""
    x = np.arange(4.0, dtype=np.float32).reshape(4, 1) + 1
    a, e = xp.asarray(x, split=split), x.copy()
    a[2::2, -1] *= -2
    e[2::2, -1] *= -2
    check(a, e)
    z = np.arange(40, dtype=np.float16).reshape(8, 5, 1)
    check(xp.asarray(z, split=split if split != (0, 1) else (1, 2))
          [-5, 4::3, -1::3], z[-5, 4::3, -1::3])


@pytest.mark.parametrize("split", SPLITS_3D)
def test_stack_of_empty_reversed_views(split):
    x = np.zeros((0, 1, 1), dtype=np.int8)
    v = xp.asarray(x, split=split)[::3, ::-1, 6:-4:-3]
    check(xp.stack([v, v], axis=0), np.stack([x, x], axis=0))
    y = np.ones((2, 3, 4))
    w = xp.asarray(y, split=split)[:, :0, ::-2]
    check(xp.concat([w, w], axis=1), np.concatenate([y[:, :0, ::-2]] * 2, 1))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_scans_of_strided_views(split):
    x = (np.arange(10.0) - 4.5).reshape(5, 2) + 1j
    v = xp.asarray(xp.asarray(x)[:7:2, :1:3], split=split)
    check(xp.cumulative_prod(v, axis=-1), np.cumprod(x[:7:2, :1:3], axis=-1))
    check(xp.cumulative_sum(v, axis=0), np.cumsum(x[:7:2, :1:3], axis=0))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_reduced_operand_broadcast_in_where(split):
    """A (1,) row-split result of a reduction of a grid array broadcast
    against a (2,) replicated array: the broadcast operand keeps its one
    row (IDTR aborted: 'bounding box lies outside the array')."""
    x = np.array([[0, 2, 3, 3, 1, 2, 3]], dtype=np.uint32)
    y = np.array([[2.5, -2.0, 3.0, 4.0, 4.0, 4.0, -0.5]])
    d = xp.vecdot(xp.asarray(x, split=split), xp.asarray(y))
    c = xp.asarray(np.array([3.0, 0.0]))
    e = np.sum(x * y, axis=-1)
    check(xp.where(c != 0, c, d), np.where(np.array([3.0, 0.0]) != 0,
                                           np.array([3.0, 0.0]), e))
    check(d + c, e + np.array([3.0, 0.0]))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_views_of_one_row_broadcast(split):
    """A view of size 1 ending relative to the end (a[1:] of two rows) is
    typed 1, so that broadcasting against it is seen on any distribution
    (it aborted on columns and grids)."""
    x = np.arange(6, dtype=np.int64).reshape(2, 3)
    a = xp.asarray(x, split=split)
    check(a + a[1:, :], x + x[1:, :])
    check(xp.minimum(a, a[:, -1:]), np.minimum(x, x[:, -1:]))
    e = np.zeros((2, 0))
    z = xp.asarray(e, split=split)
    check(xp.minimum(xp.cumulative_prod(z, axis=0), z[1:, -1:]),
          np.minimum(np.cumprod(e, axis=0), e[1:, -1:]))


@pytest.mark.parametrize("split", SPLITS_2D)
def test_float16_reductions_accumulate_in_float32(split):
    """numpy reduces float16 in float32 and rounds once: partial products
    and sums would overflow float16 (inf, then inf * 0 = nan)."""
    x = np.array([[300, 300], [0, 1], [256, 1 / 256]], np.float16)
    a = xp.asarray(x, split=split)
    for f, g in ((xp.prod, np.prod), (xp.sum, np.sum), (xp.mean, np.mean)):
        check(f(a), g(x))
        check(f(a, axis=0), g(x, axis=0))
        check(f(a, axis=1, keepdims=True), g(x, axis=1, keepdims=True))
    y = np.array([6e4, 6e4, -6e4, -6e4], np.float16)
    b = xp.asarray(y, split=0 if split is not None else None)
    check(xp.sum(b), np.sum(y))
    check(xp.mean(b), np.mean(y))


@pytest.mark.parametrize("left", SPLITS_2D)
@pytest.mark.parametrize("right", SPLITS_2D)
@pytest.mark.parametrize("shapes", [((1, 3), (3, 3)), ((2, 5), (5, 4)),
                                    ((3, 1), (1, 3)), ((0, 3), (3, 2)),
                                    ((2, 0), (0, 3))], ids=str)
def test_several_exchanges_in_one_kernel(shapes, left, right):
    """Several matmuls and shifted-slice sums of equally shaped arrays in
    one kernel: each exchange's halos are received into the buffer where
    its array is assembled, which may hold another array's copy until then
    (the second of two matmuls with column-split matrices read the first
    one's halo rows)."""
    xs, bs = shapes
    x = sample(xs, np.float64, seed=40)
    mats = [sample(bs, np.float64, seed=41 + k) for k in range(3)]
    v = xp.asarray(x, split=left)
    products = [xp.matmul(v, xp.asarray(m, split=right)) for m in mats]
    arrays = [xp.asarray(m, split=right) for m in mats]
    sums = [a[1:] + a[:-1] for a in arrays]
    for got, m in zip(products, mats):
        check(got, x @ m, rtol=1e-12)
    for got, m in zip(sums, mats):
        check(got, m[1:] + m[:-1])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.int8],
                         ids=str)
def test_scans_along_the_split_axis_keep_the_single_process_order(dtype):
    # A zero early, then values whose partial products overflow float16:
    # each rank scans on from the total before it (0 stays 0; the total
    # applied to a rank's own overflowed partial product was 0 * inf).
    x = np.array([-4, 0.5, -1, 0, 1, 3.5, -2, -2, -4, 1.5, 2.5, -1, -4.5],
                 dtype=np.float64) * 7
    x = x.astype(dtype).reshape(13, 1)
    a = xp.asarray(x, split=0)
    with np.errstate(all="ignore"):
        check(xp.cumulative_prod(a, axis=0),
              np.cumprod(x, axis=0, dtype=xp.prod(a).dtype))
        check(xp.cumulative_sum(a, axis=0),
              np.cumsum(x, axis=0, dtype=xp.sum(a).dtype))


def test_replicated_vector_redistributed_times_column_split_matrix():
    """A vector redistributed from a replicated array, times a matrix split
    on columns: the kernel chose between two arrays at run time
    (`arith.select` of arrays, which did not lower; difftest seed 91845)."""
    x = np.array([3.5, 2.5, -3.0, -1.5, 3.0], dtype=np.float32)
    w = np.array([-2.0, 0.5, -3.5, -0.5, 2.5], dtype=np.float32).reshape(5, 1)
    v = xp.asarray(xp.asarray(x), split=0)
    check(xp.matmul(v, xp.asarray(w, split=1)), x @ w)


def test_empty_view_with_negative_step_of_split_array():
    """Views with a negative row step that are empty along another axis:
    the halo box of an empty view lay outside the array (IDTR aborted;
    difftest seed 92017)."""
    x = sample((3, 11), np.complex128, seed=12)
    a = xp.stack([xp.asarray(x, split=0)] * 2, axis=-1)
    y = np.stack([x, x], axis=-1)
    check(a[:1:-2, 5, 3:], y[:1:-2, 5, 3:])
    check(a[-1::-3, :8:2, 2::3], y[-1::-3, :8:2, 2::3])
