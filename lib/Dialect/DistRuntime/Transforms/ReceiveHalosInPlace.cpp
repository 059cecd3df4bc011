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
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_RECEIVEHALOSINPLACE
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex::distruntime;

namespace {

/// The buffer `view` is a view of, and the unit-stride subview of that
/// buffer it is (through casts), if it is one.
struct ViewOfBuffer {
  Value buffer;
  memref::SubViewOp subview;
};

ViewOfBuffer getViewOfBuffer(Value view) {
  ViewOfBuffer result;
  bool whole = false;
  while (Operation *def = view.getDefiningOp()) {
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      view = cast.getSource();
    } else if (auto subview = dyn_cast<memref::SubViewOp>(def);
               subview && !result.subview && !whole &&
               llvm::all_of(subview.getMixedStrides(), isOneInteger)) {
      result.subview = subview;
      view = subview.getSource();
    } else if (auto viewLike = dyn_cast<ViewLikeOpInterface>(def)) {
      // (A view of a view: its elements are not tracked.)
      whole = true;
      view = viewLike.getViewSource();
    } else {
      break;
    }
  }
  result.buffer = view;
  if (whole)
    result.subview = nullptr;
  return result;
}

/// Whether the memref `a` may share elements with the memref `b`.
bool mayOverlap(Value a, Value b) {
  ViewOfBuffer viewA = getViewOfBuffer(a), viewB = getViewOfBuffer(b);
  if (viewA.buffer != viewB.buffer)
    return false;
  if (!viewA.subview || !viewB.subview)
    return true;
  FailureOr<bool> overlapping = ValueBoundsConstraintSet::areOverlappingSlices(
      a.getContext(), HyperrectangularSlice(viewA.subview),
      HyperrectangularSlice(viewB.subview));
  return failed(overlapping) || *overlapping;
}

/// Whether an op from `begin` up to `end` (in one block, nested ops
/// included) other than `exempt` may read or write elements of `target`.
bool isAccessedBetween(Operation *begin, Operation *end, Value target,
                       ArrayRef<Operation *> exempt) {
  for (Operation *op = begin; op != end; op = op->getNextNode()) {
    WalkResult walk = op->walk([&](Operation *nested) {
      // Taking a view accesses nothing; the users of the view are checked.
      if (isa<ViewLikeOpInterface>(nested) ||
          llvm::is_contained(exempt, nested))
        return WalkResult::advance();
      for (Value operand : nested->getOperands())
        if (isa<BaseMemRefType>(operand.getType()) &&
            mayOverlap(operand, target))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return true;
  }
  return false;
}

/// Receives the halo buffer `alloc` into the destination of the copy from
/// it, if the buffer is only passed to calls before that copy and nothing
/// else reads or writes the destination from the first call to the copy
/// (the destination may hold another array until then: bufferization reuses
/// the buffer of a value whose last read is before the copy).
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
  // Where the array the halos belong to is in the destination's buffer, the
  // buffer holds that array's version until the copy (see Passes.td).
  // Otherwise the array is copied there later, and the buffer may hold
  // another array until then: no op but the exchange's own calls (which
  // access the array and its other halo) may access the destination then.
  Value target = copy.getTarget();
  Operation *first = copy;
  SmallVector<Operation *> exchange;
  bool dataInTargetBuffer = false;
  for (memref::CastOp cast : casts)
    for (Operation *user : cast->getUsers()) {
      exchange.push_back(user);
      if (llvm::cast<func::CallOp>(user).getCallee().starts_with(
              idtr_calls::kGetHaloFunctionPrefix))
        dataInTargetBuffer =
            getViewOfBuffer(user->getOperand(idtr_calls::kGetHaloFunctionData))
                .buffer == getViewOfBuffer(target).buffer;
      if (Operation *call = block->findAncestorOpInBlock(*user);
          call->isBeforeInBlock(first))
        first = call;
    }
  if (!dataInTargetBuffer && isAccessedBetween(first, copy, target, exchange))
    return;
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
