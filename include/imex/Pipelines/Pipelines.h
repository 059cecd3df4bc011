//===- Pipelines.h - IMEX pass pipelines ------------------------*- C++ -*-===//

#ifndef IMEX_PIPELINES_PIPELINES_H
#define IMEX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace imex {

struct CPUPipelineOptions
    : public mlir::PassPipelineOptions<CPUPipelineOptions> {
  Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops (off only to measure the "
                     "effect of fusion)"),
      llvm::cl::init(true)};
  Option<bool> countAllocations{
      *this, "count-allocations",
      llvm::cl::desc("Allocate through the counting functions of "
                     "libimex_runner_utils (set IMEX_ALLOCATION_STATS=1 to "
                     "print allocations and frees at exit): leak tests"),
      llvm::cl::init(false)};
};

/// ndarray IR (without distribution) down to the LLVM dialect, ready for
/// the ExecutionEngine: see docs/pipeline.md.
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);

/// Registers `imex-cpu-pipeline`.
void registerIMEXPipelines();

} // namespace imex

#endif // IMEX_PIPELINES_PIPELINES_H
