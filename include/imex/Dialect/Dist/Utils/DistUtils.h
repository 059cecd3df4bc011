//===- DistUtils.h - building distributed computations ---------*- C++ -*-===//
//
// Helpers shared by ndarray-dist and convert-dist-to-standard to build the
// recurring pieces of distributed computations out of dist, distruntime and
// ndarray ops.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_DIST_UTILS_DISTUTILS_H
#define IMEX_DIALECT_DIST_UTILS_DISTUTILS_H

#include "imex/Dialect/Dist/IR/Dist.h"
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

/// The size two sizes `x` and `y` of operands that broadcast together
/// broadcast to (numpy: equal, or one of them 1): 0 if either is 0, else
/// the larger. Folds to `x` when both are the same value.
mlir::Value createBroadcastSize(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value x, mlir::Value y);

/// Whether the view (subview, extract_slice) or insert `op` addresses a box
/// of its array: unit strides known at compile time, and a view keeps the
/// array's rank. Arrays in any distribution compute these on their blocks.
bool isBoxSlice(mlir::Operation *op);

/// Whether `op` is a sort, argsort or scan (without an initial element)
/// along an axis that its operand's distribution, other than rows, does
/// not split: each rank computes the lanes of its block.
bool isLocalAlongAxis(mlir::Operation *op);

/// The axes the subview or extract_slice `op` drops (rank reduction), in
/// increasing order, if it is a view of a box (unit strides) dropping some
/// but not all axes; std::nullopt otherwise.
std::optional<llvm::SmallVector<int64_t>>
getDroppedAxesOfBox(mlir::Operation *op);

/// Whether the subview or extract_slice `op` drops dimension 0 (the split
/// dimension) by rank reduction; conservatively true when unknown.
bool dropsSplitDimension(mlir::Operation *op);

/// Whether `op` computes its result row by row from operands aligned along
/// dimension 0 (elementwise ops, where, element type conversions,
/// concatenation along another dimension): its result repartitioned to some
/// rows is the op applied to its operands repartitioned to these rows.
bool isRowwise(mlir::Operation *op);

/// Number of ranks and this rank in `team` (runtime values).
mlir::Value createTeamSize(mlir::OpBuilder &b, mlir::Location loc,
                           int64_t team);
mlir::Value createTeamMember(mlir::OpBuilder &b, mlir::Location loc,
                             int64_t team);

/// The offsets and sizes (one per dimension) of this rank's block of an
/// array of global shape `shape` in the distribution `env`: the default
/// partition of the rows, or the block of a grid of ranks (its shape from
/// `env` or `distruntime.grid_dim` at run time). A grid named in `env`
/// with more blocks than the team has ranks fails at run time (cf.assert).
std::pair<llvm::SmallVector<mlir::Value>, llvm::SmallVector<mlir::Value>>
createBlock(mlir::OpBuilder &b, mlir::Location loc, DistEnvAttr env,
            mlir::ValueRange shape);

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

/// Whether `offset` and `size` are the owned range of `array` as
/// `createOwnedRange` builds it.
bool isOwnedRange(mlir::Value array, mlir::Value offset, mlir::Value size);

/// The dist.init_dist_array ops whose storage `array` shares (versions made
/// by inserts and casts, carried by scf.for), if that is all it may share.
std::optional<llvm::SmallVector<InitDistArrayOp>>
getStorageRoots(mlir::Value array);

/// The dist.default_partition op all `roots` take their local offset from,
/// if they all do from the same one.
mlir::Operation *
getCommonDefaultPartition(llvm::ArrayRef<InitDistArrayOp> roots);

/// `value` without the ndarray.casts it went through.
mlir::Value lookThroughCasts(mlir::Value value);

/// Whether `a` and `b` are the same value: the same SSA value, or results of
/// equal side-effect-free ops (the same name, attributes and result number)
/// on operands that are the same values in turn, up to `depth` ops deep:
/// index computations built twice, e.g. the block of this rank computed for
/// two arrays of one distribution.
bool isSameIndexValue(mlir::Value a, mlir::Value b, unsigned depth = 12);

/// Whether the distributed arrays `a` and `b` own the same rows on every
/// rank, as far as known at compile time (the same array, or versions of
/// arrays created in one default partition).
bool haveSameOwnedRows(mlir::Value a, mlir::Value b);

/// The global rows of dimension 0 a distributed array holds on this rank,
/// as far as known at compile time: the rows [offset, offset + size) of a
/// repartition, or all the rows an array without halos owns (`ownedBy`).
struct RowLayout {
  mlir::Value offset, size;
  mlir::Value ownedBy;

  bool operator==(const RowLayout &other) const;
  bool isExplicit() const { return !ownedBy; }
};

/// The rows `array` holds: explicit for (local) repartitions and row-wise
/// ops computed on operands holding the same explicit rows.
RowLayout getRowLayout(mlir::Value array);

/// The distributed operands of the row-wise `op` split along dimension 0
/// like its result (operands of lower rank are broadcast).
llvm::SmallVector<mlir::OpOperand *> getRowAlignedOperands(mlir::Operation *op);

/// The rows all row-aligned operands of the row-wise `op` hold, if they hold
/// the same rows (which rules out broadcasting along dimension 0).
std::optional<RowLayout> getOperandsLayout(mlir::Operation *op);

/// Moves the side-effect free ops of `before`'s block that define `values`
/// after `before` (and the ones they depend on) right before it. Fails
/// without changing anything if an op with effects or regions is needed,
/// or an op `pinned` says must stay where it is.
mlir::LogicalResult
hoistDefinitions(mlir::ValueRange values, mlir::Operation *before,
                 llvm::function_ref<bool(mlir::Operation *)> pinned = nullptr);

/// The local type of some rows of an array of type `type`: dimension 0
/// dynamic (unless 0-d), no distribution environment.
ndarray::NDArrayType getRowsType(ndarray::NDArrayType type);

/// Rows [first, first + count) of `array` as a local array on this rank
/// (`first` and `count` may differ between ranks): of a distributed array
/// through a repartition (which moves the rows this rank does not own), of
/// a replicated one a view.
mlir::Value createLocalRows(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value array, mlir::OpFoldResult first,
                            mlir::OpFoldResult count);

/// The whole distributed array `array` on every rank, as a replicated array.
mlir::Value createGather(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value array);

/// A replicated array holding element `indices` of the distributed array
/// `array` on every rank (shape 1x...x1).
mlir::Value createGatherElement(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value array, mlir::ValueRange indices);

/// The replicated array `replicated` distributed as `distType` (over
/// `team`): each rank keeps (a view of) its block.
mlir::Value createDistribute(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value replicated, int64_t team,
                             mlir::Type distType);

/// A distributed array like `create` would make, in the distribution
/// `env`, allocating only this rank's block.
mlir::Value createDistributedCreate(mlir::OpBuilder &b, mlir::Location loc,
                                    ndarray::CreateOp create, DistEnvAttr env);

/// Marks the write-back of the final version of a distributed argument
/// with spare rows (`dist.ghost`) into the argument's block when that
/// version is stored in the argument's buffer: convert-dist-to-standard then
/// writes the whole buffer back (its other rows are ghost cells), which
/// bufferization does in place.
inline constexpr llvm::StringLiteral kGhostedWriteBackAttrName =
    "dist.ghosted_write_back";

/// The distributed array bound from this rank's owned block `owned`.
mlir::Value createFromOwned(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Type distType, mlir::Value owned,
                            mlir::Value offset,
                            llvm::ArrayRef<mlir::Value> globalShape);

} // namespace imex::dist

#endif // IMEX_DIALECT_DIST_UTILS_DISTUTILS_H
