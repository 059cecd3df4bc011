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

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

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
    FailureOr<Value> reduced = reduceOverTeam(b, loc, env.getTeam(), op, owned,
                                              array.ownedStart(m), array.size0);
    if (failed(reduced))
      return rewriter.notifyMatchFailure(op, "unsupported reduction");
    rewriter.replaceOp(op, *reduced);
    return success();
  }

  /// The reduction `op` of the rows of all ranks, given this rank's
  /// `owned` rows; `rows` is the global size of dimension 0.
  static FailureOr<Value> reduceOverTeam(OpBuilder &b, Location loc,
                                         int64_t team, ReductionOp op,
                                         Value owned, Value start, Value rows);
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

FailureOr<Value> ReductionLowering::reduceOverTeam(OpBuilder &b, Location loc,
                                                   int64_t team, ReductionOp op,
                                                   Value owned, Value start,
                                                   Value rows) {
  IndexMath m{b, loc};
  NDArrayType resultType = op.getType();
  auto ownedType = cast<NDArrayType>(owned.getType());
  SmallVector<int64_t> axes = op.getReducedAxes();
  ReductionKind kind = op.getKind();
  DenseI64ArrayAttr axesAttr = b.getDenseI64ArrayAttr(axes);

  // The shape of the result with kept (size 1) reduced dimensions.
  SmallVector<int64_t> keptShape;
  SmallVector<Value> keptSizes;
  for (int64_t d = 0; d < ownedType.getRank(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    keptShape.push_back(reduced ? 1 : ownedType.getDimSize(d));
    keptSizes.push_back(reduced ? m.c(1) : dist::getDimValue(b, loc, owned, d));
  }
  // Local arrays keep the owned block's other environments (a GPU).
  auto localType = [&](ArrayRef<int64_t> shape, Type element) {
    return cast<NDArrayType>(ownedType.cloneWith(shape, element));
  };
  auto keptType = [&](Type element) { return localType(keptShape, element); };
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
    return ReductionOp::create(b, loc, keptType(element), k, source, axesAttr,
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  auto allreduce = [&](Value local, distruntime::ReductionKind k) {
    return distruntime::AllReduceOp::create(b, loc, local.getType(), k, local,
                                            team)
        .getResult();
  };
  Type element = resultType.getElementType();
  // Floating point sums and products depend on the order of the operations:
  // IDTR reduces the rows in an order fixed by the array (blocks of global
  // rows, see distruntime.ordered_reduce), which gives the same bits on any
  // number of ranks. Other reduced axes are reduced locally first.
  SmallVector<int64_t> otherAxes;
  for (int64_t d : axes)
    if (d != 0)
      otherAxes.push_back(d);
  auto orderedReduce = [&](ReductionKind k, Value source) -> Value {
    Value partials = source;
    if (!otherAxes.empty()) {
      SmallVector<int64_t> shape(keptShape);
      shape[0] = ShapedType::kDynamic;
      partials = ReductionOp::create(b, loc, localType(shape, element), k,
                                     source, b.getDenseI64ArrayAttr(otherAxes),
                                     /*keepdims=*/true, /*correction=*/nullptr);
    }
    return distruntime::OrderedReduceOp::create(
               b, loc, keptType(element),
               k == ReductionKind::prod ? distruntime::ReductionKind::prod
                                        : distruntime::ReductionKind::sum,
               partials, start, rows, team)
        .getResult();
  };
  // Floating-point sums in a fixed order: the same bits on any rank count.
  bool ordered = isa<FloatType, ComplexType>(element);

  switch (kind) {
  case ReductionKind::sum:
    if (ordered)
      return finish(orderedReduce(kind, owned));
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::sum));
  case ReductionKind::prod:
    if (ordered)
      return finish(orderedReduce(kind, owned));
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::prod));
  case ReductionKind::any:
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::lor));
  case ReductionKind::all:
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::land));
  case ReductionKind::min:
  case ReductionKind::max: {
    bool isMin = kind == ReductionKind::min;
    // numpy rejects empty min/max; ranks owning no rows contribute the
    // identity.
    Value total = rows;
    for (int64_t d : axes)
      if (d != 0)
        total = m.mul(total, keptSizes[d] == nullptr
                                 ? m.c(1)
                                 : dist::getDimValue(b, loc, owned, d));
    cf::AssertOp::create(
        b, loc, m.gt(total, m.c(0)),
        "zero-size array to reduction operation min/max, which has no "
        "identity");
    Value local = buildIf(
        b, loc, m.gt(m.rows(owned), m.c(0)), keptType(element),
        [&] { return localReduce(kind, owned, element); },
        [&] {
          return createFilled(b, loc, keptType(element), keptSizes,
                              getMinMaxIdentity(b, element, isMin));
        });
    Value reduced = allreduce(local, isMin ? distruntime::ReductionKind::min
                                           : distruntime::ReductionKind::max);
    if (!isa<FloatType>(element))
      return finish(reduced);
    // MPI's min/max do not propagate NaN (numpy's do): a NaN on any rank
    // makes the result NaN.
    Type i1 = b.getI1Type();
    Value nan =
        EWUnyOp::create(b, loc, keptType(i1), EWUnyOpKind::isnan, local);
    Value anyNaN = allreduce(nan, distruntime::ReductionKind::lor);
    Value nans = createFilled(
        b, loc, keptType(element), keptSizes,
        b.getFloatAttr(
            element,
            APFloat::getQNaN(cast<FloatType>(element).getFloatSemantics())));
    return finish(
        WhereOp::create(b, loc, keptType(element), anyNaN, nans, reduced));
  }
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std: {
    // Sums in the result's floating point type, divided by the global
    // element count; var/std subtract the global mean first (two passes).
    Value source = owned;
    NDArrayType floatSource =
        cast<NDArrayType>(ownedType.cloneWith(std::nullopt, element));
    if (ownedType.getElementType() != element)
      source = CastElemTypeOp::create(b, loc, floatSource, owned);
    Value count = rows;
    for (int64_t d : axes)
      if (d != 0)
        count = m.mul(count, dist::getDimValue(b, loc, owned, d));
    // (In the components' type for complex elements: the division promotes.)
    Type realElement = getRealType(element);
    Value countF = arith::UIToFPOp::create(
        b, loc, realElement,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
    auto divide = [&](Value array, Value divisor) {
      NDArrayType scalarType = localType({}, divisor.getType());
      Value scalar =
          CreateOp::create(b, loc, scalarType, ValueRange{}, divisor);
      return EWBinOp::create(b, loc, array.getType(), EWBinOpKind::divide,
                             array, scalar)
          .getResult();
    };
    Value sum = orderedReduce(ReductionKind::sum, source);
    Value mean = divide(sum, countF);
    if (kind == ReductionKind::mean)
      return finish(mean);
    Value deviation = EWBinOp::create(b, loc, floatSource,
                                      EWBinOpKind::subtract, source, mean);
    Value squares = EWBinOp::create(b, loc, floatSource, EWBinOpKind::multiply,
                                    deviation, deviation);
    Value squareSum = orderedReduce(ReductionKind::sum, squares);
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
  patterns.add<ReductionLowering, ScanLowering, ArgReduceLowering,
               SearchSortedLowering>(converter, patterns.getContext());
}
