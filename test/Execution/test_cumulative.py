"""ndarray.cumulative (cumulative_sum / cumulative_prod) against numpy:
dtypes (integers accumulate in 64 bits), every axis, include_initial,
empty and one-element axes, static and dynamic shapes."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(23)
RESULT = {"f64": "f64", "f32": "f32", "i32": "i64", "i8": "i64",
          "ui16": "ui64", "i1": "i64"}


def values(dtype, shape):
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("f"):
        return RNG.uniform(0.5, 1.5, size=shape).astype(NUMPY_OF[dtype])
    low = 0 if dtype.startswith("u") else -3
    return RNG.integers(low, 4, size=shape).astype(NUMPY_OF[dtype])


def expected(kind, a, axis, include_initial, rdtype):
    f = np.cumsum if kind == "sum" else np.cumprod
    r = f(a.astype(NUMPY_OF[rdtype]), axis=axis)
    if include_initial:
        shape = list(a.shape)
        shape[axis] = 1
        start = np.zeros if kind == "sum" else np.ones
        r = np.concatenate([start(shape, NUMPY_OF[rdtype]), r], axis=axis)
    return r


@pytest.mark.parametrize("kind", ["sum", "prod"])
@pytest.mark.parametrize("dtype", list(RESULT))
@pytest.mark.parametrize("shape,axis", [((7,), 0), ((3, 5), 0), ((3, 5), 1),
                                        ((2, 3, 4), 1), ((0, 3), 0),
                                        ((4, 0), 0), ((1, 6), 0)], ids=str)
@pytest.mark.parametrize("include_initial", [False, True],
                         ids=["", "include_initial"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_cumulative(kind, dtype, shape, axis, include_initial, dynamic):
    a = values(dtype, shape)
    rdtype = RESULT[dtype]
    e = expected(kind, a, axis, include_initial, rdtype)
    p = Program()
    x, xt = p.input(a, dtype, dynamic)
    dims = [None] * len(shape) if dynamic else list(e.shape)
    flag = " include_initial" if include_initial else ""
    r = p.op(f"ndarray.cumulative {kind} {x} axis {axis}{flag} : {xt} -> "
             f"{array_type(dims, rdtype)}")
    p.output(r, dims, rdtype)
    assert_matches(p.run()[0], e, rdtype)
