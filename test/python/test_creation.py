"""Creation functions, conversions and array attributes against numpy."""

import numpy as np
import pytest

import imex as xp
from helpers import DTYPES, check, sample


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_zeros_ones_full_empty(dtype):
    check(xp.zeros((3, 4), dtype=dtype), np.zeros((3, 4), dtype))
    check(xp.ones((2, 1, 3), dtype=dtype), np.ones((2, 1, 3), dtype))
    fill = True if np.dtype(dtype) == np.bool_ else 7
    check(xp.full((5,), fill, dtype=dtype), np.full((5,), fill, dtype))
    assert xp.empty((2, 2), dtype=dtype).shape == (2, 2)


def test_default_dtypes_and_scalar_fill():
    assert xp.zeros(3).dtype == xp.float64
    check(xp.full((2,), 3), np.full((2,), 3, np.int64))
    check(xp.full((2,), 2.5), np.full((2,), 2.5))
    check(xp.full((2,), False), np.full((2,), False))
    check(xp.zeros(()), np.zeros(()))
    check(xp.ones((0, 3)), np.ones((0, 3)))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_like(dtype):
    x = sample((2, 3), dtype)
    a = xp.asarray(x)
    check(xp.zeros_like(a), np.zeros_like(x))
    check(xp.ones_like(a), np.ones_like(x))
    # (The contents of an empty array are arbitrary, NaN bits included.)
    e = xp.empty_like(a)
    assert e.shape == x.shape and e.dtype == x.dtype
    check(xp.full_like(a, 1), np.full_like(x, 1))
    check(xp.zeros_like(a, dtype=xp.float32), np.zeros_like(x, np.float32))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_asarray_round_trip(dtype):
    x = sample((3, 2, 2), dtype)
    a = xp.asarray(x)
    assert a.shape == (3, 2, 2) and a.dtype == x.dtype and a.ndim == 3
    assert a.size == 12
    check(a, x, exact=True)
    np.testing.assert_array_equal(np.asarray(a), x)
    assert a.__array_namespace__() is xp


def test_asarray_of_sequences_and_scalars():
    check(xp.asarray([[1, 2], [3, 4]]), np.array([[1, 2], [3, 4]]))
    check(xp.asarray([1.5, 2.0]), np.array([1.5, 2.0]))
    check(xp.asarray(3.0), np.asarray(3.0))
    check(xp.asarray([1, 2], dtype=xp.float32), np.array([1, 2], np.float32))
    a = xp.asarray(np.arange(3.0))
    assert xp.asarray(a) is a
    b = xp.asarray(a, copy=True)
    b[0] = 9.0
    check(a, np.arange(3.0))


def test_asarray_copies_numpy_data():
    x = np.arange(4.0)
    a = xp.asarray(x)
    x[0] = 100.0
    check(a, np.arange(4.0))
    a[1] = -1.0
    assert x[1] == 1.0


@pytest.mark.parametrize("args", [(0.0, 1.0, 5), (-2.0, 3.0, 7), (1.0, 0.0, 4),
                                  (0.0, 1.0, 1), (0.0, 1.0, 0)])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace(args, endpoint):
    check(xp.linspace(*args, endpoint=endpoint),
          np.linspace(*args, endpoint=endpoint))
    check(xp.linspace(*args, endpoint=endpoint, dtype=xp.float32),
          np.linspace(*args, endpoint=endpoint, dtype=np.float32), rtol=1e-6)


@pytest.mark.parametrize("args", [(5,), (2, 9), (0, 10, 3), (1.0, 2.0, 0.25),
                                  (10, 2, -2), (3, 3)])
def test_arange(args):
    check(xp.arange(*args), np.arange(*args))


@pytest.mark.parametrize("args", [(3,), (3, 4), (4, 3)])
@pytest.mark.parametrize("k", [0, 1, -1])
def test_eye(args, k):
    check(xp.eye(*args, k=k), np.eye(*args, k=k))


@pytest.mark.parametrize("dtype", [xp.float32, xp.int32, xp.uint8, xp.bool],
                         ids=str)
def test_eye_dtypes_and_far_diagonals(dtype):
    for k in (-7, 5, 0):
        check(xp.eye(4, 6, k=k, dtype=dtype), np.eye(4, 6, k=k, dtype=dtype))


@pytest.mark.parametrize("shape", [(4, 6), (6, 4), (2, 3, 5), (0, 3)],
                         ids=str)
@pytest.mark.parametrize("k", [-2, 0, 1, 9])
def test_tril_triu(shape, k):
    x = sample(shape, "float64")
    check(xp.tril(xp.asarray(x), k=k), np.tril(x, k))
    check(xp.triu(xp.asarray(x), k=k), np.triu(x, k))
    i = sample(shape, "int16")
    check(xp.triu(xp.asarray(i), k=k), np.triu(i, k))


def test_tril_needs_a_matrix():
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        xp.tril(xp.ones(3))


def test_eye_compiles_once_for_every_diagonal():
    xp.eye(5, k=0).to_numpy()
    before = xp.stats()["compiles"]
    for k in (1, -2, 3):
        check(xp.eye(5, k=k), np.eye(5, k=k))
    assert xp.stats()["compiles"] == before


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("to", [xp.bool, xp.int8, xp.int64, xp.uint16,
                                xp.float32, xp.float64], ids=str)
def test_astype(dtype, to):
    x = np.abs(sample((3, 3), dtype))
    check(xp.astype(xp.asarray(x), to), x.astype(to))
    check(xp.asarray(x).astype(to), x.astype(to))


def test_scalar_conversions():
    a = xp.asarray(np.array(2.5))
    assert float(a) == 2.5 and int(a) == 2 and bool(a)
    assert int(xp.asarray(np.array(7, np.int32))) == 7
    assert not bool(xp.asarray(np.array(False)))
    with pytest.raises(TypeError, match="0-d"):
        float(xp.ones(3))
    assert len(xp.ones((4, 2))) == 4
    assert [float(v) for v in xp.asarray(np.arange(3.0))] == [0.0, 1.0, 2.0]


def test_repr_and_str():
    a = xp.asarray(np.array([1.0, 2.0]))
    assert repr(a) == "imex.asarray([1., 2.], dtype=float64)"
    assert str(a) == "[1. 2.]"


def test_unsupported_dtype():
    # Not dtypes of the standard.
    with pytest.raises(TypeError, match="unsupported dtype"):
        xp.asarray(np.array(["a"]))
    with pytest.raises(TypeError, match="unsupported dtype"):
        xp.zeros(3, dtype=np.dtype("datetime64[s]"))


def test_from_dlpack_and_asarray_without_copy_alias_the_buffer():
    for wrap in (xp.from_dlpack, lambda b: xp.asarray(b, copy=False)):
        buf = np.arange(12.0).reshape(3, 4)
        a = wrap(buf)
        check(a * 2, np.arange(12.0).reshape(3, 4) * 2)
        a[0, :] = 7.0          # imex writes into the buffer
        xp.sync()
        assert (buf[0] == 7.0).all()
        buf[2, 3] = -1.0       # the buffer's writes are seen by imex
        assert float(xp.sum(a)) == float(buf.sum())


def test_from_dlpack_copies_on_request_and_for_strided_data():
    buf = np.arange(6, dtype=np.int32)
    a = xp.from_dlpack(buf, copy=True)
    buf[0] = 100
    check(a, np.arange(6, dtype=np.int32))
    strided = np.arange(10.0)[::2]
    check(xp.from_dlpack(strided), strided)
    with pytest.raises(ValueError, match="writable C-contiguous"):
        xp.asarray(strided, copy=False)
    with pytest.raises(ValueError, match="a conversion copies"):
        xp.asarray(np.zeros(3), dtype=xp.float32, copy=False)


def test_dlpack_export():
    x = sample((3, 5), np.float32, seed=9)
    a = xp.asarray(x) + 1
    check(xp.asarray(np.from_dlpack(a)), x + 1)
    assert a.__dlpack_device__() == x.__dlpack_device__()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_dlpack_round_trip_of_every_dtype(dtype):
    x = sample((3, 2), dtype, seed=12)
    a = xp.asarray(x)
    check(xp.from_dlpack(a), x)
    check(xp.from_dlpack(a, copy=True), x)
    # An imex array with its own buffer is shared, not copied.
    b = xp.from_dlpack(a, copy=False)
    b[0, 0] = x[1, 1]
    assert a.to_numpy()[0, 0] == x[1, 1]


def test_dlpack_of_views_copies_or_refuses():
    a = xp.asarray(np.arange(6.0))
    check(xp.from_dlpack(a[::2]), np.arange(0.0, 6.0, 2.0))
    with pytest.raises(BufferError, match="copy=False"):
        xp.from_dlpack(a[::2], copy=False)
    with pytest.raises(BufferError, match="host device"):
        a.__dlpack__(dl_device=(2, 0))
