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
    `dist.init_dist_array` where known, else from `dist.local_offsets_of`
    and `ndarray.dim` of `dist.owned_block_of`, which are left for the
    conversion of the `dist` dialect. Constant operands are folded while expanding; the formulas are
    the ones the folders use. The patterns are available as
    `imex::dist::populateExpandDistIndexOpsPatterns`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::imex::dist::DistDialect",
                           "::imex::ndarray::NDArrayDialect"];
}


def DistCoalesce : Pass<"dist-coalesce"> {
  let summary = "Exchange each array once for all the views that read it";
  let description = [{
    Reduces the halo exchanges ndarray-dist creates (one per aligned
    operand) to one per array and block:

    1. A `dist.repartition` of the result of a row-wise op (elementwise
       ops, `where`, element type conversions, concatenation along a
       dimension > 0) whose distributed operands hold the same rows is
       replaced by the op computed on its operands repartitioned to the
       requested rows, when the op has no other user reading its data. A
       chain of elementwise ops feeding an insert then computes exactly the
       rows the insert writes, and only views of stored arrays are
       exchanged. Repartitions of repartitions collapse; a repartition to
       the rows its source holds (the same offset and size values) is
       removed.
    2. Within a block, the repartitions of views (`ndarray.subview`,
       `ndarray.extract_slice` keeping dimension 0) of one array are merged
       into one `dist.repartition` of the array to the bounding box of the
       rows they read (`dist.local_bounding_box`), placed at the first of
       them; each view then takes its rows out of it with
       `dist.local_repartition` (no communication). Arrays have value
       semantics here (run `ndarray-value-semantics` first), so a write
       creates a new array and requests are never merged across it.
       Requests whose index values cannot be computed at the first request
       (values defined by ops with side effects) are left alone.
  }];
  let dependentDialects = ["::imex::dist::DistDialect",
                           "::imex::ndarray::NDArrayDialect"];
}

#endif // IMEX_DIALECT_DIST_TRANSFORMS_PASSES_TD
