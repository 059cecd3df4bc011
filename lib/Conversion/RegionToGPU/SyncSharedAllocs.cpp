//===- SyncSharedAllocs.cpp - synchronous host-shared gpu.alloc -----------===//

#include "imex/Conversion/RegionToGPU/RegionToGPU.h"

#include "mlir/IR/PatternMatch.h"

namespace imex {
#define GEN_PASS_DEF_GPUSYNCSHAREDALLOCS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {
struct GPUSyncSharedAllocsPass
    : public imex::impl::GPUSyncSharedAllocsBase<GPUSyncSharedAllocsPass> {
  void runOnOperation() override {
    SmallVector<gpu::AllocOp> allocs;
    getOperation().walk([&](gpu::AllocOp alloc) {
      if (alloc.getHostShared() && alloc.getAsyncToken())
        allocs.push_back(alloc);
    });
    IRRewriter rewriter(&getContext());
    for (gpu::AllocOp alloc : allocs) {
      Location loc = alloc.getLoc();
      rewriter.setInsertionPoint(alloc);
      gpu::WaitOp::create(rewriter, loc, Type(), alloc.getAsyncDependencies());
      auto sync = gpu::AllocOp::create(
          rewriter, loc, alloc.getMemref().getType(), /*asyncToken=*/Type(),
          ValueRange(), alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/true);
      auto token = gpu::WaitOp::create(
          rewriter, loc, alloc.getAsyncToken().getType(), ValueRange());
      rewriter.replaceOp(alloc, {sync.getMemref(), token.getAsyncToken()});
    }
  }
};
} // namespace
