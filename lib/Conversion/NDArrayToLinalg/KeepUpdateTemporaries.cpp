//===- KeepUpdateTemporaries.cpp - one temporary for self-reading updates -===//
//
// An update D[s] = f(views of D) whose views may overlap s computes f into
// an explicit temporary, so that eliminate-empty-tensors does not make f
// write into D (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace imex {
#define GEN_PASS_DEF_KEEPUPDATETEMPORARIES
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// The tensor `value` is a slice or version of: followed through
/// extract_slice sources, insert_slice destinations and casts.
Value getRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(def))
      value = extract.getSource();
    else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      value = insert.getDest();
    else if (auto cast = dyn_cast<tensor::CastOp>(def))
      value = cast.getSource();
    else
      break;
  }
  return value;
}

/// Whether `linalgOp` reads its `input` at the element it writes with
/// `init`, in every iteration (an elementwise op: reading and writing the
/// same buffer then needs no temporary).
bool readsWhereItWrites(linalg::LinalgOp linalgOp, OpOperand *input,
                        OpOperand *init) {
  return linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         linalgOp.getMatchingIndexingMap(input) ==
             linalgOp.getMatchingIndexingMap(init) &&
         linalgOp.getMatchingIndexingMap(init).isPermutation();
}

/// Size `d` of the tensor `value`: static, or the size a buffer it was made
/// of was given (a kernel argument's `memref.reinterpret_cast`), or else
/// the size as a value bounds variable.
ValueBoundsConstraintSet::Variable sizeOf(Value value, int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return OpFoldResult(
        Builder(value.getContext()).getIndexAttr(type.getDimSize(d)));
  if (auto toTensor = value.getDefiningOp<bufferization::ToTensorOp>()) {
    Value buffer = toTensor.getBuffer();
    auto view = buffer.getDefiningOp<OffsetSizeAndStrideOpInterface>();
    if (view && view.getMixedSizes().size() == size_t(type.getRank()))
      return view.getMixedSizes()[d];
  }
  return ValueBoundsConstraintSet::Variable(value, d);
}

/// Whether the slice `op` (offsets 0, unit strides) is the whole of the
/// tensor `of` (sizes equal to its sizes by value bounds).
bool isWholeSlice(OffsetSizeAndStrideOpInterface op, Value of) {
  for (auto [d, offset, size, stride] : llvm::enumerate(
           op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides())) {
    FailureOr<bool> whole =
        ValueBoundsConstraintSet::areEqual(size, sizeOf(of, d));
    if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1) ||
        failed(whole) || !*whole)
      return false;
  }
  return true;
}

/// Whether `insert` writes its whole destination.
bool writesWholeDestination(tensor::InsertSliceOp insert) {
  return isWholeSlice(insert, insert.getDest());
}

/// Replaces slices that are their whole tensor (`extract_slice %t[0, 0]
/// [dims of %t]`, and `insert_slice %s into %d[0, 0] [dims of %d]` where
/// %s is a version of %d; sizes equal by value bounds where dynamic, which
/// canonicalization does not fold) by the tensor: a write-back of a whole
/// block after an update in place then does not read the block the update
/// overwrote (a conflict one-shot bufferization resolves by copying the
/// block). (Other whole inserts stay: eliminate-empty-tensors makes their
/// destination the init of the op computing their source.)
void foldWholeSlices(IRRewriter &rewriter, Operation *root) {
  auto replace = [&](Operation *op, Value by) {
    rewriter.setInsertionPoint(op);
    Type type = op->getResult(0).getType();
    if (by.getType() != type)
      by = tensor::CastOp::create(rewriter, op->getLoc(), type, by);
    rewriter.replaceOp(op, by);
  };
  root->walk([&](Operation *op) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (extract.getSourceType().getRank() == extract.getType().getRank() &&
          isWholeSlice(extract, extract.getSource()))
        replace(extract, extract.getSource());
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (insert.getSourceType().getRank() == insert.getType().getRank() &&
          getRoot(insert.getSource()) == getRoot(insert.getDest()) &&
          writesWholeDestination(insert))
        replace(insert, insert.getSource());
    }
  });
}

/// Whether the input `view` of `linalgOp`, whose result `insert` writes
/// into its destination, may read elements the op overwrites before it
/// reads them: views overlapping the written slice, but for the written
/// slice itself read elementwise (`d[s] = d[s] + x`).
bool mayOverlap(linalg::LinalgOp linalgOp, OpOperand *input, OpOperand *init,
                tensor::InsertSliceOp insert) {
  Value view = input->get();
  if (getRoot(view) != getRoot(insert.getDest()))
    return false;
  auto extract = view.getDefiningOp<tensor::ExtractSliceOp>();
  if (!extract || extract.getSource() != insert.getDest())
    return true;
  MLIRContext *context = insert.getContext();
  if (readsWhereItWrites(linalgOp, input, init)) {
    FailureOr<bool> equivalent = ValueBoundsConstraintSet::areEquivalentSlices(
        context, HyperrectangularSlice(extract), HyperrectangularSlice(insert));
    if (succeeded(equivalent) && *equivalent)
      return false;
  }
  FailureOr<bool> overlapping = ValueBoundsConstraintSet::areOverlappingSlices(
      context, HyperrectangularSlice(extract), HyperrectangularSlice(insert));
  return failed(overlapping) || *overlapping;
}

/// An elementwise op reading the whole destination its result overwrites
/// (`d[...] = d * 2`) reads it as the slice written, whose equal slice
/// `eliminate-empty-tensors` makes the op's init: then the update is in
/// place (after CSE, one-shot bufferization sees one value read and written
/// elementwise).
void readWholeDestinationAsSlice(IRRewriter &rewriter, DominanceInfo &domInfo,
                                 linalg::LinalgOp linalgOp, OpOperand *init,
                                 tensor::InsertSliceOp insert) {
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    if (input->get() != insert.getDest() ||
        !readsWhereItWrites(linalgOp, input, init) ||
        !writesWholeDestination(insert) ||
        llvm::any_of(insert.getOperands().drop_front(2), [&](Value operand) {
          return !domInfo.properlyDominates(operand, linalgOp);
        }))
      continue;
    rewriter.setInsertionPoint(linalgOp);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, insert.getLoc(), insert.getSourceType(), insert.getDest(),
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
    rewriter.modifyOpInPlace(linalgOp, [&] { input->set(slice); });
  }
}

struct KeepUpdateTemporariesPass
    : public imex::impl::KeepUpdateTemporariesBase<KeepUpdateTemporariesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    foldWholeSlices(rewriter, getOperation());
    DominanceInfo domInfo(getOperation());
    getOperation()->walk([&](tensor::InsertSliceOp insert) {
      auto result = dyn_cast<OpResult>(insert.getSource());
      auto linalgOp =
          result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
      if (!linalgOp || !linalgOp.hasPureTensorSemantics())
        return;
      OpOperand *init = linalgOp.getDpsInitOperand(result.getResultNumber());
      auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
      if (!empty)
        return;
      readWholeDestinationAsSlice(rewriter, domInfo, linalgOp, init, insert);
      if (llvm::none_of(linalgOp.getDpsInputOperands(), [&](OpOperand *input) {
            return mayOverlap(linalgOp, input, init, insert);
          }))
        return;
      rewriter.setInsertionPoint(linalgOp);
      auto temporary = bufferization::AllocTensorOp::create(
          rewriter, empty.getLoc(), empty.getType(), empty.getDynamicSizes());
      rewriter.modifyOpInPlace(linalgOp, [&] { init->set(temporary); });
    });
  }
};

} // namespace
