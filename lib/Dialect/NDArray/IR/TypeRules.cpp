//===- TypeRules.cpp - numpy type promotion and broadcasting --------------===//

#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imex::ndarray;

std::optional<DTypeKind> imex::ndarray::getDTypeKind(Type type) {
  if (type.isIndex())
    return DTypeKind::Index;
  if (isa<Float16Type, BFloat16Type, Float32Type, Float64Type>(type))
    return DTypeKind::Float;
  if (auto complexType = dyn_cast<ComplexType>(type))
    return isa<Float32Type, Float64Type>(complexType.getElementType())
               ? std::optional(DTypeKind::Complex)
               : std::nullopt;
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return std::nullopt;
  unsigned width = intType.getWidth();
  if (width == 1)
    return intType.isSignless() ? std::optional(DTypeKind::Bool) : std::nullopt;
  if (width != 8 && width != 16 && width != 32 && width != 64)
    return std::nullopt;
  if (intType.isSignless())
    return DTypeKind::SignedInt;
  if (intType.isUnsigned())
    return DTypeKind::UnsignedInt;
  return std::nullopt;
}

bool imex::ndarray::isIntegerType(Type t) {
  std::optional<DTypeKind> kind = getDTypeKind(t);
  return kind == DTypeKind::SignedInt || kind == DTypeKind::UnsignedInt ||
         kind == DTypeKind::Index;
}

Type imex::ndarray::getRealType(Type t) {
  if (auto complexType = dyn_cast<ComplexType>(t))
    return complexType.getElementType();
  return t;
}

Value imex::ndarray::createFloatConstant(OpBuilder &b, Location loc, Type type,
                                         double value) {
  if (auto complexType = dyn_cast<ComplexType>(type)) {
    Type component = complexType.getElementType();
    return complex::ConstantOp::create(
        b, loc, type,
        b.getArrayAttr({b.getFloatAttr(component, value),
                        b.getFloatAttr(component, 0.0)}));
  }
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

static unsigned getWidth(Type t) {
  return t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
}

static Type promoteFloats(Type a, Type b) {
  if (a == b)
    return a;
  // f16 and bf16 have no common 16-bit type.
  if (getWidth(a) == getWidth(b))
    return Float32Type::get(a.getContext());
  return getWidth(a) > getWidth(b) ? a : b;
}

Type imex::ndarray::getFloatTypeFor(Type t) {
  std::optional<DTypeKind> kind = getDTypeKind(t);
  if (!kind)
    return {};
  if (*kind == DTypeKind::Float || *kind == DTypeKind::Complex)
    return t;
  MLIRContext *ctx = t.getContext();
  unsigned width = getWidth(t);
  if (width <= 8)
    return Float16Type::get(ctx);
  if (width == 16)
    return Float32Type::get(ctx);
  return Float64Type::get(ctx);
}

Type imex::ndarray::promoteTypes(Type a, Type b) {
  std::optional<DTypeKind> ka = getDTypeKind(a), kb = getDTypeKind(b);
  if (!ka || !kb)
    return {};
  if (a == b)
    return a;
  if (*ka == DTypeKind::Bool)
    return b;
  if (*kb == DTypeKind::Bool)
    return a;
  if (*ka == DTypeKind::Complex || *kb == DTypeKind::Complex) {
    // The components promote like floats; complex32 does not exist.
    Type component = promoteFloats(getRealType(getFloatTypeFor(a)),
                                   getRealType(getFloatTypeFor(b)));
    if (getWidth(component) < 32)
      component = Float32Type::get(a.getContext());
    return ComplexType::get(component);
  }
  if (*ka == DTypeKind::Float || *kb == DTypeKind::Float)
    return promoteFloats(getFloatTypeFor(a), getFloatTypeFor(b));
  MLIRContext *ctx = a.getContext();
  // Mixed with other integers, index behaves like i64.
  if (*ka == DTypeKind::Index)
    return promoteTypes(IntegerType::get(ctx, 64), b);
  if (*kb == DTypeKind::Index)
    return promoteTypes(a, IntegerType::get(ctx, 64));
  unsigned wa = getWidth(a), wb = getWidth(b);
  if (*ka == *kb)
    return wa >= wb ? a : b;
  // Signed and unsigned: the smallest signed type holding both, f64 if none.
  unsigned signedWidth = *ka == DTypeKind::SignedInt ? wa : wb;
  unsigned unsignedWidth = *ka == DTypeKind::UnsignedInt ? wa : wb;
  if (signedWidth > unsignedWidth)
    return IntegerType::get(ctx, signedWidth);
  if (unsignedWidth == 64)
    return Float64Type::get(ctx);
  return IntegerType::get(ctx, 2 * unsignedWidth);
}

FailureOr<Type> imex::ndarray::inferEWBinElementType(EWBinOpKind kind, Type lhs,
                                                     Type rhs,
                                                     std::string &reason) {
  Type common = promoteTypes(lhs, rhs);
  if (!common) {
    reason = "unsupported element types";
    return failure();
  }
  MLIRContext *ctx = lhs.getContext();
  auto needs = [&](StringRef what) -> FailureOr<Type> {
    reason = llvm::formatv("'{0}' requires {1} operands, got {2} and {3}",
                           stringifyEWBinOpKind(kind), what, lhs, rhs);
    return failure();
  };
  bool complex = isComplexType(common);
  switch (kind) {
  case EWBinOpKind::equal:
  case EWBinOpKind::not_equal:
    return Type(IntegerType::get(ctx, 1));
  case EWBinOpKind::less:
  case EWBinOpKind::less_equal:
  case EWBinOpKind::greater:
  case EWBinOpKind::greater_equal:
  case EWBinOpKind::logical_and:
  case EWBinOpKind::logical_or:
  case EWBinOpKind::logical_xor:
    // Complex numbers have no order (and the array API's logical operators
    // take bool).
    if (complex)
      return needs("real");
    return Type(IntegerType::get(ctx, 1));
  case EWBinOpKind::maximum:
  case EWBinOpKind::minimum:
    if (complex)
      return needs("real");
    return common;
  case EWBinOpKind::add:
  case EWBinOpKind::subtract:
  case EWBinOpKind::multiply:
  case EWBinOpKind::pow:
    if (isBoolType(common))
      return needs("numeric");
    return common;
  case EWBinOpKind::floor_divide:
  case EWBinOpKind::remainder:
    if (isBoolType(common) || complex)
      return needs("real numeric");
    return common;
  case EWBinOpKind::divide:
    return isFloatType(common) || complex ? common
                                          : Type(Float64Type::get(ctx));
  case EWBinOpKind::atan2:
  case EWBinOpKind::hypot:
  case EWBinOpKind::copysign:
  case EWBinOpKind::logaddexp:
  case EWBinOpKind::nextafter:
    if (complex)
      return needs("real");
    return getFloatTypeFor(common);
  case EWBinOpKind::bitwise_and:
  case EWBinOpKind::bitwise_or:
  case EWBinOpKind::bitwise_xor:
    if (isFloatType(common) || complex)
      return needs("integer or bool");
    return common;
  case EWBinOpKind::bitwise_left_shift:
  case EWBinOpKind::bitwise_right_shift:
    if (!isIntegerType(common))
      return needs("integer");
    return common;
  }
  llvm_unreachable("unknown EWBinOpKind");
}

FailureOr<Type> imex::ndarray::inferEWUnyElementType(EWUnyOpKind kind,
                                                     Type source,
                                                     std::string &reason) {
  if (!getDTypeKind(source)) {
    reason = "unsupported element type";
    return failure();
  }
  auto needs = [&](StringRef what) -> FailureOr<Type> {
    reason = llvm::formatv("'{0}' requires {1} operand, got {2}",
                           stringifyEWUnyOpKind(kind), what, source);
    return failure();
  };
  bool complex = isComplexType(source);
  switch (kind) {
  case EWUnyOpKind::isfinite:
  case EWUnyOpKind::isinf:
  case EWUnyOpKind::isnan:
  case EWUnyOpKind::logical_not:
    return Type(IntegerType::get(source.getContext(), 1));
  case EWUnyOpKind::signbit:
    if (complex)
      return needs("a real");
    return Type(IntegerType::get(source.getContext(), 1));
  case EWUnyOpKind::abs:
    if (isBoolType(source))
      return needs("a numeric");
    return getRealType(source);
  case EWUnyOpKind::negative:
  case EWUnyOpKind::positive:
  case EWUnyOpKind::sign:
  case EWUnyOpKind::square:
    if (isBoolType(source))
      return needs("a numeric");
    return source;
  case EWUnyOpKind::round:
    if (isBoolType(source))
      return needs("a numeric");
    return source;
  case EWUnyOpKind::ceil:
  case EWUnyOpKind::floor:
  case EWUnyOpKind::trunc:
    if (isBoolType(source) || complex)
      return needs("a real numeric");
    return source;
  case EWUnyOpKind::bitwise_invert:
    if (isFloatType(source) || complex)
      return needs("an integer or bool");
    return source;
  case EWUnyOpKind::real:
  case EWUnyOpKind::imag:
    return getRealType(source);
  case EWUnyOpKind::conj:
    return source;
  case EWUnyOpKind::erf:
    if (complex)
      return needs("a real");
    return getFloatTypeFor(source);
  case EWUnyOpKind::acos:
  case EWUnyOpKind::acosh:
  case EWUnyOpKind::asin:
  case EWUnyOpKind::asinh:
  case EWUnyOpKind::atan:
  case EWUnyOpKind::atanh:
  case EWUnyOpKind::cos:
  case EWUnyOpKind::cosh:
  case EWUnyOpKind::exp:
  case EWUnyOpKind::expm1:
  case EWUnyOpKind::log:
  case EWUnyOpKind::log1p:
  case EWUnyOpKind::log2:
  case EWUnyOpKind::log10:
  case EWUnyOpKind::sin:
  case EWUnyOpKind::sinh:
  case EWUnyOpKind::sqrt:
  case EWUnyOpKind::tan:
  case EWUnyOpKind::tanh:
    return getFloatTypeFor(source);
  }
  llvm_unreachable("unknown EWUnyOpKind");
}

FailureOr<Type> imex::ndarray::inferReductionElementType(ReductionKind kind,
                                                         Type source,
                                                         std::string &reason) {
  MLIRContext *ctx = source.getContext();
  std::optional<DTypeKind> kindOf = getDTypeKind(source);
  if (!kindOf) {
    reason = "unsupported element type";
    return failure();
  }
  DTypeKind dtype = *kindOf;
  if (dtype == DTypeKind::Complex &&
      (kind == ReductionKind::min || kind == ReductionKind::max ||
       kind == ReductionKind::var || kind == ReductionKind::std)) {
    reason = llvm::formatv("reduction '{0}' requires a real element type, got "
                           "{1}",
                           stringifyReductionKind(kind), source);
    return failure();
  }
  switch (kind) {
  case ReductionKind::sum:
  case ReductionKind::prod:
    if (dtype == DTypeKind::Bool || dtype == DTypeKind::SignedInt)
      return Type(IntegerType::get(ctx, 64));
    if (dtype == DTypeKind::UnsignedInt)
      return Type(IntegerType::get(ctx, 64, IntegerType::Unsigned));
    return source;
  case ReductionKind::min:
  case ReductionKind::max:
    return source;
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std:
    return dtype == DTypeKind::Float || dtype == DTypeKind::Complex
               ? source
               : Type(Float64Type::get(ctx));
  case ReductionKind::any:
  case ReductionKind::all:
    return Type(IntegerType::get(ctx, 1));
  }
  llvm_unreachable("unknown ReductionKind");
}

LogicalResult imex::ndarray::broadcastShapes(ArrayRef<int64_t> a,
                                             ArrayRef<int64_t> b,
                                             SmallVectorImpl<int64_t> &result,
                                             std::string &reason) {
  size_t rank = std::max(a.size(), b.size());
  result.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    // Position counted from the end; missing leading dimensions are 1.
    int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
    int64_t &out = result[rank - 1 - i];
    if (da == 1)
      out = db;
    else if (db == 1)
      out = da;
    else if (ShapedType::isDynamic(da))
      out = db;
    else if (ShapedType::isDynamic(db) || da == db)
      out = da;
    else {
      reason = llvm::formatv("shapes are not broadcast-compatible: size {0} "
                             "vs {1} in dimension -{2} (counted from the end)",
                             da, db, i + 1);
      return failure();
    }
  }
  return success();
}

bool imex::ndarray::isBroadcastableTo(ArrayRef<int64_t> from,
                                      ArrayRef<int64_t> to) {
  if (from.size() > to.size())
    return false;
  ArrayRef<int64_t> aligned = to.take_back(from.size());
  for (auto [f, t] : llvm::zip_equal(from, aligned))
    if (f != 1 && !ShapedType::isDynamic(f) && !ShapedType::isDynamic(t) &&
        f != t)
      return false;
  return true;
}

bool imex::ndarray::isShapeRefinedBy(ArrayRef<int64_t> actual,
                                     ArrayRef<int64_t> inferred) {
  if (actual.size() != inferred.size())
    return false;
  for (auto [a, i] : llvm::zip_equal(actual, inferred))
    if (!ShapedType::isDynamic(a) && a != i)
      return false;
  return true;
}
