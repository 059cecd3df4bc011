//===- InitIMEXPasses.h - register all IMEX passes --------------*- C++ -*-===//

#ifndef IMEX_INITIMEXPASSES_H
#define IMEX_INITIMEXPASSES_H

#include "imex/Conversion/Passes.h"
#include "imex/Dialect/Dist/Transforms/Passes.h"
#include "imex/Dialect/DistRuntime/Transforms/Passes.h"
#include "imex/Dialect/NDArray/Transforms/Passes.h"
#include "imex/Dialect/Region/Transforms/Passes.h"
#include "imex/Pipelines/Pipelines.h"

namespace imex {
/// Registers all IMEX passes and pipelines with the global registry.
inline void registerAllPasses() {
  ndarray::registerNDArrayPasses();
  region::registerRegionPasses();
  dist::registerDistPasses();
  distruntime::registerDistRuntimePasses();
  registerIMEXConversionPasses();
  registerIMEXPipelines();
}
} // namespace imex

#endif // IMEX_INITIMEXPASSES_H
