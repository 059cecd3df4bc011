//===- Broadcasting.cpp - numpy broadcasting in linalg --------------------===//
//
// Elementwise linalg.generic ops over inputs broadcast as numpy does
// (end-aligned; static unit dimensions through the indexing maps, dynamic
// sizes of 1 repeated at run time), shared by the conversion patterns.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ScalarOps.h"
#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

//===----------------------------------------------------------------------===//
// Shapes and broadcasting
//===----------------------------------------------------------------------===//

bool imex::ndarray::lowering::isStaticOne(OpFoldResult ofr) {
  return isConstantIntValue(ofr, 1);
}

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
      // (a == 1 ? c : a), which given the check is 0 if either is 0, else
      // max(a, c): no select of sizes (chains of those, each broadcast's size
      // feeding the next, make bufferization's value-bounds analysis
      // exponential in their depth), yet it folds to `a` when both are `a`.
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value empty = arith::OrIOp::create(
          b, loc, cmpIndex(b, loc, arith::CmpIPredicate::eq, a, zero),
          cmpIndex(b, loc, arith::CmpIPredicate::eq, c, zero));
      size = arith::SelectOp::create(b, loc, empty, zero,
                                     arith::MaxSIOp::create(b, loc, a, c))
                 .getResult();
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
bool imex::ndarray::lowering::isSameSize(OpFoldResult a, OpFoldResult b) {
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
std::pair<Value, AffineMap>
imex::ndarray::lowering::broadcastInput(OpBuilder &b, Location loc,
                                        Value tensor,
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
