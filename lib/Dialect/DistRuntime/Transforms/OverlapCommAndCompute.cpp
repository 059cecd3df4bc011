//===- OverlapCommAndCompute.cpp - start early, wait late -----------------===//
//
// Moves asynchronous exchanges up and their waits down within a block so
// that computation independent of the messages runs while they are in
// flight.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_OVERLAPCOMMANDCOMPUTE
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex::distruntime;

namespace {

/// Whether exchanges must not move across `op`: it has unknown effects or
/// writes or frees memory other than fresh allocations (a blocking
/// collective like `allreduce` may be crossed: ranks still issue every
/// collective in the same order, as they all run the same code).
bool isBarrier(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  auto effects = getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    if (isa<CommResource>(e.getResource()))
      return false;
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}

/// Moves `op` up to just after the last definition of its operands in its
/// block, not across communication barriers.
void hoist(Operation *op) {
  Operation *target = op;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    bool defines = llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && (def == prev || prev->isAncestor(def));
    });
    if (defines || isBarrier(prev))
      break;
    target = prev;
  }
  if (target != op)
    op->moveBefore(target);
}

/// Moves `op` down to just before the first op in its block that uses one
/// of its results (or contains such a use), not across communication
/// barriers.
void sinkToFirstUser(Operation *op) {
  Operation *target = nullptr;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    bool uses = llvm::any_of(op->getUsers(), [&](Operation *user) {
      return next == user || next->isAncestor(user);
    });
    if (uses || isBarrier(next) || next->hasTrait<OpTrait::IsTerminator>())
      break;
    target = next;
  }
  if (target)
    op->moveAfter(target);
}

/// The op of `block` that is or contains `op`.
Operation *getInBlock(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Moves the ops after the wait `op` in its block that depend on its
/// results (the computation on received data) down to just before their
/// first user, so that independent computation comes first and the wait can
/// sink below it.
void sinkDependents(WaitOp op) {
  Block *block = op->getBlock();
  llvm::SmallPtrSet<Operation *, 16> dependent{op};
  SmallVector<Operation *> order;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    bool uses = false;
    next->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *top = getInBlock(block, def);
              top && dependent.contains(top))
            uses = true;
    });
    if (uses) {
      dependent.insert(next);
      order.push_back(next);
    }
  }
  for (Operation *dep : llvm::reverse(order)) {
    if (!dep->getNumRegions() && !isBarrier(dep) &&
        !dep->hasTrait<OpTrait::IsTerminator>())
      sinkToFirstUser(dep);
  }
}

struct OverlapCommAndComputePass
    : public imex::distruntime::impl::OverlapCommAndComputeBase<
          OverlapCommAndComputePass> {
  void runOnOperation() override {
    SmallVector<Operation *> starts;
    SmallVector<WaitOp> waits;
    getOperation()->walk([&](Operation *op) {
      if (isa<AsyncOpInterface>(op))
        starts.push_back(op);
      else if (auto wait = dyn_cast<WaitOp>(op))
        waits.push_back(wait);
    });
    // Sizes are known when an exchange starts: shape queries of completed
    // arrays need not wait for the data.
    for (WaitOp wait : waits)
      for (auto [operand, result] :
           llvm::zip(wait.getArrays(), wait.getResults()))
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
          if (isa<imex::ndarray::DimOp>(use.getOwner()))
            use.set(operand);
    // Waits last first, starts first first, so that moved ops do not block
    // each other.
    for (WaitOp wait : llvm::reverse(waits)) {
      sinkDependents(wait);
      sinkToFirstUser(wait);
    }
    for (Operation *start : starts)
      hoist(start);
  }
};

} // namespace
