//===- ExpandDivisions.cpp - ceil/floor divisions for the LLVM lowering ---===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex {
#define GEN_PASS_DEF_EXPANDDIVISIONS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {
struct ExpandDivisionsPass
    : public imex::impl::ExpandDivisionsBase<ExpandDivisionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
