//===- DistUtils.h - building distributed computations ---------*- C++ -*-===//
//
// Helpers shared by ndarray-dist and convert-dist-to-standard to build the
// recurring pieces of distributed computations out of dist, distruntime and
// ndarray ops.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_DIST_UTILS_DISTUTILS_H
#define IMEX_DIALECT_DIST_UTILS_DISTUTILS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include <utility>

namespace imex::dist {

/// The array type without its distribution environment.
ndarray::NDArrayType withoutDistEnv(ndarray::NDArrayType type);

/// Size of dimension `dim` of `array` (the global size for a distributed
/// array): a constant when static, else `ndarray.dim`.
mlir::OpFoldResult getDimSize(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value array, int64_t dim);
mlir::Value getDimValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value array, int64_t dim);

/// Whether the subview or extract_slice `op` drops dimension 0 (the split
/// dimension) by rank reduction; conservatively true when unknown.
bool dropsSplitDimension(mlir::Operation *op);

/// Number of ranks and this rank in `team` (runtime values).
mlir::Value createTeamSize(mlir::OpBuilder &b, mlir::Location loc,
                           int64_t team);
mlir::Value createTeamMember(mlir::OpBuilder &b, mlir::Location loc,
                             int64_t team);

/// Offset and size of this rank's block of `rows` rows in the default
/// partition over `team`.
std::pair<mlir::Value, mlir::Value> createDefaultPartition(mlir::OpBuilder &b,
                                                           mlir::Location loc,
                                                           int64_t team,
                                                           mlir::Value rows);

/// Offset and size (dimension 0, in slice coordinates) of the rows of a
/// slice of the distributed array `array` that this rank owns.
std::pair<mlir::Value, mlir::Value>
createLocalTargetOfSlice(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value array,
                         llvm::ArrayRef<mlir::OpFoldResult> offsets,
                         llvm::ArrayRef<mlir::OpFoldResult> sizes,
                         llvm::ArrayRef<mlir::OpFoldResult> strides);

/// Offset and size of the rows of the distributed array `array` this rank
/// owns.
std::pair<mlir::Value, mlir::Value>
createOwnedRange(mlir::OpBuilder &b, mlir::Location loc, mlir::Value array);

/// The whole distributed array `array` on every rank, as a replicated array.
mlir::Value createGather(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value array);

/// A replicated array holding element `indices` of the distributed array
/// `array` on every rank (shape 1x...x1).
mlir::Value createGatherElement(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value array, mlir::ValueRange indices);

/// The replicated array `replicated` distributed over `team` with the
/// default partition: each rank keeps (a view of) its block.
mlir::Value createDistribute(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value replicated, int64_t team,
                             mlir::Type distType);

/// A distributed array like `create` would make, allocating only this
/// rank's block of the default partition.
mlir::Value createDistributedCreate(mlir::OpBuilder &b, mlir::Location loc,
                                    ndarray::CreateOp create, int64_t team);

/// An array with the dimensions 1.. of `part` and no rows (an empty halo).
mlir::Value createEmptyRows(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value part);

/// An array of type `type` (its dimension 0 is dynamic or 0) with no rows;
/// `trailingSizes` are the sizes of dimensions 1...
mlir::Value createZeroRows(mlir::OpBuilder &b, mlir::Location loc,
                           ndarray::NDArrayType type,
                           mlir::ValueRange trailingSizes);

/// A distributed array from its owned block alone (empty halos).
mlir::Value createFromOwned(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Type distType, mlir::Value owned,
                            mlir::Value offset,
                            llvm::ArrayRef<mlir::Value> globalShape);

} // namespace imex::dist

#endif // IMEX_DIALECT_DIST_UTILS_DISTUTILS_H
