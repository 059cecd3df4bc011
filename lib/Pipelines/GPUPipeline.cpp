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

/// Ops on GPU arrays in regions (merged where adjacent), then through the
/// tensor and bufferization stages to device allocations, transfers and
/// gpu.launch ops. `hostShared`: every buffer in memory shared by host and
/// device (distributed arrays, whose halos the host exchanges).
template <typename Options>
static std::string getGPUKernelStage(const Options &options, bool hostShared) {
  std::string shared = hostShared ? "{host-shared=1}" : "";
  return "add-gpu-regions" + shared + ",canonicalize," +
         getTensorStage(options, /*dropRegions=*/false) +
         getBufferizationStage(/*rowBlockBytes=*/0) +
         "func.func(convert-region-to-gpu" + shared +
         "),drop-regions,canonicalize,cse,";
}

/// The front of the single-device pipelines: regions before the bounds
/// checks, which would split them (the checks stay on the host).
template <typename Options>
static std::string getGPUFront(const Options &options) {
  std::string pipeline = "inline,canonicalize,add-gpu-regions,canonicalize,";
  if (options.boundsChecks)
    pipeline += "ndarray-bounds-checks,";
  return pipeline;
}

/// Kernels outlined and compiled, host code calling the GPU runtime.
template <typename Options>
static std::string getNVVMStage(const Options &options) {
  std::string format = options.format;
  if (format == "auto")
    format = imex::hasPtxas() ? "bin" : "isa";
  return
      // The remaining host code as on the CPU (reshapes with a shape buffer
      // as views, which upstream's host lowering expects).
      "imex-strided-copies-to-linalg,convert-linalg-to-loops,memref-expand,"
      "canonicalize,"
      // Complex arithmetic on the components, in the kernels too (upstream's
      // NVVM lowering has no complex patterns; the casts between complex
      // values and their LLVM structs cancel once memrefs are lowered).
      "convert-complex-to-standard,convert-complex-to-llvm,"
      // Kernels outlined, transfers and launches made asynchronous (each
      // waits only for what it depends on; allocations of shared memory
      // stay synchronous, as upstream lowers them).
      "gpu-kernel-outlining,func.func(gpu-async-region,"
      "imex-gpu-sync-shared-allocs),"
      // Upstream's lowering: kernels to NVVM and a binary, host code calling
      // the GPU runtime.
      "gpu-lower-to-nvvm-pipeline{cubin-chip=" +
      options.chip.getValue() + " cubin-features=\"\" cubin-format=" + format +
      " opt-level=" + std::to_string(options.optLevel) + "}";
}

/// Kernels run on the host, then the CPU code generation.
template <typename Options>
static std::string getEmulationStage(const Options &options) {
  return "func.func(imex-gpu-to-host),canonicalize," +
         getCPUCodegenStage(options);
}

void imex::buildGPUPipeline(OpPassManager &pm,
                            const GPUPipelineOptions &options) {
  addPipeline(pm, "imex-gpu-pipeline",
              getGPUFront(options) +
                  getGPUKernelStage(options, /*hostShared=*/false) +
                  getNVVMStage(options));
}

void imex::buildGPUEmulationPipeline(
    OpPassManager &pm, const GPUEmulationPipelineOptions &options) {
  addPipeline(pm, "imex-gpu-emulation-pipeline",
              getGPUFront(options) +
                  getGPUKernelStage(options, /*hostShared=*/false) +
                  getEmulationStage(options));
}

void imex::buildDistGPUPipeline(OpPassManager &pm,
                                const DistGPUPipelineOptions &options) {
  addPipeline(pm, "imex-dist-gpu-pipeline",
              getFrontOfPipeline(options) + getDistStage(options) +
                  getGPUKernelStage(options, /*hostShared=*/true) +
                  getNVVMStage(options));
}

void imex::buildDistGPUEmulationPipeline(
    OpPassManager &pm, const DistGPUEmulationPipelineOptions &options) {
  addPipeline(pm, "imex-dist-gpu-emulation-pipeline",
              getFrontOfPipeline(options) + getDistStage(options) +
                  getGPUKernelStage(options, /*hostShared=*/true) +
                  getEmulationStage(options));
}
