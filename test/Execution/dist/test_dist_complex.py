"""complex<f32>/complex<f64> distributed arrays: IDTR moves them as (real,
imaginary) pairs and sums/multiplies them with MPI's complex types. Halos
of shifted views, promotion with real arrays, reductions over the split
axis and all axes (the same bits on every rank count: a fixed blocking of
the split axis), a scan along it, matmul, take/put, a flip and a transpose
along the split axis, at 1-4 ranks (uneven, empty ranks), against numpy."""

import numpy as np
import pytest

from dist_harness import data, named, run_cases
from test_dist_reductions import row_blocks


def complex_ops(d, dtype, dynamic):
    a = d.array(data((13, 4), dtype), dynamic=dynamic)
    d.check(d.add(d.view(a, (slice(1, None),)), d.view(a, (slice(None, -1),))),
            "a[1:] + a[:-1]")
    real = "f32" if dtype == "complex<f32>" else "f64"
    r = d.array(data((13, 1), real), dynamic=dynamic)
    d.check(d.mul(a, r), "a * r")
    d.check(d.ewuny("abs", a), "abs(a)")
    d.check(d.ewuny("conj", d.view(a, (slice(2, 9),))), "conj(a[2:9])")
    d.check(d.ewuny("imag", a), "imag(a)")
    d.check(d.reduce("sum", a, axes=[0]), "sum(a, 0)")
    d.check(d.reduce("sum", a), "sum(a)")
    d.check(d.reduce("mean", a, axes=[0]), "mean(a, 0)")
    d.check(d.reduce("prod", d.view(a, (slice(None), slice(0, 2))), axes=[1]),
            "prod(a[:, :2], 1)")
    d.check(d.reduce("any", a, axes=[0]), "any(a, 0)")
    d.check(d.cumulative("sum", a, 0), "cumsum(a, 0)")
    d.check(d.permute(a, [1, 0]), "a.T")
    d.check(d.flip(a, [0]), "flip(a, 0)")
    idx = d.array(np.array([12, 0, -1, 5, 5]))
    d.check(d.take(a, idx, 0), "a[idx]")
    v = d.array(data((5, 4), dtype), dynamic=dynamic)
    d.check(d.put(a, idx, v, 0), "a[idx] = v")
    w = d.array(data((4, 3), dtype), dist=False)
    d.check(d.matmul(a, w), "a @ w")


def few_rows(d, dtype):
    a = d.array(data((2, 3), dtype))
    d.check(d.reduce("sum", a), "sum(a) of 2 rows")
    d.check(d.add(d.view(a, (slice(1, None),)), d.view(a, (slice(None, -1),))),
            "a[1:] + a[:-1] of 2 rows")


@pytest.mark.parametrize("dtype", ["complex<f64>", "complex<f32>"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_complex(dtype, dynamic):
    run_cases([named("ops", complex_ops, dtype, dynamic),
               named("few_rows", few_rows, dtype),
               named("row_blocks", row_blocks, 129, dtype, dynamic)])
