"""ndarray.tri against numpy's tri, and eye/tril/triu built from it (as the
frontend builds them) against numpy's: dtypes, both orientations, empty
arrays, diagonals outside the array, static and dynamic shapes, a dynamic
diagonal."""

import numpy as np
import pytest

from harness import NUMPY_OF, Program, array_type, assert_matches

RNG = np.random.default_rng(17)
SHAPES = [(3, 5), (5, 3), (4, 4), (1, 1), (0, 4)]
DIAGONALS = [-6, -1, 0, 2, 7]


def tri(p, shape, k, dtype, dynamic=False, dynamic_k=False):
    """%tri of `shape` and element type `dtype`; returns (value, type)."""
    kv = (p.op(f"arith.index_cast {p.constant(k, 'i64')} : i64 to index")
          if dynamic_k else p.constant(k, "index"))
    dims = [None, None] if dynamic else list(shape)
    sizes = (f" ({p.constant(shape[0], 'index')}, "
             f"{p.constant(shape[1], 'index')})" if dynamic else "")
    t = array_type(dims, dtype)
    return p.op(f"ndarray.tri {kv}{sizes} : {t}"), t, dims


@pytest.mark.parametrize("dtype", ["i1", "f64", "i32", "ui8"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("k", DIAGONALS)
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_tri(dtype, shape, k, dynamic):
    p = Program()
    v, _, dims = tri(p, shape, k, dtype, dynamic, dynamic_k=dynamic)
    p.output(v, dims, dtype)
    assert_matches(p.run()[0], np.tri(*shape, k, dtype=NUMPY_OF[dtype]),
                   dtype)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_eye(shape, k):
    """eye(n, m, k) = tri(k) and not tri(k - 1), as f64."""
    p = Program()
    upper, t, dims = tri(p, shape, k, "i1")
    lower, _, _ = tri(p, shape, k - 1, "i1")
    not_lower = p.op(f"ndarray.ewuny logical_not {lower} : {t} -> {t}")
    band = p.op(f"ndarray.ewbin logical_and {upper}, {not_lower} : "
                f"({t}, {t}) -> {t}")
    ft = array_type(dims, "f64")
    r = p.op(f"ndarray.cast_elemtype {band} : {t} to {ft}")
    p.output(r, dims, "f64")
    assert_matches(p.run()[0], np.eye(*shape, k), "f64")


@pytest.mark.parametrize("shape", [(4, 6), (2, 3, 5)], ids=str)
@pytest.mark.parametrize("k", [-1, 0, 3])
@pytest.mark.parametrize("upper", [False, True], ids=["tril", "triu"])
def test_tril_triu(shape, k, upper):
    """tril(x, k) = where(tri(k), x, 0), triu(x, k) = where(tri(k - 1), 0,
    x), on the last two dimensions (the mask broadcasts)."""
    x = RNG.uniform(-5, 5, size=shape)
    p = Program()
    xv, xt = p.input(x)
    mask, mt, _ = tri(p, shape[-2:], k - 1 if upper else k, "i1")
    zero = p.op(f"ndarray.create value {p.constant(0.0, 'f64')} : "
                f"{array_type([], 'f64')}")
    zt = array_type([], "f64")
    if upper:
        r = p.op(f"ndarray.where {mask}, {zero}, {xv} : ({mt}, {zt}, {xt}) "
                 f"-> {xt}")
    else:
        r = p.op(f"ndarray.where {mask}, {xv}, {zero} : ({mt}, {xt}, {zt}) "
                 f"-> {xt}")
    p.output(r, list(shape), "f64")
    expected = np.triu(x, k) if upper else np.tril(x, k)
    assert_matches(p.run()[0], expected, "f64")
