//===- Registration.h - everything IMEX's tools register --------*- C++ -*-===//

#ifndef IMEX_TOOLS_REGISTRATION_H
#define IMEX_TOOLS_REGISTRATION_H

#include "imex/InitIMEXDialects.h"
#include "imex/InitIMEXPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

namespace imex {
/// Registers every upstream and IMEX pass and pipeline, and adds every
/// upstream and IMEX dialect and extension to `registry`: what imex-opt,
/// imex-runner and imex-bench offer.
inline void registerEverything(mlir::DialectRegistry &registry) {
  mlir::registerAllPasses();
  imex::registerAllPasses();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  imex::registerAllDialects(registry);
  // gpu-module-to-binary translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
}
} // namespace imex

#endif // IMEX_TOOLS_REGISTRATION_H
