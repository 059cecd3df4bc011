//===- Region.h - region dialect --------------------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_REGION_IR_REGION_H
#define IMEX_DIALECT_REGION_IR_REGION_H

#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "imex/Dialect/Region/IR/RegionOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/Region/IR/RegionOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "imex/Dialect/Region/IR/RegionOps.h.inc"

namespace imex::region {
/// Whether `op` is a `region.env_region` with a GPU environment.
bool isGpuRegion(mlir::Operation *op);
/// Whether `op` is (transitively) inside a GPU `region.env_region`.
bool isInGpuRegion(mlir::Operation *op);
} // namespace imex::region

#endif // IMEX_DIALECT_REGION_IR_REGION_H
