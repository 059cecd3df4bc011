//===- Passes.h - dist dialect passes ---------------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_DIST_TRANSFORMS_PASSES_H
#define IMEX_DIALECT_DIST_TRANSFORMS_PASSES_H

#include "imex/Dialect/Dist/IR/Dist.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace imex::dist {

/// Adds patterns rewriting `dist.default_partition`,
/// `dist.local_target_of_slice`, `dist.local_bounding_box` and
/// `dist.local_core` into arith ops (plus `dist.local_offsets_of`,
/// `dist.owned_block_of` and `ndarray.dim` for owned blocks not known
/// statically).
void populateExpandDistIndexOpsPatterns(mlir::RewritePatternSet &patterns);

#define GEN_PASS_DECL
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"

} // namespace imex::dist

#endif // IMEX_DIALECT_DIST_TRANSFORMS_PASSES_H
