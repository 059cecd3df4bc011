//===- EliminateEmptyTensors.cpp - empty tensors replaced by equal subsets
//-===//
//
// Upstream's eliminate-empty-tensors replaces a tensor.empty whose value
// reaches a subset insertion (through equivalent values: casts, scf.if and
// loop results) by the subset of the destination it is inserted into, and
// casts the subset to the empty tensor's type. Where a cast on the way
// forgot a static size (tensor<1xf64> to tensor<?xf64>, then broadcast at
// run time to a slice of n rows), the subset has another size than the
// empty tensor, and the cast claims one it does not have: the producer then
// writes n elements where it computed 1. This pass replaces an empty tensor
// only by a subset of provably the same sizes.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotModuleBufferize.h"
#include "mlir/Dialect/Bufferization/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SubsetOpInterface.h"

namespace imex {
#define GEN_PASS_DEF_ELIMINATEEMPTYTENSORS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// The sizes of `value` where it is made, seen through casts: a static size
/// or the SSA value of a dynamic one (null where unknown).
SmallVector<OpFoldResult> getKnownSizes(Value value) {
  while (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes;
  if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>()) {
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    for (auto [d, size] : llvm::enumerate(slice.getMixedSizes()))
      if (!dropped.test(d))
        sizes.push_back(size);
    return sizes;
  }
  if (auto empty = value.getDefiningOp<tensor::EmptyOp>())
    return empty.getMixedSizes();
  Builder b(value.getContext());
  for (int64_t size : type.getShape())
    sizes.push_back(ShapedType::isDynamic(size) ? OpFoldResult()
                                                : b.getIndexAttr(size));
  return sizes;
}

/// Upstream's subset extraction, refused unless its sizes are provably the
/// empty tensor's.
Value buildEqualSubsetExtraction(RewriterBase &rewriter,
                                 SubsetInsertionOpInterface op,
                                 tensor::EmptyOp empty, Operation *user) {
  Value subset =
      bufferization::buildSubsetExtraction(rewriter, op, empty, user);
  if (!subset)
    return subset;
  SmallVector<OpFoldResult> have = getKnownSizes(subset),
                            want = empty.getMixedSizes();
  bool equal = have.size() == want.size() &&
               llvm::all_of(llvm::zip(have, want), [](auto pair) {
                 auto [x, y] = pair;
                 return x && y && isEqualConstantIntOrValue(x, y);
               });
  if (equal)
    return subset;
  // (The extraction built for nothing goes; the empty tensor stays.)
  SmallVector<Operation *> dead;
  for (Value v = subset; Operation *def = v.getDefiningOp();) {
    if (!def->use_empty() || !isa<tensor::CastOp, tensor::ExtractSliceOp>(def))
      break;
    dead.push_back(def);
    v = def->getOperand(0);
  }
  for (Operation *def : dead)
    rewriter.eraseOp(def);
  return Value();
}

struct EliminateEmptyTensorsPass
    : public imex::impl::EliminateEmptyTensorsBase<EliminateEmptyTensorsPass> {
  void runOnOperation() override {
    Operation *op = getOperation();
    // As upstream's pass: the analysis with function boundaries on modules.
    bufferization::OneShotBufferizationOptions options;
    options.allowReturnAllocsFromLoops = true;
    auto module = dyn_cast<ModuleOp>(op);
    if (module)
      options.bufferizeFunctionBoundaries = true;
    bufferization::OneShotAnalysisState state(op, options);
    if (module ? failed(bufferization::analyzeModuleOp(module, state))
               : failed(bufferization::analyzeOp(op, state)))
      return signalPassFailure();
    IRRewriter rewriter(op->getContext());
    if (failed(bufferization::eliminateEmptyTensors(
            rewriter, op, state, buildEqualSubsetExtraction)))
      return signalPassFailure();
  }
};

} // namespace
