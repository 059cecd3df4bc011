//===- ComplexToLibm.cpp - complex functions to C library calls -----------===//
//
// The C library's complex functions implement C99 Annex G, whose special
// cases (infinities, NaNs, signed zeros) the array API adopts; upstream's
// convert-complex-to-libm would call the float variants with an ABI that
// does not match `float complex` on x86-64, so this pass computes complex<f32>
// through the double functions.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/MathToLibm/ComplexToLibm.h"

#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace imex {
#define GEN_PASS_DEF_COMPLEXTOLIBM
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// The C library function computing `op`, or "" for the ops computed with
/// their component formulas where the arguments are finite.
StringRef getLibmName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](complex::ExpOp) { return "cexp"; })
      .Case([](complex::LogOp) { return "clog"; })
      .Case([](complex::SqrtOp) { return "csqrt"; })
      .Case([](complex::SinOp) { return "csin"; })
      .Case([](complex::CosOp) { return "ccos"; })
      .Case([](complex::TanOp) { return "ctan"; })
      .Case([](complex::TanhOp) { return "ctanh"; })
      .Default([](Operation *) { return ""; });
}

class LibmCalls {
public:
  LibmCalls(ModuleOp module) : module(module), symbols(module) {}

  /// `name`(z) of the double function, declared on first use.
  Value call(OpBuilder &b, Location loc, StringRef name, Value z) {
    declare(name, ComplexType::get(b.getF64Type()));
    return imex::createDoubleComplexCall(b, loc, name, z);
  }

private:
  void declare(StringRef name, ComplexType type) {
    if (symbols.lookup(name))
      return;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto function = func::FuncOp::create(
        b, module.getLoc(), name, b.getFunctionType(TypeRange{type}, {type}));
    function.setPrivate();
    symbols.insert(function);
  }

  ModuleOp module;
  SymbolTable symbols;
};

/// `z` as complex numbers of type `to` (its parts extended or truncated).
Value convertComplex(OpBuilder &b, Location loc, Value z, ComplexType to) {
  Type component = to.getElementType();
  auto part = [&](Value v) -> Value {
    if (v.getType().getIntOrFloatBitWidth() < component.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, component, v);
    return arith::TruncFOp::create(b, loc, component, v);
  };
  return complex::CreateOp::create(b, loc, to,
                                   part(complex::ReOp::create(b, loc, z)),
                                   part(complex::ImOp::create(b, loc, z)));
}

/// `cond ? a : b` on complex values (component selects, which every later
/// lowering handles).
Value selectComplex(OpBuilder &b, Location loc, Value cond, Value a, Value c) {
  auto part = [&](auto opType) -> Value {
    using PartOp = decltype(opType);
    return arith::SelectOp::create(b, loc, cond, PartOp::create(b, loc, a),
                                   PartOp::create(b, loc, c));
  };
  return complex::CreateOp::create(b, loc, a.getType(), part(complex::ReOp()),
                                   part(complex::ImOp()));
}

Value isFinite(OpBuilder &b, Location loc, Value z) {
  Type component = cast<ComplexType>(z.getType()).getElementType();
  Value inf =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(component, INFINITY));
  auto finite = [&](Value v) -> Value {
    return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                 math::AbsFOp::create(b, loc, v), inf);
  };
  return arith::AndIOp::create(b, loc, finite(complex::ReOp::create(b, loc, z)),
                               finite(complex::ImOp::create(b, loc, z)));
}

Value complexOne(OpBuilder &b, Location loc, Type type) {
  Type component = cast<ComplexType>(type).getElementType();
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(component, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(component, 0));
  return complex::CreateOp::create(b, loc, type, one, zero);
}

/// expm1 and log1p: the op where its formula holds, the C library's exp or
/// log elsewhere.
void guard(Operation *op, LibmCalls &calls) {
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  Value z = op->getOperand(0);
  Type type = z.getType();
  Value result = op->getResult(0);
  // (The uses to redirect: those before the select is built on `result`.)
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : result.getUses())
    uses.push_back(&use);
  Value formulaHolds = isFinite(b, loc, z);
  Value fallback;
  if (isa<complex::Expm1Op>(op)) {
    fallback = complex::SubOp::create(b, loc, calls.call(b, loc, "cexp", z),
                                      complexOne(b, loc, type));
  } else {
    // (log1p(-1) = -inf: the formula's log of a zero modulus is not.)
    Type component = cast<ComplexType>(type).getElementType();
    Value minusOne =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(component, -1.0));
    Value zeroF =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(component, 0.0));
    Value atMinusOne = arith::AndIOp::create(
        b, loc,
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                              complex::ReOp::create(b, loc, z), minusOne),
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                              complex::ImOp::create(b, loc, z), zeroF));
    formulaHolds = arith::AndIOp::create(
        b, loc, formulaHolds,
        arith::XOrIOp::create(
            b, loc, atMinusOne,
            arith::ConstantOp::create(b, loc, b.getBoolAttr(true))));
    fallback =
        calls.call(b, loc, "clog",
                   complex::AddOp::create(b, loc, z, complexOne(b, loc, type)));
  }
  Value selected = selectComplex(b, loc, formulaHolds, result, fallback);
  for (OpOperand *use : uses)
    use->set(selected);
}

/// tanh(±inf + iy) for finite y is ±1 + i0 with the sign of y (the array
/// API; C99 gives the zero the sign of sin(2y)).
Value fixTanhAtInfinity(OpBuilder &b, Location loc, Value z, Value result) {
  Type component = cast<ComplexType>(z.getType()).getElementType();
  Value re = complex::ReOp::create(b, loc, z);
  Value im = complex::ImOp::create(b, loc, z);
  Value inf =
      arith::ConstantOp::create(b, loc, b.getFloatAttr(component, INFINITY));
  Value reInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                                      math::AbsFOp::create(b, loc, re), inf);
  Value imFinite = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE,
                                         math::AbsFOp::create(b, loc, im), inf);
  Value atInfinity = arith::AndIOp::create(b, loc, reInf, imFinite);
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(component, 1));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(component, 0));
  Value limit = complex::CreateOp::create(
      b, loc, z.getType(), math::CopySignOp::create(b, loc, one, re),
      math::CopySignOp::create(b, loc, zero, im));
  return selectComplex(b, loc, atInfinity, limit, result);
}

} // namespace

Value imex::createDoubleComplexCall(OpBuilder &b, Location loc, StringRef name,
                                    Value z) {
  auto type = cast<ComplexType>(z.getType());
  auto wide = ComplexType::get(b.getF64Type());
  Value arg = type == wide ? z : convertComplex(b, loc, z, wide);
  Value result =
      func::CallOp::create(b, loc, name, TypeRange{wide}, ValueRange{arg})
          .getResult(0);
  return type == wide ? result : convertComplex(b, loc, result, type);
}

namespace {

struct ComplexToLibmPass
    : public imex::impl::ComplexToLibmBase<ComplexToLibmPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (!getLibmName(op).empty() ||
          isa<complex::Expm1Op, complex::Log1pOp>(op))
        ops.push_back(op);
    });
    LibmCalls calls(module);
    for (Operation *op : ops) {
      StringRef name = getLibmName(op);
      if (name.empty()) {
        guard(op, calls);
        continue;
      }
      OpBuilder b(op);
      Value result = calls.call(b, op->getLoc(), name, op->getOperand(0));
      if (isa<complex::TanhOp>(op))
        result = fixTanhAtInfinity(b, op->getLoc(), op->getOperand(0), result);
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
    }
  }
};

} // namespace
