"""ndarray.searchsorted against numpy: left and right, dtypes, values
before, between, equal to and after the sorted elements, NaNs (numpy's
order: last), empty sorted arrays and values, n-d values, static and
dynamic shapes."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(41)


@pytest.mark.parametrize("dtype", ["f64", "f32", "i64", "i32", "ui8", "i1"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_searchsorted(dtype, dynamic):
    p = Program()
    want = []
    for n, vshape in [(9, (12,)), (1, (3, 4)), (0, (5,)), (6, (0,)),
                      (15, (2, 3, 2))]:
        if dtype == "i1":
            s = np.sort(RNG.integers(0, 2, size=n).astype(np.bool_))
            v = RNG.integers(0, 2, size=vshape).astype(np.bool_)
        else:
            low = 0 if dtype.startswith("u") else -5
            s = np.sort(RNG.integers(low, 6, size=n)).astype(NUMPY_OF[dtype])
            v = RNG.integers(low - 1, 8, size=vshape).astype(NUMPY_OF[dtype])
            if dtype.startswith("f") and n > 2:
                s[-1] = np.nan
                v.reshape(-1)[:1] = np.nan
        x, xt = p.input(s, dtype, dynamic)
        y, yt = p.input(v, dtype, dynamic)
        dims = [None] * len(vshape) if dynamic else list(vshape)
        for side in ("left", "right"):
            flag = " right" if side == "right" else ""
            r = p.op(f"ndarray.searchsorted {x}, {y}{flag} : ({xt}, {yt}) -> "
                     f"{array_type(dims, 'i64')}")
            p.output(r, dims, "i64")
            want.append((f"n={n} {vshape} {side}",
                         np.searchsorted(s, v, side=side).astype(np.int64)))
    for (label, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, "i64")
        except AssertionError as error:
            raise AssertionError(f"{dtype} {label}: {error}") from None
