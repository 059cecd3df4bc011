"""ndarray.sort / ndarray.argsort (through the runtime) against numpy's
stable sort: dtypes, every axis, descending (stable, NaNs first), NaNs,
ties, empty and one-element lanes, static and dynamic shapes."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(37)


def values(dtype, shape):
    """Few distinct values (ties); floats with NaN and infinities."""
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    a = RNG.integers(0 if dtype.startswith("u") else -4, 5, size=shape)
    a = a.astype(NUMPY_OF[dtype])
    if dtype.startswith("f") and a.size > 5:
        a.reshape(-1)[[1, 4, 5]] = [np.nan, np.inf, -np.inf]
    return a


def expected(a, axis, descending, indices):
    if descending:
        # Stable descending: the reverse of the ascending stable sort of
        # the reversed lane (equal elements keep their order).
        r = np.flip(a, axis)
        order = np.flip(np.argsort(r, axis=axis, kind="stable"), axis)
        n = a.shape[axis]
        order = n - 1 - order
    else:
        order = np.argsort(a, axis=axis, kind="stable")
    if indices:
        return order.astype(np.int64)
    return np.take_along_axis(a, order, axis)


@pytest.mark.parametrize("dtype", ["f64", "f32", "i64", "i32", "i8", "ui16",
                                   "i1"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_sort(dtype, dynamic):
    p = Program()
    want = []
    for shape in [(9,), (4, 6), (3, 2, 5), (0, 3), (1, 1)]:
        a = values(dtype, shape)
        x, xt = p.input(a, dtype, dynamic)
        dims = [None] * len(shape) if dynamic else list(shape)
        for axis in range(len(shape)):
            for descending in (False, True):
                flag = " descending" if descending else ""
                for op, rdtype in (("sort", dtype), ("argsort", "i64")):
                    r = p.op(f"ndarray.{op} {x} axis {axis}{flag} : {xt} -> "
                             f"{array_type(dims, rdtype)}")
                    p.output(r, dims, rdtype)
                    want.append((f"{op} {shape} axis {axis}{flag}", rdtype,
                                 expected(a, axis, descending,
                                          op == "argsort")))
    for (label, rdtype, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, rdtype)
        except AssertionError as error:
            raise AssertionError(f"{dtype} {label}: {error}") from None
