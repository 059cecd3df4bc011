//===- InitIMEXPasses.h - register all IMEX passes --------------*- C++ -*-===//

#ifndef IMEX_INITIMEXPASSES_H
#define IMEX_INITIMEXPASSES_H

#include "imex/Dialect/NDArray/Transforms/Passes.h"

namespace imex {
/// Registers all IMEX passes and pipelines with the global registry.
inline void registerAllPasses() { ndarray::registerNDArrayPasses(); }
} // namespace imex

#endif // IMEX_INITIMEXPASSES_H
