"""The linalg extension against numpy.linalg on generated stacks of
matrices: every LAPACK dtype and integers (converted to float64), sizes 0,
1 and more, stacks, views; factorizations checked by reconstruction (their
signs and phases are not unique)."""

import math

import numpy as np
import pytest

import imex as xp
from helpers import check, sample

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
SHAPES = [(0, 0), (1, 1), (3, 3), (2, 4, 4), (0, 2, 2), (2, 1, 3, 3)]
TOL = {np.float32: 2e-3, np.float64: 1e-10, np.complex64: 2e-3,
       np.complex128: 1e-10}


def well_conditioned(shape, dtype, seed):
    """Random matrices with a dominant diagonal (and their Hermitian
    positive definite companions)."""
    x = sample(shape, dtype, seed=seed, low=-1, high=1)
    n = shape[-1]
    x = x + 3 * n * np.eye(n, dtype=dtype) if n else x
    h = x @ np.conj(np.swapaxes(x, -1, -2))
    return x.astype(dtype), h.astype(dtype)


def close(got, want, dtype):
    got = got.to_numpy() if isinstance(got, xp.ndarray) else got
    np.testing.assert_allclose(got, want, rtol=TOL[dtype],
                               atol=TOL[dtype] * 10)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_square_routines(dtype, shape):
    a, h = well_conditioned(shape, dtype, seed=len(shape))
    x, y = xp.asarray(a), xp.asarray(h)
    close(xp.linalg.inv(x), np.linalg.inv(a), dtype)
    close(xp.linalg.det(x), np.linalg.det(a), dtype)
    sign, logabs = xp.linalg.slogdet(x)
    want_sign, want_log = np.linalg.slogdet(a)
    close(sign, want_sign, dtype)
    close(logabs, want_log, dtype)
    assert logabs.dtype == np.asarray(want_log).dtype
    close(xp.linalg.cholesky(y), np.linalg.cholesky(h), dtype)
    close(xp.linalg.cholesky(y, upper=True),
          np.conj(np.swapaxes(np.linalg.cholesky(h), -1, -2)), dtype)
    w, v = xp.linalg.eigh(y)
    close(w, np.linalg.eigvalsh(h), dtype)
    vn = v.to_numpy()
    close(vn @ (w.to_numpy()[..., None] * np.conj(np.swapaxes(vn, -1, -2))),
          h, dtype)
    close(xp.linalg.eigvalsh(y), np.linalg.eigvalsh(h), dtype)
    b = sample(shape[:-1] + (2,), dtype, seed=5)
    close(xp.linalg.solve(x, xp.asarray(b)), np.linalg.solve(a, b), dtype)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 4), (4, 1), (3, 5),
                                   (5, 3), (2, 4, 2)], ids=str)
def test_rectangular_routines(dtype, shape):
    a = sample(shape, dtype, seed=7)
    x = xp.asarray(a)
    m, n = shape[-2:]
    for mode in ("reduced", "complete"):
        q, r = xp.linalg.qr(x, mode=mode)
        want_q, want_r = np.linalg.qr(a, mode=mode)
        assert q.shape == want_q.shape and r.shape == want_r.shape
        qn, rn = q.to_numpy(), r.to_numpy()
        close(qn @ rn, a, dtype)
        close(np.conj(np.swapaxes(qn, -1, -2)) @ qn,
              np.broadcast_to(np.eye(qn.shape[-1]), qn.shape[:-2] +
                              (qn.shape[-1],) * 2), dtype)
        assert np.allclose(np.tril(rn, -1), 0)
    for full in (False, True):
        u, s, vh = xp.linalg.svd(x, full_matrices=full)
        want = np.linalg.svd(a, full_matrices=full)
        assert (u.shape, s.shape, vh.shape) == tuple(w.shape for w in want)
        close(s, want[1], dtype)
        k = min(m, n)
        un, vn = u.to_numpy()[..., :k], vh.to_numpy()[..., :k, :]
        close((un * s.to_numpy()[..., None, :]) @ vn, a, dtype)
    close(xp.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False), dtype)
    close(xp.linalg.pinv(x), np.linalg.pinv(a), dtype)
    # (numpy's matrix_rank fails on empty matrices: their rank is 0.)
    check(xp.linalg.matrix_rank(x),
          np.linalg.matrix_rank(a) if min(m, n) else
          np.zeros(shape[:-2], np.int64))


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, math.inf,
                                 -math.inf], ids=str)
def test_matrix_norm(ord):
    a = sample((2, 3, 4), np.float64, seed=9)
    close(xp.linalg.matrix_norm(xp.asarray(a), ord=ord),
          np.linalg.norm(a, ord=ord, axis=(-2, -1)), np.float64)


@pytest.mark.parametrize("ord", [2, 1, 0, 3, math.inf, -math.inf], ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)], ids=str)
def test_vector_norm(ord, axis):
    a = sample((3, 4), np.float64, seed=10)
    want = (np.linalg.norm(a.ravel(), ord=ord) if axis is None else
            np.linalg.norm(a, ord=ord, axis=axis) if not isinstance(axis, tuple)
            else np.linalg.norm(a.ravel(), ord=ord))
    close(xp.linalg.vector_norm(xp.asarray(a), axis=axis, ord=ord), want,
          np.float64)


def test_integers_become_float64_and_compositions():
    a = np.array([[4, 1], [2, 3]])
    check(xp.linalg.inv(xp.asarray(a)), np.linalg.inv(a))
    check(xp.linalg.matrix_power(xp.asarray(a), 3),
          np.linalg.matrix_power(a, 3))
    close(xp.linalg.matrix_power(xp.asarray(a), -2),
          np.linalg.matrix_power(a.astype(float), -2), np.float64)
    check(xp.linalg.matrix_power(xp.asarray(a), 0),
          np.linalg.matrix_power(a, 0))
    m = sample((2, 3, 4), np.float64, seed=11)
    for offset in (-2, 0, 1, 5):
        check(xp.linalg.diagonal(xp.asarray(m), offset=offset),
              np.diagonal(m, offset, -2, -1))
        check(xp.linalg.trace(xp.asarray(m), offset=offset),
              np.trace(m, offset, -2, -1))
    u, v = sample((4, 3), np.float64, seed=12), sample((4, 3), np.float64, 13)
    check(xp.linalg.cross(xp.asarray(u), xp.asarray(v)), np.cross(u, v))
    check(xp.linalg.cross(xp.asarray(u.T), xp.asarray(v.T), axis=0),
          np.cross(u.T, v.T, axis=0))


def test_solve_broadcasts_and_takes_vectors():
    a, _ = well_conditioned((2, 3, 3), np.float64, seed=14)
    b = sample((3, 2), np.float64, seed=15)
    close(xp.linalg.solve(xp.asarray(a), xp.asarray(b)),
          np.linalg.solve(a, np.broadcast_to(b, (2, 3, 2))), np.float64)
    v = sample((3,), np.float64, seed=16)
    close(xp.linalg.solve(xp.asarray(a[0]), xp.asarray(v)),
          np.linalg.solve(a[0], v), np.float64)


def test_failures_raise_linalg_error():
    singular = xp.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    with pytest.raises(xp.linalg.LinAlgError, match="Singular"):
        xp.linalg.inv(singular).to_numpy()
    with pytest.raises(xp.linalg.LinAlgError, match="Singular"):
        xp.linalg.solve(singular, xp.ones((2, 1))).to_numpy()
    with pytest.raises(xp.linalg.LinAlgError, match="positive definite"):
        xp.linalg.cholesky(xp.asarray(-np.eye(2))).to_numpy()
    with pytest.raises(xp.linalg.LinAlgError, match="square"):
        xp.linalg.inv(xp.ones((2, 3)))
    # A singular matrix has determinant 0 (no error), and the next results
    # are unaffected by an earlier failure.
    check(xp.linalg.det(singular), np.float64(0.0))
    check(xp.linalg.inv(xp.asarray(np.eye(2))), np.eye(2))


@pytest.mark.parametrize("name", ["qr", "solve", "inv", "det", "slogdet",
                                  "svd", "svdvals", "eigh", "eigvalsh",
                                  "cholesky"])
@pytest.mark.parametrize("shape", [(2, 2), (3, 2, 2)], ids=str)
def test_nan_inputs_give_numpys_result_or_error(name, shape):
    # (LAPACKE's NaN check and LAPACK's own reject NaNs as invalid
    # arguments: numpy returns NaNs or raises LinAlgError instead.)
    a = sample(shape, np.float64, seed=3)
    a[..., 0, 1] = np.nan
    args = (a, np.ones(shape[:-1] + (1,))) if name == "solve" else (a,)
    ref = "svd" if name == "svdvals" else name
    kwargs = {"compute_uv": False} if name == "svdvals" else {}
    try:
        want = getattr(np.linalg, ref)(*args, **kwargs)
    except np.linalg.LinAlgError:
        with pytest.raises(xp.linalg.LinAlgError):
            got = getattr(xp.linalg, name)(*map(xp.asarray, args))
            [g.to_numpy() for g in (got if isinstance(got, tuple)
                                    else (got,))]
        return
    got = getattr(xp.linalg, name)(*map(xp.asarray, args))
    if not isinstance(want, tuple):
        want, got = (want,), (got,)
    for g, w in zip(got, want):
        g = g.to_numpy()
        assert g.shape == np.shape(w)
        # (Where numpy's result is finite, the factorization is the same
        # up to rounding; the NaNs are where numpy's are.)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
        np.testing.assert_allclose(np.nan_to_num(g), np.nan_to_num(w),
                                   rtol=1e-12, atol=1e-12)
