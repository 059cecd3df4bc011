// Discrete Fourier transforms of ndarray.fft: FFTW's guru interface on
// every lane along one axis of a strided array (the other dimensions are
// FFTW's "howmany" loops), unnormalized. c2r destroys its input, so it
// transforms a copy. Not collective: distributed inputs are gathered by the
// compiler first.

#include "internal.hpp"
#include "typed.hpp"

#include <complex>
#include <fftw3.h>
#include <mutex>
#include <vector>

namespace idtr::detail {
namespace {

enum FFTKind : int64_t { kForward = 0, kBackward, kR2C, kC2R };

// FFTW's planner is not thread-safe.
std::mutex planner;

template <class R> struct Fftw;
template <> struct Fftw<double> {
  using IoDim = fftw_iodim64;
  using Plan = fftw_plan;
  using Complex = fftw_complex;
  static Plan dft(int rank, const fftw_iodim64 *dims, int howmany,
                  const fftw_iodim64 *loops, Complex *in, Complex *out,
                  int sign) {
    return fftw_plan_guru64_dft(rank, dims, howmany, loops, in, out, sign,
                                FFTW_ESTIMATE);
  }
  static Plan r2c(int rank, const fftw_iodim64 *dims, int howmany,
                  const fftw_iodim64 *loops, double *in, Complex *out) {
    return fftw_plan_guru64_dft_r2c(rank, dims, howmany, loops, in, out,
                                    FFTW_ESTIMATE);
  }
  static Plan c2r(int rank, const fftw_iodim64 *dims, int howmany,
                  const fftw_iodim64 *loops, Complex *in, double *out) {
    return fftw_plan_guru64_dft_c2r(rank, dims, howmany, loops, in, out,
                                    FFTW_ESTIMATE);
  }
  static void execute(Plan p) { fftw_execute(p); }
  static void destroy(Plan p) { fftw_destroy_plan(p); }
};
template <> struct Fftw<float> {
  using IoDim = fftwf_iodim64;
  using Plan = fftwf_plan;
  using Complex = fftwf_complex;
  static Plan dft(int rank, const fftwf_iodim64 *dims, int howmany,
                  const fftwf_iodim64 *loops, Complex *in, Complex *out,
                  int sign) {
    return fftwf_plan_guru64_dft(rank, dims, howmany, loops, in, out, sign,
                                 FFTW_ESTIMATE);
  }
  static Plan r2c(int rank, const fftwf_iodim64 *dims, int howmany,
                  const fftwf_iodim64 *loops, float *in, Complex *out) {
    return fftwf_plan_guru64_dft_r2c(rank, dims, howmany, loops, in, out,
                                     FFTW_ESTIMATE);
  }
  static Plan c2r(int rank, const fftwf_iodim64 *dims, int howmany,
                  const fftwf_iodim64 *loops, Complex *in, float *out) {
    return fftwf_plan_guru64_dft_c2r(rank, dims, howmany, loops, in, out,
                                     FFTW_ESTIMATE);
  }
  static void execute(Plan p) { fftwf_execute(p); }
  static void destroy(Plan p) { fftwf_destroy_plan(p); }
};

/// The transform dimension (along `axis`, size `n`) and the loops over the
/// other dimensions, with the strides of `in` and `out` (in elements).
template <class IoDim, class In, class Out>
void iodims(const View<In> &in, const View<Out> &out, int axis, int64_t n,
            IoDim &dim, std::vector<IoDim> &loops) {
  dim = {n, in.strides[axis], out.strides[axis]};
  for (int k = 0; k < in.rank; ++k)
    if (k != axis)
      loops.push_back({out.sizes[k], in.strides[k], out.strides[k]});
}

/// A dense copy of `v` (the sizes of `v`, row-major).
template <class T> std::vector<T> dense_copy(const View<T> &v) {
  std::vector<T> data(std::max<int64_t>(v.numel(), 1));
  View<T> d = dense_view(data.data(), v.sizes, v.rank);
  copy_view(d, v);
  return data;
}

template <class R>
void fft(const char *entry, int64_t kind, int64_t axis, int64_t ir, void *id,
         int64_t orr, void *od) {
  using C = std::complex<R>;
  using F = Fftw<R>;
  using FC = typename F::Complex;
  EntryScope es(entry);
  const bool realIn = kind == kR2C, realOut = kind == kC2R;
  if (axis < 0 || axis >= ir)
    fail("axis %" PRId64 " out of range for rank %" PRId64, axis, ir);
  // (Views as the element types they have; copies are dense.)
  View<R> inR;
  View<C> inC;
  if (realIn)
    inR = make_view<R>("in", ir, id, Use::In);
  else
    inC = make_view<C>("in", ir, id, Use::In);
  View<R> outR;
  View<C> outC;
  if (realOut)
    outR = make_view<R>("out", orr, od, Use::Out);
  else
    outC = make_view<C>("out", orr, od, Use::Out);
  const int64_t outCount = realOut ? outR.numel() : outC.numel();
  if (outCount == 0)
    return;
  const int a = static_cast<int>(axis);
  // The input as a dense copy: FFTW's c2r overwrites its input, and the
  // planner may write to the arrays it plans for (FFTW_ESTIMATE does not,
  // but the copy costs one pass and keeps the input untouched either way).
  std::vector<R> copyR;
  std::vector<C> copyC;
  if (realIn) {
    copyR = dense_copy(inR);
    inR = dense_view(copyR.data(), inR.sizes, inR.rank);
  } else {
    copyC = dense_copy(inC);
    inC = dense_view(copyC.data(), inC.sizes, inC.rank);
  }
  const int64_t n = realOut  ? outR.sizes[a]
                    : realIn ? inR.sizes[a]
                             : inC.sizes[a];
  typename F::IoDim dim;
  std::vector<typename F::IoDim> loops;
  if (realIn)
    iodims(inR, outC, a, n, dim, loops);
  else if (realOut)
    iodims(inC, outR, a, n, dim, loops);
  else
    iodims(inC, outC, a, n, dim, loops);
  if (n == 0)
    return;
  typename F::Plan plan;
  {
    std::lock_guard<std::mutex> lock(planner);
    const typename F::IoDim *d = &dim;
    if (realIn)
      plan = F::r2c(1, d, loops.size(), loops.data(), inR.base,
                    reinterpret_cast<FC *>(outC.base));
    else if (realOut)
      plan = F::c2r(1, d, loops.size(), loops.data(),
                    reinterpret_cast<FC *>(inC.base), outR.base);
    else
      plan = F::dft(1, d, loops.size(), loops.data(),
                    reinterpret_cast<FC *>(inC.base),
                    reinterpret_cast<FC *>(outC.base),
                    kind == kForward ? FFTW_FORWARD : FFTW_BACKWARD);
  }
  if (!plan)
    fail("FFTW could not plan the transform");
  F::execute(plan);
  std::lock_guard<std::mutex> lock(planner);
  F::destroy(plan);
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

// Suffixed by the input and output element types (which the kind
// matches: complex to complex, real to complex for r2c, complex to real for
// c2r).
#define IDTR_DEFINE_FFT(IN, OUT, R)                                            \
  IDTR_EXPORT void _idtr_fft_##IN##_##OUT(int64_t kind, int64_t axis, M(in),   \
                                          M(out)) {                            \
    fft<R>("_idtr_fft_" #IN "_" #OUT, kind, axis, A(in), A(out));              \
  }
IDTR_DEFINE_FFT(c64, c64, float)
IDTR_DEFINE_FFT(f32, c64, float)
IDTR_DEFINE_FFT(c64, f32, float)
IDTR_DEFINE_FFT(c128, c128, double)
IDTR_DEFINE_FFT(f64, c128, double)
IDTR_DEFINE_FFT(c128, f64, double)
