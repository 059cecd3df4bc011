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

namespace {

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

/// A choice between two arrays (canonicalization folds an `scf.if`
/// yielding one of two arrays into `arith.select`): the same choice between
/// their tensors.
struct SelectLowering : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type || type == op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, type, adaptor.getCondition(), adaptor.getTrueValue(),
        adaptor.getFalseValue());
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

/// The reassociation of `op` as an expansion of one dimension of its source
/// into several, at most one of them dynamic (the other dimensions equal,
/// statically or as sizes of the source: the split one's product then
/// equals it, as the element counts are equal), e.g. the tiles of a tiled
/// reduction, (n, 64k) -> (n, k, 64).
static std::optional<SmallVector<ReassociationIndices>>
getSingleDimExpansion(ReshapeOp op) {
  NDArrayType source = op.getSource().getType(), result = op.getType();
  int64_t r = source.getRank(), q = result.getRank();
  if (r == 0 || q <= r)
    return std::nullopt;
  SmallVector<Value> dynamic(op.getDynamicSizes());
  auto sameSize = [&](int64_t d, int64_t j) {
    if (!source.isDynamicDim(d) || !result.isDynamicDim(j))
      return source.getDimSize(d) == result.getDimSize(j);
    Value size = dynamic[result.getDynamicDimIndex(j)];
    if (auto dim = size.getDefiningOp<DimOp>())
      if (dim.getSource() == op.getSource() &&
          getConstantIntValue(dim.getIndex()) == d)
        return true;
    // (Or the size the source was made with: a view's, or that of the
    // destination of versions written into it.)
    Value array = op.getSource();
    while (Operation *def = array.getDefiningOp()) {
      if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def)) {
        array = insert.getDestination();
        continue;
      }
      if (auto view = dyn_cast<SubviewOp>(def))
        return view.getType().getRank() ==
                   view.getSource().getType().getRank() &&
               isEqualConstantIntOrValue(view.getMixedSizes()[d], size);
      break;
    }
    return false;
  };
  int64_t prefix = 0, suffix = 0;
  while (prefix < r && sameSize(prefix, prefix))
    ++prefix;
  while (suffix < r - prefix && sameSize(r - 1 - suffix, q - 1 - suffix))
    ++suffix;
  if (prefix + suffix != r - 1)
    return std::nullopt;
  // (A dynamic split dimension into sizes exactly one of which is dynamic,
  // as expand_shape has it; a static one into static sizes of its product.)
  int64_t dynamicSizes = 0, product = 1;
  for (int64_t j = prefix; j < q - suffix; ++j) {
    if (result.isDynamicDim(j))
      ++dynamicSizes;
    else
      product *= result.getDimSize(j);
  }
  if (source.isDynamicDim(prefix)
          ? dynamicSizes != 1
          : dynamicSizes != 0 || product != source.getDimSize(prefix))
    return std::nullopt;
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < prefix; ++d)
    groups.push_back({d});
  ReassociationIndices split;
  for (int64_t j = prefix; j < q - suffix; ++j)
    split.push_back(j);
  groups.push_back(split);
  for (int64_t j = q - suffix; j < q; ++j)
    groups.push_back({j});
  return groups;
}

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
    // (An expansion of one dimension is a view of any strided source; a
    // general reshape needs an identity layout, so bufferization copies a
    // view, e.g. the block of a distributed array without its ghost cells.)
    if (std::optional<SmallVector<ReassociationIndices>> groups =
            getSingleDimExpansion(op)) {
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, type, adaptor.getSource(), *groups, getAsOpFoldResult(sizes));
      return success();
    }
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
    // The squeezed dimensions are 1 (checked above): say so in the type,
    // since collapsing a dynamic dimension away is invalid on memrefs (a
    // squeeze to 0-d failed to bufferize).
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape(sourceType.getShape());
    for (int64_t axis : op.getAxes())
      shape[axis] = 1;
    if (shape != sourceType.getShape())
      source = tensor::CastOp::create(rewriter, loc, sourceType.clone(shape),
                                      source);
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
  case EWBinOpKind::nextafter:
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
    // (Empty pieces write nothing; tensor slices need offsets inside the
    // destination, which a dimension of size 0 has none of.)
    auto isEmpty = [](Value tensor) {
      return llvm::is_contained(
          cast<RankedTensorType>(tensor.getType()).getShape(), 0);
    };
    for (auto [input, offset] : llvm::zip_equal(inputs, offsets)) {
      if (isEmpty(input) || isEmpty(result))
        continue;
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
  populateCreationLoweringPatterns(converter, patterns);
  patterns.add<CastLowering, SelectLowering, CastElemTypeLowering, DimLowering,
               LoadLowering, ReshapeLowering, BroadcastToLowering,
               PermuteDimsLowering, ExpandDimsLowering, SqueezeLowering,
               EWBinLowering, EWUnyLowering, WhereLowering, ConcatLowering,
               EnvRegionLowering, EnvRegionYieldLowering>(
      converter, patterns.getContext());
  populateReductionLoweringPatterns(converter, patterns);
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
/// caller allocated for them, see dist.ghost; through casts and views: the
/// block of a distributed argument is a view of its buffer).
static bool isWrittenArgument(Value arg) {
  return llvm::any_of(arg.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto write = dyn_cast<InsertSliceOp>(user))
      return write.getDestination() == arg;
    if (auto insert = dyn_cast<ImmutableInsertSliceOp>(user))
      return insert.getDestination() == arg &&
             insert->hasAttr(kGhostWriteAttrName);
    return isa<CastOp, SubviewOp>(user) &&
           isWrittenArgument(user->getResult(0));
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

/// Whether `func` may write into one of its array arguments: an op with a
/// write effect on a value that is an argument or a view or cast of one.
static bool mayUpdateArrayArguments(FunctionOpInterface func) {
  if (func.isExternal())
    return true;
  auto isArgument = [&](Value value) {
    while (Operation *def = value.getDefiningOp()) {
      if (!isa<SubviewOp, CastOp>(def))
        return false;
      value = def->getOperand(0);
    }
    return cast<BlockArgument>(value).getOwner()->isEntryBlock() &&
           cast<BlockArgument>(value).getOwner()->getParentOp() == func;
  };
  WalkResult writes = func->walk([&](MemoryEffectOpInterface op) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    op.getEffects(effects);
    for (MemoryEffects::EffectInstance &effect : effects)
      if (isa<MemoryEffects::Write>(effect.getEffect()) && effect.getValue() &&
          isa<NDArrayType>(effect.getValue().getType()) &&
          isArgument(effect.getValue()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return writes.wasInterrupted();
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
    // (A callee that only reads its arrays needs no inlining.)
    SymbolTable symbols(module);
    WalkResult calls = module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<FunctionOpInterface>(call.getCallee());
      if (!hasArrayTypes(call.getOperandTypes()) ||
          (callee && !mayUpdateArrayArguments(callee)))
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
        tensor::TensorDialect, vector::VectorDialect>();
    target.addLegalOp<UnrealizedConversionCastOp>();
    auto legalTypes = [&](Operation *op) {
      return converter.isLegal(op->getOperandTypes()) &&
             converter.isLegal(op->getResultTypes());
    };
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp, arith::SelectOp,
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
    makeRankReductionsExplicit(module);
    // Casts back to arrays introduced at function entries are dead now.
    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp cast) {
      if (hasArrayTypes(cast->getResultTypes()))
        casts.push_back(cast);
    });
    for (UnrealizedConversionCastOp cast : llvm::reverse(casts))
      if (cast->use_empty())
        cast->erase();
    // Array arguments of calls (of callees that only read them) are passed
    // as the buffers the callees take; the C library functions the element
    // computations call (complex acos, ...) are declared.
    module.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (!callee) {
        OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
        auto declaration = func::FuncOp::create(
            b, module.getLoc(), call.getCallee(),
            b.getFunctionType(call.getOperandTypes(), call.getResultTypes()));
        declaration.setPrivate();
        symbols.insert(declaration);
        return;
      }
      OpBuilder b(call);
      for (auto [operand, input] : llvm::zip(
               call->getOpOperands(), callee.getFunctionType().getInputs()))
        if (isa<TensorType>(operand.get().getType()) && isa<MemRefType>(input))
          operand.set(bufferization::ToBufferOp::create(
              b, call.getLoc(), input, operand.get(), /*read_only=*/true));
    });
  }
};

} // namespace
