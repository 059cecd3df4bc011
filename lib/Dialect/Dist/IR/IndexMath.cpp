//===- IndexMath.cpp - index arithmetic on OpFoldResults ------------------===//

#include "imex/Dialect/Dist/IR/IndexMath.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace imex::dist;

using Const = std::optional<int64_t>;

/// Whether `value` is the constant `c`.
static bool isConst(OpFoldResult value, int64_t c) {
  return value && isConstantIntValue(value, c);
}

namespace {
/// `value` as `base + offset` with a constant `offset`, looking through one
/// addition or subtraction of a constant; a constant has no base.
struct Shifted {
  OpFoldResult base;
  int64_t offset = 0;
};
} // namespace

static Shifted getShifted(OpFoldResult value) {
  if (Const c = getConstantIntValue(value))
    return {OpFoldResult(), *c};
  auto v = dyn_cast_if_present<Value>(value);
  if (!v)
    return {value, 0};
  if (auto add = v.getDefiningOp<arith::AddIOp>()) {
    if (Const c = getConstantIntValue(add.getRhs()))
      return {add.getLhs(), *c};
    if (Const c = getConstantIntValue(add.getLhs()))
      return {add.getRhs(), *c};
  }
  if (auto sub = v.getDefiningOp<arith::SubIOp>())
    if (Const c = getConstantIntValue(sub.getRhs()))
      if (*c != std::numeric_limits<int64_t>::min())
        return {sub.getLhs(), -*c};
  return {value, 0};
}

/// Whether `a` and `b` are the same value: the same SSA value or the results
/// of equal ops on the same operands (index math builds some sums twice).
static bool isSameValue(OpFoldResult a, OpFoldResult b) {
  if (a == b)
    return true;
  auto x = dyn_cast_if_present<Value>(a), y = dyn_cast_if_present<Value>(b);
  if (!x || !y || !x.getDefiningOp() || !y.getDefiningOp() ||
      !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(x.getDefiningOp()))
    return false;
  return OperationEquivalence::isEquivalentTo(
      x.getDefiningOp(), y.getDefiningOp(),
      OperationEquivalence::IgnoreLocations);
}

/// Whether `a` and `b` are the same non-constant value shifted by constants
/// (index arithmetic of array bounds: no overflow), and the difference of the
/// shifts.
static std::optional<int64_t> getConstantDifference(OpFoldResult a,
                                                    OpFoldResult b) {
  if (!a || !b)
    return std::nullopt;
  Shifted x = getShifted(a), y = getShifted(b);
  if (!x.base || !isSameValue(x.base, y.base))
    return std::nullopt;
  return llvm::checkedSub(x.offset, y.offset);
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
  // Constants move outward: (x + c1) + c2 = x + (c1 + c2) and
  // (x + c) + y = (x + y) + c, so that shifts of one value stay comparable.
  Const ca = getConstantIntValue(a), cb = getConstantIntValue(b);
  if (!ca && builder) {
    Shifted x = getShifted(a);
    if (x.base && x.base != a) {
      if (cb) {
        if (Const sum = llvm::checkedAdd(x.offset, *cb))
          return add(x.base, constant(*sum));
      }
    }
  }
  return binary<arith::AddIOp>(
      a, b, [](int64_t x, int64_t y) { return llvm::checkedAdd(x, y); });
}

OpFoldResult IndexMath::sub(OpFoldResult a, OpFoldResult b) {
  if (isConst(b, 0))
    return a;
  if (a && a == b)
    return constant(0);
  if (std::optional<int64_t> difference = getConstantDifference(a, b))
    return constant(*difference);
  if (a && b && !getConstantIntValue(a) && !getConstantIntValue(b) && builder) {
    // Constants move outward; (p + q) - p = q.
    if (auto sum = dyn_cast<Value>(a).getDefiningOp<arith::AddIOp>()) {
      if (isSameValue(sum.getLhs(), b))
        return sum.getRhs();
      if (isSameValue(sum.getRhs(), b))
        return sum.getLhs();
    }
  }
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
  if (std::optional<int64_t> difference = getConstantDifference(a, b))
    return *difference <= 0 ? a : b;
  return binary<arith::MinSIOp>(
      a, b, [](int64_t x, int64_t y) -> Const { return std::min(x, y); });
}

OpFoldResult IndexMath::max(OpFoldResult a, OpFoldResult b) {
  if (a && a == b)
    return a;
  if (std::optional<int64_t> difference = getConstantDifference(a, b))
    return *difference >= 0 ? a : b;
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
  // Shifts of one value compare as their shifts (signed comparisons).
  if (pred != arith::CmpIPredicate::ult && pred != arith::CmpIPredicate::ule &&
      pred != arith::CmpIPredicate::ugt && pred != arith::CmpIPredicate::uge)
    if (std::optional<int64_t> difference = getConstantDifference(a, b)) {
      x = *difference;
      y = 0;
    }
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
