// _idtr_linalg_<T>: LAPACK on every matrix of a stack in any layout (dense,
// strided, column-major), checked by what the results must satisfy.
#include "test_util.hpp"

#include <cmath>
#include <complex>

using namespace idtest;

namespace {

/// A stack of 2 diagonally dominant 3 x 3 matrices (invertible, and
/// symmetric positive definite when `spd`).
void fill(Arr<double> &a, bool spd) {
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j)
        a.at({b, i, j}) = i == j ? 10.0 + b
                          : spd  ? 1.0 / (1 + i + j)
                                 : 0.5 * (i - 2 * j) + b;
}

class Linalg : public ::testing::TestWithParam<Layout> {};

TEST_P(Linalg, SolveInvDetAndCholeskyInEveryLayout) {
  Arr<double> a({2, 3, 3}, GetParam()), rhs({2, 3, 2}, GetParam());
  fill(a, false);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 2; ++j)
        rhs.at({b, i, j}) = i - j + b;
  Arr<double> x({2, 3, 2}, GetParam()), inv({2, 3, 3}, GetParam()),
      det({2}, GetParam());
  EXPECT_EQ(_idtr_linalg_f64(1, 0, a.rank(), a.d(), rhs.rank(), rhs.d(),
                             x.rank(), x.d(), a.rank(), a.d(), a.rank(), a.d()),
            0);
  EXPECT_EQ(_idtr_linalg_f64(2, 0, a.rank(), a.d(), a.rank(), a.d(), inv.rank(),
                             inv.d(), a.rank(), a.d(), a.rank(), a.d()),
            0);
  EXPECT_EQ(_idtr_linalg_f64(3, 0, a.rank(), a.d(), a.rank(), a.d(), det.rank(),
                             det.d(), a.rank(), a.d(), a.rank(), a.d()),
            0);
  for (int64_t b = 0; b < 2; ++b) {
    // A x = rhs, A inv = I, det = the product of the pivots of A inv's
    // inverse: det(A) det(inv) = 1 is checked through A inv.
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 2; ++j) {
        double s = 0;
        for (int64_t l = 0; l < 3; ++l)
          s += a.at({b, i, l}) * x.at({b, l, j});
        EXPECT_NEAR(s, rhs.at({b, i, j}), 1e-12);
      }
      for (int64_t j = 0; j < 3; ++j) {
        double s = 0;
        for (int64_t l = 0; l < 3; ++l)
          s += a.at({b, i, l}) * inv.at({b, l, j});
        EXPECT_NEAR(s, i == j ? 1.0 : 0.0, 1e-12);
      }
    }
    const double m[3][3] = {
        {a.at({b, 0, 0}), a.at({b, 0, 1}), a.at({b, 0, 2})},
        {a.at({b, 1, 0}), a.at({b, 1, 1}), a.at({b, 1, 2})},
        {a.at({b, 2, 0}), a.at({b, 2, 1}), a.at({b, 2, 2})}};
    const double want = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
                        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    EXPECT_NEAR(det.at({b}), want, 1e-9 * std::abs(want));
  }
  // Cholesky of the SPD stack: L lower triangular with L L^T = A.
  fill(a, true);
  Arr<double> l({2, 3, 3}, GetParam());
  EXPECT_EQ(_idtr_linalg_f64(0, 0, a.rank(), a.d(), a.rank(), a.d(), l.rank(),
                             l.d(), a.rank(), a.d(), a.rank(), a.d()),
            0);
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 3; ++j) {
        if (j > i)
          EXPECT_EQ(l.at({b, i, j}), 0.0);
        double s = 0;
        for (int64_t k = 0; k < 3; ++k)
          s += l.at({b, i, k}) * l.at({b, j, k});
        EXPECT_NEAR(s, a.at({b, i, j}), 1e-12);
      }
}

INSTANTIATE_TEST_SUITE_P(Layouts, Linalg,
                         ::testing::Values(Layout::Dense, Layout::Strided,
                                           Layout::Reversed),
                         [](const auto &info) {
                           return std::string(layout_name(info.param));
                         });

TEST(LinalgStatus, CountsTheMatricesTheRoutineFailedOn) {
  // Two singular matrices and an invertible one: inv fails on two.
  Arr<double> a({3, 2, 2}), out({3, 2, 2});
  for (int64_t b = 0; b < 3; ++b)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 2; ++j)
        a.at({b, i, j}) = b == 1 ? (i == j) : 1.0;
  EXPECT_EQ(_idtr_linalg_f64(2, 0, a.rank(), a.d(), a.rank(), a.d(), out.rank(),
                             out.d(), a.rank(), a.d(), a.rank(), a.d()),
            2);
  EXPECT_EQ(out.at({1, 0, 0}), 1.0);
  EXPECT_EQ(out.at({1, 0, 1}), 0.0);
}

TEST(LinalgSvd, ComplexSingularValuesAreRealAndDescending) {
  using C = std::complex<double>;
  Arr<C> a({2, 3});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      a.at({i, j}) = C(i + j, i - j);
  Arr<double> s({2});
  EXPECT_EQ(_idtr_linalg_c128(9, 0, a.rank(), a.d(), a.rank(), a.d(), s.rank(),
                              s.d(), a.rank(), a.d(), a.rank(), a.d()),
            0);
  // The squared singular values sum to the squared Frobenius norm.
  double fro = 0;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      fro += std::norm(a.at({i, j}));
  EXPECT_GE(s.at({0}), s.at({1}));
  EXPECT_NEAR(s.at({0}) * s.at({0}) + s.at({1}) * s.at({1}), fro, 1e-10);
}

} // namespace

namespace {

/// Element (i, j) of the n x n test matrix: diagonally dominant, not
/// symmetric (symmetric positive definite when `spd`).
double matrixElement(int64_t i, int64_t j, int64_t n, bool spd) {
  if (i == j)
    return 2.0 * n + 1;
  return spd ? 1.0 / (1 + i + j) : 0.25 * ((3 * i + 5 * j) % 7) - 0.75;
}

/// _idtr_matrix_linalg_f64 (ScaLAPACK on a matrix split on rows) on every
/// rank count, block size and matrix size (ranks owning no rows, one
/// block, many blocks per rank): this rank's rows of the results equal
/// those of LAPACK on the whole matrix (_idtr_linalg_f64), and the
/// determinants agree on every rank.
class MatrixLinalg
    : public ::testing::TestWithParam<std::tuple<int64_t, const char *>> {};

TEST_P(MatrixLinalg, RowsEqualLapackOnTheWholeMatrix) {
  auto [n, nb] = GetParam();
  setenv("IDTR_SCALAPACK_NB", nb, 1);
  const int p = nprocs(), me = rank();
  Part part = default_part(n, p);
  const int64_t first = part.off[me], count = part.size[me];
  for (bool spd : {false, true}) {
    Arr<double> whole({n, n}), rows({count, n}), rhs({count, 2}),
        wholeRhs({n, 2});
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < n; ++j)
        whole.at({i, j}) = matrixElement(i, j, n, spd);
      for (int64_t j = 0; j < 2; ++j)
        wholeRhs.at({i, j}) = double(i - 3 * j);
    }
    for (int64_t i = 0; i < count; ++i) {
      for (int64_t j = 0; j < n; ++j)
        rows.at({i, j}) = whole.at({first + i, j});
      for (int64_t j = 0; j < 2; ++j)
        rhs.at({i, j}) = wholeRhs.at({first + i, j});
    }
    // (cholesky, solve, inv; the matrix results' rows.)
    for (int64_t kind : {int64_t(0), int64_t(1), int64_t(2)}) {
      if (kind == 0 && !spd)
        continue;
      int64_t cols = kind == 1 ? 2 : n;
      Arr<double> mine({count, cols}), want({n, cols});
      EXPECT_EQ(_idtr_matrix_linalg_f64(1, kind, 0, rows.rank(), rows.d(),
                                        rhs.rank(), rhs.d(), mine.rank(),
                                        mine.d(), mine.rank(), mine.d(),
                                        mine.rank(), mine.d()),
                0);
      EXPECT_EQ(_idtr_linalg_f64(kind, 0, whole.rank(), whole.d(),
                                 wholeRhs.rank(), wholeRhs.d(), want.rank(),
                                 want.d(), want.rank(), want.d(), want.rank(),
                                 want.d()),
                0);
      for (int64_t i = 0; i < count; ++i)
        for (int64_t j = 0; j < cols; ++j)
          EXPECT_NEAR(mine.at({i, j}), want.at({first + i, j}), 1e-12)
              << "kind " << kind << " row " << first + i << " column " << j;
    }
    if (spd) {
      // eigh: the eigenvalues (every rank) and this rank's rows of
      // eigenvectors with A V = V diag(w); eigvalsh: the same values.
      Arr<double> w({n}), wv({n}), v({count, n}), want({n});
      EXPECT_EQ(_idtr_matrix_linalg_f64(1, 5, 0, rows.rank(), rows.d(),
                                        rows.rank(), rows.d(), w.rank(), w.d(),
                                        v.rank(), v.d(), v.rank(), v.d()),
                0);
      EXPECT_EQ(_idtr_matrix_linalg_f64(
                    1, 6, 0, rows.rank(), rows.d(), rows.rank(), rows.d(),
                    wv.rank(), wv.d(), wv.rank(), wv.d(), wv.rank(), wv.d()),
                0);
      _idtr_linalg_f64(6, 0, whole.rank(), whole.d(), whole.rank(), whole.d(),
                       want.rank(), want.d(), want.rank(), want.d(),
                       want.rank(), want.d());
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_NEAR(w.at({i}), want.at({i}), 1e-10 * n);
        EXPECT_NEAR(wv.at({i}), want.at({i}), 1e-10 * n);
      }
      // (Row r of A V = V diag(w) needs all of V: gathered by rows.)
      std::vector<double> all(static_cast<size_t>(n * n));
      std::vector<int> counts(nprocs()), displs(nprocs());
      for (int r = 0; r < nprocs(); ++r) {
        counts[r] = static_cast<int>(part.size[r] * n);
        displs[r] = static_cast<int>(part.off[r] * n);
      }
      std::vector<double> mineRows(static_cast<size_t>(count * n));
      for (int64_t i = 0; i < count; ++i)
        for (int64_t j = 0; j < n; ++j)
          mineRows[i * n + j] = v.at({i, j});
      MPI_Allgatherv(mineRows.data(), static_cast<int>(count * n), MPI_DOUBLE,
                     all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                     MPI_COMM_WORLD);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j) {
          double av = 0;
          for (int64_t l = 0; l < n; ++l)
            av += whole.at({i, l}) * all[l * n + j];
          EXPECT_NEAR(av, all[i * n + j] * w.at({j}), 1e-9 * n);
        }
    }
    Arr<double> det({}), sign({}), logabs({}), wantDet({}), wantSign({}),
        wantLog({});
    EXPECT_EQ(_idtr_matrix_linalg_f64(1, 3, 0, rows.rank(), rows.d(),
                                      rows.rank(), rows.d(), det.rank(),
                                      det.d(), det.rank(), det.d(), det.rank(),
                                      det.d()),
              0);
    EXPECT_EQ(_idtr_matrix_linalg_f64(1, 4, 0, rows.rank(), rows.d(),
                                      rows.rank(), rows.d(), sign.rank(),
                                      sign.d(), logabs.rank(), logabs.d(),
                                      logabs.rank(), logabs.d()),
              0);
    _idtr_linalg_f64(3, 0, whole.rank(), whole.d(), whole.rank(), whole.d(),
                     wantDet.rank(), wantDet.d(), whole.rank(), whole.d(),
                     whole.rank(), whole.d());
    _idtr_linalg_f64(4, 0, whole.rank(), whole.d(), whole.rank(), whole.d(),
                     wantSign.rank(), wantSign.d(), wantLog.rank(), wantLog.d(),
                     whole.rank(), whole.d());
    EXPECT_NEAR(det.at({}), wantDet.at({}), 1e-9 * std::abs(wantDet.at({})));
    EXPECT_EQ(sign.at({}), wantSign.at({}));
    EXPECT_NEAR(logabs.at({}), wantLog.at({}), 1e-12 * n);
  }
  unsetenv("IDTR_SCALAPACK_NB");
}

INSTANTIATE_TEST_SUITE_P(
    SizesAndBlocks, MatrixLinalg,
    ::testing::Combine(::testing::Values(int64_t(0), int64_t(1), int64_t(2),
                                         int64_t(7), int64_t(20)),
                       ::testing::Values("1", "3", "64")));

/// Reduced QR (kind 7), singular values (kind 9) and reduced SVD (kind 8)
/// of an m x n matrix split on rows. QR: this rank's rows
/// of Q (the first k = min(m, n) of n columns) and of R (the default
/// partition of k rows), gathered: Q R = A, Q^T Q = I, R upper triangular,
/// and R equal to LAPACK's on the whole matrix up to the signs of its rows.
class MatrixQr : public ::testing::TestWithParam<
                     std::tuple<std::pair<int64_t, int64_t>, const char *>> {};

TEST_P(MatrixQr, FactorsEqualLapackUpToSigns) {
  auto [shape, nb] = GetParam();
  auto [m, n] = shape;
  setenv("IDTR_SCALAPACK_NB", nb, 1);
  const int p = nprocs(), me = rank();
  const int64_t k = std::min(m, n);
  Part part = default_part(m, p), rPart = default_part(k, p);
  const int64_t first = part.off[me], count = part.size[me];
  Arr<double> whole({m, n}), rows({count, n}), q({count, n}),
      r({rPart.size[me], n});
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      whole.at({i, j}) = matrixElement(i, j, std::max(m, n), false) +
                         (i == j ? 0.0 : 0.1 * ((i * j) % 5));
  for (int64_t i = 0; i < count; ++i)
    for (int64_t j = 0; j < n; ++j)
      rows.at({i, j}) = whole.at({first + i, j});
  EXPECT_EQ(_idtr_matrix_linalg_f64(1, 7, 0, rows.rank(), rows.d(), rows.rank(),
                                    rows.d(), q.rank(), q.d(), r.rank(), r.d(),
                                    r.rank(), r.d()),
            0);
  // (Every rank's rows of Q and R, gathered.)
  auto gather = [&](Arr<double> &local, const Part &pt, int64_t rowsAll,
                    int64_t keep) {
    std::vector<double> mine, all(static_cast<size_t>(rowsAll * keep));
    for (int64_t i = 0; i < pt.size[me]; ++i)
      for (int64_t j = 0; j < keep; ++j)
        mine.push_back(local.at({i, j}));
    std::vector<int> counts(p), displs(p);
    for (int s = 0; s < p; ++s) {
      counts[s] = static_cast<int>(pt.size[s] * keep);
      displs[s] = static_cast<int>(pt.off[s] * keep);
    }
    MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE,
                   all.data(), counts.data(), displs.data(), MPI_DOUBLE,
                   MPI_COMM_WORLD);
    return all;
  };
  std::vector<double> qa = gather(q, part, m, k), ra = gather(r, rPart, k, n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double qr = 0;
      for (int64_t l = 0; l < k; ++l)
        qr += qa[i * k + l] * ra[l * n + j];
      EXPECT_NEAR(qr, whole.at({i, j}), 1e-11 * std::max(m, n) * 4)
          << "(Q R)[" << i << ", " << j << "]";
    }
  for (int64_t a = 0; a < k; ++a)
    for (int64_t b = 0; b < k; ++b) {
      double dot = 0;
      for (int64_t i = 0; i < m; ++i)
        dot += qa[i * k + a] * qa[i * k + b];
      EXPECT_NEAR(dot, a == b ? 1.0 : 0.0, 1e-12 * std::max<int64_t>(m, 1) * 4);
    }
  // The singular values (kind 9) on every rank, as LAPACK's.
  Arr<double> s({n});
  EXPECT_EQ(_idtr_matrix_linalg_f64(1, 9, 0, rows.rank(), rows.d(), rows.rank(),
                                    rows.d(), s.rank(), s.d(), s.rank(), s.d(),
                                    s.rank(), s.d()),
            0);
  if (k > 0) {
    Arr<double> wantSk({k});
    EXPECT_EQ(_idtr_linalg_f64(9, 0, whole.rank(), whole.d(), whole.rank(),
                               whole.d(), wantSk.rank(), wantSk.d(),
                               wantSk.rank(), wantSk.d(), wantSk.rank(),
                               wantSk.d()),
              0);
    for (int64_t i = 0; i < k; ++i)
      EXPECT_NEAR(s.at({i}), wantSk.at({i}), 1e-11 * std::max(m, n) * 8)
          << "singular value " << i;
  }
  // The reduced SVD (kind 8): this rank's rows of U (first k of n
  // columns) and of V^H (the default partition of k rows), gathered:
  // U diag(s) V^H = A, the same values.
  Arr<double> u({count, n}), sv({n}), vh({rPart.size[me], n});
  EXPECT_EQ(_idtr_matrix_linalg_f64(1, 8, 0, rows.rank(), rows.d(), rows.rank(),
                                    rows.d(), u.rank(), u.d(), sv.rank(),
                                    sv.d(), vh.rank(), vh.d()),
            0);
  std::vector<double> ua = gather(u, part, m, k), va = gather(vh, rPart, k, n);
  for (int64_t i = 0; i < k; ++i)
    EXPECT_NEAR(sv.at({i}), s.at({i}), 1e-11 * std::max(m, n) * 8);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double usv = 0;
      for (int64_t l = 0; l < k; ++l)
        usv += ua[i * k + l] * sv.at({l}) * va[l * n + j];
      EXPECT_NEAR(usv, whole.at({i, j}), 1e-11 * std::max(m, n) * 8)
          << "(U S V^H)[" << i << ", " << j << "]";
    }
  // LAPACK's R (m x n input: Q m x k, R k x n).
  Arr<double> wantQ({m, k}), wantR({k, n});
  EXPECT_EQ(_idtr_linalg_f64(7, 0, whole.rank(), whole.d(), whole.rank(),
                             whole.d(), wantQ.rank(), wantQ.d(), wantR.rank(),
                             wantR.d(), wantR.rank(), wantR.d()),
            0);
  for (int64_t i = 0; i < k; ++i) {
    double sign = wantR.at({i, i}) * ra[i * n + i] < 0 ? -1.0 : 1.0;
    for (int64_t j = 0; j < n; ++j)
      EXPECT_NEAR(ra[i * n + j], j < i ? 0.0 : sign * wantR.at({i, j}),
                  1e-11 * std::max(m, n) * 4)
          << "R[" << i << ", " << j << "]";
  }
  unsetenv("IDTR_SCALAPACK_NB");
}

INSTANTIATE_TEST_SUITE_P(
    ShapesAndBlocks, MatrixQr,
    ::testing::Combine(::testing::Values(std::pair<int64_t, int64_t>{0, 3},
                                         std::pair<int64_t, int64_t>{3, 0},
                                         std::pair<int64_t, int64_t>{1, 1},
                                         std::pair<int64_t, int64_t>{2, 5},
                                         std::pair<int64_t, int64_t>{7, 7},
                                         std::pair<int64_t, int64_t>{20, 6},
                                         std::pair<int64_t, int64_t>{6, 20}),
                       ::testing::Values("1", "3", "64")));

TEST(MatrixLinalgFailure, SingularMatrixFailsOnEveryRank) {
  const int64_t n = 5;
  Part part = default_part(n, nprocs());
  const int64_t count = part.size[rank()];
  Arr<double> rows({count, n}, Layout::Dense, 1.0), out({count, n});
  // (All ones: rank 1.)
  EXPECT_EQ(_idtr_matrix_linalg_f64(1, 2, 0, rows.rank(), rows.d(), rows.rank(),
                                    rows.d(), out.rank(), out.d(), out.rank(),
                                    out.d(), out.rank(), out.d()),
            1);
  Arr<double> det({});
  EXPECT_EQ(_idtr_matrix_linalg_f64(1, 3, 0, rows.rank(), rows.d(), rows.rank(),
                                    rows.d(), det.rank(), det.d(), det.rank(),
                                    det.d(), det.rank(), det.d()),
            0);
  EXPECT_EQ(det.at({}), 0.0);
}

} // namespace
