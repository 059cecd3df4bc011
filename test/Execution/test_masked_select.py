"""ndarray.masked_select (boolean indexing a[mask]) against numpy: masks of
every leading rank, dtypes, empty and full masks, empty arrays, static and
dynamic shapes; a mask of the wrong dynamic shape is a run-time error."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(31)


def values(dtype, shape):
    if dtype == "i1":
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dtype.startswith("f"):
        return RNG.uniform(-5, 5, size=shape).astype(NUMPY_OF[dtype])
    return RNG.integers(0, 100, size=shape).astype(NUMPY_OF[dtype])


@pytest.mark.parametrize("dtype", ["f64", "f32", "i64", "i16", "ui8", "i1"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_masked_select(dtype, dynamic):
    p = Program()
    want = []
    for shape, k, density in [((10,), 1, 0.5), ((4, 5), 2, 0.3),
                              ((4, 5), 1, 0.5), ((3, 2, 4), 2, 0.6),
                              ((3, 2, 4), 3, 0.5), ((6,), 1, 0.0),
                              ((6,), 1, 1.0), ((0, 3), 1, 0.5),
                              ((0, 3), 2, 0.5)]:
        a = values(dtype, shape)
        m = RNG.uniform(size=shape[:k]) < density
        x, xt = p.input(a, dtype, dynamic)
        mx, mt = p.input(m, "i1", dynamic)
        e = a[m]
        dims = [None] + ([None] * (len(shape) - k) if dynamic
                         else list(shape[k:]))
        r = p.op(f"ndarray.masked_select {x}[{mx}] : {xt}, {mt} -> "
                 f"{array_type(dims, dtype)}")
        p.output(r, dims, dtype)
        want.append((f"{shape} mask rank {k} density {density}", e))
    for (label, e), got in zip(want, p.run()):
        try:
            assert_matches(got, e, dtype)
        except AssertionError as error:
            raise AssertionError(f"{label}: {error}") from None


def test_mask_shape_mismatch_is_a_runtime_error():
    p = Program()
    x, xt = p.input(np.zeros((4, 3)), "f64", True)
    m, mt = p.input(np.ones((5,), np.bool_), "i1", True)
    r = p.op(f"ndarray.masked_select {x}[{m}] : {xt}, {mt} -> "
             f"{array_type([None, None], 'f64')}")
    p.output(r, [None, None], "f64")
    with pytest.raises(AssertionError, match="boolean index does not match "
                       "the indexed array along dimension 0"):
        p.run()
