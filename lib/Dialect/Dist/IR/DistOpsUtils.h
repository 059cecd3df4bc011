//===- DistOpsUtils.h - helpers shared by the dist op files -----*- C++ -*-===//
//
// Verification and folding helpers of the dist ops (DistOps.cpp,
// PartitionOps.cpp, and the members DistOps.td defines for them).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_DIALECT_DIST_IR_DISTOPSUTILS_H
#define IMEX_LIB_DIALECT_DIST_IR_DISTOPSUTILS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace imex::dist::op_helpers {

/// The constant value of an index operand, if any.
std::optional<int64_t> getConstantIndex(mlir::Value value);

/// Emits an error unless `values` has `expected` entries.
mlir::LogicalResult verifyCount(mlir::Operation *op, llvm::StringRef what,
                                mlir::ValueRange values, int64_t expected);

/// Emits an error if a constant in `strides` is not positive.
mlir::LogicalResult verifyConstantStrides(mlir::Operation *op,
                                          mlir::ValueRange strides);

/// Emits an error unless an optional box (`offsets`, `sizes`) is absent or
/// has one offset and one size per dimension.
mlir::LogicalResult verifyOptionalBox(mlir::Operation *op, llvm::StringRef what,
                                      mlir::ValueRange offsets,
                                      mlir::ValueRange sizes, int64_t rank);

/// Infers `2 * rank` index results.
mlir::LogicalResult inferIndexResults(mlir::MLIRContext *context, int64_t rank,
                                      llvm::SmallVectorImpl<mlir::Type> &types);

/// The rank of `value`'s array type, or an error.
mlir::FailureOr<int64_t> getArrayRank(std::optional<mlir::Location> location,
                                      mlir::Value value);

/// The local offset of dimension 0 of `array` (its first owned row): the
/// operand of the `dist.init_dist_array` defining it; null if unknown.
mlir::OpFoldResult getKnownLocalOffset(mlir::Value array);

/// The local type of the block of `array` if it is a distributed array
/// (`dist.owned_block_of`, `dist.held_block_of`).
mlir::Type getBlockTypeOf(mlir::Value array);

/// Verifies that `block` is a local array of the distributed `array`'s
/// block type.
mlir::LogicalResult verifyBlockOf(mlir::Operation *op,
                                  ndarray::NDArrayType array,
                                  ndarray::NDArrayType block);

/// The block of the `dist.init_dist_array` defining `array` if it has type
/// `type`.
mlir::OpFoldResult foldToInitBlock(mlir::Value array, mlir::Type type);

} // namespace imex::dist::op_helpers

#endif // IMEX_LIB_DIALECT_DIST_IR_DISTOPSUTILS_H
