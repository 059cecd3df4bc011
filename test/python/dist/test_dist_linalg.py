"""The linalg extension on distributed arrays (rows, columns, the 2-D
grid): stacks split along the batch axis computed on each rank's matrices,
cholesky/solve/inv/det/slogdet/eigh/eigvalsh, the reduced qr and svdvals
of one split matrix by ScaLAPACK (the matrix moved to its block-cyclic layout and
back), other routines on the
gathered matrices; every rank gets numpy's result; matrix products of split
operands through BLAS on the local blocks."""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import imex as xp
from helpers import check, sample

SPLITS = [None, 0, 1, (0, 1)]


@pytest.fixture(scope="module", autouse=True)
def setup():
    xp.init()


@pytest.mark.parametrize("split", SPLITS, ids=str)
@pytest.mark.parametrize("n", [1, 2, 5])
def test_solve_inv_det_of_split_matrices(split, n):
    a = sample((n, n), np.float64, seed=n, low=-1, high=1) + 3 * n * np.eye(n)
    b = sample((n, 3), np.float64, seed=n + 1)
    x, y = xp.asarray(a, split=split), xp.asarray(b, split=split)
    check(xp.linalg.solve(x, y), np.linalg.solve(a, b), rtol=1e-10)
    check(xp.linalg.inv(x), np.linalg.inv(a), rtol=1e-10)
    check(xp.linalg.det(x), np.linalg.det(a), rtol=1e-10)
    s = xp.linalg.svdvals(x)
    check(s, np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    q, r = xp.linalg.qr(x)
    check(q @ r, a, rtol=1e-10)


@pytest.mark.parametrize("split", SPLITS, ids=str)
@pytest.mark.parametrize("shapes", [((5, 3), (3, 4)), ((1, 4), (4, 1)),
                                    ((0, 3), (3, 2)), ((3, 2), (2, 7))],
                         ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.complex64], ids=str)
def test_matmul_of_split_operands(split, shapes, dtype):
    a = sample(shapes[0], dtype, seed=1)
    b = sample(shapes[1], dtype, seed=2)
    check(xp.asarray(a, split=split) @ xp.asarray(b, split=split), a @ b,
          rtol=1e-4 if dtype == np.complex64 else 1e-12)


def test_failure_raises_on_every_rank():
    singular = xp.asarray(np.ones((3, 3)), split=0)
    with pytest.raises(xp.linalg.LinAlgError):
        xp.linalg.inv(singular).to_numpy()


@pytest.mark.parametrize("split", [None, 0, 1, (0, 1)], ids=str)
@pytest.mark.parametrize("batch", [0, 1, 3, 5])
def test_stacks_split_along_the_batch_axis(split, batch):
    """Each rank runs LAPACK on its own matrices (no gather), with uneven
    blocks and ranks owning none; a failure on one rank's matrix raises on
    every rank."""
    n = 3
    a = (sample((batch, n, n), np.float64, seed=batch, low=-1, high=1) +
         3 * n * np.eye(n))
    b = sample((batch, n, 2), np.float64, seed=batch + 1)
    h = a + np.swapaxes(a, -1, -2)
    x, y = xp.asarray(a, split=split), xp.asarray(b, split=split)
    check(xp.linalg.solve(x, y), np.linalg.solve(a, b), rtol=1e-10)
    check(xp.linalg.inv(x), np.linalg.inv(a), rtol=1e-10)
    check(xp.linalg.det(x), np.linalg.det(a), rtol=1e-10)
    sign, logabs = xp.linalg.slogdet(x)
    check(logabs, np.linalg.slogdet(a)[1], rtol=1e-10)
    check(xp.linalg.eigvalsh(xp.asarray(h, split=split)),
          np.linalg.eigvalsh(h), rtol=1e-10)
    check(xp.linalg.svdvals(x), np.linalg.svd(a, compute_uv=False),
          rtol=1e-10)
    q, r = xp.linalg.qr(x)
    check(q @ r, a, rtol=1e-10)
    check(xp.linalg.cholesky(xp.asarray(h + 10 * np.eye(n), split=split)),
          np.linalg.cholesky(h + 10 * np.eye(n)), rtol=1e-10)
    if batch:
        bad = a.copy()
        bad[-1] = 0.0       # on the last rank that owns matrices
        with pytest.raises(xp.linalg.LinAlgError):
            xp.linalg.inv(xp.asarray(bad, split=split)).to_numpy()
        check(xp.linalg.inv(x), np.linalg.inv(a), rtol=1e-10)


@st.composite
def matrix_routines(draw):
    """A ScaLAPACK routine on one matrix in any distribution: sizes 0, 1,
    below the rank count and past a few blocks, blocks of 1 to 64, every
    float and complex dtype."""
    routine = draw(st.sampled_from(["solve", "inv", "det", "slogdet",
                                    "cholesky", "cholesky_upper", "eigh",
                                    "eigvalsh"]))
    n = draw(st.sampled_from([0, 1, 2, 3, 5, draw(st.integers(1, 40))]))
    k = draw(st.sampled_from([1, 3]))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.complex128,
                                  np.complex64]))
    split = draw(st.sampled_from(SPLITS))
    block = draw(st.sampled_from(["1", "2", "5", "64"]))
    return routine, n, k, dtype, split, block


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(matrix_routines())
def test_generated_routines_on_one_split_matrix(case):
    routine, n, k, dtype, split, block = case
    a = sample((n, n), dtype, seed=n, low=-1, high=1)
    if routine.startswith("cholesky"):
        a = a @ a.conj().T
    if routine.startswith("eig"):
        a = (a + a.conj().T) / 2
    a = (a + 2 * n * np.eye(n)).astype(dtype)
    b = sample((n, k), dtype, seed=n + 1)
    x, y = xp.asarray(a, split=split), xp.asarray(b, split=split)
    rtol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-10
    os.environ["IDTR_SCALAPACK_NB"] = block
    try:
        if routine == "solve":
            check(xp.linalg.solve(x, y), np.linalg.solve(a, b), rtol=rtol)
        elif routine == "inv":
            check(xp.linalg.inv(x), np.linalg.inv(a), rtol=rtol)
        elif routine == "det":
            check(xp.linalg.det(x), np.linalg.det(a), rtol=rtol)
        elif routine == "slogdet":
            sign, logabs = xp.linalg.slogdet(x)
            want = np.linalg.slogdet(a)
            check(sign, want[0], rtol=rtol)
            check(logabs, want[1], rtol=rtol)
        elif routine == "eigvalsh":
            check(xp.linalg.eigvalsh(x), np.linalg.eigvalsh(a), rtol=rtol)
        elif routine == "eigh":
            # (Eigenvectors are unique up to a phase: A V = V diag(w) and
            # V^H V = I.)
            w, v = xp.linalg.eigh(x)
            w, v = w.to_numpy(), v.to_numpy()
            check(xp.asarray(w), np.linalg.eigvalsh(a), rtol=rtol)
            scale = rtol * 10 * max(n, 1) * max([1.0, *np.abs(a).ravel()])
            np.testing.assert_allclose(a @ v, v * w, atol=scale)
            np.testing.assert_allclose(v.conj().T @ v, np.eye(n),
                                       atol=rtol * 10 * max(n, 1))
        else:
            # Only one triangle is read (numpy's lower one; the upper one
            # for upper=True): the other holds junk.
            upper = routine == "cholesky_upper"
            want = np.linalg.cholesky(a)
            junk = np.triu(b[:, :1] * 7 + 99, 1).astype(dtype)
            junked = a + (junk.T if upper else junk)
            check(xp.linalg.cholesky(xp.asarray(junked, split=split),
                                     upper=upper),
                  want.conj().T if upper else want, rtol=rtol)
    finally:
        del os.environ["IDTR_SCALAPACK_NB"]


@st.composite
def qr_cases(draw):
    """A QR of an m x n matrix of any shape (tall, wide, empty, fewer rows
    than ranks) in any distribution, either mode, every float and complex
    dtype, blocks of 1 to 64."""
    m = draw(st.sampled_from([0, 1, 2, 3, 7, draw(st.integers(1, 40))]))
    n = draw(st.sampled_from([0, 1, 2, 5, draw(st.integers(1, 40))]))
    dtype = draw(st.sampled_from([np.float64, np.float32, np.complex128,
                                  np.complex64]))
    split = draw(st.sampled_from(SPLITS))
    mode = draw(st.sampled_from(["reduced", "complete"]))
    block = draw(st.sampled_from(["1", "2", "5", "64"]))
    return m, n, dtype, split, mode, block


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(qr_cases())
def test_generated_qr_of_one_split_matrix(case):
    """Q and R as numpy's up to the signs of R's rows (the phases of Q's
    columns): Q R = A, Q^H Q = I, R upper triangular."""
    m, n, dtype, split, mode, block = case
    a = sample((m, n), dtype, seed=m * 41 + n, low=-1, high=1)
    rtol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-10
    os.environ["IDTR_SCALAPACK_NB"] = block
    try:
        q, r = xp.linalg.qr(xp.asarray(a, split=split), mode=mode)
        q, r = q.to_numpy(), r.to_numpy()
    finally:
        del os.environ["IDTR_SCALAPACK_NB"]
    want_q, want_r = np.linalg.qr(a, mode=mode)
    assert q.shape == want_q.shape and r.shape == want_r.shape
    assert q.dtype == want_q.dtype and r.dtype == want_r.dtype
    scale = rtol * 10 * max(m, n, 1)
    np.testing.assert_allclose(q @ r, a, atol=scale)
    np.testing.assert_allclose(q.conj().T @ q, np.eye(q.shape[1]), atol=scale)
    np.testing.assert_array_equal(np.tril(r, -1), 0)
    np.testing.assert_allclose(np.abs(r), np.abs(want_r), atol=scale)


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(qr_cases())
def test_generated_singular_values_of_one_split_matrix(case):
    """svdvals (ScaLAPACK's p?gesvd without vectors), matrix_rank and svd
    (either mode; reduced or square: p?gesvd with vectors) of any shape as
    numpy's (the vectors up to phases: U diag(s) V^H = A, orthonormal)."""
    m, n, dtype, split, mode, block = case
    a = sample((m, n), dtype, seed=m * 43 + n, low=-1, high=1)
    if m > 2 and n > 2:
        a[:, 2] = a[:, 0] + a[:, 1]  # (rank deficient)
    rtol = 2e-4 if dtype in (np.float32, np.complex64) else 1e-10
    os.environ["IDTR_SCALAPACK_NB"] = block
    try:
        x = xp.asarray(a, split=split)
        s = xp.linalg.svdvals(x)
        rank = xp.linalg.matrix_rank(x) if min(m, n) else None
        u, s2, vh = xp.linalg.svd(x, full_matrices=mode == "complete")
        s, u, s2, vh = s.to_numpy(), u.to_numpy(), s2.to_numpy(), vh.to_numpy()
    finally:
        del os.environ["IDTR_SCALAPACK_NB"]
    k = min(m, n)
    scale = rtol * 10 * max(m, n, 1) * max([1.0, *np.abs(a).ravel()])
    assert u.shape[0] == m and vh.shape[1] == n and s2.shape == (k,)
    np.testing.assert_allclose((u[:, :k] * s2) @ vh[:k], a, atol=scale)
    np.testing.assert_allclose(u.conj().T @ u, np.eye(u.shape[1]), atol=scale)
    np.testing.assert_allclose(vh @ vh.conj().T, np.eye(vh.shape[0]),
                               atol=scale)
    want = (np.linalg.svd(a, compute_uv=False) if min(m, n)
            else np.zeros(0, np.finfo(dtype).dtype))
    assert s.shape == want.shape and s.dtype == want.dtype
    np.testing.assert_allclose(s, want, atol=rtol * 10 * max(m, n, 1))
    if rank is not None:
        assert int(rank) == np.linalg.matrix_rank(a)


@pytest.mark.parametrize("split", SPLITS, ids=str)
def test_singular_split_matrix_raises_on_every_rank(split):
    a = np.ones((6, 6))
    x = xp.asarray(a, split=split)
    with pytest.raises(xp.linalg.LinAlgError):
        xp.linalg.inv(x).to_numpy()
    with pytest.raises(xp.linalg.LinAlgError):
        xp.linalg.cholesky(xp.asarray(-np.eye(6), split=split)).to_numpy()
    check(xp.linalg.det(x), np.linalg.det(a), rtol=1e-10)
