//===- IDTRCalls.h - building calls of the IDTR C ABI -----------*- C++ -*-===//
//
// Helpers of lower-distruntime-to-idtr: the IDTR entry point of each op, and
// its arguments built as the C ABI takes them (runtime/include/idtr/idtr.h).
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_DIALECT_DISTRUNTIME_TRANSFORMS_IDTRCALLS_H
#define IMEX_LIB_DIALECT_DISTRUNTIME_TRANSFORMS_IDTRCALLS_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/Builders.h"

#include <string>

namespace imex::distruntime::idtr_calls {

/// The entry points of `get_halo` (`_idtr_update_halo_<T>`).
inline constexpr llvm::StringLiteral kUpdateHaloPrefix = "_idtr_update_halo_";

/// The functions `get_halo` is lowered to calls of (see createOutlinedCall),
/// and the positions of their halo (output) arguments.
inline constexpr llvm::StringLiteral kGetHaloFunctionPrefix =
    "_imex_idtr_get_halo";
inline constexpr unsigned kGetHaloFunctionOutputs[] = {1, 2};
/// The operand of those functions that is the array the halos belong to.
inline constexpr unsigned kGetHaloFunctionData = 0;

/// The functions the asynchronous copies of one array into one fresh output
/// (`repartition`, `copy_reshape`) are lowered to calls of, taking the team,
/// the input, the index lists' values, the output and the key.
inline constexpr llvm::StringLiteral kAsyncCopyFunctionPrefixes[] = {
    "_imex_idtr_repartition_", "_imex_idtr_copy_reshape_"};
inline constexpr unsigned kAsyncCopyFunctionInput = 1;
/// (Counted from the end: the output is the last argument but the key.)
inline constexpr unsigned kAsyncCopyFunctionOutputFromEnd = 2;

/// An IDTR entry point and the type the module declares it with.
struct Callee {
  std::string name;
  mlir::FunctionType type;
};

inline ndarray::NDArrayType getArrayType(mlir::Value array) {
  return mlir::cast<ndarray::NDArrayType>(array.getType());
}

/// The element type of buffers holding `type` elements: unsigned integers are
/// stored as signless ones (as convert-ndarray-to-linalg does).
mlir::Type getStorageType(mlir::Type type);

/// `type` with its storage element type.
ndarray::NDArrayType getStorageArrayType(ndarray::NDArrayType type);

/// `memref<*xT>` of the storage type of `elementType`.
mlir::Type getUnranked(mlir::Type elementType);

/// `memref<*xindex>`.
mlir::Type getIndexList(mlir::MLIRContext *context);

/// The element type of the arrays the IDTR call of `op` takes.
mlir::Type getCommElementType(mlir::Operation *op);

/// `_idtr_prank`: this process's rank in a team.
Callee getRankCallee(mlir::MLIRContext *context);

/// The IDTR function `op` is lowered to a call of.
Callee getCallee(mlir::Operation *op);

mlir::Value createI64(mlir::OpBuilder &b, mlir::Location loc, int64_t value);
/// The index `value` as the i64 the C ABI takes.
mlir::Value toI64(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value);
mlir::Value createIndex(mlir::OpBuilder &b, mlir::Location loc, int64_t value);

/// `array` with unsigned elements reinterpreted as signless ones (same bits).
mlir::Value toStorageArray(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value array);

/// The current buffer of `array` (read only, fully dynamic layout), each
/// read numbered so that CSE merges none (see the definition).
mlir::Value getBuffer(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value array);

/// A fresh buffer for an output of type `type`; `sizes` has one size per
/// dimension (used for the dynamic ones).
mlir::Value allocOutput(mlir::OpBuilder &b, mlir::Location loc,
                        ndarray::NDArrayType type, mlir::ValueRange sizes);

/// The sizes of the dynamic dimensions of `type`, taken from `buffer`
/// (null for static ones), as allocOutput takes them.
llvm::SmallVector<mlir::Value> getDynamicSizes(mlir::OpBuilder &b,
                                               mlir::Location loc,
                                               ndarray::NDArrayType type,
                                               mlir::Value buffer);

/// The array of type `type` holding the current contents of the output
/// buffer `memref` (read only, see the definition).
mlir::Value wrapBuffer(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value memref, ndarray::NDArrayType type);

/// `buffer` as the unranked memref argument of an IDTR call.
mlir::Value toUnranked(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value buffer);

/// An index list as `memref<*xindex>` (stack memory of the enclosing
/// function: the outlined glue of an IDTR call).
mlir::Value createIndexList(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::ValueRange values);

/// Calls a private function of the enclosing module named after `prefix`
/// with `args`, creating it on first use: `body` builds the function's body
/// from its parameters and returns its results (of types `resultTypes`).
/// Ranked memref arguments are cast to fully dynamic memrefs, and the name
/// gets the element type and rank of each, so that all call sites with the
/// same element types and ranks share the function. It is not inlined: the
/// glue of an IDTR call (index lists and descriptors on the stack) is
/// compiled once per module, not at every call site.
mlir::ValueRange
createOutlinedCall(mlir::OpBuilder &b, mlir::Location loc,
                   llvm::StringRef prefix, mlir::ValueRange args,
                   mlir::TypeRange resultTypes,
                   llvm::function_ref<llvm::SmallVector<mlir::Value>(
                       mlir::OpBuilder &, mlir::Location, mlir::ValueRange)>
                       body);

/// An argument of an IDTR entry point as createIDTRCall takes it: an i64
/// scalar, a buffer (a ranked memref, passed as an unranked one) or an index
/// list (its values, passed as `memref<*xindex>`).
struct CallArg {
  enum class Kind { Scalar, Buffer, IndexList };
  Kind kind;
  llvm::SmallVector<mlir::Value> values;

  static CallArg scalar(mlir::Value value) { return {Kind::Scalar, {value}}; }
  /// The constant `value` as an i64 scalar.
  static CallArg constant(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t value) {
    return scalar(createI64(b, loc, value));
  }
  /// The index `value` as an i64 scalar.
  static CallArg index(mlir::OpBuilder &b, mlir::Location loc,
                       mlir::Value value) {
    return scalar(toI64(b, loc, value));
  }
  static CallArg buffer(mlir::Value value) { return {Kind::Buffer, {value}}; }
  static CallArg list(mlir::ValueRange values) {
    return {Kind::IndexList, llvm::SmallVector<mlir::Value>(values)};
  }
};

/// A call of the IDTR function of `op` with `args`, through a function
/// outlined by createOutlinedCall (one per entry point, buffer types and
/// list lengths) that builds the unranked descriptors and index lists.
mlir::ValueRange createIDTRCall(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Operation *op,
                                llvm::ArrayRef<CallArg> args);

/// A call of the IDTR function of `op` with `operands`.
mlir::ValueRange createCall(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Operation *op, mlir::ValueRange operands);

/// Resets the numbering of buffer reads (at the start of the pass).
void resetReadNumbering();

} // namespace imex::distruntime::idtr_calls

#endif // IMEX_LIB_DIALECT_DISTRUNTIME_TRANSFORMS_IDTRCALLS_H
