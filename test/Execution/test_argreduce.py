"""ndarray.argreduce (argmax / argmin) against numpy: every dtype class,
every axis and all axes (flattened index), keepdims, ties (first
occurrence), NaN (the first NaN wins), infinities, static and dynamic
shapes; an empty dynamic reduction is a run-time error."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(29)
DTYPES = ["f64", "f32", "i64", "i32", "i8", "ui16", "i1"]
SHAPES = [(7,), (3, 5), (2, 3, 4), (1, 1)]


def values(dtype, shape):
    """Few distinct values (many ties); floats also get inf, -inf, NaN."""
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("f"):
        a = RNG.integers(-2, 3, size=shape).astype(NUMPY_OF[dtype])
        flat = a.reshape(-1)
        if flat.size > 4:
            flat[RNG.integers(0, flat.size, 3)] = [np.inf, -np.inf, np.nan]
        return a
    low = 0 if dtype.startswith("u") else -3
    return RNG.integers(low, 3, size=shape).astype(NUMPY_OF[dtype])


def cases(shape):
    """(kind, axis, keepdims) for every axis and all axes."""
    for kind in ("max", "min"):
        for axis in [None, *range(len(shape))]:
            for keepdims in (False, True):
                yield kind, axis, keepdims


def expected(kind, a, axis, keepdims):
    f = np.argmax if kind == "max" else np.argmin
    return np.asarray(f(a, axis=axis, keepdims=keepdims), np.int64)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_argreduce(dtype, dynamic):
    p = Program()
    want = []
    for shape in SHAPES:
        a = values(dtype, shape)
        x, xt = p.input(a, dtype, dynamic)
        for kind, axis, keepdims in cases(shape):
            e = expected(kind, a, axis, keepdims)
            dims = [None if dynamic and n != 1 else n for n in e.shape]
            if dynamic and keepdims:
                dims = [1 if axis is None or d == axis else None
                        for d in range(len(shape))]
            attrs = "" if axis is None else f" axis {axis}"
            attrs += " keepdims" if keepdims else ""
            r = p.op(f"ndarray.argreduce {kind} {x}{attrs} : {xt} -> "
                     f"{array_type(dims, 'i64')}")
            p.output(r, dims, "i64")
            want.append((f"arg{kind} {shape} axis={axis} "
                         f"keepdims={keepdims}", e))
    for (label, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, "i64")
        except AssertionError as error:
            raise AssertionError(f"{dtype} {label}: {error}") from None


def test_all_nan_and_all_equal():
    p = Program()
    a = np.full((3, 4), np.nan)
    a[1, 2] = 1.0
    b = np.full((5,), -np.inf)
    want = []
    for arr in (a, b):
        x, xt = p.input(arr, "f64", True)
        for kind in ("max", "min"):
            r = p.op(f"ndarray.argreduce {kind} {x} : {xt} -> "
                     f"{array_type([], 'i64')}")
            p.output(r, [], "i64")
            f = np.argmax if kind == "max" else np.argmin
            want.append(np.asarray(f(arr), np.int64))
    for e, got in zip(want, p.run()):
        assert_matches(got, e, "i64")


def test_empty_is_a_runtime_error():
    p = Program()
    x, xt = p.input(np.zeros((0, 3)), "f64", True)
    r = p.op(f"ndarray.argreduce max {x} axis 0 : {xt} -> "
             f"{array_type([None], 'i64')}")
    p.output(r, [None], "i64")
    with pytest.raises(AssertionError,
                       match="attempt to get argmax of an empty sequence"):
        p.run()
