//===- VectorMath.cpp - vector variants of libm functions -----------------===//
//
// glibc's libmvec names its functions by the x86-64 vector function ABI:
// _ZGV<isa>N<lanes><one 'v' per argument>_<scalar name>, with isa b (SSE4),
// d (AVX2) and e (AVX-512). LLVM's own table (-vector-library=LIBMVEC)
// covers only sin, cos, tan, exp, log and pow up to AVX2; this one covers
// every function the installed library exports, at every width the host
// has, so that loops calling erf, expm1, log1p, tanh, atan2, ... vectorize.
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/VectorMath.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"

#include <mutex>
#include <optional>

using namespace imex;

namespace {

struct MathFunction {
  const char *name;   // the f64 function; the f32 one has an 'f' suffix
  unsigned arguments; // 1 or 2
  bool hasIntrinsic;  // llvm.<name>.f64 / .f32 exists
};

// The functions of glibc 2.35's libmvec (2.22 had sin, cos, exp, log, pow).
constexpr MathFunction kFunctions[] = {
    {"acos", 1, true},   {"acosh", 1, false}, {"asin", 1, true},
    {"asinh", 1, false}, {"atan", 1, true},   {"atanh", 1, false},
    {"cbrt", 1, false},  {"cos", 1, true},    {"cosh", 1, true},
    {"erf", 1, false},   {"erfc", 1, false},  {"exp", 1, true},
    {"exp10", 1, true},  {"exp2", 1, true},   {"expm1", 1, false},
    {"log", 1, true},    {"log10", 1, true},  {"log1p", 1, false},
    {"log2", 1, true},   {"sin", 1, true},    {"sinh", 1, true},
    {"tan", 1, true},    {"tanh", 1, true},   {"atan2", 2, true},
    {"hypot", 2, false}, {"pow", 2, true},
};

/// Owns the strings the VecDescs refer to (TargetLibraryInfoImpl keeps
/// StringRefs); shared by every compilation in the process.
llvm::StringRef intern(const std::string &text) {
  static std::mutex mutex;
  static llvm::StringSet<> strings;
  std::lock_guard<std::mutex> lock(mutex);
  return strings.insert(text).first->getKey();
}

bool hasFeature(llvm::StringRef features, llvm::StringRef feature) {
  llvm::SmallVector<llvm::StringRef> list;
  features.split(list, ',');
  return llvm::is_contained(list, ("+" + feature).str());
}

} // namespace

bool imex::loadVectorMathLibrary() {
  static const bool loaded =
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently(kVectorMathLibrary);
  return loaded;
}

void imex::addVectorMathFunctions(llvm::TargetLibraryInfoImpl &info,
                                  llvm::StringRef targetFeatures) {
  if (!loadVectorMathLibrary())
    return;
  // The instruction set of each register width the host has: 128-bit SSE
  // is part of x86-64.
  struct Width {
    unsigned bits;
    char isa;
  };
  llvm::SmallVector<Width> widths = {{128, 'b'}};
  if (hasFeature(targetFeatures, "avx2"))
    widths.push_back({256, 'd'});
  if (hasFeature(targetFeatures, "avx512f"))
    widths.push_back({512, 'e'});

  llvm::SmallVector<llvm::VecDesc> descriptions;
  for (const MathFunction &function : kFunctions) {
    for (unsigned elementBits : {64u, 32u}) {
      std::string scalar = function.name;
      if (elementBits == 32)
        scalar += 'f';
      std::string params(function.arguments, 'v');
      for (Width width : widths) {
        unsigned lanes = width.bits / elementBits;
        std::string vector = llvm::formatv("_ZGV{0}N{1}{2}_{3}", width.isa,
                                           lanes, params, scalar)
                                 .str();
        // Older libraries lack some variants: map only what exists.
        if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(vector))
          continue;
        llvm::StringRef vectorName = intern(vector);
        llvm::StringRef prefix =
            intern(llvm::formatv("_ZGV_LLVM_N{0}{1}", lanes, params).str());
        auto addMapping = [&](const std::string &name) {
          descriptions.emplace_back(intern(name), vectorName,
                                    llvm::ElementCount::getFixed(lanes),
                                    /*Masked=*/false, prefix, std::nullopt);
        };
        addMapping(scalar);
        if (function.hasIntrinsic)
          addMapping(
              llvm::formatv("llvm.{0}.f{1}", function.name, elementBits).str());
      }
    }
  }
  info.addVectorizableFunctions(descriptions);
}
