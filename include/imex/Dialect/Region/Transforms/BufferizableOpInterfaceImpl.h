//===- BufferizableOpInterfaceImpl.h - region bufferization -----*- C++ -*-===//

#ifndef IMEX_DIALECT_REGION_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define IMEX_DIALECT_REGION_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace imex::region {
/// One-shot bufferization of `region.env_region`: its tensor results become
/// the buffers its body yields, so that allocations stay inside the region
/// (where `convert-region-to-gpu` finds them).
void registerBufferizableOpInterfaceExternalModels(
    mlir::DialectRegistry &registry);
} // namespace imex::region

#endif // IMEX_DIALECT_REGION_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
