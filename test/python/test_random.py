"""imex.random: the values of ndarray.random (checked against its
specification, test/Execution/harness.py's random_numbers), streams per
call, seeds, scaling."""

import os
import sys

import numpy as np
import pytest

import imex as xp
from helpers import check

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "Execution"))
from harness import random_numbers  # noqa: E402


def test_streams_follow_the_seed():
    xp.random.seed(7)
    a = xp.random.random((5, 3))
    b = xp.random.random((5, 3), dtype=xp.float32)
    z = xp.random.normal(size=(6,))
    check(a, random_numbers("uniform", (5, 3), 7, 0, "f64"), exact=True)
    check(b, random_numbers("uniform", (5, 3), 7, 1, "f32"), exact=True)
    check(z, random_numbers("normal", (6,), 7, 2, "f64"))
    xp.random.seed(7)
    check(xp.random.random((5, 3)), a.to_numpy(), exact=True)


def test_scaled_distributions():
    xp.random.seed(2 ** 64 - 1)  # seeds are taken modulo 2^64
    u = xp.random.uniform(-2.0, 3.0, (1000,))
    expected = random_numbers("uniform", (1000,), -1, 0, "f64") * 5.0 - 2.0
    check(u, expected)
    assert -2.0 <= float(xp.min(u)) and float(xp.max(u)) < 3.0
    z = xp.random.normal(10.0, 0.5, (20000,))
    assert abs(float(xp.mean(z)) - 10.0) < 0.02
    assert abs(float(xp.std(z)) - 0.5) < 0.02
    k = xp.random.integers(3, 9, (1000,), dtype=xp.int32)
    assert k.dtype == xp.int32
    values = k.to_numpy()
    assert values.min() == 3 and values.max() == 8


def test_a_loop_of_draws_compiles_once():
    xp.random.seed(1)
    xp.random.random((8,)).to_numpy()
    compiles = xp.stats()["compiles"]
    arrays = [xp.random.random((8,)).to_numpy() for _ in range(5)]
    assert xp.stats()["compiles"] == compiles  # seed and stream: arguments
    assert len({a.tobytes() for a in arrays}) == 5


def test_bad_arguments():
    with pytest.raises(TypeError, match="float32 or float64"):
        xp.random.random((3,), dtype=xp.int32)
    with pytest.raises(ValueError, match="must exceed"):
        xp.random.integers(5, 5, (3,))
