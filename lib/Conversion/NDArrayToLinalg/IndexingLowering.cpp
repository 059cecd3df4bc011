//===- IndexingLowering.cpp - element selection and scans to linalg -------===//
//
// convert-ndarray-to-linalg patterns of the ops that select or reorder
// elements by position or value (take, put, searchsorted, flip,
// masked_select, argmax/argmin) and of cumulative scans.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ScalarOps.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

namespace {

/// Integer indices along an axis of `length` elements as `index` values,
/// negative ones counted from the end (the take and put rule).
struct AxisIndices {
  Value length;
  bool isUnsigned;

  Value normalize(OpBuilder &b, Location loc, Value raw) const {
    Type indexType = b.getIndexType();
    Value i = raw;
    if (raw.getType() != indexType)
      i = isUnsigned
              ? arith::IndexCastUIOp::create(b, loc, indexType, raw).getResult()
              : arith::IndexCastOp::create(b, loc, indexType, raw).getResult();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, zero);
    return arith::SelectOp::create(b, loc, negative,
                                   arith::AddIOp::create(b, loc, i, length), i);
  }

  /// A run-time check that every index of the 1-d tensor `indices` is in
  /// range (one reduction), failing with `message`.
  void createCheck(OpBuilder &b, Location loc, Value indices,
                   const Twine &message) const {
    Value ok = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getI1Type(), ValueRange{});
    Value valid = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    ok = linalg::FillOp::create(b, loc, valid, ok).getResult(0);
    MLIRContext *context = b.getContext();
    Value inRange =
        linalg::GenericOp::create(
            b, loc, ok.getType(), indices, ok,
            {AffineMap::getMultiDimIdentityMap(1, context),
             AffineMap::get(1, 0, {}, context)},
            {utils::IteratorType::reduction},
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value i = normalize(nb, nloc, args[0]);
              Value zero = arith::ConstantIndexOp::create(nb, nloc, 0);
              Value valid = arith::AndIOp::create(
                  nb, nloc,
                  arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::sge, i,
                                        zero),
                  arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::slt, i,
                                        length));
              linalg::YieldOp::create(
                  nb, nloc,
                  arith::AndIOp::create(nb, nloc, args[1], valid).getResult());
            })
            .getResult(0);
    cf::AssertOp::create(
        b, loc, tensor::ExtractOp::create(b, loc, inRange, ValueRange{}),
        message.str());
  }
};

/// take: a check that every index is in range (a reduction), then a
/// parallel loop over the result reading the indexed element.
struct TakeLowering : public OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource(), indices = adaptor.getIndices();
    int64_t axis = op.getAxis();
    AxisIndices along{
        toIndex(rewriter, loc, getSize(rewriter, loc, source, axis)),
        getElementType(op.getIndices()).isUnsignedInteger()};
    along.createCheck(rewriter, loc, indices,
                      "take: an index is out of bounds for axis " +
                          Twine(axis));
    RankedTensorType resultType = getTensorType(op.getType());
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, source);
    sizes[axis] = getSize(rewriter, loc, indices, 0);
    Value init = createEmpty(rewriter, loc, resultType.getShape(), sizes,
                             resultType.getElementType());
    rewriter.replaceOp(
        op, buildRemappedRead(
                rewriter, loc, source, init,
                [&](OpBuilder &b, Location nloc, SmallVectorImpl<Value> &at) {
                  at[axis] = along.normalize(
                      b, nloc,
                      tensor::ExtractOp::create(b, nloc, indices, at[axis]));
                }));
    return success();
  }
};

/// put: a check that every index is in range, then a loop over the indices
/// in order (the last of repeated indices wins) inserting the slice of the
/// values into the destination (updated in place by bufferization where
/// the destination is not read later).
struct PutLowering : public OpConversionPattern<PutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value destination = adaptor.getDestination(),
          indices = adaptor.getIndices(), values = adaptor.getValues();
    int64_t axis = op.getAxis();
    AxisIndices along{
        toIndex(rewriter, loc, getSize(rewriter, loc, destination, axis)),
        getElementType(op.getIndices()).isUnsignedInteger()};
    along.createCheck(rewriter, loc, indices,
                      "put: an index is out of bounds for axis " + Twine(axis));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value count = toIndex(rewriter, loc, getSize(rewriter, loc, indices, 0));
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, count, one, ValueRange{destination},
        [&](OpBuilder &b, Location nloc, Value j, ValueRange iterArgs) {
          SmallVector<OpFoldResult> sizes = getSizes(b, nloc, values);
          sizes[axis] = b.getIndexAttr(1);
          SmallVector<OpFoldResult> from(sizes.size(), b.getIndexAttr(0)),
              strides(sizes.size(), b.getIndexAttr(1));
          SmallVector<OpFoldResult> to = from;
          from[axis] = j;
          to[axis] = along.normalize(
              b, nloc, tensor::ExtractOp::create(b, nloc, indices, j));
          Value slice = tensor::ExtractSliceOp::create(b, nloc, values, from,
                                                       sizes, strides);
          Value updated = tensor::InsertSliceOp::create(
              b, nloc, slice, iterArgs[0], to, sizes, strides);
          scf::YieldOp::create(b, nloc, updated);
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// searchsorted: a parallel loop over the values, each a binary search
/// (scf.while) in the sorted array with numpy's order (NaNs last).
struct SearchSortedLowering : public OpConversionPattern<SearchSortedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SearchSortedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value sorted = adaptor.getSorted(), values = adaptor.getValues();
    auto valuesType = cast<RankedTensorType>(values.getType());
    Type element = getElementType(op.getValues());
    int64_t rank = valuesType.getRank();
    Type i64 = rewriter.getI64Type();
    Value length = toIndex(rewriter, loc, getSize(rewriter, loc, sorted, 0));
    Value init = createEmpty(rewriter, loc, valuesType.getShape(),
                             getSizes(rewriter, loc, values), i64);
    SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    bool right = op.getRight();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), values, init, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value v = args[0];
          // less(a, b) in numpy's order: a NaN is greater than any number.
          auto less = [&](OpBuilder &lb, Value a, Value c) -> Value {
            Value lt = buildEWBin(lb, nloc, EWBinOpKind::less, a, c, element,
                                  lb.getI1Type());
            if (!isa<FloatType>(element))
              return lt;
            Value notA = createNot(lb, nloc, createIsNaN(lb, nloc, a));
            return arith::OrIOp::create(
                lb, nloc, lt,
                arith::AndIOp::create(lb, nloc, createIsNaN(lb, nloc, c),
                                      notA));
          };
          Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
          Value one = arith::ConstantIndexOp::create(b, nloc, 1);
          auto search = scf::WhileOp::create(
              b, nloc, TypeRange{b.getIndexType(), b.getIndexType()},
              ValueRange{zero, length},
              [&](OpBuilder &cb, Location cloc, ValueRange bounds) {
                Value more = arith::CmpIOp::create(
                    cb, cloc, arith::CmpIPredicate::ult, bounds[0], bounds[1]);
                scf::ConditionOp::create(cb, cloc, more, bounds);
              },
              [&](OpBuilder &wb, Location wloc, ValueRange bounds) {
                Value mid = arith::ShRUIOp::create(
                    wb, wloc,
                    arith::AddIOp::create(wb, wloc, bounds[0], bounds[1]), one);
                Value e = tensor::ExtractOp::create(wb, wloc, sorted, mid);
                // left: skip elements < v; right: elements <= v.
                Value skip = right ? createNot(wb, wloc, less(wb, v, e))
                                   : less(wb, e, v);
                Value next = arith::AddIOp::create(wb, wloc, mid, one);
                scf::YieldOp::create(
                    wb, wloc,
                    ValueRange{arith::SelectOp::create(wb, wloc, skip, next,
                                                       bounds[0]),
                               arith::SelectOp::create(wb, wloc, skip,
                                                       bounds[1], mid)});
              });
          linalg::YieldOp::create(
              b, nloc,
              arith::IndexCastOp::create(b, nloc, i64, search.getResult(0))
                  .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// flip: one parallel loop over the result reading the mirrored element.
struct FlipLowering : public OpConversionPattern<FlipOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FlipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    auto type = cast<RankedTensorType>(source.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, source);
    // n - 1 for every flipped axis.
    SmallVector<Value> last(rank);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t axis : op.getAxes())
      last[axis] = rewriter.createOrFold<arith::SubIOp>(
          loc, toIndex(rewriter, loc, sizes[axis]), one);
    Value init = createEmpty(rewriter, loc, type.getShape(), sizes,
                             type.getElementType());
    rewriter.replaceOp(
        op, buildRemappedRead(
                rewriter, loc, source, init,
                [&](OpBuilder &b, Location nloc, SmallVectorImpl<Value> &at) {
                  for (int64_t d = 0; d < rank; ++d)
                    if (last[d])
                      at[d] = arith::SubIOp::create(b, nloc, last[d], at[d]);
                }));
    return success();
  }
};

/// Boolean indexing: the mask and the source's leading dimensions are
/// flattened, the true elements counted (a reduction), then one sequential
/// loop appends the selected elements (or rows) to the result.
struct MaskedSelectLowering : public OpConversionPattern<MaskedSelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaskedSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource(), mask = adaptor.getMask();
    auto sourceType = cast<RankedTensorType>(source.getType());
    int64_t k = cast<RankedTensorType>(mask.getType()).getRank();
    int64_t rank = sourceType.getRank();
    for (int64_t d = 0; d < k; ++d)
      runtimeCheck(
          rewriter, loc,
          cmpIndex(rewriter, loc, arith::CmpIPredicate::eq,
                   toIndex(rewriter, loc, getSize(rewriter, loc, mask, d)),
                   toIndex(rewriter, loc, getSize(rewriter, loc, source, d))),
          "boolean index does not match the indexed array along dimension " +
              std::to_string(d));
    if (k > 1) {
      SmallVector<ReassociationIndices> sourceGroups{
          llvm::to_vector(llvm::seq<int64_t>(0, k))};
      for (int64_t d = k; d < rank; ++d)
        sourceGroups.push_back({d});
      source =
          tensor::CollapseShapeOp::create(rewriter, loc, source, sourceGroups);
      mask = tensor::CollapseShapeOp::create(
          rewriter, loc, mask,
          ArrayRef<ReassociationIndices>{sourceGroups.front()});
    }
    // Number of selected elements.
    Type i64 = rewriter.getI64Type();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0));
    Value init = tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{},
                                         i64, ValueRange{});
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
    MLIRContext *context = getContext();
    SmallVector<AffineMap> maps{AffineMap::getMultiDimIdentityMap(1, context),
                                AffineMap::get(1, 0, {}, context)};
    Value counted =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), mask, init, maps,
            {utils::IteratorType::reduction},
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value one = arith::ExtUIOp::create(b, nloc, i64, args[0]);
              linalg::YieldOp::create(
                  b, nloc,
                  arith::AddIOp::create(b, nloc, args[1], one).getResult());
            })
            .getResult(0);
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        tensor::ExtractOp::create(rewriter, loc, counted, ValueRange{}));

    RankedTensorType resultType = getTensorType(op.getType());
    SmallVector<OpFoldResult> sizes{count};
    for (int64_t d = 1; d < resultType.getRank(); ++d)
      sizes.push_back(getSize(rewriter, loc, source, d));
    Value result = createEmpty(rewriter, loc, resultType.getShape(), sizes,
                               resultType.getElementType());
    Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value length = toIndex(rewriter, loc, getSize(rewriter, loc, mask, 0));
    int64_t rowRank = resultType.getRank() - 1;
    auto loop = scf::ForOp::create(
        rewriter, loc, c0, length, c1, ValueRange{result, c0},
        [&](OpBuilder &b, Location nloc, Value i, ValueRange carried) {
          Value selected = tensor::ExtractOp::create(b, nloc, mask, i);
          auto ifOp = scf::IfOp::create(
              b, nloc, selected,
              [&](OpBuilder &tb, Location tloc) {
                Value r = carried[0], j = carried[1];
                Value updated;
                if (rowRank == 0) {
                  Value v = tensor::ExtractOp::create(tb, tloc, source, i);
                  updated = tensor::InsertOp::create(tb, tloc, v, r, j);
                } else {
                  SmallVector<OpFoldResult> offsets(rowRank + 1,
                                                    tb.getIndexAttr(0));
                  SmallVector<OpFoldResult> rowSizes(sizes);
                  SmallVector<OpFoldResult> strides(rowRank + 1,
                                                    tb.getIndexAttr(1));
                  rowSizes[0] = tb.getIndexAttr(1);
                  offsets[0] = i;
                  SmallVector<int64_t> rowShape;
                  for (OpFoldResult size : ArrayRef(rowSizes).drop_front())
                    rowShape.push_back(getConstantIntValue(size).value_or(
                        ShapedType::kDynamic));
                  auto rowType = RankedTensorType::get(
                      rowShape, resultType.getElementType());
                  Value row = tensor::ExtractSliceOp::create(
                      tb, tloc, rowType, source, offsets, rowSizes, strides);
                  offsets[0] = j;
                  updated = tensor::InsertSliceOp::create(
                      tb, tloc, row, r, offsets, rowSizes, strides);
                }
                Value next = arith::AddIOp::create(tb, tloc, j, c1);
                scf::YieldOp::create(tb, tloc, ValueRange{updated, next});
              },
              [&](OpBuilder &eb, Location eloc) {
                scf::YieldOp::create(eb, eloc, carried);
              });
          scf::YieldOp::create(b, nloc, ifOp.getResults());
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// argmax/argmin: one reduction carrying the best value and its index.
/// The step is commutative and associative (a NaN beats any number, a
/// greater (smaller) value beats a smaller (greater) one, ties go to the
/// lower index), so the result is numpy's whatever order the loop runs in.
struct ArgReduceLowering : public OpConversionPattern<ArgReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Type element = getElementType(op.getSource());
    bool isMax = op.getKind() == ReductionKind::max;
    bool isFloat = isa<FloatType>(element);
    int64_t rank = sourceType.getRank();
    SmallVector<int64_t> axes = op.getReducedAxes();
    Type i64 = rewriter.getI64Type();

    // Row-major strides of the reduced dimensions (the flattened index).
    SmallVector<OpFoldResult> dimSizes = getSizes(rewriter, loc, source);
    SmallVector<Value> sizes;
    for (OpFoldResult size : dimSizes)
      sizes.push_back(toIndex(rewriter, loc, size));
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    SmallVector<Value> strides(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (!llvm::is_contained(axes, d))
        continue;
      strides[d] = count;
      count = rewriter.createOrFold<arith::MulIOp>(loc, count, sizes[d]);
    }
    runtimeCheck(rewriter, loc,
                 cmpIndex(rewriter, loc, arith::CmpIPredicate::ne, count,
                          arith::ConstantIndexOp::create(rewriter, loc, 0)),
                 isMax ? "attempt to get argmax of an empty sequence"
                       : "attempt to get argmin of an empty sequence");

    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> keptSizes;
    SmallVector<AffineExpr> keptExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      if (llvm::is_contained(axes, d)) {
        iterators.push_back(utils::IteratorType::reduction);
        continue;
      }
      iterators.push_back(utils::IteratorType::parallel);
      keptExprs.push_back(rewriter.getAffineDimExpr(d));
      shape.push_back(sourceType.getDimSize(d));
      keptSizes.push_back(dimSizes[d]);
    }
    Type storage = getStorageType(element);
    Value values = createEmpty(rewriter, loc, shape, keptSizes, storage);
    values = linalg::FillOp::create(
                 rewriter, loc,
                 buildReductionIdentity(rewriter, loc, op.getKind(), element),
                 values)
                 .getResult(0);
    Value indices = createEmpty(rewriter, loc, shape, keptSizes, i64);
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getI64IntegerAttr(0));
    indices = linalg::FillOp::create(rewriter, loc, zero, indices).getResult(0);
    AffineMap kept = AffineMap::get(rank, 0, keptExprs, getContext());
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank), kept,
                                kept};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{values.getType(), indices.getType()}, source,
        ValueRange{values, indices}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value index = arith::ConstantIndexOp::create(b, nloc, 0);
          for (int64_t d : axes)
            index = arith::AddIOp::create(
                b, nloc, index,
                arith::MulIOp::create(
                    b, nloc, linalg::IndexOp::create(b, nloc, d), strides[d]));
          index = arith::IndexCastOp::create(b, nloc, i64, index);
          Value better = buildEWBin(
              b, nloc, isMax ? EWBinOpKind::greater : EWBinOpKind::less, x,
              best, element, b.getI1Type());
          Value tie = buildEWBin(b, nloc, EWBinOpKind::equal, x, best, element,
                                 b.getI1Type());
          if (isFloat) {
            // A NaN beats every number; two NaNs tie.
            Value xNaN = createIsNaN(b, nloc, x);
            Value bestNaN = createIsNaN(b, nloc, best);
            Value notBestNaN = createNot(b, nloc, bestNaN);
            better = arith::OrIOp::create(
                b, nloc, arith::AndIOp::create(b, nloc, xNaN, notBestNaN),
                arith::AndIOp::create(b, nloc, better, notBestNaN));
            tie = arith::OrIOp::create(
                b, nloc, tie, arith::AndIOp::create(b, nloc, xNaN, bestNaN));
          }
          Value earlier = arith::CmpIOp::create(
              b, nloc, arith::CmpIPredicate::slt, index, bestIndex);
          Value take = arith::OrIOp::create(
              b, nloc, better, arith::AndIOp::create(b, nloc, tie, earlier));
          linalg::YieldOp::create(
              b, nloc,
              ValueRange{
                  arith::SelectOp::create(b, nloc, take, x, best),
                  arith::SelectOp::create(b, nloc, take, index, bestIndex)});
        });
    Value result = generic.getResult(1);
    if (op.getKeepdims()) {
      RankedTensorType type = getTensorType(op.getType());
      SmallVector<OpFoldResult> expanded;
      auto next = keptSizes.begin();
      for (int64_t d = 0; d < rank; ++d)
        expanded.push_back(llvm::is_contained(axes, d)
                               ? OpFoldResult(rewriter.getIndexAttr(1))
                               : *next++);
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, type, result, getUnitDimReassociation(rank, axes),
          expanded);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Linear algebra and joining
//===----------------------------------------------------------------------===//

/// A loop along the axis carrying the running row: each step combines the
/// next row of the source with it (one elementwise op on a row) and
/// inserts it into the result.
struct CumulativeLowering : public OpConversionPattern<CumulativeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumulativeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    auto sourceType = cast<RankedTensorType>(source.getType());
    Type sourceElement = getElementType(op.getSource());
    Type element = op.getType().getElementType();
    Type storage = getStorageType(element);
    ReductionKind kind = op.getKind();
    int64_t rank = sourceType.getRank(), axis = op.getAxis();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);

    // The result, and the shape of a row (the source without the axis).
    SmallVector<OpFoldResult> sizes;
    SmallVector<int64_t> rowShape;
    SmallVector<OpFoldResult> rowSizes;
    for (int64_t d = 0; d < rank; ++d) {
      sizes.push_back(getSize(rewriter, loc, source, d));
      if (d != axis) {
        // (The size may be known where the type's is not: the slices of a
        // row take static sizes from it, and their type must agree.)
        rowShape.push_back(getConstantIntValue(sizes.back())
                               .value_or(sourceType.getDimSize(d)));
        rowSizes.push_back(sizes.back());
      }
    }
    Value length = toIndex(rewriter, loc, sizes[axis]);
    Value offset = op.getIncludeInitial() ? one : zero;
    SmallVector<OpFoldResult> resultSizes(sizes);
    resultSizes[axis] =
        arith::AddIOp::create(rewriter, loc, length, offset).getResult();
    Value result = createEmpty(rewriter, loc, op.getType().getShape(),
                               resultSizes, storage);
    // Statically empty rows: an empty result (slices at offset 0 of an
    // empty dimension would not verify).
    if (llvm::is_contained(rowShape, 0)) {
      rewriter.replaceOp(op, result);
      return success();
    }
    Value row = createEmpty(rewriter, loc, rowShape, rowSizes, storage);
    row = linalg::FillOp::create(
              rewriter, loc,
              buildReductionIdentity(rewriter, loc, kind, element), row)
              .getResult(0);

    // Row `index` of `tensor` (rank-reducing slices).
    auto rowSlice = [&](OpBuilder &b, Value index) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      SmallVector<OpFoldResult> rowSliceSizes(sizes);
      offsets[axis] = index;
      rowSliceSizes[axis] = b.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      return std::tuple(offsets, rowSliceSizes, strides);
    };
    if (op.getIncludeInitial()) {
      auto [offsets, rowSliceSizes, strides] = rowSlice(rewriter, zero);
      result = tensor::InsertSliceOp::create(rewriter, loc, row, result,
                                             offsets, rowSliceSizes, strides);
    }
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, length, one, ValueRange{result, row},
        [&](OpBuilder &b, Location nloc, Value index, ValueRange carried) {
          auto [offsets, rowSliceSizes, strides] = rowSlice(b, index);
          auto sourceRowType =
              RankedTensorType::get(rowShape, sourceType.getElementType());
          Value sourceRow = tensor::ExtractSliceOp::create(
              b, nloc, sourceRowType, source, offsets, rowSliceSizes, strides);
          Value next = buildElementwise(
              b, nloc, {sourceRow, carried[1]}, rowShape, storage,
              [&](OpBuilder &eb, Location eloc, ValueRange args) {
                return buildReductionStep(
                    eb, eloc, kind, args[1],
                    convertScalar(eb, eloc, args[0], sourceElement, element),
                    element);
              },
              rowSizes);
          offsets[axis] =
              arith::AddIOp::create(b, nloc, index, offset).getResult();
          Value updated = tensor::InsertSliceOp::create(
              b, nloc, next, carried[0], offsets, rowSliceSizes, strides);
          scf::YieldOp::create(b, nloc, ValueRange{updated, next});
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void imex::ndarray::lowering::populateIndexingLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<TakeLowering, PutLowering, SearchSortedLowering, FlipLowering,
               MaskedSelectLowering, ArgReduceLowering, CumulativeLowering>(
      converter, patterns.getContext());
}
