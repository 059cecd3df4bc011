//===- NDArray.h - ndarray dialect ------------------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_NDARRAY_IR_NDARRAY_H
#define IMEX_DIALECT_NDARRAY_IR_NDARRAY_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/ShapedOpInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "imex/Dialect/NDArray/IR/NDArrayOpsDialect.h.inc"
#include "imex/Dialect/NDArray/IR/NDArrayOpsEnums.h.inc"

#include "imex/Dialect/NDArray/IR/NDArrayAttrInterfaces.h.inc"

namespace imex::ndarray {
class NDArrayType;

/// Whether the arrays `a` and `b` may meet in one op as far as their
/// environments go: for every kind present in both, the two environments
/// are compatible; a kind present in only one must allow mixing with its
/// absence.
bool areCompatibleEnvironments(NDArrayType a, NDArrayType b);

/// Whether `shape` can be an ndarray shape: sizes non-negative or dynamic,
/// and the static ones multiply to at most 2^63 - 1 elements.
bool isValidShape(llvm::ArrayRef<int64_t> shape);

/// `type` with `shape`, or null if no array type can have it (sizes its
/// environments do not allow, too many elements).
NDArrayType cloneWithShapeIfValid(NDArrayType type,
                                  llvm::ArrayRef<int64_t> shape);

/// Verifies static slice parameters against `shape`: positive strides and
/// in-bounds offsets and extents; an empty slice may start at the end of a
/// dimension. Reports through `emitError` if it is set.
mlir::LogicalResult verifySliceBounds(
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
    llvm::ArrayRef<int64_t> shape, llvm::ArrayRef<int64_t> offsets,
    llvm::ArrayRef<int64_t> sizes, llvm::ArrayRef<int64_t> strides);

/// The axes a view (ndarray.subview, ndarray.extract_slice) `op` drops by
/// rank reduction, in increasing order (empty if it keeps the rank);
/// std::nullopt for other ops or if its sizes do not determine them.
std::optional<llvm::SmallVector<int64_t>> getDroppedAxes(mlir::Operation *op);

/// Emits an error on `op` unless the environments of all its array operands
/// and results are pairwise compatible.
mlir::LogicalResult verifyCompatibleEnvironments(mlir::Operation *op);

/// Result compatibility for ops with inferred result types: same element
/// type, shapes that agree where both are static, compatible environments.
bool areCompatibleInferredTypes(mlir::TypeRange inferred,
                                mlir::TypeRange actual);

/// The environments of a result of type `resultType` computed from `operands`:
/// one per kind found on the array operands, as given by
/// `EnvironmentAttrInterface::getResultEnvironment`.
llvm::SmallVector<mlir::Attribute>
inferResultEnvironments(mlir::ValueRange operands, mlir::ShapedType resultType);
} // namespace imex::ndarray

namespace mlir::OpTrait {
/// Verifies `imex::ndarray::verifyCompatibleEnvironments`.
template <typename ConcreteType>
class CompatibleEnvironments
    : public TraitBase<ConcreteType, CompatibleEnvironments> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return imex::ndarray::verifyCompatibleEnvironments(op);
  }
};
} // namespace mlir::OpTrait

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/NDArray/IR/NDArrayOpsAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "imex/Dialect/NDArray/IR/NDArrayOpsTypes.h.inc"

#define GET_OP_CLASSES
#include "imex/Dialect/NDArray/IR/NDArrayOps.h.inc"

namespace imex::ndarray {
/// Marks the `ndarray.insert_slice` with which ndarray-value-semantics
/// writes the final version of an updated argument back: its source has the
/// destination's shape by construction (no broadcasting to check).
inline constexpr llvm::StringLiteral kWriteBackAttrName = "ndarray.write_back";

/// Marks an insert (kept on the `tensor.insert_slice` it lowers to) that
/// writes ghost cells: elements that are read only until the next write of
/// the array that is not a ghost write, and written again before they are
/// read after it (halos exchanged into the spare rows of a distributed
/// array's buffer). On the op defining a tensor (the received halos), it
/// marks every insert of that tensor so. imex-double-buffer-loops may apply
/// such writes to either buffer of a double-buffered array.
inline constexpr llvm::StringLiteral kGhostWriteAttrName =
    "ndarray.ghost_write";
} // namespace imex::ndarray

#endif // IMEX_DIALECT_NDARRAY_IR_NDARRAY_H
