//===- PartitionOps.cpp - dist partition arithmetic ops -------------------===//
//
// The ops computing a rank's part of a distribution at run time:
// default_partition, local_target_of_slice, local_bounding_box, local_core.
// Their folds simplify the index arithmetic through IndexMath.
//
//===----------------------------------------------------------------------===//

#include "DistOpsUtils.h"

#include "imex/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace imex;
using namespace imex::dist;
using namespace imex::dist::op_helpers;
using ndarray::NDArrayType;

//===----------------------------------------------------------------------===//
// Index computations
//===----------------------------------------------------------------------===//

namespace {
/// The operands of an index op as OpFoldResults: the constant from a fold
/// adaptor where it has one, a matched constant if there is no adaptor,
/// else the value.
class OperandValues {
public:
  OperandValues(Operation *op, ArrayRef<Attribute> constants)
      : op(op), constants(constants) {}

  OpFoldResult get(OpFoldResult value) const {
    auto operand = dyn_cast_if_present<Value>(value);
    if (!operand)
      return value;
    if (constants.empty())
      return getAsOpFoldResult(operand);
    for (OpOperand &use : op->getOpOperands())
      if (use.get() == operand) {
        if (use.getOperandNumber() < constants.size())
          if (auto constant = dyn_cast_if_present<IntegerAttr>(
                  constants[use.getOperandNumber()]))
            return constant;
        break;
      }
    return operand;
  }

  SmallVector<OpFoldResult> get(ArrayRef<OpFoldResult> values) const {
    return llvm::map_to_vector(values, [&](OpFoldResult v) { return get(v); });
  }
  SmallVector<OpFoldResult> get(ValueRange values) const {
    return llvm::map_to_vector(values,
                               [&](Value v) { return get(OpFoldResult(v)); });
  }

private:
  Operation *op;
  ArrayRef<Attribute> constants;
};

/// The rows `[offset, offset + size)` this rank owns on dimension 0.
struct OwnedRows {
  OpFoldResult offset, size;
};

/// A range `[offset, offset + size)`.
struct IndexRange {
  OpFoldResult offset, size;
};
} // namespace

/// The owned rows of the distributed `array`: taken from its
/// `dist.init_dist_array` where static, else (with a builder) from
/// `dist.local_offsets_of` and `ndarray.dim` of `dist.owned_block_of`.
static OwnedRows getOwnedRows(IndexMath &math, Value array) {
  OpBuilder *builder = math.getBuilder();
  OpFoldResult offset = getKnownLocalOffset(array);
  if (!offset && builder)
    offset =
        LocalOffsetsOfOp::create(*builder, math.getLoc(), array).getResult(0);

  OpFoldResult rows;
  auto init = array.getDefiningOp<InitDistArrayOp>();
  Value block = init ? init.getBlock() : Value();
  if (block) {
    int64_t size = cast<NDArrayType>(block.getType()).getDimSize(0);
    if (!ShapedType::isDynamic(size))
      rows = math.constant(size);
  }
  if (!rows && builder) {
    if (!block)
      block = OwnedBlockOfOp::create(*builder, math.getLoc(), array);
    rows =
        ndarray::DimOp::create(*builder, math.getLoc(), block, 0).getResult();
  }
  return {offset, rows};
}

/// The view rows `[first, last)` (unclamped) whose base rows `f + s * i` lie
/// in `owned`.
static std::pair<OpFoldResult, OpFoldResult>
getOwnedViewRows(IndexMath &math, OwnedRows owned, OpFoldResult viewOffset,
                 OpFoldResult viewStride) {
  OpFoldResult first =
      math.ceilDiv(math.sub(owned.offset, viewOffset), viewStride);
  OpFoldResult last = math.ceilDiv(
      math.sub(math.add(owned.offset, owned.size), viewOffset), viewStride);
  return {first, last};
}

/// Whether rows `[offset, offset + size)` with `stride` are all rows of the
/// distributed `array` (of an init_dist_array, through its versions).
static bool isAllRows(Value array, OpFoldResult offset, OpFoldResult size,
                      OpFoldResult stride) {
  if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1))
    return false;
  int64_t rows = cast<ShapedType>(array.getType()).getDimSize(0);
  if (!ShapedType::isDynamic(rows) && isConstantIntValue(size, rows))
    return true;
  while (Operation *def = array.getDefiningOp()) {
    if (auto insert = dyn_cast<ndarray::ImmutableInsertSliceOp>(def))
      array = insert.getDestination();
    else if (auto cast = dyn_cast<ndarray::CastOp>(def))
      array = cast.getSource();
    else
      break;
  }
  auto init = array.getDefiningOp<InitDistArrayOp>();
  return init && !init.getGlobalShape().empty() &&
         isConstantIntValue(offset, 0) && isConstantIntValue(stride, 1) &&
         isEqualConstantIntOrValue(size, init.getGlobalShape()[0]);
}

/// `[first, last)` clamped into `[lo, hi)`: `lo <= offset <= offset + size
/// <= hi`.
static IndexRange clampRange(IndexMath &math, OpFoldResult first,
                             OpFoldResult last, OpFoldResult lo,
                             OpFoldResult hi) {
  OpFoldResult begin = math.clamp(first, lo, hi);
  OpFoldResult end = math.clamp(last, begin, hi);
  return {begin, math.sub(end, begin)};
}

/// Appends the offsets, then the sizes of `ranges` to `results`; fails if
/// one is unknown.
static LogicalResult appendRanges(ArrayRef<IndexRange> ranges,
                                  SmallVectorImpl<OpFoldResult> &results) {
  for (const IndexRange &range : ranges)
    if (!range.offset || !range.size)
      return failure();
  for (const IndexRange &range : ranges)
    results.push_back(range.offset);
  for (const IndexRange &range : ranges)
    results.push_back(range.size);
  return success();
}

/// Folds an index op with constant operands.
template <typename OpTy>
static LogicalResult foldIndexOp(OpTy op, ArrayRef<Attribute> constants,
                                 SmallVectorImpl<OpFoldResult> &results) {
  IndexMath math(op.getContext());
  SmallVector<OpFoldResult> folded;
  if (failed(op.computeResults(math, constants, folded)))
    return failure();
  llvm::append_range(results, folded);
  return success();
}

/// Verifies the rank and global sizes of a partition op where constant:
/// both non-negative.
static LogicalResult verifyRankAndShape(Operation *op, Value rank,
                                        ValueRange shape) {
  if (std::optional<int64_t> value = getConstantIndex(rank);
      value && *value < 0)
    return op->emitOpError("rank must be non-negative, got ") << *value;
  for (auto [dim, size] : llvm::enumerate(shape))
    if (std::optional<int64_t> value = getConstantIndex(size);
        value && *value < 0)
      return op->emitOpError("global size of dimension ")
             << dim << " must be non-negative, got " << *value;
  return success();
}

/// The block of `n` elements that `rank` of `nprocs` owns: `n / p` each, the
/// last `n % p` ranks (from `firstBig` on) one more.
static IndexRange getBlock(IndexMath &math, OpFoldResult n, OpFoldResult nprocs,
                           OpFoldResult rank) {
  OpFoldResult quotient = math.div(n, nprocs);
  OpFoldResult firstBig = math.sub(nprocs, math.rem(n, nprocs));
  return {
      math.add(math.mul(rank, quotient),
               math.max(math.constant(0), math.sub(rank, firstBig))),
      math.add(quotient, math.select(arith::CmpIPredicate::sge, rank, firstBig,
                                     math.constant(1), math.constant(0)))};
}

//===----------------------------------------------------------------------===//
// DefaultPartitionOp
//===----------------------------------------------------------------------===//

LogicalResult
DefaultPartitionOp::inferReturnTypes(MLIRContext *context,
                                     std::optional<Location>, Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  return inferIndexResults(context, adaptor.getGlobalShape().size(), inferred);
}

LogicalResult DefaultPartitionOp::verify() {
  if (getGlobalShape().empty())
    return emitOpError("expects a global shape of rank >= 1");
  std::optional<int64_t> nprocs = getConstantIndex(getNprocs());
  std::optional<int64_t> rank = getConstantIndex(getRank());
  if (nprocs && *nprocs < 1)
    return emitOpError("number of ranks must be positive, got ") << *nprocs;
  if (rank && nprocs && *rank >= *nprocs)
    return emitOpError("rank ")
           << *rank << " is out of range for " << *nprocs << " rank(s)";
  return verifyRankAndShape(*this, getRank(), getGlobalShape());
}

LogicalResult
DefaultPartitionOp::computeResults(IndexMath &math,
                                   ArrayRef<Attribute> constantOperands,
                                   SmallVectorImpl<OpFoldResult> &results) {
  OperandValues operands(*this, constantOperands);
  SmallVector<OpFoldResult> shape = operands.get(getGlobalShape());
  if (shape.empty())
    return failure();
  OpFoldResult nprocs = operands.get(OpFoldResult(getNprocs()));
  OpFoldResult rank = operands.get(OpFoldResult(getRank()));
  SmallVector<IndexRange> ranges{getBlock(math, shape[0], nprocs, rank)};
  for (OpFoldResult size : ArrayRef(shape).drop_front())
    ranges.push_back({math.constant(0), size});
  return appendRanges(ranges, results);
}

LogicalResult DefaultPartitionOp::fold(FoldAdaptor adaptor,
                                       SmallVectorImpl<OpFoldResult> &results) {
  return foldIndexOp(*this, adaptor.getOperands(), results);
}

//===----------------------------------------------------------------------===//
// GridPartitionOp
//===----------------------------------------------------------------------===//

LogicalResult
GridPartitionOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return inferIndexResults(context, adaptor.getGlobalShape().size(), inferred);
}

LogicalResult GridPartitionOp::verify() {
  int64_t rank = getGlobalShape().size();
  if (rank == 0)
    return emitOpError("expects a global shape of rank >= 1");
  ArrayRef<int64_t> split = getSplit();
  if (split.empty())
    return emitOpError("expects at least one split axis");
  for (auto [i, axis] : llvm::enumerate(split))
    if (axis < 0 || axis >= rank || (i > 0 && axis <= split[i - 1]))
      return emitOpError("split axes must be strictly increasing and below "
                         "the rank ")
             << rank << ", got [" << split << "]";
  if (getGrid().size() != split.size())
    return emitOpError("expects one grid size per split axis (")
           << split.size() << "), got " << getGrid().size();
  for (Value size : getGrid())
    if (std::optional<int64_t> value = getConstantIndex(size);
        value && *value < 1)
      return emitOpError("grid sizes must be positive, got ") << *value;
  return verifyRankAndShape(*this, getRank(), getGlobalShape());
}

LogicalResult
GridPartitionOp::computeResults(IndexMath &math,
                                ArrayRef<Attribute> constantOperands,
                                SmallVectorImpl<OpFoldResult> &results) {
  OperandValues operands(*this, constantOperands);
  SmallVector<OpFoldResult> shape = operands.get(getGlobalShape());
  SmallVector<OpFoldResult> grid = operands.get(getGrid());
  OpFoldResult rank = operands.get(OpFoldResult(getRank()));
  SmallVector<IndexRange> ranges;
  for (OpFoldResult size : shape)
    ranges.push_back({math.constant(0), size});
  // Row-major coordinates: the last grid dimension varies fastest.
  OpFoldResult rest = rank;
  for (auto [axis, size] : llvm::reverse(llvm::zip_equal(getSplit(), grid))) {
    ranges[axis] = getBlock(math, shape[axis], size, math.rem(rest, size));
    rest = math.div(rest, size);
  }
  // A rank beyond the grid (rest > 0) owns nothing.
  OpFoldResult inGrid =
      math.select(arith::CmpIPredicate::eq, rest, math.constant(0),
                  math.constant(1), math.constant(0));
  for (int64_t axis : getSplit())
    ranges[axis].size = math.mul(ranges[axis].size, inGrid);
  return appendRanges(ranges, results);
}

LogicalResult GridPartitionOp::fold(FoldAdaptor adaptor,
                                    SmallVectorImpl<OpFoldResult> &results) {
  return foldIndexOp(*this, adaptor.getOperands(), results);
}

//===----------------------------------------------------------------------===//
// LocalTargetOfSliceOp
//===----------------------------------------------------------------------===//

void LocalTargetOfSliceOp::build(OpBuilder &builder, OperationState &state,
                                 Value array, ArrayRef<OpFoldResult> offsets,
                                 ArrayRef<OpFoldResult> sizes,
                                 ArrayRef<OpFoldResult> strides) {
  SmallVector<Value> dynOffsets, dynSizes, dynStrides;
  SmallVector<int64_t> staticOffsets, staticSizes, staticStrides;
  dispatchIndexOpFoldResults(offsets, dynOffsets, staticOffsets);
  dispatchIndexOpFoldResults(sizes, dynSizes, staticSizes);
  dispatchIndexOpFoldResults(strides, dynStrides, staticStrides);
  build(builder, state, array, dynOffsets, dynSizes, dynStrides,
        builder.getDenseI64ArrayAttr(staticOffsets),
        builder.getDenseI64ArrayAttr(staticSizes),
        builder.getDenseI64ArrayAttr(staticStrides));
}

LogicalResult LocalTargetOfSliceOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  FailureOr<int64_t> rank = getArrayRank(location, adaptor.getArray());
  if (failed(rank))
    return failure();
  return inferIndexResults(context, *rank, inferred);
}

/// Verifies that the distributed `type` of rank >= 1 is split on rows (the
/// local_* index ops compute with row blocks).
static LogicalResult verifySplitOnRows(Operation *op, NDArrayType type) {
  if (type.getRank() == 0)
    return op->emitOpError("expects a distributed array of rank >= 1");
  if (!getDistEnv(type).isDefaultDistribution())
    return op->emitOpError("expects an array split on rows (the default "
                           "distribution), got ")
           << getDistEnv(type);
  return success();
}

LogicalResult LocalTargetOfSliceOp::verify() {
  NDArrayType type = getArray().getType();
  if (failed(verifySplitOnRows(*this, type)))
    return failure();
  return ndarray::verifySliceBounds([&] { return emitOpError(); },
                                    type.getShape(), getStaticOffsets(),
                                    getStaticSizes(), getStaticStrides());
}

LogicalResult
LocalTargetOfSliceOp::computeResults(IndexMath &math,
                                     ArrayRef<Attribute> constantOperands,
                                     SmallVectorImpl<OpFoldResult> &results) {
  OperandValues operands(*this, constantOperands);
  SmallVector<OpFoldResult> offsets = operands.get(getMixedOffsets());
  SmallVector<OpFoldResult> sizes = operands.get(getMixedSizes());
  SmallVector<OpFoldResult> strides = operands.get(getMixedStrides());
  int64_t rank = getArray().getType().getRank();
  if (rank == 0 || static_cast<int64_t>(offsets.size()) != rank ||
      static_cast<int64_t>(sizes.size()) != rank ||
      static_cast<int64_t>(strides.size()) != rank)
    return failure();
  OwnedRows owned = getOwnedRows(math, getArray());
  SmallVector<IndexRange> ranges;
  if (isAllRows(getArray(), offsets[0], sizes[0], strides[0])) {
    // (The owned rows, which lie in the array: no clamping.)
    ranges.push_back({owned.offset, owned.size});
  } else {
    auto [first, last] = getOwnedViewRows(math, owned, offsets[0], strides[0]);
    ranges.push_back(clampRange(math, first, last, math.constant(0), sizes[0]));
  }
  for (OpFoldResult size : ArrayRef(sizes).drop_front())
    ranges.push_back({math.constant(0), size});
  return appendRanges(ranges, results);
}

LogicalResult
LocalTargetOfSliceOp::fold(FoldAdaptor adaptor,
                           SmallVectorImpl<OpFoldResult> &results) {
  return foldIndexOp(*this, adaptor.getOperands(), results);
}

//===----------------------------------------------------------------------===//
// LocalBoundingBoxOp
//===----------------------------------------------------------------------===//

LogicalResult
LocalBoundingBoxOp::inferReturnTypes(MLIRContext *context,
                                     std::optional<Location>, Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  return inferIndexResults(context, adaptor.getViewOffsets().size(), inferred);
}

LogicalResult LocalBoundingBoxOp::verify() {
  int64_t rank = getViewOffsets().size();
  if (rank == 0)
    return emitOpError("expects at least one dimension");
  if (failed(verifyCount(*this, "view size", getViewSizes(), rank)) ||
      failed(verifyCount(*this, "view stride", getViewStrides(), rank)) ||
      failed(verifyCount(*this, "target offset", getTargetOffsets(), rank)) ||
      failed(verifyCount(*this, "target size", getTargetSizes(), rank)) ||
      failed(verifyOptionalBox(*this, "bounding box", getBbOffsets(),
                               getBbSizes(), rank)))
    return failure();
  return verifyConstantStrides(*this, getViewStrides());
}

/// The hull of two boxes `[offset, offset + size)`; an empty box does not
/// contribute.
static IndexRange getHull(IndexMath &math, IndexRange a, IndexRange b) {
  using arith::CmpIPredicate;
  OpFoldResult zero = math.constant(0);
  auto hull = [&]() -> IndexRange {
    OpFoldResult lo = math.min(a.offset, b.offset);
    OpFoldResult hi =
        math.max(math.add(a.offset, a.size), math.add(b.offset, b.size));
    return {lo, math.sub(hi, lo)};
  };
  // Computed lazily: nothing is created when an emptiness test folds.
  std::optional<IndexRange> both;
  auto getBoth = [&]() -> IndexRange {
    if (!both)
      both = hull();
    return *both;
  };
  auto pick = [&](auto field) {
    return math.select(
        CmpIPredicate::eq, b.size, zero, [&] { return a.*field; },
        [&] {
          return math.select(
              CmpIPredicate::eq, a.size, zero, [&] { return b.*field; },
              [&] { return getBoth().*field; });
        });
  };
  return {pick(&IndexRange::offset), pick(&IndexRange::size)};
}

LogicalResult
LocalBoundingBoxOp::computeResults(IndexMath &math,
                                   ArrayRef<Attribute> constantOperands,
                                   SmallVectorImpl<OpFoldResult> &results) {
  OperandValues operands(*this, constantOperands);
  SmallVector<OpFoldResult> viewOffsets = operands.get(getViewOffsets());
  SmallVector<OpFoldResult> viewStrides = operands.get(getViewStrides());
  SmallVector<OpFoldResult> targetOffsets = operands.get(getTargetOffsets());
  SmallVector<OpFoldResult> targetSizes = operands.get(getTargetSizes());
  SmallVector<OpFoldResult> bbOffsets = operands.get(getBbOffsets());
  SmallVector<OpFoldResult> bbSizes = operands.get(getBbSizes());
  size_t rank = viewOffsets.size();
  if (rank == 0 || viewStrides.size() != rank || targetOffsets.size() != rank ||
      targetSizes.size() != rank || bbOffsets.size() != bbSizes.size() ||
      (!bbOffsets.empty() && bbOffsets.size() != rank))
    return failure();
  SmallVector<IndexRange> ranges;
  for (size_t dim = 0; dim < rank; ++dim) {
    OpFoldResult stride = viewStrides[dim];
    OpFoldResult scaledTarget = math.mul(stride, targetOffsets[dim]);
    // [f + s * t, f + s * (t + n - 1) + 1); the size is <= 0 iff n == 0.
    OpFoldResult offset = math.add(viewOffsets[dim], scaledTarget);
    OpFoldResult size = math.max(
        math.add(math.mul(stride, math.sub(targetSizes[dim], math.constant(1))),
                 math.constant(1)),
        math.constant(0));
    IndexRange box{offset, size};
    // A chain of boxes of views of the same target (a stencil's shifted
    // views) has one size: all are empty or none is, and their hull spans
    // the smallest view offset to `size` after the largest (min/max fold
    // when the offsets are constant shifts of one value).
    OpFoldResult lo = box.offset, last = box.offset;
    Value bbOffset = getBbOffsets().empty() ? Value() : getBbOffsets()[dim];
    Value bbSize = getBbSizes().empty() ? Value() : getBbSizes()[dim];
    std::optional<IndexRange> rest;
    bool chained = false;
    if (!bbOffsets.empty())
      rest = IndexRange{bbOffsets[dim], bbSizes[dim]};
    while (rest) {
      auto prev = bbOffset ? bbOffset.getDefiningOp<LocalBoundingBoxOp>()
                           : LocalBoundingBoxOp();
      if (!prev || prev.getResult(dim) != bbOffset ||
          prev.getResult(rank + dim) != bbSize ||
          prev.getViewStrides()[dim] != getViewStrides()[dim] ||
          prev.getTargetOffsets()[dim] != getTargetOffsets()[dim] ||
          prev.getTargetSizes()[dim] != getTargetSizes()[dim])
        break;
      OpFoldResult prevOffset = math.add(
          operands.get(OpFoldResult(prev.getViewOffsets()[dim])), scaledTarget);
      lo = math.min(lo, prevOffset);
      last = math.max(last, prevOffset);
      chained = true;
      rest.reset();
      if (!prev.getBbOffsets().empty()) {
        bbOffset = prev.getBbOffsets()[dim];
        bbSize = prev.getBbSizes()[dim];
        rest = IndexRange{operands.get(OpFoldResult(bbOffset)),
                          operands.get(OpFoldResult(bbSize))};
      }
    }
    if (chained) {
      OpFoldResult zero = math.constant(0);
      box = {math.select(arith::CmpIPredicate::eq, size, zero, box.offset, lo),
             math.select(arith::CmpIPredicate::eq, size, zero, size,
                         math.add(math.sub(last, lo), size))};
    }
    if (rest)
      box = getHull(math, box, *rest);
    ranges.push_back(box);
  }
  return appendRanges(ranges, results);
}

LogicalResult LocalBoundingBoxOp::fold(FoldAdaptor adaptor,
                                       SmallVectorImpl<OpFoldResult> &results) {
  return foldIndexOp(*this, adaptor.getOperands(), results);
}

//===----------------------------------------------------------------------===//
// LocalCoreOp
//===----------------------------------------------------------------------===//

LogicalResult LocalCoreOp::inferReturnTypes(MLIRContext *context,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  FailureOr<int64_t> rank = getArrayRank(location, adaptor.getArray());
  if (failed(rank))
    return failure();
  return inferIndexResults(context, *rank, inferred);
}

LogicalResult LocalCoreOp::verify() {
  int64_t rank = getArray().getType().getRank();
  if (failed(verifySplitOnRows(*this, getArray().getType())))
    return failure();
  if (failed(verifyCount(*this, "target offset", getTargetOffsets(), rank)) ||
      failed(verifyCount(*this, "target size", getTargetSizes(), rank)) ||
      failed(verifyCount(*this, "view offset", getViewOffsets(), rank)) ||
      failed(verifyCount(*this, "view size", getViewSizes(), rank)) ||
      failed(verifyCount(*this, "view stride", getViewStrides(), rank)) ||
      failed(verifyOptionalBox(*this, "core", getCoreOffsets(), getCoreSizes(),
                               rank)))
    return failure();
  return verifyConstantStrides(*this, getViewStrides());
}

LogicalResult
LocalCoreOp::computeResults(IndexMath &math,
                            ArrayRef<Attribute> constantOperands,
                            SmallVectorImpl<OpFoldResult> &results) {
  OperandValues operands(*this, constantOperands);
  SmallVector<OpFoldResult> targetOffsets = operands.get(getTargetOffsets());
  SmallVector<OpFoldResult> targetSizes = operands.get(getTargetSizes());
  SmallVector<OpFoldResult> viewOffsets = operands.get(getViewOffsets());
  SmallVector<OpFoldResult> viewStrides = operands.get(getViewStrides());
  SmallVector<OpFoldResult> coreOffsets = operands.get(getCoreOffsets());
  SmallVector<OpFoldResult> coreSizes = operands.get(getCoreSizes());
  size_t rank = getArray().getType().getRank();
  if (rank == 0 || targetOffsets.size() != rank || targetSizes.size() != rank ||
      viewOffsets.size() != rank || viewStrides.size() != rank ||
      coreOffsets.size() != coreSizes.size() ||
      (!coreOffsets.empty() && coreOffsets.size() != rank))
    return failure();
  SmallVector<IndexRange> ranges;
  for (size_t dim = 0; dim < rank; ++dim) {
    OpFoldResult begin = targetOffsets[dim];
    OpFoldResult end = math.add(begin, targetSizes[dim]);
    // Rows [first, last) before clamping into the target; on dimensions 1..
    // without an incoming core, the whole target.
    if (dim > 0 && coreOffsets.empty()) {
      ranges.push_back({begin, targetSizes[dim]});
      continue;
    }
    OpFoldResult first, last;
    if (dim == 0) {
      OwnedRows owned = getOwnedRows(math, getArray());
      std::tie(first, last) =
          getOwnedViewRows(math, owned, viewOffsets[0], viewStrides[0]);
    }
    if (!coreOffsets.empty()) {
      OpFoldResult coreEnd = math.add(coreOffsets[dim], coreSizes[dim]);
      first = dim == 0 ? math.max(first, coreOffsets[dim]) : coreOffsets[dim];
      last = dim == 0 ? math.min(last, coreEnd) : coreEnd;
    }
    ranges.push_back(clampRange(math, first, last, begin, end));
  }
  return appendRanges(ranges, results);
}

LogicalResult LocalCoreOp::fold(FoldAdaptor adaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  return foldIndexOp(*this, adaptor.getOperands(), results);
}
