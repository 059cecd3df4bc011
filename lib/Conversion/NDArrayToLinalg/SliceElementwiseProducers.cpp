//===- SliceElementwiseProducers.cpp - compute only the sliced elements ---===//
//
// `tensor.extract_slice` of an elementwise linalg op (its only use, or
// each use taking the same slice) becomes the op on the slice (upstream tiling
// of the producer: `linalg.index` is offset, so index-based values such as
// linspace's stay exact).
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex {
#define GEN_PASS_DEF_SLICEELEMENTWISEPRODUCERS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

struct SliceElementwiseProducer
    : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto producer = slice.getSource().getDefiningOp<linalg::LinalgOp>();
    // (Other uses that take the same slice later in the block are replaced
    // too: the sliced op is built at the first.)
    auto isSameSlice = [&](Operation *user) {
      auto other = dyn_cast<tensor::ExtractSliceOp>(user);
      return other == slice ||
             (other && other.getType() == slice.getType() &&
              other->getBlock() == slice->getBlock() &&
              slice->isBeforeInBlock(other) &&
              other.isSameAs(slice, isEqualConstantIntOrValue));
    };
    if (!producer || !llvm::all_of(producer->getUsers(), isSameSlice) ||
        !producer.hasPureTensorSemantics() || producer->getNumResults() != 1 ||
        producer.getNumParallelLoops() != producer.getNumLoops() ||
        !slice.hasUnitStride() ||
        slice.getType().getRank() != slice.getSourceType().getRank())
      return failure();
    FailureOr<TilingResult> tiled =
        tensor::replaceExtractSliceWithTiledProducer(
            rewriter, slice, cast<OpResult>(slice.getSource()));
    if (failed(tiled))
      return failure();
    Value result = tiled->tiledValues.front();
    if (result.getType() != slice.getType())
      result = tensor::CastOp::create(rewriter, slice.getLoc(), slice.getType(),
                                      result);
    for (Operation *user : llvm::to_vector(producer->getUsers()))
      rewriter.replaceOp(user, result);
    return success();
  }
};

/// A slice of all of a slice (zero offsets, unit strides, the same sizes):
/// the operands of a producer sliced by the slice its consumer took are
/// such slices when they were slices already. Canonicalization does not
/// fold them when the sizes are dynamic.
struct FoldWholeSliceOfSlice : public OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice,
                                PatternRewriter &rewriter) const override {
    auto source = slice.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    if (!source || slice.getType() != source.getType() ||
        !slice.hasUnitStride() ||
        !areAllConstantIntValue(slice.getMixedOffsets(), 0) ||
        !llvm::equal(slice.getMixedSizes(), source.getMixedSizes(),
                     isEqualConstantIntOrValue))
      return failure();
    rewriter.replaceOp(slice, source.getResult());
    return success();
  }
};

struct SliceElementwiseProducersPass
    : public imex::impl::SliceElementwiseProducersBase<
          SliceElementwiseProducersPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SliceElementwiseProducer>(&getContext());
    patterns.add<FoldWholeSliceOfSlice>(&getContext());
    // Every rewrite moves a slice up a chain of producers: it terminates,
    // but a long chain needs more than the default number of iterations.
    GreedyRewriteConfig config;
    config.setMaxIterations(GreedyRewriteConfig::kNoLimit);
    // (Canonicalization follows: no region simplification here.)
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config))) {
      getOperation()->emitError("imex-slice-elementwise-producers did not "
                                "converge");
      return signalPassFailure();
    }
  }
};

} // namespace
