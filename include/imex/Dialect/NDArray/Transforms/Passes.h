//===- Passes.h - ndarray transformation passes -----------------*- C++ -*-===//

#ifndef IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_H
#define IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_H

#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

namespace imex::ndarray {

#define GEN_PASS_DECL
#include "imex/Dialect/NDArray/Transforms/Passes.h.inc"

/// Rewrites the in-place updates and views of `func` into value semantics
/// (see the `ndarray-value-semantics` pass). Emits errors and fails on
/// unsupported control flow.
mlir::LogicalResult convertToValueSemantics(mlir::FunctionOpInterface func);

#define GEN_PASS_REGISTRATION
#include "imex/Dialect/NDArray/Transforms/Passes.h.inc"

} // namespace imex::ndarray

#endif // IMEX_DIALECT_NDARRAY_TRANSFORMS_PASSES_H
