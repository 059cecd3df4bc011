//===- NDArrayOps.cpp - ndarray dialect operations ------------------------===//

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

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static NDArrayType getArrayType(Value value) {
  return cast<NDArrayType>(value.getType());
}

/// Prints a shape as `[2, ?, 4]` for diagnostics.
static std::string formatShape(ArrayRef<int64_t> shape) {
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
static LogicalResult verifyDynamicSizes(Operation *op, NDArrayType type,
                                        ValueRange dynamicSizes) {
  int64_t expected = type.getNumDynamicDims();
  if (static_cast<int64_t>(dynamicSizes.size()) != expected)
    return op->emitOpError("expects one size operand per dynamic dimension "
                           "of the result (")
           << expected << "), but got " << dynamicSizes.size();
  return success();
}

/// The constant value of an index operand, if any.
static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  return std::nullopt;
}

/// The operand giving the size of dynamic dimension `dim` of `value`, for
/// ops whose dynamic result sizes are operands.
static Value getDynamicSizeOperand(Value value, int64_t dim) {
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
static bool areCompatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
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
        !areCompatibleEnvironments(inferredArray.getEnvironments(),
                                   actualArray.getEnvironments()))
      return false;
  }
  return true;
}

/// Builds the inferred array type of a result computed from `operands`.
static NDArrayType makeInferredType(ArrayRef<int64_t> shape, Type elementType,
                                    ValueRange operands) {
  auto plain = NDArrayType::get(shape, elementType);
  return plain.cloneWithEnvironments(inferResultEnvironments(operands, plain));
}

/// Appends the inferred result type of `shape` to `inferred`, or fails if
/// no array can have that shape (static sizes from huge operands).
static LogicalResult addInferredType(std::optional<Location> loc,
                                     SmallVectorImpl<Type> &inferred,
                                     ArrayRef<int64_t> shape, Type elementType,
                                     ValueRange operands) {
  if (!isValidShape(shape))
    return emitOptionalError(loc, "the result would have more than 2^63 - 1 "
                                  "elements");
  inferred.push_back(makeInferredType(shape, elementType, operands));
  return success();
}

/// Checks that `axes` are sorted, unique and in `[0, bound)`.
static LogicalResult verifyAxes(std::optional<Location> loc,
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
// Shared patterns
//===----------------------------------------------------------------------===//

namespace {
/// Makes dynamic result sizes given by constant operands static and casts
/// the new result back to the old type.
template <typename OpTy>
struct FoldConstantDynamicSizes : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    NDArrayType oldType = op.getType();
    SmallVector<int64_t> shape(oldType.getShape());
    SmallVector<Value> remaining;
    auto dynamicSizes = op.getDynamicSizes().begin();
    for (int64_t &size : shape) {
      if (!ShapedType::isDynamic(size))
        continue;
      Value operand = *dynamicSizes++;
      std::optional<int64_t> constant = getConstantIndex(operand);
      if (constant && *constant >= 0)
        size = *constant;
      else
        remaining.push_back(operand);
    }
    NDArrayType newType = cloneWithShapeIfValid(oldType, shape);
    if (remaining.size() == op.getDynamicSizes().size() || !newType)
      return failure();
    auto newOp = cast<OpTy>(rewriter.clone(*op));
    newOp.getDynamicSizesMutable().assign(remaining);
    newOp.getResult().setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp.getResult());
    return success();
  }
};

/// Folds the constant operands of `ofrs` that are at least `min` into
/// attributes. Smaller ones stay operands: they would make an invalid op (the
/// constant may be in code that is dead at run time), and ShapedType::kDynamic
/// itself would read as a missing operand.
static bool foldConstantIndices(SmallVectorImpl<OpFoldResult> &ofrs,
                                int64_t min) {
  bool changed = false;
  for (OpFoldResult &ofr : ofrs) {
    auto value = dyn_cast<Value>(ofr);
    std::optional<int64_t> constant =
        value ? getConstantIndex(value) : std::nullopt;
    if (!constant || *constant < min || ShapedType::isDynamic(*constant))
      continue;
    ofr = IntegerAttr::get(IndexType::get(value.getContext()), *constant);
    changed = true;
  }
  return changed;
}

/// The mixed offsets, sizes and strides of a slice op with its constant
/// operands folded, or failure if none folds or the folded op would be out
/// of bounds.
struct FoldedSliceArguments {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};
static FailureOr<FoldedSliceArguments>
foldConstantSliceArguments(OffsetSizeAndStrideOpInterface op,
                           NDArrayType sliced) {
  FoldedSliceArguments folded{op.getMixedOffsets(), op.getMixedSizes(),
                              op.getMixedStrides()};
  bool changed = foldConstantIndices(folded.offsets, 0);
  changed |= foldConstantIndices(folded.sizes, 0);
  changed |= foldConstantIndices(folded.strides, 1);
  if (!changed)
    return failure();
  SmallVector<int64_t> offsets, sizes, strides;
  SmallVector<Value> unused;
  dispatchIndexOpFoldResults(folded.offsets, unused, offsets);
  dispatchIndexOpFoldResults(folded.sizes, unused, sizes);
  dispatchIndexOpFoldResults(folded.strides, unused, strides);
  if (failed(verifySliceBounds(nullptr, sliced.getShape(), offsets, sizes,
                               strides)))
    return failure();
  return folded;
}

/// Folds constant offsets, sizes and strides of an insert into static ones.
template <typename OpTy>
struct FoldConstantInsertArguments : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<FoldedSliceArguments> folded =
        foldConstantSliceArguments(op, op.getSlicedType());
    if (failed(folded))
      return failure();
    SmallVector<Value> dynOffsets, dynSizes, dynStrides;
    SmallVector<int64_t> staticOffsets, staticSizes, staticStrides;
    dispatchIndexOpFoldResults(folded->offsets, dynOffsets, staticOffsets);
    dispatchIndexOpFoldResults(folded->sizes, dynSizes, staticSizes);
    dispatchIndexOpFoldResults(folded->strides, dynStrides, staticStrides);
    rewriter.modifyOpInPlace(op, [&] {
      op.getOffsetsMutable().assign(dynOffsets);
      op.getSizesMutable().assign(dynSizes);
      op.getStridesMutable().assign(dynStrides);
      op.setStaticOffsets(staticOffsets);
      op.setStaticSizes(staticSizes);
      op.setStaticStrides(staticStrides);
    });
    return success();
  }
};

/// Inserts the more static source of an `ndarray.cast` directly.
template <typename OpTy>
struct FoldSourceCastIntoInsert : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto cast = op.getSource().template getDefiningOp<CastOp>();
    if (!cast ||
        !isShapeRefinedBy(cast.getType().getShape(),
                          cast.getSource().getType().getShape()) ||
        !isBroadcastableTo(cast.getSource().getType().getShape(),
                           op.getStaticSizes()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getSourceMutable().assign(cast.getSource()); });
    return success();
  }
};

/// For ops with inferred result types: adopts static sizes the inference
/// knows but the declared result type does not, casting back to the old type.
struct RefineInferredResultType : public RewritePattern {
  RefineInferredResultType(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto inferOp = dyn_cast<InferTypeOpInterface>(op);
    if (!inferOp || !isa<NDArrayDialect>(op->getDialect()) ||
        op->getNumResults() != 1)
      return failure();
    auto oldType = dyn_cast<NDArrayType>(op->getResult(0).getType());
    SmallVector<Type> inferred;
    if (!oldType || failed(inferOp.inferReturnTypes(
                        op->getContext(), std::nullopt, op->getOperands(),
                        op->getRawDictionaryAttrs(), op->getPropertiesStorage(),
                        op->getRegions(), inferred)))
      return failure();
    SmallVector<int64_t> shape(oldType.getShape());
    bool changed = false;
    ArrayRef<int64_t> inferredShape = cast<NDArrayType>(inferred[0]).getShape();
    if (inferredShape.size() != shape.size())
      return failure();
    for (auto [size, known] : llvm::zip_equal(shape, inferredShape)) {
      if (ShapedType::isDynamic(size) && !ShapedType::isDynamic(known)) {
        size = known;
        changed = true;
      }
    }
    if (!changed)
      return failure();
    // (Sizes known from different sources may not fit together, e.g. in
    // code that is dead at run time.)
    NDArrayType newType = cloneWithShapeIfValid(oldType, shape);
    if (!newType)
      return failure();
    Operation *newOp = rewriter.clone(*op);
    newOp->getResult(0).setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp->getResult(0));
    return success();
  }
};

/// For ops with inferred result types: uses the more static source of an
/// `ndarray.cast` operand directly.
struct FoldCastIntoInferredOp : public RewritePattern {
  FoldCastIntoInferredOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto inferOp = dyn_cast<InferTypeOpInterface>(op);
    if (!inferOp || !isa<NDArrayDialect>(op->getDialect()))
      return failure();
    SmallVector<Value> operands(op->getOperands());
    bool changed = false;
    for (Value &operand : operands) {
      auto cast = operand.getDefiningOp<CastOp>();
      if (cast && isShapeRefinedBy(cast.getType().getShape(),
                                   cast.getSource().getType().getShape())) {
        operand = cast.getSource();
        changed = true;
      }
    }
    // The more static operands must still give a valid op (a size mismatch
    // that was a run-time error must not become invalid IR).
    SmallVector<Type> inferred;
    if (!changed ||
        failed(inferOp.inferReturnTypes(op->getContext(), std::nullopt,
                                        operands, op->getRawDictionaryAttrs(),
                                        op->getPropertiesStorage(),
                                        op->getRegions(), inferred)) ||
        !inferOp.isCompatibleReturnTypes(inferred, op->getResultTypes()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op->setOperands(operands); });
    return success();
  }
};
} // namespace

namespace {
/// A subview of a memref with a static empty dimension is empty: replace it
/// by a reinterpretation of the source before upstream folding turns its
/// (necessarily unused) offsets into static values out of the bounds of the
/// empty dimension, which the subview verifier rejects. Empty arrays (ranks
/// owning no rows, empty halos) produce such subviews after bufferization.
struct EmptyMemRefSubview : public OpRewritePattern<memref::SubViewOp> {
  EmptyMemRefSubview(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/10) {}
  LogicalResult matchAndRewrite(memref::SubViewOp op,
                                PatternRewriter &rewriter) const override {
    MemRefType source = op.getSourceType(), result = op.getType();
    if (!llvm::is_contained(source.getShape(), 0) ||
        source.getRank() != result.getRank())
      return failure();
    int64_t offset;
    SmallVector<int64_t> strides;
    if (failed(result.getStridesAndOffset(strides, offset)))
      return failure();
    Location loc = op.getLoc();
    // No element is ever accessed: any offset and strides of the right
    // static/dynamic kind do.
    auto fold = [&](int64_t value) -> OpFoldResult {
      if (!ShapedType::isDynamic(value))
        return rewriter.getIndexAttr(value);
      return arith::ConstantIndexOp::create(rewriter, loc, 0).getResult();
    };
    SmallVector<OpFoldResult> resultStrides =
        llvm::map_to_vector(strides, fold);
    rewriter.replaceOpWithNewOp<memref::ReinterpretCastOp>(
        op, result, op.getSource(), fold(offset), op.getMixedSizes(),
        resultStrides);
    return success();
  }
};
} // namespace

namespace {
/// `andi(cmpi p a b, cmpi !p a b)` is false and `ori` of them true. The
/// broadcasting checks of lowered ndarray ops build such pairs (`size == 1
/// and target != 1`) that become complementary once the sizes are known
/// equal; folding them removes the broadcasting branches, which would
/// otherwise block elementwise fusion.
template <typename OpTy>
struct ComplementaryComparisons : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().template getDefiningOp<arith::CmpIOp>();
    auto rhs = op.getRhs().template getDefiningOp<arith::CmpIOp>();
    if (!lhs || !rhs || lhs.getLhs() != rhs.getLhs() ||
        lhs.getRhs() != rhs.getRhs() ||
        arith::invertPredicate(lhs.getPredicate()) != rhs.getPredicate())
      return failure();
    bool value = std::is_same_v<OpTy, arith::OrIOp>;
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, op.getType(), rewriter.getIntegerAttr(op.getType(), value));
    return success();
  }
};
} // namespace

void NDArrayDialect::getCanonicalizationPatterns(
    RewritePatternSet &results) const {
  results.add<ComplementaryComparisons<arith::AndIOp>,
              ComplementaryComparisons<arith::OrIOp>>(getContext());
  results.add<RefineInferredResultType, FoldCastIntoInferredOp>(getContext());
  // Lowered ndarray code needs this; see the pattern.
  results.add<EmptyMemRefSubview>(getContext());
}

//===----------------------------------------------------------------------===//
// CreateOp
//===----------------------------------------------------------------------===//

LogicalResult CreateOp::verify() {
  return verifyDynamicSizes(*this, getType(), getDynamicSizes());
}

void CreateOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<CreateOp>>(context);
}

//===----------------------------------------------------------------------===//
// RandomOp
//===----------------------------------------------------------------------===//

LogicalResult RandomOp::verify() {
  Type element = getType().getElementType();
  if (!element.isF32() && !element.isF64())
    return emitOpError("random numbers are f32 or f64, not ") << element;
  return verifyDynamicSizes(*this, getType(), getDynamicSizes());
}

void RandomOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<RandomOp>>(context);
}

//===----------------------------------------------------------------------===//
// TriOp
//===----------------------------------------------------------------------===//

LogicalResult TriOp::verify() {
  NDArrayType type = getType();
  if (type.getRank() != 2)
    return emitOpError("result must be 2-d, got ") << type;
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat())
    return emitOpError("result elements must be numbers or i1, not ")
           << element;
  return verifyDynamicSizes(*this, type, getDynamicSizes());
}

void TriOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<TriOp>>(context);
}

//===----------------------------------------------------------------------===//
// LinSpaceOp
//===----------------------------------------------------------------------===//

LogicalResult LinSpaceOp::verify() {
  NDArrayType type = getType();
  if (type.getRank() != 1)
    return emitOpError("result must be 1-d, got ") << type;
  if (isComplexType(getStart().getType()) ||
      isComplexType(type.getElementType()))
    return emitOpError("complex endpoints or elements are not supported");
  if (std::optional<int64_t> num = getConstantIndex(getNum())) {
    if (*num < 0)
      return emitOpError("number of elements must be non-negative, got ")
             << *num;
    if (!type.isDynamicDim(0) && type.getDimSize(0) != *num)
      return emitOpError("result has ")
             << type.getDimSize(0) << " elements but num is " << *num;
  }
  return success();
}

namespace {
struct FoldConstantLinSpaceNum : public OpRewritePattern<LinSpaceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LinSpaceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> num = getConstantIndex(op.getNum());
    NDArrayType oldType = op.getType();
    if (!num || *num < 0 || !oldType.isDynamicDim(0))
      return failure();
    NDArrayType newType = cloneWithShapeIfValid(oldType, {*num});
    if (!newType)
      return failure();
    auto newOp = cast<LinSpaceOp>(rewriter.clone(*op));
    newOp.getResult().setType(newType);
    rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp.getResult());
    return success();
  }
};
} // namespace

void LinSpaceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<FoldConstantLinSpaceNum>(context);
}

//===----------------------------------------------------------------------===//
// CopyOp, FromMemRefOp, ToTensorOp
//===----------------------------------------------------------------------===//

LogicalResult CopyOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (source.getElementType() != result.getElementType() ||
      !areCompatibleShapes(source.getShape(), result.getShape()))
    return emitOpError("result ")
           << result << " must have the shape and element type of the source "
           << source;
  return success();
}

LogicalResult FromMemRefOp::verify() {
  NDArrayType result = getType();
  auto source = cast<ShapedType>(getSource().getType());
  if (source.getElementType() != result.getElementType())
    return emitOpError("element types of the memref and the array differ: ")
           << source.getElementType() << " vs " << result.getElementType();
  if (source.hasRank() && source.getShape() != result.getShape())
    return emitOpError("shapes of the memref and the array differ: ")
           << formatShape(source.getShape()) << " vs "
           << formatShape(result.getShape());
  return success();
}

LogicalResult ToTensorOp::verify() {
  NDArrayType source = getArray().getType();
  if (getType() != source.getTensorType())
    return emitOpError("result must be ") << source.getTensorType();
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
         llvm::all_of(llvm::zip(inEnvs, outEnvs), [](auto pair) {
           Attribute a = std::get<0>(pair), b = std::get<1>(pair);
           if (a == b)
             return true;
           auto iface = dyn_cast<EnvironmentAttrInterface>(a);
           return iface && a.getTypeID() == b.getTypeID() &&
                  iface.isCompatibleEnvironment(b);
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
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (failed(verifyDynamicSizes(*this, result, getDynamicSizes())))
    return failure();
  if (source.getElementType() != result.getElementType())
    return emitOpError("reshape cannot change the element type");
  if (source.hasStaticShape() && result.hasStaticShape() &&
      source.getNumElements() != result.getNumElements())
    return emitOpError("cannot reshape ")
           << source.getNumElements() << " elements "
           << formatShape(source.getShape()) << " into "
           << result.getNumElements() << " elements "
           << formatShape(result.getShape());
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getCopy())
    return {};
  NDArrayType type = getType();
  if (type.hasStaticShape() && getSource().getType() == type)
    return getSource();
  if (auto inner = getSource().getDefiningOp<ReshapeOp>()) {
    if (!inner.getCopy()) {
      getSourceMutable().assign(inner.getSource());
      return getResult();
    }
  }
  return {};
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<ReshapeOp>>(context);
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  NDArrayType source = getSource().getType(), result = getType();
  if (failed(verifyDynamicSizes(*this, result, getDynamicSizes())))
    return failure();
  if (source.getElementType() != result.getElementType())
    return emitOpError("broadcast cannot change the element type");
  if (!isBroadcastableTo(source.getShape(), result.getShape()))
    return emitOpError("cannot broadcast shape ")
           << formatShape(source.getShape()) << " to "
           << formatShape(result.getShape())
           << " (dimensions are aligned at the end; each must be 1 or equal "
              "to the target)";
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  if (getType().hasStaticShape() && getSource().getType() == getType())
    return getSource();
  return {};
}

void BroadcastToOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                MLIRContext *context) {
  results.add<FoldConstantDynamicSizes<BroadcastToOp>>(context);
}

//===----------------------------------------------------------------------===//
// PermuteDimsOp
//===----------------------------------------------------------------------===//

LogicalResult PermuteDimsOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> perm = adaptor.getPermutation();
  if (static_cast<int64_t>(perm.size()) != source.getRank())
    return emitOptionalError(loc, "permutation ", formatShape(perm),
                             " must have one entry per dimension (",
                             source.getRank(), ")");
  llvm::SmallBitVector seen(perm.size());
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= source.getRank() || seen.test(p))
      return emitOptionalError(loc, formatShape(perm),
                               " is not a permutation of the dimensions");
    seen.set(p);
    shape.push_back(source.getDimSize(p));
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPermutation();
  bool identity = llvm::all_of(llvm::enumerate(perm), [](auto it) {
    return static_cast<int64_t>(it.index()) == it.value();
  });
  if (identity && getSource().getType() == getType())
    return getSource();
  if (auto inner = getSource().getDefiningOp<PermuteDimsOp>()) {
    // result[i] = inner[perm[i]] = source[innerPerm[perm[i]]].
    SmallVector<int64_t> composed;
    for (int64_t p : perm)
      composed.push_back(inner.getPermutation()[p]);
    getSourceMutable().assign(inner.getSource());
    setPermutation(composed);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp, SqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  int64_t rank = source.getRank() + axes.size();
  if (failed(verifyAxes(loc, axes, rank, "expand_dims")))
    return failure();
  SmallVector<int64_t> shape;
  ArrayRef<int64_t> remaining = source.getShape();
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (llvm::is_contained(axes, dim)) {
      shape.push_back(1);
    } else {
      shape.push_back(remaining.front());
      remaining = remaining.drop_front();
    }
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor) {
  if (getAxes().empty() && getSource().getType() == getType())
    return getSource();
  return {};
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  NDArrayType source = getArrayType(adaptor.getSource());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (failed(verifyAxes(loc, axes, source.getRank(), "squeeze")))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(source.getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(dim))) {
      shape.push_back(size);
      continue;
    }
    if (!ShapedType::isDynamic(size) && size != 1)
      return emitOptionalError(loc, "cannot squeeze dimension ", dim,
                               " of size ", size, " (it must be 1)");
  }
  if (failed(addInferredType(loc, inferred, shape, source.getElementType(),
                             adaptor.getOperands())))
    return failure();
  return success();
}

OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  if (getAxes().empty() && getSource().getType() == getType())
    return getSource();
  return {};
}

//===----------------------------------------------------------------------===//
// Slice ops
//===----------------------------------------------------------------------===//

/// Shared builder from mixed static/dynamic offsets, sizes and strides.
template <typename OpTy, typename... LeadingOperands>
static void
buildSliceOp(OpBuilder &builder, OperationState &state, TypeRange resultTypes,
             ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
             ArrayRef<OpFoldResult> strides, LeadingOperands... leading) {
  SmallVector<Value> dynOffsets, dynSizes, dynStrides;
  SmallVector<int64_t> staticOffsets, staticSizes, staticStrides;
  dispatchIndexOpFoldResults(offsets, dynOffsets, staticOffsets);
  dispatchIndexOpFoldResults(sizes, dynSizes, staticSizes);
  dispatchIndexOpFoldResults(strides, dynStrides, staticStrides);
  OpTy::build(builder, state, resultTypes, leading..., dynOffsets, dynSizes,
              dynStrides, builder.getDenseI64ArrayAttr(staticOffsets),
              builder.getDenseI64ArrayAttr(staticSizes),
              builder.getDenseI64ArrayAttr(staticStrides));
}

/// Verifies strides and, where static, that the slice is in bounds. Empty
/// slices may start at the end of a dimension (numpy's `a[n:]`).
LogicalResult imex::ndarray::verifySliceBounds(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> shape,
    ArrayRef<int64_t> offsets, ArrayRef<int64_t> sizes,
    ArrayRef<int64_t> strides) {
  // An inactive InFlightDiagnostic converts to success: only stream into a
  // real one.
  auto report = [&](auto &&...parts) -> LogicalResult {
    if (emitError) {
      InFlightDiagnostic diag = emitError();
      (diag << ... << parts);
    }
    return failure();
  };
  for (auto [d, dim] : llvm::enumerate(shape)) {
    int64_t offset = offsets[d], size = sizes[d], stride = strides[d];
    if (!ShapedType::isDynamic(stride) && stride <= 0)
      return report("strides must be positive, got ", stride);
    if (ShapedType::isDynamic(dim) || ShapedType::isDynamic(offset))
      continue;
    if (offset < 0 || offset > dim ||
        (offset == dim && !ShapedType::isDynamic(size) && size != 0))
      return report("slice is out of bounds: offset ", offset, " in dimension ",
                    d, " of size ", dim);
    if (ShapedType::isDynamic(size) || ShapedType::isDynamic(stride) ||
        size == 0)
      continue;
    std::optional<int64_t> span = llvm::checkedMul(size - 1, stride);
    std::optional<int64_t> last =
        span ? llvm::checkedAdd(offset, *span) : std::nullopt;
    if (!last)
      return report("slice is out of bounds: its last index overflows in "
                    "dimension ",
                    d, " of size ", dim);
    if (*last >= dim)
      return report("slice is out of bounds: last index ", *last,
                    " in dimension ", d, " of size ", dim);
  }
  return success();
}

static LogicalResult verifyOpSliceBounds(OffsetSizeAndStrideOpInterface op,
                                         NDArrayType sliced) {
  return verifySliceBounds([&] { return op->emitOpError(); }, sliced.getShape(),
                           op.getStaticOffsets(), op.getStaticSizes(),
                           op.getStaticStrides());
}

/// Verifies the result of a slice extraction: the slice shape, possibly
/// with unit dimensions dropped.
static LogicalResult verifySliceResult(Operation *op, NDArrayType source,
                                       ArrayRef<int64_t> sizes,
                                       NDArrayType result) {
  if (result.getElementType() != source.getElementType())
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from the source's "
           << source.getElementType();
  if (result.getShape() == sizes ||
      computeRankReductionMask(sizes, result.getShape()))
    return success();
  return op->emitOpError("result shape ")
         << formatShape(result.getShape()) << " is not the slice shape "
         << formatShape(sizes) << " or a version of it with unit dimensions "
         << "dropped";
}

/// Verifies the source of a slice insertion: it broadcasts to the slice.
static LogicalResult verifyInsertSource(Operation *op, NDArrayType source,
                                        ArrayRef<int64_t> sizes) {
  if (isBroadcastableTo(source.getShape(), sizes))
    return success();
  return op->emitOpError("source shape ")
         << formatShape(source.getShape())
         << " cannot be broadcast to the slice shape " << formatShape(sizes);
}

namespace {
/// Folds constant offsets, sizes and strides of a slice extraction into
/// static ones; the result type gets the static sizes (cast back to the old
/// type).
template <typename OpTy>
struct FoldConstantSliceArguments : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    FailureOr<FoldedSliceArguments> folded =
        foldConstantSliceArguments(op, op.getSlicedType());
    if (failed(folded))
      return failure();
    SmallVector<int64_t> newSizes;
    SmallVector<Value> unused;
    dispatchIndexOpFoldResults(folded->sizes, unused, newSizes);
    NDArrayType oldType = op.getType();
    std::optional<llvm::SmallDenseSet<unsigned>> dropped =
        computeRankReductionMask(op.getStaticSizes(), oldType.getShape());
    if (!dropped)
      return failure();
    SmallVector<int64_t> shape;
    for (auto [dim, size] : llvm::enumerate(newSizes))
      if (!dropped->contains(dim))
        shape.push_back(size);
    NDArrayType newType = cloneWithShapeIfValid(oldType, shape);
    if (!newType)
      return failure();
    auto newOp = OpTy::create(rewriter, op.getLoc(), newType, op.getSource(),
                              folded->offsets, folded->sizes, folded->strides);
    newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    if (newType == oldType)
      rewriter.replaceOp(op, newOp);
    else
      rewriter.replaceOpWithNewOp<CastOp>(op, oldType, newOp);
    return success();
  }
};
} // namespace

/// The source of a slice that takes all of it (zero offsets, unit strides,
/// the source's sizes), else null.
template <typename OpTy> static Value foldIdentitySlice(OpTy op) {
  Value source = op.getSource();
  if (op.getType() != source.getType())
    return nullptr;
  auto isDimOfSource = [&](OpFoldResult size, int64_t d) {
    if (std::optional<int64_t> known = getConstantIntValue(size))
      return *known == op.getType().getDimSize(d);
    auto dim = cast<Value>(size).getDefiningOp<DimOp>();
    return dim && dim.getSource() == source &&
           isConstantIntValue(dim.getIndex(), d);
  };
  for (auto [d, offset, size, stride] : llvm::enumerate(
           op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides()))
    if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1) ||
        !isDimOfSource(size, d))
      return nullptr;
  return source;
}

// SubviewOp

OpFoldResult SubviewOp::fold(FoldAdaptor) { return foldIdentitySlice(*this); }

void SubviewOp::build(OpBuilder &builder, OperationState &state,
                      Type resultType, Value source,
                      ArrayRef<OpFoldResult> offsets,
                      ArrayRef<OpFoldResult> sizes,
                      ArrayRef<OpFoldResult> strides) {
  buildSliceOp<SubviewOp>(builder, state, resultType, offsets, sizes, strides,
                          source);
}

unsigned SubviewOp::getOffsetSizeAndStrideStartOperandIndex() { return 1; }
NDArrayType SubviewOp::getSlicedType() { return getSource().getType(); }
Value SubviewOp::getViewSource() { return getSource(); }

LogicalResult SubviewOp::verify() {
  if (failed(verifyOpSliceBounds(*this, getSlicedType())))
    return failure();
  return verifySliceResult(*this, getSlicedType(), getStaticSizes(), getType());
}

void SubviewOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<FoldConstantSliceArguments<SubviewOp>>(context);
}

// ExtractSliceOp

OpFoldResult ExtractSliceOp::fold(FoldAdaptor) {
  return foldIdentitySlice(*this);
}

void ExtractSliceOp::build(OpBuilder &builder, OperationState &state,
                           Type resultType, Value source,
                           ArrayRef<OpFoldResult> offsets,
                           ArrayRef<OpFoldResult> sizes,
                           ArrayRef<OpFoldResult> strides) {
  buildSliceOp<ExtractSliceOp>(builder, state, resultType, offsets, sizes,
                               strides, source);
}

unsigned ExtractSliceOp::getOffsetSizeAndStrideStartOperandIndex() { return 1; }
NDArrayType ExtractSliceOp::getSlicedType() { return getSource().getType(); }

LogicalResult ExtractSliceOp::verify() {
  if (failed(verifyOpSliceBounds(*this, getSlicedType())))
    return failure();
  return verifySliceResult(*this, getSlicedType(), getStaticSizes(), getType());
}

void ExtractSliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                 MLIRContext *context) {
  results.add<FoldConstantSliceArguments<ExtractSliceOp>>(context);
}

// InsertSliceOp

void InsertSliceOp::build(OpBuilder &builder, OperationState &state,
                          Value source, Value destination,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes,
                          ArrayRef<OpFoldResult> strides) {
  buildSliceOp<InsertSliceOp>(builder, state, TypeRange(), offsets, sizes,
                              strides, source, destination);
}

unsigned InsertSliceOp::getOffsetSizeAndStrideStartOperandIndex() { return 2; }
NDArrayType InsertSliceOp::getSlicedType() {
  return getDestination().getType();
}

LogicalResult InsertSliceOp::verify() {
  if (failed(verifyOpSliceBounds(*this, getSlicedType())))
    return failure();
  return verifyInsertSource(*this, getSource().getType(), getStaticSizes());
}

void InsertSliceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                MLIRContext *context) {
  results.add<FoldConstantInsertArguments<InsertSliceOp>,
              FoldSourceCastIntoInsert<InsertSliceOp>>(context);
}

// ImmutableInsertSliceOp

void ImmutableInsertSliceOp::build(OpBuilder &builder, OperationState &state,
                                   Value source, Value destination,
                                   ArrayRef<OpFoldResult> offsets,
                                   ArrayRef<OpFoldResult> sizes,
                                   ArrayRef<OpFoldResult> strides) {
  buildSliceOp<ImmutableInsertSliceOp>(builder, state, destination.getType(),
                                       offsets, sizes, strides, source,
                                       destination);
}

unsigned ImmutableInsertSliceOp::getOffsetSizeAndStrideStartOperandIndex() {
  return 2;
}
NDArrayType ImmutableInsertSliceOp::getSlicedType() {
  return getDestination().getType();
}

LogicalResult ImmutableInsertSliceOp::verify() {
  if (failed(verifyOpSliceBounds(*this, getSlicedType())))
    return failure();
  return verifyInsertSource(*this, getSource().getType(), getStaticSizes());
}

void ImmutableInsertSliceOp::getCanonicalizationPatterns(
    RewritePatternSet &results, MLIRContext *context) {
  results.add<FoldConstantInsertArguments<ImmutableInsertSliceOp>,
              FoldSourceCastIntoInsert<ImmutableInsertSliceOp>>(context);
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
  return addInferredType(loc, inferred, shape, IntegerType::get(context, 64),
                         adaptor.getOperands());
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
