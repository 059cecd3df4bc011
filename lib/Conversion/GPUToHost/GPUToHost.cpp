//===- GPUToHost.cpp - run gpu dialect kernels on the host ----------------===//

#include "imex/Conversion/GPUToHost/GPUToHost.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace imex {
#define GEN_PASS_DEF_GPUTOHOST
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {
/// The launch as a parallel loop over (block x, y, z, thread x, y, z); the
/// body's grid and block sizes are the launch's operands.
LogicalResult emulateLaunch(RewriterBase &rewriter, gpu::LaunchOp launch) {
  if (launch.getBody().getBlocks().size() != 1 ||
      launch.getDynamicSharedMemorySize() ||
      launch.getNumWorkgroupAttributions() != 0 ||
      launch.getNumPrivateAttributions() != 0 || launch.hasClusterSize())
    return launch.emitOpError(
        "cannot be emulated on the host (several blocks, shared memory, "
        "attributions or clusters)");
  Location loc = launch.getLoc();
  rewriter.setInsertionPoint(launch);
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<Value> upper = {grid.x,  grid.y,  grid.z,
                              block.x, block.y, block.z};
  auto loop =
      scf::ParallelOp::create(rewriter, loc, SmallVector<Value>(6, zero), upper,
                              SmallVector<Value>(6, one));
  Block &body = launch.getBody().front();
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridSizes = launch.getGridSize();
  gpu::KernelDim3 blockSizes = launch.getBlockSize();
  SmallVector<Value> ivs(loop.getInductionVars());
  IRMapping mapping;
  Value ids[] = {blockIds.x,  blockIds.y,  blockIds.z,
                 threadIds.x, threadIds.y, threadIds.z};
  for (auto [id, iv] : llvm::zip(ids, ivs))
    mapping.map(id, iv);
  Value sizes[] = {gridSizes.x,  gridSizes.y,  gridSizes.z,
                   blockSizes.x, blockSizes.y, blockSizes.z};
  for (auto [size, value] : llvm::zip(sizes, upper))
    mapping.map(size, value);
  rewriter.setInsertionPointToStart(loop.getBody());
  for (Operation &op : body.without_terminator())
    rewriter.clone(op, mapping);
  rewriter.eraseOp(launch);
  return success();
}

struct GPUToHostPass : public imex::impl::GPUToHostBase<GPUToHostPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<gpu::LaunchOp, gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp,
              gpu::WaitOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      // (Tokens would need a host event model: the pass runs before
      // gpu-async-region.)
      auto async = dyn_cast<gpu::AsyncOpInterface>(op);
      if (async &&
          (async.getAsyncToken() || !async.getAsyncDependencies().empty())) {
        op->emitOpError("is asynchronous: imex-gpu-to-host runs before "
                        "gpu-async-region");
        return signalPassFailure();
      }
      rewriter.setInsertionPoint(op);
      if (auto launch = dyn_cast<gpu::LaunchOp>(op)) {
        if (failed(emulateLaunch(rewriter, launch)))
          return signalPassFailure();
      } else if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
        rewriter.replaceOpWithNewOp<memref::AllocOp>(op, alloc.getType(),
                                                     alloc.getDynamicSizes(),
                                                     alloc.getSymbolOperands());
      } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
        rewriter.replaceOpWithNewOp<memref::DeallocOp>(op, dealloc.getMemref());
      } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
        rewriter.replaceOpWithNewOp<memref::CopyOp>(op, copy.getSrc(),
                                                    copy.getDst());
      } else {
        rewriter.eraseOp(op);
      }
    }
  }
};
} // namespace
