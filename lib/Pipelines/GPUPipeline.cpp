//===- GPUPipeline.cpp - ndarray to LLVM with CUDA kernels ----------------===//

#include "PipelineStages.h"
#include "imex/Pipelines/Pipelines.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace mlir;
using namespace imex::pipeline_stages;

bool imex::hasPtxas() {
  if (llvm::sys::findProgramByName("ptxas"))
    return true;
  const char *cudaHome = std::getenv("CUDA_HOME");
  for (const char *root : {cudaHome, "/usr/local/cuda"}) {
    if (!root)
      continue;
    llvm::SmallString<128> path(root);
    llvm::sys::path::append(path, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return true;
  }
  return false;
}

/// ndarray IR to device allocations, transfers and gpu.launch ops (the
/// rest on buffers and loops).
template <typename Options>
static std::string getGPUKernelStage(const Options &options) {
  // GPU arrays' ops in regions, merged where adjacent (before the bounds
  // checks, which would split them; the checks stay on the host).
  std::string pipeline = "inline,canonicalize,add-gpu-regions,canonicalize,";
  if (options.boundsChecks)
    pipeline += "ndarray-bounds-checks,";
  pipeline += getTensorStage(options, /*dropRegions=*/false) +
              getBufferizationStage() +
              // Device allocations, transfers and kernels.
              "func.func(convert-region-to-gpu),drop-regions,canonicalize,cse,";
  return pipeline;
}

void imex::buildGPUPipeline(OpPassManager &pm,
                            const GPUPipelineOptions &options) {
  std::string format = options.format;
  if (format == "auto")
    format = hasPtxas() ? "bin" : "isa";
  std::string pipeline =
      getGPUKernelStage(options) +
      // The remaining host code as on the CPU.
      "imex-strided-copies-to-linalg,convert-linalg-to-loops,canonicalize,"
      // Kernels outlined, transfers and launches made asynchronous (each
      // waits only for what it depends on).
      "gpu-kernel-outlining,func.func(gpu-async-region),"
      // Upstream's lowering: kernels to NVVM and a binary, host code calling
      // the GPU runtime.
      "gpu-lower-to-nvvm-pipeline{cubin-chip=" +
      options.chip.getValue() + " cubin-features=\"\" cubin-format=" + format +
      " opt-level=" + std::to_string(options.optLevel) + "}";
  addPipeline(pm, "imex-gpu-pipeline", pipeline);
}

void imex::buildGPUEmulationPipeline(
    OpPassManager &pm, const GPUEmulationPipelineOptions &options) {
  addPipeline(pm, "imex-gpu-emulation-pipeline",
              getGPUKernelStage(options) +
                  "func.func(imex-gpu-to-host),canonicalize," +
                  getCPUCodegenStage(options));
}
