//===- Passes.td - dist dialect passes ------------------------*- tablegen -*-//

#ifndef IMEX_DIALECT_DIST_TRANSFORMS_PASSES_TD
#define IMEX_DIALECT_DIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def DistExpandIndexOps : Pass<"dist-expand-index-ops"> {
  let summary = "Expand the dist index computations to arith";
  let description = [{
    Rewrites `dist.default_partition`, `dist.local_target_of_slice`,
    `dist.local_bounding_box` and `dist.local_core` into `arith` ops
    (`ceildivsi`, `minsi`, `maxsi`, `select`, ...; run `arith-expand` before
    lowering to LLVM). The owned block of a distributed array comes from its
    type where static, else from `dist.local_offsets_of`, `dist.parts_of`
    and `ndarray.dim`, which are left for the conversion of the `dist`
    dialect. Constant operands are folded while expanding; the formulas are
    the ones the folders use. The patterns are available as
    `imex::dist::populateExpandDistIndexOpsPatterns`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::imex::dist::DistDialect",
                           "::imex::ndarray::NDArrayDialect"];
}

#endif // IMEX_DIALECT_DIST_TRANSFORMS_PASSES_TD
