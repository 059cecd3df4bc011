//===- NDArrayOps.cpp - ndarray dialect operations ------------------------===//
//
// The ops not defined in CreationOps.cpp, ShapeOps.cpp and SliceOps.cpp,
// the shared helpers (NDArrayOpsUtils.h) and the TableGen'd definitions.
//
//===----------------------------------------------------------------------===//

#include "NDArrayOpsUtils.h"

#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace imex::ndarray;
using namespace imex::ndarray::op_helpers;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Prints a shape as `[2, ?, 4]` for diagnostics.
std::string op_helpers::formatShape(ArrayRef<int64_t> shape) {
  std::string result = "[";
  llvm::raw_string_ostream os(result);
  llvm::interleaveComma(shape, os, [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << "?";
    else
      os << size;
  });
  os << "]";
  return result;
}

/// Verifies that there is one dynamic size operand per dynamic dimension.
LogicalResult op_helpers::verifyDynamicSizes(Operation *op, NDArrayType type,
                                             ValueRange dynamicSizes) {
  int64_t expected = type.getNumDynamicDims();
  if (static_cast<int64_t>(dynamicSizes.size()) != expected)
    return op->emitOpError("expects one size operand per dynamic dimension "
                           "of the result (")
           << expected << "), but got " << dynamicSizes.size();
  return success();
}

/// The constant value of an index operand, if any.
std::optional<int64_t> op_helpers::getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

Value op_helpers::getDynamicSizeOperand(Value value, int64_t dim) {
  NDArrayType type = getArrayType(value);
  if (!type.isDynamicDim(dim))
    return {};
  unsigned pos = type.getDynamicDimIndex(dim);
  Operation *def = value.getDefiningOp();
  if (auto op = dyn_cast_if_present<CreateOp>(def))
    return op.getDynamicSizes()[pos];
  if (auto op = dyn_cast_if_present<ReshapeOp>(def))
    return op.getDynamicSizes()[pos];
  if (auto op = dyn_cast_if_present<BroadcastToOp>(def))
    return op.getDynamicSizes()[pos];
  // Slices keeping every dimension: the slice size (a size folded to a
  // constant after the type was inferred is left to type refinement).
  if (isa_and_present<SubviewOp, ExtractSliceOp>(def)) {
    auto slice = cast<OffsetSizeAndStrideOpInterface>(def);
    if ((int64_t)slice.getMixedSizes().size() == type.getRank())
      return dyn_cast<Value>(slice.getMixedSizes()[dim]);
  }
  return {};
}

/// Whether two shapes agree wherever both are static.
bool op_helpers::areCompatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return isShapeRefinedBy(a, b) || isShapeRefinedBy(b, a) ||
         (a.size() == b.size() &&
          llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
            auto [x, y] = pair;
            return ShapedType::isDynamic(x) || ShapedType::isDynamic(y) ||
                   x == y;
          }));
}

bool imex::ndarray::areCompatibleInferredTypes(TypeRange inferred,
                                               TypeRange actual) {
  if (inferred.size() != actual.size())
    return false;
  for (auto [i, a] : llvm::zip_equal(inferred, actual)) {
    auto inferredArray = dyn_cast<NDArrayType>(i);
    auto actualArray = dyn_cast<NDArrayType>(a);
    if (!inferredArray || !actualArray)
      return i == a;
    if (inferredArray.getElementType() != actualArray.getElementType() ||
        !areCompatibleShapes(inferredArray.getShape(),
                             actualArray.getShape()) ||
        !areCompatibleEnvironments(inferredArray, actualArray))
      return false;
  }
  return true;
}

/// `result` in the environments of a reduction of `source` over
/// `reducedAxes` (EnvironmentAttrInterface::getReducedEnvironment: e.g.
/// renumbered split axes).
static NDArrayType withReducedEnvironments(NDArrayType result,
                                           NDArrayType source,
                                           ArrayRef<int64_t> reducedAxes,
                                           bool keepdims) {
  SmallVector<Attribute> environments;
  for (Attribute env : source.getEnvironments()) {
    auto iface = dyn_cast<EnvironmentAttrInterface>(env);
    environments.push_back(
        iface ? iface.getReducedEnvironment(result, reducedAxes, keepdims)
              : env);
  }
  return result.cloneWithEnvironments(environments);
}

/// Builds the inferred array type of a result computed from `operands`.
static NDArrayType makeInferredType(ArrayRef<int64_t> shape, Type elementType,
                                    ValueRange operands) {
  auto plain = NDArrayType::get(shape, elementType);
  return plain.cloneWithEnvironments(inferResultEnvironments(operands, plain));
}

/// Appends the inferred result type of `shape` to `inferred`, or fails if
/// no array can have that shape (static sizes from huge operands).
LogicalResult op_helpers::addInferredType(std::optional<Location> loc,
                                          SmallVectorImpl<Type> &inferred,
                                          ArrayRef<int64_t> shape,
                                          Type elementType,
                                          ValueRange operands) {
  if (!isValidShape(shape))
    return emitOptionalError(loc, "the result would have more than 2^63 - 1 "
                                  "elements");
  inferred.push_back(makeInferredType(shape, elementType, operands));
  return success();
}

/// Checks that `axes` are sorted, unique and in `[0, bound)`.
LogicalResult op_helpers::verifyAxes(std::optional<Location> loc,
                                     ArrayRef<int64_t> axes, int64_t bound,
                                     StringRef what) {
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= bound)
      return emitOptionalError(loc, what, " axis ", axis,
                               " is out of range [0, ", bound, ")");
    if (i > 0 && axes[i - 1] >= axis)
      return emitOptionalError(loc, what,
                               " axes must be sorted and unique, got ",
                               formatShape(axes));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

bool CastOp::areCastCompatible(TypeRange inputs, TypeRange outputs) {
  if (inputs.size() != 1 || outputs.size() != 1)
    return false;
  auto in = dyn_cast<NDArrayType>(inputs.front());
  auto out = dyn_cast<NDArrayType>(outputs.front());
  if (!in || !out || in.getElementType() != out.getElementType() ||
      !areCompatibleShapes(in.getShape(), out.getShape()))
    return false;
  // The same kinds of environments, each pair equal or compatible (e.g.
  // distributions on the same team known in more or less detail).
  ArrayRef<Attribute> inEnvs = in.getEnvironments(),
                      outEnvs = out.getEnvironments();
  return inEnvs.size() == outEnvs.size() &&
         llvm::all_of(llvm::zip(inEnvs, outEnvs), [&](auto pair) {
           Attribute a = std::get<0>(pair), b = std::get<1>(pair);
           if (a == b)
             return true;
           auto iface = dyn_cast<EnvironmentAttrInterface>(a);
           return iface && a.getTypeID() == b.getTypeID() &&
                  iface.isCompatibleEnvironment(in, b, out);
         });
}

Value CastOp::getViewSource() { return getSource(); }

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto inner = getSource().getDefiningOp<CastOp>()) {
    if (inner.getSource().getType() == getType())
      return inner.getSource();
    if (areCastCompatible(inner.getSource().getType(), getType())) {
      getSourceMutable().assign(inner.getSource());
      return getResult();
    }
  }
  return {};
}

//===----------------------------------------------------------------------===//
// CastElemTypeOp
//===----------------------------------------------------------------------===//

LogicalResult CastElemTypeOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (!areCompatibleShapes(source.getShape(), result.getShape()))
    return emitOpError("result shape ") << formatShape(result.getShape())
                                        << " does not match the source shape "
                                        << formatShape(source.getShape());
  return success();
}

OpFoldResult CastElemTypeOp::fold(FoldAdaptor) {
  if (!getCopy() && getSource().getType() == getType())
    return getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// DimOp
//===----------------------------------------------------------------------===//

void DimOp::build(OpBuilder &builder, OperationState &state, Value source,
                  int64_t index) {
  Value indexValue =
      arith::ConstantIndexOp::create(builder, state.location, index);
  build(builder, state, source, indexValue);
}

Value DimOp::getShapedValue() { return getSource(); }

OpFoldResult DimOp::getDimension() { return getIndex(); }

LogicalResult DimOp::verify() {
  NDArrayType type = getSource().getType();
  if (type.getRank() == 0)
    return emitOpError("cannot take a dimension of a 0-d array");
  if (std::optional<int64_t> index = getConstantIndex(getIndex()))
    if (*index < 0 || *index >= type.getRank())
      return emitOpError("dimension index ")
             << *index << " is out of range for an array of rank "
             << type.getRank();
  return success();
}

OpFoldResult DimOp::fold(FoldAdaptor adaptor) {
  auto index = dyn_cast_if_present<IntegerAttr>(adaptor.getIndex());
  NDArrayType type = getSource().getType();
  if (!index || index.getInt() < 0 || index.getInt() >= type.getRank())
    return {};
  int64_t dim = index.getInt();
  if (!type.isDynamicDim(dim))
    return IntegerAttr::get(IndexType::get(getContext()), type.getDimSize(dim));
  if (Value size = getDynamicSizeOperand(getSource(), dim))
    return size;
  if (auto cast = getSource().getDefiningOp<CastOp>()) {
    getSourceMutable().assign(cast.getSource());
    return getResult();
  }
  if (auto insert = getSource().getDefiningOp<ImmutableInsertSliceOp>()) {
    getSourceMutable().assign(insert.getDestination());
    return getResult();
  }
  // A wrapped memref whose sizes are given (memref.reinterpret_cast).
  if (auto fromMemRef = getSource().getDefiningOp<FromMemRefOp>())
    if (auto sized = fromMemRef.getSource()
                         .getDefiningOp<OffsetSizeAndStrideOpInterface>())
      if (static_cast<int64_t>(sized.getMixedSizes().size()) == type.getRank())
        return sized.getMixedSizes()[dim];
  return {};
}

//===----------------------------------------------------------------------===//
// LoadOp
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  NDArrayType type = getArray().getType();
  if (static_cast<int64_t>(getIndices().size()) != type.getRank())
    return emitOpError("expects ")
           << type.getRank() << " indices, one per dimension, but got "
           << getIndices().size();
  for (auto [dim, index] : llvm::enumerate(getIndices())) {
    std::optional<int64_t> constant = getConstantIndex(index);
    if (!constant)
      continue;
    int64_t size = type.getDimSize(dim);
    if (*constant < 0 || (!ShapedType::isDynamic(size) && *constant >= size))
      return emitOpError("index ")
             << *constant << " is out of bounds for dimension " << dim
             << " of size " << size;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// EWBinOp, EWUnyOp, WhereOp
//===----------------------------------------------------------------------===//

LogicalResult EWBinOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  NDArrayType lhs = getArrayType(adaptor.getLhs());
  NDArrayType rhs = getArrayType(adaptor.getRhs());
  std::string reason;
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(lhs.getShape(), rhs.getShape(), shape, reason)))
    return emitOptionalError(loc, reason);
  FailureOr<Type> element = inferEWBinElementType(
      adaptor.getKind(), lhs.getElementType(), rhs.getElementType(), reason);
  if (failed(element))
    return emitOptionalError(loc, reason);
  if (failed(addInferredType(loc, inferred, shape, *element,
                             adaptor.getOperands())))
    return failure();
  return success();
}

LogicalResult EWUnyOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  std::string reason;
  FailureOr<Type> element =
      inferEWUnyElementType(adaptor.getKind(), source.getElementType(), reason);
  if (failed(element))
    return emitOptionalError(loc, reason);
  if (failed(addInferredType(loc, inferred, source.getShape(), *element,
                             adaptor.getOperands())))
    return failure();
  return success();
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  NDArrayType cond = getArrayType(adaptor.getCondition());
  NDArrayType x = getArrayType(adaptor.getX());
  NDArrayType y = getArrayType(adaptor.getY());
  if (!isBoolType(cond.getElementType()))
    return emitOptionalError(loc, "condition must have element type i1, got ",
                             cond.getElementType());
  std::string reason;
  SmallVector<int64_t> xy, shape;
  if (failed(broadcastShapes(x.getShape(), y.getShape(), xy, reason)) ||
      failed(broadcastShapes(cond.getShape(), xy, shape, reason)))
    return emitOptionalError(loc, reason);
  Type element = promoteTypes(x.getElementType(), y.getElementType());
  if (failed(addInferredType(loc, inferred, shape, element,
                             adaptor.getOperands())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ReductionOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ReductionOp::getReducedAxes() {
  if (std::optional<ArrayRef<int64_t>> axes = getAxes())
    return SmallVector<int64_t>(*axes);
  return llvm::to_vector(
      llvm::seq<int64_t>(0, getSource().getType().getRank()));
}

LogicalResult ReductionOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ReductionKind kind = adaptor.getKind();
  std::optional<ArrayRef<int64_t>> axes = adaptor.getAxes();
  if (axes && failed(verifyAxes(loc, *axes, source.getRank(), "reduction")))
    return failure();
  if (FloatAttr correction = adaptor.getCorrectionAttr()) {
    if (kind != ReductionKind::var && kind != ReductionKind::std)
      return emitOptionalError(loc,
                               "correction is only valid for var and "
                               "std, not ",
                               stringifyReductionKind(kind));
    if (correction.getValueAsDouble() < 0)
      return emitOptionalError(loc, "correction must be non-negative, got ",
                               correction.getValueAsDouble());
  }
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    bool reduced = !axes || llvm::is_contained(*axes, dim);
    if (!reduced)
      shape.push_back(size);
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  std::string reason;
  FailureOr<Type> element =
      inferReductionElementType(kind, source.getElementType(), reason);
  if (failed(element))
    return emitOptionalError(loc, reason);
  if (failed(addInferredType(loc, inferred, shape, *element,
                             adaptor.getOperands())))
    return failure();
  inferred.back() = withReducedEnvironments(
      cast<NDArrayType>(inferred.back()), source,
      axes ? SmallVector<int64_t>(*axes)
           : llvm::to_vector(llvm::seq<int64_t>(0, source.getRank())),
      adaptor.getKeepdims());
  return success();
}

//===----------------------------------------------------------------------===//
// FlipOp
//===----------------------------------------------------------------------===//

LogicalResult FlipOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  if (failed(verifyAxes(loc, adaptor.getAxes(), source.getRank(), "flip")))
    return failure();
  return addInferredType(loc, inferred, source.getShape(),
                         source.getElementType(), adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// SortOp, ArgSortOp
//===----------------------------------------------------------------------===//

/// The type of a sort along `axis` of `source` with `element` elements.
static LogicalResult inferSortType(std::optional<Location> loc,
                                   NDArrayType source, int64_t axis,
                                   Type element, ValueRange operands,
                                   SmallVectorImpl<Type> &inferred) {
  if (source.getRank() == 0)
    return emitOptionalError(loc, "cannot sort a 0-d array");
  if (isComplexType(source.getElementType()))
    return emitOptionalError(loc, "cannot sort complex numbers (",
                             source.getElementType(), "): they have no order");
  if (axis < 0 || axis >= source.getRank())
    return emitOptionalError(loc, "sort axis ", axis, " is out of range [0, ",
                             source.getRank(), ")");
  return addInferredType(loc, inferred, source.getShape(), element, operands);
}

LogicalResult SortOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  return inferSortType(loc, source, adaptor.getAxis(), source.getElementType(),
                       adaptor.getOperands(), inferred);
}

LogicalResult ArgSortOp::inferReturnTypes(MLIRContext *context,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  return inferSortType(loc, getArrayType(adaptor.getSource()),
                       adaptor.getAxis(), IntegerType::get(context, 64),
                       adaptor.getOperands(), inferred);
}

//===----------------------------------------------------------------------===//
// SearchSortedOp
//===----------------------------------------------------------------------===//

LogicalResult
SearchSortedOp::inferReturnTypes(MLIRContext *context,
                                 std::optional<Location> loc, Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  NDArrayType sorted = getArrayType(adaptor.getSorted());
  NDArrayType values = getArrayType(adaptor.getValues());
  if (sorted.getRank() != 1)
    return emitOptionalError(loc, "the sorted array must be 1-d, got rank ",
                             sorted.getRank());
  if (isComplexType(sorted.getElementType()))
    return emitOptionalError(loc, "searchsorted of complex numbers (",
                             sorted.getElementType(), "): they have no order");
  if (sorted.getElementType() != values.getElementType())
    return emitOptionalError(loc, "the sorted array (", sorted.getElementType(),
                             ") and the values (", values.getElementType(),
                             ") must have the same element type");
  return addInferredType(loc, inferred, values.getShape(),
                         IntegerType::get(context, 64),
                         ValueRange{adaptor.getValues()});
}

//===----------------------------------------------------------------------===//
// Integer-array indexing (TakeOp, PutOp)
//===----------------------------------------------------------------------===//

/// The shape of `array` indexed along `axis` by the 1-d integer array
/// `indices` (dimension `axis` replaced by the number of indices).
static FailureOr<SmallVector<int64_t>>
getIndexedShape(std::optional<Location> loc, StringRef opName,
                NDArrayType array, Value indices, int64_t axis) {
  NDArrayType indexType = getArrayType(indices);
  if (indexType.getRank() != 1 || !indexType.getElementType().isIntOrIndex() ||
      indexType.getElementType().isInteger(1))
    return emitOptionalError(loc,
                             "the indices must be a 1-d integer array, "
                             "got ",
                             Type(indexType));
  if (axis < 0 || axis >= array.getRank())
    return emitOptionalError(loc, opName, " axis ", axis,
                             " is out of range [0, ", array.getRank(), ")");
  SmallVector<int64_t> shape(array.getShape());
  shape[axis] = indexType.getDimSize(0);
  return shape;
}

//===----------------------------------------------------------------------===//
// TakeOp
//===----------------------------------------------------------------------===//

LogicalResult TakeOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  FailureOr<SmallVector<int64_t>> shape = getIndexedShape(
      loc, "take", source, adaptor.getIndices(), adaptor.getAxis());
  if (failed(shape))
    return failure();
  return addInferredType(loc, inferred, *shape, source.getElementType(),
                         adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// PutOp
//===----------------------------------------------------------------------===//

LogicalResult PutOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  NDArrayType destination = getArrayType(adaptor.getDestination());
  NDArrayType values = getArrayType(adaptor.getValues());
  int64_t axis = adaptor.getAxis();
  FailureOr<SmallVector<int64_t>> taken =
      getIndexedShape(loc, "put", destination, adaptor.getIndices(), axis);
  if (failed(taken))
    return failure();
  if (values.getElementType() != destination.getElementType() ||
      !areCompatibleShapes(values.getShape(), *taken))
    return emitOptionalError(
        loc, "the values must have the shape ", formatShape(*taken),
        " and element type ", destination.getElementType(),
        " (one element per index along axis ", axis, "), got ", Type(values));
  return addInferredType(loc, inferred, destination.getShape(),
                         destination.getElementType(), adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// MaskedSelectOp
//===----------------------------------------------------------------------===//

LogicalResult
MaskedSelectOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                 Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  NDArrayType mask = getArrayType(adaptor.getMask());
  if (!mask.getElementType().isInteger(1))
    return emitOptionalError(loc, "the mask must have i1 elements, got ",
                             mask.getElementType());
  int64_t k = mask.getRank();
  if (k == 0 || k > source.getRank())
    return emitOptionalError(loc, "the mask must have rank 1 to ",
                             source.getRank(), " (the array's rank), got ", k);
  ArrayRef<int64_t> leading = source.getShape().take_front(k);
  for (auto [m, a] : llvm::zip(mask.getShape(), leading))
    if (!ShapedType::isDynamic(m) && !ShapedType::isDynamic(a) && m != a)
      return emitOptionalError(loc, "the mask of shape ",
                               formatShape(mask.getShape()),
                               " does not match the leading dimensions ",
                               formatShape(leading), " of the array");
  SmallVector<int64_t> shape{ShapedType::kDynamic};
  llvm::append_range(shape, source.getShape().drop_front(k));
  return addInferredType(loc, inferred, shape, source.getElementType(),
                         adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// ArgReduceOp
//===----------------------------------------------------------------------===//

SmallVector<int64_t> ArgReduceOp::getReducedAxes() {
  if (std::optional<int64_t> axis = getAxis())
    return {*axis};
  return llvm::to_vector(llvm::seq<int64_t>(
      0, cast<NDArrayType>(getSource().getType()).getRank()));
}

LogicalResult ArgReduceOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ReductionKind kind = adaptor.getKind();
  if (kind != ReductionKind::max && kind != ReductionKind::min)
    return emitOptionalError(loc, "argreduce ", stringifyReductionKind(kind),
                             " is not supported: max or min");
  if (isComplexType(source.getElementType()))
    return emitOptionalError(loc, "argreduce of complex numbers (",
                             source.getElementType(), "): they have no order");
  std::optional<int64_t> axis = adaptor.getAxis();
  if (axis && (*axis < 0 || *axis >= source.getRank()))
    return emitOptionalError(loc, "argreduce axis ", *axis,
                             " is out of range [0, ", source.getRank(), ")");
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    bool reduced = !axis || *axis == static_cast<int64_t>(dim);
    if (reduced && size == 0)
      return emitOptionalError(loc, "attempt to get arg",
                               stringifyReductionKind(kind),
                               " of an empty sequence");
    if (!reduced)
      shape.push_back(size);
    else if (adaptor.getKeepdims())
      shape.push_back(1);
  }
  if (failed(addInferredType(loc, inferred, shape,
                             IntegerType::get(context, 64),
                             adaptor.getOperands())))
    return failure();
  inferred.back() = withReducedEnvironments(
      cast<NDArrayType>(inferred.back()), source,
      axis ? SmallVector<int64_t>{*axis}
           : llvm::to_vector(llvm::seq<int64_t>(0, source.getRank())),
      adaptor.getKeepdims());
  return success();
}

//===----------------------------------------------------------------------===//
// CumulativeOp
//===----------------------------------------------------------------------===//

LogicalResult CumulativeOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ReductionKind kind = adaptor.getKind();
  if (kind != ReductionKind::sum && kind != ReductionKind::prod)
    return emitOptionalError(loc, "cumulative ", stringifyReductionKind(kind),
                             " is not supported: sum or prod");
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= source.getRank())
    return emitOptionalError(loc, "cumulative axis ", axis,
                             " is out of range [0, ", source.getRank(), ")");
  SmallVector<int64_t> shape(source.getShape());
  if (adaptor.getIncludeInitial() && !ShapedType::isDynamic(shape[axis]))
    ++shape[axis];
  std::string reason;
  FailureOr<Type> element =
      inferReductionElementType(kind, source.getElementType(), reason);
  if (failed(element))
    return emitOptionalError(loc, reason);
  return addInferredType(loc, inferred, shape, *element, adaptor.getOperands());
}

//===----------------------------------------------------------------------===//
// MatMulOp
//===----------------------------------------------------------------------===//

LogicalResult MatMulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  NDArrayType lhs = getArrayType(adaptor.getLhs());
  NDArrayType rhs = getArrayType(adaptor.getRhs());
  if (lhs.getRank() == 0 || rhs.getRank() == 0)
    return emitOptionalError(loc, "matmul operands must have rank >= 1");
  // numpy: a 1-d lhs is a row vector, a 1-d rhs a column vector.
  SmallVector<int64_t> a(lhs.getShape()), b(rhs.getShape());
  if (lhs.getRank() == 1)
    a.insert(a.begin(), 1);
  if (rhs.getRank() == 1)
    b.push_back(1);
  int64_t ka = a.back(), kb = b[b.size() - 2];
  if (!ShapedType::isDynamic(ka) && !ShapedType::isDynamic(kb) && ka != kb)
    return emitOptionalError(loc, "matmul contraction sizes differ: ", ka,
                             " vs ", kb);
  std::string reason;
  SmallVector<int64_t> shape;
  if (failed(broadcastShapes(ArrayRef(a).drop_back(2), ArrayRef(b).drop_back(2),
                             shape, reason)))
    return emitOptionalError(loc, "matmul batch dimensions: ", reason);
  if (lhs.getRank() > 1)
    shape.push_back(a[a.size() - 2]);
  if (rhs.getRank() > 1)
    shape.push_back(b.back());
  Type element = promoteTypes(lhs.getElementType(), rhs.getElementType());
  if (failed(addInferredType(loc, inferred, shape, element,
                             adaptor.getOperands())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitOptionalError(loc, "concat needs at least one input");
  NDArrayType first = getArrayType(inputs.front());
  int64_t rank = first.getRank(), axis = adaptor.getAxis();
  if (rank == 0)
    return emitOptionalError(loc, "cannot concatenate 0-d arrays");
  if (axis >= rank)
    return emitOptionalError(loc, "concat axis ", axis,
                             " is out of range for arrays of rank ", rank);
  SmallVector<int64_t> shape(first.getShape());
  Type element = first.getElementType();
  for (Value input : inputs.drop_front()) {
    NDArrayType type = getArrayType(input);
    if (type.getRank() != rank)
      return emitOptionalError(loc,
                               "concat inputs must have the same rank, "
                               "got ",
                               rank, " and ", type.getRank());
    element = promoteTypes(element, type.getElementType());
    for (int64_t dim = 0; dim < rank; ++dim) {
      int64_t size = type.getDimSize(dim);
      int64_t &out = shape[dim];
      if (dim == axis) {
        if (ShapedType::isDynamic(out) || ShapedType::isDynamic(size)) {
          out = ShapedType::kDynamic;
          continue;
        }
        std::optional<int64_t> sum = llvm::checkedAdd(out, size);
        if (!sum)
          return emitOptionalError(loc, "concatenated size along axis ", axis,
                                   " overflows");
        out = *sum;
      } else if (ShapedType::isDynamic(out)) {
        out = size;
      } else if (!ShapedType::isDynamic(size) && size != out) {
        return emitOptionalError(loc, "concat inputs differ in dimension ", dim,
                                 ": ", out, " vs ", size);
      }
    }
  }
  if (failed(addInferredType(loc, inferred, shape, element, inputs)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// TableGen'd op definitions
//===----------------------------------------------------------------------===//

#define GET_OP_CLASSES
#include "imex/Dialect/NDArray/IR/NDArrayOps.cpp.inc"
