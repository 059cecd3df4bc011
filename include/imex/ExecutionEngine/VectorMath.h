//===- VectorMath.h - vector variants of libm functions ---------*- C++ -*-===//
//
// The JIT lets LLVM's loop vectorizer call the vector variants of the libm
// functions in glibc's vector math library (libmvec), so that loops over
// exp, log, erf, sin, ... run several elements per call. Calls of functions
// declared `nobuiltin` stay scalar (imex-math-to-libm{vector-math=0}).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_EXECUTIONENGINE_VECTORMATH_H
#define IMEX_EXECUTIONENGINE_VECTORMATH_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class TargetLibraryInfoImpl;
} // namespace llvm

namespace imex {

/// The file name of the vector math library.
inline constexpr const char *kVectorMathLibrary = "libmvec.so.1";

/// Loads the vector math library into the process once; false when it is
/// not installed (the JIT then keeps scalar libm calls).
bool loadVectorMathLibrary();

/// Declares to `info` the vector variants of libm functions (f64 and f32,
/// one or two arguments) that the loaded vector math library exports for
/// the widest instruction set among `targetFeatures` (e.g. "+avx2,+fma"):
/// for each vectorization factor, the SSE, AVX2 or AVX-512 variant. Does
/// nothing when the library is not loaded.
void addVectorMathFunctions(llvm::TargetLibraryInfoImpl &info,
                            llvm::StringRef targetFeatures);

} // namespace imex

#endif // IMEX_EXECUTIONENGINE_VECTORMATH_H
