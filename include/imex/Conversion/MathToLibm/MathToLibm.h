//===- MathToLibm.h - transcendental math ops to libm calls -----*- C++ -*-===//

#ifndef IMEX_CONVERSION_MATHTOLIBM_MATHTOLIBM_H
#define IMEX_CONVERSION_MATHTOLIBM_MATHTOLIBM_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_MATHTOLIBM
#include "imex/Conversion/Passes.h.inc"

} // namespace imex

#endif // IMEX_CONVERSION_MATHTOLIBM_MATHTOLIBM_H
