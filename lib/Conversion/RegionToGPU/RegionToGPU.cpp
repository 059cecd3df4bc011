//===- RegionToGPU.cpp - GPU env_regions to gpu dialect kernels -----------===//
//
// After bufferization, the bodies of GPU `region.env_region` ops are buffers
// and linalg ops. This pass turns them into device allocations, transfers
// and kernel launches, reusing upstream's tiling of parallel loops and its
// parallel-loop-to-GPU conversion, then inlines the regions.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/RegionToGPU/RegionToGPU.h"
#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Conversion/SCFToGPU/SCFToGPU.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex {
#define GEN_PASS_DEF_CONVERTREGIONTOGPU
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;
using namespace imex::region;

namespace {
/// The buffer `value` is a view of: through views, region and loop results
/// (to what they yield or start from) and strided-metadata extraction.
Value getRootBuffer(Value value) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || arg.getArgNumber() == 0)
        return value;
      value = loop.getInitArgs()[arg.getArgNumber() - 1];
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      value = view.getViewSource();
    } else if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      value = meta.getSource();
    } else if (auto region = dyn_cast<EnvRegionOp>(def)) {
      value = region.getYield()->getOperand(
          cast<OpResult>(value).getResultNumber());
    } else if (auto loop = dyn_cast<scf::ForOp>(def)) {
      value = loop.getInitArgs()[cast<OpResult>(value).getResultNumber()];
    } else {
      return value;
    }
  }
}

bool isDeviceBuffer(Value value) {
  return isa_and_present<gpu::AllocOp>(getRootBuffer(value).getDefiningOp());
}

/// Whether `op` or an op nested in it reads or writes a buffer (takes a
/// memref that is not just a view or a size of one): such work runs on the
/// device. Scalar computations, checks and calls on scalars stay on the
/// host.
bool usesBuffers(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        if (isMemoryEffectFree(nested) && nested->getNumRegions() == 0)
          return WalkResult::advance();
        return llvm::any_of(nested->getOperandTypes(),
                            llvm::IsaPred<BaseMemRefType>)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `op` is or contains what the host does with device buffers:
/// launches, allocations, frees and transfers.
bool containsHostWork(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<gpu::LaunchOp, gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp,
                   memref::AllocOp, memref::DeallocOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

class RegionToGPUConverter {
public:
  explicit RegionToGPUConverter(MLIRContext *context) : rewriter(context) {}

  LogicalResult convert(EnvRegionOp region) {
    if (failed(convertCopiesAndAllocs(region)) ||
        failed(convertLinalgOps(region)) || failed(mapParallelLoops(region)) ||
        failed(convertParallelLoops(region)))
      return failure();
    for (Block &block : region.getRegion())
      if (failed(launchSerialWork(block)))
        return failure();
    rewriter.setInsertionPoint(region);
    EnvRegionOp::inlineIntoParent(rewriter, region);
    return success();
  }

  /// Outside the regions: frees of device buffers and copies from or to
  /// them.
  LogicalResult convertHostOps(func::FuncOp func) {
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (isa<memref::DeallocOp, memref::CopyOp>(op) &&
          !op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      rewriter.setInsertionPoint(op);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        if (isDeviceBuffer(dealloc.getMemref()))
          rewriter.replaceOpWithNewOp<gpu::DeallocOp>(
              op, /*asyncToken=*/Type(), ValueRange(), dealloc.getMemref());
        continue;
      }
      auto copy = cast<memref::CopyOp>(op);
      if (isDeviceBuffer(copy.getSource()) || isDeviceBuffer(copy.getTarget()))
        if (failed(replaceByMemcpy(copy)))
          return failure();
    }
    return success();
  }

private:
  LogicalResult replaceByMemcpy(memref::CopyOp copy) {
    for (Value buffer : {copy.getSource(), copy.getTarget()}) {
      auto type = cast<MemRefType>(buffer.getType());
      if (!type.getLayout().isIdentity() &&
          !memref::isStaticShapeAndContiguousRowMajor(type))
        return copy.emitOpError("copies a strided view between host and "
                                "device memory; copy a contiguous array");
    }
    rewriter.setInsertionPoint(copy);
    rewriter.replaceOpWithNewOp<gpu::MemcpyOp>(copy, /*asyncToken=*/Type(),
                                               ValueRange(), copy.getTarget(),
                                               copy.getSource());
    return success();
  }

  /// Allocations in the region are on the device; copies into them from
  /// the host are transfers, copies between device buffers are kernels.
  LogicalResult convertCopiesAndAllocs(EnvRegionOp region) {
    SmallVector<memref::AllocOp> allocs;
    region.walk([&](memref::AllocOp alloc) { allocs.push_back(alloc); });
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      rewriter.replaceOpWithNewOp<gpu::AllocOp>(
          alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange(),
          alloc.getDynamicSizes(), alloc.getSymbolOperands(),
          /*hostShared=*/false);
    }
    SmallVector<memref::CopyOp> copies;
    region.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      bool fromDevice = isDeviceBuffer(copy.getSource());
      bool toDevice = isDeviceBuffer(copy.getTarget());
      if (fromDevice != toDevice) {
        if (failed(replaceByMemcpy(copy)))
          return failure();
        continue;
      }
      // Both on the device (a value copied within the region): a kernel.
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    }
    return success();
  }

  LogicalResult convertLinalgOps(EnvRegionOp region) {
    SmallVector<linalg::LinalgOp> ops;
    region.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      if (failed(linalg::linalgOpToParallelLoops(rewriter, op)))
        return op->emitOpError("cannot be lowered to parallel loops");
      rewriter.eraseOp(op);
    }
    return success();
  }

  /// Tiles the outermost parallel loops into blocks of threads (the two
  /// innermost dimensions: 32 x 8 threads, or 256 in 1-D) and maps tiles to
  /// blocks and the points of a tile to threads, the innermost dimension to
  /// x (consecutive threads touch consecutive elements).
  LogicalResult mapParallelLoops(EnvRegionOp region) {
    SmallVector<scf::ParallelOp> loops;
    region.walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>())
        loops.push_back(loop);
    });
    for (scf::ParallelOp loop : loops) {
      unsigned rank = loop.getNumLoops();
      SmallVector<int64_t> tileSizes(rank, 1);
      tileSizes[rank - 1] = rank == 1 ? 256 : 32;
      if (rank >= 2)
        tileSizes[rank - 2] = 8;
      auto [outer, inner] =
          scf::tileParallelLoop(loop, tileSizes, /*noMinMaxBounds=*/true);
      if (failed(setMapping(outer, gpu::Processor::BlockX)) ||
          failed(setMapping(inner, gpu::Processor::ThreadX)))
        return loop.emitOpError("cannot be mapped to GPU blocks and threads");
    }
    return success();
  }

  LogicalResult setMapping(scf::ParallelOp loop, gpu::Processor firstX) {
    MLIRContext *context = loop.getContext();
    unsigned rank = loop.getNumLoops();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
    SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
    for (unsigned dim = 0; dim < rank; ++dim) {
      unsigned fromInnermost = rank - 1 - dim;
      gpu::Processor processor =
          fromInnermost < 3 ? static_cast<gpu::Processor>(
                                  static_cast<uint64_t>(firstX) + fromInnermost)
                            : gpu::Processor::Sequential;
      mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
          context, processor, identity, identity));
    }
    return gpu::setMappingAttr(loop, mapping);
  }

  LogicalResult convertParallelLoops(EnvRegionOp region) {
    RewritePatternSet patterns(region.getContext());
    populateParallelLoopToGPUPatterns(patterns);
    ConversionTarget target(*region.getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    configureParallelLoopToGPULegality(target);
    if (failed(applyPartialConversion(region, target, std::move(patterns))))
      return region.emitOpError("parallel loops could not become GPU kernels");
    finalizeParallelLoopToGPUConversion(region);
    return success();
  }

  /// What is left in the region that touches memory (sequential loops such
  /// as reductions, scalar stores) runs in single-thread kernels, so that
  /// the host never dereferences device memory.
  LogicalResult launchSerialWork(Block &block) {
    SmallVector<Operation *> group;
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        break;
      if (usesBuffers(&op) && !containsHostWork(&op)) {
        group.push_back(&op);
        continue;
      }
      // Scalar computations between device work join it if they use its
      // results, or else move before it: one kernel for the whole group.
      if (!group.empty() && isMemoryEffectFree(&op) &&
          op.getNumRegions() == 0) {
        bool usesGroup = llvm::any_of(op.getOperands(), [&](Value operand) {
          Operation *def = operand.getDefiningOp();
          return def && llvm::any_of(group, [&](Operation *member) {
                   return member->isAncestor(def);
                 });
        });
        if (usesGroup)
          group.push_back(&op);
        else
          op.moveBefore(group.front());
        continue;
      }
      if (failed(launch(group)))
        return failure();
      if (!isa<gpu::LaunchOp>(op) && containsHostWork(&op))
        for (Region &region : op.getRegions())
          for (Block &nested : region)
            if (failed(launchSerialWork(nested)))
              return failure();
    }
    return launch(group);
  }

  LogicalResult launch(SmallVectorImpl<Operation *> &group) {
    if (group.empty())
      return success();
    llvm::SmallPtrSet<Operation *, 8> members(group.begin(), group.end());
    for (Operation *op : group)
      for (Value result : op->getResults())
        for (Operation *user : result.getUsers())
          if (!members.contains(user) &&
              !llvm::any_of(group, [&](Operation *member) {
                return member->isProperAncestor(user);
              }))
            return op->emitOpError(
                "computes on the device a value that the host uses");
    rewriter.setInsertionPoint(group.front());
    Value one =
        arith::ConstantIndexOp::create(rewriter, group.front()->getLoc(), 1);
    auto launchOp = gpu::LaunchOp::create(rewriter, group.front()->getLoc(),
                                          one, one, one, one, one, one);
    Block &body = launchOp.getBody().front();
    rewriter.setInsertionPointToEnd(&body);
    auto terminator = gpu::TerminatorOp::create(rewriter, launchOp.getLoc());
    for (Operation *op : group)
      op->moveBefore(terminator);
    group.clear();
    return success();
  }

  IRRewriter rewriter;
};

struct ConvertRegionToGPUPass
    : public imex::impl::ConvertRegionToGPUBase<ConvertRegionToGPUPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<EnvRegionOp> regions;
    func.walk([&](EnvRegionOp region) {
      if (isGpuRegion(region))
        regions.push_back(region);
    });
    RegionToGPUConverter converter(&getContext());
    for (EnvRegionOp region : regions)
      if (failed(converter.convert(region)))
        return signalPassFailure();
    if (failed(converter.convertHostOps(func)))
      return signalPassFailure();
  }
};
} // namespace
