"""ndarray.take (integer-array indexing along an axis) against numpy: every
axis, repeated, reversed and negative indices, empty index arrays, index
dtypes, static and dynamic shapes; an out-of-range index is a run-time
error."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(43)


@pytest.mark.parametrize("dtype", ["f64", "i32", "ui8", "i1"])
@pytest.mark.parametrize("itype", ["i64", "i32", "ui16", "index"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_take(dtype, itype, dynamic):
    p = Program()
    want = []
    for shape in [(7,), (4, 5), (3, 2, 4)]:
        a = RNG.integers(0, 50, size=shape).astype(NUMPY_OF[dtype])
        x, xt = p.input(a, dtype, dynamic)
        for axis in range(len(shape)):
            n = shape[axis]
            for idx in ([n - 1, 0, 0, n // 2], [], [-1, -n, 1 % n]):
                if itype.startswith("u"):
                    idx = [i % n for i in idx]
                i = np.array(idx, dtype=NUMPY_OF[itype])
                y, yt = p.input(i, itype, dynamic)
                e = np.take(a, i.astype(np.int64), axis=axis)
                dims = [None] * len(shape) if dynamic else list(e.shape)
                r = p.op(f"ndarray.take {x}[{y}] axis {axis} : ({xt}, {yt}) "
                         f"-> {array_type(dims, dtype)}")
                p.output(r, dims, dtype)
                want.append((f"{shape} axis {axis} idx {idx}", e))
    for (label, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, dtype)
        except AssertionError as error:
            raise AssertionError(f"{dtype} {label}: {error}") from None


def test_out_of_range_is_a_runtime_error():
    p = Program()
    x, xt = p.input(np.zeros((4, 3)), "f64", True)
    y, yt = p.input(np.array([0, 4]), "i64", True)
    r = p.op(f"ndarray.take {x}[{y}] axis 0 : ({xt}, {yt}) -> "
             f"{array_type([None, None], 'f64')}")
    p.output(r, [None, None], "f64")
    with pytest.raises(AssertionError,
                       match="take: an index is out of bounds for axis 0"):
        p.run()
