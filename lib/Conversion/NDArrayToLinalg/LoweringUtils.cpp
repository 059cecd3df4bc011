//===- LoweringUtils.cpp - helpers of convert-ndarray-to-linalg -----------===//
//
// Types, sizes and small builders shared by the patterns of
// convert-ndarray-to-linalg (NDArrayToLinalg.cpp and the *Lowering.cpp files).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "ScalarOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace imex::ndarray;

namespace imex::ndarray::lowering {

RankedTensorType getTensorType(NDArrayType type) {
  return RankedTensorType::get(type.getShape(),
                               getStorageType(type.getElementType()));
}

NDArrayType getArrayType(Value value) {
  return cast<NDArrayType>(value.getType());
}

Type getElementType(Value ndarray) {
  return getArrayType(ndarray).getElementType();
}

Value toIndex(OpBuilder &b, Location loc, OpFoldResult ofr) {
  return getValueOrCreateConstantIndexOp(b, loc, ofr);
}

/// Size `dim` of `tensor`, read through the ops this conversion creates
/// (slices, elementwise results, empty tensors, casts) so that equal sizes
/// are the same SSA value right away and broadcasting needs no run-time
/// branch between them.
OpFoldResult getSize(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  Operation *def = tensor.getDefiningOp();
  if (auto empty = dyn_cast_if_present<tensor::EmptyOp>(def))
    return empty.getMixedSizes()[dim];
  if (auto slice = dyn_cast_if_present<tensor::ExtractSliceOp>(def)) {
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    SmallVector<OpFoldResult> sizes = slice.getMixedSizes();
    for (int64_t i = 0, kept = 0, e = sizes.size(); i < e; ++i) {
      if (dropped.test(i))
        continue;
      if (kept++ == dim)
        return sizes[i];
    }
  }
  if (auto cast = dyn_cast_if_present<tensor::CastOp>(def))
    return getSize(b, loc, cast.getSource(), dim);
  // A tensor made an array and back (lower-distruntime-to-idtr wraps the
  // outputs of exchanges as arrays; the conversion casts them back).
  if (auto cast = dyn_cast_if_present<UnrealizedConversionCastOp>(def);
      cast && cast->getNumOperands() == 1) {
    Value source = cast.getOperand(0);
    if (auto inner = source.getDefiningOp<UnrealizedConversionCastOp>();
        inner && inner->getNumOperands() == 1)
      source = inner.getOperand(0);
    if (source.getType() == tensor.getType())
      return getSize(b, loc, source, dim);
  }
  // A memref given its sizes (e.g. shared size arguments of a kernel).
  if (auto toTensor = dyn_cast_if_present<bufferization::ToTensorOp>(def))
    if (auto reinterpret =
            toTensor.getBuffer().getDefiningOp<memref::ReinterpretCastOp>())
      return reinterpret.getMixedSizes()[dim];
  if (auto dps = dyn_cast_if_present<DestinationStyleOpInterface>(def))
    if (auto result = dyn_cast<OpResult>(tensor))
      return getSize(b, loc, dps.getTiedOpOperand(result)->get(), dim);
  return tensor::DimOp::create(b, loc, tensor, dim).getResult();
}

SmallVector<OpFoldResult> getSizes(OpBuilder &b, Location loc, Value tensor) {
  SmallVector<OpFoldResult> sizes;
  int64_t rank = cast<RankedTensorType>(tensor.getType()).getRank();
  for (int64_t dim = 0; dim < rank; ++dim)
    sizes.push_back(getSize(b, loc, tensor, dim));
  return sizes;
}

/// Aborts at run time with `message` unless `condition` holds.
void runtimeCheck(OpBuilder &b, Location loc, Value condition,
                  StringRef message) {
  if (auto constant = getConstantIntValue(condition); constant && *constant)
    return;
  cf::AssertOp::create(b, loc, condition, message);
}

/// Whether the float `value` is NaN.
Value createIsNaN(OpBuilder &b, Location loc, Value value) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
}

/// The negation of the i1 `flag`.
Value createNot(OpBuilder &b, Location loc, Value flag) {
  return arith::XOrIOp::create(
      b, loc, flag, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
}

Value cmpIndex(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value lhs,
               Value rhs) {
  // Folded on constants, so that static checks disappear (runtimeCheck).
  return b.createOrFold<arith::CmpIOp>(loc, pred, lhs, rhs);
}

/// Creates `tensor.empty` of `shape` (static information) and `sizes`.
Value createEmpty(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  ArrayRef<OpFoldResult> sizes, Type elementType) {
  SmallVector<Value> dynamicSizes;
  for (auto [static_, size] : llvm::zip_equal(shape, sizes))
    if (ShapedType::isDynamic(static_))
      dynamicSizes.push_back(toIndex(b, loc, size));
  return tensor::EmptyOp::create(b, loc, shape, elementType, dynamicSizes);
}

/// A parallel loop over `init` whose element at position `i` is
/// `source[remap(i)]`: `remap` rewrites the loop indices in place.
Value buildRemappedRead(
    OpBuilder &b, Location loc, Value source, Value init,
    function_ref<void(OpBuilder &, Location, SmallVectorImpl<Value> &)> remap) {
  int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, init, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange) {
               SmallVector<Value> at;
               for (int64_t d = 0; d < rank; ++d)
                 at.push_back(linalg::IndexOp::create(nb, nloc, d));
               remap(nb, nloc, at);
               linalg::YieldOp::create(
                   nb, nloc,
                   tensor::ExtractOp::create(nb, nloc, source, at).getResult());
             })
      .getResult(0);
}

/// Reassociation for inserting (expand) or removing (collapse) the unit
/// dimensions `unitAxes` of a shape of rank `rank`.
SmallVector<ReassociationIndices>
getUnitDimReassociation(int64_t rank, ArrayRef<int64_t> unitAxes) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  for (int64_t dim = 0; dim < rank; ++dim) {
    pending.push_back(dim);
    if (llvm::is_contained(unitAxes, dim))
      continue;
    groups.push_back(pending);
    pending.clear();
  }
  if (!pending.empty() && !groups.empty())
    llvm::append_range(groups.back(), pending);
  return groups;
}

/// Whether the rank reduction of a slice of `full` with `sizes` to `reduced`
/// is unambiguous: no rank reduction, or as many unit sizes as dropped axes.
/// Where more unit axes than dropped ones exist, upstream infers the first
/// ones, and after bufferization the strides of the view decide instead
/// (equal strides leave memref.subview unable to tell which axis went).
static bool isUnambiguousRankReduction(RankedTensorType reduced,
                                       RankedTensorType full,
                                       ArrayRef<OpFoldResult> sizes) {
  if (reduced.getRank() == full.getRank())
    return true;
  return llvm::count_if(sizes, isOneInteger) ==
         full.getRank() - reduced.getRank();
}

static SmallVector<int64_t> toAxes(const llvm::SmallBitVector &mask) {
  SmallVector<int64_t> axes;
  for (int axis : mask.set_bits())
    axes.push_back(axis);
  return axes;
}

void makeRankReductionsExplicit(Operation *root) {
  SmallVector<tensor::ExtractSliceOp> extracts;
  SmallVector<tensor::InsertSliceOp> inserts;
  root->walk([&](Operation *op) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (!isUnambiguousRankReduction(extract.getType(),
                                      extract.getSourceType(),
                                      extract.getMixedSizes()))
        extracts.push_back(extract);
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (!isUnambiguousRankReduction(insert.getSourceType(),
                                      insert.getDestType(),
                                      insert.getMixedSizes()))
        inserts.push_back(insert);
    }
  });
  for (tensor::ExtractSliceOp extract : extracts) {
    OpBuilder b(extract);
    Location loc = extract.getLoc();
    SmallVector<int64_t> dropped = toAxes(extract.getDroppedDims());
    Value whole = tensor::ExtractSliceOp::create(
        b, loc, extract.getSource(), extract.getMixedOffsets(),
        extract.getMixedSizes(), extract.getMixedStrides());
    Value collapsed = tensor::CollapseShapeOp::create(
        b, loc, whole,
        getUnitDimReassociation(extract.getSourceType().getRank(), dropped));
    if (collapsed.getType() != extract.getType())
      collapsed = tensor::CastOp::create(b, loc, extract.getType(), collapsed);
    extract.replaceAllUsesWith(collapsed);
    extract.erase();
  }
  for (tensor::InsertSliceOp insert : inserts) {
    OpBuilder b(insert);
    Location loc = insert.getLoc();
    SmallVector<int64_t> dropped = toAxes(insert.getDroppedDims());
    RankedTensorType sourceType = insert.getSourceType();
    SmallVector<int64_t> shape;
    for (int64_t axis = 0, kept = 0, e = insert.getDestType().getRank();
         axis < e; ++axis)
      shape.push_back(llvm::is_contained(dropped, axis)
                          ? 1
                          : sourceType.getDimSize(kept++));
    Value expanded = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, sourceType.getElementType()),
        insert.getSource(),
        getUnitDimReassociation(insert.getDestType().getRank(), dropped));
    auto replacement = tensor::InsertSliceOp::create(
        b, loc, expanded, insert.getDest(), insert.getMixedOffsets(),
        insert.getMixedSizes(), insert.getMixedStrides());
    insert.replaceAllUsesWith(replacement.getResult());
    insert.erase();
  }
}

/// `tensor` (of ndarray element type `from`) converted to ndarray element
/// type `to` and broadcast to `sizes` with static shape `shape`.
Value convertAndBroadcast(OpBuilder &b, Location loc, Value tensor, Type from,
                          Type to, ArrayRef<int64_t> shape,
                          ArrayRef<OpFoldResult> sizes) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (from == to && type.getShape() == shape &&
      llvm::all_of(llvm::enumerate(sizes), [&](auto it) {
        return isEqualConstantIntOrValue(it.value(),
                                         getSize(b, loc, tensor, it.index()));
      }))
    return tensor;
  return buildElementwise(
      b, loc, tensor, shape, getStorageType(to),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        return convertScalar(nb, nloc, args[0], from, to);
      },
      sizes);
}

} // namespace imex::ndarray::lowering
