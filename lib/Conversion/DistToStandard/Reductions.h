//===- Reductions.h - combining reductions over a team ----------*- C++ -*-===//
//
// Internal to convert-dist-to-standard: what the reductions of arrays split
// on rows (ReductionsToStandard.cpp) and over grids
// (GridReductionsToStandard.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_CONVERSION_DISTTOSTANDARD_REDUCTIONS_H
#define IMEX_LIB_CONVERSION_DISTTOSTANDARD_REDUCTIONS_H

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Transforms/DialectConversion.h"

#include <functional>

namespace imex::dist::detail {

/// How the partial results of the ranks' blocks of a reduction over split
/// axes combine into its replicated result. Both combinations return the
/// reduced array with kept (size 1) reduced axes and the global sizes of the
/// others.
struct TeamReduction {
  /// Partials of this rank's block (kept shape, the block's sizes) combined
  /// by `kind` over the team.
  std::function<mlir::Value(mlir::Value partials,
                            distruntime::ReductionKind kind)>
      combine;
  /// The floating point sum or product of `source` (this rank's block, or an
  /// array of its shape) in an order fixed by the array: the same bits on
  /// any number of ranks.
  std::function<mlir::Value(ndarray::ReductionKind kind, mlir::Value source)>
      ordered;
  /// The part of a combined result over this rank's block (its sizes along
  /// the axes that are not reduced).
  std::function<mlir::Value(mlir::Value combined)> blockPart;
  /// The global shape of the reduced array.
  llvm::SmallVector<mlir::Value> shape;
};

/// The reduction `op` of the array whose block on this rank is `block`,
/// combined over the team by `team`.
mlir::FailureOr<mlir::Value>
reduceOverTeam(mlir::OpBuilder &b, mlir::Location loc, ndarray::ReductionOp op,
               mlir::Value block, const TeamReduction &team);

/// argmax/argmin `op` over split axes of the array whose block on this
/// rank is `block`, combined over the team by `team`; `toGlobal` makes the
/// block's local indices (kept shape) global.
mlir::Value
argReduceOverTeam(mlir::OpBuilder &b, mlir::Location loc,
                  ndarray::ArgReduceOp op, mlir::Value block,
                  const TeamReduction &team,
                  llvm::function_ref<mlir::Value(mlir::Value)> toGlobal);

/// A 0-d or keepdims array of `type` and sizes `shape` filled with `value`.
mlir::Value createFilled(mlir::OpBuilder &b, mlir::Location loc,
                         ndarray::NDArrayType type,
                         llvm::ArrayRef<mlir::Value> shape,
                         mlir::TypedAttr value);

/// The identity of min (`isMin`) or max for `type`.
mlir::TypedAttr getMinMaxIdentity(mlir::OpBuilder &b, mlir::Type type,
                                  bool isMin);

/// The shape of `shape` with the axes in `axes` kept as size 1.
template <typename T>
llvm::SmallVector<T> keptShape(llvm::ArrayRef<T> shape,
                               llvm::ArrayRef<int64_t> axes, T one) {
  llvm::SmallVector<T> kept(shape);
  for (int64_t d : axes)
    kept[d] = one;
  return kept;
}

/// The reductions of arrays in other distributions than rows
/// (GridReductionsToStandard.cpp).
void populateGridReductionsToStandardPatterns(
    const mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns);

} // namespace imex::dist::detail

#endif // IMEX_LIB_CONVERSION_DISTTOSTANDARD_REDUCTIONS_H
