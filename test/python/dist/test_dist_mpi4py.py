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


def test_grid_communicator_describes_the_blocks():
    """xp.grid_comm: an mpi4py Cartcomm whose coordinates are the grid
    positions of the rank's blocks; made once per grid."""
    x = sample((9, 6), np.float64, seed=71)
    a = xp.asarray(x, split=(0, 1))
    cart = xp.grid_comm((0, 1))
    assert cart.Get_topo()[0] == list(MPI.Compute_dims(xp.nprocs(), 2))
    coords = cart.Get_coords(xp.rank())
    assert cart.Get_rank() == xp.rank()
    # The block's first element lies in the partition cell of its coords.
    for axis, (c, extent) in enumerate(zip(coords, cart.Get_topo()[0])):
        n = x.shape[axis]
        sizes = [n // extent + (r >= extent - n % extent)
                 for r in range(extent)]
        assert a._node.offset[axis] == sum(sizes[:c])
        assert a._node.data.shape[axis] == sizes[c]
    # The neighbour after along each axis holds the next block.
    for axis in range(2):
        _, after = cart.Shift(axis, 1)
        offsets = cart.allgather(a._node.offset)
        if after != MPI.PROC_NULL and a._node.data.shape[axis]:
            assert offsets[after][axis] == (a._node.offset[axis] +
                                            a._node.data.shape[axis])
    assert xp.grid_comm((0, 1)).py2f() == cart.py2f()
