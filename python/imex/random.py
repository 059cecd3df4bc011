"""Random numbers: counter-based (Philox4x32-10, `ndarray.random`), so an
array's values depend on the seed, the call's stream and each element's
position only: a distributed array computes its own block, with the same
values on every number of ranks, without communication.

    xp.random.seed(42)
    u = xp.random.uniform(0.0, 1.0, (1000, 1000), split=0)
    z = xp.random.normal(size=(n,))

Each call draws a new stream (0, 1, 2, ... after `seed`), so calls give
different arrays and a program gives the same arrays on every run and
every rank count. Not numpy's stream: numpy.random with the same seed gives
other numbers.
"""

from . import _core, _dtypes
from ._array import ndarray
from ._core import Node

_state = {"seed": 0, "stream": 0}


def seed(value):
    """Restarts the streams from `value` (an integer)."""
    _state["seed"] = int(value)
    _state["stream"] = 0


def _draw(distribution, size, dtype, split):
    from . import _check_split, _shape_tuple  # (the package imports us)
    shape = _shape_tuple(() if size is None else size)
    dtype = _dtypes.canonical(dtype)
    if dtype.name not in ("float32", "float64"):
        raise TypeError(f"random numbers are float32 or float64, not {dtype}")
    split = _check_split(split, shape)
    if split is not None:
        _core.team_info()
    stream = _state["stream"]
    _state["stream"] += 1
    return ndarray(_core.record(Node(
        shape, dtype, split, "random",
        attrs=(distribution, _state["seed"], stream))))


def random(size=None, *, dtype=None, split=None):
    """Uniform numbers in [0, 1)."""
    return _draw("uniform", size, dtype or _dtypes.float64, split)


def uniform(low=0.0, high=1.0, size=None, *, dtype=None, split=None):
    """Uniform numbers in [low, high)."""
    u = random(size, dtype=dtype, split=split)
    return u * (high - low) + low if (low, high) != (0.0, 1.0) else u


def normal(loc=0.0, scale=1.0, size=None, *, dtype=None, split=None):
    """Normal numbers with mean `loc` and standard deviation `scale`."""
    z = _draw("normal", size, dtype or _dtypes.float64, split)
    return z * scale + loc if (loc, scale) != (0.0, 1.0) else z


def integers(low, high=None, size=None, *, dtype=None, split=None):
    """Integers in [low, high) (numpy's Generator.integers), from uniform
    float64 numbers: floor(low + (high - low) * u)."""
    from . import astype, floor
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError(f"integers: high ({high}) must exceed low ({low})")
    u = random(size, split=split)
    values = floor(u * float(high - low) + float(low))
    return astype(values, dtype or _dtypes.int64)


__all__ = ["seed", "random", "uniform", "normal", "integers"]
