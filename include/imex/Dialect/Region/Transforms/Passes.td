//===- Passes.td - region dialect passes ----------------------*- tablegen -*-//

#ifndef IMEX_DIALECT_REGION_TRANSFORMS_PASSES_TD
#define IMEX_DIALECT_REGION_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DropRegions : Pass<"drop-regions"> {
  let summary = "Inline every region.env_region into its parent";
  let description = [{
    Replaces each `region.env_region` by the operations of its body and its
    results by the yielded values, once no later pass needs the environment
    annotation (e.g. before bufferization on the CPU).
  }];
}

def AddGPURegions : Pass<"add-gpu-regions"> {
  let summary = "Wrap the ndarray ops on GPU arrays in region.env_region ops";
  let description = [{
    Every ndarray op whose result (or, without array results, whose operand)
    lives in a `#region.gpu_env` environment is moved into a
    `region.env_region` carrying that environment. Consecutive such ops form
    one region (pure scalar ops between them are moved out of the way), so
    that their lowering fuses; a loop or `scf.if` whose body has only such
    ops and scalar computations is wrapped as a whole, so that the buffers
    its iterations carry are allocated on the device too. A copy to the host
    (`ndarray.copy` of a GPU array to a host array) stays outside: it is the
    transfer back.

    Reading a GPU array on the host (`ndarray.load`, `ndarray.to_tensor`)
    without an explicit `ndarray.copy` to the host is an error, unless
    `host-shared` says that device memory is accessible from the host (CUDA
    managed memory, as `convert-region-to-gpu{host-shared=1}` allocates it
    for distributed arrays, whose halos the host exchanges).
  }];
  let options = [
    Option<"hostShared", "host-shared", "bool", /*default=*/"false",
           "Device memory is accessible from the host: host reads of GPU "
           "arrays are allowed">
  ];
  let dependentDialects = ["::imex::region::RegionDialect"];
}

#endif // IMEX_DIALECT_REGION_TRANSFORMS_PASSES_TD
