//===- LinalgToBlas.h - matrix products as BLAS gemm calls ------*- C++ -*-===//

#ifndef IMEX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
#define IMEX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_LINALGTOBLAS
#include "imex/Conversion/Passes.h.inc"

} // namespace imex

#endif // IMEX_CONVERSION_LINALGTOBLAS_LINALGTOBLAS_H
