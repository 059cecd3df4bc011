//===- Inlining.h - inliner interface for IMEX dialects ---------*- C++ -*-===//

#ifndef IMEX_UTILS_INLINING_H
#define IMEX_UTILS_INLINING_H

#include "mlir/Transforms/InliningUtils.h"

namespace imex {
/// Allows inlining every op and region of a dialect: none of IMEX's ops
/// depends on the function it is in.
struct AlwaysInlinableInterface : public mlir::DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(mlir::Operation *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(mlir::Region *, mlir::Region *, bool,
                       mlir::IRMapping &) const final {
    return true;
  }
};
} // namespace imex

#endif // IMEX_UTILS_INLINING_H
