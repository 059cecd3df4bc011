//===- CPUPipeline.cpp - ndarray to LLVM for CPUs -------------------------===//

#include "imex/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The textual CPU pipeline from ndarray IR to the LLVM dialect.
/// Calls of array functions are inlined (in-place updates of arguments then
/// become visible to the caller's value semantics), then indices and slices
/// are checked.
template <typename Options>
static std::string getFrontOfPipeline(const Options &options) {
  std::string pipeline = "inline,canonicalize,";
  if (options.boundsChecks)
    pipeline += "ndarray-bounds-checks,";
  return pipeline;
}

template <typename Options>
static std::string getCPUPipeline(const Options &options) {
  // Each stage is a textual upstream pipeline; docs/pipeline.md explains
  // why each pass is there.
  std::string pipeline =
      // ndarray -> linalg on tensors, shapes made static where known.
      "canonicalize,convert-ndarray-to-linalg,drop-regions,canonicalize,cse,"
      "resolve-shaped-type-result-dims,canonicalize,"
      "imex-slice-elementwise-producers,canonicalize,";
  if (options.fuseElementwise)
    pipeline += "imex-fuse-elementwise,canonicalize,cse,";
  pipeline +=
      // Loop-invariant sizes out of loops, so that the buffers of loop
      // temporaries can be allocated once (buffer-loop-hoisting) and
      // updates write at invariant positions.
      "scf-for-loop-canonicalization,loop-invariant-code-motion,";
  if (options.doubleBufferLoops)
    pipeline += "imex-double-buffer-loops,canonicalize,cse,";
  // (After double buffering, which follows chains through ghost writes.)
  pipeline += "imex-forward-ghost-writes,";
  pipeline +=
      // Tensors -> buffers, in place where possible, every buffer freed.
      "eliminate-empty-tensors,one-shot-bufferize{allow-return-allocs-from-"
      "loops bufferize-function-"
      "boundaries "
      "function-boundary-type-conversion=identity-layout-map},"
      // (CSE merges equal views, so that a copy of a view to itself, left
      // where a value computed in place is inserted back, folds away.)
      "canonicalize,cse,canonicalize,func.func(buffer-loop-hoisting),"
      "buffer-deallocation-"
      "pipeline,"
      "canonicalize,"
      // Copies of views as vectorizable loops, not element-wise calls.
      "imex-strided-copies-to-linalg,"
      // Loops, then the LLVM dialect.
      "convert-linalg-to-loops,canonicalize,fold-memref-alias-ops,"
      "expand-strided-metadata,"
      "lower-affine,convert-scf-to-cf,arith-expand,"
      "convert-math-to-funcs{convert-ctlz=false},"
      "math-extend-to-supported-types,";
  // Transcendental functions: libm calls (vectorized by the JIT unless
  // vector-math=0), the rest of math: LLVM intrinsics.
  pipeline += options.vectorMath ? "imex-math-to-libm{vector-math=1},"
                                 : "imex-math-to-libm{vector-math=0},";
  pipeline +=
      "convert-math-to-llvm,convert-math-to-libm,convert-vector-to-llvm,";
  pipeline += options.countAllocations
                  ? "finalize-memref-to-llvm{use-generic-functions=1},"
                  : "finalize-memref-to-llvm,";
  pipeline += "convert-arith-to-llvm,"
              "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
              "imex-llvm-noalias-args,"
              "reconcile-unrealized-casts";
  return pipeline;
}

static void addPipeline(OpPassManager &pm, StringRef name,
                        const std::string &pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error(llvm::Twine(name) + ": invalid pipeline");
}

void imex::buildCPUPipeline(OpPassManager &pm,
                            const CPUPipelineOptions &options) {
  addPipeline(pm, "imex-cpu-pipeline",
              getFrontOfPipeline(options) + getCPUPipeline(options));
}

void imex::buildDistCPUPipeline(OpPassManager &pm,
                                const DistCPUPipelineOptions &options) {
  // Distribution works on array SSA: value semantics first, then the
  // distributed ops become local ops plus distruntime communication, which
  // becomes IDTR calls before the ndarray ops are lowered.
  std::string pipeline =
      getFrontOfPipeline(options) +
      "ndarray-value-semantics,ndarray-dist,canonicalize,cse,";
  if (options.coalesce)
    pipeline += "dist-coalesce,canonicalize,cse,";
  if (options.inferElementwiseCores)
    pipeline += "dist-infer-elementwise-cores,";
  pipeline += "convert-dist-to-standard,canonicalize,cse,";
  if (options.overlapCommAndCompute)
    pipeline += "overlap-comm-and-compute,";
  if (options.addCommCacheKeys)
    pipeline += "add-comm-cache-keys,";
  pipeline += "lower-distruntime-to-idtr,";
  addPipeline(pm, "imex-dist-cpu-pipeline", pipeline + getCPUPipeline(options));
}

void imex::registerIMEXPipelines() {
  PassPipelineRegistration<CPUPipelineOptions>(
      "imex-cpu-pipeline",
      "Lower ndarray IR to the LLVM dialect for execution on the CPU",
      buildCPUPipeline);
  PassPipelineRegistration<DistCPUPipelineOptions>(
      "imex-dist-cpu-pipeline",
      "Lower ndarray IR with distributed arrays to the LLVM dialect calling "
      "the IDTR runtime (run under mpirun)",
      buildDistCPUPipeline);
}
