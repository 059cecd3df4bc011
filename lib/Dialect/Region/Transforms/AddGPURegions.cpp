//===- AddGPURegions.cpp - wrap GPU array ops in env_regions --------------===//

#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/Region/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace imex::region {
#define GEN_PASS_DEF_ADDGPUREGIONS
#include "imex/Dialect/Region/Transforms/Passes.h.inc"
} // namespace imex::region

using namespace mlir;
using namespace imex::region;
namespace ndarray = imex::ndarray;

namespace {
/// The GPU environment of `type`, if it is an array on a GPU.
GPUEnvAttr getGPUEnv(Type type) {
  auto array = dyn_cast<ndarray::NDArrayType>(type);
  return array ? array.getEnvironment<GPUEnvAttr>() : GPUEnvAttr();
}

GPUEnvAttr getFirstGPUEnv(TypeRange types) {
  for (Type type : types)
    if (GPUEnvAttr env = getGPUEnv(type))
      return env;
  return {};
}

/// Where an op runs.
struct Placement {
  enum Kind { Host, Device, Neutral } kind;
  GPUEnvAttr env;
};

class GPURegionBuilder {
public:
  GPURegionBuilder(MLIRContext *context, bool hostShared)
      : rewriter(context), hostShared(hostShared) {}

  /// Wraps the GPU ops of every block under `root`; fails after a
  /// diagnostic for a GPU array read on the host.
  LogicalResult run(Operation *root) {
    for (Region &region : root->getRegions())
      for (Block &block : region)
        if (failed(processBlock(block)))
          return failure();
    return success();
  }

private:
  /// An ndarray op runs on the device if it produces a GPU array, or,
  /// without array results, if it takes one (insert_slice, delete, dim).
  /// A copy to a host array is the transfer back and runs on the host.
  FailureOr<Placement> placeArrayOp(Operation *op) {
    // Sorts run in IDTR on the host (device memory only when host-shared).
    if (isa<ndarray::SortOp, ndarray::ArgSortOp>(op) && !hostShared)
      if (GPUEnvAttr env = getFirstGPUEnv(op->getOperandTypes()))
        return op->emitOpError("sorts an array in ")
               << env
               << ", which IDTR does on the host; copy it to the host first "
                  "(ndarray.copy)";
    if (GPUEnvAttr env = getFirstGPUEnv(op->getResultTypes()))
      return Placement{Placement::Device, env};
    GPUEnvAttr env = getFirstGPUEnv(op->getOperandTypes());
    if (!env)
      return Placement{Placement::Host, {}};
    if (isa<ndarray::CopyOp>(op))
      return Placement{Placement::Host, {}};
    if (isa<ndarray::LoadOp, ndarray::ToTensorOp>(op)) {
      if (hostShared)
        return Placement{Placement::Host, {}};
      return op->emitOpError("reads an array in ")
             << env << " on the host; copy it to the host first (ndarray.copy)";
    }
    return Placement{Placement::Device, env};
  }

  /// An op with regions runs on the device as a whole if everything in it
  /// does or is neutral, and something does.
  FailureOr<Placement> placeRegionOp(Operation *op) {
    GPUEnvAttr env;
    bool allDevice = true;
    WalkResult walk = op->walk([&](Operation *nested) {
      if (nested == op || nested->hasTrait<OpTrait::IsTerminator>())
        return WalkResult::advance();
      if (nested->getNumRegions() != 0) {
        // Nested region ops are judged by their contents.
        if (!isMemoryEffectFree(nested) &&
            !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          allDevice = false;
        return WalkResult::advance();
      }
      FailureOr<Placement> placement = placeLeaf(nested);
      if (failed(placement))
        return WalkResult::interrupt();
      if (placement->kind == Placement::Host)
        allDevice = false;
      if (placement->kind == Placement::Device) {
        if (env && env != placement->env)
          allDevice = false;
        env = placement->env;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return failure();
    if (env && allDevice)
      return Placement{Placement::Device, env};
    return Placement{Placement::Host, {}};
  }

  FailureOr<Placement> placeLeaf(Operation *op) {
    if (isa<ndarray::NDArrayDialect>(op->getDialect()))
      return placeArrayOp(op);
    if (isMemoryEffectFree(op))
      return Placement{Placement::Neutral, {}};
    return Placement{Placement::Host, {}};
  }

  FailureOr<Placement> place(Operation *op) {
    if (isa<EnvRegionOp>(op))
      return Placement{Placement::Host, {}};
    if (op->getNumRegions() == 0)
      return placeLeaf(op);
    // Structured control flow may move to the device as a whole; functions
    // and other isolated ops are visited inside.
    if (!isa<RegionBranchOpInterface>(op) ||
        op->hasTrait<OpTrait::IsIsolatedFromAbove>())
      return Placement{Placement::Host, {}};
    return placeRegionOp(op);
  }

  LogicalResult processBlock(Block &block) {
    SmallVector<Operation *> group;
    GPUEnvAttr groupEnv;
    llvm::SmallPtrSet<Operation *, 16> inGroup;
    auto usesGroup = [&](Operation *op) {
      return llvm::any_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && inGroup.contains(def);
      });
    };
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        break;
      FailureOr<Placement> placement = place(&op);
      if (failed(placement))
        return failure();
      if (placement->kind == Placement::Device &&
          (group.empty() || placement->env == groupEnv)) {
        groupEnv = placement->env;
        group.push_back(&op);
        inGroup.insert(&op);
        continue;
      }
      if (placement->kind == Placement::Neutral && !group.empty()) {
        // Scalar work between device ops joins the group if it consumes
        // the group's values, or else moves before it.
        if (usesGroup(&op)) {
          group.push_back(&op);
          inGroup.insert(&op);
        } else {
          op.moveBefore(group.front());
        }
        continue;
      }
      wrap(group, groupEnv);
      inGroup.clear();
      if (placement->kind == Placement::Device) {
        groupEnv = placement->env;
        group.push_back(&op);
        inGroup.insert(&op);
        continue;
      }
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          if (failed(processBlock(nested)))
            return failure();
    }
    wrap(group, groupEnv);
    return success();
  }

  /// Moves `group` (consecutive ops) into one env_region returning the
  /// values used after it.
  void wrap(SmallVectorImpl<Operation *> &group, GPUEnvAttr env) {
    if (group.empty())
      return;
    // Trailing scalar ops need no device region of their own.
    while (!group.empty() && !getFirstGPUEnv(group.back()->getResultTypes()) &&
           !getFirstGPUEnv(group.back()->getOperandTypes()) &&
           group.back()->getNumRegions() == 0)
      group.pop_back();
    if (group.empty())
      return;
    llvm::SmallPtrSet<Operation *, 16> members(group.begin(), group.end());
    auto isInside = [&](Operation *user) {
      for (Operation *op = user; op; op = op->getParentOp())
        if (members.contains(op))
          return true;
      return false;
    };
    SmallVector<Value> escaping;
    for (Operation *op : group)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(),
                         [&](Operation *user) { return !isInside(user); }))
          escaping.push_back(result);

    rewriter.setInsertionPoint(group.front());
    auto regionOp =
        EnvRegionOp::create(rewriter, group.front()->getLoc(), env,
                            ValueRange(), ValueRange(escaping).getTypes());
    Block &body = regionOp.getRegion().front();
    // (Without results the builder has added the yield.)
    if (escaping.empty())
      rewriter.eraseOp(regionOp.getYield());
    for (Operation *op : group)
      op->moveBefore(&body, body.end());
    rewriter.setInsertionPointToEnd(&body);
    EnvRegionYieldOp::create(rewriter, regionOp.getLoc(), escaping);
    for (auto [value, result] : llvm::zip(escaping, regionOp.getResults()))
      rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
        return !regionOp->isAncestor(use.getOwner());
      });
    group.clear();
  }

  IRRewriter rewriter;
  bool hostShared;
};

struct AddGPURegionsPass
    : public imex::region::impl::AddGPURegionsBase<AddGPURegionsPass> {
  using AddGPURegionsBase::AddGPURegionsBase;
  void runOnOperation() override {
    GPURegionBuilder builder(&getContext(), hostShared);
    if (failed(builder.run(getOperation())))
      signalPassFailure();
  }
};
} // namespace
