//===- CPUPipeline.cpp - ndarray to LLVM for CPUs -------------------------===//

#include "PipelineStages.h"
#include "imex/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace imex::pipeline_stages;

/// The CPU pipeline from ndarray IR to the LLVM dialect.
template <typename Options>
static std::string getCPUPipeline(const Options &options) {
  return getTensorStage(options, /*dropRegions=*/true) +
         getBufferizationStage(options.rowBlockBytes) +
         getCPUCodegenStage(options);
}

void imex::pipeline_stages::addPipeline(OpPassManager &pm, StringRef name,
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
  addPipeline(pm, "imex-dist-cpu-pipeline",
              getFrontOfPipeline(options) + getDistStage(options) +
                  getCPUPipeline(options));
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
  PassPipelineRegistration<GPUPipelineOptions>(
      "imex-gpu-pipeline",
      "Lower ndarray IR with arrays in #region.gpu_env environments to the "
      "LLVM dialect: host code calling the GPU runtime and the kernels as "
      "CUDA binaries (cubin, or PTX without ptxas)",
      buildGPUPipeline);
  PassPipelineRegistration<GPUEmulationPipelineOptions>(
      "imex-gpu-emulation-pipeline",
      "imex-gpu-pipeline with the kernels run on the host, one loop "
      "iteration per GPU thread (tests without a device)",
      buildGPUEmulationPipeline);
  PassPipelineRegistration<DistGPUPipelineOptions>(
      "imex-dist-gpu-pipeline",
      "Distributed arrays on GPUs: imex-dist-cpu-pipeline's distribution, "
      "then imex-gpu-pipeline with buffers in memory shared by host and "
      "device (run under mpirun)",
      buildDistGPUPipeline);
  PassPipelineRegistration<DistGPUEmulationPipelineOptions>(
      "imex-dist-gpu-emulation-pipeline",
      "imex-dist-gpu-pipeline with the kernels run on the host (tests "
      "without a device, under mpirun)",
      buildDistGPUEmulationPipeline);
}
