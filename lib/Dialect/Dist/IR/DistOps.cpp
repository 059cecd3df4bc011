//===- DistOps.cpp - dist dialect operations ------------------------------===//

#include "imex/Dialect/Dist/IR/Dist.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace imex;
using namespace imex::dist;
using ndarray::NDArrayType;

#define GET_OP_CLASSES
#include "imex/Dialect/Dist/IR/DistOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

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

static bool areCompatibleSizes(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

static bool areCompatibleShapes(ArrayRef<int64_t> a, ArrayRef<int64_t> b) {
  return a.size() == b.size() &&
         llvm::all_of(llvm::zip_equal(a, b), [](auto pair) {
           return areCompatibleSizes(std::get<0>(pair), std::get<1>(pair));
         });
}

/// The constant value of an index operand, if any.
static std::optional<int64_t> getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)) &&
      constant.getSignificantBits() <= 64)
    return constant.getSExtValue();
  return std::nullopt;
}

/// The name of part `part` of an array of rank `rank`.
static StringRef getPartName(int64_t rank, unsigned part) {
  if (rank == 0)
    return "the value";
  switch (part) {
  case 0:
    return "left halo";
  case 1:
    return "owned block";
  default:
    return "right halo";
  }
}

/// The number of local parts of a distributed array of rank `rank`.
static unsigned getNumParts(int64_t rank) { return rank == 0 ? 1 : 3; }

/// Verifies that `actual`, part `part` of `distType`, matches the part type
/// the dist env gives: same element type, rank and environments, and
/// compatible sizes.
static LogicalResult verifyPartType(Operation *op, StringRef what,
                                    NDArrayType distType, unsigned part,
                                    NDArrayType actual) {
  NDArrayType expected = getPartType(distType, part);
  if (expected && actual.getElementType() == expected.getElementType() &&
      actual.getEnvironments() == expected.getEnvironments() &&
      areCompatibleShapes(actual.getShape(), expected.getShape()))
    return success();
  return op->emitOpError() << what << " " << part << " ("
                           << getPartName(distType.getRank(), part)
                           << ") has type " << actual
                           << ", which does not match the part type "
                           << expected << " given by the dist_env";
}

/// Emits an error unless `values` has `expected` entries.
static LogicalResult verifyCount(Operation *op, StringRef what,
                                 ValueRange values, int64_t expected) {
  if (static_cast<int64_t>(values.size()) == expected)
    return success();
  return op->emitOpError("expects one ")
         << what << " per dimension (" << expected << "), got "
         << values.size();
}

/// Emits an error if a constant in `strides` is not positive.
static LogicalResult verifyConstantStrides(Operation *op, ValueRange strides) {
  for (Value stride : strides)
    if (std::optional<int64_t> value = getConstantIndex(stride);
        value && *value <= 0)
      return op->emitOpError("view strides must be positive, got ") << *value;
  return success();
}

/// Emits an error unless an optional box (`offsets`, `sizes`) is absent or
/// has one offset and one size per dimension.
static LogicalResult verifyOptionalBox(Operation *op, StringRef what,
                                       ValueRange offsets, ValueRange sizes,
                                       int64_t rank) {
  if (offsets.empty() && sizes.empty())
    return success();
  if (static_cast<int64_t>(offsets.size()) == rank &&
      static_cast<int64_t>(sizes.size()) == rank)
    return success();
  return op->emitOpError("expects the incoming ")
         << what << " to have one offset and one size per dimension (" << rank
         << "), got " << offsets.size() << " offset(s) and " << sizes.size()
         << " size(s)";
}

/// Infers `2 * rank` index results.
static LogicalResult inferIndexResults(MLIRContext *context, int64_t rank,
                                       SmallVectorImpl<Type> &types) {
  types.assign(2 * rank, IndexType::get(context));
  return success();
}

/// The rank of `value`'s array type, or an error.
static FailureOr<int64_t> getArrayRank(std::optional<Location> location,
                                       Value value) {
  auto type = value ? dyn_cast<NDArrayType>(value.getType()) : NDArrayType();
  if (!type)
    return emitOptionalError(location, "expects an ndarray operand");
  return type.getRank();
}

//===----------------------------------------------------------------------===//
// InitDistArrayOp
//===----------------------------------------------------------------------===//

/// The value of the global size `dim` of the distributed array `array`
/// when it is known without new ops: the shape operand of the
/// `init_dist_array` it comes from, through elementwise ops (whose
/// non-broadcast operands must all agree), casts and redistributions.
static Value findGlobalSize(Value array, int64_t dim, unsigned depth) {
  auto type = dyn_cast<NDArrayType>(array.getType());
  if (!type || depth > 32 || !type.isDynamicDim(dim))
    return {};
  Operation *def = array.getDefiningOp();
  if (!def)
    return {};
  if (auto init = dyn_cast<InitDistArrayOp>(def))
    return init.getGlobalShape().empty() ? Value() : init.getGlobalShape()[dim];
  if (isa<RepartitionOp, LocalRepartitionOp, ndarray::CastOp,
          ndarray::CastElemTypeOp, ndarray::EWUnyOp>(def))
    return findGlobalSize(def->getOperand(0), dim, depth + 1);
  if (auto insert = dyn_cast<ndarray::ImmutableInsertSliceOp>(def))
    return findGlobalSize(insert.getDestination(), dim, depth + 1);
  if (!isa<ndarray::EWBinOp, ndarray::WhereOp>(def))
    return {};
  // Dimensions aligned at the end; operands of size 1 there broadcast.
  Value common;
  for (Value operand : def->getOperands()) {
    auto operandType = cast<NDArrayType>(operand.getType());
    int64_t d = dim - (type.getRank() - operandType.getRank());
    if (d < 0 || operandType.getDimSize(d) == 1)
      continue;
    Value size = findGlobalSize(operand, d, depth + 1);
    if (!size || (common && size != common))
      return {};
    common = size;
  }
  return common;
}

Value dist::getKnownGlobalSize(Value array, int64_t dim) {
  return findGlobalSize(array, dim, 0);
}

namespace {
/// `ndarray.dim` of a distributed array whose global size is known.
struct FoldDimOfDistributedArray : public OpRewritePattern<ndarray::DimOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ndarray::DimOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> dim = getConstantIntValue(op.getIndex());
    if (!dim || !getDistEnv(op.getSource().getType()))
      return failure();
    Value size = getKnownGlobalSize(op.getSource(), *dim);
    if (!size)
      return failure();
    rewriter.replaceOp(op, size);
    return success();
  }
};
} // namespace

void InitDistArrayOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                  MLIRContext *context) {
  results.add<FoldDimOfDistributedArray>(context);
}

ndarray::SubviewOp InitDistArrayOp::getSpareRowsView() {
  if (!getSpareRowsAttr() || getParts().size() != 3)
    return {};
  Value owned = getParts()[1];
  while (auto cast = owned.getDefiningOp<ndarray::CastOp>())
    owned = cast.getSource();
  return owned.getDefiningOp<ndarray::SubviewOp>();
}

LogicalResult InitDistArrayOp::verify() {
  NDArrayType type = getType();
  DistEnvAttr env = getDistEnv(type);
  int64_t rank = type.getRank();
  unsigned numParts = getNumParts(rank);
  if (getParts().size() != numParts)
    return emitOpError("expects ") << numParts << " part(s) for a " << rank
                                   << "-d array, got " << getParts().size();
  if (failed(verifyCount(*this, "local offset", getLocalOffsets(), rank)) ||
      failed(verifyCount(*this, "global size", getGlobalShape(), rank)))
    return failure();
  for (auto [i, part] : llvm::enumerate(getParts())) {
    auto partType = cast<NDArrayType>(part.getType());
    if (failed(verifyPartType(*this, "part", type, i, partType)))
      return failure();
    for (int64_t dim = 1; dim < rank; ++dim)
      if (!areCompatibleSizes(partType.getDimSize(dim), type.getDimSize(dim)))
        return emitOpError("part ")
               << i << " (" << getPartName(rank, i) << ") has size "
               << partType.getDimSize(dim) << " on dimension " << dim
               << " but the array has size " << type.getDimSize(dim)
               << " (every rank holds whole rows)";
  }
  for (auto [dim, size] : llvm::enumerate(getGlobalShape())) {
    std::optional<int64_t> value = getConstantIndex(size);
    if (value && !areCompatibleSizes(*value, type.getDimSize(dim)))
      return emitOpError("global size ")
             << *value << " of dimension " << dim
             << " differs from the static size " << type.getDimSize(dim)
             << " of the result";
  }
  if (std::optional<ArrayRef<int64_t>> spare = getSpareRows()) {
    if (spare->size() != 2 || (*spare)[0] < 0 || (*spare)[1] < 0)
      return emitOpError("spare_rows must be two non-negative row counts "
                         "(before, after the owned block), got ")
             << getSpareRowsAttr();
    if (numParts != 3 || !getSpareRowsView())
      return emitOpError("spare_rows needs the owned block to be an "
                         "ndarray.subview of the buffer holding them");
  }
  for (auto [dim, offset] : llvm::enumerate(getLocalOffsets())) {
    std::optional<int64_t> value = getConstantIndex(offset);
    if (!value)
      continue;
    if (dim > 0 && *value != 0)
      return emitOpError("local offset of dimension ")
             << dim << " must be 0 (arrays are split on dimension 0), got "
             << *value;
    if (!areCompatibleSizes(*value, env.getLocalOffsets()[dim]))
      return emitOpError("local offset ")
             << *value << " of dimension " << dim
             << " differs from the static local offset "
             << env.getLocalOffsets()[dim] << " of the result's dist_env";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PartsOfOp
//===----------------------------------------------------------------------===//

void PartsOfOp::build(OpBuilder &builder, OperationState &state, Value array) {
  SmallVector<Type> types;
  if (auto type = dyn_cast<NDArrayType>(array.getType()); type && isDist(type))
    for (unsigned part = 0; part < getNumParts(type.getRank()); ++part)
      types.push_back(getPartType(type, part));
  build(builder, state, types, array);
}

LogicalResult PartsOfOp::verify() {
  NDArrayType type = getArray().getType();
  unsigned numParts = getNumParts(type.getRank());
  if (getParts().size() != numParts)
    return emitOpError("expects ")
           << numParts << " result(s) for a " << type.getRank()
           << "-d array, got " << getParts().size();
  for (auto [i, part] : llvm::enumerate(getParts()))
    if (failed(verifyPartType(*this, "result", type, i,
                              cast<NDArrayType>(part.getType()))))
      return failure();
  return success();
}

LogicalResult PartsOfOp::fold(FoldAdaptor,
                              SmallVectorImpl<OpFoldResult> &results) {
  auto init = getArray().getDefiningOp<InitDistArrayOp>();
  if (!init || init.getParts().getTypes() != getResultTypes())
    return failure();
  llvm::append_range(results, init.getParts());
  return success();
}

//===----------------------------------------------------------------------===//
// LocalOffsetsOfOp
//===----------------------------------------------------------------------===//

LogicalResult LocalOffsetsOfOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  FailureOr<int64_t> rank = getArrayRank(location, adaptor.getArray());
  if (failed(rank))
    return failure();
  inferred.assign(*rank, IndexType::get(context));
  return success();
}

/// The local offset of dimension 0 of `array`: static in its type, or the
/// operand of the `dist.init_dist_array` defining it; null if unknown.
static OpFoldResult getKnownLocalOffset(Value array) {
  DistEnvAttr env = getDistEnv(array.getType());
  if (!env || env.getRank() == 0)
    return {};
  int64_t offset = env.getLocalOffsets()[0];
  if (!ShapedType::isDynamic(offset))
    return IntegerAttr::get(IndexType::get(array.getContext()), offset);
  if (auto init = array.getDefiningOp<InitDistArrayOp>();
      init && init.getLocalOffsets().size() == env.getLocalOffsets().size())
    return getAsOpFoldResult(init.getLocalOffsets()[0]);
  return {};
}

LogicalResult LocalOffsetsOfOp::fold(FoldAdaptor,
                                     SmallVectorImpl<OpFoldResult> &results) {
  OpFoldResult first = getKnownLocalOffset(getArray());
  if (!first || getOffsets().empty())
    return failure();
  results.push_back(first);
  Builder builder(getContext());
  for (size_t dim = 1; dim < getOffsets().size(); ++dim)
    results.push_back(builder.getIndexAttr(0));
  return success();
}

namespace {
/// The local offsets of dimensions 1.. are 0.
struct ZeroTrailingLocalOffsets : public OpRewritePattern<LocalOffsetsOfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LocalOffsetsOfOp op,
                                PatternRewriter &rewriter) const override {
    Value zero;
    for (Value offset : op.getOffsets().drop_front()) {
      if (offset.use_empty())
        continue;
      if (!zero) {
        rewriter.setInsertionPoint(op);
        zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
      }
      rewriter.replaceAllUsesWith(offset, zero);
    }
    return success(zero != nullptr);
  }
};
} // namespace

void LocalOffsetsOfOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<ZeroTrailingLocalOffsets>(context);
}

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

/// The owned rows of the distributed `array`: taken from its type or its
/// `dist.init_dist_array` where static, else (with a builder) from
/// `dist.local_offsets_of`, `dist.parts_of` and `ndarray.dim`.
static OwnedRows getOwnedRows(IndexMath &math, Value array) {
  auto type = cast<NDArrayType>(array.getType());
  DistEnvAttr env = getDistEnv(type);
  auto init = array.getDefiningOp<InitDistArrayOp>();
  if (init && init.getParts().size() != 3)
    init = {};
  OpBuilder *builder = math.getBuilder();

  OpFoldResult offset = getKnownLocalOffset(array);
  if (!offset && builder)
    offset =
        LocalOffsetsOfOp::create(*builder, math.getLoc(), array).getResult(0);

  PartsOfOp partsOf;
  auto getRows = [&](unsigned part) -> OpFoldResult {
    SmallVector<int64_t> shape = env.getPartShape(part);
    int64_t rows = shape.empty() ? ShapedType::kDynamic : shape[0];
    Value partValue;
    if (ShapedType::isDynamic(rows) && init) {
      partValue = init.getParts()[part];
      rows = cast<NDArrayType>(partValue.getType()).getDimSize(0);
    }
    if (!ShapedType::isDynamic(rows))
      return math.constant(rows);
    if (!builder)
      return {};
    if (!partValue) {
      if (!partsOf)
        partsOf = PartsOfOp::create(*builder, math.getLoc(), array);
      partValue = partsOf.getResult(part);
    }
    return ndarray::DimOp::create(*builder, math.getLoc(), partValue, 0)
        .getResult();
  };
  OpFoldResult leftRows = getRows(0);
  OpFoldResult ownedRows = getRows(1);
  return {math.add(offset, leftRows), ownedRows};
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
  if (rank && *rank < 0)
    return emitOpError("rank must be non-negative, got ") << *rank;
  if (rank && nprocs && *rank >= *nprocs)
    return emitOpError("rank ")
           << *rank << " is out of range for " << *nprocs << " rank(s)";
  for (auto [dim, size] : llvm::enumerate(getGlobalShape()))
    if (std::optional<int64_t> value = getConstantIndex(size);
        value && *value < 0)
      return emitOpError("global size of dimension ")
             << dim << " must be non-negative, got " << *value;
  return success();
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
  // n / p rows each; the last n % p ranks (from `firstBig` on) get one more.
  OpFoldResult n = shape[0];
  OpFoldResult quotient = math.div(n, nprocs);
  OpFoldResult firstBig = math.sub(nprocs, math.rem(n, nprocs));
  SmallVector<IndexRange> ranges;
  ranges.push_back(
      {math.add(math.mul(rank, quotient),
                math.max(math.constant(0), math.sub(rank, firstBig))),
       math.add(quotient, math.select(arith::CmpIPredicate::sge, rank, firstBig,
                                      math.constant(1), math.constant(0)))});
  for (OpFoldResult size : ArrayRef(shape).drop_front())
    ranges.push_back({math.constant(0), size});
  return appendRanges(ranges, results);
}

LogicalResult DefaultPartitionOp::fold(FoldAdaptor adaptor,
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

LogicalResult LocalTargetOfSliceOp::verify() {
  NDArrayType type = getArray().getType();
  if (type.getRank() == 0)
    return emitOpError("expects a distributed array of rank >= 1");
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
  auto [first, last] = getOwnedViewRows(math, owned, offsets[0], strides[0]);
  SmallVector<IndexRange> ranges;
  ranges.push_back(clampRange(math, first, last, math.constant(0), sizes[0]));
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
  if (rank == 0)
    return emitOpError("expects a distributed array of rank >= 1");
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

//===----------------------------------------------------------------------===//
// RepartitionOp
//===----------------------------------------------------------------------===//

/// Verifies a repartition of `source` to rows [offset, offset + size) with
/// result type `result` (dist.repartition and dist.local_repartition).
static LogicalResult verifyRepartition(Operation *op, NDArrayType source,
                                       NDArrayType result, Value offsetValue,
                                       Value sizeValue) {
  auto emitOpError = [&](const Twine &message) {
    return op->emitOpError(message);
  };
  DistEnvAttr sourceEnv = getDistEnv(source), resultEnv = getDistEnv(result);
  if (sourceEnv.getTeam() != resultEnv.getTeam())
    return emitOpError("source and result must be distributed over the same "
                       "team, got teams ")
           << sourceEnv.getTeam() << " and " << resultEnv.getTeam();
  if (source.getElementType() != result.getElementType())
    return emitOpError("result element type ")
           << result.getElementType() << " differs from the source's "
           << source.getElementType();
  if (source.getRank() == 0)
    return emitOpError("expects arrays of rank >= 1 (0-d arrays are "
                       "replicated)");
  if (!areCompatibleShapes(source.getShape(), result.getShape()))
    return emitOpError("result shape ")
           << formatShape(result.getShape())
           << " is incompatible with the source shape "
           << formatShape(source.getShape());
  if (getPartType(source, 0).getEnvironments() !=
      getPartType(result, 0).getEnvironments())
    return emitOpError("source and result must have the same environments "
                       "besides #dist.dist_env");
  std::optional<int64_t> offset = getConstantIndex(offsetValue);
  std::optional<int64_t> size = getConstantIndex(sizeValue);
  if (offset && *offset < 0)
    return emitOpError("offset must be non-negative, got ") << *offset;
  if (size && *size < 0)
    return emitOpError("size must be non-negative, got ") << *size;
  int64_t rows = source.getDimSize(0);
  if (ShapedType::isDynamic(rows))
    rows = result.getDimSize(0);
  if (offset && size && !ShapedType::isDynamic(rows)) {
    std::optional<int64_t> end = llvm::checkedAdd(*offset, *size);
    if (!end || *end > rows)
      return emitOpError("rows [")
             << *offset << ", " << *offset << " + " << *size << ") exceed the "
             << rows << " rows of the array";
  }
  return success();
}

LogicalResult RepartitionOp::verify() {
  return verifyRepartition(*this, getSource().getType(), getType(), getOffset(),
                           getSize());
}

LogicalResult LocalRepartitionOp::verify() {
  return verifyRepartition(*this, getSource().getType(), getType(), getOffset(),
                           getSize());
}

LogicalResult
AlignCoresOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                               AlignCoresOp::Adaptor adaptor,
                               SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, adaptor.getArrays().getTypes());
  return success();
}

LogicalResult AlignCoresOp::verify() {
  if (getArrays().empty())
    return emitOpError("expects at least one array");
  auto first = cast<NDArrayType>(getArrays().front().getType());
  int64_t team = getDistEnv(first).getTeam();
  for (Value array : getArrays()) {
    auto type = cast<NDArrayType>(array.getType());
    if (getDistEnv(type).getTeam() != team)
      return emitOpError("expects arrays of one team, got teams ")
             << team << " and " << getDistEnv(type).getTeam();
    if (type.getRank() == 0)
      return emitOpError("expects arrays of rank >= 1 (0-d arrays are "
                         "replicated)");
    int64_t rows = type.getDimSize(0), firstRows = first.getDimSize(0);
    if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(firstRows) &&
        rows != firstRows)
      return emitOpError("expects arrays with the same rows, got ")
             << firstRows << " and " << rows << " rows";
  }
  return success();
}