//===- VectorMath.h - vector variants of libm functions ---------*- C++ -*-===//
//
// The JIT lets LLVM's loop vectorizer call the vector variants of the libm
// functions in glibc's vector math library (libmvec), so that loops over
// exp, log, erf, sin, ... run several elements per call. Calls of functions
// declared `nobuiltin` stay scalar calls of the C library
// (imex-math-to-libm{vector-math=0}).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_EXECUTIONENGINE_VECTORMATH_H
#define IMEX_EXECUTIONENGINE_VECTORMATH_H

namespace llvm {
class Module;
class TargetLibraryInfoImpl;
class TargetMachine;
} // namespace llvm

namespace imex {

/// The file name of the vector math library.
inline constexpr const char *kVectorMathLibrary = "libmvec.so.1";

/// Loads the vector math library into the process once; false when it is
/// not installed (the JIT then keeps scalar libm calls).
bool loadVectorMathLibrary();

/// Lets LLVM vectorize the libm calls of `module` (those not declared
/// `nobuiltin`) with the vector math library, for the vector width the
/// target's vectorizer uses: each called function the library has at that
/// width is replaced by a wrapper computing one lane of that variant, and
/// the variant is declared to `info` as the wrapper's vectorization. Every
/// element is then computed by the same code, vectorized or not. Does
/// nothing when the library is not loaded.
void useVectorMathLibrary(llvm::Module &module, llvm::TargetMachine &machine,
                          llvm::TargetLibraryInfoImpl &info);

} // namespace imex

#endif // IMEX_EXECUTIONENGINE_VECTORMATH_H
