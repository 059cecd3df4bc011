//===- IndexMath.cpp - index arithmetic on OpFoldResults ------------------===//

#include "imex/Dialect/Dist/IR/IndexMath.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace imex::dist;

using Const = std::optional<int64_t>;

/// Whether `value` is the constant `c`.
static bool isConst(OpFoldResult value, int64_t c) {
  return value && isConstantIntValue(value, c);
}

OpFoldResult IndexMath::constant(int64_t value) {
  return IntegerAttr::get(IndexType::get(context), value);
}

Value IndexMath::materialize(OpFoldResult value) {
  return getValueOrCreateConstantIndexOp(*builder, *loc, value);
}

template <typename OpTy>
OpFoldResult IndexMath::binary(OpFoldResult a, OpFoldResult b,
                               function_ref<Const(int64_t, int64_t)> fold) {
  if (!a || !b)
    return {};
  Const x = getConstantIntValue(a), y = getConstantIntValue(b);
  if (x && y)
    if (Const folded = fold(*x, *y))
      return constant(*folded);
  if (!builder)
    return {};
  return OpTy::create(*builder, *loc, materialize(a), materialize(b))
      .getResult();
}

OpFoldResult IndexMath::add(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 0))
    return a;
  if (isConst(a, 0))
    return b;
  return binary<arith::AddIOp>(
      a, b, [](int64_t x, int64_t y) { return llvm::checkedAdd(x, y); });
}

OpFoldResult IndexMath::sub(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 0))
    return a;
  if (a && a == b)
    return constant(0);
  return binary<arith::SubIOp>(
      a, b, [](int64_t x, int64_t y) { return llvm::checkedSub(x, y); });
}

OpFoldResult IndexMath::mul(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 1))
    return a;
  if (isConst(a, 1))
    return b;
  if (isConst(a, 0) || isConst(b, 0))
    return (a && b) ? constant(0) : OpFoldResult();
  return binary<arith::MulIOp>(
      a, b, [](int64_t x, int64_t y) { return llvm::checkedMul(x, y); });
}

/// Whether dividing `x` by `y` is defined.
static bool canDivide(int64_t x, int64_t y) {
  return y != 0 && !llvm::divideSignedWouldOverflow(x, y);
}

OpFoldResult IndexMath::div(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 1))
    return a;
  return binary<arith::DivSIOp>(a, b, [](int64_t x, int64_t y) -> Const {
    if (!canDivide(x, y))
      return std::nullopt;
    return x / y;
  });
}

OpFoldResult IndexMath::rem(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 1))
    return a ? constant(0) : OpFoldResult();
  return binary<arith::RemSIOp>(a, b, [](int64_t x, int64_t y) -> Const {
    if (!canDivide(x, y))
      return std::nullopt;
    return x % y;
  });
}

OpFoldResult IndexMath::ceilDiv(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 1))
    return a;
  return binary<arith::CeilDivSIOp>(a, b, [](int64_t x, int64_t y) -> Const {
    if (!canDivide(x, y))
      return std::nullopt;
    return llvm::divideCeilSigned(x, y);
  });
}

OpFoldResult IndexMath::min(OpFoldResult a, OpFoldResult b) {
  if (a && a == b)
    return a;
  return binary<arith::MinSIOp>(
      a, b, [](int64_t x, int64_t y) -> Const { return std::min(x, y); });
}

OpFoldResult IndexMath::max(OpFoldResult a, OpFoldResult b) {
  if (a && a == b)
    return a;
  return binary<arith::MaxSIOp>(
      a, b, [](int64_t x, int64_t y) -> Const { return std::max(x, y); });
}

OpFoldResult IndexMath::clamp(OpFoldResult x, OpFoldResult lo,
                              OpFoldResult hi) {
  return min(max(x, lo), hi);
}

OpFoldResult IndexMath::select(arith::CmpIPredicate pred, OpFoldResult a,
                               OpFoldResult b, OpFoldResult ifTrue,
                               OpFoldResult ifFalse) {
  if (ifTrue && ifTrue == ifFalse)
    return ifTrue;
  return select(pred, a, b, [&] { return ifTrue; }, [&] { return ifFalse; });
}

OpFoldResult IndexMath::select(arith::CmpIPredicate pred, OpFoldResult a,
                               OpFoldResult b,
                               function_ref<OpFoldResult()> ifTrue,
                               function_ref<OpFoldResult()> ifFalse) {
  if (!a || !b)
    return {};
  Const x = getConstantIntValue(a), y = getConstantIntValue(b);
  if (x && y)
    return arith::applyCmpPredicate(pred, APInt(64, *x, /*isSigned=*/true),
                                    APInt(64, *y, /*isSigned=*/true))
               ? ifTrue()
               : ifFalse();
  if (!builder)
    return {};
  OpFoldResult t = ifTrue(), f = ifFalse();
  if (!t || !f)
    return {};
  if (t == f)
    return t;
  Value cond = arith::CmpIOp::create(*builder, *loc, pred, materialize(a),
                                     materialize(b));
  return arith::SelectOp::create(*builder, *loc, cond, materialize(t),
                                 materialize(f))
      .getResult();
}
