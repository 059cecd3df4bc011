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

def DistExpandGhostZones : Pass<"dist-expand-ghost-zones"> {
  let summary = "Exchange halos of k steps at once in stencil time-step "
                "loops and recompute the overlap (communication avoiding)";
  let description = [{
    Runs after `ndarray-dist` (before `dist-coalesce`). A time-step loop
    (`scf.for` without uses of its induction variable) carrying
    row-distributed arrays of one static shape, whose body updates each
    carried array at most once, by an insert of a chain of row-wise ops
    (elementwise ops, `where`, element type conversions) of views of the
    carried arrays at constant row offsets, reads rows up to `h` away from
    the rows it writes, and exchanges halos of `h` rows every step.

    With depth k (even), each rank instead keeps its owned block widened by
    `k*h` rows on each side in two local buffers, fetches the `k*h` rows on
    each side with one `distruntime.get_halo` every k steps and computes the
    k steps locally, alternating between the buffers: step j of a block
    (0-based) computes the written rows within `(k-1-j)*h` rows of the owned
    block, so that step j+1 finds the rows it reads valid; the last step
    computes the owned rows. Each element is the same expression of the same
    inputs as with one exchange per step: the results are bitwise equal.
    The blocks run in front of the loop, which keeps the remaining
    iterations (fewer than k).

    k: `depth` if > 0, else the cost model: per step the exchange cost is
    divided by k and `h*(k-1)` more rows are computed, optimal at
    `k = sqrt(exchange-cost-us / (h * row cost))`, the row cost being
    `element-cost-ns` times the elements of a row times the row-wise ops of
    a step; rounded down to even, at most `max-depth` (unless `depth` is
    larger). At run time k is further limited so that `k*h` rows come from
    the neighbours only (at most the rows of the smallest block), and is 1
    on one rank: the loop then runs unchanged.
  }];
  let options = [
    Option<"depth", "depth", "int64_t", /*default=*/"0",
           "Steps per halo exchange (even; 0: the cost model)">,
    Option<"maxDepth", "max-depth", "int64_t", /*default=*/"8",
           "The cost model's largest depth">,
    Option<"exchangeCostUs", "exchange-cost-us", "double",
           /*default=*/"20.0",
           "The cost of a halo exchange, in microseconds (latency and the "
           "wait for the neighbours)">,
    Option<"elementCostNs", "element-cost-ns", "double", /*default=*/"0.5",
           "The cost of one row-wise op on one element, in nanoseconds">
  ];
  let dependentDialects = ["::imex::dist::DistDialect",
                           "::imex::distruntime::DistRuntimeDialect",
                           "::imex::ndarray::NDArrayDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // IMEX_DIALECT_DIST_TRANSFORMS_PASSES_TD
