//===- ComplexToLibm.h - complex functions to C library calls ---*- C++ -*-===//

#ifndef IMEX_CONVERSION_MATHTOLIBM_COMPLEXTOLIBM_H
#define IMEX_CONVERSION_MATHTOLIBM_COMPLEXTOLIBM_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_COMPLEXTOLIBM
#include "imex/Conversion/Passes.h.inc"

/// A call of the C library's double complex function `name` on `z`;
/// complex<f32> is converted there and back (a `float complex` argument is
/// passed packed in one register, which a call with an MLIR complex<f32>
/// would not match). The caller declares `name`.
mlir::Value createDoubleComplexCall(mlir::OpBuilder &b, mlir::Location loc,
                                    llvm::StringRef name, mlir::Value z);

} // namespace imex

#endif // IMEX_CONVERSION_MATHTOLIBM_COMPLEXTOLIBM_H
