//===- VectorMath.cpp - vector variants of libm functions -----------------===//
//
// glibc's libmvec names its functions by the x86-64 vector function ABI:
// _ZGV<isa>N<lanes><one 'v' per argument>_<scalar name>, with isa b (SSE),
// d (AVX2) and e (AVX-512). LLVM's own table (-vector-library=LIBMVEC)
// covers only sin, cos, tan, exp, log and pow up to AVX2; this one covers
// every function the installed library exports.
//
// One implementation per function and module: every call of `exp` becomes
// a call of `__imex_vm_exp`, which computes one lane of the variant for the
// target's vector width, and that variant is the only vectorization LLVM
// knows for it. The vectorized loop and its scalar remainder then compute
// every element alike: results do not depend on where an element falls in
// a loop (which differs between the blocks of a distributed array on
// different rank counts), and LLVM does not fold calls on constants with
// the host's scalar libm either.
//
//===----------------------------------------------------------------------===//

#include "imex/ExecutionEngine/VectorMath.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>
#include <optional>

using namespace imex;

namespace {

struct MathFunction {
  const char *name;   // the f64 function; the f32 one has an 'f' suffix
  unsigned arguments; // 1 or 2
};

// The functions of glibc 2.35's libmvec (2.22 had sin, cos, exp, log, pow).
constexpr MathFunction kFunctions[] = {
    {"acos", 1},  {"acosh", 1}, {"asin", 1},  {"asinh", 1}, {"atan", 1},
    {"atanh", 1}, {"cbrt", 1},  {"cos", 1},   {"cosh", 1},  {"erf", 1},
    {"erfc", 1},  {"exp", 1},   {"exp10", 1}, {"exp2", 1},  {"expm1", 1},
    {"log", 1},   {"log10", 1}, {"log1p", 1}, {"log2", 1},  {"sin", 1},
    {"sinh", 1},  {"tan", 1},   {"tanh", 1},  {"atan2", 2}, {"hypot", 2},
    {"pow", 2},
};

constexpr llvm::StringLiteral kWrapperPrefix = "__imex_vm_";

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

/// The libmvec instruction set for the vector width LLVM's vectorizer uses
/// on this target, with that width in bits.
std::optional<std::pair<char, unsigned>>
getVectorISA(llvm::TargetMachine &machine, const llvm::Function &function) {
  unsigned bits =
      machine.getTargetTransformInfo(function)
          .getRegisterBitWidth(llvm::TargetTransformInfo::RGK_FixedWidthVector)
          .getFixedValue();
  llvm::StringRef features = machine.getTargetFeatureString();
  if (bits >= 512 && hasFeature(features, "avx512f"))
    return std::make_pair('e', 512u);
  if (bits >= 256 && hasFeature(features, "avx2"))
    return std::make_pair('d', 256u);
  if (bits >= 128)
    return std::make_pair('b', 128u);
  return std::nullopt;
}

/// `__imex_vm_<name>`: lane 0 of `vector` on the arguments splat to every
/// lane.
llvm::Function *createWrapper(llvm::Module &module, llvm::Function &scalar,
                              llvm::FunctionCallee vector, unsigned lanes) {
  llvm::LLVMContext &context = module.getContext();
  auto *wrapper = llvm::Function::Create(
      scalar.getFunctionType(), llvm::GlobalValue::InternalLinkage,
      kWrapperPrefix + scalar.getName(), module);
  // Not inlined: the vectorizer must see the call to replace it.
  wrapper->addFnAttr(llvm::Attribute::NoInline);
  wrapper->addFnAttr(llvm::Attribute::NoUnwind);
  wrapper->addFnAttr(llvm::Attribute::WillReturn);
  wrapper->setDoesNotAccessMemory();
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "", wrapper));
  llvm::SmallVector<llvm::Value *> splats;
  for (llvm::Argument &argument : wrapper->args())
    splats.push_back(builder.CreateVectorSplat(lanes, &argument));
  llvm::Value *result = builder.CreateCall(vector, splats);
  builder.CreateRet(builder.CreateExtractElement(result, uint64_t(0)));
  return wrapper;
}

} // namespace

bool imex::loadVectorMathLibrary() {
  static const bool loaded =
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently(kVectorMathLibrary);
  return loaded;
}

void imex::useVectorMathLibrary(llvm::Module &module,
                                llvm::TargetMachine &machine,
                                llvm::TargetLibraryInfoImpl &info) {
  if (!loadVectorMathLibrary())
    return;
  auto definition = llvm::find_if(
      module, [](llvm::Function &f) { return !f.isDeclaration(); });
  if (definition == module.end())
    return;
  std::optional<std::pair<char, unsigned>> isa =
      getVectorISA(machine, *definition);
  if (!isa)
    return;
  auto [isaLetter, bits] = *isa;

  llvm::SmallVector<llvm::VecDesc> descriptions;
  for (const MathFunction &function : kFunctions) {
    for (bool isFloat : {false, true}) {
      std::string name = function.name;
      if (isFloat)
        name += 'f';
      llvm::Function *scalar = module.getFunction(name);
      llvm::Type *element = isFloat
                                ? llvm::Type::getFloatTy(module.getContext())
                                : llvm::Type::getDoubleTy(module.getContext());
      if (!scalar || !scalar->isDeclaration() ||
          scalar->hasFnAttribute(llvm::Attribute::NoBuiltin) ||
          scalar->getReturnType() != element ||
          scalar->arg_size() != function.arguments ||
          llvm::any_of(scalar->args(), [&](llvm::Argument &a) {
            return a.getType() != element;
          }))
        continue;
      unsigned lanes = bits / element->getPrimitiveSizeInBits();
      std::string params(function.arguments, 'v');
      std::string vectorName =
          llvm::formatv("_ZGV{0}N{1}{2}_{3}", isaLetter, lanes, params, name)
              .str();
      // Older libraries lack some variants: use only what exists.
      if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(vectorName))
        continue;
      auto *vectorType = llvm::FixedVectorType::get(element, lanes);
      llvm::FunctionCallee vector = module.getOrInsertFunction(
          vectorName,
          llvm::FunctionType::get(
              vectorType,
              llvm::SmallVector<llvm::Type *>(function.arguments, vectorType),
              false));
      llvm::Function *wrapper = createWrapper(module, *scalar, vector, lanes);
      scalar->replaceAllUsesWith(wrapper);
      descriptions.emplace_back(
          intern(wrapper->getName().str()), intern(vectorName),
          llvm::ElementCount::getFixed(lanes), /*Masked=*/false,
          intern(llvm::formatv("_ZGV_LLVM_N{0}{1}", lanes, params).str()),
          std::nullopt);
    }
  }
  info.addVectorizableFunctions(descriptions);
}
