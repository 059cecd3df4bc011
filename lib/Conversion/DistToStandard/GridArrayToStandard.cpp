//===- GridArrayToStandard.cpp - arrays split on any axes -----------------===//
//
// Arrays in a distribution other than the default one (split on other axes
// or over a grid of ranks) become their GridArray: this rank's block and its
// global position. Ops computing on blocks of any distribution (elementwise
// ops, copies, `ndarray.dim`) become the same op on the blocks; ndarray-dist
// redistributed the operands of every other op to rows (the default
// distribution), and `dist.redistribute` moves elements between any two
// distributions through one `_idtr_repartition`.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

bool imex::dist::detail::isGridArray(Type type) {
  auto env = dist::getDistEnv(type);
  return env && !env.isDefaultDistribution();
}

GridArray GridArray::unpack(ValueRange values) {
  assert(values.size() % 2 == 1 && "not a grid array");
  size_t rank = values.size() / 2;
  return {values.front(), SmallVector<Value>(values.slice(1, rank)),
          SmallVector<Value>(values.take_back(rank))};
}

SmallVector<Value> GridArray::pack() const {
  SmallVector<Value> values{block};
  llvm::append_range(values, offsets);
  llvm::append_range(values, shape);
  return values;
}

namespace {

/// Whether the slice `op` of a grid array (a view or an insert) is a box:
/// unit strides known at compile time, the rank kept.
bool isBox(OffsetSizeAndStrideOpInterface op) {
  auto sliced = cast<NDArrayType>(isa<ImmutableInsertSliceOp>(op)
                                      ? op->getResult(0).getType()
                                      : op->getOperand(0).getType());
  auto result = cast<NDArrayType>(op->getResult(0).getType());
  return sliced.getRank() == result.getRank() &&
         llvm::all_of(op.getMixedStrides(), [](OpFoldResult stride) {
           return isConstantIntValue(stride, 1);
         });
}

/// This rank's block of the distributed array `values` (converted from
/// `type`, in any distribution) with the global index of its first element
/// and the global shape.
GridArray getOwnedBlock(OpBuilder &b, Location loc, NDArrayType type,
                        ValueRange values) {
  if (isGridArray(type))
    return GridArray::unpack(values);
  IndexMath m{b, loc};
  LocalArray rows = LocalArray::unpack(values);
  Value owned = rows.owned(b, loc);
  return {owned, withTrailingZeros(b, loc, rows.ownedStart(m), type.getRank()),
          withTrailingDims(b, loc, rows.size0, owned)};
}

template <typename OpTy> struct GridPattern : public OpConversionPattern<OpTy> {
  GridPattern(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/2) {}
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
};

struct InitGridArrayLowering : public GridPattern<dist::InitDistArrayOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(dist::InitDistArrayOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getType()))
      return failure();
    GridArray array{castTo(rewriter, op.getLoc(), adaptor.getBlock().front(),
                           dist::getLocalType(op.getType())),
                    {},
                    {}};
    for (ValueRange offset : adaptor.getOffsets())
      array.offsets.push_back(offset.front());
    for (ValueRange size : adaptor.getGlobalShape())
      array.shape.push_back(size.front());
    rewriter.replaceOpWithMultiple(op, {array.pack()});
    return success();
  }
};

/// A grid array holds its owned block only (no halos).
template <typename OpTy> struct GridBlockOfLowering : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getArray().getType()))
      return failure();
    Value block = GridArray::unpack(adaptor.getArray()).block;
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), block, op.getType()));
    return success();
  }
};

struct GridOffsetsOfLowering : public GridPattern<dist::LocalOffsetsOfOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(dist::LocalOffsetsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getArray().getType()))
      return failure();
    rewriter.replaceOp(op, GridArray::unpack(adaptor.getArray()).offsets);
    return success();
  }
};

/// A cast changes the static shape of the block (the same elements).
struct GridCastLowering : public GridPattern<CastOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getType()))
      return failure();
    GridArray array = GridArray::unpack(adaptor.getSource());
    array.block = castTo(rewriter, op.getLoc(), array.block,
                         dist::getLocalType(op.getType()));
    rewriter.replaceOpWithMultiple(op, {array.pack()});
    return success();
  }
};

struct GridDimLowering : public GridPattern<DimOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getSource().getType()))
      return failure();
    IndexMath m{rewriter, op.getLoc()};
    ArrayRef<Value> shape = GridArray::unpack(adaptor.getSource()).shape;
    Value index = adaptor.getIndex().front();
    Value size = shape.back();
    for (int64_t d = shape.size() - 2; d >= 0; --d)
      size = m.select(m.eq(index, m.c(d)), shape[d], size);
    rewriter.replaceOp(op, size);
    return success();
  }
};

/// Elementwise ops and copies of arrays in one distribution: the op on the
/// blocks (ndarray-dist made every operand of rank >= 1 an array of that
/// distribution; 0-d operands are replicated).
struct GridElementwiseLowering : public ConversionPattern {
  GridElementwiseLowering(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp>(op) ||
        op->getNumResults() != 1 || !isGridArray(op->getResult(0).getType()))
      return failure();
    Location loc = op->getLoc();
    IndexMath m{rewriter, loc};
    auto resultType = cast<NDArrayType>(op->getResult(0).getType());
    IRMapping mapping;
    std::optional<GridArray> first;
    for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
      auto type = cast<NDArrayType>(original.getType());
      if (type.getRank() == 0) {
        mapping.map(original, converted.front());
        continue;
      }
      if (dist::getDistEnv(type) != dist::getDistEnv(resultType))
        return rewriter.notifyMatchFailure(
            op, "operand in another distribution; run ndarray-dist");
      GridArray array = GridArray::unpack(converted);
      if (!first) {
        first = array;
      } else {
        // Blocks of equal global shapes line up; broadcasting along a
        // split axis would need elements of other ranks.
        Value same;
        for (auto [a, b] : llvm::zip(first->shape, array.shape)) {
          Value eq = m.eq(a, b);
          same = same ? m.land(same, eq) : eq;
        }
        if (!matchPattern(same, m_One()))
          cf::AssertOp::create(
              rewriter, loc, same,
              "operands of an elementwise op on arrays split over a grid "
              "must have equal shapes (broadcasting is supported on arrays "
              "split on rows)");
      }
      mapping.map(original, array.block);
    }
    if (!first)
      return rewriter.notifyMatchFailure(op, "no operand of rank >= 1");
    Operation *local = rewriter.clone(*op, mapping);
    local->getResult(0).setType(dist::getLocalType(resultType));
    GridArray result{local->getResult(0), first->offsets, first->shape};
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// The global box [offsets, offsets + sizes) of `array` (any block
/// distribution) on this rank, received from the ranks owning its elements:
/// one `distruntime.repartition` (collective; ranks whose blocks the box
/// does not reach exchange nothing).
Value fetchBox(OpBuilder &b, Location loc, int64_t team, const GridArray &array,
               ValueRange offsets, ValueRange sizes, NDArrayType type) {
  auto copy =
      distruntime::RepartitionOp::create(b, loc, type, array.block, array.shape,
                                         array.offsets, offsets, sizes, team);
  auto wait = distruntime::WaitOp::create(
      b, loc, copy.getHandle(), ValueRange{array.block, copy.getOutput()});
  return wait.getResult(1);
}

/// A view with unit strides (ndarray-dist keeps others on rows): this
/// rank's block of it in its distribution, fetched from the blocks of the
/// source holding its elements (halos of shifted views move, the rest is
/// copied locally).
template <typename OpTy> struct GridSliceLowering : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type) || !isBox(op))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray source = GridArray::unpack(adaptor.getSource());
    SmallVector<Value> viewOffsets, viewShape;
    for (OpFoldResult offset : op.getMixedOffsets())
      viewOffsets.push_back(getValueOrCreateConstantIndexOp(b, loc, offset));
    for (OpFoldResult size : op.getMixedSizes())
      viewShape.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
    auto env = dist::getDistEnv(type);
    auto [offsets, sizes] = dist::createBlock(b, loc, env, viewShape);
    SmallVector<Value> baseOffsets;
    for (auto [view, block] : llvm::zip(viewOffsets, offsets))
      baseOffsets.push_back(m.add(view, block));
    Value block = fetchBox(b, loc, env.getTeam(), source, baseOffsets, sizes,
                           dist::getLocalType(type));
    rewriter.replaceOpWithMultiple(
        op, {GridArray{block, offsets, viewShape}.pack()});
    return success();
  }
};

/// An insert with unit strides: each rank writes the part of the slice in
/// its block, its source elements fetched from the source's blocks
/// (distributed) or taken from the source (replicated; dimensions of size 1
/// are broadcast).
struct GridInsertLowering : public GridPattern<ImmutableInsertSliceOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(ImmutableInsertSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type) || !isBox(op))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray dest = GridArray::unpack(adaptor.getDestination());
    int64_t rank = type.getRank();
    // The slice's part in this rank's block: [first, first + count) in
    // slice coordinates, at `at` in the block.
    SmallVector<Value> first, count, at, sliceShape;
    for (int64_t d = 0; d < rank; ++d) {
      Value offset =
          getValueOrCreateConstantIndexOp(b, loc, op.getMixedOffsets()[d]);
      Value size =
          getValueOrCreateConstantIndexOp(b, loc, op.getMixedSizes()[d]);
      Value owned = DimOp::create(b, loc, dest.block, d);
      Value lo = m.max(offset, dest.offsets[d]);
      Value hi = m.min(m.add(offset, size), m.add(dest.offsets[d], owned));
      Value n = m.max(m.sub(hi, lo), m.c(0));
      first.push_back(m.select(m.gt(n, m.c(0)), m.sub(lo, offset), m.c(0)));
      count.push_back(n);
      at.push_back(
          m.select(m.gt(n, m.c(0)), m.sub(lo, dest.offsets[d]), m.c(0)));
      sliceShape.push_back(size);
    }
    // The source's part: the same box, but all of its broadcast dimensions
    // (size 1 where the slice is larger; missing leading dimensions).
    NDArrayType sourceType = op.getSource().getType();
    ValueRange source = adaptor.getSource();
    int64_t lead = rank - sourceType.getRank();
    SmallVector<Value> sourceShape;
    if (isGridArray(sourceType))
      sourceShape = GridArray::unpack(source).shape;
    else
      for (int64_t d = 0; d < sourceType.getRank(); ++d)
        sourceShape.push_back(DimOp::create(b, loc, source.front(), d));
    SmallVector<Value> boxOffsets, boxSizes;
    for (int64_t d = 0; d < sourceType.getRank(); ++d) {
      Value aligned = m.eq(sourceShape[d], sliceShape[lead + d]);
      boxOffsets.push_back(m.select(aligned, first[lead + d], m.c(0)));
      boxSizes.push_back(m.select(aligned, count[lead + d], sourceShape[d]));
    }
    Value local = source.front();
    if (isGridArray(sourceType)) {
      local = fetchBox(b, loc, dist::getDistEnv(type).getTeam(),
                       GridArray::unpack(source), boxOffsets, boxSizes,
                       dist::getLocalType(sourceType));
    } else if (sourceType.getRank() > 0) {
      SmallVector<OpFoldResult> ones(sourceType.getRank(), b.getIndexAttr(1));
      SmallVector<int64_t> dynamic(sourceType.getRank(), ShapedType::kDynamic);
      local = SubviewOp::create(
          b, loc, sourceType.cloneWith(dynamic, sourceType.getElementType()),
          local, getAsOpFoldResult(boxOffsets), getAsOpFoldResult(boxSizes),
          ones);
    }
    SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
    Value block = ImmutableInsertSliceOp::create(
        b, loc, local, dest.block, getAsOpFoldResult(at),
        getAsOpFoldResult(count), ones);
    rewriter.replaceOpWithMultiple(
        op, {GridArray{block, dest.offsets, dest.shape}.pack()});
    return success();
  }
};

/// Moves the elements of this rank's block in the target distribution from
/// their owners (`distruntime.repartition`: point to point between the
/// ranks whose blocks intersect).
struct RedistributeLowering : public GridPattern<dist::RedistributeOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(dist::RedistributeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    NDArrayType sourceType = op.getSource().getType(), type = op.getType();
    GridArray source = getOwnedBlock(b, loc, sourceType, adaptor.getSource());
    auto env = dist::getDistEnv(type);
    auto [offsets, sizes] = dist::createBlock(b, loc, env, source.shape);
    NDArrayType blockType = dist::getLocalType(type);
    Value block =
        fetchBox(b, loc, env.getTeam(), source, offsets, sizes, blockType);
    if (isGridArray(type)) {
      rewriter.replaceOpWithMultiple(
          op, {GridArray{block, offsets, source.shape}.pack()});
      return success();
    }
    LocalArray rows =
        LocalArray::fromOwned(b, loc, block, offsets[0], source.shape[0]);
    rows.buffer = castTo(b, loc, rows.buffer, getBufferType(type));
    rewriter.replaceOpWithMultiple(op, {rows.pack()});
    return success();
  }
};

} // namespace

LogicalResult imex::dist::detail::checkGridArrayUses(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    bool grid = llvm::any_of(op->getOperandTypes(), isGridArray) ||
                llvm::any_of(op->getResultTypes(), isGridArray);
    bool box = isa<SubviewOp, ExtractSliceOp, ImmutableInsertSliceOp>(op) &&
               isBox(cast<OffsetSizeAndStrideOpInterface>(op));
    if (!grid || box ||
        isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp, CastOp, DimOp,
            dist::InitDistArrayOp, dist::OwnedBlockOfOp, dist::HeldBlockOfOp,
            dist::LocalOffsetsOfOp, dist::RedistributeOp>(op) ||
        !isa<NDArrayDialect, dist::DistDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitOpError("on an array split on other axes than rows or over a "
                    "grid of ranks is not supported by "
                    "convert-dist-to-standard; ndarray-dist redistributes "
                    "its operands (dist.redistribute)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void imex::dist::detail::populateGridArrayToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<InitGridArrayLowering, GridBlockOfLowering<dist::OwnedBlockOfOp>,
               GridBlockOfLowering<dist::HeldBlockOfOp>, GridOffsetsOfLowering,
               GridCastLowering, GridDimLowering, GridElementwiseLowering,
               RedistributeLowering, GridSliceLowering<SubviewOp>,
               GridSliceLowering<ExtractSliceOp>, GridInsertLowering>(converter,
                                                                      context);
}
