//===- DistributeOps.h - ndarray-dist helpers and algorithms ----*- C++ -*-===//
//
// The parts of ndarray-dist: NDArrayDist.cpp (the pass: creation, function
// arguments, dispatch), DistributionPropagation.cpp (which values are
// distributed), AlignOperands.cpp (the rows each rank computes of an
// elementwise result) and DistributeOps.cpp (distributed algorithms of
// single ops). Each distribute* function rewrites one op whose operands or
// result are distributed.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H
#define IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace imex::ndarray::detail {

/// Whether convert-dist-to-standard computes `op` on the local parts of its
/// distributed operands (DistributionPropagation.cpp).
bool hasDistributedLowering(mlir::Operation *op);

/// The team of `op`'s distributed operands, or 0.
int64_t getOperandTeam(mlir::Operation *op);
/// Whether convert-dist-to-standard computes `op` on the blocks of arrays in
/// any distribution (split on any axes, over a grid of ranks), as long as
/// its distributed operands of rank >= 1 share one; other ops see arrays
/// split on rows only (DistributionPropagation.cpp).
bool supportsAnyDistribution(mlir::Operation *op);
/// Whether `op` (reductions, argmax/argmin, permute_dims, flip, load,
/// concatenations whose first operand is not split on rows) takes its
/// distributed operands in the distributions they have and derives its
/// result's from the first; computed on the blocks of any distribution by
/// convert-dist-to-standard.
bool derivesDistribution(mlir::Operation *op);
/// Whether `type` is a distributed array in another distribution than the
/// default one (rows).
bool hasNonDefaultDistribution(mlir::Type type);
/// The distribution requested by the `dist.team`, `dist.split` and
/// `dist.grid` attributes of `op` (a diagnostic if they are invalid).
mlir::FailureOr<dist::DistEnvAttr> getRequestedDistEnv(mlir::Operation *op);
/// The same from the attributes `attrs` (of a function argument).
mlir::FailureOr<dist::DistEnvAttr>
getRequestedDistEnv(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                    mlir::DictionaryAttr attrs);
/// Redistributes the operands of ops that do not compute on their
/// distribution (see supportsAnyDistribution) to the distribution of the
/// op's result: the default one, or for ops computing on any distribution
/// the one their operands share (`dist.redistribute`).
void redistributeOperands(mlir::FunctionOpInterface func);

/// Calls `fn(forwarder, sources, inputs)` for every control-flow edge of `op`
/// that forwards values: from `op` into its regions or results, and from the
/// terminators of its regions (`forwarder`: the op whose operands `sources`
/// are).
void forEachEdge(mlir::RegionBranchOpInterface op,
                 llvm::function_ref<void(mlir::Operation *, mlir::OperandRange,
                                         mlir::ValueRange)>
                     fn);

/// Gives every value computed from distributed arrays a distributed type,
/// until nothing changes (loops carry distribution around their back edge).
void propagateDistribution(mlir::FunctionOpInterface func);

/// The rows of dimension 0 of an elementwise result that this rank computes.
struct Target {
  mlir::Value offset, size;
  /// The operand whose owned rows these are when known at compile time: it
  /// needs no repartition.
  mlir::Value anchor;
};

/// The rows chosen for the elementwise chains that feed inserts, by insert:
/// every op of a chain computes the same rows (same values).
using InsertTargets = llvm::DenseMap<mlir::Operation *, Target>;

/// Aligns the operands of an elementwise-like op (one result of rank >= 1
/// split like the operands) (AlignOperands.cpp).
void alignElementwiseOperands(mlir::Operation *op, InsertTargets &targets);

/// Aligns the source of an insert into a distributed destination with the
/// rows of the destination slice this rank owns.
void alignInsertedSource(ImmutableInsertSliceOp op, InsertTargets &targets);

mlir::Value constIndex(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Points every use of `result` at its distributed twin of type
/// `distType` (the local result is replicated: each rank keeps its block).
void redistributeResult(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::OpResult result, mlir::Type distType);

/// Computes `op` on gathered operands and distributes its result again.
mlir::LogicalResult rewriteWithGather(mlir::Operation *op);

/// The distributed array of type `distType` whose block of the default
/// partition, starting at global row `first`, is `owned`; `rows` is its
/// global size of dimension 0, `shapeOf` has its sizes of dimensions 1...
mlir::Value bindOwnedRows(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type distType, mlir::Value owned,
                          mlir::Value first, mlir::Value rows,
                          mlir::Value shapeOf);

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
mlir::LogicalResult distributeRowFFT(FFTOp op);
mlir::LogicalResult distributeBatchLinalg(LinalgOp op);
mlir::LogicalResult distributeVectorMatmul(MatMulOp op);

} // namespace imex::ndarray::detail

#endif // IMEX_LIB_DIALECT_NDARRAY_TRANSFORMS_DISTRIBUTEOPS_H
