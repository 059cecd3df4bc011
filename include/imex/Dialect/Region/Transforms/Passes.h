//===- Passes.h - region dialect passes -------------------------*- C++ -*-===//

#ifndef IMEX_DIALECT_REGION_TRANSFORMS_PASSES_H
#define IMEX_DIALECT_REGION_TRANSFORMS_PASSES_H

#include "imex/Dialect/Region/IR/Region.h"
#include "mlir/Pass/Pass.h"

namespace imex::region {

#define GEN_PASS_DECL
#include "imex/Dialect/Region/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "imex/Dialect/Region/Transforms/Passes.h.inc"

} // namespace imex::region

#endif // IMEX_DIALECT_REGION_TRANSFORMS_PASSES_H
