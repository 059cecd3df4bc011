//===- DoubleBufferLoops.cpp - two buffers for loop-carried updates -------===//
//
// A time-step loop `u[1:-1] = f(u)` carries a tensor updated by a chain of
// writes at loop-invariant positions whose values read the old tensor. The
// values cannot be written into the tensor's buffer while it is still read,
// so one-shot bufferization computes them into a temporary and copies them
// in: a second pass over memory per step. Hand-written stencils keep two
// buffers and swap them. Swapping iter_args makes bufferization copy both
// (their yields are not equivalent to them), so the loop is unrolled by two
// and the chain of the first copy writes into a second iter_arg: each copy
// reads one buffer and writes the other, and every yield is equivalent to its
// iter_arg. Elements outside the written region are never written in the
// loop, so both buffers keep the initial values there.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace imex {
#define GEN_PASS_DEF_DOUBLEBUFFERLOOPS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// Whether `linalgOp` writes every element of `init` without reading it.
bool overwrites(linalg::LinalgOp linalgOp, OpOperand *init) {
  return linalgOp.hasPureTensorSemantics() && linalgOp.isAllParallelLoops() &&
         linalgOp.isDpsInit(init) &&
         !linalgOp.payloadUsesValueFromOperand(init) &&
         linalgOp.getMatchingIndexingMap(init).isPermutation();
}

/// The number of writes at the end of `chain` (program order: the writes
/// after the ghost writes) that are not ghost writes, if the chain is ghost
/// writes followed by other writes.
std::optional<size_t> countUpdates(ArrayRef<OpOperand *> chain) {
  size_t updates = 0;
  while (updates < chain.size() &&
         !imex::isGhostWrite(chain[updates]->getOwner()))
    ++updates;
  for (OpOperand *link : chain.drop_front(updates))
    if (!imex::isGhostWrite(link->getOwner()))
      return std::nullopt;
  return updates;
}

/// Whether the uses of an intermediate version of an update chain other
/// than `next` (the write that follows it) do not read it. A read could see
/// a region that the chain writes later in the iteration, which holds the
/// previous iteration's value in the original loop but an older one in the
/// spare.
bool onlyOverwritten(Value version, OpOperand *next) {
  return llvm::all_of(version.getUses(), [&](OpOperand &use) {
    if (&use == next)
      return true;
    auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
    return slice && llvm::all_of(slice->getUses(), [](OpOperand &sliceUse) {
             auto linalgOp = dyn_cast<linalg::LinalgOp>(sliceUse.getOwner());
             return linalgOp && overwrites(linalgOp, &sliceUse);
           });
  });
}

/// The destination operands from `end` back to `root` (last write first),
/// if `end` is `root` updated by a chain of ops of `loop`'s body that write
/// at loop-invariant positions: `tensor.insert_slice` into the previous
/// version, or a parallel linalg op overwriting all of its init (which then
/// does not depend on the previous version's contents), with intermediate
/// versions not read otherwise (unless `allowReads`: the chain of both
/// copies of an unrolled body, whose middle version is read by the second).
/// Empty otherwise.
SmallVector<OpOperand *> findUpdateChain(Value end, Value root, scf::ForOp loop,
                                         bool allowReads = false) {
  SmallVector<OpOperand *> chain;
  for (Value value = end; value != root;) {
    // (Versions made by ghost writes may be read: they are the version the
    // iteration computes from.)
    if (!chain.empty() && !allowReads &&
        !imex::isGhostWrite(value.getDefiningOp()) &&
        !onlyOverwritten(value, chain.back()))
      return {};
    Operation *def = value.getDefiningOp();
    if (!def || def->getParentOp() != loop)
      return {};
    OpOperand *dest = nullptr;
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      if (!llvm::all_of(insert->getOperands().drop_front(2), [&](Value v) {
            return loop.isDefinedOutsideOfLoop(v);
          }))
        return {};
      dest = &insert.getDestMutable();
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def)) {
      dest =
          linalgOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber());
      if (!overwrites(linalgOp, dest))
        return {};
    } else {
      return {};
    }
    chain.push_back(dest);
    value = dest->get();
  }
  return chain;
}

/// Whether `value` is computed in `loop`'s body from reads of `versions`,
/// not counting reads through other arrays written in the body (inserts):
/// those are materialized there, so the versions are dead when `value` is
/// computed and it can be computed in place.
bool computedFrom(Value value, const llvm::SmallPtrSetImpl<Value> &versions,
                  scf::ForOp loop) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Value, 16> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (versions.contains(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!visited.insert(v).second || !def || !loop->isAncestor(def) ||
        isa<tensor::InsertSliceOp>(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// The iter_args of `loop` updated by a chain whose values read the previous
/// version (another use of the iter_arg): double buffering saves a copy.
SmallVector<unsigned> findDoubleBufferedArgs(scf::ForOp loop) {
  SmallVector<unsigned> args;
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    SmallVector<OpOperand *> chain =
        findUpdateChain(loop.getYieldedValues()[index], arg, loop);
    std::optional<size_t> updates = countUpdates(chain);
    if (chain.empty() || !updates || *updates == 0)
      continue;
    // The versions the updates could read: the argument and its versions
    // after ghost writes (what the first update writes into). Double
    // buffering pays only if an update computes its values from them.
    llvm::SmallPtrSet<Value, 4> read;
    for (OpOperand *link : ArrayRef(chain).drop_front(*updates - 1))
      read.insert(link->get());
    if (llvm::any_of(
            ArrayRef(chain).take_front(*updates), [&](OpOperand *link) {
              auto insert = dyn_cast<tensor::InsertSliceOp>(link->getOwner());
              return insert && computedFrom(insert.getSource(), read, loop);
            }))
      args.push_back(index);
  }
  return args;
}

struct DoubleBufferLoopsPass
    : public imex::impl::DoubleBufferLoopsBase<DoubleBufferLoopsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!findDoubleBufferedArgs(loop).empty())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops)
      doubleBuffer(rewriter, loop);
  }

  void doubleBuffer(RewriterBase &rewriter, scf::ForOp loop) {
    SmallVector<unsigned> args = findDoubleBufferedArgs(loop);
    // Nothing to gain (and no unrolling) unless the step can be doubled.
    if (!loop.getStep().getType().isIndex())
      return;
    FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, 2);
    if (failed(unrolled) || !unrolled->mainLoopOp)
      return;
    scf::ForOp main = *unrolled->mainLoopOp;
    // The chain of each argument now runs through both copies of the body:
    // its first half is the second copy's, ending at the first copy's
    // result. Chains that do not split so (they cannot, being clones) are
    // left alone.
    SmallVector<OpOperand *> firstRoots, secondRoots;
    SmallVector<Value> inits, firstResults;
    for (unsigned index : args) {
      SmallVector<OpOperand *> chain = findUpdateChain(
          main.getYieldedValues()[index], main.getRegionIterArgs()[index], main,
          /*allowReads=*/true);
      if (chain.empty() || chain.size() % 2)
        continue;
      // Each copy's chain: ghost writes (which stay on the buffer the copy
      // reads), then the updates (which go to the other buffer).
      size_t half = chain.size() / 2;
      std::optional<size_t> updates =
          countUpdates(ArrayRef(chain).take_front(half));
      if (!updates || *updates == 0 ||
          countUpdates(ArrayRef(chain).drop_front(half)) != updates)
        continue;
      OpOperand *first = chain[half + *updates - 1];
      OpOperand *second = chain[*updates - 1];
      firstRoots.push_back(first);
      secondRoots.push_back(second);
      // The spare is the buffer the second copy read (after its ghost
      // writes); the second copy updates the one the first copy read.
      firstResults.push_back(second->get());
      inits.push_back(main.getInitArgs()[index]);
    }
    if (inits.empty())
      return;
    rewriter.setInsertionPoint(main);
    FailureOr<LoopLikeOpInterface> withSpares =
        cast<LoopLikeOpInterface>(main.getOperation())
            .replaceWithAdditionalYields(
                rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return firstResults;
                });
    if (failed(withSpares))
      return;
    auto doubled = cast<scf::ForOp>(withSpares->getOperation());
    unsigned numArgs = doubled.getNumRegionIterArgs() - inits.size();
    for (unsigned i = 0, e = firstRoots.size(); i < e; ++i) {
      // The first copy writes into the spare, the second into the
      // argument the first copy read.
      OpOperand *first = firstRoots[i], *second = secondRoots[i];
      Value read = first->get(),
            spare = doubled.getRegionIterArgs()[numArgs + i];
      rewriter.modifyOpInPlace(first->getOwner(), [&] { first->set(spare); });
      rewriter.modifyOpInPlace(second->getOwner(), [&] { second->set(read); });
    }
  }
};

} // namespace
