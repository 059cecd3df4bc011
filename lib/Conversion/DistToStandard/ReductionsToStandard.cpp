//===- ReductionsToStandard.cpp - reductions of distributed arrays --------===//
//
// Reductions and scans of distributed arrays: local on the owned block, over
// dimension 0 completed across the team (allreduce, or for floating point
// sums and products distruntime.ordered_reduce, which gives the same bits on
// any number of ranks; scans by an exclusive scan of the ranks' totals).
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <functional>

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

/// How the partial results of the ranks' blocks of a reduction over split
/// axes combine into its replicated result. Both combinations return the
/// reduced array with kept (size 1) reduced axes and the global sizes of the
/// others.
struct TeamReduction {
  /// Partials of this rank's block (kept shape, the block's sizes) combined
  /// by `kind` over the team.
  std::function<Value(Value partials, distruntime::ReductionKind kind)> combine;
  /// The floating point sum or product of `source` (this rank's block, or an
  /// array of its shape) in an order fixed by the array: the same bits on
  /// any number of ranks.
  std::function<Value(ReductionKind kind, Value source)> ordered;
  /// The part of a combined result over this rank's block (its sizes along
  /// the axes that are not reduced).
  std::function<Value(Value combined)> blockPart;
  /// The global shape of the reduced array.
  SmallVector<Value> shape;
};

/// The reduction `op` of the array whose block on this rank is `block`,
/// combined over the team by `team`.
FailureOr<Value> reduceOverTeam(OpBuilder &b, Location loc, ReductionOp op,
                                Value block, const TeamReduction &team);

/// Reductions: local on the owned block; over dimension 0 completed by an
/// allreduce over the team.
struct ReductionLowering : public OpConversionPattern<ReductionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReductionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto sourceType = cast<NDArrayType>(op.getSource().getType());
    auto env = dist::getDistEnv(sourceType);
    if (!env)
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    if (!llvm::is_contained(op.getReducedAxes(), 0))
      return replaceOnOwnedBlock(rewriter, op, array);
    Value owned = array.owned(b, loc);
    FailureOr<Value> reduced =
        reduceOverTeam(b, loc, op, owned,
                       overRows(b, loc, env.getTeam(), op, owned,
                                array.ownedStart(m), array.size0));
    if (failed(reduced))
      return rewriter.notifyMatchFailure(op, "unsupported reduction");
    rewriter.replaceOp(op, *reduced);
    return success();
  }

  /// Rows: the partials of all ranks allreduced; floating point sums and
  /// products by distruntime.ordered_reduce (blocks of global rows, the
  /// other reduced axes reduced locally first). `owned` holds this rank's
  /// rows from global row `start` of `rows`.
  static TeamReduction overRows(OpBuilder &b, Location loc, int64_t team,
                                ReductionOp op, Value owned, Value start,
                                Value rows);
};

/// A 0-d or keepdims array filled with `value` of the result's shape.
Value createFilled(OpBuilder &b, Location loc, NDArrayType type,
                   ArrayRef<Value> shape, TypedAttr value) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(shape[d]);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  // arith constants are signless: unsigned arrays are filled signless.
  if (value.getType() == type.getElementType())
    return CreateOp::create(b, loc, type, dynamic, scalar);
  Value filled = CreateOp::create(
      b, loc,
      cast<NDArrayType>(type.cloneWith(type.getShape(), value.getType())),
      dynamic, scalar);
  return CastElemTypeOp::create(b, loc, type, filled);
}

/// The identity of min/max for `type` (used for ranks owning no rows).
TypedAttr getMinMaxIdentity(OpBuilder &b, Type type, bool isMin) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.getFloatAttr(
        type, APFloat::getInf(floatType.getFloatSemantics(), !isMin));
  unsigned width = type.getIntOrFloatBitWidth();
  bool isUnsigned = type.isUnsignedInteger();
  APInt value = isMin ? (isUnsigned ? APInt::getMaxValue(width)
                                    : APInt::getSignedMaxValue(width))
                      : (isUnsigned ? APInt::getMinValue(width)
                                    : APInt::getSignedMinValue(width));
  if (width == 1)
    value = APInt(1, isMin ? 1 : 0);
  Type storage = isUnsigned ? b.getIntegerType(width) : type;
  return b.getIntegerAttr(storage, value);
}

/// The shape of `shape` with the axes in `axes` kept as size 1.
template <typename T>
SmallVector<T> keptShape(ArrayRef<T> shape, ArrayRef<int64_t> axes, T one) {
  SmallVector<T> kept(shape);
  for (int64_t d : axes)
    kept[d] = one;
  return kept;
}

TeamReduction ReductionLowering::overRows(OpBuilder &b, Location loc,
                                          int64_t team, ReductionOp op,
                                          Value owned, Value start,
                                          Value rows) {
  auto ownedType = cast<NDArrayType>(owned.getType());
  SmallVector<int64_t> axes = op.getReducedAxes();
  TeamReduction reduction;
  reduction.combine = [&b, loc, team](Value partials,
                                      distruntime::ReductionKind kind) {
    return distruntime::AllReduceOp::create(b, loc, partials.getType(), kind,
                                            partials, team)
        .getResult();
  };
  reduction.ordered = [&b, loc, team, ownedType, axes, start,
                       rows](ReductionKind kind, Value source) -> Value {
    Type element = cast<NDArrayType>(source.getType()).getElementType();
    SmallVector<int64_t> otherAxes;
    for (int64_t d : axes)
      if (d != 0)
        otherAxes.push_back(d);
    Value partials = source;
    if (!otherAxes.empty()) {
      SmallVector<int64_t> shape =
          keptShape(ownedType.getShape(), otherAxes, int64_t(1));
      partials = ReductionOp::create(
          b, loc, cast<NDArrayType>(ownedType.cloneWith(shape, element)), kind,
          source, b.getDenseI64ArrayAttr(otherAxes),
          /*keepdims=*/true, /*correction=*/nullptr);
    }
    SmallVector<int64_t> shape =
        keptShape(ownedType.getShape(), axes, int64_t(1));
    return distruntime::OrderedReduceOp::create(
               b, loc, cast<NDArrayType>(ownedType.cloneWith(shape, element)),
               kind == ReductionKind::prod ? distruntime::ReductionKind::prod
                                           : distruntime::ReductionKind::sum,
               partials, start, rows, team)
        .getResult();
  };
  reduction.blockPart = [](Value combined) { return combined; };
  reduction.shape = withTrailingDims(b, loc, rows, owned);
  return reduction;
}

FailureOr<Value> reduceOverTeam(OpBuilder &b, Location loc, ReductionOp op,
                                Value block, const TeamReduction &team) {
  IndexMath m{b, loc};
  NDArrayType resultType = op.getType();
  auto blockType = cast<NDArrayType>(block.getType());
  auto sourceType = cast<NDArrayType>(op.getSource().getType());
  SmallVector<int64_t> axes = op.getReducedAxes();
  ReductionKind kind = op.getKind();
  DenseI64ArrayAttr axesAttr = b.getDenseI64ArrayAttr(axes);

  // The partials of this rank's block, and the combined result, with kept
  // (size 1) reduced dimensions; local arrays keep the block's other
  // environments (a GPU).
  SmallVector<Value> blockSizes;
  for (int64_t d = 0; d < blockType.getRank(); ++d)
    blockSizes.push_back(dist::getDimValue(b, loc, block, d));
  SmallVector<Value> partialSizes = keptShape<Value>(blockSizes, axes, m.c(1));
  SmallVector<Value> resultSizes = keptShape<Value>(team.shape, axes, m.c(1));
  auto partialType = [&](Type element) {
    return cast<NDArrayType>(blockType.cloneWith(
        keptShape(blockType.getShape(), axes, int64_t(1)), element));
  };
  auto combinedType = [&](Type element) {
    return cast<NDArrayType>(blockType.cloneWith(
        keptShape(sourceType.getShape(), axes, int64_t(1)), element));
  };
  // Squeezes the kept dimensions unless the op keeps them.
  auto finish = [&](Value kept) -> Value {
    if (op.getKeepdims()) {
      return kept.getType() == resultType
                 ? kept
                 : CastOp::create(b, loc, resultType, kept).getResult();
    }
    return SqueezeOp::create(b, loc, resultType, kept, axesAttr);
  };
  auto localReduce = [&](ReductionKind k, Value source, Type element) {
    return ReductionOp::create(b, loc, partialType(element), k, source,
                               axesAttr,
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  Type element = resultType.getElementType();
  // Floating-point sums in a fixed order: the same bits on any rank count.
  bool ordered = isa<FloatType, ComplexType>(element);
  // The global number of reduced elements.
  Value count = m.c(1);
  for (int64_t d : axes)
    count = m.mul(count, team.shape[d]);

  switch (kind) {
  case ReductionKind::sum:
  case ReductionKind::prod:
    if (ordered)
      return finish(team.ordered(kind, block));
    return finish(team.combine(localReduce(kind, block, element),
                               kind == ReductionKind::sum
                                   ? distruntime::ReductionKind::sum
                                   : distruntime::ReductionKind::prod));
  case ReductionKind::any:
    return finish(team.combine(localReduce(kind, block, element),
                               distruntime::ReductionKind::lor));
  case ReductionKind::all:
    return finish(team.combine(localReduce(kind, block, element),
                               distruntime::ReductionKind::land));
  case ReductionKind::min:
  case ReductionKind::max: {
    bool isMin = kind == ReductionKind::min;
    // numpy rejects empty min/max; ranks owning none of the reduced
    // elements contribute the identity.
    cf::AssertOp::create(
        b, loc, m.gt(count, m.c(0)),
        "zero-size array to reduction operation min/max, which has no "
        "identity");
    Value owns;
    for (int64_t d : axes) {
      Value nonEmpty = m.gt(blockSizes[d], m.c(0));
      owns = owns ? m.land(owns, nonEmpty) : nonEmpty;
    }
    Value local = buildIf(
        b, loc, owns, partialType(element),
        [&] { return localReduce(kind, block, element); },
        [&] {
          return createFilled(b, loc, partialType(element), partialSizes,
                              getMinMaxIdentity(b, element, isMin));
        });
    Value reduced =
        team.combine(local, isMin ? distruntime::ReductionKind::min
                                  : distruntime::ReductionKind::max);
    if (!isa<FloatType>(element))
      return finish(reduced);
    // MPI's min/max do not propagate NaN (numpy's do): a NaN on any rank
    // makes the result NaN.
    Type i1 = b.getI1Type();
    Value nan =
        EWUnyOp::create(b, loc, partialType(i1), EWUnyOpKind::isnan, local);
    Value anyNaN = team.combine(nan, distruntime::ReductionKind::lor);
    Value nans = createFilled(
        b, loc, combinedType(element), resultSizes,
        b.getFloatAttr(
            element,
            APFloat::getQNaN(cast<FloatType>(element).getFloatSemantics())));
    return finish(
        WhereOp::create(b, loc, combinedType(element), anyNaN, nans, reduced));
  }
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std: {
    // Sums in the result's floating point type, divided by the global
    // element count; var/std subtract the global mean first (two passes).
    Value source = block;
    NDArrayType floatSource =
        cast<NDArrayType>(blockType.cloneWith(std::nullopt, element));
    if (blockType.getElementType() != element)
      source = CastElemTypeOp::create(b, loc, floatSource, block);
    // (In the components' type for complex elements: the division promotes.)
    Type realElement = getRealType(element);
    Value countF = arith::UIToFPOp::create(
        b, loc, realElement,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
    auto divide = [&](Value array, Value divisor) {
      NDArrayType scalarType = cast<NDArrayType>(
          blockType.cloneWith(ArrayRef<int64_t>(), divisor.getType()));
      Value scalar =
          CreateOp::create(b, loc, scalarType, ValueRange{}, divisor);
      return EWBinOp::create(b, loc, array.getType(), EWBinOpKind::divide,
                             array, scalar)
          .getResult();
    };
    Value sum = team.ordered(ReductionKind::sum, source);
    Value mean = divide(sum, countF);
    if (kind == ReductionKind::mean)
      return finish(mean);
    Value deviation =
        EWBinOp::create(b, loc, floatSource, EWBinOpKind::subtract, source,
                        team.blockPart(mean));
    Value squares = EWBinOp::create(b, loc, floatSource, EWBinOpKind::multiply,
                                    deviation, deviation);
    Value squareSum = team.ordered(ReductionKind::sum, squares);
    double correction =
        op.getCorrection() ? op.getCorrection()->convertToDouble() : 0.0;
    Value corrected = arith::SubFOp::create(
        b, loc, countF,
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, correction)));
    Value zero =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0.0));
    Value divisor = arith::MaximumFOp::create(b, loc, corrected, zero);
    Value variance = divide(squareSum, divisor);
    if (kind == ReductionKind::var)
      return finish(variance);
    return finish(
        EWUnyOp::create(b, loc, variance.getType(), EWUnyOpKind::sqrt, variance)
            .getResult());
  }
  }
  return failure();
}

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

/// Floating point sums and products over split axes of a grid array are
/// computed in tiles of kOrderedTile elements along each of them, fixed by
/// global indices, and the tiles' results in tile order.
constexpr int64_t kOrderedTile = 64;

/// Grids: the partials of each rank are written into its part of an array
/// of the combined shape filled with the identity and allreduced (each
/// element has one contributor, the identity elsewhere). Floating point sums
/// and products: the other reduced axes are reduced on the block first (they
/// are whole on every rank), then each rank fetches the tiles starting in its
/// block (the rest of its last tiles from the next ranks: less than a tile
/// per block boundary, one repartition), reduces each tile, and the tiles'
/// results, combined as above, are reduced in tile order. Every grid and
/// rank count gives the same bits.
TeamReduction overGrid(OpBuilder &b, Location loc, dist::DistEnvAttr env,
                       ReductionOp op, const GridArray &array) {
  auto sourceType = cast<NDArrayType>(op.getSource().getType());
  SmallVector<int64_t> axes = op.getReducedAxes();
  int64_t team = env.getTeam();
  SmallVector<int64_t> tileAxes, localAxes;
  for (int64_t d : axes)
    (llvm::is_contained(env.getSplit(), d) ? tileAxes : localAxes).push_back(d);
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
    // The tiles starting in this rank's block, fetched whole.
    Value tile = m.c(kOrderedTile);
    SmallVector<Value> boxOffsets, boxSizes, tiles;
    SmallVector<int64_t> boxShape(partialType.getShape());
    for (int64_t d = 0; d < rank; ++d) {
      Value offset = array.offsets[d];
      Value size = dist::getDimValue(b, loc, partials, d);
      if (!llvm::is_contained(tileAxes, d)) {
        boxOffsets.push_back(llvm::is_contained(localAxes, d) ? m.c(0)
                                                              : offset);
        boxSizes.push_back(size);
        continue;
      }
      auto tileStart = [&](Value index) {
        return m.min(m.mul(m.ceilDiv(index, tile), tile), array.shape[d]);
      };
      Value lo = tileStart(offset), hi = tileStart(m.add(offset, size));
      boxOffsets.push_back(lo);
      boxSizes.push_back(m.sub(hi, lo));
      boxShape[d] = ShapedType::kDynamic;
    }
    Value box = fetchBox(
        b, loc, team,
        GridArray::fromBlock(b, loc, partials,
                             keptShape<Value>(array.offsets, localAxes, m.c(0)),
                             partialShape),
        boxOffsets, boxSizes, like(boxShape));
    // Padded to whole tiles with the identity; each tile reduced.
    SmallVector<Value> paddedSizes(boxSizes), expandedDynamic;
    SmallVector<int64_t> expandedShape, tileSizeAxes;
    for (int64_t d = 0; d < rank; ++d) {
      if (!llvm::is_contained(tileAxes, d)) {
        expandedShape.push_back(boxShape[d]);
        if (ShapedType::isDynamic(boxShape[d]))
          expandedDynamic.push_back(boxSizes[d]);
        continue;
      }
      Value count = m.ceilDiv(boxSizes[d], tile);
      tiles.push_back(count);
      paddedSizes[d] = m.mul(count, tile);
      expandedShape.append({ShapedType::kDynamic, kOrderedTile});
      expandedDynamic.push_back(count);
      tileSizeAxes.push_back(expandedShape.size() - 1);
    }
    Value padded = createFilled(b, loc, like(boxShape), paddedSizes,
                                getIdentity(b, element, combineKind));
    padded = ImmutableInsertSliceOp::create(
        b, loc, box, padded, SmallVector<OpFoldResult>(rank, b.getIndexAttr(0)),
        getAsOpFoldResult(boxSizes),
        SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
    Value expanded = ReshapeOp::create(b, loc, like(expandedShape), padded,
                                       expandedDynamic, /*copy=*/false);
    SmallVector<int64_t> reducedShape(expandedShape);
    for (int64_t d : tileSizeAxes)
      reducedShape[d] = 1;
    SmallVector<int64_t> tileShape(boxShape);
    Value tileResults = SqueezeOp::create(
        b, loc, like(tileShape),
        ReductionOp::create(b, loc, like(reducedShape), kind, expanded,
                            b.getDenseI64ArrayAttr(tileSizeAxes),
                            /*keepdims=*/true, /*correction=*/nullptr),
        b.getDenseI64ArrayAttr(tileSizeAxes));
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
                               b.getDenseI64ArrayAttr(tileAxes),
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  return reduction;
}

/// Reductions of arrays in other distributions than rows (GridArray): over
/// axes that are not split, on the block (the result is split like the
/// source); over split axes, combined over the team (overGrid), the result
/// replicated.
struct GridReductionLowering : public OpConversionPattern<ReductionOp> {
  GridReductionLowering(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(ReductionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType sourceType = op.getSource().getType();
    if (!isGridArray(sourceType))
      return failure();
    auto env = dist::getDistEnv(sourceType);
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray array = GridArray::unpack(adaptor.getSource());
    Value block = array.block(b, loc);
    SmallVector<int64_t> axes = op.getReducedAxes();
    bool reducesSplitAxis = llvm::any_of(
        env.getSplit(), [&](int64_t d) { return llvm::is_contained(axes, d); });
    if (reducesSplitAxis) {
      FailureOr<Value> reduced =
          reduceOverTeam(b, loc, op, block, overGrid(b, loc, env, op, array));
      if (failed(reduced))
        return rewriter.notifyMatchFailure(op, "unsupported reduction");
      rewriter.replaceOp(op, *reduced);
      return success();
    }
    Value local = ReductionOp::create(b, loc, dist::getLocalType(op.getType()),
                                      op.getKind(), block, op.getAxesAttr(),
                                      op.getKeepdims(), op.getCorrectionAttr());
    SmallVector<Value> offsets, shape;
    for (int64_t d = 0; d < sourceType.getRank(); ++d) {
      bool reduced = llvm::is_contained(axes, d);
      if (reduced && !op.getKeepdims())
        continue;
      offsets.push_back(reduced ? m.c(0) : array.offsets[d]);
      shape.push_back(reduced ? m.c(1) : array.shape[d]);
    }
    rewriter.replaceOpWithMultiple(
        op, {packBlock(b, loc, local, offsets, shape, op.getType())});
    return success();
  }
};

/// Scans: local on the owned block. Along dimension 0 (without
/// `include_initial`, which ndarray-dist splits off) each rank scans its
/// rows, the ranks' totals are combined by an exclusive scan over the team
/// (one collective of one row), and each rank applies the total of the
/// ranks before it to its rows.
struct ScanLowering : public OpConversionPattern<CumulativeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumulativeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto env = dist::getDistEnv(op.getSource().getType());
    if (!env)
      return failure();
    if (op.getAxis() == 0 && op.getIncludeInitial())
      return rewriter.notifyMatchFailure(
          op, "include_initial along the split dimension (split off by "
              "ndarray-dist)");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    if (op.getAxis() != 0)
      return replaceOnOwnedBlock(rewriter, op, array);
    Value owned = array.owned(b, loc);
    NDArrayType rowsType = dist::getRowsType(op.getType());
    Value local = CumulativeOp::create(b, loc, rowsType, op.getKind(), owned,
                                       /*axis=*/0, /*include_initial=*/false);
    // This rank's total (the identity when it owns no rows), then the
    // total of the ranks before it.
    SmallVector<int64_t> totalShape(rowsType.getShape());
    totalShape[0] = 1;
    auto totalType = cast<NDArrayType>(
        rowsType.cloneWith(totalShape, rowsType.getElementType()));
    bool isSum = op.getKind() == ReductionKind::sum;
    Value total = ReductionOp::create(
        b, loc, totalType, op.getKind(), owned, b.getDenseI64ArrayAttr({0}),
        /*keepdims=*/true, /*correction=*/nullptr);
    Value before =
        distruntime::ExScanOp::create(b, loc, totalType,
                                      isSum ? distruntime::ReductionKind::sum
                                            : distruntime::ReductionKind::prod,
                                      total, env.getTeam());
    Value scan = EWBinOp::create(
        b, loc, rowsType, isSum ? EWBinOpKind::add : EWBinOpKind::multiply,
        before, local);
    return replaceWithOwned(rewriter, op, scan, array.ownedStart(m),
                            array.size0);
  }
};

/// argmax/argmin: local along dimensions other than 0. Along dimension 0
/// (or all dimensions) each rank finds its candidate (the best value and
/// its global index; ranks owning nothing offer the identity and the
/// largest index), then allreduces of one row pick the best value (a NaN if
/// any rank has one) and the lowest index holding it: numpy's first
/// occurrence on any number of ranks.
struct ArgReduceLowering : public OpConversionPattern<ArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgReduceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto env = dist::getDistEnv(op.getSource().getType());
    if (!env)
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    std::optional<int64_t> axis = op.getAxis();
    if (axis && *axis != 0)
      return replaceOnOwnedBlock(rewriter, op, array);
    Value owned = array.owned(b, loc);
    NDArrayType resultType = op.getType();
    auto ownedType = cast<NDArrayType>(owned.getType());
    Type element = ownedType.getElementType();
    bool isMax = op.getKind() == ReductionKind::max;
    SmallVector<int64_t> axes = op.getReducedAxes();
    DenseI64ArrayAttr axesAttr = b.getDenseI64ArrayAttr(axes);

    // Kept (size 1) reduced dimensions; the global count of reduced
    // elements and the flattened stride of a row.
    SmallVector<int64_t> keptShape;
    SmallVector<Value> keptSizes;
    Value count = array.size0, rowStride = m.c(1);
    for (int64_t d = 0; d < ownedType.getRank(); ++d) {
      bool reduced = llvm::is_contained(axes, d);
      keptShape.push_back(reduced ? 1 : ownedType.getDimSize(d));
      Value size = dist::getDimValue(b, loc, owned, d);
      keptSizes.push_back(reduced ? m.c(1) : size);
      if (reduced && d > 0) {
        count = m.mul(count, size);
        rowStride = m.mul(rowStride, size);
      }
    }
    cf::AssertOp::create(b, loc, m.gt(count, m.c(0)),
                         isMax ? "attempt to get argmax of an empty sequence"
                               : "attempt to get argmin of an empty sequence");
    auto keptType = [&](Type type) {
      return cast<NDArrayType>(ownedType.cloneWith(keptShape, type));
    };
    Type i64 = b.getI64Type();
    auto filled = [&](Type type, TypedAttr value) {
      return createFilled(b, loc, keptType(type), keptSizes, value);
    };
    TypedAttr identity = getMinMaxIdentity(b, element, !isMax);
    TypedAttr noIndex = b.getI64IntegerAttr(INT64_MAX);
    Value owns = m.gt(m.rows(owned), m.c(0));
    Value value = buildIf(
        b, loc, owns, keptType(element),
        [&] {
          return ReductionOp::create(b, loc, keptType(element), op.getKind(),
                                     owned, axesAttr, /*keepdims=*/true,
                                     /*correction=*/nullptr)
              .getResult();
        },
        [&] { return filled(element, identity); });
    Value index = buildIf(
        b, loc, owns, keptType(i64),
        [&] {
          Value local =
              ArgReduceOp::create(b, loc, keptType(i64), op.getKind(), owned,
                                  op.getAxisAttr(), /*keepdims=*/true);
          Value offset = arith::IndexCastOp::create(
              b, loc, i64, m.mul(array.ownedStart(m), rowStride));
          Value offsets = CreateOp::create(
              b, loc,
              cast<NDArrayType>(ownedType.cloneWith(ArrayRef<int64_t>(), i64)),
              ValueRange{}, offset);
          return EWBinOp::create(b, loc, keptType(i64), EWBinOpKind::add, local,
                                 offsets)
              .getResult();
        },
        [&] { return filled(i64, noIndex); });

    auto allreduce = [&](Value local, distruntime::ReductionKind kind) {
      return distruntime::AllReduceOp::create(b, loc, local.getType(), kind,
                                              local, env.getTeam())
          .getResult();
    };
    auto equal = [&](Value x, Value y) {
      return EWBinOp::create(b, loc, keptType(b.getI1Type()),
                             EWBinOpKind::equal, x, y)
          .getResult();
    };
    distruntime::ReductionKind best = isMax ? distruntime::ReductionKind::max
                                            : distruntime::ReductionKind::min;
    Value candidate;
    if (isa<FloatType>(element)) {
      // A NaN wins wherever it is; NaNs must not enter the max/min.
      Value nan = EWUnyOp::create(b, loc, keptType(b.getI1Type()),
                                  EWUnyOpKind::isnan, value);
      Value anyNaN = allreduce(nan, distruntime::ReductionKind::lor);
      Value numbers = WhereOp::create(b, loc, keptType(element), nan,
                                      filled(element, identity), value);
      Value isBest = equal(value, allreduce(numbers, best));
      candidate =
          WhereOp::create(b, loc, keptType(b.getI1Type()), anyNaN, nan, isBest);
    } else {
      candidate = equal(value, allreduce(value, best));
    }
    Value indices = WhereOp::create(b, loc, keptType(i64), candidate, index,
                                    filled(i64, noIndex));
    Value result = allreduce(indices, distruntime::ReductionKind::min);
    if (op.getKeepdims())
      result = result.getType() == resultType
                   ? result
                   : CastOp::create(b, loc, resultType, result).getResult();
    else
      result = SqueezeOp::create(b, loc, resultType, result, axesAttr);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// searchsorted: with the sorted array split, each rank counts in its
/// block and an allreduce sums the counts (the values are replicated);
/// with the values split, local on their owned block.
struct SearchSortedLowering : public OpConversionPattern<SearchSortedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SearchSortedOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    auto sortedEnv = dist::getDistEnv(op.getSorted().getType());
    auto valuesEnv = dist::getDistEnv(op.getValues().getType());
    if (sortedEnv && valuesEnv)
      return rewriter.notifyMatchFailure(op, "split values (gathered by "
                                             "ndarray-dist)");
    if (valuesEnv) {
      LocalArray values = LocalArray::unpack(adaptor.getValues());
      Value local =
          SearchSortedOp::create(rewriter, loc, dist::getRowsType(op.getType()),
                                 adaptor.getSorted().front(),
                                 values.owned(rewriter, loc), op.getRight());
      return replaceWithOwned(rewriter, op, local, values.ownedStart(m),
                              values.size0);
    }
    if (!sortedEnv)
      return failure();
    LocalArray sorted = LocalArray::unpack(adaptor.getSorted());
    Value counts = SearchSortedOp::create(
        rewriter, loc, op.getType(), sorted.owned(rewriter, loc),
        adaptor.getValues().front(), op.getRight());
    rewriter.replaceOp(
        op, distruntime::AllReduceOp::create(rewriter, loc, counts.getType(),
                                             distruntime::ReductionKind::sum,
                                             counts, sortedEnv.getTeam())
                .getResult());
    return success();
  }
};

} // namespace

void dist::detail::populateReductionsToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReductionLowering, GridReductionLowering, ScanLowering,
               ArgReduceLowering, SearchSortedLowering>(converter,
                                                        patterns.getContext());
}
