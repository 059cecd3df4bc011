//===- PipelineStages.h - stages shared by the pipelines --------*- C++ -*-===//
//
// Each stage is a textual upstream pipeline; docs/pipeline.md explains why
// each pass is there.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_PIPELINES_PIPELINESTAGES_H
#define IMEX_LIB_PIPELINES_PIPELINESTAGES_H

#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace imex::pipeline_stages {

/// Parses `pipeline` into `pm`; an invalid pipeline is a bug of ours.
void addPipeline(mlir::OpPassManager &pm, llvm::StringRef name,
                 const std::string &pipeline);

/// Calls of array functions are inlined (in-place updates of arguments then
/// become visible to the caller's value semantics), then indices and slices
/// are checked.
template <typename Options>
std::string getFrontOfPipeline(const Options &options) {
  std::string pipeline = "inline,canonicalize,";
  if (options.boundsChecks)
    pipeline += "ndarray-bounds-checks,";
  return pipeline;
}

/// Distribution works on array SSA: value semantics first, then the
/// distributed ops become local ops plus distruntime communication, which
/// becomes IDTR calls before the ndarray ops are lowered.
template <typename Options> std::string getDistStage(const Options &options) {
  std::string pipeline =
      "ndarray-value-semantics,ndarray-dist,canonicalize,cse,"
      // (Twice more: sizes of distributed arrays fold to their global sizes,
      // CSE makes their comparisons one value, then the broadcast size of
      // equal sizes folds to the size, `select(n == 0 || n == 0, 0, n)`,
      // and the operands of elementwise ops are seen aligned.)
      "canonicalize,cse,canonicalize,cse,";
  if (options.ghostZoneDepth >= 0)
    pipeline += "dist-expand-ghost-zones{depth=" +
                std::to_string(options.ghostZoneDepth) +
                " exchange-cost-us=" + std::to_string(options.exchangeCostUs) +
                "},canonicalize,cse,";
  if (options.coalesce)
    pipeline += "dist-coalesce,canonicalize,cse,";
  pipeline += "convert-dist-to-standard,canonicalize,cse,";
  if (options.overlapCommAndCompute)
    pipeline += options.splitInterior
                    ? "overlap-comm-and-compute{split-interior=1},"
                    : "overlap-comm-and-compute,";
  if (options.addCommCacheKeys)
    pipeline += "add-comm-cache-keys,";
  pipeline += "lower-distruntime-to-idtr,";
  return pipeline;
}

/// ndarray -> linalg on tensors, shapes made static where known, fused.
/// The ndarray ops the runtime implements (sort) become IDTR calls first
/// (after the dist stage this finds nothing else to lower).
/// `dropRegions`: the environment regions are not needed below (CPU).
template <typename Options>
std::string getTensorStage(const Options &options, bool dropRegions) {
  std::string pipeline =
      "lower-distruntime-to-idtr,canonicalize,convert-ndarray-to-linalg,";
  if (dropRegions)
    pipeline += "drop-regions,";
  pipeline += "canonicalize,cse,"
              "resolve-shaped-type-result-dims,canonicalize,"
              // (Sizes resolved equal: their broadcasting tests as one
              // value, which folds, `select(n == 0 || n == 0, 0, n)`.)
              "cse,canonicalize,"
              "imex-slice-elementwise-producers,canonicalize,";
  if (options.fuseElementwise)
    pipeline += "imex-fuse-elementwise,canonicalize,cse,";
  pipeline +=
      // Loop-invariant sizes out of loops, so that the buffers of loop
      // temporaries can be allocated once (buffer-loop-hoisting) and
      // updates write at invariant positions.
      "scf-for-loop-canonicalization,loop-invariant-code-motion,";
  if (options.doubleBufferLoops)
    // (Then the index arithmetic of the frames of rotated buffers out of
    // the loop, so that their allocations are hoisted.)
    pipeline += "imex-double-buffer-loops,canonicalize,cse,"
                "loop-invariant-code-motion,";
  // (After double buffering, which follows chains through ghost writes.)
  pipeline += "imex-forward-ghost-writes,";
  return pipeline;
}

/// Tensors -> buffers, in place where possible, every buffer freed.
/// `rowBlockBytes`: updates reading what they overwrite computed a block of
/// rows of that size at a time through a ring (CPU; 0: one temporary, one
/// kernel over the whole update on GPUs).
inline std::string getBufferizationStage(int64_t rowBlockBytes) {
  return "imex-keep-update-temporaries{block-bytes=" +
         std::to_string(rowBlockBytes) +
         "},imex-eliminate-empty-tensors,"
         // (A view an elementwise op reads and the slice it then writes,
         // both of one destination at equal offsets, as one value: one-shot
         // bufferization sees the update in place, `d[s] = d[s] + x`.)
         "cse,"
         "one-shot-bufferize{allow-return-allocs-from-"
         "loops bufferize-function-boundaries "
         "function-boundary-type-conversion=identity-layout-map},"
         // (CSE merges equal views, so that a copy of a view to itself, left
         // where a value computed in place is inserted back, folds away.)
         "canonicalize,cse,canonicalize,"
         // (Before the halo buffers are hoisted out of loops.)
         "receive-halos-in-place,func.func(buffer-loop-hoisting),"
         "buffer-deallocation-pipeline,"
         "canonicalize,";
}

/// Buffers and loops to the LLVM dialect for the host CPU.
template <typename Options>
std::string getCPUCodegenStage(const Options &options) {
  std::string pipeline = options.blas ? "imex-linalg-to-blas," : "";
  pipeline +=
      // Copies of views as vectorizable loops, not element-wise calls.
      "imex-strided-copies-to-linalg,"
      // Loops, then the LLVM dialect.
      "convert-linalg-to-loops,canonicalize,fold-memref-alias-ops,"
      "expand-strided-metadata,"
      "lower-affine,convert-scf-to-cf,"
      // Complex transcendental functions: the C library's (Annex G special
      // cases); the rest of complex arithmetic on the components.
      "imex-complex-to-libm,convert-complex-to-standard,"
      "imex-expand-divisions,"
      "convert-math-to-funcs{convert-ctlz=false},"
      "math-extend-to-supported-types,";
  // Transcendental functions: libm calls (vectorized by the JIT unless
  // vector-math=0), the rest of math: LLVM intrinsics.
  pipeline += options.vectorMath ? "imex-math-to-libm{vector-math=1},"
                                 : "imex-math-to-libm{vector-math=0},";
  pipeline +=
      "convert-math-to-llvm,convert-math-to-libm,convert-vector-to-llvm,";
  // (aligned_alloc: the aligned pointer is the allocation's, not an
  // integer rounded up from it, so LLVM knows it aliases nothing else and
  // vectorizes loops writing a fresh buffer without run-time checks.)
  pipeline += options.countAllocations
                  ? "finalize-memref-to-llvm{use-generic-functions=1 "
                    "use-aligned-alloc=1},"
                  : "finalize-memref-to-llvm{use-aligned-alloc=1},";
  pipeline += "convert-complex-to-llvm,convert-arith-to-llvm,"
              "convert-index-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
              "imex-llvm-noalias-args,"
              // (Each lowering rebuilds what it needs: memref descriptors
              // assembled field by field and taken apart again for loads
              // and calls, equal constants. Folded and merged here, the
              // module LLVM translates and optimizes is 35-40% smaller.)
              "reconcile-unrealized-casts,canonicalize,cse";
  return pipeline;
}

} // namespace imex::pipeline_stages

#endif // IMEX_LIB_PIPELINES_PIPELINESTAGES_H
