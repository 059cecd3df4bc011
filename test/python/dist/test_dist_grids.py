"""Arrays split on other axes than rows or over the balanced grid of the
ranks (`split=(0, 1)`, `split=1`, `split=(1, 2)`) under mpirun: every rank
checks the gathered result against numpy. Each rank holds only its block
(passed to kernels as `dist.split` arguments); sizes do not divide evenly,
and with 3 and 4 ranks some ranks own nothing of the small arrays."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

SPLITS = [(0, 1), 1]


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


def _expected_block(x, split):
    """This rank's block of `x` split on the axes `split` over the grid
    MPI_Dims_create gives (row-major rank order), with IDTR's partition of
    each split axis (the last ranks one more)."""
    from mpi4py import MPI
    p, rank = xp.nprocs(), xp.rank()
    grid = MPI.Compute_dims(p, len(split))
    coords = []
    for extent in reversed(grid):
        coords.insert(0, rank % extent)
        rank //= extent
    index = [slice(None)] * x.ndim
    for axis, extent, c in zip(split, grid, coords):
        n = x.shape[axis]
        sizes = [n // extent + (r >= extent - n % extent)
                 for r in range(extent)]
        index[axis] = slice(sum(sizes[:c]), sum(sizes[:c + 1]))
    return x[tuple(index)]


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("n", [2, 7])
def test_creation_holds_the_block(split, n):
    x = sample((n, 5), np.float64, seed=n)
    a = xp.asarray(x, split=split)
    axes = (0, 1) if split == (0, 1) else (1,)
    assert a.split == axes
    check(a, x)
    # This rank holds its block of the grid, nothing more.
    np.testing.assert_array_equal(a._node.data, _expected_block(x, axes))
    b = a + 1.0
    b.to_numpy()  # computed, kept distributed
    np.testing.assert_array_equal(b._node.data, _expected_block(x, axes) + 1)
    check(xp.zeros((n, 5), split=split), np.zeros((n, 5)))
    check(xp.full((n, 5), 1.5, split=split), np.full((n, 5), 1.5))
    check(xp.ones_like(a), np.ones((n, 5)))
    assert xp.ones_like(a).split == a.split


@pytest.mark.parametrize("split", SPLITS)
def test_elementwise_reductions_and_writes(split):
    n = 9
    x = sample((n, 6), np.float64, seed=3)
    y = sample((n, 6), np.float64, seed=4)
    a, b = xp.asarray(x, split=split), xp.asarray(y, split=split)
    check(xp.sin(a) * b + 2.0, np.sin(x) * y + 2.0)
    check(xp.where(a > b, a, -b), np.where(x > y, x, -y))
    check(a + xp.asarray(y[0]), x + y[0])  # a replicated row, broadcast
    for axis in (None, 0, 1):
        check(xp.sum(a, axis=axis), np.sum(x, axis=axis))
        check(xp.max(a, axis=axis), np.max(x, axis=axis))
    assert float(xp.sum(a)) == pytest.approx(float(np.sum(x)))
    check(xp.argmax(a, axis=1), np.argmax(x, axis=1))
    a[2:5, 1] = 7.0
    x[2:5, 1] = 7.0
    a[0] = b[1]
    x[0] = y[1]
    check(a, x)
    assert float(a[3, 1]) == 7.0


@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("n", [5, 10])
def test_stencil_statements(split, n):
    """A 5-point step as Python statements: each a kernel whose grid
    argument's halos are exchanged into ghost cells of the copy the kernel
    makes of its block."""
    x = sample((n, n + 1), np.float64, seed=n)
    u = xp.asarray(x, split=split)
    for _ in range(3):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                                u[1:-1, 2:])
        x[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] +
                                x[1:-1, 2:])
    check(u, x)
    assert u.split == xp.asarray(x, split=split).split


from test_jit import jacobi as _jacobi  # noqa: E402


@pytest.mark.parametrize("n", [4, 9])
def test_jit_time_step_loop_on_a_grid(n):
    x = sample((n, n), np.float64, seed=50)
    u = xp.asarray(x, split=(0, 1))
    _jacobi(u, 5)
    for _ in range(5):
        x[1:-1, 1:-1] = 0.25 * (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] +
                                x[1:-1, 2:])
    check(u, x)
    assert u.split == (0, 1)


def test_redistribution_and_manipulation():
    x = sample((7, 6), np.float64, seed=9)
    rows = xp.asarray(x, split=0)
    grid = xp.asarray(rows, split=(0, 1))  # redistributed, not gathered
    assert grid.split == (0, 1)
    check(grid, x)
    columns = xp.asarray(grid, split=1)
    assert columns.split == (1,)
    check(columns, x)
    check(xp.asarray(columns, split=0), x)
    check(xp.permute_dims(grid, (1, 0)), x.T)
    check(xp.flip(grid, axis=1), np.flip(x, axis=1))
    check(grid[::-2, 1::3], x[::-2, 1::3])
    check(grid[:, 3], x[:, 3])
    check(grid[2], x[2])
    check(xp.concat([grid, columns], axis=0), np.concatenate([x, x]))
    check(grid @ xp.asarray(x.T), x @ x.T, rtol=1e-12)
    check(xp.reshape(grid, (6, 7)), x.reshape(6, 7))
    check(xp.cumulative_sum(grid, axis=1), np.cumsum(x, axis=1))


def test_three_dimensional_split():
    x = sample((5, 4, 6), np.float64, seed=11)
    a = xp.asarray(x, split=(1, 2))
    assert a.split == (1, 2)
    check(a[:, 1:, :-1] + a[:, :-1, 1:], x[:, 1:, :-1] + x[:, :-1, 1:])
    check(xp.sum(a, axis=(0, 2)), np.sum(x, axis=(0, 2)))
    check(a[:, :, 2], x[:, :, 2])


def test_invalid_split_is_reported():
    with pytest.raises(ValueError, match="increasing axes"):
        xp.zeros((3, 4), split=(1, 0))
    with pytest.raises(ValueError, match="increasing axes"):
        xp.zeros((3, 4), split=2)


@pytest.mark.parametrize("split", [0, 1, (0, 1)])
def test_indices_along_any_axis_compile_once(split):
    x = sample((7, 7), np.float64, seed=3)
    a = xp.asarray(x, split=split)
    (a[0] + a[:, -7]).to_numpy()
    compiles = xp.stats()["compiles"]
    for i in range(1, 7):
        check(a[i] + a[:, -i], x[i] + x[:, -i])
    assert xp.stats()["compiles"] == compiles
