//===- ScalarOps.h - numpy semantics of one element -------------*- C++ -*-===//
//
// Builders for the scalar computations inside the linalg ops that
// convert-ndarray-to-linalg emits. Values are signless (tensors store
// unsigned integers as signless); the ndarray element types given alongside
// say how to interpret them.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_CONVERSION_NDARRAYTOLINALG_SCALAROPS_H
#define IMEX_LIB_CONVERSION_NDARRAYTOLINALG_SCALAROPS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

namespace imex::ndarray {

/// The signless type tensors use to store elements of `type`.
mlir::Type getStorageType(mlir::Type type);

/// A scalar of ndarray element type (a function argument, a loaded element)
/// as its storage type, and back. Unsigned scalars are reinterpreted by
/// casts that the LLVM lowering folds away (it stores both alike).
mlir::Value castToStorage(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value);
mlir::Value castFromStorage(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value value, mlir::Type elementType);

/// Converts `value` (an element of ndarray type `from`) to ndarray element
/// type `to` with numpy's `astype` semantics.
mlir::Value convertScalar(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value value, mlir::Type from, mlir::Type to);

/// `kind` applied to `lhs` and `rhs`, both already converted to the
/// ndarray element type `operandType`; the result has element type
/// `resultType`.
mlir::Value buildEWBin(mlir::OpBuilder &b, mlir::Location loc, EWBinOpKind kind,
                       mlir::Value lhs, mlir::Value rhs, mlir::Type operandType,
                       mlir::Type resultType);

/// `kind` applied to `value` of ndarray element type `type`, giving
/// `resultType`.
mlir::Value buildEWUny(mlir::OpBuilder &b, mlir::Location loc, EWUnyOpKind kind,
                       mlir::Value value, mlir::Type type,
                       mlir::Type resultType);

/// The identity of a reduction accumulating in ndarray type `type`.
mlir::Value buildReductionIdentity(mlir::OpBuilder &b, mlir::Location loc,
                                   ReductionKind kind, mlir::Type type);

/// Combines accumulator `acc` with element `value` (both of ndarray type
/// `type`) for `kind` (sum, prod, min, max, any, all).
mlir::Value buildReductionStep(mlir::OpBuilder &b, mlir::Location loc,
                               ReductionKind kind, mlir::Value acc,
                               mlir::Value value, mlir::Type type);

} // namespace imex::ndarray

#endif // IMEX_LIB_CONVERSION_NDARRAYTOLINALG_SCALAROPS_H
