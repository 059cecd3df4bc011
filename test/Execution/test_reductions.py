"""ndarray.reduction against numpy: every kind, axes, keepdims, dtypes,
correction, 0-d and empty arrays."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches, mlir_dtype
from test_elementwise import values

NUMPY_REDUCE = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max,
                "mean": np.mean, "var": np.var, "std": np.std, "any": np.any,
                "all": np.all}


def result_dtype(kind, dtype):
    if kind in ("any", "all"):
        return "i1"
    if kind in ("sum", "prod"):
        if dtype.startswith("ui"):
            return "ui64"
        return dtype if dtype.startswith("f") else "i64"
    if kind in ("mean", "var", "std"):
        return dtype if dtype.startswith("f") else "f64"
    return dtype


def run_reduction(kind, a, dtype, axes=None, keepdims=False, correction=None,
                  dynamic=False):
    rdtype = result_dtype(kind, dtype)
    p = Program()
    x, xt = p.input(a, dtype, dynamic)
    reduced = range(a.ndim) if axes is None else axes
    shape = []
    for d in range(a.ndim):
        if d not in reduced:
            shape.append(None if dynamic else a.shape[d])
        elif keepdims:
            shape.append(1)
    attrs = ""
    if axes is not None:
        attrs += f" axes [{', '.join(map(str, axes))}]"
    if keepdims:
        attrs += " keepdims"
    if correction is not None:
        attrs += f" correction {float(correction)}"
    r = p.op(f"ndarray.reduction {kind} {x}{attrs} : {xt} -> "
             f"{array_type(shape, rdtype)}")
    p.output(r, shape, rdtype)
    return p.run()[0], rdtype


@pytest.mark.parametrize("kind", list(NUMPY_REDUCE))
@pytest.mark.parametrize("dtype", ["f64", "f32", "i64", "i32", "i8", "ui16", "i1"])
@pytest.mark.parametrize("axes", [None, (0,), (1,), (0, 2)], ids=str)
@pytest.mark.parametrize("keepdims", [False, True], ids=["", "keepdims"])
def test_reduction(kind, dtype, axes, keepdims):
    if dtype == "i1" and kind in ("mean", "var", "std", "prod"):
        pytest.skip("numpy accepts these on bool; not interesting")
    a = values(dtype, (3, 4, 2), low=-3 if not dtype.startswith("ui") else 0,
               high=3)
    with np.errstate(all="ignore"):
        expected = NUMPY_REDUCE[kind](a, axis=axes, keepdims=keepdims)
    result, rdtype = run_reduction(kind, a, dtype, list(axes) if axes else None,
                                   keepdims)
    assert_matches(result, np.asarray(expected).astype(NUMPY_OF[rdtype]),
                   rdtype)


@pytest.mark.parametrize("kind", ["var", "std"])
@pytest.mark.parametrize("correction", [0, 1, 2.5])
def test_correction(kind, correction):
    a = values("f64", (5, 3))
    expected = NUMPY_REDUCE[kind](a, axis=0, ddof=correction)
    result, _ = run_reduction(kind, a, "f64", [0], correction=correction)
    assert_matches(result, expected, "f64")


def test_var_is_numerically_sound():
    # A large offset ruins the one-pass formula E[x^2] - E[x]^2.
    a = (1e9 + np.arange(10, dtype=np.float64))
    result, _ = run_reduction("var", a, "f64")
    assert_matches(result, np.var(a), "f64")


@pytest.mark.parametrize("kind", ["sum", "prod", "any", "all", "mean"])
def test_empty(kind):
    a = np.zeros((0, 3), dtype=np.float64)
    with np.errstate(all="ignore"):
        expected = NUMPY_REDUCE[kind](a, axis=0)
    result, rdtype = run_reduction(kind, a, "f64", [0])
    assert_matches(result, np.asarray(expected).astype(NUMPY_OF[rdtype]), rdtype)


def test_min_of_all_positive_and_max_of_all_negative():
    # A reduction seeded with 0 would return 0 for both.
    a = np.array([5, 7, 3], dtype=np.int64)
    result, _ = run_reduction("min", a, "i64")
    assert result == 3
    result, _ = run_reduction("max", -a, "i64")
    assert result == -3
    result, _ = run_reduction("prod", a, "i64")
    assert result == 105


def test_min_of_empty_aborts():
    p = Program()
    x, xt = p.input(np.zeros((0,)), "f64")
    r = p.op(f"ndarray.reduction min {x} : {xt} -> {array_type([], 'f64')}")
    p.output(r, [], "f64")
    with pytest.raises(AssertionError, match="zero-size array"):
        p.run()


def test_nan_in_max():
    a = np.array([1.0, np.nan, 3.0])
    result, _ = run_reduction("max", a, "f64")
    assert np.isnan(result)


def test_0d_and_dynamic():
    a = np.array(2.5)
    result, _ = run_reduction("sum", a, "f64")
    assert_matches(result, np.array(2.5), "f64")
    b = values("i32", (4, 5))
    result, _ = run_reduction("sum", b, "i32", [1], dynamic=True)
    assert_matches(result, b.sum(axis=1), "i64")
