//===- ShapeOps.cpp - ndarray shape ops -----------------------------------===//
//
// reshape, broadcast_to, permute_dims, expand_dims, squeeze.
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
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (failed(verifyDynamicSizes(*this, result, getDynamicSizes())))
    return failure();
  if (source.getElementType() != result.getElementType())
    return emitOpError("reshape cannot change the element type");
  if (source.hasStaticShape() && result.hasStaticShape() &&
      source.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << source.getNumElements() << " elements "
           << formatShape(source.getShape()) << " into "
           << result.getNumElements() << " elements "
           << formatShape(result.getShape());
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getCopy())
    return {};
  NDArrayType type = getType();
  if (type.hasStaticShape() && getSource().getType() == type)
    return getSource();
  if (auto inner = getSource().getDefiningOp<ReshapeOp>()) {
    if (!inner.getCopy()) {
      getSourceMutable().assign(inner.getSource());
      return getResult();
    }
  }
  return {};
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<ReshapeOp>>(context);
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (failed(verifyDynamicSizes(*this, result, getDynamicSizes())))
    return failure();
  if (source.getElementType() != result.getElementType())
    return emitOpError("broadcast cannot change the element type");
  if (!isBroadcastableTo(source.getShape(), result.getShape()))
    return emitOpError("cannot broadcast shape ")
           << formatShape(source.getShape()) << " to "
           << formatShape(result.getShape())
           << " (dimensions are aligned at the end; each must be 1 or equal "
              "to the target)";
  return success();
}

bool BroadcastToOp::keepsSourceDim(int64_t dim) {
  NDArrayType source = getSource().getType(), result = getType();
  int64_t axis = dim - (result.getRank() - source.getRank());
  if (axis < 0)
    return false;
  // A static source size other than 1 is the target's (the verifier);
  // a target of 1 takes a source of 1.
  if (!source.isDynamicDim(axis) && source.getDimSize(axis) != 1)
    return true;
  if (result.getDimSize(dim) == 1)
    return true;
  if (!result.isDynamicDim(dim))
    return false;
  auto size =
      getDynamicSizes()[result.getDynamicDimIndex(dim)].getDefiningOp<DimOp>();
  return size && size.getSource() == getSource() &&
         getConstantIntValue(size.getIndex()) == axis;
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getSource().getType() != getType())
    return {};
  for (int64_t d = 0, e = getType().getRank(); d < e; ++d)
    if (getType().isDynamicDim(d) && !keepsSourceDim(d))
      return {};
  return getSource();
}

void BroadcastToOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<BroadcastToOp>>(context);
}

//===----------------------------------------------------------------------===//
// PermuteDimsOp
//===----------------------------------------------------------------------===//

LogicalResult PermuteDimsOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != source.getRank())
    return emitOptionalError(loc, "permutation ", formatShape(perm),
                             " must have one entry per dimension (",
                             source.getRank(), ")");
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= source.getRank() || seen.test(p))
      return emitOptionalError(loc, formatShape(perm),
                               " is not a permutation of the dimensions");
    seen.set(p);
    shape.push_back(source.getDimSize(p));
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto it) {
    return static_cast<int64_t>(it.index()) == it.value();
  });
  if (identity && getSource().getType() == getType())
    return getSource();
  if (auto inner = getSource().getDefiningOp<PermuteDimsOp>()) {
    // result[i] = inner[perm[i]] = source[innerPerm[perm[i]]].
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(inner.getPermutation()[p]);
    getSourceMutable().assign(inner.getSource());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp, SqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  int64_t rank = source.getRank() + axes.size();
  if (failed(verifyAxes(loc, axes, rank, "expand_dims")))
    return failure();
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> remaining = source.getShape();
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (llvm::is_contained(axes, dim)) {
      shape.push_back(1);
    } else {
      shape.push_back(remaining.front());
      remaining = remaining.drop_front();
    }
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor) {
  if (getAxes().empty() && getSource().getType() == getType())
    return getSource();
  return {};
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (failed(verifyAxes(loc, axes, source.getRank(), "squeeze")))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(dim))) {
      shape.push_back(size);
      continue;
    }
    if (!ShapedType::isDynamic(size) && size != 1)
      return emitOptionalError(loc, "cannot squeeze dimension ", dim,
                               " of size ", size, " (it must be 1)");
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  if (getAxes().empty() && getSource().getType() == getType())
    return getSource();
  return {};
}
