//===- imex-runner.cpp - lower and JIT-run ndarray programs ---------------===//
//
// Parses a .mlir file, lowers it with a pass pipeline (imex-cpu-pipeline by
// default) and runs an entry function with MLIR's ExecutionEngine. Options
// of mlir-runner (-e, --entry-point-result, --shared-libs, -O0..3) apply;
// the MLIR runner-utils libraries, libimex_runner_utils and (if built) the
// IDTR runtime libidtr are linked by default.
//
//===----------------------------------------------------------------------===//

#include "imex/Tools/Registration.h"

#include <cstdio>

#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dialect.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#ifndef IMEX_MLIR_LIB_DIR
#error "IMEX_MLIR_LIB_DIR must point to MLIR's runner-utils libraries"
#endif

using namespace mlir;

static llvm::cl::opt<std::string> pipeline(
    "pipeline",
    llvm::cl::desc("Pass pipeline lowering the input to the LLVM dialect"),
    llvm::cl::init("imex-cpu-pipeline"));

static llvm::cl::opt<bool>
    printLowered("print-lowered-ir",
                 llvm::cl::desc("Print the IR after lowering (to stderr)"),
                 llvm::cl::init(false));

static LogicalResult lower(Operation *op, JitRunnerOptions &options) {
  PassManager pm(op->getContext(), op->getName().getStringRef());
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    llvm::errs() << "imex-runner: invalid --pipeline '" << pipeline
                 << "': " << errors << "\n";
    return failure();
  }
  if (failed(pm.run(op))) {
    llvm::errs() << "imex-runner: lowering with '" << pipeline << "' failed\n";
    return failure();
  }
  if (printLowered)
    op->print(llvm::errs());
  auto module = dyn_cast<ModuleOp>(op);
  if (module && !module.lookupSymbol(options.mainFuncName)) {
    llvm::errs() << "imex-runner: entry function '" << options.mainFuncName
                 << "' not found\n";
    return failure();
  }
  return success();
}

/// Adds `flag` unless an option starting with `prefix` was given.
static void addDefault(std::vector<std::string> &args, StringRef prefix,
                       std::string flag) {
  for (const std::string &arg : args)
    if (StringRef(arg).starts_with(prefix))
      return;
  args.push_back(std::move(flag));
}

int main(int argc, char **argv) {
  // Run-time checks in lowered code print with puts() and abort(): keep
  // stdout line-buffered so the message is not lost in a pipe. No crash
  // handler: an abort requested by the program is not a compiler crash.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();

  DialectRegistry registry;
  imex::registerEverything(registry);
  registerAllToLLVMIRTranslations(registry);

  std::vector<std::string> args(argv, argv + argc);
  addDefault(args, "--entry-point-result", "--entry-point-result=void");
  addDefault(args, "-entry-point-result", "--entry-point-result=void");
  bool hasOptLevel = llvm::any_of(args, [](StringRef arg) {
    return arg == "-O0" || arg == "-O1" || arg == "-O2" || arg == "-O3";
  });
  if (!hasOptLevel)
    args.push_back("-O3");
  args.push_back("--shared-libs=" IMEX_MLIR_LIB_DIR "/libmlir_runner_utils.so");
  args.push_back("--shared-libs=" IMEX_MLIR_LIB_DIR
                 "/libmlir_c_runner_utils.so");
  // IMEX's own printing helpers, next to this tool (build tree or install).
  std::string self = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&lower));
  SmallString<256> libDir(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self)));
  llvm::sys::path::append(libDir, "lib");
  SmallString<256> utils(libDir);
  llvm::sys::path::append(utils, "libimex_runner_utils.so");
  if (llvm::sys::fs::exists(utils))
    args.push_back(("--shared-libs=" + utils).str());
  // The IDTR runtime, for lowered distruntime ops: installed next to the
  // runner utilities, or in the build tree (not built without
  // IMEX_ENABLE_RUNTIME; non-distributed programs do not need it).
  SmallString<256> idtr(libDir);
  llvm::sys::path::append(idtr, "libidtr.so");
#ifdef IMEX_IDTR_BUILD_LIB
  if (!llvm::sys::fs::exists(idtr))
    idtr = IMEX_IDTR_BUILD_LIB;
#endif
  if (llvm::sys::fs::exists(idtr))
    args.push_back(("--shared-libs=" + idtr).str());
  std::vector<char *> cargs;
  for (std::string &arg : args)
    cargs.push_back(arg.data());

  JitRunnerConfig config;
  config.mlirTransformer = lower;
  return JitRunnerMain(cargs.size(), cargs.data(), registry, config);
}
