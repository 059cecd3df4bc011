"""Distributed arrays (split=0) under mpirun: every rank checks the gathered
result against numpy. Sizes do not divide evenly; with 4 ranks some ranks
own nothing."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

SIZES = [1, 3, 7, 10]


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


@pytest.mark.parametrize("n", SIZES)
def test_creation(n):
    check(xp.zeros((n, 3), split=0), np.zeros((n, 3)))
    check(xp.full((n,), 2.5, split=0), np.full((n,), 2.5))
    check(xp.linspace(0.0, 1.0, n, split=0), np.linspace(0.0, 1.0, n))
    check(xp.arange(n, split=0), np.arange(n))
    x = sample((n, 2), np.int32, seed=n)
    a = xp.asarray(x, split=0)
    assert a.split == 0 and a.shape == (n, 2)
    check(a, x)


@pytest.mark.parametrize("n", SIZES)
def test_eye_tril_triu(n):
    """Each rank computes its rows of the masks (ndarray.tri), no gather."""
    for k in (-1, 0, 2):
        check(xp.eye(n, n + 2, k=k, split=0), np.eye(n, n + 2, k=k))
    x = sample((n, 5), np.float64, seed=n)
    a = xp.asarray(x, split=0)
    check(xp.tril(a, k=1), np.tril(x, 1))
    check(xp.triu(a, k=-1), np.triu(x, -1))
    assert xp.triu(a).split == 0


@pytest.mark.parametrize("n", SIZES)
def test_compositions(n):
    """roll and diff along the split axis (neighbours' rows), clip, repeat,
    tile, moveaxis, vecdot and tensordot of split arrays."""
    x = sample((n, 4), np.float64, seed=n + 1)
    a = xp.asarray(x, split=0)
    check(xp.roll(a, 2, axis=0), np.roll(x, 2, axis=0))
    check(xp.roll(a, -1), np.roll(x, -1))
    check(xp.diff(a, axis=0), np.diff(x, axis=0))
    check(xp.diff(a, n=2), np.diff(x, n=2))
    check(xp.clip(a, -1.0, 1.5), np.clip(x, -1.0, 1.5))
    check(xp.repeat(a, 2, axis=1), np.repeat(x, 2, axis=1))
    check(xp.outer(a[:, 0], xp.asarray(x[0])), np.outer(x[:, 0], x[0]))
    counts = np.arange(x.shape[0]) % 3
    check(xp.repeat(a, xp.asarray(counts, split=0), axis=0),
          np.repeat(x, counts, axis=0))
    check(xp.repeat(a, 3, axis=0), np.repeat(x, 3, axis=0))
    check(xp.tile(a, (2, 1)), np.tile(x, (2, 1)))
    check(xp.moveaxis(a, 0, 1), np.moveaxis(x, 0, 1))
    check(xp.vecdot(a, a), np.sum(x * x, axis=-1))
    y = sample((4, 3), np.float64, seed=n + 2)
    check(xp.tensordot(a, xp.asarray(y), axes=1), np.tensordot(x, y, axes=1))


@pytest.mark.parametrize("n", SIZES)
def test_cumulative(n):
    """Scans of split arrays along the split axis (local scans plus an
    exclusive scan of the ranks' totals) and across it (local)."""
    x = sample((n, 3), np.int32, seed=n + 3)
    a = xp.asarray(x, split=0)
    check(xp.cumulative_sum(a, axis=0), np.cumsum(x, axis=0, dtype=np.int64))
    check(xp.cumulative_prod(a, axis=1, include_initial=True),
          np.concatenate([np.ones((n, 1), np.int64),
                          np.cumprod(x, axis=1, dtype=np.int64)], axis=1))
    check(xp.cumulative_sum(a, axis=0, include_initial=True),
          np.concatenate([np.zeros((1, 3), np.int64),
                          np.cumsum(x, axis=0, dtype=np.int64)]))
    f = sample((n,), np.float64, seed=n + 4)
    check(xp.cumulative_sum(xp.asarray(f, split=0)), np.cumsum(f))


@pytest.mark.parametrize("n", SIZES)
def test_argmax_argmin(n):
    """argmax/argmin of split arrays: the first occurrence over all ranks
    (ties everywhere: few distinct values), NaN wins; along the split axis
    or all axes replicated, along others split."""
    x = sample((n, 3), np.int32, seed=n + 5) % 3
    a = xp.asarray(x, split=0)
    for kind in ("argmax", "argmin"):
        f = getattr(np, kind)
        check(getattr(xp, kind)(a), np.asarray(f(x), np.int64))
        check(getattr(xp, kind)(a, axis=0), f(x, axis=0).astype(np.int64))
        check(getattr(xp, kind)(a, axis=1, keepdims=True),
              f(x, axis=1, keepdims=True).astype(np.int64))
    y = sample((n,), np.float64, seed=n + 6)
    y[n // 2] = np.nan
    check(xp.argmin(xp.asarray(y, split=0)), np.asarray(np.argmin(y)))


@pytest.mark.parametrize("n", SIZES)
def test_boolean_masks(n):
    """a[mask] of split arrays keeps each rank's selection where it lies
    (used further with arrays of the default partition), a[mask] = v is
    local, nonzero gives split index arrays."""
    x = sample((n, 3), np.float64, seed=n + 7)
    a = xp.asarray(x, split=0)
    check(a[a > 0], x[x > 0])
    rows = x[:, 0] > 0
    check(a[xp.asarray(rows, split=0)], x[rows])
    s = a[a > 0]
    check(s + xp.asarray(np.arange(s.shape[0], dtype=np.float64), split=0),
          x[x > 0] + np.arange(int((x > 0).sum())))
    check(xp.sum(s), np.sum(x[x > 0]))
    a[a < 0] = -1.0
    x[x < 0] = -1.0
    check(a, x)
    for got, want in zip(xp.nonzero(a > 0), np.nonzero(x > 0)):
        check(got, want.astype(np.int64))


@pytest.mark.parametrize("n", SIZES)
def test_integer_and_mask_assignment(n):
    """a[idx] = v on split arrays (split or replicated indices and values:
    pairs sent to the owners, or each rank writing its rows; the last of
    repeated indices wins) and a[mask] = values per selected element."""
    x = sample((n, 3), np.float64, seed=n + 13)
    a = xp.asarray(x, split=0)
    i = np.array([n - 1, 0, -1, n // 2, n - 1])
    v = sample((5, 3), np.float64, seed=n + 14)
    a[xp.asarray(i, split=0)] = xp.asarray(v, split=0)
    x[i] = v
    check(a, x)
    a[i] = v[::-1].copy()  # replicated indices and values
    x[i] = v[::-1]
    check(a, x)
    cols = xp.asarray(x[:, 0], split=0)
    cols[xp.asarray([0, -1])] = xp.asarray([5.0, 6.0])
    want = x[:, 0].copy()
    want[[0, -1]] = [5.0, 6.0]
    check(cols, want)
    m = x > 0
    vals = np.arange(m.sum(), dtype=np.float64)
    a[xp.asarray(m, split=0)] = xp.asarray(vals, split=0)
    x[m] = vals
    check(a, x)


@pytest.mark.parametrize("n", SIZES)
def test_global_slices_with_negative_steps(n):
    """a[start:stop:step] with negative steps along the split axis: the
    positive-step view reversed (a repartition of the mirrored rows), a
    distributed result; assignments write the reversed values."""
    x = sample((n, 4), np.float64, seed=n + 15)
    a = xp.asarray(x, split=0)
    for key in [(slice(None, None, -1),), (slice(None, None, -2), 1),
                (slice(n - 1, 0, -3), slice(None, None, -1)),
                (slice(-2, None, -1),)]:
        r = a[key]
        check(r, x[key])
    a[::-1] = xp.asarray(x, split=0) * 2.0
    x[::-1] = x * 2.0
    check(a, x)
    a[::-2, 1] = 7.0
    x[::-2, 1] = 7.0
    check(a, x)


@pytest.mark.parametrize("n", SIZES)
def test_sort(n):
    """sort/argsort of split 1-d arrays: a sample sort into the default
    partition; of split 2-d arrays along axis 1: local."""
    x = sample((4 * n,), np.float64, seed=n + 9)
    x[n // 2] = np.nan
    a = xp.asarray(x, split=0)
    check(xp.sort(a), np.sort(x))
    check(xp.argsort(a), np.argsort(x, kind="stable").astype(np.int64))
    check(xp.sort(a, descending=True)[n // 3:], np.sort(x)[::-1][n // 3:])
    y = sample((n, 5), np.int32, seed=n + 10) % 3
    b = xp.asarray(y, split=0)
    check(xp.argsort(b, axis=1),
          np.argsort(y, axis=1, kind="stable").astype(np.int64))
    order = np.argsort(y, axis=0, kind="stable")
    check(xp.take_along_axis(b, xp.asarray(order, split=0), axis=0),
          np.take_along_axis(y, order, axis=0))


@pytest.mark.parametrize("n", SIZES)
def test_unique_searchsorted(n):
    """unique_* of split arrays: sample sort, shifted views, a mask and
    nonzero, all distributed; searchsorted in a split sorted array."""
    x = sample((n, 3), np.int64, seed=n + 11) % 4
    a = xp.asarray(x, split=0)
    values, counts = np.unique(x, return_counts=True)
    got = xp.unique_counts(a)
    check(got.values, values)
    check(got.counts, counts.astype(np.int64))
    _, index, inverse = np.unique(x, return_index=True, return_inverse=True)
    got = xp.unique_all(a)
    check(got.indices, index.astype(np.int64))
    check(got.inverse_indices, inverse.reshape(x.shape).astype(np.int64))
    s = xp.sort(xp.reshape(a, (-1,)))
    v = np.array([-1, 0, 2, 3, 9])
    check(xp.searchsorted(s, xp.asarray(v), side="right"),
          np.searchsorted(np.sort(x.reshape(-1)), v, side="right"))


@pytest.mark.parametrize("n", SIZES)
def test_take(n):
    """a[idx] of split arrays: rows fetched from their owners (one
    all-to-all of requests and one of rows); split indices; other axes."""
    x = sample((n, 3), np.float64, seed=n + 12)
    a = xp.asarray(x, split=0)
    i = np.array([n - 1, 0, -1, n // 2, 0])
    check(a[i], x[i])
    check(a[xp.asarray(i, split=0)], x[i])
    check(xp.take(a, xp.asarray([2, 0]), axis=1), x[:, [2, 0]])
    check(xp.asarray(x)[xp.asarray(i, split=0)], x[i])


@pytest.mark.parametrize("n", SIZES)
def test_flip(n):
    """flip along the split axis: each rank fetches its mirrored rows."""
    x = sample((n, 3), np.float64, seed=n + 8)
    a = xp.asarray(x, split=0)
    check(xp.flip(a), np.flip(x))
    check(xp.flip(a, axis=0) + a, np.flip(x, axis=0) + x)
    check(xp.flip(a, axis=1), np.flip(x, axis=1))


@pytest.mark.parametrize("n", SIZES)
def test_random(n):
    """The same numbers as one process computes (a function of the element
    position): every rank count gives the same arrays."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))), "Execution"))
    from harness import random_numbers
    xp.random.seed(n)
    u = xp.random.random((n, 3), split=0)
    z = xp.random.normal(size=(n,), split=0)
    assert u.split == 0 and z.split == 0
    check(u, random_numbers("uniform", (n, 3), n, 0, "f64"), exact=True)
    check(z, random_numbers("normal", (n,), n, 1, "f64"))
    check(xp.sum(u, axis=1), random_numbers("uniform", (n, 3), n, 0,
                                            "f64").sum(axis=1))


@pytest.mark.parametrize("n", SIZES)
def test_elementwise(n):
    x = sample((n, 4), np.float64, seed=40)
    y = sample((n, 4), np.float64, seed=41)
    r = sample((4,), np.float64, seed=42)
    a, b = xp.asarray(x, split=0), xp.asarray(y, split=0)
    c = xp.sin(a) * b + xp.asarray(r) - 1.5
    assert c.split == 0
    check(c, np.sin(x) * y + r - 1.5)
    check(a > b, x > y)


@pytest.mark.parametrize("n", [3, 7, 10])
def test_shifted_views(n):
    x = sample((n, 5), np.float64, seed=43)
    a = xp.asarray(x, split=0)
    check(a[1:] - a[:-1], x[1:] - x[:-1])
    check(a[2:, 1:] + a[:-2, :-1], x[2:, 1:] + x[:-2, :-1])
    check(a[-2:], x[-2:])


@pytest.mark.parametrize("n", [5, 9])
@pytest.mark.parametrize("steps", [1, 4])
def test_jacobi_in_place(n, steps):
    x = sample((n, 6), np.float64, seed=44)
    u = xp.asarray(x, split=0)
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
        x[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] +
                                x[1:-1, 2:])
    check(u, x)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", ["sum", "max", "mean", "prod"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions(n, kind, axis):
    x = sample((n, 3), np.float64, seed=45, low=0.5, high=1.5)
    got = getattr(xp, kind)(xp.asarray(x, split=0), axis=axis)
    check(got, np.asarray(getattr(np, kind)(x, axis=axis)))


@pytest.mark.parametrize("n", [3, 7])
def test_rows_and_writes(n):
    x = sample((n, 4), np.float64, seed=46)
    a = xp.asarray(x, split=0)
    check(a[n - 1], x[n - 1])
    check(a[:, 2], x[:, 2])
    a[1] = 0.0
    x[1] = 0.0
    a[:, 0] = xp.asarray(np.arange(n, dtype=np.float64))
    x[:, 0] = np.arange(n)
    check(a, x)
    a += 1.0
    check(a, x + 1.0)


@pytest.mark.parametrize("n", [3, 10])
def test_matmul_and_concat(n):
    x = sample((n, 3), np.float64, seed=47)
    m = sample((3, 2), np.float64, seed=48)
    a = xp.asarray(x, split=0)
    check(a @ xp.asarray(m), x @ m)
    check(xp.concat([a, a * 2.0], axis=0), np.concatenate([x, x * 2.0]))
    check(xp.concat([a, a], axis=1), np.concatenate([x, x], axis=1))


def test_scalars_are_replicated():
    x = sample((7,), np.float64, seed=49)
    a = xp.asarray(x, split=0)
    assert float(xp.sum(a)) == pytest.approx(x.sum())
    assert int(xp.sum(a > 0)) == int((x > 0).sum())
    assert bool(xp.any(a > 100.0)) is False


from test_jit import jacobi as _jacobi  # noqa: E402
from test_jit import relax as _relax  # noqa: E402


@pytest.mark.parametrize("n", [4, 9])
@pytest.mark.parametrize("steps", [1, 5])
def test_jit_time_step_loop(n, steps):
    x = sample((n, 5), np.float64, seed=50)
    u = xp.asarray(x, split=0)
    _jacobi(u, steps)
    for _ in range(steps):
        x[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] +
                                x[1:-1, 2:])
    check(u, x)


from test_jit import swap_with_index as _swap  # noqa: E402


@pytest.mark.parametrize("n", [3, 10])
@pytest.mark.parametrize("steps", [4, 7])
def test_jit_swapped_grids(n, steps):
    """Two grids the loop body swaps itself (halos of one exchanged, the
    other written; imex-forward-ghost-writes), against numpy."""
    x = sample((n,), np.float64, seed=52)
    u, v = xp.asarray(x, split=0), xp.zeros(n, split=0)
    ru, rv = xp.jit(_swap)(u, v, 0, steps)
    a, b = x.copy(), np.zeros(n)
    for i in range(steps):
        b[1:] = a[:-1] * i + (i % 3)
        a, b = b, a
    check(ru, a)
    check(rv, b)


@pytest.mark.parametrize("n", [3, 10])
def test_jit_while_loop(n):
    x = np.zeros((n, 3))
    x[0] = 1.0
    u = xp.asarray(x, split=0)
    _relax(u, 1e-3)
    while np.max(np.abs(x[1:-1] - 0.5 * (x[:-2] + x[2:]))) > 1e-3:
        x[1:-1] = 0.5 * (x[:-2] + x[2:])
    check(u, x)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_properties import evaluate, expressions  # noqa: E402


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(expressions(3))
def test_random_distributed_expressions(expr):
    env_np = {"a": sample((7, 3), np.float64, seed=8),
              "b": sample((3,), np.float64, seed=9),
              "c": sample((7, 1), np.float64, seed=10)}
    env_xp = {"a": xp.asarray(env_np["a"], split=0),
              "b": xp.asarray(env_np["b"]),
              "c": xp.asarray(env_np["c"], split=0)}
    try:
        expected = np.asarray(evaluate(np, expr, env_np))
    except ValueError:
        return
    got = evaluate(xp, expr, env_xp)
    if not isinstance(got, float):
        check(got, expected)


PROPERTY_SETTINGS = settings(max_examples=20, deadline=None, derandomize=True,
                             suppress_health_check=[HealthCheck.too_slow])


def _random_vector(data, dtype):
    """A 1-d array of random size (0 to 40: fewer elements than ranks, or
    uneven blocks) with many duplicates, and NaNs for floats."""
    n = data.draw(st.integers(0, 40), label="size")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    rng = np.random.default_rng(seed)
    x = rng.integers(-5, 6, size=n).astype(dtype)
    if np.dtype(dtype).kind == "f" and n:
        x[rng.random(n) < 0.2] = np.nan
    return x


@PROPERTY_SETTINGS
@given(st.data())
def test_random_sort_unique_scan(data):
    """sort, argsort, unique_* and cumulative_sum of random split and
    replicated vectors against numpy (the sizes and data are drawn; the
    rank count is mpirun's)."""
    dtype = data.draw(st.sampled_from([np.float64, np.int64, np.int32]),
                      label="dtype")
    x = _random_vector(data, dtype)
    for split in (0, None):
        a = xp.asarray(x, split=split)
        check(xp.sort(a), np.sort(x))
        check(xp.sort(a, descending=True), np.sort(x)[::-1])  # NaNs first
        check(xp.argsort(a), np.argsort(x, kind="stable").astype(np.int64))
        values, counts = xp.unique_counts(a)
        want_values, want_counts = np.unique(x, return_counts=True)
        if np.dtype(dtype).kind == "f":
            # The array API: every NaN is distinct.
            nans = int(np.isnan(x).sum())
            finite = want_values[~np.isnan(want_values)]
            want_values = np.concatenate([finite, np.full(nans, np.nan)])
            want_counts = np.concatenate(
                [want_counts[:len(finite)], np.ones(nans, np.int64)])
        check(values, want_values)
        check(counts, want_counts.astype(np.int64))
        if np.dtype(dtype).kind != "f":
            check(xp.cumulative_sum(a), np.cumsum(x))


@PROPERTY_SETTINGS
@given(st.data())
def test_random_take_put(data):
    """a[idx] and a[idx] = v with random split or replicated operands and
    random (repeated, negative) indices against numpy."""
    n = data.draw(st.integers(1, 30), label="rows")
    m = data.draw(st.integers(0, 12), label="indices")
    seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
    rng = np.random.default_rng(seed)
    x = rng.integers(-50, 50, size=(n, 2)).astype(np.int64)
    idx = rng.integers(-n, n, size=m)
    v = rng.integers(100, 200, size=(m, 2)).astype(np.int64)
    splits = data.draw(st.tuples(*[st.sampled_from([0, None])] * 3),
                       label="splits")
    a = xp.asarray(x, split=splits[0])
    i = xp.asarray(idx, split=splits[1])
    check(a[i], x[idx])
    a[i] = xp.asarray(v, split=splits[2])
    want = x.copy()
    want[idx] = v
    check(a, want)


@pytest.mark.parametrize("n", SIZES)
def test_float16_arrays(n):
    """float16 split arrays: IDTR moves 16-bit words and reduces in float
    (values exact in float16)."""
    x = (np.round(sample((n, 3), np.float64, seed=n + 17) * 2) / 2).astype(
        np.float16)
    a = xp.asarray(x, split=0)
    check(a[1:] + a[:-1], x[1:] + x[:-1])
    check(xp.sum(a, axis=0), np.sum(x, axis=0))
    check(xp.max(a), np.max(x))
    check(xp.sort(xp.reshape(a, (-1,))), np.sort(x.reshape(-1)))
    check(xp.permute_dims(a, (1, 0)), x.T)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [xp.complex64, xp.complex128], ids=str)
def test_complex(n, dtype):
    """complex arrays split over the ranks: neighbours' rows, reductions over
    the split axis, matmul and a scan, as on one process."""
    x = sample((n, 3), dtype, seed=n + 5)
    a = xp.asarray(x, split=0)
    assert a.dtype == dtype and a.split == 0
    check(a, x, exact=True)
    tol = 1e-4 if dtype == xp.complex64 else 1e-11
    check(a[1:] - a[:-1] * 2j, x[1:] - x[:-1] * 2j)
    check(xp.abs(a), np.abs(x))
    check(xp.sum(a, axis=0), np.sum(x, axis=0), rtol=tol)
    check(xp.mean(a), np.mean(x), rtol=tol)
    check(xp.prod(a[:, :1], axis=1), np.prod(x[:, :1], axis=1), rtol=tol)
    w = sample((3, 2), dtype, seed=1)
    check(a @ xp.asarray(w), x @ w, rtol=tol)
    check(xp.cumulative_sum(a, axis=0), np.cumsum(x, axis=0), rtol=tol)
    check(xp.conj(a).T, np.conj(x).T)
    v = x[:, 1].copy()
    check(xp.asarray(v, split=0) @ a, v @ x, rtol=tol)  # partial products
    check(xp.vecdot(a, a, axis=0), np.sum(np.conj(x) * x, axis=0), rtol=tol)


@pytest.mark.parametrize("radius", [1, 2, 3])
@pytest.mark.parametrize("n", [5, 11])
def test_ghost_cells_of_arguments(radius, n):
    """Blocks are passed with two spare rows on each side (dist.ghost):
    halos of width 1 and 2 are exchanged into them in place, width 3 falls
    back to a wider buffer (checked at run time); in a jit loop and as a
    Python loop of kernels, updates in place, against numpy."""
    x = sample((n, 4), np.float64, seed=n + radius)
    u, v = xp.asarray(x, split=0), xp.asarray(x, split=0)
    r = radius

    def step(a, b):
        b[r:-r] = 0.5 * (a[:-2 * r] + a[2 * r:]) - a[r:-r]

    @xp.jit
    def loop(a, b, steps):
        def body(i, state):
            a, b = state
            step(a, b)
            return b, a
        return xp.fori_loop(0, steps, body, (a, b))

    ra, rb = loop(u, v, 3)
    a, b = x.copy(), x.copy()
    for _ in range(3):
        b[r:-r] = 0.5 * (a[:-2 * r] + a[2 * r:]) - a[r:-r]
        a, b = b, a
    check(ra, a)
    check(rb, b)
    p, q = xp.asarray(x, split=0), xp.asarray(x, split=0)
    for _ in range(3):
        step(p, q)
        p, q = q, p
    check(p, a)
    check(q, b)


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
@pytest.mark.parametrize("shape,split", [((13,), 0), ((11, 6), 0),
                                         ((9, 7), (0, 1)), ((3, 5), 0)])
def test_ghost_zone_depths(monkeypatch, dtype, shape, split):
    """Stencil loops with k steps per halo exchange (IMEX_GHOST_ZONE_DEPTH,
    dist-expand-ghost-zones) compute what one exchange per step computes,
    bit for bit, and what numpy computes: an update in place of radius 1
    and 2, and a double-buffered loop (two updates per iteration, the
    second reading the first), on rows and on a grid of ranks, blocks of
    one row or none (3 rows), odd step counts (a remainder after the
    blocks)."""
    x = sample(shape, dtype, seed=sum(shape))
    lead = (slice(None),) * (len(shape) - 1)

    def sl(start, stop):
        return (slice(start, stop),) + lead

    def in_place(a, r):
        a[sl(r, -r)] = a[sl(None, -2 * r)] + a[sl(2 * r, None)] - a[sl(r, -r)]

    def updates_in_place(r):
        @xp.jit
        def loop(a, steps):
            def body(i, a):
                in_place(a, r)
                return a
            return xp.fori_loop(0, steps, body, a)
        return loop

    radius1, radius2 = updates_in_place(1), updates_in_place(2)

    @xp.jit
    def swapped(a, b, steps):
        def body(i, state):
            a, b = state
            b[sl(1, -1)] = a[sl(None, -2)] - a[sl(2, None)] + b[sl(1, -1)]
            return b, a
        return xp.fori_loop(0, steps, body, (a, b))

    def twin(steps):
        a, r2 = x.copy(), x.copy()
        for _ in range(steps):
            in_place(a, 1)
            in_place(r2, 2)
        p, q = x.copy(), x.copy()
        for _ in range(steps):
            q[sl(1, -1)] = p[sl(None, -2)] - p[sl(2, None)] + q[sl(1, -1)]
            p, q = q, p
        return [a, r2, p, q]

    steps = 7
    want = twin(steps)
    results = {}
    for depth in ["-1", "2", "4"]:
        monkeypatch.setenv("IMEX_GHOST_ZONE_DEPTH", depth)
        a = radius1(xp.asarray(x, split=split), steps)
        r2 = radius2(xp.asarray(x, split=split), steps)
        p, q = swapped(xp.asarray(x, split=split), xp.asarray(x, split=split),
                       steps)
        got = [v.to_numpy() for v in (a, r2, p, q)]
        for g, w in zip(got, want):
            check(g, w)
        results[depth] = got
    for depth in ["2", "4"]:
        for g, w in zip(results[depth], results["-1"]):
            assert np.array_equal(g, w), f"depth {depth} differs from -1"
