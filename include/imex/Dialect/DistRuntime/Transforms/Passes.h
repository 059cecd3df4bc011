//===- Passes.h - distruntime dialect passes --------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H
#define IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace imex::distruntime {

#define GEN_PASS_DECL
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"

} // namespace imex::distruntime

#endif // IMEX_DIALECT_DISTRUNTIME_TRANSFORMS_PASSES_H
