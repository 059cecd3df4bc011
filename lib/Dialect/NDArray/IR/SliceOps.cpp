//===- SliceOps.cpp - ndarray slice ops -----------------------------------===//
//
// subview, extract_slice, insert_slice, immutable_insert_slice: builders,
// bounds verification and the folding of constant slice arguments.
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
// Slice patterns
//===----------------------------------------------------------------------===//

namespace {
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

} // namespace

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
    // (The size as a dim op of the source, or the size operand that such a
    // dim op folds to.)
    auto dim = cast<Value>(size).getDefiningOp<DimOp>();
    return (dim && dim.getSource() == source &&
            isConstantIntValue(dim.getIndex(), d)) ||
           cast<Value>(size) == getDynamicSizeOperand(source, d);
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
