"""Pointwise statements on arrays of one shape and distribution (rows,
columns, the grid) move no data: the runtime's communication counters do
not change while they run (after their first run, which compiles and
agrees on the kernel), and their results equal numpy's. Sizes do not
divide evenly; with 3 and 4 ranks some ranks own nothing of the smallest
arrays."""

import numpy as np
import pytest

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
