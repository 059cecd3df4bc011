//===- ReceiveHalosInPlace.cpp - halos straight into the ghost cells ------===//
//
// After bufferization, a halo received into a buffer of its own and then
// copied into the ghost cells of its array's buffer is received into the
// ghost cells instead (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "IDTRCalls.h"

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

/// Whether `callee` is the function an asynchronous copy is lowered to.
bool isAsyncCopyCall(StringRef callee) {
  return llvm::any_of(
      idtr_calls::kAsyncCopyFunctionPrefixes,
      [&](StringRef prefix) { return callee.starts_with(prefix); });
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

/// Whether `view` is all of the buffer `alloc`: the buffer, or its subview
/// with unit strides and the buffer's sizes (whose offsets are then 0, as
/// the view lies inside the buffer; computed offsets may not fold to 0,
/// e.g. the start of a range clamped to the buffer).
bool isWholeBuffer(Value view, memref::AllocOp alloc) {
  if (view == alloc.getResult())
    return true;
  auto subview = view.getDefiningOp<memref::SubViewOp>();
  if (!subview || subview.getSource() != alloc.getResult() ||
      !areAllConstantIntValue(subview.getMixedStrides(), 1))
    return false;
  MemRefType type = alloc.getType();
  for (auto [dim, size] : llvm::enumerate(subview.getMixedSizes())) {
    OpFoldResult allocSize =
        type.isDynamicDim(dim)
            ? OpFoldResult(
                  alloc.getDynamicSizes()[type.getDynamicDimIndex(dim)])
            : OpFoldResult(Builder(alloc).getIndexAttr(type.getDimSize(dim)));
    if (!isEqualConstantIntOrValue(size, allocSize))
      return false;
  }
  return true;
}

/// The one copy of all of `alloc` in its block (directly or through a whole
/// subview used by nothing else), and the casts of it passed to calls, if
/// those are all its uses.
struct BufferUses {
  memref::CopyOp copy;
  SmallVector<memref::CastOp> casts;
};

std::optional<BufferUses> getBufferUses(memref::AllocOp alloc) {
  BufferUses uses;
  for (Operation *user : alloc->getUsers()) {
    Value view = alloc.getResult();
    if (auto subview = dyn_cast<memref::SubViewOp>(user);
        subview && subview->hasOneUse() && isWholeBuffer(subview, alloc)) {
      view = subview.getResult();
      user = *subview->user_begin();
    }
    if (auto copy = dyn_cast<memref::CopyOp>(user);
        copy && copy.getSource() == view && !uses.copy &&
        user->getBlock() == alloc->getBlock()) {
      uses.copy = copy;
      continue;
    }
    auto cast = dyn_cast<memref::CastOp>(user);
    if (!cast || !llvm::all_of(cast->getUsers(), [](Operation *castUser) {
          return isa<func::CallOp>(castUser);
        }))
      return std::nullopt;
    uses.casts.push_back(cast);
  }
  if (!uses.copy)
    return std::nullopt;
  return uses;
}

/// Receives the buffer `alloc` (a halo, or the output of an asynchronous
/// copy) into the destination of the copy from it, if the buffer is only
/// passed to calls before that copy and nothing else reads or writes the
/// destination from the first call to the copy (the destination may hold
/// another array until then: bufferization reuses the buffer of a value
/// whose last read is before the copy).
void receiveInPlace(RewriterBase &rewriter, memref::AllocOp alloc,
                    DominanceInfo &dominance) {
  Block *block = alloc->getBlock();
  std::optional<BufferUses> uses = getBufferUses(alloc);
  if (!uses || llvm::any_of(uses->casts, [&](memref::CastOp cast) {
        Operation *call = block->findAncestorOpInBlock(*cast);
        return !call || !call->isBeforeInBlock(uses->copy);
      }))
    return;
  // Where the array the halos belong to is in the destination's buffer, the
  // buffer holds that array's version until the copy (see Passes.td).
  // Otherwise the array is copied there later, and the buffer may hold
  // another array until then: no op but the exchange's own calls (which
  // access the array and its other halo) may access the destination then.
  // The input of a copy must not share elements with its destination.
  memref::CopyOp copy = uses->copy;
  Value target = copy.getTarget();
  Operation *first = copy;
  SmallVector<Operation *> exchange;
  bool dataInTargetBuffer = false;
  for (memref::CastOp cast : uses->casts)
    for (Operation *user : cast->getUsers()) {
      exchange.push_back(user);
      StringRef callee = llvm::cast<func::CallOp>(user).getCallee();
      if (callee.starts_with(idtr_calls::kGetHaloFunctionPrefix))
        dataInTargetBuffer =
            getViewOfBuffer(user->getOperand(idtr_calls::kGetHaloFunctionData))
                .buffer == getViewOfBuffer(target).buffer;
      if (isAsyncCopyCall(callee) &&
          mayOverlap(user->getOperand(idtr_calls::kAsyncCopyFunctionInput),
                     target))
        return;
      if (Operation *call = block->findAncestorOpInBlock(*user);
          call->isBeforeInBlock(first))
        first = call;
    }
  if (!dataInTargetBuffer && isAccessedBetween(first, copy, target, exchange))
    return;
  if (llvm::any_of(uses->casts,
                   [&](memref::CastOp cast) {
                     return !memref::CastOp::areCastCompatible(target.getType(),
                                                               cast.getType());
                   }) ||
      failed(moveValueDefinitions(rewriter, target, alloc, dominance)))
    return;
  for (memref::CastOp cast : uses->casts)
    rewriter.modifyOpInPlace(cast,
                             [&] { cast.getSourceMutable().assign(target); });
  Value source = copy.getSource();
  rewriter.eraseOp(copy);
  if (source != alloc.getResult())
    rewriter.eraseOp(source.getDefiningOp());
  rewriter.eraseOp(alloc);
}

struct ReceiveHalosInPlacePass
    : public imex::distruntime::impl::ReceiveHalosInPlaceBase<
          ReceiveHalosInPlacePass> {
  void runOnOperation() override {
    llvm::SetVector<memref::AllocOp> halos;
    auto addOutput = [&](Value buffer) {
      while (auto cast = buffer.getDefiningOp<memref::CastOp>())
        buffer = cast.getSource();
      if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
        halos.insert(alloc);
    };
    getOperation()->walk([&](func::CallOp call) {
      unsigned count = call.getNumOperands();
      if (call.getCallee().starts_with(idtr_calls::kGetHaloFunctionPrefix) &&
          count > *llvm::max_element(idtr_calls::kGetHaloFunctionOutputs)) {
        for (unsigned output : idtr_calls::kGetHaloFunctionOutputs)
          addOutput(call.getOperand(output));
      } else if (isAsyncCopyCall(call.getCallee()) &&
                 count > idtr_calls::kAsyncCopyFunctionInput +
                             idtr_calls::kAsyncCopyFunctionOutputFromEnd) {
        addOutput(call.getOperand(count -
                                  idtr_calls::kAsyncCopyFunctionOutputFromEnd));
      }
    });
    IRRewriter rewriter(&getContext());
    DominanceInfo dominance(getOperation());
    for (memref::AllocOp alloc : halos)
      receiveInPlace(rewriter, alloc, dominance);
  }
};

} // namespace
