//===- SliceLowering.cpp - views, slices and inserts to tensor ops
//---------===//
//
// convert-ndarray-to-linalg patterns of subview/extract_slice (tensor
// slices), insert_slice (in place into the destination's buffer) and
// immutable_insert_slice (a copy unless it fully overwrites a destination
// read by nobody later), and the analysis that finds those overwrites.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "LoweringUtils.h"
#include "ScalarOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

namespace {

/// numpy accepts empty slices anywhere up to the end of a dimension
/// (`a[n:]`); tensor slices need in-bounds static offsets. Returns false if
/// the slice is statically empty (no tensor slice is needed); otherwise
/// replaces static offsets at the end of a dimension, which only empty
/// slices can have, by 0.
static bool legalizeSliceOffsets(OpBuilder &b, ArrayRef<int64_t> shape,
                                 SmallVectorImpl<OpFoldResult> &offsets,
                                 ArrayRef<OpFoldResult> sizes) {
  for (auto [d, dim] : llvm::enumerate(shape)) {
    std::optional<int64_t> size = getConstantIntValue(sizes[d]);
    if (dim == 0 || (size && *size == 0))
      return false;
    std::optional<int64_t> offset = getConstantIntValue(offsets[d]);
    if (offset && !ShapedType::isDynamic(dim) && *offset >= dim)
      offsets[d] = b.getIndexAttr(0);
  }
  return true;
}

/// `strides` with 1 where the size is 1: a stride over one element means
/// nothing, and memref's rank reduction, which tells dropped unit
/// dimensions by their strides, cannot match one that is not 1 (it crashed
/// on `a[2::2, -1]`, two unit dimensions, one with stride 2).
static SmallVector<OpFoldResult>
normalizeUnitStrides(Builder &b, ArrayRef<OpFoldResult> sizes,
                     ArrayRef<OpFoldResult> strides) {
  SmallVector<OpFoldResult> result(strides);
  for (auto [size, stride] : llvm::zip(sizes, result))
    if (isConstantIntValue(size, 1))
      stride = b.getIndexAttr(1);
  return result;
}

/// Subviews read (after value semantics) like slices: both extract.
template <typename OpTy>
struct SliceLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getSource();
    auto resultType = getTensorType(op.getType());
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    if (!legalizeSliceOffsets(rewriter,
                              cast<ShapedType>(source.getType()).getShape(),
                              offsets, sizes)) {
      // The sizes of the slice (not of the source) without dropped axes.
      SmallVector<int64_t> dropped =
          getDroppedAxes(op).value_or(SmallVector<int64_t>());
      SmallVector<OpFoldResult> resultSizes;
      for (auto [d, size] : llvm::enumerate(sizes))
        if (!llvm::is_contained(dropped, static_cast<int64_t>(d)))
          resultSizes.push_back(size);
      rewriter.replaceOp(op, createEmpty(rewriter, op.getLoc(),
                                         resultType.getShape(), resultSizes,
                                         resultType.getElementType()));
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, resultType, source, offsets, sizes,
        normalizeUnitStrides(rewriter, sizes, op.getMixedStrides()));
    return success();
  }
};

/// The source of an insertion: converted to the destination element type
/// and broadcast to the full slice shape.
template <typename OpTy>
static Value prepareInsertSource(OpBuilder &b, OpTy op, Value source) {
  SmallVector<OpFoldResult> sizes = op.getMixedSizes();
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes)
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  return convertAndBroadcast(b, op.getLoc(), source,
                             getElementType(op.getSource()),
                             getElementType(op.getDestination()), shape, sizes);
}

/// Offsets, sizes and strides of a tensor slice op.
struct TensorSlice {
  SmallVector<OpFoldResult> offsets, sizes, strides;
};

/// The tensor slice of `op` into or out of a tensor of `shape`, with
/// `offsets` (see legalizeSliceOffsets): constant operands become static
/// values, so that sources computed for constant sizes have static types,
/// unless that makes the tensor op invalid (valid ndarray IR may hold
/// out-of-bounds constants: they are reported at run time).
static TensorSlice getTensorSlice(OffsetSizeAndStrideOpInterface op,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<OpFoldResult> offsets) {
  Builder b(op.getContext());
  TensorSlice slice{
      llvm::to_vector(offsets), op.getMixedSizes(),
      normalizeUnitStrides(b, op.getMixedSizes(), op.getMixedStrides())};
  TensorSlice folded;
  SmallVector<int64_t> staticOffsets, staticSizes, staticStrides;
  auto fold = [](ArrayRef<OpFoldResult> ofrs, SmallVectorImpl<int64_t> &out) {
    SmallVector<OpFoldResult> result =
        llvm::map_to_vector(ofrs, [](OpFoldResult ofr) {
          auto value = dyn_cast<Value>(ofr);
          return value ? getAsOpFoldResult(value) : ofr;
        });
    SmallVector<Value> unused;
    dispatchIndexOpFoldResults(result, unused, out);
    return result;
  };
  folded.offsets = fold(slice.offsets, staticOffsets);
  folded.sizes = fold(slice.sizes, staticSizes);
  folded.strides = fold(slice.strides, staticStrides);
  if (llvm::any_of(
          llvm::concat<int64_t>(staticOffsets, staticSizes),
          [](int64_t v) { return v < 0 && !ShapedType::isDynamic(v); }) ||
      failed(verifySliceBounds(nullptr, shape, staticOffsets, staticSizes,
                               staticStrides)))
    return slice;
  return folded;
}

/// `source` cast to the type tensor.insert_slice requires for a slice of
/// `sizes`: static exactly where the sizes are.
static Value castToSliceType(OpBuilder &b, Location loc, Value source,
                             ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> shape;
  for (OpFoldResult size : sizes) {
    auto attr = dyn_cast<Attribute>(size);
    shape.push_back(attr ? cast<IntegerAttr>(attr).getInt()
                         : ShapedType::kDynamic);
  }
  auto sliceType = type.clone(shape);
  if (type.getRank() != sliceType.getRank() || type == sliceType)
    return source;
  return tensor::CastOp::create(b, loc, sliceType, source);
}

/// Whether the slice of `op` covers its whole destination (`a[...] = x`).
template <typename OpTy> static bool isFullOverwrite(OpTy op) {
  // Casts may hide static sizes of the destination.
  Value root = op.getDestination();
  while (auto cast = root.getDefiningOp<CastOp>())
    root = cast.getSource();
  NDArrayType type = getArrayType(root);
  for (auto [dim, offset, size, stride] : llvm::enumerate(
           op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides())) {
    if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1))
      return false;
    if (std::optional<int64_t> constant = getConstantIntValue(size)) {
      if (*constant != type.getDimSize(dim))
        return false;
      continue;
    }
    auto dimOp = dyn_cast<Value>(size).template getDefiningOp<DimOp>();
    if (!dimOp ||
        (dimOp.getSource() != op.getDestination() &&
         dimOp.getSource() != root) ||
        getConstantIntValue(dimOp.getIndex()) != static_cast<int64_t>(dim))
      return false;
  }
  return true;
}

/// Whether the slice `offsets`, `sizes`, `strides` is all of the buffer
/// `toTensor` reads: offsets 0, unit strides, sizes its static sizes or
/// those of the view it is (a kernel argument's `memref.reinterpret_cast`).
static bool coversBuffer(bufferization::ToTensorOp toTensor,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes,
                         ArrayRef<OpFoldResult> strides) {
  auto type = cast<ShapedType>(toTensor.getType());
  auto view =
      toTensor.getBuffer().getDefiningOp<OffsetSizeAndStrideOpInterface>();
  for (auto [d, offset, size, stride] :
       llvm::enumerate(offsets, sizes, strides)) {
    if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1))
      return false;
    if (!type.isDynamicDim(d) && isConstantIntValue(size, type.getDimSize(d)))
      continue;
    if (!view || view.getMixedSizes().size() != sizes.size() ||
        !isEqualConstantIntOrValue(size, view.getMixedSizes()[d]))
      return false;
  }
  return true;
}

/// Whether `op` is the only reader of its destination's version (looking
/// through casts and copies, which lower to the same tensor; `dim` reads the
/// shape only and a write-back into an argument writes it), so that the new
/// version may overwrite it in place.
static bool isLastReaderOfDestination(ImmutableInsertSliceOp op) {
  Value version = op.getDestination();
  while (true) {
    auto readsData = [&](OpOperand &use) {
      auto writeBack = dyn_cast<InsertSliceOp>(use.getOwner());
      return !isa<DimOp>(use.getOwner()) &&
             !(writeBack && &use == &writeBack.getDestinationMutable());
    };
    if (llvm::count_if(version.getUses(), readsData) != 1)
      return false;
    Operation *def = version.getDefiningOp();
    if (!isa_and_present<CastOp, CopyOp>(def))
      return true;
    version = def->getOperand(0);
  }
}

struct ImmutableInsertSliceLowering
    : public OpConversionPattern<ImmutableInsertSliceOp> {
  ImmutableInsertSliceLowering(const TypeConverter &converter,
                               MLIRContext *context,
                               const DenseSet<Operation *> &overwrites)
      : OpConversionPattern(converter, context), overwrites(overwrites) {}

  LogicalResult
  matchAndRewrite(ImmutableInsertSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value source = prepareInsertSource(rewriter, op, adaptor.getSource());
    Value destination = adaptor.getDestination();
    if (overwrites.contains(op)) {
      // Destination-passing: the new version reuses the buffer of the old
      // one (canonicalization would fold a full insert_slice to its source
      // and lose it). An elementwise op computing `source` writes straight
      // into the destination (what empty-tensor elimination would do, also
      // for arguments written back at return).
      // Casts of the destination are made at the write; look through them.
      Value init = destination;
      while (auto cast = init.getDefiningOp<tensor::CastOp>())
        init = cast.getSource();
      auto generic = source.getDefiningOp<linalg::GenericOp>();
      bool computedInPlace =
          generic && source.hasOneUse() && generic.getNumDpsInits() == 1 &&
          generic.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() &&
          !generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)) &&
          DominanceInfo().properlyDominates(init, generic);
      if (computedInPlace) {
        if (init.getType() != source.getType()) {
          OpBuilder::InsertionGuard guard(rewriter);
          rewriter.setInsertionPoint(generic);
          init = tensor::CastOp::create(rewriter, op.getLoc(), source.getType(),
                                        init);
        }
        rewriter.modifyOpInPlace(
            generic, [&] { generic.getDpsInitsMutable()[0].set(init); });
      }
      if (source.getType() != destination.getType())
        source = tensor::CastOp::create(rewriter, op.getLoc(),
                                        destination.getType(), source);
      // The old version has no other reader now, but CSE may merge it with
      // an equal value (two arrays created alike) that has: materializing
      // in its buffer, which must then happen in place, is only safe for
      // versions CSE cannot merge (arguments and loop-carried values).
      // Elsewhere bufferization decides, and copies if it must.
      Value root = init;
      while (Operation *def = root.getDefiningOp()) {
        if (!isa<tensor::CastOp, UnrealizedConversionCastOp>(def))
          break;
        root = def->getOperand(0);
      }
      if (!isa<BlockArgument>(root) &&
          !root.getDefiningOp<bufferization::ToTensorOp>()) {
        rewriter.replaceOp(op, source);
        return success();
      }
      rewriter.replaceOpWithNewOp<bufferization::MaterializeInDestinationOp>(
          op, destination.getType(), source, destination);
      return success();
    }
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    if (!legalizeSliceOffsets(
            rewriter, cast<ShapedType>(destination.getType()).getShape(),
            offsets, op.getMixedSizes())) {
      rewriter.replaceOp(op, destination);
      return success();
    }
    TensorSlice slice = getTensorSlice(
        op, cast<ShapedType>(destination.getType()).getShape(), offsets);
    source = castToSliceType(rewriter, op.getLoc(), source, slice.sizes);
    auto insert = rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        op, source, destination, slice.offsets, slice.sizes, slice.strides);
    if (op->hasAttr(kGhostWriteAttrName))
      insert->setAttr(kGhostWriteAttrName, rewriter.getUnitAttr());
    return success();
  }

private:
  /// Full overwrites whose old version nobody else reads (computed before
  /// the conversion rewrites the users).
  const DenseSet<Operation *> &overwrites;
};

/// After value semantics the only in-place updates left write the final
/// version of an argument or a wrapped memref back into its buffer.
struct InsertSliceLowering : public OpConversionPattern<InsertSliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InsertSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value destination = adaptor.getDestination();
    while (auto cast = destination.getDefiningOp<UnrealizedConversionCastOp>())
      destination = cast.getInputs().front();
    auto toTensor = destination.getDefiningOp<bufferization::ToTensorOp>();
    if (!toTensor)
      return rewriter.notifyMatchFailure(
          op, "in-place update of an array not backed by a memref");
    // A write-back's source is a version of the destination: same shape and
    // element type.
    bool writeBack = op->hasAttr(kWriteBackAttrName);
    Value updated =
        writeBack ? adaptor.getSource()
                  : prepareInsertSource(rewriter, op, adaptor.getSource());
    // An update of part of the array is inserted into its current contents
    // first.
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    if (!legalizeSliceOffsets(rewriter,
                              cast<ShapedType>(toTensor.getType()).getShape(),
                              offsets, op.getMixedSizes())) {
      rewriter.eraseOp(op);
      return success();
    }
    // (So is a write-back whose sizes are not the destination's own: the
    // version of a view of a distributed argument's buffer, its columns the
    // global ones, updated in place, is inserted where that view lies,
    // which one-shot bufferization sees as a copy of a view to itself that
    // CSE and canonicalization remove; materialized as it is into the
    // buffer, it would be copied, its sizes not provably the buffer's.)
    TensorSlice slice = getTensorSlice(
        op, cast<ShapedType>(toTensor.getType()).getShape(), offsets);
    if (!isFullOverwrite(op) &&
        !coversBuffer(toTensor, slice.offsets, slice.sizes, slice.strides)) {
      updated = tensor::InsertSliceOp::create(
          rewriter, op.getLoc(),
          castToSliceType(rewriter, op.getLoc(), updated, slice.sizes),
          toTensor.getResult(), slice.offsets, slice.sizes, slice.strides);
    } else if (updated.getType() != toTensor.getType())
      updated = tensor::CastOp::create(rewriter, op.getLoc(),
                                       toTensor.getType(), updated);
    auto materialize = bufferization::MaterializeInDestinationOp::create(
        rewriter, op.getLoc(), updated, toTensor.getBuffer());
    materialize.setWritable(true);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

DenseSet<Operation *> imex::findInPlaceOverwrites(Operation *root) {
  DenseSet<Operation *> overwrites;
  root->walk([&](ImmutableInsertSliceOp op) {
    if (isFullOverwrite(op) && isLastReaderOfDestination(op))
      overwrites.insert(op);
  });
  return overwrites;
}

void imex::ndarray::lowering::populateSliceLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const DenseSet<Operation *> &inPlaceOverwrites) {
  patterns.add<ImmutableInsertSliceLowering>(converter, patterns.getContext(),
                                             inPlaceOverwrites);
  patterns.add<SliceLowering<SubviewOp>, SliceLowering<ExtractSliceOp>,
               InsertSliceLowering>(converter, patterns.getContext());
}
