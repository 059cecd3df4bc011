// Dense linear algebra of ndarray.linalg on stacks of matrices: LAPACKE
// (row-major) on a dense copy of each matrix of the stack, results written
// into the output views. Not collective: distributed inputs are gathered by
// the compiler first. Returns the number of matrices the routine failed on.

#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
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

/// Matrix `b` of a stack view (rank >= 2, or the batch prefix of a lower
/// rank result) as a dense row-major copy.
template <class T>
std::vector<T> read_matrix(const View<T> &v, int64_t batch, int64_t rows,
                           int64_t cols) {
  std::vector<T> m(rows * cols);
  const T *p = v.base;
  int nb = v.rank - 2;
  for (int k = nb - 1; k >= 0; --k) {
    p += (batch % v.sizes[k]) * v.strides[k];
    batch /= v.sizes[k];
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m[i * cols + j] = p[i * v.strides[nb] + j * v.strides[nb + 1]];
  return m;
}

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

/// Writes the dense row-major `rows` x `cols` matrix `m` (row stride `ld`)
/// into batch index `batch` of `v` (its last two dimensions), or a vector
/// (its last dimension) when `v` has one dimension after the batch ones.
template <class T, class S>
void write(const View<T> &v, int nb, int64_t batch, const S *m, int64_t rows,
           int64_t cols, int64_t ld) {
  T *p = batch_base(v, nb, batch);
  if (v.rank == nb + 1) {
    for (int64_t j = 0; j < cols; ++j)
      p[j * v.strides[nb]] = T(m[j]);
    return;
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      p[i * v.strides[nb] + j * v.strides[nb + 1]] = T(m[i * ld + j]);
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
void lu_logdet(const std::vector<T> &lu, const std::vector<lapack_int> &ipiv,
               int64_t n, T &sign, real_t<T> &logabs) {
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
  const int lo = LAPACK_ROW_MAJOR;
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<T> x = read_matrix(a, b, m, n);
    lapack_int info = 0;
    switch (kind) {
    case kCholesky: {
      View<T> out = make_view<T>("l", q0, e0, Use::Out);
      if (n > 0)
        info = potrf<T>(lo, flag ? 'U' : 'L', n, x.data(), n);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (flag ? j < i : j > i)
            x[i * n + j] = T(0);
      write(out, nb, b, x.data(), n, n, n);
      break;
    }
    case kSolve: {
      View<T> rhs = make_view<T>("b", r1, d1, Use::In);
      View<T> out = make_view<T>("x", q0, e0, Use::Out);
      int64_t nrhs = rhs.sizes[nb + 1];
      std::vector<T> y = read_matrix(rhs, b, n, nrhs);
      std::vector<lapack_int> ipiv(n);
      if (n > 0 && nrhs > 0)
        info = gesv<T>(lo, n, nrhs, x.data(), n, ipiv.data(), y.data(), nrhs);
      write(out, nb, b, y.data(), n, nrhs, nrhs);
      break;
    }
    case kInv: {
      View<T> out = make_view<T>("inv", q0, e0, Use::Out);
      std::vector<lapack_int> ipiv(n);
      if (n > 0) {
        info = getrf<T>(lo, n, n, x.data(), n, ipiv.data());
        if (info == 0)
          info = getri<T>(lo, n, x.data(), n, ipiv.data());
      }
      write(out, nb, b, x.data(), n, n, n);
      break;
    }
    case kDet:
    case kSlogdet: {
      std::vector<lapack_int> ipiv(n);
      if (n > 0)
        getrf<T>(lo, n, n, x.data(), n, ipiv.data());
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
      std::vector<R> w(n);
      if (n > 0)
        info = eigh_lapack<T>(lo, kind == kEigh ? 'V' : 'N', 'L', n, x.data(),
                              n, w.data());
      View<R> values = make_view<R>("w", q0, e0, Use::Out);
      write(values, nb, b, w.data(), 1, n, n);
      if (kind == kEigh)
        write(make_view<T>("v", q1, e1, Use::Out), nb, b, x.data(), n, n, n);
      break;
    }
    case kQr: {
      // Q: m x q, R: q x n with q = k (reduced) or m (complete).
      const int64_t q = flag ? m : k, cols = std::max(n, q);
      std::vector<T> f(m * cols, T(0)), tau(std::max<int64_t>(k, 1));
      for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j)
          f[i * cols + j] = x[i * n + j];
      if (m > 0 && n > 0)
        info = geqrf<T>(lo, m, n, f.data(), cols, tau.data());
      std::vector<T> r(q * n, T(0));
      for (int64_t i = 0; i < std::min(q, m); ++i)
        for (int64_t j = i; j < n; ++j)
          r[i * n + j] = f[i * cols + j];
      if (m > 0 && q > 0 && info == 0)
        info = orgqr<T>(lo, m, q, k, f.data(), cols, tau.data());
      write(make_view<T>("q", q0, e0, Use::Out), nb, b, f.data(), m, q, cols);
      write(make_view<T>("r", q1, e1, Use::Out), nb, b, r.data(), q, n, n);
      break;
    }
    case kSvd:
    case kSvdvals: {
      const bool vectors = kind == kSvd, full = vectors && flag;
      const int64_t ucols = full ? m : k, vrows = full ? n : k;
      std::vector<R> s(std::max<int64_t>(k, 1));
      std::vector<T> u(vectors ? std::max<int64_t>(m * ucols, 1) : 1),
          vt(vectors ? std::max<int64_t>(vrows * n, 1) : 1);
      if (k > 0)
        info = gesdd<T>(lo,
                        !vectors ? 'N'
                        : full   ? 'A'
                                 : 'S',
                        m, n, x.data(), n, s.data(), u.data(),
                        std::max<int64_t>(ucols, 1), vt.data(),
                        std::max<int64_t>(n, 1));
      else if (full) {
        // (No singular values: U and V^H are identities.)
        for (int64_t i = 0; i < m; ++i)
          u[i * ucols + i] = T(1);
        for (int64_t i = 0; i < n; ++i)
          vt[i * n + i] = T(1);
      }
      if (vectors) {
        write(make_view<T>("u", q0, e0, Use::Out), nb, b, u.data(), m, ucols,
              ucols);
        write(make_view<R>("s", q1, e1, Use::Out), nb, b, s.data(), 1, k, k);
        write(make_view<T>("vh", q2, e2, Use::Out), nb, b, vt.data(), vrows, n,
              n);
      } else {
        write(make_view<R>("s", q0, e0, Use::Out), nb, b, s.data(), 1, k, k);
      }
      break;
    }
    default:
      fail("unknown linalg kind %" PRId64, kind);
    }
    if (info < 0)
      fail("LAPACK rejected argument %d", -static_cast<int>(info));
    failed += info > 0;
  }
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
