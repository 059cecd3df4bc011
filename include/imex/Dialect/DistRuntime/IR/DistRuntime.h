//===- DistRuntime.h - distruntime dialect ----------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIME_H
#define IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIME_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace imex::distruntime {
/// The communication state of the process (MPI, IDTR handles and plan
/// cache). Every communicating distruntime op reads and writes it, so none
/// of them is merged, hoisted, reordered with another or erased.
struct CommResource : public mlir::SideEffects::Resource::Base<CommResource> {
  llvm::StringRef getName() override { return "DistRuntimeComm"; }
};

/// Emits an error on `op` unless `type` is a local array IDTR can
/// communicate: an `!ndarray.ndarray` without a `dist` environment and with
/// an element type IDTR supports. `what` names the value in the message.
mlir::LogicalResult verifyLocalArray(mlir::Operation *op, mlir::Type type,
                                     llvm::StringRef what);

/// Whether IDTR supports arrays with elements of `type` (f64 f32 i64 i32 i16
/// i8 i1 ui64 ui32 ui16 ui8 index).
bool isSupportedElementType(mlir::Type type);

/// The suffix of IDTR's typed entry points for `type` ("f64", "ui8",
/// "index", ...); empty if unsupported.
llvm::StringRef getIDTRTypeSuffix(mlir::Type type);
} // namespace imex::distruntime

#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsDialect.h.inc"
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsTypes.h.inc"

#include "imex/Dialect/DistRuntime/IR/DistRuntimeOpsInterfaces.h.inc"

#define GET_OP_CLASSES
#include "imex/Dialect/DistRuntime/IR/DistRuntimeOps.h.inc"

#endif // IMEX_DIALECT_DISTRUNTIME_IR_DISTRUNTIME_H
