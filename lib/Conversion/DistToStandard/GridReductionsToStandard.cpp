//===- GridReductionsToStandard.cpp - reductions of grid arrays -----------===//
//
// Reductions and argmax/argmin of arrays in a distribution other than the
// default one (GridArray): over axes that are not split on the blocks; over
// split axes each rank's partials combined over the team, floating point
// sums in tiles fixed by global indices (the same bits on every grid and
// rank count).
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"
#include "Reductions.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

/// The identity of the combination `kind` for `element` (-0.0 for floating
/// point sums: x + -0.0 is x for every x).
TypedAttr getIdentity(OpBuilder &b, Type element,
                      distruntime::ReductionKind kind) {
  using Kind = distruntime::ReductionKind;
  if (kind == Kind::min || kind == Kind::max)
    return getMinMaxIdentity(b, element, kind == Kind::min);
  bool one = kind == Kind::prod || kind == Kind::land;
  // (Complex arrays are filled with real numbers, then cast.)
  Type real = getRealType(element);
  if (auto floatType = dyn_cast<FloatType>(real))
    return b.getFloatAttr(real, one ? 1.0 : -0.0);
  unsigned width = real.getIntOrFloatBitWidth();
  return b.getIntegerAttr(
      real.isUnsignedInteger() ? b.getIntegerType(width) : real, one ? 1 : 0);
}

/// Floating point sums and products over a split axis of a grid array are
/// computed in tiles of kOrderedTile elements along it, fixed by global
/// indices: subtrees of the pairwise tree one process builds.
constexpr int64_t kOrderedTile = 64;

/// Grids: the partials of each rank are written into its part of an array
/// of the combined shape filled with the identity and allreduced (each
/// element has one contributor, the identity elsewhere). Floating point sums
/// and products, axes innermost first as on one process: the reduced axes
/// after the innermost reduced split axis on the block (they are whole on
/// every rank), then each rank fetches the tiles along that axis starting
/// in its block (the rest of its last tile from the next ranks: less than a
/// tile per block boundary, one repartition) and reduces each tile; the
/// tiles' results, combined as above (the outer axes at their global size),
/// are reduced with the outer reduced axes on every rank. Every grid and
/// rank count gives the bits of one process.
TeamReduction overGrid(OpBuilder &b, Location loc, dist::DistEnvAttr env,
                       NDArrayType sourceType, ArrayRef<int64_t> reducedAxes,
                       const GridArray &array) {
  SmallVector<int64_t> axes(reducedAxes);
  int64_t team = env.getTeam();
  // Floating point sums and products reduce the axes innermost first, as
  // one process does (PairwiseReduction.cpp): the reduced axes after the
  // innermost split one on the block, then the tiles along that split axis,
  // then the tile results and the outer reduced axes, replicated.
  int64_t tiledAxis = -1;
  for (int64_t d : axes)
    if (llvm::is_contained(env.getSplit(), d))
      tiledAxis = std::max(tiledAxis, d);
  SmallVector<int64_t> tileAxes = {tiledAxis}, localAxes, replicatedAxes;
  for (int64_t d : axes)
    (d > tiledAxis ? localAxes : replicatedAxes).push_back(d);
  // The offsets of a kept-shape array of this rank's block.
  auto keptOffsets = [&b, loc, axes, array] {
    IndexMath m{b, loc};
    return keptShape<Value>(array.offsets, axes, m.c(0));
  };
  // `partials` (the block's sizes along `along`, kept elsewhere) written into
  // an identity-filled array of `sizes`, and combined over the team.
  auto combineInto = [&b, loc, team](Value partials, NDArrayType type,
                                     ArrayRef<Value> sizes,
                                     ArrayRef<Value> offsets,
                                     distruntime::ReductionKind kind) {
    Value all = createFilled(b, loc, type, sizes,
                             getIdentity(b, type.getElementType(), kind));
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> partialSizes;
    for (int64_t d = 0; d < rank; ++d)
      partialSizes.push_back(dist::getDimSize(b, loc, partials, d));
    all = ImmutableInsertSliceOp::create(
        b, loc, partials, all, getAsOpFoldResult(offsets), partialSizes,
        SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
    return distruntime::AllReduceOp::create(b, loc, all.getType(), kind, all,
                                            team)
        .getResult();
  };
  auto combinedType = [sourceType, axes](NDArrayType like, Type element) {
    return cast<NDArrayType>(like.cloneWith(
        keptShape(sourceType.getShape(), axes, int64_t(1)), element));
  };

  TeamReduction reduction;
  reduction.shape = array.shape;
  reduction.combine = [=, &b](Value partials,
                              distruntime::ReductionKind kind) -> Value {
    IndexMath m{b, loc};
    auto type = cast<NDArrayType>(partials.getType());
    return combineInto(partials, combinedType(type, type.getElementType()),
                       keptShape<Value>(array.shape, axes, m.c(1)),
                       keptOffsets(), kind);
  };
  reduction.blockPart = [=, &b](Value combined) -> Value {
    IndexMath m{b, loc};
    auto type = cast<NDArrayType>(combined.getType());
    SmallVector<Value> sizes = keptShape<Value>(array.sizes, axes, m.c(1));
    SmallVector<int64_t> shape = getStaticShape(sizes);
    return SubviewOp::create(
        b, loc, type.cloneWith(shape, type.getElementType()), combined,
        getAsOpFoldResult(keptOffsets()), getAsOpFoldResult(sizes),
        SmallVector<OpFoldResult>(shape.size(), b.getIndexAttr(1)));
  };
  reduction.ordered = [=, &b](ReductionKind kind, Value source) -> Value {
    IndexMath m{b, loc};
    auto type = cast<NDArrayType>(source.getType());
    Type element = type.getElementType();
    int64_t rank = type.getRank();
    auto like = [&](ArrayRef<int64_t> shape) {
      return cast<NDArrayType>(type.cloneWith(shape, element));
    };
    auto combineKind = kind == ReductionKind::prod
                           ? distruntime::ReductionKind::prod
                           : distruntime::ReductionKind::sum;
    // The reduced axes that are not split, on the block.
    Value partials = source;
    SmallVector<Value> partialShape =
        keptShape<Value>(array.shape, localAxes, m.c(1));
    if (!localAxes.empty())
      partials = ReductionOp::create(
          b, loc, like(keptShape(type.getShape(), localAxes, int64_t(1))), kind,
          source, b.getDenseI64ArrayAttr(localAxes),
          /*keepdims=*/true, /*correction=*/nullptr);
    auto partialType = cast<NDArrayType>(partials.getType());
    // The tiles starting in this rank's block: those it holds whole reduced
    // on a view of the block; the last, if it holds only its start (or it
    // is the array's last, shorter one), fetched (its rest from the next
    // ranks) and padded with the identity. Each tile is reduced alike.
    int64_t t = tiledAxis;
    Value tile = m.c(kOrderedTile);
    Value offset = array.offsets[t];
    Value end = m.add(offset, dist::getDimValue(b, loc, partials, t));
    Value lo = m.min(m.mul(m.ceilDiv(offset, tile), tile), array.shape[t]);
    Value hi = m.min(m.mul(m.ceilDiv(end, tile), tile), array.shape[t]);
    Value whole =
        m.max(m.sub(m.floorDiv(end, tile), m.ceilDiv(offset, tile)), m.c(0));
    Value restStart = m.add(lo, m.mul(whole, tile));
    Value restSize = m.max(m.sub(hi, restStart), m.c(0));
    Value rest = m.select(m.gt(restSize, m.c(0)), m.c(1), m.c(0));
    // `value` (sizes `sizes`, `count` tiles along t) reduced per tile.
    auto reduceTiles = [&](Value value, Value count) {
      auto valueType = cast<NDArrayType>(value.getType());
      SmallVector<int64_t> expandedShape, reducedShape;
      SmallVector<Value> expandedDynamic;
      for (int64_t d = 0; d < rank; ++d) {
        if (d == t) {
          expandedShape.append({ShapedType::kDynamic, kOrderedTile});
          reducedShape.append({ShapedType::kDynamic, 1});
          expandedDynamic.push_back(count);
          continue;
        }
        expandedShape.push_back(valueType.getDimSize(d));
        reducedShape.push_back(valueType.getDimSize(d));
        if (valueType.isDynamicDim(d))
          expandedDynamic.push_back(dist::getDimValue(b, loc, value, d));
      }
      Value expanded = ReshapeOp::create(b, loc, like(expandedShape), value,
                                         expandedDynamic, /*copy=*/false);
      SmallVector<int64_t> resultShape(valueType.getShape());
      resultShape[t] = ShapedType::kDynamic;
      return SqueezeOp::create(
                 b, loc, like(resultShape),
                 ReductionOp::create(b, loc, like(reducedShape), kind, expanded,
                                     b.getDenseI64ArrayAttr({t + 1}),
                                     /*keepdims=*/true,
                                     /*correction=*/nullptr),
                 b.getDenseI64ArrayAttr({t + 1}))
          .getResult();
    };
    SmallVector<int64_t> boxShape(partialType.getShape());
    boxShape[t] = ShapedType::kDynamic;
    SmallVector<OpFoldResult> zeros(rank, b.getIndexAttr(0)),
        ones(rank, b.getIndexAttr(1)), viewOffsets(zeros), viewSizes;
    SmallVector<Value> boxOffsets, restOffsets, restSizes;
    for (int64_t d = 0; d < rank; ++d) {
      Value size = dist::getDimValue(b, loc, partials, d);
      viewSizes.push_back(dist::getDimSize(b, loc, partials, d));
      boxOffsets.push_back(llvm::is_contained(localAxes, d) ? m.c(0)
                                                            : array.offsets[d]);
      restOffsets.push_back(d == t ? restStart : boxOffsets[d]);
      restSizes.push_back(d == t ? restSize : size);
    }
    boxOffsets[t] = lo;
    viewOffsets[t] = m.select(m.gt(whole, m.c(0)), m.sub(lo, offset), m.c(0));
    viewSizes[t] = m.mul(whole, tile);
    // (An array with a dimension of static size 0 has no slice of static
    // offset 0 along it: an empty array instead.)
    Value inBlock =
        llvm::is_contained(partialType.getShape(), 0)
            ? createFilled(b, loc, like(boxShape),
                           getValueOrCreateConstantIndexOp(b, loc, viewSizes),
                           getIdentity(b, element, combineKind))
            : SubviewOp::create(b, loc, like(boxShape), partials, viewOffsets,
                                viewSizes, ones)
                  .getResult();
    Value restBox = fetchBox(
        b, loc, team,
        GridArray::fromBlock(b, loc, partials,
                             keptShape<Value>(array.offsets, localAxes, m.c(0)),
                             partialShape),
        restOffsets, restSizes, like(boxShape));
    SmallVector<Value> paddedSizes(restSizes);
    paddedSizes[t] = m.mul(rest, tile);
    Value padded = createFilled(b, loc, like(boxShape), paddedSizes,
                                getIdentity(b, element, combineKind));
    padded = ImmutableInsertSliceOp::create(b, loc, restBox, padded, zeros,
                                            getAsOpFoldResult(restSizes), ones);
    // The tile results: the whole tiles', then the last one's.
    SmallVector<Value> tileCounts(restSizes);
    tileCounts[t] = m.add(whole, rest);
    Value tileResults = createFilled(b, loc, like(boxShape), tileCounts,
                                     getIdentity(b, element, combineKind));
    SmallVector<Value> wholeSizes(restSizes), restCounts(restSizes);
    wholeSizes[t] = whole;
    restCounts[t] = rest;
    SmallVector<OpFoldResult> restAt(zeros);
    restAt[t] = whole;
    tileResults = ImmutableInsertSliceOp::create(
        b, loc, reduceTiles(inBlock, whole), tileResults, zeros,
        getAsOpFoldResult(wholeSizes), ones);
    tileResults = ImmutableInsertSliceOp::create(
        b, loc, reduceTiles(padded, rest), tileResults, restAt,
        getAsOpFoldResult(restCounts), ones);
    // The results of all tiles on every rank, reduced in tile order.
    SmallVector<Value> allSizes(partialShape), tileOffsets;
    SmallVector<int64_t> allShape(
        keptShape(sourceType.getShape(), localAxes, int64_t(1)));
    for (int64_t d = 0; d < rank; ++d) {
      bool tiled = llvm::is_contained(tileAxes, d);
      if (tiled) {
        allSizes[d] = m.ceilDiv(array.shape[d], tile);
        allShape[d] = ShapedType::kDynamic;
      }
      tileOffsets.push_back(tiled ? m.ceilDiv(boxOffsets[d], tile)
                                  : boxOffsets[d]);
    }
    Value all = combineInto(tileResults, like(allShape), allSizes, tileOffsets,
                            combineKind);
    return ReductionOp::create(b, loc, combinedType(type, element), kind, all,
                               b.getDenseI64ArrayAttr(replicatedAxes),
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  return reduction;
}

/// Whether a reduction over `axes` of an array distributed as `env` reduces
/// a split axis.
bool reducesSplitAxis(dist::DistEnvAttr env, ArrayRef<int64_t> axes) {
  return llvm::any_of(env.getSplit(),
                      [&](int64_t d) { return llvm::is_contained(axes, d); });
}

/// Replaces `op`, a reduction over `axes` of the grid array `array` that
/// reduces none of its split axes, by `local`, the reduction of its block:
/// the result is split like the source.
void replaceWithBlockReduction(ConversionPatternRewriter &rewriter,
                               Operation *op, const GridArray &array,
                               Value local, ArrayRef<int64_t> axes,
                               bool keepdims) {
  IndexMath m{rewriter, op->getLoc()};
  SmallVector<Value> offsets, shape;
  for (auto [d, offset] : llvm::enumerate(array.offsets)) {
    bool reduced = llvm::is_contained(axes, static_cast<int64_t>(d));
    if (reduced && !keepdims)
      continue;
    offsets.push_back(reduced ? m.c(0) : offset);
    shape.push_back(reduced ? m.c(1) : array.shape[d]);
  }
  rewriter.replaceOpWithMultiple(
      op, {packBlock(rewriter, op->getLoc(), local, offsets, shape,
                     cast<NDArrayType>(op->getResult(0).getType()))});
}

/// Reductions and argmax/argmin of arrays in other distributions than rows
/// (GridArray): over axes that are not split, the op on the block (the
/// result is split like the source, createLocal); over split axes,
/// combined over the team (reduceOverGrid), the result replicated.
template <typename OpTy> struct GridReducePattern : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  using OneToNOpAdaptor = typename GridPattern<OpTy>::OneToNOpAdaptor;

  virtual Value createLocal(OpBuilder &b, Location loc, OpTy op,
                            Value block) const = 0;
  virtual FailureOr<Value> reduceOverGrid(OpBuilder &b, Location loc, OpTy op,
                                          Value block, const GridArray &array,
                                          dist::DistEnvAttr env) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType sourceType = op.getSource().getType();
    if (!isGridArray(sourceType))
      return failure();
    auto env = dist::getDistEnv(sourceType);
    Location loc = op.getLoc();
    GridArray array = GridArray::unpack(adaptor.getSource());
    Value block = array.block(rewriter, loc);
    SmallVector<int64_t> axes = op.getReducedAxes();
    if (!reducesSplitAxis(env, axes)) {
      replaceWithBlockReduction(rewriter, op, array,
                                createLocal(rewriter, loc, op, block), axes,
                                op.getKeepdims());
      return success();
    }
    FailureOr<Value> reduced =
        reduceOverGrid(rewriter, loc, op, block, array, env);
    if (failed(reduced))
      return rewriter.notifyMatchFailure(op, "unsupported reduction");
    rewriter.replaceOp(op, *reduced);
    return success();
  }
};

struct GridReductionLowering : public GridReducePattern<ReductionOp> {
  using GridReducePattern::GridReducePattern;

  Value createLocal(OpBuilder &b, Location loc, ReductionOp op,
                    Value block) const override {
    return ReductionOp::create(b, loc, dist::getLocalType(op.getType()),
                               op.getKind(), block, op.getAxesAttr(),
                               op.getKeepdims(), op.getCorrectionAttr());
  }

  FailureOr<Value> reduceOverGrid(OpBuilder &b, Location loc, ReductionOp op,
                                  Value block, const GridArray &array,
                                  dist::DistEnvAttr env) const override {
    return reduceOverTeam(b, loc, op, block,
                          overGrid(b, loc, env, op.getSource().getType(),
                                   op.getReducedAxes(), array));
  }
};

/// argmax/argmin over split axes (or all): argReduceOverTeam with overGrid,
/// a block's local index made global from its offsets.
struct GridArgReduceLowering : public GridReducePattern<ArgReduceOp> {
  using GridReducePattern::GridReducePattern;

  Value createLocal(OpBuilder &b, Location loc, ArgReduceOp op,
                    Value block) const override {
    return ArgReduceOp::create(b, loc, dist::getLocalType(op.getType()),
                               op.getKind(), block, op.getAxisAttr(),
                               op.getKeepdims());
  }

  FailureOr<Value> reduceOverGrid(OpBuilder &b, Location loc, ArgReduceOp op,
                                  Value block, const GridArray &array,
                                  dist::DistEnvAttr env) const override {
    IndexMath m{b, loc};
    Type i64 = b.getI64Type();
    auto toGlobal = [&](Value local) -> Value {
      auto type = cast<NDArrayType>(local.getType());
      auto scalarType =
          cast<NDArrayType>(type.cloneWith(ArrayRef<int64_t>(), i64));
      // Along one axis: plus the block's offset along it.
      if (std::optional<int64_t> axis = op.getAxis()) {
        Value offset =
            arith::IndexCastOp::create(b, loc, i64, array.offsets[*axis]);
        return EWBinOp::create(
                   b, loc, type, EWBinOpKind::add, local,
                   CreateOp::create(b, loc, scalarType, ValueRange{}, offset))
            .getResult();
      }
      // Over all axes: the flat index in the block, unraveled with the
      // block's sizes, moved by its offsets and raveled with the shape.
      SmallVector<Value> zeros(type.getRank(), m.c(0));
      Value rest = arith::IndexCastOp::create(
          b, loc, b.getIndexType(), LoadOp::create(b, loc, local, zeros));
      Value global = m.c(0), stride = m.c(1);
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        Value size = dist::getDimValue(b, loc, block, d);
        Value coordinate = b.createOrFold<arith::RemSIOp>(loc, rest, size);
        rest = b.createOrFold<arith::DivSIOp>(loc, rest, size);
        global =
            m.add(global, m.mul(m.add(coordinate, array.offsets[d]), stride));
        stride = m.mul(stride, array.shape[d]);
      }
      Value value = arith::IndexCastOp::create(b, loc, i64, global);
      return CreateOp::create(b, loc, type, ValueRange{}, value);
    };
    return argReduceOverTeam(b, loc, op, block,
                             overGrid(b, loc, env, op.getSource().getType(),
                                      op.getReducedAxes(), array),
                             toGlobal);
  }
};

} // namespace

void dist::detail::populateGridReductionsToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GridReductionLowering, GridArgReduceLowering>(
      converter, patterns.getContext());
}
