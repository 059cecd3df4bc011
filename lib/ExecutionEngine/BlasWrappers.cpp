//===- BlasWrappers.cpp - gemm of strided views for lowered code ----------===//
//
// `_imex_blas_gemm_{f32,f64,c64,c128}`, called by the code
// imex-linalg-to-blas emits: C += A B for the views A (m x k), B (k x n) and
// C (m x n), each given as its base buffer (a 0-d memref: allocated and
// aligned pointer, offset), an element offset and its row and column
// strides, then m, n and k. The views are passed to CBLAS ?gemm (row-major,
// transposed where a view's rows are contiguous); a view with no unit
// stride (or a zero or negative one) and an input overlapping C are packed
// first. Which BLAS: the library libimex_runner_utils links
// (IMEX_BLAS_LIBRARY at configure time, OpenBLAS by default).
//
// Threads: BLAS libraries start one thread per core, which oversubscribes
// the cores when every MPI rank does so. The first call sets the thread
// count of OpenBLAS to IMEX_BLAS_THREADS (default 1; the ranks are the
// parallelism).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <optional>
#include <vector>

extern "C" {
// CBLAS (declared here: the header differs between BLAS packages).
enum ImexCblasOrder { ImexCblasRowMajor = 101 };
enum ImexCblasTranspose { ImexCblasNoTrans = 111, ImexCblasTrans = 112 };
void cblas_sgemm(ImexCblasOrder, ImexCblasTranspose, ImexCblasTranspose, int,
                 int, int, float, const float *, int, const float *, int, float,
                 float *, int);
void cblas_dgemm(ImexCblasOrder, ImexCblasTranspose, ImexCblasTranspose, int,
                 int, int, double, const double *, int, const double *, int,
                 double, double *, int);
void cblas_cgemm(ImexCblasOrder, ImexCblasTranspose, ImexCblasTranspose, int,
                 int, int, const void *, const void *, int, const void *, int,
                 const void *, void *, int);
void cblas_zgemm(ImexCblasOrder, ImexCblasTranspose, ImexCblasTranspose, int,
                 int, int, const void *, const void *, int, const void *, int,
                 const void *, void *, int);
}

namespace {

void setThreadsOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    const char *value = std::getenv("IMEX_BLAS_THREADS");
    int threads = value ? std::atoi(value) : 1;
    if (threads < 1)
      return;
    using SetThreads = void (*)(int);
    if (auto set = reinterpret_cast<SetThreads>(
            dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
      set(threads);
  });
}

/// A strided matrix view: element (i, j) at p[i * rs + j * cs].
template <typename T> struct Matrix {
  T *p;
  int64_t rows, cols, rs, cs;

  Matrix transposed() const { return {p, cols, rows, cs, rs}; }

  /// The lowest and one past the highest address of an element.
  std::pair<const T *, const T *> span() const {
    const T *lo = p, *hi = p;
    for (int64_t s :
         {rows > 1 ? (rows - 1) * rs : 0, cols > 1 ? (cols - 1) * cs : 0})
      (s < 0 ? lo : hi) += s;
    return {lo, hi + 1};
  }
};

/// How BLAS (row-major) reads `m`: transposed or not, and the leading
/// dimension; none if `m` has no unit stride with a valid leading dimension.
template <typename T>
std::optional<std::pair<bool, int64_t>> getRowMajor(const Matrix<T> &m) {
  int64_t rows = std::max<int64_t>(m.rows, 1),
          cols = std::max<int64_t>(m.cols, 1);
  // (A unit dimension's stride is never used.)
  if (cols == 1 || m.cs == 1) {
    int64_t ld = rows == 1 ? cols : m.rs;
    if (ld >= cols)
      return std::pair(false, ld);
  }
  if (rows == 1 || m.rs == 1) {
    int64_t ld = cols == 1 ? rows : m.cs;
    if (ld >= rows)
      return std::pair(true, ld);
  }
  return std::nullopt;
}

/// A dense row-major copy of `m` in `storage`.
template <typename T>
Matrix<T> pack(const Matrix<T> &m, std::vector<T> &storage) {
  storage.resize(m.rows * m.cols);
  for (int64_t i = 0; i < m.rows; ++i)
    for (int64_t j = 0; j < m.cols; ++j)
      storage[i * m.cols + j] = m.p[i * m.rs + j * m.cs];
  return {storage.data(), m.rows, m.cols, m.cols, 1};
}

template <typename T> bool overlap(const Matrix<T> &a, const Matrix<T> &b) {
  auto [alo, ahi] = a.span();
  auto [blo, bhi] = b.span();
  return alo < bhi && blo < ahi;
}

template <typename T>
void callGemm(ImexCblasTranspose ta, ImexCblasTranspose tb, int m, int n, int k,
              const T *a, int lda, const T *b, int ldb, T *c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(ImexCblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 1.0f,
                c, ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(ImexCblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 1.0, c,
                ldc);
  } else {
    const T one(1);
    (std::is_same_v<T, std::complex<float>> ? cblas_cgemm : cblas_zgemm)(
        ImexCblasRowMajor, ta, tb, m, n, k, &one, a, lda, b, ldb, &one, c, ldc);
  }
}

/// C += A B.
template <typename T> void gemm(Matrix<T> a, Matrix<T> b, Matrix<T> c) {
  if (c.rows == 0 || c.cols == 0 || a.cols == 0)
    return;
  setThreadsOnce();
  // C must be read by rows: else compute C^T += B^T A^T.
  std::optional<std::pair<bool, int64_t>> cLayout = getRowMajor(c);
  if (cLayout && cLayout->first) {
    std::swap(a, b);
    a = a.transposed();
    b = b.transposed();
    c = c.transposed();
    cLayout = getRowMajor(c);
  }
  std::vector<T> aStorage, bStorage, cStorage;
  Matrix<T> target = c;
  if (!cLayout || cLayout->first) {
    c = pack(c, cStorage);
    cLayout = getRowMajor(c);
  }
  std::optional<std::pair<bool, int64_t>> aLayout = getRowMajor(a);
  if (!aLayout || overlap(a, target)) {
    a = pack(a, aStorage);
    aLayout = getRowMajor(a);
  }
  std::optional<std::pair<bool, int64_t>> bLayout = getRowMajor(b);
  if (!bLayout || overlap(b, target)) {
    b = pack(b, bStorage);
    bLayout = getRowMajor(b);
  }
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (std::max({m, n, k, aLayout->second, bLayout->second, cLayout->second}) >
      INT_MAX) {
    // (Beyond the 32-bit sizes of the BLAS ABI: plain loops.)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T sum = c.p[i * c.rs + j * c.cs];
        for (int64_t l = 0; l < k; ++l)
          sum += a.p[i * a.rs + l * a.cs] * b.p[l * b.rs + j * b.cs];
        c.p[i * c.rs + j * c.cs] = sum;
      }
  } else {
    callGemm<T>(aLayout->first ? ImexCblasTrans : ImexCblasNoTrans,
                bLayout->first ? ImexCblasTrans : ImexCblasNoTrans, m, n, k,
                a.p, aLayout->second, b.p, bLayout->second, c.p,
                cLayout->second);
  }
  if (!cStorage.empty())
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        target.p[i * target.rs + j * target.cs] = c.p[i * c.rs + j * c.cs];
}

} // namespace

// One view: the base buffer (allocated, aligned, offset: a 0-d memref as the
// LLVM lowering passes it), the view's offset and its row and column strides.
#define IMEX_VIEW(T, X)                                                        \
  T *, T *X##Base, int64_t, int64_t X##Offset, int64_t X##Rows, int64_t X##Cols
#define IMEX_DEFINE_GEMM(SUFFIX, T)                                            \
  extern "C" void _imex_blas_gemm_##SUFFIX(IMEX_VIEW(T, a), IMEX_VIEW(T, b),   \
                                           IMEX_VIEW(T, c), int64_t m,         \
                                           int64_t n, int64_t k) {             \
    gemm<T>({aBase + aOffset, m, k, aRows, aCols},                             \
            {bBase + bOffset, k, n, bRows, bCols},                             \
            {cBase + cOffset, m, n, cRows, cCols});                            \
  }
IMEX_DEFINE_GEMM(f32, float)
IMEX_DEFINE_GEMM(f64, double)
IMEX_DEFINE_GEMM(c64, std::complex<float>)
IMEX_DEFINE_GEMM(c128, std::complex<double>)
