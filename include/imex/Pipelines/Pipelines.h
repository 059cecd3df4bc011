//===- Pipelines.h - IMEX pass pipelines ------------------------*- C++ -*-===//

#ifndef IMEX_PIPELINES_PIPELINES_H
#define IMEX_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace imex {

/// Options of the CPU code generation, shared by the pipelines.
template <typename Derived>
struct CPUCodegenOptions : public mlir::PassPipelineOptions<Derived> {
  template <typename T>
  using Option =
      typename mlir::PassPipelineOptions<Derived>::template Option<T>;
  Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise linalg ops (off only to measure the "
                     "effect of fusion)"),
      llvm::cl::init(true)};
  Option<bool> boundsChecks{
      *this, "bounds-checks",
      llvm::cl::desc("Check indices and slices whose bounds are not known at "
                     "compile time at run time (ndarray-bounds-checks); off "
                     "only for benchmarks"),
      llvm::cl::init(true)};
  Option<bool> doubleBufferLoops{
      *this, "double-buffer-loops",
      llvm::cl::desc("Two buffers for tensors a loop updates from their "
                     "previous version, instead of a copy per iteration "
                     "(imex-double-buffer-loops)"),
      llvm::cl::init(true)};
  Option<int64_t> rowBlockBytes{
      *this, "row-block-bytes",
      llvm::cl::desc("Updates that read rows of their target around the "
                     "written ones are computed a block of rows of this many "
                     "bytes at a time, through a ring written back behind "
                     "the rows still read (imex-keep-update-temporaries); 0: "
                     "into a temporary the size of the update"),
      llvm::cl::init(32768)};
  Option<bool> vectorMath{
      *this, "vector-math",
      llvm::cl::desc("Let the JIT call the vector variants of libm functions "
                     "(glibc's libmvec, at most 4 ulps) in vectorized loops; "
                     "off: scalar libm calls (imex-math-to-libm)"),
      llvm::cl::init(true)};
  Option<bool> blas{
      *this, "blas",
      llvm::cl::desc("Call BLAS gemm for the matrix products of f32, f64 "
                     "and complex arrays (imex-linalg-to-blas); off: loops"),
      llvm::cl::init(true)};
  Option<bool> countAllocations{
      *this, "count-allocations",
      llvm::cl::desc("Allocate through the functions of "
                     "libimex_runner_utils, which count (set "
                     "IMEX_ALLOCATION_STATS=1 to print allocations and frees "
                     "at exit: leak tests) and put blocks of 4 MiB or more "
                     "on transparent huge pages, as numpy does; off: malloc "
                     "and free"),
      llvm::cl::init(true)};
};

struct CPUPipelineOptions : public CPUCodegenOptions<CPUPipelineOptions> {};

/// Options of the distribution stage, shared by the distributed pipelines.
template <typename Derived>
struct DistCodegenOptions : public CPUCodegenOptions<Derived> {
  template <typename T>
  using Option = typename CPUCodegenOptions<Derived>::template Option<T>;
  Option<bool> coalesce{
      *this, "dist-coalesce",
      llvm::cl::desc("One halo exchange per array and block for all the "
                     "views that read it (dist-coalesce)"),
      llvm::cl::init(true)};
  Option<int> ghostZoneDepth{
      *this, "ghost-zone-depth",
      llvm::cl::desc("Steps per halo exchange of stencil time-step loops, "
                     "the overlap recomputed (dist-expand-ghost-zones): 0 "
                     "chooses by its cost model, -1 exchanges every step"),
      llvm::cl::init(0)};
  Option<double> exchangeCostUs{
      *this, "exchange-cost-us",
      llvm::cl::desc("The cost of a halo exchange in microseconds, for "
                     "dist-expand-ghost-zones' cost model"),
      llvm::cl::init(20.0)};
  Option<bool> overlapCommAndCompute{
      *this, "overlap-comm-and-compute",
      llvm::cl::desc("Start halo exchanges early, compute what needs no "
                     "received data while they are in flight and wait late "
                     "(overlap-comm-and-compute)"),
      llvm::cl::init(true)};
  Option<bool> splitInterior{
      *this, "split-interior",
      llvm::cl::desc("Compute the interior rows of stencil updates (those "
                     "reading no ghost cells) while their halos are in "
                     "flight, the boundary rows after the wait "
                     "(overlap-comm-and-compute{split-interior}; triples the "
                     "code of each update)"),
      llvm::cl::init(false)};
  Option<bool> addCommCacheKeys{
      *this, "add-comm-cache-keys",
      llvm::cl::desc("Let IDTR reuse the plans of exchanges in loops "
                     "(add-comm-cache-keys)"),
      llvm::cl::init(true)};
};

struct DistCPUPipelineOptions
    : public DistCodegenOptions<DistCPUPipelineOptions> {};

/// Options of the GPU code generation, added to `Base`'s.
template <typename Base> struct GPUCodegenOptions : public Base {
  template <typename T> using Option = typename Base::template Option<T>;
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The CUDA architecture of the kernels (nvvm target)"),
      llvm::cl::init("sm_80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the kernels are compiled to: bin (cubin through "
                     "ptxas), isa (PTX text, compiled by the driver at load "
                     "time), fatbin, or auto: bin where ptxas is found (on "
                     "PATH or in CUDA_HOME, /usr/local/cuda), else isa"),
      llvm::cl::init("auto")};
  Option<int> optLevel{*this, "opt-level",
                       llvm::cl::desc("Optimization level of the kernels"),
                       llvm::cl::init(3)};
};

struct GPUPipelineOptions
    : public GPUCodegenOptions<CPUCodegenOptions<GPUPipelineOptions>> {};

struct DistGPUPipelineOptions
    : public GPUCodegenOptions<DistCodegenOptions<DistGPUPipelineOptions>> {};

struct GPUEmulationPipelineOptions
    : public CPUCodegenOptions<GPUEmulationPipelineOptions> {};

struct DistGPUEmulationPipelineOptions
    : public DistCodegenOptions<DistGPUEmulationPipelineOptions> {};

/// ndarray IR (without distribution) down to the LLVM dialect, ready for
/// the ExecutionEngine: see docs/pipeline.md.
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);

/// ndarray IR with arrays on teams down to the LLVM dialect calling the IDTR
/// runtime (run under mpirun): see docs/distribution.md. Without teams the
/// same as the CPU pipeline.
void buildDistCPUPipeline(mlir::OpPassManager &pm,
                          const DistCPUPipelineOptions &options);

/// ndarray IR with arrays in GPU environments down to the LLVM dialect:
/// host code calling the GPU runtime (libimex_cuda_runtime) and kernels
/// embedded as CUDA binaries: see docs/gpu.md.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options);

/// imex-gpu-pipeline up to the kernels, which then run on the host, one
/// loop iteration per GPU thread (imex-gpu-to-host): execution tests of the
/// GPU lowering on machines without a device.
void buildGPUEmulationPipeline(mlir::OpPassManager &pm,
                               const GPUEmulationPipelineOptions &options);

/// Distributed arrays on GPUs: the distribution stage of
/// imex-dist-cpu-pipeline, then imex-gpu-pipeline with every buffer in
/// memory shared by host and device (IDTR exchanges halos on the host).
void buildDistGPUPipeline(mlir::OpPassManager &pm,
                          const DistGPUPipelineOptions &options);

/// imex-dist-gpu-pipeline with the kernels run on the host.
void buildDistGPUEmulationPipeline(
    mlir::OpPassManager &pm, const DistGPUEmulationPipelineOptions &options);

/// Whether ptxas can be found (on PATH, in $CUDA_HOME/bin or
/// /usr/local/cuda/bin): kernels are then compiled to cubins.
bool hasPtxas();

/// Registers `imex-cpu-pipeline`, `imex-dist-cpu-pipeline` and
/// `imex-gpu-pipeline`.
void registerIMEXPipelines();

} // namespace imex

#endif // IMEX_PIPELINES_PIPELINES_H
