//===- DropRegions.cpp - inline region.env_region -------------------------===//

#include "imex/Dialect/Region/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace imex::region {
#define GEN_PASS_DEF_DROPREGIONS
#include "imex/Dialect/Region/Transforms/Passes.h.inc"
} // namespace imex::region

using namespace mlir;
using namespace imex::region;

namespace {
struct DropRegionsPass
    : public imex::region::impl::DropRegionsBase<DropRegionsPass> {
  void runOnOperation() override {
    SmallVector<EnvRegionOp> regions;
    getOperation()->walk([&](EnvRegionOp op) { regions.push_back(op); });
    IRRewriter rewriter(&getContext());
    // Post-order: nested regions are inlined before their parents.
    for (EnvRegionOp op : regions) {
      rewriter.setInsertionPoint(op);
      EnvRegionOp::inlineIntoParent(rewriter, op);
    }
  }
};
} // namespace
