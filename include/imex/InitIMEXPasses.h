//===- InitIMEXPasses.h - register all IMEX passes --------------*- C++ -*-===//

#ifndef IMEX_INITIMEXPASSES_H
#define IMEX_INITIMEXPASSES_H

namespace imex {
/// Registers all IMEX passes and pipelines with the global registry.
inline void registerAllPasses() {}
} // namespace imex

#endif // IMEX_INITIMEXPASSES_H
