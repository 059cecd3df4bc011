//===- DistToStandard.h - lower distributed arrays --------------*- C++ -*-===//

#ifndef IMEX_CONVERSION_DISTTOSTANDARD_DISTTOSTANDARD_H
#define IMEX_CONVERSION_DISTTOSTANDARD_DISTTOSTANDARD_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_CONVERTDISTTOSTANDARD
#include "imex/Conversion/Passes.h.inc"

} // namespace imex

#endif // IMEX_CONVERSION_DISTTOSTANDARD_DISTTOSTANDARD_H
