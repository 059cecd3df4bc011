//===- ExpandIndexOps.cpp - dist index ops to arith -----------------------===//

#include "imex/Dialect/Dist/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex::dist {
#define GEN_PASS_DEF_DISTEXPANDINDEXOPS
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace imex::dist

using namespace mlir;
using namespace imex::dist;

namespace {
/// Replaces an index op by the arith ops computing its results.
template <typename OpTy> struct ExpandIndexOp : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    IndexMath math(rewriter, op.getLoc());
    SmallVector<OpFoldResult> results;
    // With a builder this only fails on malformed operand lists, before
    // anything is created.
    if (failed(op.computeResults(math, {}, results)))
      return rewriter.notifyMatchFailure(op, "malformed operand lists");
    rewriter.replaceOp(
        op, getValueOrCreateConstantIndexOp(rewriter, op.getLoc(), results));
    return success();
  }
};

struct DistExpandIndexOpsPass
    : public imex::dist::impl::DistExpandIndexOpsBase<DistExpandIndexOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandDistIndexOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void imex::dist::populateExpandDistIndexOpsPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<ExpandIndexOp<DefaultPartitionOp>, ExpandIndexOp<GridPartitionOp>,
           ExpandIndexOp<LocalTargetOfSliceOp>,
           ExpandIndexOp<LocalBoundingBoxOp>, ExpandIndexOp<LocalCoreOp>>(
          patterns.getContext());
}
