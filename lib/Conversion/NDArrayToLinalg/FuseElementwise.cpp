//===- FuseElementwise.cpp - fusion of producers with several uses --------===//
//
// Upstream's linalg-fuse-elementwise-ops fuses a producer into its consumer
// only when the consumer is its only use. Array programs are DAGs: in
// `q = -log(r); x = q * cos(f); z = q * c` the producer q feeds several
// consumers, stays a loop of its own and is stored in a temporary that the
// others read back. Upstream's fusion can keep a producer's result as an
// extra result of the fused op (`linalg::fuseElementwiseOps`), so a producer
// is fused into its first consumer whenever every other use comes later in
// the block: the fused op, built at the consumer, then replaces the producer
// everywhere and nothing is computed twice. Fusing on, the whole DAG becomes
// one loop nest with one result per array the program keeps.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// Whether the fused op, built at the consumer of `fusedOperand`, can take
/// the place of the producer for all its other uses: producer and consumer
/// are in one block and the other uses come after the consumer.
bool otherUsesFollowConsumer(OpOperand *fusedOperand) {
  Operation *consumer = fusedOperand->getOwner();
  Operation *producer = fusedOperand->get().getDefiningOp();
  // A producer outside the consumer's loop would be computed in every
  // iteration.
  if (!producer || producer->getBlock() != consumer->getBlock())
    return false;
  // The fused op computes each element of the producer's kept result only
  // where the consumer's loop reads it: the consumer must read every
  // element exactly once. A broadcasting read (b of shape 1x2 read by a
  // loop over 0x2, or over 3x2) covers no element, or covers each several
  // times, and the kept result would be left uncomputed where no iteration
  // reads it.
  auto consumerOp = cast<linalg::LinalgOp>(consumer);
  if (!consumerOp.getMatchingIndexingMap(fusedOperand).isPermutation())
    return false;
  for (OpOperand &use : producer->getUses()) {
    Operation *user = use.getOwner();
    if (user == consumer)
      continue;
    Operation *ancestor = consumer->getBlock()->findAncestorOpInBlock(*user);
    if (!ancestor || ancestor == consumer ||
        !consumer->isBeforeInBlock(ancestor))
      return false;
  }
  return true;
}

/// Fuses a producer into its consumer (upstream's fuseElementwiseOps) and,
/// unlike upstream's pattern, which leaves a producer with other users in
/// place (they may precede the consumer), replaces the producer's results
/// everywhere by the fused op's when otherUsesFollowConsumer holds.
struct FuseIntoFirstConsumer : public OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp consumer,
                                PatternRewriter &rewriter) const override {
    for (OpOperand &operand : consumer->getOpOperands()) {
      auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !linalg::areElementwiseOpsFusable(&operand) ||
          !otherUsesFollowConsumer(&operand))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, &operand);
      if (failed(fused))
        continue;
      // Other operands of the consumer reading the producer stay operands of
      // the fused op: the producer is fused into it again on a later visit
      // and CSE merges the two copies of its body.
      Operation *fusedOp = fused->fusedOp;
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.getOwner() != fusedOp;
        });
      rewriter.eraseOp(consumer);
      if (producer->use_empty())
        rewriter.eraseOp(producer);
      return success();
    }
    return failure();
  }
};

struct FuseElementwisePass
    : public imex::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // Upstream's patterns (with its rule for single-use producers) also
    // fold constants and fills into the fused ops.
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *fusedOperand) {
          Operation *producer = fusedOperand->get().getDefiningOp();
          return producer && producer->hasOneUse();
        });
    patterns.add<FuseIntoFirstConsumer>(context);
    // Results no one reads any more (a producer's, once every consumer has
    // fused it) and duplicated operands go.
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::EmptyOp::getCanonicalizationPatterns(patterns, context);
    // Producers before consumers, as fuseElementwiseOps expects when a
    // producer has several users.
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation()->emitError("imex-fuse-elementwise did not converge");
      return signalPassFailure();
    }
  }
};

} // namespace
