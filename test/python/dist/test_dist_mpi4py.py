"""imex.init(comm=...) with an mpi4py communicator: arrays are distributed
over its ranks (here: each half of the job is its own team)."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

MPI = pytest.importorskip("mpi4py.MPI")


def test_init_with_a_communicator():
    world = MPI.COMM_WORLD
    half = world.Split(world.rank % 2, world.rank)
    try:
        assert xp.init(half) == half.size
        assert xp.rank() == half.rank
        x = sample((7, 3), np.float64, seed=70)
        a = xp.asarray(x, split=0)
        check(xp.sum(a * 2.0, axis=0), (x * 2.0).sum(axis=0))
        a[1:-1] = a[:-2] + a[2:]
        x[1:-1] = x[:-2] + x[2:]
        check(a, x)
        # The teams computed independently: the same result in each.
        total = float(xp.sum(a))
        assert world.allreduce(total, MPI.MAX) == pytest.approx(
            world.allreduce(total, MPI.MIN))
    finally:
        xp.init()
        half.Free()
    assert xp.nprocs() == world.size
