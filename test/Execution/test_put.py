"""ndarray.put (numpy's `a[idx] = values` along an axis, value semantics)
against numpy: every axis, repeated indices (the last write wins), reversed
and negative indices, empty index arrays, index dtypes, static and dynamic
shapes; an out-of-range index is a run-time error."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(47)


def numpy_put(a, idx, values, axis):
    """numpy's assignment a[..., idx, ...] = values (last write wins)."""
    r = a.copy()
    for j, i in enumerate(idx.astype(np.int64)):
        at = [slice(None)] * a.ndim
        at[axis] = i
        src = [slice(None)] * a.ndim
        src[axis] = j
        r[tuple(at)] = values[tuple(src)]
    return r


@pytest.mark.parametrize("dtype", ["f64", "i32", "ui8", "i1"])
@pytest.mark.parametrize("itype", ["i64", "i32", "ui16", "index"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_put(dtype, itype, dynamic):
    p = Program()
    want = []
    for shape in [(7,), (4, 5), (3, 2, 4)]:
        a = RNG.integers(0, 50, size=shape).astype(NUMPY_OF[dtype])
        x, xt = p.input(a, dtype, dynamic)
        for axis in range(len(shape)):
            n = shape[axis]
            for idx in ([n - 1, 0, 0, n // 2], [], [-1, -n, 1 % n, n - 1]):
                if itype.startswith("u"):
                    idx = [i % n for i in idx]
                i = np.array(idx, dtype=NUMPY_OF[itype])
                vshape = list(shape)
                vshape[axis] = len(idx)
                v = RNG.integers(50, 100, size=vshape).astype(NUMPY_OF[dtype])
                y, yt = p.input(i, itype, dynamic)
                w, wt = p.input(v, dtype, dynamic)
                e = numpy_put(a, i, v, axis)
                dims = [None] * len(shape) if dynamic else list(shape)
                r = p.op(f"ndarray.put {w} into {x}[{y}] axis {axis} : "
                         f"({wt}, {xt}, {yt}) -> {array_type(dims, dtype)}")
                p.output(r, dims, dtype)
                want.append((f"{shape} axis {axis} idx {idx}", e))
    for (label, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, dtype)
        except AssertionError as error:
            raise AssertionError(f"{dtype} {label}: {error}") from None


def test_source_unchanged():
    """Value semantics: the destination operand keeps its values."""
    p = Program()
    a = np.arange(12.0).reshape(4, 3)
    x, xt = p.input(a, "f64", True)
    y, yt = p.input(np.array([2, 0]), "i64", True)
    w, wt = p.input(-np.ones((2, 3)), "f64", True)
    r = p.op(f"ndarray.put {w} into {x}[{y}] axis 0 : ({wt}, {xt}, {yt}) -> "
             f"{array_type([None, None], 'f64')}")
    p.output(r, [None, None], "f64")
    p.output(x, [None, None], "f64")
    got, kept = p.run()
    assert_matches(got, numpy_put(a, np.array([2, 0]), -np.ones((2, 3)), 0),
                   "f64")
    assert_matches(kept, a, "f64")


def test_out_of_range_is_a_runtime_error():
    p = Program()
    x, xt = p.input(np.zeros((4, 3)), "f64", True)
    y, yt = p.input(np.array([0, -5]), "i64", True)
    w, wt = p.input(np.ones((2, 3)), "f64", True)
    r = p.op(f"ndarray.put {w} into {x}[{y}] axis 0 : ({wt}, {xt}, {yt}) -> "
             f"{array_type([None, None], 'f64')}")
    p.output(r, [None, None], "f64")
    with pytest.raises(AssertionError,
                       match="put: an index is out of bounds for axis 0"):
        p.run()
