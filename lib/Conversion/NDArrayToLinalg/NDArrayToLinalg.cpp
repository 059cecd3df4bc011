//===- NDArrayToLinalg.cpp - ndarray to linalg conversion -----------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "LoweringUtils.h"
#include "ScalarOps.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"
#include "imex/Dialect/NDArray/Transforms/Passes.h"
#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallBitVector.h"

namespace imex {
#define GEN_PASS_DEF_CONVERTNDARRAYTOLINALG
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

imex::NDArrayToTensorTypeConverter::NDArrayToTensorTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](NDArrayType type) -> Type { return getTensorType(type); });
  auto cast = [](OpBuilder &b, Type type, ValueRange inputs,
                 Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(cast);
  addTargetMaterialization(cast);
}

//===----------------------------------------------------------------------===//
// Shapes and broadcasting
//===----------------------------------------------------------------------===//

static bool isStaticOne(OpFoldResult ofr) { return isConstantIntValue(ofr, 1); }

/// The numpy broadcast of the sizes of `tensors` (end-aligned) into a result
/// of shape `resultShape`; incompatible dynamic sizes abort at run time.
static SmallVector<OpFoldResult> broadcastSizes(OpBuilder &b, Location loc,
                                                ValueRange tensors,
                                                ArrayRef<int64_t> resultShape) {
  int64_t rank = resultShape.size();
  SmallVector<OpFoldResult> sizes;
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (!ShapedType::isDynamic(resultShape[dim])) {
      sizes.push_back(b.getIndexAttr(resultShape[dim]));
      continue;
    }
    OpFoldResult size;
    for (Value tensor : tensors) {
      int64_t tensorRank = cast<RankedTensorType>(tensor.getType()).getRank();
      int64_t k = dim - (rank - tensorRank);
      if (k < 0)
        continue;
      OpFoldResult operandSize = getSize(b, loc, tensor, k);
      if (isStaticOne(operandSize))
        continue;
      if (!size || isEqualConstantIntOrValue(size, operandSize)) {
        size = operandSize;
        continue;
      }
      Value a = toIndex(b, loc, size), c = toIndex(b, loc, operandSize);
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value aOne = cmpIndex(b, loc, arith::CmpIPredicate::eq, a, one);
      Value ok = arith::OrIOp::create(
          b, loc, cmpIndex(b, loc, arith::CmpIPredicate::eq, a, c),
          arith::OrIOp::create(
              b, loc, aOne,
              cmpIndex(b, loc, arith::CmpIPredicate::eq, c, one)));
      runtimeCheck(b, loc, ok, "operands could not be broadcast together");
      size = arith::SelectOp::create(b, loc, aOne, c, a).getResult();
    }
    sizes.push_back(size ? size : b.getIndexAttr(1));
  }
  return sizes;
}

/// Copies `tensor` with dimension `dim` (of size 1) repeated `size` times.
static Value repeatDim(OpBuilder &b, Location loc, Value tensor, int64_t dim,
                       Value size) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> sizes = getSizes(b, loc, tensor);
  sizes[dim] = size;
  Value init =
      createEmpty(b, loc, type.getShape(), sizes, type.getElementType());
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(d == dim ? b.getAffineConstantExpr(0)
                             : b.getAffineDimExpr(d));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, exprs, b.getContext()),
                                 b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, type, tensor, init, maps, iterators,
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc, args[0]);
             })
      .getResult(0);
}

/// Whether two sizes are provably equal: the same constant or value, or
/// `tensor.dim` of the same tensor and dimension.
static bool isSameSize(OpFoldResult a, OpFoldResult b) {
  if (isEqualConstantIntOrValue(a, b))
    return true;
  auto dimA = dyn_cast_if_present<tensor::DimOp>(
      dyn_cast<Value>(a) ? cast<Value>(a).getDefiningOp() : nullptr);
  auto dimB = dyn_cast_if_present<tensor::DimOp>(
      dyn_cast<Value>(b) ? cast<Value>(b).getDefiningOp() : nullptr);
  return dimA && dimB && dimA.getSource() == dimB.getSource() &&
         isEqualConstantIntOrValue(dimA.getIndex(), dimB.getIndex());
}

/// `tensor` prepared as an input of an elementwise op over `targetSizes`
/// (numpy broadcasting, end-aligned), with its indexing map. Static unit
/// dimensions broadcast through the map; a dynamic size that turns out to be
/// 1 while the target is not is repeated at run time.
static std::pair<Value, AffineMap>
broadcastInput(OpBuilder &b, Location loc, Value tensor,
               ArrayRef<OpFoldResult> targetSizes) {
  int64_t rank = targetSizes.size();
  int64_t tensorRank = cast<RankedTensorType>(tensor.getType()).getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t k = 0; k < tensorRank; ++k) {
    int64_t dim = k + rank - tensorRank;
    OpFoldResult size = getSize(b, loc, tensor, k);
    OpFoldResult target = targetSizes[dim];
    if (isStaticOne(size)) {
      exprs.push_back(isStaticOne(target) ? b.getAffineDimExpr(dim)
                                          : b.getAffineConstantExpr(0));
      continue;
    }
    exprs.push_back(b.getAffineDimExpr(dim));
    if (isSameSize(size, target))
      continue;
    Value s = toIndex(b, loc, size), t = toIndex(b, loc, target);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value sOne = cmpIndex(b, loc, arith::CmpIPredicate::eq, s, one);
    runtimeCheck(
        b, loc,
        arith::OrIOp::create(
            b, loc, cmpIndex(b, loc, arith::CmpIPredicate::eq, s, t), sOne),
        "operands could not be broadcast together");
    if (getConstantIntValue(size))
      continue; // A static size other than 1 must equal the target.
    Value repeat = arith::AndIOp::create(
        b, loc, sOne, cmpIndex(b, loc, arith::CmpIPredicate::ne, t, one));
    tensor =
        scf::IfOp::create(
            b, loc, repeat,
            [&](OpBuilder &tb, Location tloc) {
              scf::YieldOp::create(tb, tloc, repeatDim(tb, tloc, tensor, k, t));
            },
            [&](OpBuilder &eb, Location eloc) {
              scf::YieldOp::create(eb, eloc, tensor);
            })
            .getResult(0);
  }
  return {tensor, AffineMap::get(rank, 0, exprs, b.getContext())};
}

Value imex::ndarray::lowering::buildElementwise(
    OpBuilder &b, Location loc, ValueRange inputs,
    ArrayRef<int64_t> resultShape, Type elementType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> targetSizes(sizes);
  if (targetSizes.empty())
    targetSizes = broadcastSizes(b, loc, inputs, resultShape);
  SmallVector<Value> operands;
  SmallVector<AffineMap> maps;
  for (Value input : inputs) {
    auto [operand, map] = broadcastInput(b, loc, input, targetSizes);
    operands.push_back(operand);
    maps.push_back(map);
  }
  int64_t rank = resultShape.size();
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = createEmpty(b, loc, resultShape, targetSizes, elementType);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), operands, init, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(nb, nloc,
                                       body(nb, nloc, args.drop_back()));
             })
      .getResult(0);
}

namespace {

//===----------------------------------------------------------------------===//
// Creation and memory
//===----------------------------------------------------------------------===//

struct CreateLowering : public OpConversionPattern<CreateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CreateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getType());
    Value result = tensor::EmptyOp::create(
        rewriter, op.getLoc(), type.getShape(), type.getElementType(),
        adaptor.getDynamicSizes());
    if (Value value = adaptor.getValue()) {
      value = castToStorage(rewriter, op.getLoc(), value);
      result = linalg::FillOp::create(rewriter, op.getLoc(), value, result)
                   .getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LinSpaceLowering : public OpConversionPattern<LinSpaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LinSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type scalarType = op.getStart().getType();
    if (!getDTypeKind(scalarType))
      return rewriter.notifyMatchFailure(op, "unsupported scalar type");
    Type f64 = rewriter.getF64Type();
    auto toF64 = [&](Value v) {
      return convertScalar(rewriter, loc, v, scalarType, f64);
    };
    Value start = toF64(adaptor.getStart()), stop = toF64(adaptor.getStop());
    Value num = adaptor.getNum();
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value divisor = op.getEndpoint()
                        ? Value(arith::SubIOp::create(rewriter, loc, num, one))
                        : num;
    Value divisorF =
        convertScalar(rewriter, loc, divisor, rewriter.getIndexType(), f64);
    Value zeroF =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF64FloatAttr(0.0));
    Value delta = arith::SubFOp::create(rewriter, loc, stop, start);
    Value step = arith::SelectOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                              divisorF, zeroF),
        arith::DivFOp::create(rewriter, loc, delta, divisorF), zeroF);
    NDArrayType resultType = op.getType();
    Type element = resultType.getElementType();
    Value last = arith::SubIOp::create(rewriter, loc, num, one);
    Value result = buildElementwise(
        rewriter, loc, {}, resultType.getShape(), getStorageType(element),
        [&](OpBuilder &b, Location nloc, ValueRange) {
          Value i = linalg::IndexOp::create(b, nloc, 0);
          Value x = arith::AddFOp::create(
              b, nloc,
              arith::MulFOp::create(
                  b, nloc, convertScalar(b, nloc, i, b.getIndexType(), f64),
                  step),
              start);
          if (op.getEndpoint()) {
            // numpy sets the last element to `stop` exactly.
            Value isLast = arith::AndIOp::create(
                b, nloc,
                arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::eq, i,
                                      last),
                arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::sgt, num,
                                      one));
            x = arith::SelectOp::create(b, nloc, isLast, stop, x);
          }
          return convertScalar(b, nloc, x, f64, element);
        },
        {OpFoldResult(num)});
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// One loop over the positions: `j - i <= k`, as the element type.
struct TriLowering : public OpConversionPattern<TriOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TriOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    Type element = getStorageType(type.getElementType());
    Value k = adaptor.getK();
    SmallVector<OpFoldResult> sizes;
    auto dynamicSize = adaptor.getDynamicSizes().begin();
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? OpFoldResult(*dynamicSize++)
                          : OpFoldResult(rewriter.getIndexAttr(size)));
    Value result = buildElementwise(
        rewriter, op.getLoc(), {}, type.getShape(), element,
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value i = linalg::IndexOp::create(b, loc, 0);
          Value j = linalg::IndexOp::create(b, loc, 1);
          Value below =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle,
                                    arith::SubIOp::create(b, loc, j, i), k);
          return arith::SelectOp::create(
              b, loc, below,
              arith::ConstantOp::create(b, loc, b.getOneAttr(element)),
              arith::ConstantOp::create(b, loc, b.getZeroAttr(element)));
        },
        sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// After value semantics a copy is the value itself: bufferization copies
/// only where a later in-place update needs it.
struct CopyLowering : public OpConversionPattern<CopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value source = adaptor.getSource();
    Type type = getTensorType(op.getType());
    if (source.getType() != type)
      source = tensor::CastOp::create(rewriter, op.getLoc(), type, source);
    // Between host and device memory a copy is a transfer into a new
    // buffer (placed on the device by convert-region-to-gpu); elsewhere
    // value semantics make the copy itself unnecessary.
    auto sourceType = cast<NDArrayType>(op.getSource().getType());
    if (sourceType.getEnvironment<imex::region::GPUEnvAttr>() !=
        op.getType().getEnvironment<imex::region::GPUEnvAttr>())
      source = bufferization::AllocTensorOp::create(
          rewriter, op.getLoc(), cast<RankedTensorType>(type), ValueRange(),
          source);
    rewriter.replaceOp(op, source);
    return success();
  }
};

struct DeleteLowering : public OpConversionPattern<DeleteOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DeleteOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct FromMemRefLowering : public OpConversionPattern<FromMemRefOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FromMemRefOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = getTensorType(op.getType());
    Value memref = adaptor.getSource();
    auto memrefType = cast<BaseMemRefType>(memref.getType());
    if (memrefType.getElementType() != type.getElementType())
      return rewriter.notifyMatchFailure(op, "unsigned memref elements");
    if (!isa<MemRefType>(memrefType))
      memref = memref::CastOp::create(
          rewriter, op.getLoc(),
          MemRefType::get(type.getShape(), type.getElementType()), memref);
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, type, memref, /*restrict=*/true, /*writable=*/true);
    return success();
  }
};

struct ToTensorLowering : public OpConversionPattern<ToTensorOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ToTensorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (adaptor.getArray().getType() != op.getType())
      return rewriter.notifyMatchFailure(op, "unsigned elements");
    rewriter.replaceOp(op, adaptor.getArray());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Types, shapes, indexing
//===----------------------------------------------------------------------===//

struct CastLowering : public OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, getTensorType(op.getType()),
                                                adaptor.getSource());
    return success();
  }
};

struct CastElemTypeLowering : public OpConversionPattern<CastElemTypeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastElemTypeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    rewriter.replaceOp(
        op, convertAndBroadcast(
                rewriter, loc, source, getElementType(op.getSource()),
                op.getType().getElementType(), op.getType().getShape(),
                getSizes(rewriter, loc, source)));
    return success();
  }
};

struct DimLowering : public OpConversionPattern<DimOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<tensor::DimOp>(op, adaptor.getSource(),
                                               adaptor.getIndex());
    return success();
  }
};

struct LoadLowering : public OpConversionPattern<LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value element = tensor::ExtractOp::create(
        rewriter, op.getLoc(), adaptor.getArray(), adaptor.getIndices());
    rewriter.replaceOp(
        op, castFromStorage(rewriter, op.getLoc(), element, op.getType()));
    return success();
  }
};

struct ReshapeLowering : public OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = getTensorType(op.getType());
    SmallVector<Value> sizes;
    auto dynamicSizes = adaptor.getDynamicSizes().begin();
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? *dynamicSizes++
                          : arith::ConstantIndexOp::create(rewriter, loc, size)
                                .getResult());
    // Typed explicitly: a 0-d result has no sizes to infer it from.
    auto shapeType = RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                                           rewriter.getIndexType());
    Value shape =
        tensor::FromElementsOp::create(rewriter, loc, shapeType, sizes);
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, type,
                                                   adaptor.getSource(), shape);
    return success();
  }
};

struct BroadcastToLowering : public OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    SmallVector<OpFoldResult> sizes =
        getMixedValues(type.getShape(), adaptor.getDynamicSizes(), rewriter);
    Type element = type.getElementType();
    rewriter.replaceOp(
        op, convertAndBroadcast(rewriter, op.getLoc(), adaptor.getSource(),
                                element, element, type.getShape(), sizes));
    return success();
  }
};

struct PermuteDimsLowering : public OpConversionPattern<PermuteDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PermuteDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    SmallVector<OpFoldResult> sourceSizes = getSizes(rewriter, loc, source);
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : op.getPermutation())
      sizes.push_back(sourceSizes[p]);
    RankedTensorType type = getTensorType(op.getType());
    Value init = createEmpty(rewriter, loc, type.getShape(), sizes,
                             type.getElementType());
    rewriter.replaceOp(op, linalg::TransposeOp::create(
                               rewriter, loc, source, init, op.getPermutation())
                               .getResult());
    return success();
  }
};

struct ExpandDimsLowering : public OpConversionPattern<ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = getTensorType(op.getType());
    SmallVector<OpFoldResult> sourceSizes =
        getSizes(rewriter, loc, adaptor.getSource());
    SmallVector<OpFoldResult> sizes;
    auto next = sourceSizes.begin();
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      sizes.push_back(llvm::is_contained(op.getAxes(), dim)
                          ? OpFoldResult(rewriter.getIndexAttr(1))
                          : *next++);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, type, adaptor.getSource(),
        getUnitDimReassociation(type.getRank(), op.getAxes()), sizes);
    return success();
  }
};

struct SqueezeLowering : public OpConversionPattern<SqueezeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource();
    for (int64_t axis : op.getAxes()) {
      OpFoldResult size = getSize(rewriter, loc, source, axis);
      if (isStaticOne(size))
        continue;
      runtimeCheck(rewriter, loc,
                   cmpIndex(rewriter, loc, arith::CmpIPredicate::eq,
                            toIndex(rewriter, loc, size),
                            arith::ConstantIndexOp::create(rewriter, loc, 1)),
                   "cannot squeeze a dimension whose size is not 1");
    }
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, getTensorType(op.getType()), source,
        getUnitDimReassociation(getArrayType(op.getSource()).getRank(),
                                op.getAxes()));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

/// The element type both operands of `kind` are converted to.
static Type getEWBinOperandType(EWBinOpKind kind, Type lhs, Type rhs,
                                Type result) {
  switch (kind) {
  case EWBinOpKind::logical_and:
  case EWBinOpKind::logical_or:
  case EWBinOpKind::logical_xor:
    return IntegerType::get(lhs.getContext(), 1);
  case EWBinOpKind::divide:
  case EWBinOpKind::atan2:
  case EWBinOpKind::hypot:
  case EWBinOpKind::copysign:
  case EWBinOpKind::logaddexp:
    return result;
  default:
    return promoteTypes(lhs, rhs);
  }
}

/// Rejects operands whose shapes, as static as casts reveal, cannot be
/// broadcast together: canonicalizing the casts away would otherwise produce
/// invalid linalg ops.
static LogicalResult checkStaticBroadcast(Operation *op, ValueRange operands) {
  SmallVector<int64_t> shape;
  std::string reason;
  for (Value operand : operands) {
    while (auto cast = operand.getDefiningOp<CastOp>())
      operand = cast.getSource();
    SmallVector<int64_t> next;
    if (failed(broadcastShapes(shape, getArrayType(operand).getShape(), next,
                               reason)))
      return op->emitOpError("operands could not be broadcast together: ")
             << reason;
    shape = next;
  }
  return success();
}

struct EWBinLowering : public OpConversionPattern<EWBinOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EWBinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticBroadcast(op, op->getOperands())))
      return failure();
    Type lhsType = getElementType(op.getLhs());
    Type rhsType = getElementType(op.getRhs());
    Type resultType = op.getType().getElementType();
    Type operandType =
        getEWBinOperandType(op.getKind(), lhsType, rhsType, resultType);
    Value result = buildElementwise(
        rewriter, op.getLoc(), {adaptor.getLhs(), adaptor.getRhs()},
        op.getType().getShape(), getStorageType(resultType),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value lhs = convertScalar(b, loc, args[0], lhsType, operandType);
          Value rhs = convertScalar(b, loc, args[1], rhsType, operandType);
          return buildEWBin(b, loc, op.getKind(), lhs, rhs, operandType,
                            resultType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct EWUnyLowering : public OpConversionPattern<EWUnyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EWUnyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type sourceType = getElementType(op.getSource());
    Type resultType = op.getType().getElementType();
    Value result =
        buildElementwise(rewriter, op.getLoc(), adaptor.getSource(),
                         op.getType().getShape(), getStorageType(resultType),
                         [&](OpBuilder &b, Location loc, ValueRange args) {
                           return buildEWUny(b, loc, op.getKind(), args[0],
                                             sourceType, resultType);
                         });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WhereLowering : public OpConversionPattern<WhereOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhereOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkStaticBroadcast(op, op->getOperands())))
      return failure();
    Type xType = getElementType(op.getX()), yType = getElementType(op.getY());
    Type resultType = op.getType().getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(),
        {adaptor.getCondition(), adaptor.getX(), adaptor.getY()},
        op.getType().getShape(), getStorageType(resultType),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return arith::SelectOp::create(
              b, loc, args[0],
              convertScalar(b, loc, args[1], xType, resultType),
              convertScalar(b, loc, args[2], yType, resultType));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

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

    auto convertInput = [&](Type to) {
      return [=](OpBuilder &b, Location nloc, ValueRange args) {
        return convertScalar(b, nloc, args[0], sourceType, to);
      };
    };
    bool moment = kind == ReductionKind::mean || kind == ReductionKind::var ||
                  kind == ReductionKind::std;
    Value result = buildReduction(rewriter, loc, kind, source, axes, resultType,
                                  convertInput(resultType));
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
        Value squares = buildReduction(
            rewriter, loc, ReductionKind::sum, source, axes, resultType,
            [&](OpBuilder &b, Location nloc, ValueRange args) {
              Value x = convertScalar(b, nloc, args[0], sourceType, resultType);
              Value d = arith::SubFOp::create(b, nloc, x, args[1]);
              return arith::MulFOp::create(b, nloc, d, d);
            },
            result, meanMap);
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

struct ConcatLowering : public OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType resultType = op.getType();
    Type element = resultType.getElementType();
    int64_t axis = op.getAxis(), rank = resultType.getRank();
    SmallVector<Value> inputs;
    Value total = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> offsets;
    for (auto [input, converted] :
         llvm::zip_equal(op.getInputs(), adaptor.getInputs())) {
      SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, converted);
      inputs.push_back(convertAndBroadcast(
          rewriter, loc, converted, getElementType(input), element,
          cast<RankedTensorType>(converted.getType()).getShape(), sizes));
      offsets.push_back(total);
      total = arith::AddIOp::create(rewriter, loc, total,
                                    toIndex(rewriter, loc, sizes[axis]));
    }
    SmallVector<OpFoldResult> sizes = getSizes(rewriter, loc, inputs.front());
    sizes[axis] = total;
    Value result = createEmpty(rewriter, loc, resultType.getShape(), sizes,
                               getStorageType(element));
    for (auto [input, offset] : llvm::zip_equal(inputs, offsets)) {
      SmallVector<OpFoldResult> insertOffsets(rank, rewriter.getIndexAttr(0));
      insertOffsets[axis] = offset;
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result, insertOffsets,
          getSizes(rewriter, loc, input), strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Structural
//===----------------------------------------------------------------------===//

struct EnvRegionLowering
    : public OpConversionPattern<imex::region::EnvRegionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(imex::region::EnvRegionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op.getResultTypes(), types)))
      return failure();
    auto newOp = imex::region::EnvRegionOp::create(
        rewriter, op.getLoc(), op.getEnvironment(), adaptor.getArgs(), types);
    rewriter.eraseBlock(&newOp.getRegion().front());
    rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                                newOp.getRegion().end());
    rewriter.replaceOp(op, newOp.getResults());
    return success();
  }
};

struct EnvRegionYieldLowering
    : public OpConversionPattern<imex::region::EnvRegionYieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(imex::region::EnvRegionYieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.modifyOpInPlace(op,
                             [&] { op->setOperands(adaptor.getOperands()); });
    return success();
  }
};

} // namespace

void imex::populateNDArrayToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const DenseSet<Operation *> &inPlaceOverwrites) {
  populateSliceLoweringPatterns(converter, patterns, inPlaceOverwrites);
  patterns.add<CreateLowering, LinSpaceLowering, TriLowering, CopyLowering,
               DeleteLowering, FromMemRefLowering, ToTensorLowering,
               CastLowering, CastElemTypeLowering, DimLowering, LoadLowering,
               ReshapeLowering, BroadcastToLowering, PermuteDimsLowering,
               ExpandDimsLowering, SqueezeLowering, EWBinLowering,
               EWUnyLowering, WhereLowering, ReductionLowering, MatMulLowering,
               ConcatLowering, EnvRegionLowering, EnvRegionYieldLowering>(
      converter, patterns.getContext());
  populateIndexingLoweringPatterns(converter, patterns);
  populateRandomLoweringPatterns(converter, patterns);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {

static bool hasArrayTypes(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return isa<NDArrayType>(t); });
}

/// Whether the function writes into the buffer of argument `arg`: an
/// in-place update, or halos exchanged into its ghost cells (spare rows the
/// caller allocated for them, see dist.ghost; through casts).
static bool isWrittenArgument(Value arg) {
  return llvm::any_of(arg.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto write = dyn_cast<InsertSliceOp>(user))
      return write.getDestination() == arg;
    if (auto insert = dyn_cast<ImmutableInsertSliceOp>(user))
      return insert.getDestination() == arg &&
             insert->hasAttr(kGhostWriteAttrName);
    return isa<CastOp>(user) && isWrittenArgument(user->getResult(0));
  });
}

/// Array arguments become memrefs read through `to_tensor restrict`; array
/// results become tensors.
static void convertFunctionBoundary(func::FuncOp func) {
  FunctionType type = func.getFunctionType();
  SmallVector<Type> inputs, results;
  for (Type input : type.getInputs()) {
    auto array = dyn_cast<NDArrayType>(input);
    inputs.push_back(
        array ? Type(MemRefType::get(array.getShape(),
                                     getStorageType(array.getElementType())))
              : input);
  }
  for (Type result : type.getResults()) {
    auto array = dyn_cast<NDArrayType>(result);
    results.push_back(array ? Type(getTensorType(array)) : result);
  }
  if (!func.isExternal()) {
    Block &entry = func.getBody().front();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      auto array = dyn_cast<NDArrayType>(arg.getType());
      if (!array)
        continue;
      bool updated = isWrittenArgument(arg);
      arg.setType(inputs[arg.getArgNumber()]);
      auto tensor = bufferization::ToTensorOp::create(
          builder, func.getLoc(), getTensorType(array), arg,
          /*restrict=*/true, /*writable=*/updated);
      auto back = UnrealizedConversionCastOp::create(builder, func.getLoc(),
                                                     array, tensor.getResult());
      arg.replaceAllUsesExcept(back.getResult(0), tensor);
    }
  }
  func.setType(FunctionType::get(func.getContext(), inputs, results));
  // Arguments in a GPU environment are device buffers
  // (convert-region-to-gpu).
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (auto array = dyn_cast<NDArrayType>(input))
      if (auto env = array.getEnvironment<imex::region::GPUEnvAttr>())
        func.setArgAttr(i, imex::region::GPUEnvAttr::name, env);

  // Array arguments do not alias each other (they are read through
  // to_tensor restrict). Record where their pointers land in the LLVM
  // signature (memref descriptors are expanded to allocated and aligned
  // pointers, offset, sizes, strides) for `imex-llvm-noalias-args`, so that
  // loops over them vectorize without run-time alias checks.
  SmallVector<int64_t> noalias;
  int64_t position = 0;
  for (auto [input, original] : llvm::zip(inputs, type.getInputs())) {
    auto shaped = dyn_cast<ShapedType>(input);
    if (isa<NDArrayType>(original)) {
      noalias.push_back(position);
      noalias.push_back(position + 1);
    }
    if (shaped && shaped.hasRank())
      position += 3 + 2 * shaped.getRank();
    else
      position += shaped ? 2 : 1;
  }
  if (!noalias.empty())
    func->setAttr(kNoAliasArgsAttrName,
                  DenseI64ArrayAttr::get(func.getContext(), noalias));
}

/// Constant operands that no valid slice has (negative offsets or sizes,
/// strides below 1, among them ShapedType::kDynamic) are replaced by
/// harmless ones (0, 0, 1): such an op never runs with them (the checks of
/// ndarray-bounds-checks end the program first; without the checks it would
/// be undefined behavior), and upstream folders of tensor and memref slices
/// crash on some of them.
static void replaceImpossibleSliceConstants(ModuleOp module) {
  module.walk([](OffsetSizeAndStrideOpInterface op) {
    if (!isa<NDArrayDialect>(op->getDialect()))
      return;
    auto fix = [&](MutableArrayRef<OpOperand> operands, int64_t min,
                   int64_t harmless) {
      for (OpOperand &operand : operands) {
        APInt value;
        if (!matchPattern(operand.get(), m_ConstantInt(&value)) ||
            value.getSExtValue() >= min)
          continue;
        OpBuilder b(op);
        operand.set(arith::ConstantIndexOp::create(b, op.getLoc(), harmless));
      }
    };
    unsigned start = op.getOffsetSizeAndStrideStartOperandIndex();
    MutableArrayRef<OpOperand> operands = op->getOpOperands();
    size_t numOffsets = op.getOffsets().size(), numSizes = op.getSizes().size();
    fix(operands.slice(start, numOffsets), 0, 0);
    fix(operands.slice(start + numOffsets, numSizes), 0, 0);
    fix(operands.slice(start + numOffsets + numSizes, op.getStrides().size()),
        1, 1);
  });
}

struct ConvertNDArrayToLinalgPass
    : public imex::impl::ConvertNDArrayToLinalgBase<
          ConvertNDArrayToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Distribution is ndarray-dist's job; without it an array created on a
    // team is an ordinary array that every rank computes whole.
    module.walk([](Operation *op) {
      if (!op->hasAttr("dist.team"))
        return WalkResult::advance();
      op->emitWarning("'dist.team' is ignored: the array is computed whole "
                      "on every rank (run ndarray-dist first, e.g. with "
                      "imex-dist-cpu-pipeline)");
      return WalkResult::interrupt();
    });
    WalkResult calls = module.walk([](func::CallOp call) {
      if (!hasArrayTypes(call.getOperandTypes()))
        return WalkResult::advance();
      call.emitOpError("passes arrays to '")
          << call.getCallee()
          << "', which must be inlined first (e.g. with -inline) so that its "
             "in-place updates are seen by the caller";
      return WalkResult::interrupt();
    });
    if (calls.wasInterrupted())
      return signalPassFailure();
    for (auto func : module.getOps<FunctionOpInterface>())
      if (!func.isExternal() && failed(convertToValueSemantics(func)))
        return signalPassFailure();
    replaceImpossibleSliceConstants(module);
    // Decided before the function boundaries and the conversion add users.
    DenseSet<Operation *> overwrites = findInPlaceOverwrites(module);
    for (auto func : module.getOps<func::FuncOp>())
      convertFunctionBoundary(func);

    MLIRContext *context = &getContext();
    NDArrayToTensorTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<NDArrayDialect>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, complex::ComplexDialect, linalg::LinalgDialect,
        math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
        tensor::TensorDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    auto legalTypes = [&](Operation *op) {
      return converter.isLegal(op->getOperandTypes()) &&
             converter.isLegal(op->getResultTypes());
    };
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp,
                                 imex::region::EnvRegionOp,
                                 imex::region::EnvRegionYieldOp>(legalTypes);

    RewritePatternSet patterns(context);
    populateNDArrayToLinalgConversionPatterns(converter, patterns, overwrites);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    // Casts back to arrays introduced at function entries are dead now.
    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp cast) {
      if (hasArrayTypes(cast->getResultTypes()))
        casts.push_back(cast);
    });
    for (UnrealizedConversionCastOp cast : llvm::reverse(casts))
      if (cast->use_empty())
        cast->erase();
  }
};

} // namespace
