// Dense linear algebra of ndarray.linalg on stacks of matrices: LAPACKE
// on a column-major copy of each matrix of the stack (LAPACK's layout: no
// second transposition inside LAPACKE), results written into the output
// views. Not collective: distributed inputs are gathered by
// the compiler first. Returns the number of matrices the routine failed on.

#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <memory>
#include <type_traits>
#include <vector>

#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

namespace idtr::detail {
namespace {

// The kinds of ndarray.linalg (ndarray::LinalgKind).
enum Kind : int64_t {
  kCholesky = 0,
  kSolve,
  kInv,
  kDet,
  kSlogdet,
  kEigh,
  kEigvalsh,
  kQr,
  kSvd,
  kSvdvals
};

template <class T> struct Real {
  using type = T;
};
template <class T> struct Real<std::complex<T>> {
  using type = T;
};
template <class T> using real_t = typename Real<T>::type;

/// The element pointer of batch index `batch` in view `v` whose first
/// `nb` dimensions are the batch dimensions.
template <class T> T *batch_base(const View<T> &v, int nb, int64_t batch) {
  T *p = v.base;
  for (int k = nb - 1; k >= 0; --k) {
    p += (batch % v.sizes[k]) * v.strides[k];
    batch /= v.sizes[k];
  }
  return p;
}

/// Calls fn(i, j) for every pair of [0, rows) x [0, cols) in square tiles:
/// a transposing copy then reads and writes each cache line of a tile
/// while it stays in cache (row by row or column by column, one side of a
/// large matrix would miss on every element).
template <class F> void forEachTile(int64_t rows, int64_t cols, F fn) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile)
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t i1 = std::min(rows, i0 + kTile),
                    j1 = std::min(cols, j0 + kTile);
      for (int64_t j = j0; j < j1; ++j)
        for (int64_t i = i0; i < i1; ++i)
          fn(i, j);
    }
}

/// Matrix `batch` of a stack view (rank >= 2) copied into `m` in
/// column-major order with leading dimension `rows`: LAPACK's own layout,
/// so that LAPACKE does not transpose again.
template <class T>
T *read_matrix(const View<T> &v, int64_t batch, int64_t rows, int64_t cols,
               T *m) {
  const int nb = v.rank - 2;
  const T *p = batch_base(v, nb, batch);
  const int64_t rs = v.strides[nb], cs = v.strides[nb + 1];
  forEachTile(rows, cols, [&](int64_t i, int64_t j) {
    m[i + j * rows] = p[i * rs + j * cs];
  });
  return m;
}

/// Writes `value(i, j)` for the `rows` x `cols` matrix at batch index
/// `batch` of `v` (its last two dimensions), or `value(0, j)` for a vector
/// (its last dimension) when `v` has one dimension after the batch ones.
template <class T, class F>
void write_with(const View<T> &v, int nb, int64_t batch, int64_t rows,
                int64_t cols, F value) {
  T *p = batch_base(v, nb, batch);
  if (v.rank == nb + 1) {
    for (int64_t j = 0; j < cols; ++j)
      p[j * v.strides[nb]] = T(value(0, j));
    return;
  }
  const int64_t rs = v.strides[nb], cs = v.strides[nb + 1];
  forEachTile(rows, cols, [&](int64_t i, int64_t j) {
    p[i * rs + j * cs] = T(value(i, j));
  });
}

/// Writes the column-major `rows` x `cols` matrix `m` (leading dimension
/// `ld`) into `v` as write_with does.
template <class T, class S>
void write(const View<T> &v, int nb, int64_t batch, const S *m, int64_t rows,
           int64_t cols, int64_t ld) {
  write_with(v, nb, batch, rows, cols,
             [&](int64_t i, int64_t j) { return m[i + j * ld]; });
}

// Per element type: the LAPACKE routine of each letter.
#define IDTR_LAPACK(NAME)                                                      \
  template <class T, class... Args> lapack_int NAME(Args... args) {            \
    if constexpr (std::is_same_v<T, float>)                                    \
      return LAPACKE_s##NAME(args...);                                         \
    else if constexpr (std::is_same_v<T, double>)                              \
      return LAPACKE_d##NAME(args...);                                         \
    else if constexpr (std::is_same_v<T, std::complex<float>>)                 \
      return LAPACKE_c##NAME(args...);                                         \
    else                                                                       \
      return LAPACKE_z##NAME(args...);                                         \
  }
IDTR_LAPACK(potrf)
IDTR_LAPACK(gesv)
IDTR_LAPACK(getrf)
IDTR_LAPACK(getri)
IDTR_LAPACK(geqrf)
IDTR_LAPACK(gesdd)
#undef IDTR_LAPACK

template <class T, class... Args> lapack_int eigh_lapack(Args... args) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_ssyevd(args...);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dsyevd(args...);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return LAPACKE_cheevd(args...);
  else
    return LAPACKE_zheevd(args...);
}

template <class T, class... Args> lapack_int orgqr(Args... args) {
  if constexpr (std::is_same_v<T, float>)
    return LAPACKE_sorgqr(args...);
  else if constexpr (std::is_same_v<T, double>)
    return LAPACKE_dorgqr(args...);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return LAPACKE_cungqr(args...);
  else
    return LAPACKE_zungqr(args...);
}

/// log|det| and the sign (a unit complex number for complex matrices) of
/// an LU factorization with pivots `ipiv`.
template <class T>
void lu_logdet(const T *lu, const lapack_int *ipiv, int64_t n, T &sign,
               real_t<T> &logabs) {
  sign = T(1);
  logabs = 0;
  for (int64_t i = 0; i < n; ++i) {
    T d = lu[i * n + i];
    real_t<T> a = std::abs(d);
    if (a == 0) {
      sign = T(0);
      logabs = -INFINITY;
      return;
    }
    // (A real NaN pivot keeps the sign, as numpy's: only log|det| is NaN.)
    if constexpr (std::is_floating_point_v<T>)
      sign = d < 0 ? -sign : sign;
    else
      sign *= d / a;
    logabs += std::log(a);
    if (ipiv[i] != i + 1)
      sign = -sign;
  }
}

template <class T>
int64_t linalg(const char *entry, int64_t kind, int64_t flag, int64_t r0,
               void *d0, int64_t r1, void *d1, int64_t q0, void *e0, int64_t q1,
               void *e1, int64_t q2, void *e2) {
  using R = real_t<T>;
  EntryScope es(entry);
  View<T> a = make_view<T>("a", r0, d0, Use::In);
  if (a.rank < 2)
    fail("argument 'a': a stack of matrices needs rank >= 2, not %d", a.rank);
  const int nb = a.rank - 2;
  const int64_t m = a.sizes[nb], n = a.sizes[nb + 1];
  int64_t batches = 1;
  for (int k = 0; k < nb; ++k)
    batches *= a.sizes[k];
  const int64_t k = std::min(m, n);
  int64_t failed = 0;
  const int lo = LAPACK_COL_MAJOR;
  // NaNs in the input give NaNs in the result, as numpy's, not an argument
  // error from LAPACKE's NaN check.
  LAPACKE_set_nancheck(0);
  // (Leading dimensions are at least 1, as LAPACK requires, also for empty
  // matrices.)
  const lapack_int ldm = std::max<int64_t>(m, 1), ldn = std::max<int64_t>(n, 1);
  for (int64_t b = 0; b < batches; ++b) {
    // QR factors in place into m x max(n, q) columns (Q may have more
    // columns than `a`).
    const int64_t q = kind == kQr && flag ? m : k;
    T *x = read_matrix(
        a, b, m, n,
        scratch<T>(kScratchMatrix, m * (kind == kQr ? std::max(n, q) : n)));
    lapack_int info = 0;
    switch (kind) {
    case kCholesky: {
      View<T> out = make_view<T>("l", q0, e0, Use::Out);
      if (n > 0)
        info = potrf<T>(lo, flag ? 'U' : 'L', n, x, ldn);
      write_with(out, nb, b, n, n, [&](int64_t i, int64_t j) {
        return (flag ? j < i : j > i) ? T(0) : x[i + j * n];
      });
      break;
    }
    case kSolve: {
      View<T> rhs = make_view<T>("b", r1, d1, Use::In);
      View<T> out = make_view<T>("x", q0, e0, Use::Out);
      int64_t nrhs = rhs.sizes[nb + 1];
      T *y = read_matrix(rhs, b, n, nrhs, scratch<T>(kScratchSecond, n * nrhs));
      lapack_int *ipiv = scratch<lapack_int>(kScratchThird, n);
      if (n > 0 && nrhs > 0)
        info = gesv<T>(lo, n, nrhs, x, ldn, ipiv, y, ldn);
      write(out, nb, b, y, n, nrhs, n);
      break;
    }
    case kInv: {
      View<T> out = make_view<T>("inv", q0, e0, Use::Out);
      lapack_int *ipiv = scratch<lapack_int>(kScratchThird, n);
      if (n > 0) {
        info = getrf<T>(lo, n, n, x, ldn, ipiv);
        if (info == 0)
          info = getri<T>(lo, n, x, ldn, ipiv);
      }
      write(out, nb, b, x, n, n, n);
      break;
    }
    case kDet:
    case kSlogdet: {
      lapack_int *ipiv = scratch<lapack_int>(kScratchThird, n);
      if (n > 0)
        getrf<T>(lo, n, n, x, ldn, ipiv);
      T sign;
      R logabs;
      lu_logdet(x, ipiv, n, sign, logabs);
      View<T> out = make_view<T>("det", q0, e0, Use::Out);
      if (kind == kDet) {
        // (The product itself, as numpy: exp(log|det|) would round.)
        T det = T(1);
        for (int64_t i = 0; i < n; ++i)
          det *= ipiv[i] != i + 1 ? -x[i * n + i] : x[i * n + i];
        *batch_base(out, nb, b) = det;
      } else {
        View<R> out1 = make_view<R>("logabsdet", q1, e1, Use::Out);
        *batch_base(out, nb, b) = sign;
        *batch_base(out1, nb, b) = logabs;
      }
      break;
    }
    case kEigh:
    case kEigvalsh: {
      R *w = scratch<R>(kScratchSecond, n);
      if (n > 0)
        info = eigh_lapack<T>(lo, kind == kEigh ? 'V' : 'N', 'L', n, x, ldn, w);
      View<R> values = make_view<R>("w", q0, e0, Use::Out);
      write(values, nb, b, w, 1, n, 1);
      if (kind == kEigh)
        write(make_view<T>("v", q1, e1, Use::Out), nb, b, x, n, n, n);
      break;
    }
    case kQr: {
      // Q: m x q, R: q x n with q = k (reduced) or m (complete).
      T *tau = scratch<T>(kScratchSecond, k);
      if (m > 0 && n > 0)
        info = geqrf<T>(lo, m, n, x, ldm, tau);
      // R (the upper triangle of the factored matrix) before orgqr
      // overwrites it with Q.
      write_with(make_view<T>("r", q1, e1, Use::Out), nb, b, q, n,
                 [&](int64_t i, int64_t j) {
                   return i <= j && i < m ? x[i + j * m] : T(0);
                 });
      // (Columns past a's are Q's too: set, as LAPACKE reads them.)
      if (q > n)
        std::fill(x + m * n, x + m * q, T(0));
      if (m > 0 && q > 0 && info == 0)
        info = orgqr<T>(lo, m, q, k, x, ldm, tau);
      write(make_view<T>("q", q0, e0, Use::Out), nb, b, x, m, q, m);
      break;
    }
    case kSvd:
    case kSvdvals: {
      const bool vectors = kind == kSvd, full = vectors && flag;
      const int64_t ucols = full ? m : k, vrows = full ? n : k;
      R *s = scratch<R>(kScratchSecond, k);
      T *u = vectors ? scratch<T>(kScratchThird, m * ucols) : nullptr;
      T *vt = vectors ? scratch<T>(kScratchFourth, vrows * n) : nullptr;
      const lapack_int ldu = vectors ? ldm : 1,
                       ldvt = vectors ? std::max<int64_t>(vrows, 1) : 1;
      if (k > 0)
        info = gesdd<T>(lo,
                        !vectors ? 'N'
                        : full   ? 'A'
                                 : 'S',
                        m, n, x, ldm, s, u, ldu, vt, ldvt);
      // (gesdd rejects a matrix with NaNs as an invalid argument A: numpy
      // reports that the SVD did not converge.)
      if (info == -5)
        info = 1;
      if (vectors && k == 0) {
        // (No singular values: U and V^H are identities when full, empty
        // otherwise.)
        write_with(make_view<T>("u", q0, e0, Use::Out), nb, b, m, ucols,
                   [](int64_t i, int64_t j) { return T(i == j); });
        write_with(make_view<T>("vh", q2, e2, Use::Out), nb, b, vrows, n,
                   [](int64_t i, int64_t j) { return T(i == j); });
      } else if (vectors) {
        write(make_view<T>("u", q0, e0, Use::Out), nb, b, u, m, ucols, ldu);
        write(make_view<T>("vh", q2, e2, Use::Out), nb, b, vt, vrows, n, ldvt);
      }
      write(make_view<R>("s", vectors ? q1 : q0, vectors ? e1 : e0, Use::Out),
            nb, b, s, 1, k, 1);
      break;
    }
    default:
      fail("unknown linalg kind %" PRId64, kind);
    }
    if (info < 0)
      fail("LAPACK rejected argument %d", -static_cast<int>(info));
    failed += info > 0;
  }
  trim_scratch();
  return failed;
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE_LINALG(S, T)                                               \
  IDTR_EXPORT int64_t _idtr_linalg_##S(int64_t kind, int64_t flag, M(a), M(b), \
                                       M(o0), M(o1), M(o2)) {                  \
    return linalg<T>("_idtr_linalg_" #S, kind, flag, A(a), A(b), A(o0), A(o1), \
                     A(o2));                                                   \
  }
IDTR_DEFINE_LINALG(f32, float)
IDTR_DEFINE_LINALG(f64, double)
IDTR_DEFINE_LINALG(c64, std::complex<float>)
IDTR_DEFINE_LINALG(c128, std::complex<double>)
