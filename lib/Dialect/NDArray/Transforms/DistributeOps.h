//===- DistributeOps.h - ndarray-dist helpers and algorithms ----*- C++ -*-===//
//
// Shared by NDArrayDist.cpp (the pass: propagation, alignment, dispatch) and
// DistributeOps.cpp (distributed algorithms of single ops). Each distribute*
// function rewrites one op whose operands or result are distributed.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H
#define IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

namespace imex::ndarray::detail {

mlir::Value constIndex(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Points every use of `result` at its distributed twin of type
/// `distType` (the local result is replicated: each rank keeps its block).
void redistributeResult(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::OpResult result, mlir::Type distType);

/// Computes `op` on gathered operands and distributes its result again.
mlir::LogicalResult rewriteWithGather(mlir::Operation *op);

/// Replaces the result of `op` by the distributed array of its type whose
/// block of the default partition, starting at global row `first`, is
/// `owned`; `rows` is its global size of dimension 0, `shapeOf` has its
/// sizes of dimensions 1...
void replaceWithDistributed(mlir::OpBuilder &b, mlir::Operation *op,
                            mlir::Value owned, mlir::Value first,
                            mlir::Value rows, mlir::Value shapeOf);

mlir::LogicalResult distributeRowConcat(ConcatOp op);
mlir::LogicalResult distributeRowFlip(FlipOp op);
mlir::LogicalResult distributeTake(TakeOp op);
mlir::LogicalResult distributePut(PutOp op);
mlir::LogicalResult distributeMaskedSelect(MaskedSelectOp op);
/// sort/argsort along the split axis of an n-d array (others unchanged).
mlir::LogicalResult distributeSort(mlir::Operation *op);
mlir::LogicalResult splitInitialRow(CumulativeOp op);
mlir::LogicalResult distributeRowMatmul(MatMulOp op);
mlir::LogicalResult distributeVectorMatmul(MatMulOp op);

} // namespace imex::ndarray::detail

#endif // IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H
