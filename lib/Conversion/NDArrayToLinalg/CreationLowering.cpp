//===- CreationLowering.cpp - array creation to linalg --------------------===//
//
// create, linspace, tri, copy, delete, from_memref, to_tensor.
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

} // namespace

void imex::ndarray::lowering::populateCreationLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<CreateLowering, LinSpaceLowering, TriLowering, CopyLowering,
               DeleteLowering, FromMemRefLowering, ToTensorLowering>(
      converter, patterns.getContext());
}
