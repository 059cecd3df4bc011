//===- ReductionsToStandard.cpp - reductions of distributed arrays --------===//
//
// Reductions and scans of distributed arrays: local on the owned block, over
// dimension 0 completed across the team (allreduce, or for floating point
// sums and products distruntime.ordered_reduce, which gives the same bits on
// any number of ranks; scans by an exclusive scan of the ranks' totals).
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"
#include "Reductions.h"

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

/// A 0-d or keepdims array filled with `value` of the result's shape.
Value dist::detail::createFilled(OpBuilder &b, Location loc, NDArrayType type,
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
TypedAttr dist::detail::getMinMaxIdentity(OpBuilder &b, Type type, bool isMin) {
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

namespace {

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
                       overRows(b, loc, env.getTeam(), op.getReducedAxes(),
                                owned, array.ownedStart(m), array.size0));
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
                                ArrayRef<int64_t> axes, Value owned,
                                Value start, Value rows);
};

TeamReduction ReductionLowering::overRows(OpBuilder &b, Location loc,
                                          int64_t team,
                                          ArrayRef<int64_t> reducedAxes,
                                          Value owned, Value start,
                                          Value rows) {
  auto ownedType = cast<NDArrayType>(owned.getType());
  SmallVector<int64_t> axes(reducedAxes);
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

} // namespace

FailureOr<Value> dist::detail::reduceOverTeam(OpBuilder &b, Location loc,
                                              ReductionOp op, Value block,
                                              const TeamReduction &team) {
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

/// argmax/argmin over split axes, combined over the team by `team`: each
/// rank finds its candidate (the best value and its global index, from the
/// block's local index by `toGlobal`; ranks owning none of the reduced
/// elements offer the identity and the largest index), then the combined
/// best value (a NaN if any rank has one) and the lowest index holding it:
/// numpy's first occurrence on any number of ranks.
Value dist::detail::argReduceOverTeam(OpBuilder &b, Location loc,
                                      ArgReduceOp op, Value block,
                                      const TeamReduction &team,
                                      function_ref<Value(Value)> toGlobal) {
  IndexMath m{b, loc};
  NDArrayType resultType = op.getType();
  auto blockType = cast<NDArrayType>(block.getType());
  Type element = blockType.getElementType();
  bool isMax = op.getKind() == ReductionKind::max;
  SmallVector<int64_t> axes = op.getReducedAxes();
  DenseI64ArrayAttr axesAttr = b.getDenseI64ArrayAttr(axes);

  SmallVector<Value> blockSizes;
  for (int64_t d = 0; d < blockType.getRank(); ++d)
    blockSizes.push_back(dist::getDimValue(b, loc, block, d));
  Value count = m.c(1), owns;
  for (int64_t d : axes) {
    count = m.mul(count, team.shape[d]);
    Value nonEmpty = m.gt(blockSizes[d], m.c(0));
    owns = owns ? m.land(owns, nonEmpty) : nonEmpty;
  }
  cf::AssertOp::create(b, loc, m.gt(count, m.c(0)),
                       isMax ? "attempt to get argmax of an empty sequence"
                             : "attempt to get argmin of an empty sequence");
  SmallVector<Value> partialSizes = keptShape<Value>(blockSizes, axes, m.c(1));
  auto partialType = [&](Type type) {
    return cast<NDArrayType>(blockType.cloneWith(
        keptShape(blockType.getShape(), axes, int64_t(1)), type));
  };
  Type i64 = b.getI64Type();
  auto filled = [&](Type type, TypedAttr value) {
    return createFilled(b, loc, partialType(type), partialSizes, value);
  };
  TypedAttr identity = getMinMaxIdentity(b, element, !isMax);
  TypedAttr noIndex = b.getI64IntegerAttr(INT64_MAX);
  Value value = buildIf(
      b, loc, owns, partialType(element),
      [&] {
        return ReductionOp::create(b, loc, partialType(element), op.getKind(),
                                   block, axesAttr, /*keepdims=*/true,
                                   /*correction=*/nullptr)
            .getResult();
      },
      [&] { return filled(element, identity); });
  Value index = buildIf(
      b, loc, owns, partialType(i64),
      [&] {
        return toGlobal(ArgReduceOp::create(
            b, loc, partialType(i64), op.getKind(), block, op.getAxisAttr(),
            /*keepdims=*/true));
      },
      [&] { return filled(i64, noIndex); });

  auto equal = [&](Value x, Value y) {
    return EWBinOp::create(b, loc, partialType(b.getI1Type()),
                           EWBinOpKind::equal, x, y)
        .getResult();
  };
  distruntime::ReductionKind best =
      isMax ? distruntime::ReductionKind::max : distruntime::ReductionKind::min;
  Value candidate;
  if (isa<FloatType>(element)) {
    // A NaN wins wherever it is; NaNs must not enter the max/min.
    Value nan = EWUnyOp::create(b, loc, partialType(b.getI1Type()),
                                EWUnyOpKind::isnan, value);
    Value anyNaN =
        team.blockPart(team.combine(nan, distruntime::ReductionKind::lor));
    Value numbers = WhereOp::create(b, loc, partialType(element), nan,
                                    filled(element, identity), value);
    Value isBest = equal(value, team.blockPart(team.combine(numbers, best)));
    candidate = WhereOp::create(b, loc, partialType(b.getI1Type()), anyNaN, nan,
                                isBest);
  } else {
    candidate = equal(value, team.blockPart(team.combine(value, best)));
  }
  Value indices = WhereOp::create(b, loc, partialType(i64), candidate, index,
                                  filled(i64, noIndex));
  Value result = team.combine(indices, distruntime::ReductionKind::min);
  if (op.getKeepdims())
    return result.getType() == resultType
               ? result
               : CastOp::create(b, loc, resultType, result).getResult();
  return SqueezeOp::create(b, loc, resultType, result, axesAttr);
}

namespace {

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
    // The rows scanned on from that total, in order (not the total applied
    // to a scan of the rows: the single-process order of the operations,
    // so that no rank multiplies an overflowed partial product by the
    // zero before it, and sums round as on one process).
    Value seeded = ConcatOp::create(
        b, loc,
        cast<NDArrayType>(rowsType.cloneWith(
            SmallVector<int64_t>(rowsType.getRank(), ShapedType::kDynamic),
            rowsType.getElementType())),
        ValueRange{before, owned}, 0);
    auto seededType = cast<NDArrayType>(seeded.getType());
    Value scanned = CumulativeOp::create(b, loc, seededType, op.getKind(),
                                         seeded, /*axis=*/0,
                                         /*include_initial=*/false);
    SmallVector<OpFoldResult> offsets(rowsType.getRank(), b.getIndexAttr(0));
    offsets[0] = b.getIndexAttr(1);
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rowsType.getRank(); ++d)
      sizes.push_back(DimOp::create(b, loc, owned, d).getResult());
    SmallVector<OpFoldResult> ones(rowsType.getRank(), b.getIndexAttr(1));
    Value scan =
        SubviewOp::create(b, loc, seededType, scanned, offsets, sizes, ones);
    if (scan.getType() != rowsType)
      scan = CastOp::create(b, loc, rowsType, scan);
    return replaceWithOwned(rewriter, op, scan, array.ownedStart(m),
                            array.size0);
  }
};

/// argmax/argmin: local along dimensions other than 0. Along dimension 0
/// (or all dimensions) combined over the team (argReduceOverTeam); a
/// rank's global index is its local one plus its first row's flattened
/// offset.
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
    auto ownedType = cast<NDArrayType>(owned.getType());
    // The flattened stride of a row over the reduced axes.
    Value rowStride = m.c(1);
    for (int64_t d : op.getReducedAxes())
      if (d > 0)
        rowStride = m.mul(rowStride, dist::getDimValue(b, loc, owned, d));
    TeamReduction team =
        ReductionLowering::overRows(b, loc, env.getTeam(), op.getReducedAxes(),
                                    owned, array.ownedStart(m), array.size0);
    Type i64 = b.getI64Type();
    Value result = argReduceOverTeam(b, loc, op, owned, team, [&](Value local) {
      Value offset = arith::IndexCastOp::create(
          b, loc, i64, m.mul(array.ownedStart(m), rowStride));
      Value offsets = CreateOp::create(
          b, loc,
          cast<NDArrayType>(ownedType.cloneWith(ArrayRef<int64_t>(), i64)),
          ValueRange{}, offset);
      return EWBinOp::create(b, loc, local.getType(), EWBinOpKind::add, local,
                             offsets)
          .getResult();
    });
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
  patterns.add<ReductionLowering, ScanLowering, ArgReduceLowering,
               SearchSortedLowering>(converter, patterns.getContext());
  populateGridReductionsToStandardPatterns(converter, patterns);
}
