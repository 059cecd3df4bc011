//===- ReductionLowering.cpp - reductions and matmul to linalg ------------===//
//
// ndarray.reduction (sum, prod, min, max, ... over axes, keepdims) and
// ndarray.matmul (batched, broadcast batch dimensions) as linalg ops.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ScalarOps.h"
#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"
#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

namespace {

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Reduces `source` over `axes` into a tensor of the kept dimensions.
/// `element` maps an input element to the accumulator type `accType`.
static Value
buildReduction(OpBuilder &b, Location loc, ReductionKind kind, Value source,
               ArrayRef<int64_t> axes, Type accType,
               function_ref<Value(OpBuilder &, Location, ValueRange)> element,
               ValueRange extraInputs = {},
               ArrayRef<AffineMap> extraMaps = {}) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  int64_t rank = sourceType.getRank();
  SmallVector<OpFoldResult> sizes;
  SmallVector<int64_t> shape;
  SmallVector<AffineExpr> keptExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (llvm::is_contained(axes, dim)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    keptExprs.push_back(b.getAffineDimExpr(dim));
    shape.push_back(sourceType.getDimSize(dim));
    sizes.push_back(getSize(b, loc, source, dim));
  }
  Type storage = getStorageType(accType);
  Value init = createEmpty(b, loc, shape, sizes, storage);
  init = linalg::FillOp::create(
             b, loc, buildReductionIdentity(b, loc, kind, accType), init)
             .getResult(0);
  SmallVector<Value> inputs = {source};
  llvm::append_range(inputs, extraInputs);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  llvm::append_range(maps, extraMaps);
  maps.push_back(AffineMap::get(rank, 0, keptExprs, b.getContext()));
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, init, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value value = element(nb, nloc, args.drop_back());
               linalg::YieldOp::create(nb, nloc,
                                       buildReductionStep(nb, nloc, kind,
                                                          args.back(), value,
                                                          accType));
             })
      .getResult(0);
}

struct ReductionLowering : public OpConversionPattern<ReductionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReductionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    Type sourceType = getElementType(op.getSource());
    Type resultType = op.getType().getElementType();
    ReductionKind kind = op.getKind();
    SmallVector<int64_t> axes = op.getReducedAxes();
    auto tensorType = cast<RankedTensorType>(source.getType());

    // Number of reduced elements.
    Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
    for (int64_t axis : axes)
      count = arith::MulIOp::create(
          rewriter, loc, count,
          tensor::DimOp::create(rewriter, loc, source, axis));
    if (kind == ReductionKind::min || kind == ReductionKind::max)
      runtimeCheck(
          rewriter, loc,
          cmpIndex(rewriter, loc, arith::CmpIPredicate::ne, count,
                   arith::ConstantIndexOp::create(rewriter, loc, 0)),
          "zero-size array to reduction operation min/max, which has no "
          "identity");

    auto convertInput = [&](OpBuilder &b, Location nloc, ValueRange args) {
      return convertScalar(b, nloc, args[0], sourceType, resultType);
    };
    bool moment = kind == ReductionKind::mean || kind == ReductionKind::var ||
                  kind == ReductionKind::std;
    // Floating point sums and products along the pairwise tree (numpy's
    // accuracy, and the bits of distributed programs); on the GPU the
    // region lowering splits reductions itself.
    bool pairwise = kind != ReductionKind::min && kind != ReductionKind::max &&
                    kind != ReductionKind::any && kind != ReductionKind::all &&
                    isa<FloatType, ComplexType>(resultType) &&
                    !getArrayType(op.getSource())
                         .getEnvironment<imex::region::GPUEnvAttr>();
    auto finish = [&](OpBuilder &b, Location nloc, ReductionKind k,
                      Value partial, int64_t axis) {
      return buildReduction(
          b, nloc, k, partial, {axis}, resultType,
          [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    };
    auto reduce =
        [&](ReductionKind k,
            function_ref<Value(OpBuilder &, Location, ValueRange)> element,
            bool converts, ValueRange extras = {},
            ArrayRef<AffineMap> extraMaps = {}) {
          if (!pairwise)
            return buildReduction(rewriter, loc, k, source, axes, resultType,
                                  element, extras, extraMaps);
          return buildPairwiseReduction(
              rewriter, loc, k, source, axes, resultType,
              converts ? element : nullptr, extras, extraMaps, finish);
        };
    Value result = reduce(kind, convertInput, sourceType != resultType);
    if (moment) {
      Type storage = getStorageType(resultType);
      auto keptType = cast<RankedTensorType>(result.getType());
      Value countF = convertScalar(rewriter, loc, count,
                                   rewriter.getIndexType(), resultType);
      auto divideBy = [&](Value tensor, Value divisor) {
        return buildElementwise(
            rewriter, loc, tensor, keptType.getShape(), storage,
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              return buildEWBin(b, nloc, EWBinOpKind::divide, args[0], divisor,
                                resultType, resultType);
            });
      };
      result = divideBy(result, countF);
      if (kind != ReductionKind::mean) {
        // Second pass: sum of squared deviations from the mean.
        SmallVector<AffineExpr> keptExprs;
        for (int64_t dim = 0; dim < tensorType.getRank(); ++dim)
          if (!llvm::is_contained(axes, dim))
            keptExprs.push_back(rewriter.getAffineDimExpr(dim));
        AffineMap meanMap = AffineMap::get(tensorType.getRank(), 0, keptExprs,
                                           rewriter.getContext());
        Value squares = reduce(
            ReductionKind::sum,
            [&](OpBuilder &b, Location nloc, ValueRange args) -> Value {
              Value x = convertScalar(b, nloc, args[0], sourceType, resultType);
              Value d = arith::SubFOp::create(b, nloc, x, args[1]);
              return arith::MulFOp::create(b, nloc, d, d);
            },
            /*converts=*/true, result, meanMap);
        double correction =
            op.getCorrection() ? op.getCorrection()->convertToDouble() : 0.0;
        Value dof = arith::SubFOp::create(
            rewriter, loc, countF,
            arith::ConstantOp::create(
                rewriter, loc, rewriter.getFloatAttr(resultType, correction)));
        Value zeroF = arith::ConstantOp::create(
            rewriter, loc, rewriter.getFloatAttr(resultType, 0.0));
        dof = arith::MaximumFOp::create(rewriter, loc, dof, zeroF);
        result = divideBy(squares, dof);
        if (kind == ReductionKind::std)
          result = buildElementwise(
              rewriter, loc, result, keptType.getShape(), storage,
              [&](OpBuilder &b, Location nloc, ValueRange args) {
                return math::SqrtOp::create(b, nloc, args[0]);
              });
      }
    }
    if (op.getKeepdims()) {
      RankedTensorType type = getTensorType(op.getType());
      SmallVector<OpFoldResult> kept = getSizes(rewriter, loc, result);
      SmallVector<OpFoldResult> sizes;
      auto next = kept.begin();
      for (int64_t dim = 0; dim < type.getRank(); ++dim)
        sizes.push_back(llvm::is_contained(axes, dim)
                            ? OpFoldResult(rewriter.getIndexAttr(1))
                            : *next++);
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, type, result,
          getUnitDimReassociation(type.getRank(), axes), sizes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MatMulLowering : public OpConversionPattern<MatMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatMulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getLhs(), rhs = adaptor.getRhs();
    int64_t lhsRank = getArrayType(op.getLhs()).getRank();
    int64_t rhsRank = getArrayType(op.getRhs()).getRank();
    NDArrayType resultType = op.getType();
    int64_t batch = resultType.getRank() - (lhsRank > 1) - (rhsRank > 1);
    // Loops: batch dimensions, m (if lhs is a matrix), n (if rhs is a
    // matrix), then the contraction k.
    int64_t m = batch, n = m + (lhsRank > 1), k = n + (rhsRank > 1);
    int64_t numLoops = k + 1;
    int64_t lhsMatrixDims = std::min<int64_t>(lhsRank, 2);
    int64_t rhsMatrixDims = std::min<int64_t>(rhsRank, 2);

    // The batch sizes broadcast (numpy, end-aligned): a unit size gives way
    // to the other operand's, also when it is 1 only at run time.
    SmallVector<OpFoldResult> batchSizes;
    for (int64_t d = 0; d < batch; ++d) {
      int64_t size = resultType.getDimSize(d);
      if (!ShapedType::isDynamic(size)) {
        batchSizes.push_back(rewriter.getIndexAttr(size));
        continue;
      }
      SmallVector<OpFoldResult> candidates;
      for (auto [tensor, rank, matrixDims] :
           {std::tuple(lhs, lhsRank, lhsMatrixDims),
            std::tuple(rhs, rhsRank, rhsMatrixDims)}) {
        int64_t dim = d - (batch - (rank - matrixDims));
        if (dim < 0)
          continue;
        OpFoldResult operandSize = getSize(rewriter, loc, tensor, dim);
        if (!isStaticOne(operandSize))
          candidates.push_back(operandSize);
      }
      if (candidates.empty()) {
        batchSizes.push_back(rewriter.getIndexAttr(1));
      } else if (candidates.size() == 1 ||
                 isSameSize(candidates[0], candidates[1]) ||
                 getConstantIntValue(candidates[0])) {
        batchSizes.push_back(candidates[0]);
      } else if (getConstantIntValue(candidates[1])) {
        batchSizes.push_back(candidates[1]);
      } else {
        Value l = toIndex(rewriter, loc, candidates[0]);
        Value r = toIndex(rewriter, loc, candidates[1]);
        Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
        batchSizes.push_back(
            arith::SelectOp::create(
                rewriter, loc,
                cmpIndex(rewriter, loc, arith::CmpIPredicate::eq, l, one), r, l)
                .getResult());
      }
    }
    // Operands whose batch sizes are 1 only at run time are repeated (and
    // incompatible sizes abort), as for elementwise ops.
    auto broadcastBatch = [&](Value tensor, int64_t rank, int64_t matrixDims) {
      SmallVector<OpFoldResult> target(batchSizes.end() - (rank - matrixDims),
                                       batchSizes.end());
      for (int64_t d = rank - matrixDims; d < rank; ++d)
        target.push_back(getSize(rewriter, loc, tensor, d));
      return broadcastInput(rewriter, loc, tensor, target).first;
    };
    lhs = broadcastBatch(lhs, lhsRank, lhsMatrixDims);
    rhs = broadcastBatch(rhs, rhsRank, rhsMatrixDims);
    auto dim = [&](int64_t d) { return rewriter.getAffineDimExpr(d); };
    auto batchExprs = [&](Value tensor, int64_t rank, int64_t matrixDims) {
      SmallVector<AffineExpr> exprs;
      int64_t tensorBatch = rank - matrixDims;
      for (int64_t d = 0; d < tensorBatch; ++d) {
        int64_t loop = d + batch - tensorBatch;
        exprs.push_back(
            isStaticOne(getSize(rewriter, loc, tensor, d)) &&
                    !isStaticOne(getAsIndexOpFoldResult(
                        rewriter.getContext(), resultType.getDimSize(loop)))
                ? rewriter.getAffineConstantExpr(0)
                : dim(loop));
      }
      return exprs;
    };
    SmallVector<AffineExpr> lhsExprs = batchExprs(lhs, lhsRank, lhsMatrixDims);
    if (lhsRank > 1)
      lhsExprs.push_back(dim(m));
    lhsExprs.push_back(dim(k));
    SmallVector<AffineExpr> rhsExprs = batchExprs(rhs, rhsRank, rhsMatrixDims);
    rhsExprs.push_back(dim(k));
    if (rhsRank > 1)
      rhsExprs.push_back(dim(n));
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < k; ++d)
      outExprs.push_back(dim(d));

    // Result sizes: batch sizes broadcast, then m and n.
    SmallVector<OpFoldResult> sizes(batchSizes);
    if (lhsRank > 1)
      sizes.push_back(getSize(rewriter, loc, lhs, lhsRank - 2));
    if (rhsRank > 1)
      sizes.push_back(getSize(rewriter, loc, rhs, rhsRank - 1));

    Type element = resultType.getElementType();
    Type lhsType = getElementType(op.getLhs());
    Type rhsType = getElementType(op.getRhs());
    Value init = createEmpty(rewriter, loc, resultType.getShape(), sizes,
                             getStorageType(element));
    init =
        linalg::FillOp::create(
            rewriter, loc,
            buildReductionIdentity(rewriter, loc, ReductionKind::sum, element),
            init)
            .getResult(0);
    SmallVector<AffineMap> maps = {
        AffineMap::get(numLoops, 0, lhsExprs, rewriter.getContext()),
        AffineMap::get(numLoops, 0, rhsExprs, rewriter.getContext()),
        AffineMap::get(numLoops, 0, outExprs, rewriter.getContext())};
    SmallVector<utils::IteratorType> iterators(numLoops,
                                               utils::IteratorType::parallel);
    iterators.back() = utils::IteratorType::reduction;
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, init.getType(), ValueRange{lhs, rhs}, init, maps,
            iterators,
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value a = convertScalar(b, nloc, args[0], lhsType, element);
              Value c = convertScalar(b, nloc, args[1], rhsType, element);
              Value product = isBoolType(element)
                                  ? Value(arith::AndIOp::create(b, nloc, a, c))
                                  : buildEWBin(b, nloc, EWBinOpKind::multiply,
                                               a, c, element, element);
              Value sum =
                  isBoolType(element)
                      ? Value(arith::OrIOp::create(b, nloc, args[2], product))
                      : buildEWBin(b, nloc, EWBinOpKind::add, args[2], product,
                                   element, element);
              linalg::YieldOp::create(b, nloc, sum);
            })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void imex::ndarray::lowering::populateReductionLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReductionLowering, MatMulLowering>(converter,
                                                  patterns.getContext());
}
