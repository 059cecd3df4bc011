"""ndarray.random against its specification (Philox4x32-10 of each
element's position, harness.random_numbers), whose generator is checked
against the known-answer vectors of Random123."""

import numpy as np
import pytest

from harness import (Program, array_type, assert_matches, philox4x32,
                     random_numbers)


def test_philox_known_answers():
    """Random123's kat_vectors for philox4x32_10."""
    for counter, key, expected in [
            ([0, 0, 0, 0], [0, 0],
             [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
            ([0xffffffff] * 4, [0xffffffff] * 2,
             [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
            ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
             [0xa4093822, 0x299f31d0],
             [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1])]:
        assert [int(w) for w in philox4x32(counter, key)] == expected


def run_random(distribution, shape, seed, stream, dtype, dynamic):
    p = Program()
    s = p.constant(seed, "i64")
    t = p.constant(stream, "i64")
    dims = [None] * len(shape) if dynamic else list(shape)
    sizes = [p.constant(n, "index") for n in shape] if dynamic else []
    operands = f" ({', '.join(sizes)})" if sizes else ""
    r = p.op(f"ndarray.random {distribution} {s}, {t}{operands} : "
             f"{array_type(dims, dtype)}")
    p.output(r, dims, dtype)
    return p.run()[0]


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize("dtype", ["f64", "f32"])
@pytest.mark.parametrize("distribution", ["uniform", "normal"])
@pytest.mark.parametrize("shape", [(1000,), (37, 29), (3, 0, 5), ()])
def test_random(distribution, dtype, shape, dynamic):
    seed, stream = 20261124, 7
    result = run_random(distribution, shape, seed, stream, dtype, dynamic)
    expected = random_numbers(distribution, shape, seed, stream, dtype)
    if distribution == "uniform":  # exact: no rounding anywhere
        np.testing.assert_array_equal(result, expected)
        assert result.size == 0 or (result.min() >= 0 and result.max() < 1)
    else:
        assert_matches(result, expected, dtype)


def test_seeds_and_streams_differ():
    a = run_random("uniform", (64,), 1, 0, "f64", False)
    b = run_random("uniform", (64,), 2, 0, "f64", False)
    c = run_random("uniform", (64,), 1, 1, "f64", False)
    d = run_random("uniform", (64,), -1, -1, "f64", False)
    np.testing.assert_array_equal(
        d, random_numbers("uniform", (64,), -1, -1, "f64"))
    assert len({a.tobytes(), b.tobytes(), c.tobytes(), d.tobytes()}) == 4


def test_moments():
    """A sanity check of the distributions on 10^5 numbers."""
    u = run_random("uniform", (100000,), 3, 0, "f64", False)
    z = run_random("normal", (100000,), 3, 1, "f64", False)
    assert abs(u.mean() - 0.5) < 0.005 and abs(u.var() - 1 / 12) < 0.002
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
