//===- CreationOps.cpp - ndarray creation ops -----------------------------===//
//
// create, random, tri, linspace, copy, from_memref, to_tensor.
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

//===----------------------------------------------------------------------===//
// CreateOp
//===----------------------------------------------------------------------===//

LogicalResult CreateOp::verify() {
  return verifyDynamicSizes(*this, getType(), getDynamicSizes());
}

void CreateOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<CreateOp>>(context);
}

//===----------------------------------------------------------------------===//
// RandomOp
//===----------------------------------------------------------------------===//

LogicalResult RandomOp::verify() {
  Type element = getType().getElementType();
  if (!element.isF32() && !element.isF64())
    return emitOpError("random numbers are f32 or f64, not ") << element;
  return verifyDynamicSizes(*this, getType(), getDynamicSizes());
}

void RandomOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<RandomOp>>(context);
}

//===----------------------------------------------------------------------===//
// TriOp
//===----------------------------------------------------------------------===//

LogicalResult TriOp::verify() {
  NDArrayType type = getType();
  if (type.getRank() != 2)
    return emitOpError("result must be 2-d, got ") << type;
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat())
    return emitOpError("result elements must be numbers or i1, not ")
           << element;
  return verifyDynamicSizes(*this, type, getDynamicSizes());
}

void TriOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<TriOp>>(context);
}

//===----------------------------------------------------------------------===//
// LinSpaceOp
//===----------------------------------------------------------------------===//

LogicalResult LinSpaceOp::verify() {
  NDArrayType type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-d, got ") << type;
  if (isComplexType(getStart().getType()) ||
      isComplexType(type.getElementType()))
    return emitOpError("complex endpoints or elements are not supported");
  if (std::optional<int64_t> num = getConstantIndex(getNum())) {
    if (*num < 0)
      return emitOpError("number of elements must be non-negative, got ")
             << *num;
    if (!type.isDynamicDim(0) && type.getDimSize(0) != *num)
      return emitOpError("result has ")
             << type.getDimSize(0) << " elements but num is " << *num;
  }
  return success();
}

namespace {
struct FoldConstantLinSpaceNum : public OpRewritePattern<LinSpaceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LinSpaceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> num = getConstantIndex(op.getNum());
    NDArrayType oldType = op.getType();
    if (!num || *num < 0 || !oldType.isDynamicDim(0))
      return failure();
    NDArrayType newType = cloneWithShapeIfValid(oldType, {*num});
    if (!newType)
      return failure();
    auto newOp = cast<LinSpaceOp>(rewriter.clone(*op));
    newOp.getResult().setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp.getResult());
    return success();
  }
};
} // namespace

void LinSpaceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldConstantLinSpaceNum>(context);
}

//===----------------------------------------------------------------------===//
// CopyOp, FromMemRefOp, ToTensorOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (source.getElementType() != result.getElementType() ||
      !areCompatibleShapes(source.getShape(), result.getShape()))
    return emitOpError("result ")
           << result << " must have the shape and element type of the source "
           << source;
  return success();
}

LogicalResult FromMemRefOp::verify() {
  NDArrayType result = getType();
  auto source = cast<ShapedType>(getSource().getType());
  if (source.getElementType() != result.getElementType())
    return emitOpError("element types of the memref and the array differ: ")
           << source.getElementType() << " vs " << result.getElementType();
  if (source.hasRank() && source.getShape() != result.getShape())
    return emitOpError("shapes of the memref and the array differ: ")
           << formatShape(source.getShape()) << " vs "
           << formatShape(result.getShape());
  return success();
}

LogicalResult ToTensorOp::verify() {
  NDArrayType source = getArray().getType();
  if (getType() != source.getTensorType())
    return emitOpError("result must be ") << source.getTensorType();
  return success();
}
