//===- Dist.h - dist dialect ------------------------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_DIST_IR_DIST_H
#define IMEX_DIALECT_DIST_IR_DIST_H

#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "imex/Dialect/Dist/IR/DistOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/Dist/IR/DistOpsAttrs.h.inc"

namespace imex::dist {
/// The `#dist.dist_env` of `type` if it is an `!ndarray.ndarray` with one,
/// else null.
DistEnvAttr getDistEnv(mlir::Type type);
/// Whether `type` is a distributed array (an ndarray with a dist env).
inline bool isDist(mlir::Type type) { return bool(getDistEnv(type)); }
/// The type of a rank's block of the distributed array type `distType`: its
/// shape with its split axes dynamic (a 0-d array: its shape), its element
/// type and its other environments. Null if `distType` is not distributed.
ndarray::NDArrayType getLocalType(ndarray::NDArrayType distType);
/// `type` distributed over `team` (default distribution); replaces a dist
/// env `type` may have.
ndarray::NDArrayType withDistEnv(ndarray::NDArrayType type, int64_t team);
/// `type` in the dist env `env`; replaces a dist env `type` may have.
ndarray::NDArrayType withDistEnv(ndarray::NDArrayType type, DistEnvAttr env);
/// The value of the dynamic global size `dim` of the distributed array
/// `array` when it is known without new ops (the shape operand of the
/// `dist.init_dist_array` it is computed from), else null.
mlir::Value getKnownGlobalSize(mlir::Value array, int64_t dim);
} // namespace imex::dist

#define GET_OP_CLASSES
#include "imex/Dialect/Dist/IR/DistOps.h.inc"

#endif // IMEX_DIALECT_DIST_IR_DIST_H
