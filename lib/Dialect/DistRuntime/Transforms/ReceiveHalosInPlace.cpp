//===- ReceiveHalosInPlace.cpp - halos straight into the ghost cells ------===//
//
// After bufferization, a halo received into a buffer of its own and then
// copied into the ghost cells of its array's buffer is received into the
// ghost cells instead (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "IDTRCalls.h"

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_RECEIVEHALOSINPLACE
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex::distruntime;

namespace {

/// Receives the halo buffer `alloc` into the destination of the copy from
/// it, if the buffer is only passed to calls before that copy.
void receiveInPlace(RewriterBase &rewriter, memref::AllocOp alloc,
                    DominanceInfo &dominance) {
  Block *block = alloc->getBlock();
  memref::CopyOp copy;
  SmallVector<memref::CastOp> casts;
  for (Operation *user : alloc->getUsers()) {
    if (auto userCopy = dyn_cast<memref::CopyOp>(user);
        userCopy && userCopy.getSource() == alloc.getResult() && !copy &&
        user->getBlock() == block) {
      copy = userCopy;
      continue;
    }
    auto cast = dyn_cast<memref::CastOp>(user);
    if (!cast || !llvm::all_of(cast->getUsers(), [](Operation *castUser) {
          return isa<func::CallOp>(castUser);
        }))
      return;
    casts.push_back(cast);
  }
  if (!copy || llvm::any_of(casts, [&](memref::CastOp cast) {
        Operation *call = block->findAncestorOpInBlock(*cast);
        return !call || !call->isBeforeInBlock(copy);
      }))
    return;
  Value target = copy.getTarget();
  if (llvm::any_of(casts,
                   [&](memref::CastOp cast) {
                     return !memref::CastOp::areCastCompatible(target.getType(),
                                                               cast.getType());
                   }) ||
      failed(moveValueDefinitions(rewriter, target, alloc, dominance)))
    return;
  for (memref::CastOp cast : casts)
    rewriter.modifyOpInPlace(cast,
                             [&] { cast.getSourceMutable().assign(target); });
  rewriter.eraseOp(copy);
  rewriter.eraseOp(alloc);
}

struct ReceiveHalosInPlacePass
    : public imex::distruntime::impl::ReceiveHalosInPlaceBase<
          ReceiveHalosInPlacePass> {
  void runOnOperation() override {
    llvm::SetVector<memref::AllocOp> halos;
    getOperation()->walk([&](func::CallOp call) {
      if (!call.getCallee().starts_with(idtr_calls::kGetHaloFunctionPrefix) ||
          call.getNumOperands() <=
              *llvm::max_element(idtr_calls::kGetHaloFunctionOutputs))
        return;
      for (unsigned output : idtr_calls::kGetHaloFunctionOutputs) {
        Value buffer = call.getOperand(output);
        while (auto cast = buffer.getDefiningOp<memref::CastOp>())
          buffer = cast.getSource();
        if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
          halos.insert(alloc);
      }
    });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    for (memref::AllocOp alloc : halos)
      receiveInPlace(rewriter, alloc, dominance);
  }
};

} // namespace
