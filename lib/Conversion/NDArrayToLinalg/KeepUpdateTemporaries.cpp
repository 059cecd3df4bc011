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

/// Whether the input `view` of the op whose result `insert` writes may
/// overlap the elements `insert` writes into its destination.
bool mayOverlap(Value view, tensor::InsertSliceOp insert) {
  if (getRoot(view) != getRoot(insert.getDest()))
    return false;
  auto extract = view.getDefiningOp<tensor::ExtractSliceOp>();
  if (!extract || extract.getSource() != insert.getDest())
    return true;
  FailureOr<bool> overlapping = ValueBoundsConstraintSet::areOverlappingSlices(
      insert.getContext(), HyperrectangularSlice(extract),
      HyperrectangularSlice(insert));
  return failed(overlapping) || *overlapping;
}

struct KeepUpdateTemporariesPass
    : public imex::impl::KeepUpdateTemporariesBase<KeepUpdateTemporariesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](tensor::InsertSliceOp insert) {
      auto result = dyn_cast<OpResult>(insert.getSource());
      auto linalgOp =
          result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
      if (!linalgOp || !linalgOp.hasPureTensorSemantics())
        return;
      OpOperand *init = linalgOp.getDpsInitOperand(result.getResultNumber());
      auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
      if (!empty || llvm::none_of(linalgOp.getDpsInputs(), [&](Value input) {
            return mayOverlap(input, insert);
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
