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

#endif // IMEX_DIALECT_REGION_TRANSFORMS_PASSES_TD
