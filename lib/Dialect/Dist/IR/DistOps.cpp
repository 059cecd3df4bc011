//===- DistOps.cpp - dist dialect operations ------------------------------===//
//
// The dist ops except the partition arithmetic (PartitionOps.cpp), and the
// TableGen'd definitions.
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
std::optional<int64_t> op_helpers::getConstantIndex(Value value) {
  APInt constant;
  if (value && matchPattern(value, m_ConstantInt(&constant)) &&
      constant.getSignificantBits() <= 64)
    return constant.getSExtValue();
  return std::nullopt;
}

/// Verifies that `actual`, the `what` of `distType`, is a local array of
/// `distType`'s block: same element type, rank and other environments, and
/// sizes compatible with `getLocalType`'s.
static LogicalResult verifyBlockType(Operation *op, StringRef what,
                                     NDArrayType distType, NDArrayType actual) {
  NDArrayType expected = getLocalType(distType);
  if (expected && actual.getElementType() == expected.getElementType() &&
      actual.getEnvironments() == expected.getEnvironments() &&
      areCompatibleShapes(actual.getShape(), expected.getShape()))
    return success();
  return op->emitOpError() << what << " has type " << actual
                           << ", which is not a local array of type "
                           << expected << " (the array's block)";
}

/// Emits an error unless `values` has `expected` entries.
LogicalResult op_helpers::verifyCount(Operation *op, StringRef what,
                                      ValueRange values, int64_t expected) {
  if (static_cast<int64_t>(values.size()) == expected)
    return success();
  return op->emitOpError("expects one ")
         << what << " per dimension (" << expected << "), got "
         << values.size();
}

/// Emits an error if a constant in `strides` is not positive.
LogicalResult op_helpers::verifyConstantStrides(Operation *op,
                                                ValueRange strides) {
  for (Value stride : strides)
    if (std::optional<int64_t> value = getConstantIndex(stride);
        value && *value <= 0)
      return op->emitOpError("view strides must be positive, got ") << *value;
  return success();
}

/// Emits an error unless an optional box (`offsets`, `sizes`) is absent or
/// has one offset and one size per dimension.
LogicalResult op_helpers::verifyOptionalBox(Operation *op, StringRef what,
                                            ValueRange offsets,
                                            ValueRange sizes, int64_t rank) {
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
LogicalResult op_helpers::inferIndexResults(MLIRContext *context, int64_t rank,
                                            SmallVectorImpl<Type> &types) {
  types.assign(2 * rank, IndexType::get(context));
  return success();
}

/// The rank of `value`'s array type, or an error.
FailureOr<int64_t> op_helpers::getArrayRank(std::optional<Location> location,
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
  if (isa<RepartitionOp, LocalRepartitionOp, RedistributeOp, ndarray::CastOp,
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
  if (!getSpareRowsAttr())
    return {};
  Value block = getBlock();
  while (auto cast = block.getDefiningOp<ndarray::CastOp>())
    block = cast.getSource();
  return block.getDefiningOp<ndarray::SubviewOp>();
}

LogicalResult InitDistArrayOp::verify() {
  NDArrayType type = getType();
  int64_t rank = type.getRank();
  if (failed(verifyCount(*this, "offset", getOffsets(), rank)) ||
      failed(verifyCount(*this, "global size", getGlobalShape(), rank)))
    return failure();
  // (Including the sizes of the axes that are not split: every rank holds
  // all of them.)
  if (failed(verifyBlockType(*this, "the block", type,
                             cast<NDArrayType>(getBlock().getType()))))
    return failure();
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
                         "(before, after the block), got ")
             << getSpareRowsAttr();
    if (rank == 0 || !getSpareRowsView())
      return emitOpError("spare_rows needs the block to be an "
                         "ndarray.subview of the buffer holding them");
  }
  for (auto [dim, offset] : llvm::enumerate(getOffsets())) {
    std::optional<int64_t> value = getConstantIndex(offset);
    if (value && *value < 0)
      return emitOpError("offset of dimension ")
             << dim << " must be non-negative, got " << *value;
    if (value && *value != 0 &&
        !llvm::is_contained(getDistEnv(type).getSplit(), int64_t(dim)))
      return emitOpError("offset of dimension ")
             << dim << " must be 0 (it is not split: every rank holds all of "
             << "it), got " << *value;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// OwnedBlockOfOp and HeldBlockOfOp (their members: Dist_BlockOfOp)
//===----------------------------------------------------------------------===//

Type op_helpers::getBlockTypeOf(Value array) {
  auto type = dyn_cast<NDArrayType>(array.getType());
  return type && isDist(type) ? getLocalType(type) : Type();
}

LogicalResult op_helpers::verifyBlockOf(Operation *op, NDArrayType array,
                                        NDArrayType block) {
  return verifyBlockType(op, "result", array, block);
}

OpFoldResult op_helpers::foldToInitBlock(Value array, Type type) {
  auto init = array.getDefiningOp<InitDistArrayOp>();
  if (!init || init.getBlock().getType() != type)
    return {};
  return init.getBlock();
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

/// The local offset of dimension 0 of `array`: the operand of the
/// `dist.init_dist_array` defining it; null if unknown.
OpFoldResult op_helpers::getKnownLocalOffset(Value array) {
  auto init = array.getDefiningOp<InitDistArrayOp>();
  if (!init || init.getOffsets().empty())
    return {};
  return getAsOpFoldResult(init.getOffsets()[0]);
}

LogicalResult LocalOffsetsOfOp::fold(FoldAdaptor,
                                     SmallVectorImpl<OpFoldResult> &results) {
  // (The offsets the block was bound with: of every split axis of a grid.)
  auto init = getArray().getDefiningOp<InitDistArrayOp>();
  if (!init || getOffsets().empty() ||
      init.getOffsets().size() != getOffsets().size())
    return failure();
  for (Value offset : init.getOffsets())
    results.push_back(getAsOpFoldResult(offset));
  return success();
}

namespace {
/// The local offsets of the axes the distribution does not split are 0.
struct ZeroTrailingLocalOffsets : public OpRewritePattern<LocalOffsetsOfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(LocalOffsetsOfOp op,
                                PatternRewriter &rewriter) const override {
    Value zero;
    ArrayRef<int64_t> split = getDistEnv(op.getArray().getType()).getSplit();
    for (auto [dim, offset] : llvm::enumerate(op.getOffsets())) {
      if (offset.use_empty() || llvm::is_contained(split, int64_t(dim)))
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
// RepartitionOp
//===----------------------------------------------------------------------===//

/// Verifies that `source` and `result` are the same distributed array of
/// rank >= 1 up to their distributions (of the same team).
static LogicalResult verifySameArray(Operation *op, NDArrayType source,
                                     NDArrayType result) {
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
  if (getLocalType(source).getEnvironments() !=
      getLocalType(result).getEnvironments())
    return emitOpError("source and result must have the same environments "
                       "besides #dist.dist_env");
  return success();
}

/// Verifies a repartition of `source` to rows [offset, offset + size) with
/// result type `result` (dist.repartition and dist.local_repartition).
/// `anySource`: the source may be in any distribution (of the result's
/// team), the result is split on rows.
static LogicalResult verifyRepartition(Operation *op, NDArrayType source,
                                       NDArrayType result, Value offsetValue,
                                       Value sizeValue, bool anySource) {
  auto emitOpError = [&](const Twine &message) {
    return op->emitOpError(message);
  };
  if (failed(verifySameArray(op, source, result)))
    return failure();
  bool rowsSource = getDistEnv(source).isDefaultDistribution() &&
                    getDistEnv(result) == getDistEnv(source);
  if (!getDistEnv(result).isDefaultDistribution() ||
      (!anySource && !rowsSource))
    return emitOpError(anySource ? "expects a result split on rows (the "
                                   "default distribution), got "
                                 : "expects arrays split on rows (the default "
                                   "distribution), got ")
           << getDistEnv(source) << " and " << getDistEnv(result);
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
                           getSize(), /*anySource=*/true);
}

LogicalResult LocalRepartitionOp::verify() {
  return verifyRepartition(*this, getSource().getType(), getType(), getOffset(),
                           getSize(), /*anySource=*/false);
}

LogicalResult RedistributeOp::verify() {
  return verifySameArray(*this, getSource().getType(), getType());
}

OpFoldResult RedistributeOp::fold(FoldAdaptor) {
  if (getSource().getType() == getType())
    return getSource();
  if (auto inner = getSource().getDefiningOp<RedistributeOp>()) {
    if (inner.getSource().getType() == getType())
      return inner.getSource();
    getSourceMutable().assign(inner.getSource());
    return getResult();
  }
  return {};
}
