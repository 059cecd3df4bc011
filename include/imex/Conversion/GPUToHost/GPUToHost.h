//===- GPUToHost.h - run gpu dialect kernels on the host --------*- C++ -*-===//

#ifndef IMEX_CONVERSION_GPUTOHOST_GPUTOHOST_H
#define IMEX_CONVERSION_GPUTOHOST_GPUTOHOST_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_GPUTOHOST
#include "imex/Conversion/Passes.h.inc"

} // namespace imex

#endif // IMEX_CONVERSION_GPUTOHOST_GPUTOHOST_H
