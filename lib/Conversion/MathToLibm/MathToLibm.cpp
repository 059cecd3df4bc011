//===- MathToLibm.cpp - transcendental math ops to libm calls -------------===//

#include "imex/Conversion/MathToLibm/MathToLibm.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex {
#define GEN_PASS_DEF_MATHTOLIBM
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// Whether `op` computes on f32 or f64 (scalars or vectors of them), the
/// types libm has functions for.
bool hasLibmElementType(Operation *op) {
  Type type = getElementTypeOrSelf(op->getResult(0).getType());
  return type.isF32() || type.isF64();
}

struct MathToLibmPass : public imex::impl::MathToLibmBase<MathToLibmPass> {
  using MathToLibmBase::MathToLibmBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    ConversionTarget target(*context);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // The functions libm (and its vector variants) compute better than
    // the LLVM lowerings; the rest of the math dialect stays for
    // convert-math-to-llvm.
    target.addDynamicallyLegalOp<
        math::AcosOp, math::AcoshOp, math::AsinOp, math::AsinhOp, math::AtanOp,
        math::Atan2Op, math::AtanhOp, math::CbrtOp, math::CosOp, math::CoshOp,
        math::ErfOp, math::ErfcOp, math::ExpOp, math::Exp2Op, math::ExpM1Op,
        math::LogOp, math::Log10Op, math::Log1pOp, math::Log2Op, math::PowFOp,
        math::SinOp, math::SinhOp, math::TanOp, math::TanhOp>(
        [](Operation *op) { return !hasLibmElementType(op); });
    ModuleOp module = getOperation();
    llvm::DenseSet<Operation *> existing;
    for (auto function : module.getOps<func::FuncOp>())
      existing.insert(function);
    RewritePatternSet patterns(context);
    populateMathToLibmConversionPatterns(patterns);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    if (vectorMath)
      return;
    // Scalar calls of the C library's functions: LLVM must not fold,
    // simplify or vectorize them (clang's -fno-builtin does the same).
    auto noBuiltin =
        ArrayAttr::get(context, {StringAttr::get(context, "nobuiltin")});
    for (auto function : module.getOps<func::FuncOp>())
      if (!existing.contains(function))
        function->setAttr("passthrough", noBuiltin);
  }
};

} // namespace
