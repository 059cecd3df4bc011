"""16-bit floats (f16, bf16) in distributed arrays: IDTR moves them as
16-bit words and reduces/scans them in float. Halos of shifted views,
reductions over the split axis and all axes, a scan along it, a sample
sort, take/put and a transpose, at 1-4 ranks (uneven, empty ranks),
against numpy. Inputs are multiples of 0.5 in [-4, 4] and the sums stay
small, so every result is exact in both formats (bf16 inputs are cast from
f32 in the program: numpy has no bfloat16)."""

import numpy as np
import pytest

from dist_harness import data, named, run_cases


def halves(shape):
    return np.round(data(shape, "f32") * 2) / 2


def distributed(d, value, dtype, dynamic):
    if dtype == "f16":
        return d.array(value.astype(np.float16), dynamic=dynamic)
    return d.astype(d.array(value.astype(np.float32), dynamic=dynamic),
                    "bf16")


def half_ops(d, dtype, dynamic):
    a = distributed(d, halves((13, 4)), dtype, dynamic)
    d.check(d.add(d.view(a, (slice(1, None),)), d.view(a, (slice(None, -1),))),
            "a[1:] + a[:-1]")
    d.check(d.reduce("sum", a, axes=[0]), "sum(a, 0)")
    d.check(d.reduce("max", a), "max(a)")
    d.check(d.reduce("min", a, axes=[0]), "min(a, 0)")
    d.check(d.cumulative("sum", a, 0), "cumsum(a, 0)")
    d.check(d.permute(a, [1, 0]), "a.T")
    idx = d.array(np.array([12, 0, -1, 5, 5]))
    d.check(d.take(a, idx, 0), "a[idx]")
    v = distributed(d, halves((5, 4)), dtype, dynamic)
    d.check(d.put(a, idx, v, 0), "a[idx] = v")
    b = distributed(d, halves((29,)), dtype, dynamic)
    d.check(d.sort(b, 0), "sort(b)")
    d.check(d.sort(b, 0, indices=True), "argsort(b)")


def few_rows(d, dtype):
    a = distributed(d, halves((2, 3)), dtype, False)
    d.check(d.reduce("sum", a), "sum(a) of 2 rows")
    d.check(d.add(d.view(a, (slice(1, None),)), d.view(a, (slice(None, -1),))),
            "a[1:] + a[:-1] of 2 rows")


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_half_precision(dtype, dynamic):
    run_cases([named("ops", half_ops, dtype, dynamic),
               named("few_rows", few_rows, dtype)])
