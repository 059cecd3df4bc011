//===- imex-runner.cpp - lower and JIT-run ndarray programs ---------------===//
//
// Parses a .mlir file, lowers it with a pass pipeline (imex-cpu-pipeline by
// default, imex-gpu-pipeline for programs with GPU arrays), compiles it to an
// object for the host CPU and runs an entry function. Options as mlir-runner's
// (-e, --entry-point-result,
// --shared-libs, -O0..3); the MLIR runner-utils libraries,
// libimex_runner_utils and (if built) the IDTR runtime libidtr are linked by
// default.
//
// Compiled objects are cached on disk (see ObjectCache): the ranks of an MPI
// job compile a program once (one rank compiles, the others wait for its
// object), and so does a later run of the same program and options.
// --timing reports where the time went.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/Region/IR/Region.h"
#include "imex/ExecutionEngine/JitCompiler.h"
#include "imex/Tools/Registration.h"

#include <chrono>
#include <cstdio>

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#ifndef IMEX_MLIR_LIB_DIR
#error "IMEX_MLIR_LIB_DIR must point to MLIR's runner-utils libraries"
#endif

using namespace mlir;
using namespace imex;

namespace {

llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                         llvm::cl::desc("<input file>"),
                                         llvm::cl::init("-"));
llvm::cl::opt<std::string> pipeline(
    "pipeline",
    llvm::cl::desc("Pass pipeline lowering the input to the LLVM dialect"),
    llvm::cl::init("imex-cpu-pipeline"));
llvm::cl::opt<std::string> entryName("e", llvm::cl::desc("Entry function"),
                                     llvm::cl::init("main"));
llvm::cl::opt<std::string> entryResult(
    "entry-point-result",
    llvm::cl::desc("Result type of the entry function: void, i32, i64, f32 "
                   "or f64 (printed)"),
    llvm::cl::init("void"));
llvm::cl::list<std::string> sharedLibs("shared-libs",
                                       llvm::cl::desc("Libraries to link"),
                                       llvm::cl::CommaSeparated);
enum OptLevel : unsigned { O0, O1, O2, O3 };
llvm::cl::opt<OptLevel> optLevel(
    llvm::cl::desc("Optimization level (LLVM IR and codegen)"),
    llvm::cl::values(clEnumVal(O0, "no optimization"), clEnumVal(O1, "-O1"),
                     clEnumVal(O2, "-O2"), clEnumVal(O3, "-O3 (default)")),
    llvm::cl::init(O3));
llvm::cl::opt<bool>
    printLowered("print-lowered-ir",
                 llvm::cl::desc("Print the IR after lowering (to stderr); "
                                "compiles even when the object is cached"),
                 llvm::cl::init(false));
llvm::cl::opt<bool> timing(
    "timing",
    llvm::cl::desc("Report compile and run times and code sizes (stderr)"),
    llvm::cl::init(false));
llvm::cl::opt<bool> loopStrengthReduction(
    "loop-strength-reduction",
    llvm::cl::desc("Run LLVM's loop strength reduction in code generation "
                   "(slow on lowered array code; off by default)"),
    llvm::cl::init(false));
llvm::cl::opt<bool>
    noCache("no-cache",
            llvm::cl::desc("Compile even when the object is cached, and do "
                           "not store it (also: IMEX_CACHE_DIR=off)"),
            llvm::cl::init(false));

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Messages are written in one piece: the ranks of an MPI job share the
/// launcher's stderr.
int fail(const Twine &message) {
  llvm::errs() << ("imex-runner: " + message + "\n").str();
  return 1;
}

/// The entry function must exist and take no arguments; its result is
/// what --entry-point-result says.
LogicalResult checkEntry(ModuleOp module) {
  auto entry = module.lookupSymbol<FunctionOpInterface>(entryName);
  if (!entry) {
    fail("entry function '" + entryName + "' not found");
    return failure();
  }
  if (entry.getNumArguments() != 0) {
    fail("entry function '" + entryName +
         "' takes arguments: JIT can't invoke a main function expecting "
         "arguments");
    return failure();
  }
  ArrayRef<Type> results = entry.getResultTypes();
  Builder b(module.getContext());
  Type expected = llvm::StringSwitch<Type>(entryResult)
                      .Case("i32", b.getI32Type())
                      .Case("i64", b.getI64Type())
                      .Case("f32", b.getF32Type())
                      .Case("f64", b.getF64Type())
                      .Default(nullptr);
  if (entryResult != "void" && !expected) {
    fail("unknown --entry-point-result '" + entryResult + "'");
    return failure();
  }
  if (expected ? results != ArrayRef<Type>(expected) : !results.empty()) {
    fail("entry function '" + entryName + "' does not return " + entryResult);
    return failure();
  }
  return success();
}

LogicalResult lower(ModuleOp module) {
  PassManager pm(module.getContext());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream)))
    return fail("invalid --pipeline '" + pipeline + "': " + errors), failure();
  if (failed(pm.run(module)))
    return fail("lowering with '" + pipeline + "' failed"), failure();
  if (printLowered)
    module->print(llvm::errs());
  if (!module.lookupSymbol(entryName))
    return fail("entry function '" + entryName + "' not found"), failure();
  return success();
}

/// The libraries lowered programs call: MLIR's runner utilities, IMEX's
/// printing helpers and IDTR (next to this tool, or in the build tree).
std::vector<std::string> getDefaultLibraries(StringRef self) {
  std::vector<std::string> libs = {IMEX_MLIR_LIB_DIR "/libmlir_runner_utils.so",
                                   IMEX_MLIR_LIB_DIR
                                   "/libmlir_c_runner_utils.so"};
  SmallString<256> libDir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(libDir, "lib");
  SmallString<256> utils(libDir);
  llvm::sys::path::append(utils, "libimex_runner_utils.so");
  if (llvm::sys::fs::exists(utils))
    libs.push_back(std::string(utils));
  SmallString<256> idtr(libDir);
  llvm::sys::path::append(idtr, "libidtr.so");
#ifdef IMEX_IDTR_BUILD_LIB
  if (!llvm::sys::fs::exists(idtr))
    idtr = IMEX_IDTR_BUILD_LIB;
#endif
  if (llvm::sys::fs::exists(idtr))
    libs.push_back(std::string(idtr));
  return libs;
}

/// Whether `module` computes on a GPU: arrays in a GPU environment or gpu
/// dialect ops.
bool usesGPU(ModuleOp module) {
  auto isGPUArray = [](Type type) {
    auto array = dyn_cast<ndarray::NDArrayType>(type);
    return array && array.getEnvironment<region::GPUEnvAttr>();
  };
  WalkResult walk = module->walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()) ||
        llvm::any_of(op->getResultTypes(), isGPUArray) ||
        llvm::any_of(op->getOperandTypes(), isGPUArray))
      return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op))
      if (llvm::any_of(function.getArgumentTypes(), isGPUArray) ||
          llvm::any_of(function.getResultTypes(), isGPUArray))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// Exit status of a GPU program on a machine that cannot run it (the
/// automake convention for a skipped test).
constexpr int kNoGPUExitCode = 77;

/// The GPU runtime next to libimex_runner_utils, loaded now to ask whether a
/// device can run the program; on failure a message saying why.
FailureOr<std::string> loadGPURuntime(StringRef self, std::string &message) {
  SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(path, "lib", "libimex_cuda_runtime.so");
  if (!llvm::sys::fs::exists(path)) {
    message = "this program runs on a GPU, but " + path.str().str() +
              " was not built (no CUDA toolkit when the project was "
              "configured)";
    return failure();
  }
  std::string error;
  auto library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &error);
  if (!library.isValid()) {
    message = "cannot load " + path.str().str() + ": " + error;
    return failure();
  }
  using ReasonFn = const char *(*)();
  auto reason = reinterpret_cast<ReasonFn>(
      library.getAddressOfSymbol("imexCudaUnavailableReason"));
  if (reason && reason()) {
    message = std::string("this program needs a CUDA device: ") + reason();
    return failure();
  }
  return std::string(path);
}

/// What identifies this tool's build in cache keys: a rebuilt runner may
/// lower differently.
std::string getToolIdentity(StringRef self) {
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(self, status))
    return self.str();
  return self.str() + ":" + std::to_string(status.getSize()) + ":" +
         std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
}

void warnNotCaching(llvm::Error error) {
  fail("warning: not caching: " + toString(std::move(error)));
}

/// The object of `module`: `cache`'s entry for `key` if there is one, else
/// compiled (and stored). Holds the key's lock meanwhile, so that
/// processes starting together compile once. `cacheState` says which.
std::unique_ptr<llvm::MemoryBuffer>
getObject(ModuleOp module, const llvm::orc::JITTargetMachineBuilder &machine,
          std::optional<ObjectCache> &cache, StringRef key, CompileStats &stats,
          StringRef &cacheState) {
  std::optional<ObjectCache::Lock> lock;
  if (cache) {
    auto acquired = cache->acquire(key);
    if (!acquired) {
      warnNotCaching(acquired.takeError());
      cache.reset();
    } else {
      lock.emplace(std::move(*acquired));
      if (std::unique_ptr<llvm::MemoryBuffer> object = cache->lookup(key)) {
        cacheState = "hit";
        return object;
      }
    }
  }
  cacheState = cache ? "miss" : "off";
  auto lowerStart = std::chrono::steady_clock::now();
  if (failed(lower(module)))
    return nullptr;
  stats.lowerSeconds = secondsSince(lowerStart);
  auto object = compileToObject(module, machine, optLevel, stats);
  if (!object) {
    fail("compilation failed: " + toString(object.takeError()) +
         " (does --pipeline '" + pipeline + "' lower everything to LLVM?)");
    return nullptr;
  }
  if (cache)
    if (llvm::Error error = cache->store(key, **object))
      warnNotCaching(std::move(error));
  return std::move(*object);
}

/// --timing: where the time went and how large the program became (one
/// write, as for messages).
void printTiming(double parseSeconds, const CompileStats &stats,
                 double linkSeconds, double runSeconds, double totalSeconds,
                 uint64_t objectBytes, StringRef cacheState,
                 const std::optional<ObjectCache> &cache) {
  std::string report;
  llvm::raw_string_ostream os(report);
  os << llvm::formatv(
      "imex-runner: timing: parse {0:f3} s, lower {1:f3} s, translate "
      "{2:f3} s, llvm-opt {3:f3} s, codegen {4:f3} s, link {5:f3} s, run "
      "{6:f3} s, total {7:f3} s\n",
      parseSeconds, stats.lowerSeconds, stats.translateSeconds,
      stats.optimizeSeconds, stats.codegenSeconds, linkSeconds, runSeconds,
      totalSeconds);
  os << llvm::formatv(
      "imex-runner: size: {0} lowered ops, {1} LLVM IR instructions, {2} "
      "object bytes\n",
      stats.loweredOps, stats.llvmInstructions, objectBytes);
  os << "imex-runner: cache " << cacheState;
  if (cache)
    os << " " << cache->getDirectory();
  os << "\n";
  llvm::errs() << report;
}

} // namespace

int main(int argc, char **argv) {
  // Run-time checks in lowered code print with puts() and abort(): keep
  // stdout line-buffered so the message is not lost in a pipe. No crash
  // handler: an abort requested by the program is not a compiler crash.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  auto start = std::chrono::steady_clock::now();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "IMEX JIT runner for ndarray programs\n");

  setLoopStrengthReduction(loopStrengthReduction);

  DialectRegistry registry;
  imex::registerEverything(registry);
  registerAllToLLVMIRTranslations(registry);
  MLIRContext context(registry);

  std::string errorMessage;
  auto input = openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  std::string source = input->getBuffer().str();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  if (failed(checkEntry(*module)))
    return 1;
  bool gpuProgram = usesGPU(*module);
  if (gpuProgram && pipeline.getNumOccurrences() == 0)
    pipeline = "imex-gpu-pipeline";
  if (gpuProgram && !StringRef(pipeline).contains("gpu"))
    return fail("the program has arrays in a GPU environment "
                "(#region.gpu_env); lower it with "
                "--pipeline=imex-gpu-pipeline");
  double parseSeconds = secondsSince(start);

  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&getDefaultLibraries));
  auto machine = getHostTargetMachineBuilder(optLevel);
  if (!machine)
    return fail("no JIT target: " + toString(machine.takeError()));

  // The cache key: the program and every option but the input's name and
  // the reporting ones (LLVM's own options may change the code).
  std::optional<ObjectCache> cache;
  std::string key;
  if (!noCache && !printLowered) {
    if (std::optional<std::string> dir = ObjectCache::getDefaultDirectory()) {
      auto opened = ObjectCache::open(*dir);
      if (opened)
        cache = std::move(*opened);
      else
        warnNotCaching(opened.takeError());
    }
  }
  if (cache) {
    std::vector<std::string> args;
    for (int i = 1; i < argc; ++i)
      if (argv[i] != inputFilename.getValue() &&
          StringRef(argv[i]) != "--timing" && StringRef(argv[i]) != "-timing")
        args.push_back(argv[i]);
    std::string tool = getToolIdentity(self);
    std::string level = std::to_string(optLevel.getValue());
    SmallVector<StringRef> parts = {source, tool, level};
    parts.append(args.begin(), args.end());
    key = ObjectCache::makeKey(parts);
  }

  CompileStats stats;
  StringRef cacheState;
  std::unique_ptr<llvm::MemoryBuffer> object =
      getObject(*module, *machine, cache, key, stats, cacheState);
  if (!object)
    return 1;
  uint64_t objectBytes = object->getBufferSize();

  auto linkStart = std::chrono::steady_clock::now();
  std::vector<std::string> libs = getDefaultLibraries(self);
  if (gpuProgram && !StringRef(pipeline).contains("emulation")) {
    // Compiled (the kernels included) before this check: a machine without
    // a device still checks the whole compilation.
    std::string message;
    FailureOr<std::string> runtime = loadGPURuntime(self, message);
    if (failed(runtime)) {
      fail(message);
      // (The compilation still reports, e.g. for bench/compile.)
      if (timing)
        printTiming(parseSeconds, stats, 0, 0, secondsSince(start), objectBytes,
                    cacheState, cache);
      return kNoGPUExitCode;
    }
    libs.push_back(*runtime);
  }
  libs.insert(libs.end(), sharedLibs.begin(), sharedLibs.end());
  auto session = JitSession::create(*machine, libs);
  if (!session)
    return fail(toString(session.takeError()));
  if (llvm::Error error = (*session)->addObject(std::move(object)))
    return fail("cannot link the program: " + toString(std::move(error)));
  auto entry = (*session)->lookup(entryName);
  if (!entry)
    return fail("entry function '" + entryName +
                "' not found: " + toString(entry.takeError()));
  double linkSeconds = secondsSince(linkStart);

  auto runStart = std::chrono::steady_clock::now();
  if (entryResult == "i32")
    llvm::outs() << reinterpret_cast<int32_t (*)()>(*entry)() << "\n";
  else if (entryResult == "i64")
    llvm::outs() << reinterpret_cast<int64_t (*)()>(*entry)() << "\n";
  else if (entryResult == "f32")
    llvm::outs() << reinterpret_cast<float (*)()>(*entry)() << "\n";
  else if (entryResult == "f64") // every digit: the value reads back exactly
    llvm::outs() << llvm::format("%.17g",
                                 reinterpret_cast<double (*)()>(*entry)())
                 << "\n";
  else
    reinterpret_cast<void (*)()>(*entry)();
  llvm::outs().flush();
  std::fflush(stdout);
  double runSeconds = secondsSince(runStart);
  session->reset(); // global destructors, before the report

  if (timing)
    printTiming(parseSeconds, stats, linkSeconds, runSeconds,
                secondsSince(start), objectBytes, cacheState, cache);
  return 0;
}
