//===- InitIMEXDialects.h - register all IMEX dialects ----------*- C++ -*-===//

#ifndef IMEX_INITIMEXDIALECTS_H
#define IMEX_INITIMEXDIALECTS_H

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/Region/IR/Region.h"
#include "imex/Dialect/Region/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/IR/DialectRegistry.h"

namespace imex {
/// Adds all IMEX dialects to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<ndarray::NDArrayDialect, region::RegionDialect>();
  registry.insert<dist::DistDialect>();
  registry.insert<distruntime::DistRuntimeDialect>();
  region::registerBufferizableOpInterfaceExternalModels(registry);
}
} // namespace imex

#endif // IMEX_INITIMEXDIALECTS_H
