//===- ScalarOps.cpp - numpy semantics of one element ---------------------===//

#include "ScalarOps.h"

#include "imex/Conversion/MathToLibm/ComplexToLibm.h"

#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace imex::ndarray;

Type imex::ndarray::getStorageType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    if (intType.isUnsigned())
      return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

static Value castScalar(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return UnrealizedConversionCastOp::create(b, loc, type, value).getResult(0);
}

Value imex::ndarray::castToStorage(OpBuilder &b, Location loc, Value value) {
  return castScalar(b, loc, value, getStorageType(value.getType()));
}

Value imex::ndarray::castFromStorage(OpBuilder &b, Location loc, Value value,
                                     Type elementType) {
  return castScalar(b, loc, value, elementType);
}

static Value intConst(OpBuilder &b, Location loc, Type type, int64_t value) {
  Type storage = getStorageType(type);
  if (storage.isIndex())
    return arith::ConstantIndexOp::create(b, loc, value);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(storage, value));
}

static Value floatConst(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

static Value zero(OpBuilder &b, Location loc, Type type) {
  return isFloatType(type) || isComplexType(type)
             ? createFloatConstant(b, loc, type, 0.0)
             : intConst(b, loc, type, 0);
}

static Value one(OpBuilder &b, Location loc, Type type) {
  return isFloatType(type) || isComplexType(type)
             ? createFloatConstant(b, loc, type, 1.0)
             : intConst(b, loc, type, 1);
}

Value imex::ndarray::convertScalar(OpBuilder &b, Location loc, Value value,
                                   Type from, Type to) {
  if (from == to)
    return value;
  Type toStorage = getStorageType(to);
  DTypeKind fromKind = *getDTypeKind(from), toKind = *getDTypeKind(to);
  if (fromKind == DTypeKind::Complex) {
    if (toKind == DTypeKind::Bool)
      return complex::NotEqualOp::create(b, loc, value, zero(b, loc, from));
    // To a real type: the real part (what numpy does, with a warning).
    Type component = getRealType(from);
    Value re = complex::ReOp::create(b, loc, value);
    if (toKind != DTypeKind::Complex)
      return convertScalar(b, loc, re, component, to);
    Type toComponent = getRealType(to);
    Value im = complex::ImOp::create(b, loc, value);
    return complex::CreateOp::create(
        b, loc, to, convertScalar(b, loc, re, component, toComponent),
        convertScalar(b, loc, im, component, toComponent));
  }
  if (toKind == DTypeKind::Complex) {
    Type component = getRealType(to);
    return complex::CreateOp::create(
        b, loc, to, convertScalar(b, loc, value, from, component),
        floatConst(b, loc, component, 0.0));
  }
  if (toKind == DTypeKind::Bool) {
    if (fromKind == DTypeKind::Float)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero(b, loc, from));
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                                 zero(b, loc, from));
  }
  bool fromUnsigned =
      fromKind == DTypeKind::UnsignedInt || fromKind == DTypeKind::Bool;
  if (fromKind == DTypeKind::Index) {
    value = arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
    return convertScalar(b, loc, value, b.getI64Type(), to);
  }
  if (toKind == DTypeKind::Index) {
    value = convertScalar(b, loc, value, from, b.getI64Type());
    return arith::IndexCastOp::create(b, loc, toStorage, value);
  }
  if (toKind == DTypeKind::Float) {
    if (fromKind == DTypeKind::Float) {
      unsigned fromWidth = from.getIntOrFloatBitWidth();
      unsigned toWidth = to.getIntOrFloatBitWidth();
      if (fromWidth == toWidth) // f16 <-> bf16 goes through f32.
        return convertScalar(
            b, loc, arith::ExtFOp::create(b, loc, b.getF32Type(), value),
            b.getF32Type(), to);
      if (fromWidth < toWidth)
        return arith::ExtFOp::create(b, loc, to, value);
      return arith::TruncFOp::create(b, loc, to, value);
    }
    if (fromUnsigned)
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  // To an integer.
  if (fromKind == DTypeKind::Float) {
    if (toKind == DTypeKind::UnsignedInt)
      return arith::FPToUIOp::create(b, loc, toStorage, value);
    return arith::FPToSIOp::create(b, loc, toStorage, value);
  }
  unsigned fromWidth = getStorageType(from).getIntOrFloatBitWidth();
  unsigned toWidth = toStorage.getIntOrFloatBitWidth();
  if (fromWidth == toWidth)
    return value;
  if (fromWidth > toWidth)
    return arith::TruncIOp::create(b, loc, toStorage, value);
  if (fromUnsigned)
    return arith::ExtUIOp::create(b, loc, toStorage, value);
  return arith::ExtSIOp::create(b, loc, toStorage, value);
}

//===----------------------------------------------------------------------===//
// Binary operations
//===----------------------------------------------------------------------===//

static Value cmpI(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                  Value lhs, Value rhs) {
  return arith::CmpIOp::create(b, loc, pred, lhs, rhs);
}
static Value cmpF(OpBuilder &b, Location loc, arith::CmpFPredicate pred,
                  Value lhs, Value rhs) {
  return arith::CmpFOp::create(b, loc, pred, lhs, rhs);
}
static Value select(OpBuilder &b, Location loc, Value cond, Value t, Value f) {
  return arith::SelectOp::create(b, loc, cond, t, f);
}

/// numpy's floor division of floats (npy_divmod), exact in the corner cases.
static Value floorDivideFloat(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Value zeroF = floatConst(b, loc, type, 0.0);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value div =
      arith::DivFOp::create(b, loc, arith::SubFOp::create(b, loc, x, mod), y);
  Value modNonZero = cmpF(b, loc, arith::CmpFPredicate::UNE, mod, zeroF);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, cmpF(b, loc, arith::CmpFPredicate::OLT, y, zeroF),
      cmpF(b, loc, arith::CmpFPredicate::OLT, mod, zeroF));
  Value adjust = arith::AndIOp::create(b, loc, modNonZero, signsDiffer);
  div = select(
      b, loc, adjust,
      arith::SubFOp::create(b, loc, div, floatConst(b, loc, type, 1.0)), div);
  Value floorDiv = math::FloorOp::create(b, loc, div);
  Value roundUp = cmpF(b, loc, arith::CmpFPredicate::OGT,
                       arith::SubFOp::create(b, loc, div, floorDiv),
                       floatConst(b, loc, type, 0.5));
  floorDiv = select(
      b, loc, roundUp,
      arith::AddFOp::create(b, loc, floorDiv, floatConst(b, loc, type, 1.0)),
      floorDiv);
  // A zero quotient takes the sign of x / y.
  Value quotient = arith::DivFOp::create(b, loc, x, y);
  Value signedZero = math::CopySignOp::create(b, loc, zeroF, quotient);
  Value divNonZero = cmpF(b, loc, arith::CmpFPredicate::UNE, div, zeroF);
  Value result = select(b, loc, divNonZero, floorDiv, signedZero);
  // Division by zero and infinite operands give x / y (the array API's
  // special cases: inf // 2 is inf, 1 // -inf is -0, where numpy's
  // remainder-based quotient gives nan and -1).
  Value inf = floatConst(b, loc, type, INFINITY);
  auto isInf = [&](Value v) {
    return cmpF(b, loc, arith::CmpFPredicate::OEQ,
                math::AbsFOp::create(b, loc, v), inf);
  };
  Value exact = arith::OrIOp::create(
      b, loc, cmpF(b, loc, arith::CmpFPredicate::OEQ, y, zeroF),
      arith::OrIOp::create(b, loc, isInf(x), isInf(y)));
  return select(b, loc, exact, quotient, result);
}

/// numpy's remainder of floats: the sign of the divisor.
static Value remainderFloat(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Value zeroF = floatConst(b, loc, type, 0.0);
  Value mod = arith::RemFOp::create(b, loc, x, y);
  Value modNonZero = cmpF(b, loc, arith::CmpFPredicate::UNE, mod, zeroF);
  Value signsDiffer = arith::XOrIOp::create(
      b, loc, cmpF(b, loc, arith::CmpFPredicate::OLT, y, zeroF),
      cmpF(b, loc, arith::CmpFPredicate::OLT, mod, zeroF));
  Value adjust = arith::AndIOp::create(b, loc, modNonZero, signsDiffer);
  Value adjusted =
      select(b, loc, adjust, arith::AddFOp::create(b, loc, mod, y), mod);
  // A zero remainder takes the sign of y.
  Value signedZero = math::CopySignOp::create(b, loc, zeroF, y);
  return select(b, loc, modNonZero, adjusted, signedZero);
}

/// Integer division and remainder with numpy's results for a zero divisor
/// (0) and for MIN / -1 (wrap-around), both of which trap on x86.
static Value divideOrRemainderInt(OpBuilder &b, Location loc, bool remainder,
                                  bool isUnsignedType, Value x, Value y) {
  Type type = x.getType();
  Value zeroI = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 1));
  Value yZero = cmpI(b, loc, arith::CmpIPredicate::eq, y, zeroI);
  if (isUnsignedType) {
    Value safeY = select(b, loc, yZero, one, y);
    Value r = remainder ? Value(arith::RemUIOp::create(b, loc, x, safeY))
                        : Value(arith::DivUIOp::create(b, loc, x, safeY));
    return select(b, loc, yZero, zeroI, r);
  }
  Value minusOne =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, -1));
  Value yMinusOne = cmpI(b, loc, arith::CmpIPredicate::eq, y, minusOne);
  Value unsafe = arith::OrIOp::create(b, loc, yZero, yMinusOne);
  Value safeY = select(b, loc, unsafe, one, y);
  Value result;
  if (remainder) {
    Value r = arith::RemSIOp::create(b, loc, x, safeY);
    Value rNonZero = cmpI(b, loc, arith::CmpIPredicate::ne, r, zeroI);
    Value signsDiffer = arith::XOrIOp::create(
        b, loc, cmpI(b, loc, arith::CmpIPredicate::slt, r, zeroI),
        cmpI(b, loc, arith::CmpIPredicate::slt, y, zeroI));
    Value adjust = arith::AndIOp::create(b, loc, rNonZero, signsDiffer);
    // x % 1 is 0, the right answer for y == -1.
    result = select(b, loc, adjust, arith::AddIOp::create(b, loc, r, y), r);
  } else {
    Value q = arith::FloorDivSIOp::create(b, loc, x, safeY);
    result =
        select(b, loc, yMinusOne, arith::SubIOp::create(b, loc, zeroI, x), q);
  }
  return select(b, loc, yZero, zeroI, result);
}

/// numpy's shifts: shifting by the bit width or more (or a negative amount)
/// gives 0, or -1 for an arithmetic right shift of a negative number.
static Value shift(OpBuilder &b, Location loc, bool left, bool isUnsignedType,
                   Value x, Value y) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value zeroI = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  Value widthValue =
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, width));
  Value inRange = cmpI(b, loc, arith::CmpIPredicate::ult, y, widthValue);
  Value safeY = select(b, loc, inRange, y, zeroI);
  if (left)
    return select(b, loc, inRange, arith::ShLIOp::create(b, loc, x, safeY),
                  zeroI);
  if (isUnsignedType)
    return select(b, loc, inRange, arith::ShRUIOp::create(b, loc, x, safeY),
                  zeroI);
  Value outOfRange = select(
      b, loc, cmpI(b, loc, arith::CmpIPredicate::slt, x, zeroI),
      arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, -1)), zeroI);
  return select(b, loc, inRange, arith::ShRSIOp::create(b, loc, x, safeY),
                outOfRange);
}

/// The next representable number after x towards y (C's nextafter): one
/// step of x's bit pattern, away from zero when y is further from zero on
/// x's side.
static Value nextAfter(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Type bits = b.getIntegerType(type.getIntOrFloatBitWidth());
  Value zeroF = floatConst(b, loc, type, 0.0);
  Value asInt = arith::BitcastOp::create(b, loc, bits, x);
  Value one = arith::ConstantOp::create(b, loc, b.getIntegerAttr(bits, 1));
  Value up = cmpF(b, loc, arith::CmpFPredicate::OLT, x, y);
  Value positive = cmpF(b, loc, arith::CmpFPredicate::OGT, x, zeroF);
  Value away = cmpI(b, loc, arith::CmpIPredicate::eq, up, positive);
  Value stepped = arith::BitcastOp::create(
      b, loc, type,
      select(b, loc, away, arith::AddIOp::create(b, loc, asInt, one),
             arith::SubIOp::create(b, loc, asInt, one)));
  // From zero: the smallest subnormal with y's sign.
  Value tiny = math::CopySignOp::create(
      b, loc, arith::BitcastOp::create(b, loc, type, one), y);
  Value result = select(
      b, loc, cmpF(b, loc, arith::CmpFPredicate::OEQ, x, zeroF), tiny, stepped);
  result =
      select(b, loc, cmpF(b, loc, arith::CmpFPredicate::OEQ, x, y), y, result);
  return select(b, loc, cmpF(b, loc, arith::CmpFPredicate::UNO, x, y),
                arith::AddFOp::create(b, loc, x, y), result);
}

static Value hypot(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Value ax = math::AbsFOp::create(b, loc, x);
  Value ay = math::AbsFOp::create(b, loc, y);
  Value big = arith::MaximumFOp::create(b, loc, ax, ay);
  Value small = arith::MinimumFOp::create(b, loc, ax, ay);
  Value ratio = arith::DivFOp::create(b, loc, small, big);
  Value root = math::SqrtOp::create(
      b, loc,
      arith::AddFOp::create(b, loc, floatConst(b, loc, type, 1.0),
                            arith::MulFOp::create(b, loc, ratio, ratio)));
  Value result = arith::MulFOp::create(b, loc, big, root);
  Value inf = floatConst(b, loc, type, INFINITY);
  Value anyInf = arith::OrIOp::create(
      b, loc, cmpF(b, loc, arith::CmpFPredicate::OEQ, ax, inf),
      cmpF(b, loc, arith::CmpFPredicate::OEQ, ay, inf));
  Value bigZero = cmpF(b, loc, arith::CmpFPredicate::OEQ, big,
                       floatConst(b, loc, type, 0.0));
  result = select(b, loc, bigZero, floatConst(b, loc, type, 0.0), result);
  return select(b, loc, anyInf, inf, result);
}

static Value logAddExp(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Value zeroF = floatConst(b, loc, type, 0.0);
  Value equal = cmpF(b, loc, arith::CmpFPredicate::OEQ, x, y);
  Value same =
      arith::AddFOp::create(b, loc, x, floatConst(b, loc, type, M_LN2));
  Value diff = arith::SubFOp::create(b, loc, x, y);
  Value negAbs =
      arith::NegFOp::create(b, loc, math::AbsFOp::create(b, loc, diff));
  Value tail =
      math::Log1pOp::create(b, loc, math::ExpOp::create(b, loc, negAbs));
  Value positive = cmpF(b, loc, arith::CmpFPredicate::OGT, diff, zeroF);
  Value larger = select(b, loc, positive, x, y);
  Value general = arith::AddFOp::create(b, loc, larger, tail);
  // A NaN difference (NaN operand, or inf - inf of opposite signs) stays NaN.
  Value isNaN = cmpF(b, loc, arith::CmpFPredicate::UNO, diff, diff);
  general = select(b, loc, isNaN, diff, general);
  return select(b, loc, equal, same, general);
}

/// `ewbin kind` on complex numbers (the kinds the type rules accept).
static Value buildComplexBin(OpBuilder &b, Location loc, EWBinOpKind kind,
                             Value lhs, Value rhs) {
  switch (kind) {
  case EWBinOpKind::add:
    return complex::AddOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::subtract:
    return complex::SubOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::multiply:
    return complex::MulOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::divide:
    return complex::DivOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::pow:
    return complex::PowOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::equal:
    return complex::EqualOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::not_equal:
    return complex::NotEqualOp::create(b, loc, lhs, rhs);
  default:
    llvm_unreachable("ewbin kind without a complex form (rejected by the "
                     "type rules)");
  }
}

Value imex::ndarray::buildEWBin(OpBuilder &b, Location loc, EWBinOpKind kind,
                                Value lhs, Value rhs, Type type,
                                Type resultType) {
  if (isComplexType(type))
    return buildComplexBin(b, loc, kind, lhs, rhs);
  DTypeKind dtype = *getDTypeKind(type);
  bool isFloat = dtype == DTypeKind::Float;
  bool isUnsignedType =
      dtype == DTypeKind::UnsignedInt || dtype == DTypeKind::Bool;
  using P = arith::CmpIPredicate;
  using F = arith::CmpFPredicate;
  auto compare = [&](F fp, P sp, P up) -> Value {
    if (isFloat)
      return cmpF(b, loc, fp, lhs, rhs);
    return cmpI(b, loc, isUnsignedType ? up : sp, lhs, rhs);
  };
  switch (kind) {
  case EWBinOpKind::add:
    return isFloat ? Value(arith::AddFOp::create(b, loc, lhs, rhs))
                   : Value(arith::AddIOp::create(b, loc, lhs, rhs));
  case EWBinOpKind::subtract:
    return isFloat ? Value(arith::SubFOp::create(b, loc, lhs, rhs))
                   : Value(arith::SubIOp::create(b, loc, lhs, rhs));
  case EWBinOpKind::multiply:
    return isFloat ? Value(arith::MulFOp::create(b, loc, lhs, rhs))
                   : Value(arith::MulIOp::create(b, loc, lhs, rhs));
  case EWBinOpKind::divide:
    return arith::DivFOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::floor_divide:
    if (isFloat)
      return floorDivideFloat(b, loc, lhs, rhs);
    return divideOrRemainderInt(b, loc, /*remainder=*/false,
                                dtype == DTypeKind::UnsignedInt, lhs, rhs);
  case EWBinOpKind::remainder:
    if (isFloat)
      return remainderFloat(b, loc, lhs, rhs);
    return divideOrRemainderInt(b, loc, /*remainder=*/true,
                                dtype == DTypeKind::UnsignedInt, lhs, rhs);
  case EWBinOpKind::pow:
    if (isFloat)
      return math::PowFOp::create(b, loc, lhs, rhs);
    return math::IPowIOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::maximum:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, lhs, rhs);
    if (dtype == DTypeKind::Bool)
      return arith::OrIOp::create(b, loc, lhs, rhs);
    return isUnsignedType ? Value(arith::MaxUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
  case EWBinOpKind::minimum:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, lhs, rhs);
    if (dtype == DTypeKind::Bool)
      return arith::AndIOp::create(b, loc, lhs, rhs);
    return isUnsignedType ? Value(arith::MinUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
  case EWBinOpKind::equal:
    return compare(F::OEQ, P::eq, P::eq);
  case EWBinOpKind::not_equal:
    return compare(F::UNE, P::ne, P::ne);
  case EWBinOpKind::less:
    return compare(F::OLT, P::slt, P::ult);
  case EWBinOpKind::less_equal:
    return compare(F::OLE, P::sle, P::ule);
  case EWBinOpKind::greater:
    return compare(F::OGT, P::sgt, P::ugt);
  case EWBinOpKind::greater_equal:
    return compare(F::OGE, P::sge, P::uge);
  case EWBinOpKind::logical_and:
  case EWBinOpKind::bitwise_and:
    return arith::AndIOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::logical_or:
  case EWBinOpKind::bitwise_or:
    return arith::OrIOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::logical_xor:
  case EWBinOpKind::bitwise_xor:
    return arith::XOrIOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::bitwise_left_shift:
    return shift(b, loc, /*left=*/true, isUnsignedType, lhs, rhs);
  case EWBinOpKind::bitwise_right_shift:
    return shift(b, loc, /*left=*/false, isUnsignedType, lhs, rhs);
  case EWBinOpKind::atan2:
    return math::Atan2Op::create(b, loc, lhs, rhs);
  case EWBinOpKind::copysign:
    return math::CopySignOp::create(b, loc, lhs, rhs);
  case EWBinOpKind::hypot:
    return hypot(b, loc, lhs, rhs);
  case EWBinOpKind::nextafter:
    return nextAfter(b, loc, lhs, rhs);
  case EWBinOpKind::logaddexp:
    return logAddExp(b, loc, lhs, rhs);
  }
  llvm_unreachable("unknown EWBinOpKind");
}

//===----------------------------------------------------------------------===//
// Unary operations
//===----------------------------------------------------------------------===//

/// `ewuny kind` on complex numbers (the kinds the type rules accept).
static Value buildComplexUny(OpBuilder &b, Location loc, EWUnyOpKind kind,
                             Value x, Type type) {
  Type component = getRealType(type);
  auto parts = [&]() {
    return std::pair<Value, Value>(complex::ReOp::create(b, loc, x),
                                   complex::ImOp::create(b, loc, x));
  };
  auto anyPart = [&](auto predicate) -> Value {
    auto [re, im] = parts();
    return arith::OrIOp::create(b, loc, predicate(re), predicate(im));
  };
  auto scaled = [&](Value z, double factor) -> Value {
    Value f = floatConst(b, loc, component, factor);
    return complex::CreateOp::create(
        b, loc, type,
        arith::MulFOp::create(b, loc, complex::ReOp::create(b, loc, z), f),
        arith::MulFOp::create(b, loc, complex::ImOp::create(b, loc, z), f));
  };
  // i z and -i z: exact (the components swapped, one negated), so that
  // sinh(z) = -i sin(i z) and cosh(z) = cos(i z) keep the special cases of
  // C99 Annex G, which defines csin and ccos this way.
  auto timesI = [&](Value z, bool negative) -> Value {
    Value re = complex::ReOp::create(b, loc, z);
    Value im = complex::ImOp::create(b, loc, z);
    return negative ? complex::CreateOp::create(
                          b, loc, type, im, arith::NegFOp::create(b, loc, re))
                    : complex::CreateOp::create(
                          b, loc, type, arith::NegFOp::create(b, loc, im), re);
  };
  Value inf = floatConst(b, loc, component, INFINITY);
  switch (kind) {
  case EWUnyOpKind::abs:
    return complex::AbsOp::create(b, loc, x);
  case EWUnyOpKind::real:
    return complex::ReOp::create(b, loc, x);
  case EWUnyOpKind::imag:
    return complex::ImOp::create(b, loc, x);
  case EWUnyOpKind::conj:
    return complex::ConjOp::create(b, loc, x);
  case EWUnyOpKind::negative:
    return complex::NegOp::create(b, loc, x);
  case EWUnyOpKind::positive:
    return x;
  case EWUnyOpKind::square:
    return complex::MulOp::create(b, loc, x, x);
  case EWUnyOpKind::sign: {
    // A zero of either sign is 0 + 0j (complex.sign keeps its signs).
    Value isZero = complex::EqualOp::create(b, loc, x, zero(b, loc, type));
    Value s = complex::SignOp::create(b, loc, x);
    Value zeroF = floatConst(b, loc, component, 0.0);
    return complex::CreateOp::create(
        b, loc, type,
        select(b, loc, isZero, zeroF, complex::ReOp::create(b, loc, s)),
        select(b, loc, isZero, zeroF, complex::ImOp::create(b, loc, s)));
  }
  case EWUnyOpKind::logical_not:
    return complex::EqualOp::create(b, loc, x, zero(b, loc, type));
  case EWUnyOpKind::isnan:
    return anyPart(
        [&](Value v) { return cmpF(b, loc, arith::CmpFPredicate::UNO, v, v); });
  case EWUnyOpKind::isinf:
    return anyPart([&](Value v) {
      return cmpF(b, loc, arith::CmpFPredicate::OEQ,
                  math::AbsFOp::create(b, loc, v), inf);
    });
  case EWUnyOpKind::isfinite: {
    auto [re, im] = parts();
    auto finite = [&](Value v) {
      return cmpF(b, loc, arith::CmpFPredicate::ONE,
                  math::AbsFOp::create(b, loc, v), inf);
    };
    return arith::AndIOp::create(b, loc, finite(re), finite(im));
  }
  case EWUnyOpKind::sqrt:
    return complex::SqrtOp::create(b, loc, x);
  case EWUnyOpKind::exp:
    return complex::ExpOp::create(b, loc, x);
  case EWUnyOpKind::expm1:
    return complex::Expm1Op::create(b, loc, x);
  case EWUnyOpKind::log:
    return complex::LogOp::create(b, loc, x);
  case EWUnyOpKind::log1p:
    return complex::Log1pOp::create(b, loc, x);
  case EWUnyOpKind::log2:
    return scaled(complex::LogOp::create(b, loc, x), 1.0 / M_LN2);
  case EWUnyOpKind::log10:
    return scaled(complex::LogOp::create(b, loc, x), 1.0 / M_LN10);
  case EWUnyOpKind::sin:
    return complex::SinOp::create(b, loc, x);
  case EWUnyOpKind::cos:
    return complex::CosOp::create(b, loc, x);
  case EWUnyOpKind::tan:
    return complex::TanOp::create(b, loc, x);
  case EWUnyOpKind::tanh:
    return complex::TanhOp::create(b, loc, x);
  case EWUnyOpKind::sinh:
    return timesI(complex::SinOp::create(b, loc, timesI(x, false)), true);
  case EWUnyOpKind::cosh:
    return complex::CosOp::create(b, loc, timesI(x, false));
  case EWUnyOpKind::acos:
  case EWUnyOpKind::acosh:
  case EWUnyOpKind::asin:
  case EWUnyOpKind::asinh:
  case EWUnyOpKind::atan:
  case EWUnyOpKind::atanh:
    // (The C names: cacos, cacosh, ...)
    // (convert-ndarray-to-linalg declares the callee.)
    return imex::createDoubleComplexCall(
        b, loc, ("c" + stringifyEWUnyOpKind(kind)).str(), x);
  case EWUnyOpKind::round: {
    auto [re, im] = parts();
    return complex::CreateOp::create(b, loc, type,
                                     math::RoundEvenOp::create(b, loc, re),
                                     math::RoundEvenOp::create(b, loc, im));
  }
  default:
    llvm_unreachable("ewuny kind without a complex form (rejected by the "
                     "type rules)");
  }
}

Value imex::ndarray::buildEWUny(OpBuilder &b, Location loc, EWUnyOpKind kind,
                                Value x, Type type, Type resultType) {
  if (isComplexType(type))
    return buildComplexUny(b, loc, kind, x, type);
  DTypeKind dtype = *getDTypeKind(type);
  bool isFloat = dtype == DTypeKind::Float;
  Type storage = getStorageType(type);
  auto constBool = [&](bool v) -> Value {
    return arith::ConstantOp::create(b, loc, b.getBoolAttr(v));
  };
  auto asFloat = [&]() { return convertScalar(b, loc, x, type, resultType); };
  switch (kind) {
  case EWUnyOpKind::abs:
    if (isFloat)
      return math::AbsFOp::create(b, loc, x);
    if (dtype == DTypeKind::UnsignedInt)
      return x;
    return math::AbsIOp::create(b, loc, x);
  case EWUnyOpKind::negative:
    if (isFloat)
      return arith::NegFOp::create(b, loc, x);
    return arith::SubIOp::create(b, loc, zero(b, loc, type), x);
  case EWUnyOpKind::positive:
  case EWUnyOpKind::real:
  case EWUnyOpKind::conj:
    return x;
  case EWUnyOpKind::imag:
    return zero(b, loc, type);
  case EWUnyOpKind::square:
    return isFloat ? Value(arith::MulFOp::create(b, loc, x, x))
                   : Value(arith::MulIOp::create(b, loc, x, x));
  case EWUnyOpKind::sign: {
    Value zeroV = zero(b, loc, type);
    if (isFloat) {
      // (A zero of either sign is +0; NaN stays NaN.)
      Value pos = cmpF(b, loc, arith::CmpFPredicate::OGT, x, zeroV);
      Value neg = cmpF(b, loc, arith::CmpFPredicate::OLT, x, zeroV);
      Value isZero = cmpF(b, loc, arith::CmpFPredicate::OEQ, x, zeroV);
      return select(b, loc, pos, floatConst(b, loc, type, 1.0),
                    select(b, loc, neg, floatConst(b, loc, type, -1.0),
                           select(b, loc, isZero, zeroV, x)));
    }
    Value one = intConst(b, loc, type, 1);
    if (dtype == DTypeKind::UnsignedInt)
      return select(b, loc, cmpI(b, loc, arith::CmpIPredicate::ne, x, zeroV),
                    one, zeroV);
    Value pos = cmpI(b, loc, arith::CmpIPredicate::sgt, x, zeroV);
    Value neg = cmpI(b, loc, arith::CmpIPredicate::slt, x, zeroV);
    return select(b, loc, pos, one,
                  select(b, loc, neg, intConst(b, loc, type, -1), zeroV));
  }
  case EWUnyOpKind::ceil:
    return isFloat ? Value(math::CeilOp::create(b, loc, x)) : x;
  case EWUnyOpKind::floor:
    return isFloat ? Value(math::FloorOp::create(b, loc, x)) : x;
  case EWUnyOpKind::trunc:
    return isFloat ? Value(math::TruncOp::create(b, loc, x)) : x;
  case EWUnyOpKind::round:
    return isFloat ? Value(math::RoundEvenOp::create(b, loc, x)) : x;
  case EWUnyOpKind::bitwise_invert:
    return arith::XOrIOp::create(
        b, loc, x,
        arith::ConstantOp::create(b, loc, b.getIntegerAttr(storage, -1)));
  case EWUnyOpKind::logical_not:
    if (isFloat)
      return cmpF(b, loc, arith::CmpFPredicate::OEQ, x, zero(b, loc, type));
    return cmpI(b, loc, arith::CmpIPredicate::eq, x, zero(b, loc, type));
  case EWUnyOpKind::isnan:
    return isFloat ? cmpF(b, loc, arith::CmpFPredicate::UNO, x, x)
                   : constBool(false);
  case EWUnyOpKind::isinf:
    return isFloat ? cmpF(b, loc, arith::CmpFPredicate::OEQ,
                          math::AbsFOp::create(b, loc, x),
                          floatConst(b, loc, type, INFINITY))
                   : constBool(false);
  case EWUnyOpKind::isfinite:
    return isFloat ? cmpF(b, loc, arith::CmpFPredicate::ONE,
                          math::AbsFOp::create(b, loc, x),
                          floatConst(b, loc, type, INFINITY))
                   : constBool(true);
  case EWUnyOpKind::signbit: {
    if (isFloat) {
      Type bits = b.getIntegerType(type.getIntOrFloatBitWidth());
      Value asInt = arith::BitcastOp::create(b, loc, bits, x);
      return cmpI(b, loc, arith::CmpIPredicate::slt, asInt,
                  arith::ConstantOp::create(b, loc, b.getZeroAttr(bits)));
    }
    if (dtype == DTypeKind::SignedInt || dtype == DTypeKind::Index)
      return cmpI(b, loc, arith::CmpIPredicate::slt, x, zero(b, loc, type));
    return constBool(false);
  }
  case EWUnyOpKind::acos:
    return math::AcosOp::create(b, loc, asFloat());
  case EWUnyOpKind::acosh:
    return math::AcoshOp::create(b, loc, asFloat());
  case EWUnyOpKind::asin:
    return math::AsinOp::create(b, loc, asFloat());
  case EWUnyOpKind::asinh:
    return math::AsinhOp::create(b, loc, asFloat());
  case EWUnyOpKind::atan:
    return math::AtanOp::create(b, loc, asFloat());
  case EWUnyOpKind::atanh:
    return math::AtanhOp::create(b, loc, asFloat());
  case EWUnyOpKind::cos:
    return math::CosOp::create(b, loc, asFloat());
  case EWUnyOpKind::cosh:
    return math::CoshOp::create(b, loc, asFloat());
  case EWUnyOpKind::erf:
    return math::ErfOp::create(b, loc, asFloat());
  case EWUnyOpKind::exp:
    return math::ExpOp::create(b, loc, asFloat());
  case EWUnyOpKind::expm1:
    return math::ExpM1Op::create(b, loc, asFloat());
  case EWUnyOpKind::log:
    return math::LogOp::create(b, loc, asFloat());
  case EWUnyOpKind::log1p:
    return math::Log1pOp::create(b, loc, asFloat());
  case EWUnyOpKind::log2:
    return math::Log2Op::create(b, loc, asFloat());
  case EWUnyOpKind::log10:
    return math::Log10Op::create(b, loc, asFloat());
  case EWUnyOpKind::sin:
    return math::SinOp::create(b, loc, asFloat());
  case EWUnyOpKind::sinh:
    return math::SinhOp::create(b, loc, asFloat());
  case EWUnyOpKind::sqrt:
    return math::SqrtOp::create(b, loc, asFloat());
  case EWUnyOpKind::tan:
    return math::TanOp::create(b, loc, asFloat());
  case EWUnyOpKind::tanh:
    return math::TanhOp::create(b, loc, asFloat());
  }
  llvm_unreachable("unknown EWUnyOpKind");
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

Value imex::ndarray::buildReductionIdentity(OpBuilder &b, Location loc,
                                            ReductionKind kind, Type type) {
  DTypeKind dtype = *getDTypeKind(type);
  Type storage = getStorageType(type);
  bool isFloat = dtype == DTypeKind::Float;
  auto intAttr = [&](const APInt &v) -> Value {
    if (storage.isIndex())
      return arith::ConstantIndexOp::create(b, loc, v.getSExtValue());
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(storage, v));
  };
  unsigned width =
      storage.isIntOrIndexOrFloat()
          ? (storage.isIndex() ? 64 : storage.getIntOrFloatBitWidth())
          : 0;
  switch (kind) {
  case ReductionKind::sum:
  case ReductionKind::any:
    return zero(b, loc, type);
  case ReductionKind::prod:
  case ReductionKind::all:
    return one(b, loc, type);
  case ReductionKind::max:
    if (isFloat)
      return floatConst(b, loc, type, -INFINITY);
    if (dtype == DTypeKind::SignedInt || dtype == DTypeKind::Index)
      return intAttr(APInt::getSignedMinValue(width));
    return intAttr(APInt::getMinValue(width));
  case ReductionKind::min:
    if (isFloat)
      return floatConst(b, loc, type, INFINITY);
    if (dtype == DTypeKind::SignedInt || dtype == DTypeKind::Index)
      return intAttr(APInt::getSignedMaxValue(width));
    return intAttr(APInt::getMaxValue(width));
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std:
    return zero(b, loc, type);
  }
  llvm_unreachable("unknown ReductionKind");
}

Value imex::ndarray::buildReductionStep(OpBuilder &b, Location loc,
                                        ReductionKind kind, Value acc,
                                        Value value, Type type) {
  switch (kind) {
  case ReductionKind::sum:
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std:
    return buildEWBin(b, loc, EWBinOpKind::add, acc, value, type, type);
  case ReductionKind::prod:
    return buildEWBin(b, loc, EWBinOpKind::multiply, acc, value, type, type);
  case ReductionKind::max:
    return buildEWBin(b, loc, EWBinOpKind::maximum, acc, value, type, type);
  case ReductionKind::min:
    return buildEWBin(b, loc, EWBinOpKind::minimum, acc, value, type, type);
  case ReductionKind::any:
    return arith::OrIOp::create(b, loc, acc, value);
  case ReductionKind::all:
    return arith::AndIOp::create(b, loc, acc, value);
  }
  llvm_unreachable("unknown ReductionKind");
}
