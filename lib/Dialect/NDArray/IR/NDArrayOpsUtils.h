//===- NDArrayOpsUtils.h - helpers shared by the op files -------*- C++ -*-===//
//
// The ndarray ops are defined in several files by concern (creation, shape,
// slice and the other ops, canonicalization); these helpers serve them all.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_DIALECT_NDARRAY_IR_NDARRAYOPSUTILS_H
#define IMEX_LIB_DIALECT_NDARRAY_IR_NDARRAYOPSUTILS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <string>

namespace imex::ndarray::op_helpers {

inline NDArrayType getArrayType(mlir::Value value) {
  return mlir::cast<NDArrayType>(value.getType());
}

/// Prints a shape as `[2, ?, 4]` for diagnostics.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Verifies that there is one dynamic size operand per dynamic dimension.
mlir::LogicalResult verifyDynamicSizes(mlir::Operation *op, NDArrayType type,
                                       mlir::ValueRange dynamicSizes);

/// The constant value of an index operand, if any.
std::optional<int64_t> getConstantIndex(mlir::Value value);

/// The operand giving the size of dynamic dimension `dim` of `value`, for
/// ops whose dynamic result sizes are operands (creation, reshape,
/// broadcast, slices keeping every dimension), else null.
mlir::Value getDynamicSizeOperand(mlir::Value value, int64_t dim);

/// Whether two shapes agree wherever both are static.
bool areCompatibleShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// Appends the inferred result type of `shape` to `inferred`, or fails if
/// no array can have that shape (static sizes from huge operands).
mlir::LogicalResult addInferredType(std::optional<mlir::Location> loc,
                                    llvm::SmallVectorImpl<mlir::Type> &inferred,
                                    llvm::ArrayRef<int64_t> shape,
                                    mlir::Type elementType,
                                    mlir::ValueRange operands);

/// Checks that `axes` are sorted, unique and in `[0, bound)`.
mlir::LogicalResult verifyAxes(std::optional<mlir::Location> loc,
                               llvm::ArrayRef<int64_t> axes, int64_t bound,
                               llvm::StringRef what);

/// Makes dynamic result sizes given by constant operands static and casts
/// the new result back to the old type.
template <typename OpTy>
struct FoldConstantDynamicSizes : public mlir::OpRewritePattern<OpTy> {
  using mlir::OpRewritePattern<OpTy>::OpRewritePattern;

  mlir::LogicalResult
  matchAndRewrite(OpTy op, mlir::PatternRewriter &rewriter) const override {
    NDArrayType oldType = op.getType();
    llvm::SmallVector<int64_t> shape(oldType.getShape());
    llvm::SmallVector<mlir::Value> remaining;
    auto dynamicSizes = op.getDynamicSizes().begin();
    for (int64_t &size : shape) {
      if (!mlir::ShapedType::isDynamic(size))
        continue;
      mlir::Value operand = *dynamicSizes++;
      std::optional<int64_t> constant = getConstantIndex(operand);
      if (constant && *constant >= 0)
        size = *constant;
      else
        remaining.push_back(operand);
    }
    NDArrayType newType = cloneWithShapeIfValid(oldType, shape);
    if (remaining.size() == op.getDynamicSizes().size() || !newType)
      return mlir::failure();
    auto newOp = mlir::cast<OpTy>(rewriter.clone(*op));
    newOp.getDynamicSizesMutable().assign(remaining);
    newOp.getResult().setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp.getResult());
    return mlir::success();
  }
};

} // namespace imex::ndarray::op_helpers

#endif // IMEX_LIB_DIALECT_NDARRAY_IR_NDARRAYOPSUTILS_H
