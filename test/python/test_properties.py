"""Property tests (hypothesis) of broadcasting, type promotion and slicing
against numpy."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import imex as xp
from helpers import DTYPES, check, sample

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
NUMERIC = [d for d in DTYPES if d != xp.bool]


@SETTINGS
@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0,
                                         max_dims=3, max_side=4))
def test_broadcasting(shapes):
    x = sample(shapes.input_shapes[0], np.float64, seed=1)
    y = sample(shapes.input_shapes[1], np.float64, seed=2)
    check(xp.asarray(x) - xp.asarray(y), x - y)


@SETTINGS
@given(st.sampled_from(NUMERIC), st.sampled_from(NUMERIC))
def test_promotion(lhs, rhs):
    x = sample((3,), lhs, seed=3)
    y = sample((3,), rhs, seed=4)
    expected = np.multiply(x, y)
    got = xp.asarray(x) * xp.asarray(y)
    assert got.dtype == expected.dtype
    check(got, expected)


@SETTINGS
@given(st.data())
def test_slicing(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0,
                                       max_side=6))
    key = data.draw(hnp.basic_indices(shape, allow_newaxis=True,
                                      allow_ellipsis=True))
    if any(isinstance(k, slice) and k.step is not None and k.step < 0
           for k in (key if isinstance(key, tuple) else (key,))):
        return  # negative steps: NotImplementedError (tested elsewhere)
    x = sample(shape, np.float64, seed=5)
    check(xp.asarray(x)[key], x[key], exact=True)


@SETTINGS
@given(st.data())
def test_slice_assignment(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, min_side=1,
                                       max_side=5))
    key = data.draw(hnp.basic_indices(shape, allow_ellipsis=True))
    if any(isinstance(k, slice) and k.step is not None and k.step < 0
           for k in (key if isinstance(key, tuple) else (key,))):
        return
    x = sample(shape, np.float64, seed=6)
    a = xp.asarray(x)
    value = sample(x[key].shape, np.float64, seed=7)
    a[key] = xp.asarray(value)
    x[key] = value
    check(a, x, exact=True)
