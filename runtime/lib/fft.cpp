// Discrete Fourier transforms of ndarray.fft: one plan of FFTW's guru
// interface over some axes of a strided array (the other dimensions are
// FFTW's "howmany" loops), unnormalized, out of place on the views
// themselves (a copy only where FFTW would overwrite the input). Not
// collective: distributed inputs are gathered by the compiler first.

#include "internal.hpp"
#include "typed.hpp"

#include <cinttypes>
#include <complex>
#include <fftw3.h>
#include <mutex>
#include <utility>
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
                  int sign, unsigned flags) {
    return fftw_plan_guru64_dft(rank, dims, howmany, loops, in, out, sign,
                                flags);
  }
  static Plan r2c(int rank, const fftw_iodim64 *dims, int howmany,
                  const fftw_iodim64 *loops, double *in, Complex *out,
                  unsigned flags) {
    return fftw_plan_guru64_dft_r2c(rank, dims, howmany, loops, in, out, flags);
  }
  static Plan c2r(int rank, const fftw_iodim64 *dims, int howmany,
                  const fftw_iodim64 *loops, Complex *in, double *out,
                  unsigned flags) {
    return fftw_plan_guru64_dft_c2r(rank, dims, howmany, loops, in, out, flags);
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
                  int sign, unsigned flags) {
    return fftwf_plan_guru64_dft(rank, dims, howmany, loops, in, out, sign,
                                 flags);
  }
  static Plan r2c(int rank, const fftwf_iodim64 *dims, int howmany,
                  const fftwf_iodim64 *loops, float *in, Complex *out,
                  unsigned flags) {
    return fftwf_plan_guru64_dft_r2c(rank, dims, howmany, loops, in, out,
                                     flags);
  }
  static Plan c2r(int rank, const fftwf_iodim64 *dims, int howmany,
                  const fftwf_iodim64 *loops, Complex *in, float *out,
                  unsigned flags) {
    return fftwf_plan_guru64_dft_c2r(rank, dims, howmany, loops, in, out,
                                     flags);
  }
  static void execute(Plan p) { fftwf_execute(p); }
  static void destroy(Plan p) { fftwf_destroy_plan(p); }
};

/// The transform dimensions (the axes in `mask`, `last` last, its length
/// `n`) and the loops over the other dimensions, with the strides of `in`
/// and `out` (in elements).
template <class IoDim, class In, class Out>
void iodims(const View<In> &in, const View<Out> &out, uint64_t mask, int last,
            int64_t n, std::vector<IoDim> &dims, std::vector<IoDim> &loops) {
  for (int k = 0; k < in.rank; ++k) {
    if (k == last)
      continue;
    IoDim d = {out.sizes[k], in.strides[k], out.strides[k]};
    (mask >> k & 1 ? dims : loops).push_back(d);
  }
  dims.push_back({n, in.strides[last], out.strides[last]});
}

/// A dense copy of `v` (the sizes of `v`, row-major).
template <class T> std::vector<T> dense_copy(const View<T> &v) {
  std::vector<T> data(std::max<int64_t>(v.numel(), 1));
  View<T> d = dense_view(data.data(), v.sizes, v.rank);
  copy_view(d, v);
  return data;
}

/// Whether the elements of `a` and `b` may share memory.
template <class A, class B> bool overlap(const View<A> &a, const View<B> &b) {
  auto extent = [](const auto &v) {
    const char *lo = reinterpret_cast<const char *>(v.base), *hi = lo;
    for (int k = 0; k < v.rank; ++k) {
      int64_t step = (v.sizes[k] - 1) * v.strides[k] *
                     static_cast<int64_t>(sizeof(*v.base));
      (step < 0 ? lo : hi) += step;
    }
    return std::make_pair(lo, hi + sizeof(*v.base));
  };
  auto [alo, ahi] = extent(a);
  auto [blo, bhi] = extent(b);
  return alo < bhi && blo < ahi;
}

template <class R>
void fft(const char *entry, int64_t kind, int64_t axes, int64_t last,
         int64_t ir, void *id, int64_t orr, void *od) {
  using C = std::complex<R>;
  using F = Fftw<R>;
  using FC = typename F::Complex;
  EntryScope es(entry);
  const bool realIn = kind == kR2C, realOut = kind == kC2R;
  const uint64_t mask = static_cast<uint64_t>(axes);
  if (last < 0 || last >= ir || ir >= 64 || !(mask >> last & 1) || mask >> ir)
    fail("axes %#" PRIx64 " (last %" PRId64 ") out of range for rank %" PRId64,
         mask, last, ir);
  // (Views as the element types they have.)
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
  const int a = static_cast<int>(last);
  const int64_t n = realOut  ? outR.sizes[a]
                    : realIn ? inR.sizes[a]
                             : inC.sizes[a];
  if (outCount == 0 || n == 0)
    return;
  // Out-of-place transforms keep their input (FFTW_ESTIMATE plans without
  // writing to the arrays), but for multi-dimensional c2r, which destroys
  // it: that one, and an input overlapping the output, transform a dense
  // copy.
  const int rank = __builtin_popcountll(mask);
  std::vector<R> copyR;
  std::vector<C> copyC;
  if (realIn) {
    if (realOut ? overlap(inR, outR) : overlap(inR, outC)) {
      copyR = dense_copy(inR);
      inR = dense_view(copyR.data(), inR.sizes, inR.rank);
    }
  } else if ((realOut && rank > 1) ||
             (realOut ? overlap(inC, outR) : overlap(inC, outC))) {
    copyC = dense_copy(inC);
    inC = dense_view(copyC.data(), inC.sizes, inC.rank);
  }
  const unsigned flags =
      FFTW_ESTIMATE | (realOut && rank == 1 ? FFTW_PRESERVE_INPUT : 0);
  std::vector<typename F::IoDim> dims, loops;
  if (realIn)
    iodims(inR, outC, mask, a, n, dims, loops);
  else if (realOut)
    iodims(inC, outR, mask, a, n, dims, loops);
  else
    iodims(inC, outC, mask, a, n, dims, loops);
  typename F::Plan plan;
  {
    std::lock_guard<std::mutex> lock(planner);
    if (realIn)
      plan = F::r2c(rank, dims.data(), loops.size(), loops.data(), inR.base,
                    reinterpret_cast<FC *>(outC.base), flags);
    else if (realOut)
      plan = F::c2r(rank, dims.data(), loops.size(), loops.data(),
                    reinterpret_cast<FC *>(inC.base), outR.base, flags);
    else
      plan = F::dft(rank, dims.data(), loops.size(), loops.data(),
                    reinterpret_cast<FC *>(inC.base),
                    reinterpret_cast<FC *>(outC.base),
                    kind == kForward ? FFTW_FORWARD : FFTW_BACKWARD, flags);
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
  IDTR_EXPORT void _idtr_fft_##IN##_##OUT(int64_t kind, int64_t axes,          \
                                          int64_t last, M(in), M(out)) {       \
    fft<R>("_idtr_fft_" #IN "_" #OUT, kind, axes, last, A(in), A(out));        \
  }
IDTR_DEFINE_FFT(c64, c64, float)
IDTR_DEFINE_FFT(f32, c64, float)
IDTR_DEFINE_FFT(c64, f32, float)
IDTR_DEFINE_FFT(c128, c128, double)
IDTR_DEFINE_FFT(f64, c128, double)
IDTR_DEFINE_FFT(c128, f64, double)
