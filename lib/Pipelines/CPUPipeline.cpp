//===- CPUPipeline.cpp - ndarray to LLVM for CPUs -------------------------===//

#include "imex/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void imex::buildCPUPipeline(OpPassManager &pm,
                            const CPUPipelineOptions &options) {
  // Each stage is a textual upstream pipeline; docs/pipeline.md explains
  // why each pass is there.
  std::string pipeline =
      // Calls of array functions are inlined: in-place updates of arguments
      // then become visible to the caller's value semantics.
      "inline,"
      // ndarray -> linalg on tensors, shapes made static where known.
      "canonicalize,convert-ndarray-to-linalg,drop-regions,canonicalize,cse,"
      "resolve-shaped-type-result-dims,canonicalize,";
  if (options.fuseElementwise)
    pipeline += "linalg-fuse-elementwise-ops,canonicalize,cse,";
  pipeline +=
      // Tensors -> buffers, in place where possible, every buffer freed.
      "eliminate-empty-tensors,one-shot-bufferize{bufferize-function-"
      "boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      "canonicalize,buffer-deallocation-pipeline,canonicalize,"
      // Loops, then the LLVM dialect.
      "convert-linalg-to-loops,fold-memref-alias-ops,expand-strided-metadata,"
      "lower-affine,convert-scf-to-cf,arith-expand,"
      "convert-math-to-funcs{convert-ctlz=false},"
      "math-extend-to-supported-types,convert-math-to-llvm,"
      "convert-math-to-libm,";
  pipeline += options.countAllocations
                  ? "finalize-memref-to-llvm{use-generic-functions=1},"
                  : "finalize-memref-to-llvm,";
  pipeline += "convert-arith-to-llvm,"
              "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
              "imex-llvm-noalias-args,"
              "reconcile-unrealized-casts";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("imex-cpu-pipeline: invalid pipeline");
}

void imex::registerIMEXPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "imex-cpu-pipeline",
      "Lower ndarray IR to the LLVM dialect for execution on the CPU",
      buildCPUPipeline);
}
