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

} // namespace imex

#endif // IMEX_CONVERSION_MATHTOLIBM_COMPLEXTOLIBM_H
