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
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
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
/// Whether one of the buffers `value` may be (a view of) is device memory:
/// a device allocation or an argument holding a GPU array (marked by
/// convert-ndarray-to-linalg). Followed: views, strided-metadata
/// extraction, region, loop and conditional results, selects.
bool isDeviceBuffer(Value value, llvm::SmallPtrSetImpl<Value> &visited) {
  if (!visited.insert(value).second)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent))
      return arg.getArgNumber() != 0 &&
             isDeviceBuffer(loop.getInitArgs()[arg.getArgNumber() - 1],
                            visited);
    auto func = dyn_cast<FunctionOpInterface>(parent);
    return func && arg.getOwner()->isEntryBlock() &&
           func.getArgAttr(arg.getArgNumber(), GPUEnvAttr::name);
  }
  Operation *def = value.getDefiningOp();
  unsigned number = cast<OpResult>(value).getResultNumber();
  if (isa<gpu::AllocOp>(def))
    return true;
  if (auto view = dyn_cast<ViewLikeOpInterface>(def))
    return isDeviceBuffer(view.getViewSource(), visited);
  if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def))
    return isDeviceBuffer(meta.getSource(), visited);
  if (auto region = dyn_cast<EnvRegionOp>(def))
    return isDeviceBuffer(region.getYield()->getOperand(number), visited);
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return isDeviceBuffer(loop.getInitArgs()[number], visited);
  if (auto branch = dyn_cast<scf::IfOp>(def))
    return isDeviceBuffer(branch.thenYield()->getOperand(number), visited) ||
           (branch.elseBlock() &&
            isDeviceBuffer(branch.elseYield()->getOperand(number), visited));
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return isDeviceBuffer(select.getTrueValue(), visited) ||
           isDeviceBuffer(select.getFalseValue(), visited);
  return false;
}

bool isDeviceBuffer(Value value) {
  llvm::SmallPtrSet<Value, 8> visited;
  return isDeviceBuffer(value, visited);
}

/// Whether `op` or an op nested in it reads or writes device memory: such
/// work runs on the device. Scalar computations, checks, calls on scalars
/// and accesses of host buffers (e.g. the shapes of reshapes) stay on the
/// host.
bool accessesDeviceMemory(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        // (Views are descriptors computed on the host.)
        if ((isMemoryEffectFree(nested) && nested->getNumRegions() == 0) ||
            isa<ViewLikeOpInterface>(nested))
          return WalkResult::advance();
        return llvm::any_of(nested->getOperands(),
                            [](Value operand) {
                              return isa<BaseMemRefType>(operand.getType()) &&
                                     isDeviceBuffer(operand);
                            })
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether `buffer` holds array data: unless it (and every view of it) is
/// only loaded from, stored to, passed to calls, freed or the shape of a
/// reshape, i.e. is the host's bookkeeping (the ownership flags of buffer
/// deallocation, the shapes of reshapes). Array data is computed on by
/// kernels (linalg ops at this point), copied, yielded or carried by loops.
bool holdsArrayData(Value buffer) {
  for (OpOperand &use : buffer.getUses()) {
    Operation *user = use.getOwner();
    if (isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp, func::CallOp>(
            user))
      continue;
    if (auto reshape = dyn_cast<memref::ReshapeOp>(user))
      if (use.get() == reshape.getShape())
        continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == use.get()) {
        if (llvm::any_of(user->getResults(), holdsArrayData))
          return true;
        continue;
      }
    return true;
  }
  return false;
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
  RegionToGPUConverter(MLIRContext *context, bool hostShared)
      : rewriter(context), hostShared(hostShared) {}

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
    // Shared memory: the host's buffers too, so that kernels may read what
    // the host (e.g. a halo exchange) wrote.
    if (hostShared) {
      SmallVector<memref::AllocOp> allocs;
      func.walk([&](memref::AllocOp alloc) {
        if (!alloc->getParentOfType<gpu::LaunchOp>())
          allocs.push_back(alloc);
      });
      for (memref::AllocOp alloc : allocs)
        replaceByDeviceAlloc(alloc);
    }
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
      // (In shared memory the host copies itself, strided views too.)
      auto copy = cast<memref::CopyOp>(op);
      if (!hostShared && (isDeviceBuffer(copy.getSource()) ||
                          isDeviceBuffer(copy.getTarget())))
        if (failed(replaceByMemcpy(copy)))
          return failure();
    }
    return success();
  }

private:
  Value replaceByDeviceAlloc(memref::AllocOp alloc) {
    rewriter.setInsertionPoint(alloc);
    return rewriter
        .replaceOpWithNewOp<gpu::AllocOp>(
            alloc, alloc.getType(), /*asyncToken=*/Type(), ValueRange(),
            alloc.getDynamicSizes(), alloc.getSymbolOperands(), hostShared)
        .getMemref();
  }

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
    region.walk([&](memref::AllocOp alloc) {
      if (hostShared || holdsArrayData(alloc.getMemref()))
        allocs.push_back(alloc);
    });
    for (memref::AllocOp alloc : allocs) {
      rewriter.setInsertionPoint(alloc);
      replaceByDeviceAlloc(alloc);
    }
    SmallVector<memref::CopyOp> copies;
    region.walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies) {
      bool fromDevice = isDeviceBuffer(copy.getSource());
      bool toDevice = isDeviceBuffer(copy.getTarget());
      if (fromDevice != toDevice && !hostShared) {
        if (failed(replaceByMemcpy(copy)))
          return failure();
        continue;
      }
      // Both on the device (a value copied within the region): a kernel.
      rewriter.setInsertionPoint(copy);
      linalg::CopyOp::create(rewriter, copy.getLoc(),
                             ValueRange{copy.getSource()},
                             ValueRange{copy.getTarget()});
      rewriter.eraseOp(copy);
    }
    return success();
  }

  /// The value a full reduction starts from: the fill of its output right
  /// before it (as the ndarray lowering emits it), or null.
  static Value getReductionStart(linalg::GenericOp op) {
    auto fill = dyn_cast_if_present<linalg::FillOp>(op->getPrevNode());
    if (!fill || fill.getDpsInits()[0] != op.getDpsInits()[0])
      return {};
    return fill.getDpsInputs()[0];
  }

  /// A reduction of a whole array to one value (one input and output of
  /// the same element type, every loop a reduction, the output filled with
  /// the start value right before) would run in one thread. It becomes two
  /// steps: up to kPartials threads each fold a strided share of the
  /// elements from the start value into a partial result (a parallel
  /// loop, i.e. a kernel over blocks of threads), then one thread folds
  /// the partial results into the output. The combination is the op's own
  /// body, so any reduction ndarray lowers works; floating-point results
  /// are reassociated as on any parallel machine.
  LogicalResult splitFullReduction(linalg::GenericOp op) {
    static constexpr int64_t kPartials = 16384;
    if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
        op.getNumReductionLoops() != op.getNumLoops() ||
        op.getNumLoops() == 0 || !op.getIndexingMapsArray()[0].isIdentity() ||
        op.getIndexingMapsArray()[1].getNumResults() != 0 ||
        !op.getBody()->getOps<linalg::IndexOp>().empty())
      return failure();
    Value input = op.getDpsInputs()[0], output = op.getDpsInits()[0];
    auto inputType = dyn_cast<MemRefType>(input.getType());
    auto outputType = dyn_cast<MemRefType>(output.getType());
    Value start = getReductionStart(op);
    if (!inputType || !outputType || !start ||
        inputType.getElementType() != outputType.getElementType())
      return failure();

    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> dims;
    Value count = one;
    for (int64_t d = 0; d < inputType.getRank(); ++d) {
      dims.push_back(memref::DimOp::create(rewriter, loc, input, d));
      count = arith::MulIOp::create(rewriter, loc, count, dims.back());
    }
    Value partialCount = arith::MinSIOp::create(
        rewriter, loc, count,
        arith::ConstantIndexOp::create(rewriter, loc, kPartials));
    auto partialsType =
        MemRefType::get({ShapedType::kDynamic}, outputType.getElementType());
    auto alloc =
        memref::AllocOp::create(rewriter, loc, partialsType, partialCount);
    Value partials = replaceByDeviceAlloc(alloc);
    rewriter.setInsertionPoint(op);

    // The body of `op` applied to an element and an accumulator.
    Block &body = op.getRegion().front();
    auto combine = [&](OpBuilder &b, Value element, Value accumulator) {
      IRMapping mapping;
      mapping.map(body.getArgument(0), element);
      mapping.map(body.getArgument(1), accumulator);
      for (Operation &nested : body.without_terminator())
        b.clone(nested, mapping);
      return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
    };

    // Step 1: partial results, thread t folding elements t, t + P, ...
    scf::ParallelOp::create(
        rewriter, loc, ValueRange{zero}, ValueRange{partialCount},
        ValueRange{one}, [&](OpBuilder &b, Location nloc, ValueRange ivs) {
          auto fold = scf::ForOp::create(
              b, nloc, ivs[0], count, partialCount, ValueRange{start},
              [&](OpBuilder &fb, Location floc, Value linear,
                  ValueRange accumulators) {
                // The element's indices, innermost dimension fastest.
                SmallVector<Value> indices(dims.size());
                Value rest = linear;
                for (int64_t d = dims.size() - 1; d >= 0; --d) {
                  indices[d] = arith::RemUIOp::create(fb, floc, rest, dims[d]);
                  rest = arith::DivUIOp::create(fb, floc, rest, dims[d]);
                }
                Value element =
                    memref::LoadOp::create(fb, floc, input, indices);
                scf::YieldOp::create(fb, floc,
                                     combine(fb, element, accumulators[0]));
              });
          memref::StoreOp::create(b, nloc, fold.getResult(0), partials, ivs);
        });
    // Step 2: the partial results folded into the output (one thread).
    auto finish = linalg::GenericOp::create(
        rewriter, loc, ValueRange{partials}, ValueRange{output},
        ArrayRef<AffineMap>{
            AffineMap::getMultiDimIdentityMap(1, rewriter.getContext()),
            AffineMap::get(1, 0, rewriter.getContext())},
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction});
    rewriter.cloneRegionBefore(op.getRegion(), finish.getRegion(),
                               finish.getRegion().end());
    memref::DeallocOp::create(rewriter, loc, partials);
    rewriter.eraseOp(op);
    return success();
  }

  LogicalResult convertLinalgOps(EnvRegionOp region) {
    SmallVector<linalg::GenericOp> reductions;
    region.walk([&](linalg::GenericOp op) { reductions.push_back(op); });
    for (linalg::GenericOp op : reductions)
      (void)splitFullReduction(op);
    SmallVector<linalg::LinalgOp> ops;
    region.walk([&](linalg::LinalgOp op) { ops.push_back(op); });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics())
        return op->emitOpError("is on tensors: convert-region-to-gpu runs "
                               "after bufferization");
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
      // (Loops nested in others run sequentially in each thread; loops
      // with reductions, which linalg does not produce, in one thread.)
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>() && loop.getNumResults() == 0)
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
      // (In shared memory, the host reads what it needs itself.)
      bool hostReads = hostShared && op.getNumResults() != 0;
      if (accessesDeviceMemory(&op) && !containsHostWork(&op) && !hostReads) {
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
  bool hostShared;
};

struct ConvertRegionToGPUPass
    : public imex::impl::ConvertRegionToGPUBase<ConvertRegionToGPUPass> {
  using ConvertRegionToGPUBase::ConvertRegionToGPUBase;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<EnvRegionOp> regions;
    func.walk([&](EnvRegionOp region) {
      if (isGpuRegion(region) && !isInGpuRegion(region))
        regions.push_back(region);
    });
    // Regions nested in a GPU region are part of it.
    IRRewriter rewriter(&getContext());
    for (EnvRegionOp region : regions) {
      SmallVector<EnvRegionOp> nested;
      region->walk([&](EnvRegionOp inner) {
        if (inner != region)
          nested.push_back(inner);
      });
      for (EnvRegionOp inner : nested) {
        rewriter.setInsertionPoint(inner);
        EnvRegionOp::inlineIntoParent(rewriter, inner);
      }
    }
    RegionToGPUConverter converter(&getContext(), hostShared);
    for (EnvRegionOp region : regions)
      if (failed(converter.convert(region)))
        return signalPassFailure();
    if (failed(converter.convertHostOps(func)))
      return signalPassFailure();
  }
};
} // namespace
