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
         getBufferizationStage() + getCPUCodegenStage(options);
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
}
