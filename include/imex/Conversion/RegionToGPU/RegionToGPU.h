//===- RegionToGPU.h - GPU env_regions to gpu dialect kernels ---*- C++ -*-===//

#ifndef IMEX_CONVERSION_REGIONTOGPU_REGIONTOGPU_H
#define IMEX_CONVERSION_REGIONTOGPU_REGIONTOGPU_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace imex {

#define GEN_PASS_DECL_CONVERTREGIONTOGPU
#define GEN_PASS_DECL_GPUSYNCSHAREDALLOCS
#include "imex/Conversion/Passes.h.inc"

} // namespace imex

#endif // IMEX_CONVERSION_REGIONTOGPU_REGIONTOGPU_H
