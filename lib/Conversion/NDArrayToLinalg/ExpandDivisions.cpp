//===- ExpandDivisions.cpp - ceil/floor divisions for the LLVM lowering ---===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

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
    // (One walk: the expansions create no divisions to expand.)
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
