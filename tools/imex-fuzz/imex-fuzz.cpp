//===- imex-fuzz.cpp - libFuzzer target for the IMEX passes --------------===//
//
// Parses the input as MLIR (every project and upstream dialect), and if it
// parses and verifies, runs a pass pipeline on it with the verifier after
// every pass. Diagnostics are expected (invalid input, unsupported
// programs); crashes, sanitizer reports, timeouts and memory blow-ups are
// findings. Environment:
//
//   IMEX_FUZZ_PIPELINE  the pipeline (default imex-cpu-pipeline), or
//                       "each-pass": every IMEX pass, each on its own copy
//   IMEX_FUZZ_TRANSLATE=1  also translate the result to LLVM IR
//
// The custom mutator knows MLIR text: besides libFuzzer's byte mutations it
// replaces integer literals by boundary values (0, 1, -1, the dynamic-size
// marker, INT64_MAX, ...), static sizes by `?` and back, element types and
// op names by their siblings, and duplicates or drops lines. See
// scripts/fuzz.sh for running it and docs/testing.md.
//
//===----------------------------------------------------------------------===//

#include "imex/Tools/Registration.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

struct FuzzConfig {
  DialectRegistry registry;
  std::string pipeline = "imex-cpu-pipeline";
  bool translate = false;
  /// The IMEX passes, for "each-pass".
  std::vector<std::string> passes;
};

FuzzConfig &getConfig() {
  static FuzzConfig config;
  return config;
}

void runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  if (failed(parsePassPipeline(pipeline, pm, llvm::nulls()))) {
    llvm::errs() << "imex-fuzz: invalid pipeline '" << pipeline << "'\n";
    std::abort();
  }
  (void)pm.run(module);
}

} // namespace

/// The IMEX passes, each run alone in "each-pass" mode.
constexpr const char *kProjectPasses[] = {"add-comm-cache-keys",
                                          "convert-dist-to-standard",
                                          "convert-ndarray-to-linalg",
                                          "dist-coalesce",
                                          "dist-expand-index-ops",
                                          "drop-regions",
                                          "imex-double-buffer-loops",
                                          "imex-llvm-noalias-args",
                                          "imex-slice-elementwise-producers",
                                          "imex-strided-copies-to-linalg",
                                          "lower-distruntime-to-idtr",
                                          "ndarray-bounds-checks",
                                          "ndarray-dist",
                                          "ndarray-value-semantics",
                                          "overlap-comm-and-compute",
                                          "canonicalize"};

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  FuzzConfig &config = getConfig();
  imex::registerEverything(config.registry);
  registerAllToLLVMIRTranslations(config.registry);
  if (const char *pipeline = std::getenv("IMEX_FUZZ_PIPELINE"))
    config.pipeline = pipeline;
  if (const char *translate = std::getenv("IMEX_FUZZ_TRANSLATE"))
    config.translate = translate[0] == '1';
  if (config.pipeline == "each-pass")
    for (const char *pass : kProjectPasses)
      config.passes.push_back(std::string("builtin.module(") + pass + ")");
  else
    config.passes.push_back(config.pipeline);
  return 0;
}

/// Whether the input crashes upstream MLIR itself (the same input crashes
/// mlir-opt-22): such inputs are skipped, so that the fuzzer looks for bugs
/// of ours.
bool crashesUpstream(StringRef text) {
  // The parser asks the bit width of `index` (DenseArrayAttr::parse).
  if (text.contains("array<index"))
    return true;
  // A forward reference to result #N of a value allocates N placeholders
  // (`%w#2147483648` runs out of memory).
  static const llvm::Regex hugeResultNumber("%[A-Za-z0-9_$.-]+#[0-9]{7,}");
  return hugeResultNumber.match(text);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzConfig &config = getConfig();
  // A fresh context per input: nothing carries over between inputs.
  MLIRContext context(config.registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler ignore(&context,
                                 [](Diagnostic &) { return success(); });
  std::string text(reinterpret_cast<const char *>(data), size);
  if (crashesUpstream(text))
    return 0;
  ParserConfig parserConfig(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, parserConfig);
  if (!module)
    return 0;
  for (const std::string &pipeline : config.passes) {
    OwningOpRef<ModuleOp> copy =
        config.passes.size() > 1 ? module->clone() : module.release();
    runPipeline(*copy, pipeline);
    if (config.translate) {
      llvm::LLVMContext llvmContext;
      (void)translateModuleToLLVMIR(*copy, llvmContext);
    }
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Structure-aware mutation of MLIR text
//===----------------------------------------------------------------------===//

namespace {

/// Integers that break size and index arithmetic.
constexpr const char *kInterestingIntegers[] = {"0",
                                                "1",
                                                "-1",
                                                "2",
                                                "3",
                                                "7",
                                                "8",
                                                "16",
                                                "-2",
                                                "-9223372036854775808",
                                                "9223372036854775807",
                                                "4294967296",
                                                "4611686018427387904"};

/// Words replaced by a sibling of the same kind.
constexpr const char *kSiblings[][8] = {
    {"f64", "f32", "i64", "i32", "i1", "ui8", "index", "f16"},
    {"subview", "extract_slice", "subview", "extract_slice", "subview",
     "extract_slice", "subview", "extract_slice"},
    {"insert_slice", "immutable_insert_slice", "insert_slice",
     "immutable_insert_slice", "insert_slice", "immutable_insert_slice",
     "insert_slice", "immutable_insert_slice"},
    {"add", "subtract", "multiply", "divide", "maximum", "pow", "equal",
     "logical_and"},
    {"sum", "prod", "max", "min", "sum", "prod", "max", "min"},
    {"dist.team = 1", "dist.team = 2", "dist.team = 0", "dist.team = 1",
     "dist.team = 1", "dist.team = 1", "dist.team = 1", "dist.team = 1"},
    // Look-alike ops: the same operands, another meaning.
    {"exp", "log", "sqrt", "abs", "negative", "floor", "isnan", "sign"},
    {"dist.repartition", "dist.local_repartition", "dist.repartition",
     "dist.local_repartition", "dist.repartition", "dist.local_repartition",
     "dist.repartition", "dist.local_repartition"},
    {"ndarray.copy", "ndarray.cast", "ndarray.copy", "ndarray.cast",
     "ndarray.copy", "ndarray.cast", "ndarray.copy", "ndarray.cast"},
    {"argmax", "argmin", "argmax", "argmin", "argmax", "argmin", "argmax",
     "argmin"},
    {"complex<f64>", "complex<f32>", "f64", "i8", "ui64", "i1", "f16",
     "complex<f64>"},
};

/// Float literals: NaN, infinities, signed zero, extremes.
constexpr const char *kInterestingFloats[] = {"0x7FF8000000000000",
                                              "0x7FF0000000000000",
                                              "0xFFF0000000000000",
                                              "-0.0",
                                              "0.0",
                                              "1.0e308",
                                              "-1.0e308",
                                              "4.9e-324",
                                              "0x7FC00000"};

/// Attributes dropped or added.
constexpr const char *kAttributes[] = {
    " {dist.team = 1 : i64}", " keepdims", " include_initial",
    " {dist.team = 1 : i64, dist.split = array<i64: 1>}"};

struct Token {
  size_t begin, end;
};

/// Integer literals of `text` (with their sign).
std::vector<Token> findIntegers(const std::string &text) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < text.size();) {
    bool sign = text[i] == '-' && i + 1 < text.size() && isdigit(text[i + 1]);
    if (!isdigit(text[i]) && !sign) {
      ++i;
      continue;
    }
    // Not part of a name (%c1, f64, @f2, x4).
    bool inName = i > 0 && (isalnum(text[i - 1]) || text[i - 1] == '_' ||
                            text[i - 1] == '%' || text[i - 1] == '.');
    size_t end = i + (sign ? 1 : 0);
    while (end < text.size() && isdigit(text[end]))
      ++end;
    if (!inName)
      tokens.push_back({i, end});
    i = end;
  }
  return tokens;
}

/// Float literals of `text` (decimal with a point or exponent, or hex).
std::vector<Token> findFloats(const std::string &text) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < text.size(); ++i) {
    if (!(isdigit(text[i]) || text[i] == '-') ||
        (i > 0 && (isalnum(text[i - 1]) || text[i - 1] == '_' ||
                   text[i - 1] == '%' || text[i - 1] == '.')))
      continue;
    size_t end = i + 1;
    while (end < text.size() &&
           (isalnum(text[end]) || text[end] == '.' ||
            ((text[end] == '-' || text[end] == '+') &&
             (text[end - 1] == 'e' || text[end - 1] == 'E'))))
      ++end;
    std::string word = text.substr(i, end - i);
    if (word.find('.') != std::string::npos ||
        (word.rfind("0x", 0) == 0 && word.size() > 10))
      tokens.push_back({i, end});
    i = end;
  }
  return tokens;
}

/// SSA names where they are used (not where they are defined: `%x =`).
std::vector<Token> findSSAUses(const std::string &text) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%')
      continue;
    size_t end = i + 1;
    while (end < text.size() &&
           (isalnum(text[end]) || text[end] == '_' || text[end] == '#'))
      ++end;
    size_t next = text.find_first_not_of(' ', end);
    bool definition = next != std::string::npos && text[next] == '=' &&
                      (next + 1 >= text.size() || text[next + 1] != '=');
    if (!definition)
      tokens.push_back({i, end});
    i = end - 1;
  }
  return tokens;
}

/// One structure-aware edit of `text`; false if none applied.
bool mutateText(std::string &text, std::mt19937_64 &rng) {
  auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
  switch (pick(10)) {
  case 5: { // a float literal -> NaN, an infinity, -0.0, an extreme
    std::vector<Token> tokens = findFloats(text);
    if (tokens.empty())
      return false;
    Token t = tokens[pick(tokens.size())];
    text.replace(t.begin, t.end - t.begin,
                 kInterestingFloats[pick(std::size(kInterestingFloats))]);
    return true;
  }
  case 6: { // a size in a type -> 0 or huge, or one dimension more or less
    std::vector<size_t> marks; // positions of the 'x' after a dimension
    for (size_t i = 1; i < text.size(); ++i)
      if (text[i] == 'x' && (isdigit(text[i - 1]) || text[i - 1] == '?'))
        marks.push_back(i);
    if (marks.empty())
      return false;
    size_t at = marks[pick(marks.size())];
    size_t begin = at;
    while (begin > 0 && (isdigit(text[begin - 1]) || text[begin - 1] == '?'))
      --begin;
    switch (pick(4)) {
    case 0:
      text.replace(begin, at - begin, "0");
      break;
    case 1:
      text.replace(begin, at - begin, "1099511627776");
      break;
    case 2: // rank + 1
      text.insert(begin, "1x");
      break;
    default: // rank - 1
      text.erase(begin, at + 1 - begin);
      break;
    }
    return true;
  }
  case 7: { // two SSA uses swapped, or one use replaced by another value
    std::vector<Token> uses = findSSAUses(text);
    if (uses.size() < 2)
      return false;
    Token a = uses[pick(uses.size())], b = uses[pick(uses.size())];
    std::string nameA = text.substr(a.begin, a.end - a.begin),
                nameB = text.substr(b.begin, b.end - b.begin);
    if (pick(2)) {
      text.replace(a.begin, a.end - a.begin, nameB);
      return true;
    }
    if (a.begin > b.begin)
      std::swap(a, b), std::swap(nameA, nameB);
    if (a.begin == b.begin)
      return false;
    text.replace(b.begin, b.end - b.begin, nameA);
    text.replace(a.begin, a.end - a.begin, nameB);
    return true;
  }
  case 8: { // an attribute dropped, or added after an op's operands
    const char *attr = kAttributes[pick(std::size(kAttributes))];
    size_t at = text.find(attr);
    if (at != std::string::npos && pick(2)) {
      text.erase(at, std::strlen(attr));
      return true;
    }
    std::vector<size_t> colons; // " : " ending an op's operands
    for (size_t i = text.find(" : "); i != std::string::npos;
         i = text.find(" : ", i + 1))
      colons.push_back(i);
    if (colons.empty())
      return false;
    text.insert(colons[pick(colons.size())], attr);
    return true;
  }
  case 0: { // an integer literal -> a boundary value
    std::vector<Token> tokens = findIntegers(text);
    if (tokens.empty())
      return false;
    Token t = tokens[pick(tokens.size())];
    text.replace(t.begin, t.end - t.begin,
                 kInterestingIntegers[pick(std::size(kInterestingIntegers))]);
    return true;
  }
  case 1: { // a static size in a type -> ?, or ? -> a size
    std::vector<size_t> marks;
    for (size_t i = 0; i + 1 < text.size(); ++i)
      if ((text[i] == '?' && text[i + 1] == 'x') ||
          (isdigit(text[i]) && text[i + 1] == 'x' && i > 0 &&
           (text[i - 1] == '<' || text[i - 1] == 'x')))
        marks.push_back(i);
    if (marks.empty())
      return false;
    size_t at = marks[pick(marks.size())];
    if (text[at] == '?') {
      text.replace(at, 1, std::to_string(pick(4)));
    } else {
      size_t begin = at;
      while (begin > 0 && isdigit(text[begin - 1]))
        --begin;
      text.replace(begin, at + 1 - begin, "?");
    }
    return true;
  }
  case 2: { // a word -> a sibling
    const auto &group = kSiblings[pick(std::size(kSiblings))];
    std::vector<size_t> found;
    std::string word;
    for (const char *w : group) {
      for (size_t at = text.find(w); at != std::string::npos;
           at = text.find(w, at + 1))
        found.push_back(at);
      if (!found.empty()) {
        word = w;
        break;
      }
    }
    if (found.empty())
      return false;
    text.replace(found[pick(found.size())], word.size(),
                 group[pick(std::size(group))]);
    return true;
  }
  default: { // duplicate or drop a line
    std::vector<size_t> starts = {0};
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n' && i + 1 < text.size())
        starts.push_back(i + 1);
    size_t line = pick(starts.size());
    size_t begin = starts[line];
    size_t end = text.find('\n', begin);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string copy = text.substr(begin, end - begin);
    if (pick(2))
      text.erase(begin, end - begin);
    else
      text.insert(starts[pick(starts.size())], copy);
    return true;
  }
  }
}

} // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937_64 rng(seed);
  // A third of the mutations are libFuzzer's own (bytes, dictionary,
  // cross-over of inputs).
  if (rng() % 3 == 0)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::string text(reinterpret_cast<char *>(data), size);
  for (int tries = 0; tries < 4; ++tries)
    if (mutateText(text, rng))
      break;
  if (text.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::copy(text.begin(), text.end(), data);
  return text.size();
}
