//===- TypeRules.h - numpy type promotion and broadcasting ------*- C++ -*-===//
//
// The element-type and shape rules of the array API (with numpy's choices
// where the array API leaves them open). Shared by the verifiers, type
// inference and the lowerings so that they cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_NDARRAY_IR_TYPERULES_H
#define IMEX_DIALECT_NDARRAY_IR_TYPERULES_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

namespace imex::ndarray {

/// The numpy kind of an element type.
enum class DTypeKind { Bool, SignedInt, UnsignedInt, Index, Float, Complex };

/// The kind of a supported element type, or std::nullopt.
std::optional<DTypeKind> getDTypeKind(mlir::Type type);

inline bool isBoolType(mlir::Type t) {
  return getDTypeKind(t) == DTypeKind::Bool;
}
inline bool isFloatType(mlir::Type t) {
  return getDTypeKind(t) == DTypeKind::Float;
}
/// complex<f32> (numpy complex64) or complex<f64> (complex128).
inline bool isComplexType(mlir::Type t) {
  return getDTypeKind(t) == DTypeKind::Complex;
}
/// The real type of an element type: the components of a complex type, the
/// type itself otherwise.
mlir::Type getRealType(mlir::Type t);
/// A constant of float or complex type `type` with real part `value` (and
/// imaginary part 0).
mlir::Value createFloatConstant(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Type type, double value);
/// Signed, unsigned or index integers; not bool.
bool isIntegerType(mlir::Type t);

/// The common element type of `a` and `b` under array-API/numpy promotion,
/// or null when there is none (an unsupported type).
mlir::Type promoteTypes(mlir::Type a, mlir::Type b);

/// The floating-point type numpy computes a transcendental function of `t`
/// in: `t` itself for floats and complex types, f16 for i1 and 8-bit, f32
/// for 16-bit and f64 for wider integers.
mlir::Type getFloatTypeFor(mlir::Type t);

/// The element type of `ewbin kind` on the given operand element types, or
/// failure with the reason in `reason`.
mlir::FailureOr<mlir::Type> inferEWBinElementType(EWBinOpKind kind,
                                                  mlir::Type lhs,
                                                  mlir::Type rhs,
                                                  std::string &reason);
/// Same for `ewuny kind`.
mlir::FailureOr<mlir::Type>
inferEWUnyElementType(EWUnyOpKind kind, mlir::Type source, std::string &reason);
/// Same for `reduction kind`.
mlir::FailureOr<mlir::Type> inferReductionElementType(ReductionKind kind,
                                                      mlir::Type source,
                                                      std::string &reason);

/// numpy broadcasting of two shapes (dimensions aligned at the end). A
/// dynamic size broadcasts with 1 to dynamic and with a static size `n > 1`
/// to `n`. Fails when two static sizes differ and neither is 1; `reason`
/// then says which dimensions clash.
mlir::LogicalResult broadcastShapes(llvm::ArrayRef<int64_t> a,
                                    llvm::ArrayRef<int64_t> b,
                                    llvm::SmallVectorImpl<int64_t> &result,
                                    std::string &reason);

/// Whether `from` may be broadcast to `to` with numpy's rules: `from` has at
/// most the rank of `to`, and each of its (end-aligned) sizes is 1 or equal
/// to the target size (dynamic sizes are assumed to be compatible).
bool isBroadcastableTo(llvm::ArrayRef<int64_t> from,
                       llvm::ArrayRef<int64_t> to);

/// Whether `actual` is `inferred` with some static sizes made dynamic.
bool isShapeRefinedBy(llvm::ArrayRef<int64_t> actual,
                      llvm::ArrayRef<int64_t> inferred);

} // namespace imex::ndarray

#endif // IMEX_DIALECT_NDARRAY_IR_TYPERULES_H
