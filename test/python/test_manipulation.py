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
                                    ((2, 3, 4), (2, 4, 5))], ids=str)
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
