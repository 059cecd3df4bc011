//===- NDArrayCanonicalization.cpp - dialect-wide patterns ----------------===//
//
// The ndarray dialect's canonicalization patterns that apply to any op
// (result types refined from inference, casts folded into inferred ops) and
// to the code the ndarray ops are lowered to.
//
//===----------------------------------------------------------------------===//

#include "NDArrayOpsUtils.h"

#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imex::ndarray;
using namespace imex::ndarray::op_helpers;

namespace {
/// For ops with inferred result types: adopts static sizes the inference
/// knows but the declared result type does not, casting back to the old type.
struct RefineInferredResultType : public RewritePattern {
  RefineInferredResultType(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto inferOp = dyn_cast<InferTypeOpInterface>(op);
    if (!inferOp || !isa<NDArrayDialect>(op->getDialect()) ||
        op->getNumResults() != 1)
      return failure();
    auto oldType = dyn_cast<NDArrayType>(op->getResult(0).getType());
    SmallVector<Type> inferred;
    if (!oldType || failed(inferOp.inferReturnTypes(
                        op->getContext(), std::nullopt, op->getOperands(),
                        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                        op->getRegions(), inferred)))
      return failure();
    SmallVector<int64_t> shape(oldType.getShape());
    bool changed = false;
    ArrayRef<int64_t> inferredShape = cast<NDArrayType>(inferred[0]).getShape();
    if (inferredShape.size() != shape.size())
      return failure();
    for (auto [size, known] : llvm::zip_equal(shape, inferredShape)) {
      if (ShapedType::isDynamic(size) && !ShapedType::isDynamic(known)) {
        size = known;
        changed = true;
      }
    }
    if (!changed)
      return failure();
    // (Sizes known from different sources may not fit together, e.g. in
    // code that is dead at run time.)
    NDArrayType newType = cloneWithShapeIfValid(oldType, shape);
    if (!newType)
      return failure();
    Operation *newOp = rewriter.clone(*op);
    newOp->getResult(0).setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp->getResult(0));
    return success();
  }
};

/// For ops with inferred result types: uses the more static source of an
/// `ndarray.cast` operand directly.
struct FoldCastIntoInferredOp : public RewritePattern {
  FoldCastIntoInferredOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto inferOp = dyn_cast<InferTypeOpInterface>(op);
    if (!inferOp || !isa<NDArrayDialect>(op->getDialect()))
      return failure();
    SmallVector<Value> operands(op->getOperands());
    bool changed = false;
    for (Value &operand : operands) {
      auto cast = operand.getDefiningOp<CastOp>();
      if (cast && isShapeRefinedBy(cast.getType().getShape(),
                                   cast.getSource().getType().getShape())) {
        operand = cast.getSource();
        changed = true;
      }
    }
    // The more static operands must still give a valid op (a size mismatch
    // that was a run-time error must not become invalid IR).
    SmallVector<Type> inferred;
    if (!changed ||
        failed(inferOp.inferReturnTypes(op->getContext(), std::nullopt,
                                        operands, op->getRawDictionaryAttrs(),
                                        op->getPropertiesStorage(),
                                        op->getRegions(), inferred)) ||
        !inferOp.isCompatibleReturnTypes(inferred, op->getResultTypes()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
    return success();
  }
};
} // namespace

namespace {
/// A subview of a memref with a static empty dimension is empty: replace it
/// by a reinterpretation of the source before upstream folding turns its
/// (necessarily unused) offsets into static values out of the bounds of the
/// empty dimension, which the subview verifier rejects. Empty arrays (ranks
/// owning no rows, empty halos) produce such subviews after bufferization.
struct EmptyMemRefSubview : public OpRewritePattern<memref::SubViewOp> {
  EmptyMemRefSubview(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(memref::SubViewOp op,
                                PatternRewriter &rewriter) const override {
    MemRefType source = op.getSourceType(), result = op.getType();
    if (!llvm::is_contained(source.getShape(), 0) ||
        source.getRank() != result.getRank())
      return failure();
    int64_t offset;
    SmallVector<int64_t> strides;
    if (failed(result.getStridesAndOffset(strides, offset)))
      return failure();
    Location loc = op.getLoc();
    // No element is ever accessed: any offset and strides of the right
    // static/dynamic kind do.
    auto fold = [&](int64_t value) -> OpFoldResult {
      if (!ShapedType::isDynamic(value))
        return rewriter.getIndexAttr(value);
      return arith::ConstantIndexOp::create(rewriter, loc, 0).getResult();
    };
    SmallVector<OpFoldResult> resultStrides =
        llvm::map_to_vector(strides, fold);
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, result, op.getSource(), fold(offset), op.getMixedSizes(),
        resultStrides);
    return success();
  }
};
} // namespace

namespace {
/// `andi(cmpi p a b, cmpi !p a b)` is false and `ori` of them true. The
/// broadcasting checks of lowered ndarray ops build such pairs (`size == 1
/// and target != 1`) that become complementary once the sizes are known
/// equal; folding them removes the broadcasting branches, which would
/// otherwise block elementwise fusion.
template <typename OpTy>
struct ComplementaryComparisons : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().template getDefiningOp<arith::CmpIOp>();
    auto rhs = op.getRhs().template getDefiningOp<arith::CmpIOp>();
    if (!lhs || !rhs || lhs.getLhs() != rhs.getLhs() ||
        lhs.getRhs() != rhs.getRhs() ||
        arith::invertPredicate(lhs.getPredicate()) != rhs.getPredicate())
      return failure();
    bool value = std::is_same_v<OpTy, arith::OrIOp>;
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, op.getType(), rewriter.getIntegerAttr(op.getType(), value));
    return success();
  }
};
} // namespace

void NDArrayDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<ComplementaryComparisons<arith::AndIOp>,
              ComplementaryComparisons<arith::OrIOp>>(getContext());
  results.add<RefineInferredResultType, FoldCastIntoInferredOp>(getContext());
  // Lowered ndarray code needs this; see the pattern.
  results.add<EmptyMemRefSubview>(getContext());
}
