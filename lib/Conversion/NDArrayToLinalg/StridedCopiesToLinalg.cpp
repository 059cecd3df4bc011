//===- StridedCopiesToLinalg.cpp - copies of views as loops ---------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace imex {
#define GEN_PASS_DEF_STRIDEDCOPIESTOLINALG
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {
struct StridedCopiesToLinalgPass
    : public imex::impl::StridedCopiesToLinalgBase<StridedCopiesToLinalgPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation()->walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || source.getRank() == 0 ||
          (source.getLayout().isIdentity() && target.getLayout().isIdentity()))
        return;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
  }
};
} // namespace
