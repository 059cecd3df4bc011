//===- GridMovesToStandard.cpp - ops moving elements of grid arrays -------===//
//
// Ops on arrays in a distribution other than the default one (GridArray)
// whose elements change owner: each rank states which elements of the
// result its block needs, at their global positions in an array the ranks'
// blocks tile (the source, or its permuted, mirrored or strided image, a
// box of it dropping axes, or the panels of a matrix product), and
// one `distruntime.repartition` moves each element at most once, point to
// point between the ranks whose boxes intersect.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

#include <vector>

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

/// The values of the array of type `type` (distributed as `env`) whose
/// elements are those of `source` (a block of each rank, in any
/// distribution): this rank's block received from their owners
/// (`distruntime.repartition`: point to point between the ranks whose blocks
/// intersect; each element moves at most once).
SmallVector<Value> redistribute(OpBuilder &b, Location loc,
                                const GridArray &source, NDArrayType type) {
  auto env = dist::getDistEnv(type);
  auto [offsets, sizes] = dist::createBlock(b, loc, env, source.shape);
  Value block = fetchBox(b, loc, env.getTeam(), source, offsets, sizes,
                         dist::getLocalType(type));
  return packBlock(b, loc, block, offsets, source.shape, type, sizes);
}

/// Moves the elements of this rank's block in the target distribution from
/// their owners.
struct RedistributeLowering : public GridPattern<dist::RedistributeOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(dist::RedistributeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    GridArray source = getOwnedBlock(
        rewriter, op.getLoc(), op.getSource().getType(), adaptor.getSource());
    rewriter.replaceOpWithMultiple(
        op, {redistribute(rewriter, op.getLoc(), source, op.getType())});
    return success();
  }
};

/// permute_dims: each rank's block permuted where it is, then its elements
/// moved to their owners in the result (distributed like the source), so
/// each element moves at most once.
struct GridPermuteDimsLowering : public GridPattern<PermuteDimsOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(PermuteDimsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getType()))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    GridArray source = GridArray::unpack(adaptor.getSource());
    Value block = source.block(b, loc);
    auto blockType = cast<NDArrayType>(block.getType());
    ArrayRef<int64_t> permutation = op.getPermutation();
    SmallVector<int64_t> shape;
    SmallVector<Value> offsets, globalShape;
    for (int64_t d : permutation) {
      shape.push_back(blockType.getDimSize(d));
      offsets.push_back(source.offsets[d]);
      globalShape.push_back(source.shape[d]);
    }
    Value permuted = PermuteDimsOp::create(
        b, loc, blockType.cloneWith(shape, blockType.getElementType()), block,
        permutation);
    rewriter.replaceOpWithMultiple(
        op, {redistribute(
                b, loc,
                GridArray::fromBlock(b, loc, permuted, offsets, globalShape),
                op.getType())});
    return success();
  }
};

/// A view with strides (keeping the rank): each rank takes the elements of
/// the view its block holds (a strided view of the block, at their
/// position in the view), and this rank's block of the view (its
/// distribution's partition of the view's shape) is fetched from them (one
/// repartition: each element moves at most once).
template <typename OpTy>
struct GridStridedSliceLowering : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type) || dist::isBoxSlice(op) ||
        op.getSource().getType().getRank() != type.getRank())
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray source = GridArray::unpack(adaptor.getSource());
    SliceValues slice = getSliceValues(b, loc, op);
    ArrayRef<Value> starts = slice.offsets, viewShape = slice.sizes,
                    steps = slice.strides;
    // The view's elements in this rank's block: view indices [j0, j1),
    // source indices start + j * step.
    SmallVector<Value> heldOffsets, heldSizes, first;
    for (size_t d = 0; d < starts.size(); ++d) {
      Value start = starts[d];
      auto viewIndex = [&](Value sourceIndex) {
        return m.clamp(m.ceilDiv(m.sub(sourceIndex, start), steps[d]), m.c(0),
                       viewShape[d]);
      };
      Value j0 = viewIndex(source.offsets[d]);
      Value j1 = viewIndex(m.add(source.offsets[d], source.sizes[d]));
      Value count = m.max(m.sub(j1, j0), m.c(0));
      heldOffsets.push_back(j0);
      heldSizes.push_back(count);
      first.push_back(m.select(
          m.gt(count, m.c(0)),
          m.sub(m.add(start, m.mul(j0, steps[d])), source.offsets[d]), m.c(0)));
    }
    NDArrayType localType = dist::getLocalType(type);
    Value held = SubviewOp::create(
        b, loc,
        localType.cloneWith(getStaticShape(heldSizes), type.getElementType()),
        source.block(b, loc), getAsOpFoldResult(first),
        getAsOpFoldResult(heldSizes), getAsOpFoldResult(steps));
    auto env = dist::getDistEnv(type);
    auto [offsets, sizes] = dist::createBlock(b, loc, env, viewShape);
    Value block = fetchBox(
        b, loc, env.getTeam(),
        GridArray::fromBlock(b, loc, held, heldOffsets, viewShape, heldSizes),
        offsets, sizes, localType);
    rewriter.replaceOpWithMultiple(
        op, {GridArray::fromBlock(b, loc, block, offsets, viewShape).pack()});
    return success();
  }
};

/// A view of a box dropping axes (integer indices, `a[i, :]`): this rank's
/// block of the result (split like the source on the axes it keeps; the
/// whole view where a split axis is dropped and the result is replicated)
/// is fetched from the owners of its elements (one repartition), then the
/// dropped unit dimensions are dropped locally.
template <typename OpTy>
struct GridDroppingSliceLowering : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    std::optional<SmallVector<int64_t>> dropped = dist::getDroppedAxesOfBox(op);
    if (!isGridArray(op.getSource().getType()) || !dropped)
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray source = GridArray::unpack(adaptor.getSource());
    auto [starts, viewSizes, unitStrides] = getSliceValues(b, loc, op);
    SmallVector<Value> shape;
    for (auto [d, size] : llvm::enumerate(viewSizes))
      if (!llvm::is_contained(*dropped, int64_t(d)))
        shape.push_back(size);
    auto env = dist::getDistEnv(type);
    SmallVector<Value> offsets(shape.size(), m.c(0)), sizes(shape);
    if (env)
      std::tie(offsets, sizes) = dist::createBlock(b, loc, env, shape);
    // The box of the source holding the block: the dropped axes at their
    // index, the kept ones at the block's position in the view.
    SmallVector<Value> boxOffsets, boxSizes;
    for (size_t d = 0, k = 0; d < starts.size(); ++d) {
      if (llvm::is_contained(*dropped, int64_t(d))) {
        boxOffsets.push_back(starts[d]);
        boxSizes.push_back(m.c(1));
        continue;
      }
      boxOffsets.push_back(m.add(starts[d], offsets[k]));
      boxSizes.push_back(sizes[k++]);
    }
    NDArrayType sourceType = dist::getLocalType(op.getSource().getType());
    Value box = fetchBox(
        b, loc, dist::getDistEnv(op.getSource().getType()).getTeam(), source,
        boxOffsets, boxSizes,
        sourceType.cloneWith(getStaticShape(boxSizes), type.getElementType()));
    SmallVector<OpFoldResult> zeros(boxSizes.size(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(boxSizes.size(), b.getIndexAttr(1));
    SmallVector<OpFoldResult> boxShape = getAsOpFoldResult(boxSizes);
    for (int64_t d : *dropped)
      boxShape[d] = b.getIndexAttr(1);
    Value block = SubviewOp::create(
        b, loc,
        sourceType.cloneWith(getStaticShape(sizes), type.getElementType()), box,
        zeros, boxShape, ones);
    block = castTo(b, loc, block, env ? dist::getLocalType(type) : type);
    if (!env) {
      rewriter.replaceOp(op, block);
      return success();
    }
    rewriter.replaceOpWithMultiple(
        op, {packBlock(b, loc, block, offsets, shape, type)});
    return success();
  }
};

/// A matrix product distributed like its first operand: this rank's block
/// of the result (rows I, columns J) is A[I, :] @ B[:, J], both panels
/// fetched from the blocks holding them (one repartition each; a view of a
/// replicated B): on a p x q grid each rank receives m/p x k of A and
/// k x n/q of B, instead of all of B as for rows.
struct GridMatMulLowering : public GridPattern<MatMulOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(MatMulOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridMatMul(op))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    auto env = dist::getDistEnv(type);
    GridArray lhs = GridArray::unpack(adaptor.getLhs());
    bool distributedRhs = isGridArray(op.getRhs().getType());
    Value inner = lhs.shape[1];
    Value columns =
        distributedRhs ? GridArray::unpack(adaptor.getRhs()).shape[1]
                       : dist::getDimValue(b, loc, adaptor.getRhs().front(), 1);
    SmallVector<Value> shape{lhs.shape[0], columns};
    auto [offsets, sizes] = dist::createBlock(b, loc, env, shape);
    auto panelType = [&](Value rows, Value cols, Type element) {
      return NDArrayType::get(getStaticShape({rows, cols}), element);
    };
    Value a = fetchBox(
        b, loc, env.getTeam(), lhs, {offsets[0], m.c(0)}, {sizes[0], inner},
        panelType(sizes[0], inner, op.getLhs().getType().getElementType()));
    Type rhsElement = op.getRhs().getType().getElementType();
    Value panel;
    if (distributedRhs) {
      panel =
          fetchBox(b, loc, env.getTeam(), GridArray::unpack(adaptor.getRhs()),
                   {m.c(0), offsets[1]}, {inner, sizes[1]},
                   panelType(inner, sizes[1], rhsElement));
    } else {
      SmallVector<OpFoldResult> ones(2, b.getIndexAttr(1));
      panel = SubviewOp::create(
          b, loc, panelType(inner, sizes[1], rhsElement),
          adaptor.getRhs().front(),
          getAsOpFoldResult(ValueRange{m.c(0), offsets[1]}),
          getAsOpFoldResult(ValueRange{inner, sizes[1]}), ones);
    }
    Value block = MatMulOp::create(
        b, loc, panelType(sizes[0], sizes[1], type.getElementType()), a, panel);
    block = castTo(b, loc, block, dist::getLocalType(type));
    rewriter.replaceOpWithMultiple(
        op, {GridArray::fromBlock(b, loc, block, offsets, shape).pack()});
    return success();
  }
};

/// flip: this rank's block of the result (distributed like the source) is
/// the mirrored box of the source along the flipped axes, fetched from its
/// owners (one repartition) and flipped locally.
struct GridFlipLowering : public GridPattern<FlipOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(FlipOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray source = GridArray::unpack(adaptor.getSource());
    SmallVector<Value> mirrored(source.offsets);
    for (int64_t d : op.getAxes())
      mirrored[d] =
          m.sub(m.sub(source.shape[d], source.offsets[d]), source.sizes[d]);
    NDArrayType localType = dist::getLocalType(type);
    Value box = fetchBox(b, loc, dist::getDistEnv(type).getTeam(), source,
                         mirrored, source.sizes, localType);
    Value block = FlipOp::create(b, loc, localType, box, op.getAxes());
    rewriter.replaceOpWithMultiple(
        op, {GridArray::fromBlock(b, loc, block, source.offsets, source.shape,
                                  source.sizes)
                 .pack()});
    return success();
  }
};

/// concat (the result in another distribution than rows): this rank's block
/// of the result is made of the parts of it each operand holds, each
/// fetched from that operand's blocks (one repartition per distributed
/// operand, in any distribution: each element moves at most once; a view of
/// a replicated one) and concatenated locally.
struct GridConcatLowering : public GridPattern<ConcatOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    auto env = dist::getDistEnv(type);
    int64_t axis = op.getAxis();
    // The operands' blocks (a replicated operand: all of it, at 0).
    std::vector<GridArray> blocks;
    for (auto [operand, values] :
         llvm::zip(op.getOperands(), adaptor.getOperands())) {
      auto operandType = cast<NDArrayType>(operand.getType());
      if (dist::getDistEnv(operandType)) {
        blocks.push_back(getOwnedBlock(b, loc, operandType, values));
        continue;
      }
      SmallVector<Value> zeros, dims;
      for (int64_t d = 0; d < operandType.getRank(); ++d) {
        zeros.push_back(m.c(0));
        dims.push_back(dist::getDimValue(b, loc, values.front(), d));
      }
      blocks.push_back(
          GridArray::fromBlock(b, loc, values.front(), zeros, dims, dims));
    }
    SmallVector<Value> shape(blocks.front().shape);
    for (const GridArray &operand : ArrayRef(blocks).drop_front())
      shape[axis] = m.add(shape[axis], operand.shape[axis]);
    auto [offsets, sizes] = dist::createBlock(b, loc, env, shape);
    NDArrayType localType = dist::getLocalType(type);
    SmallVector<int64_t> pieceShape(localType.getShape());
    pieceShape[axis] = ShapedType::kDynamic;
    NDArrayType pieceType =
        localType.cloneWith(pieceShape, type.getElementType());
    SmallVector<Value> pieces;
    Value start = m.c(0);
    for (auto [operand, block] : llvm::zip(op.getOperands(), blocks)) {
      Value size = block.shape[axis];
      Value lo = m.clamp(m.sub(offsets[axis], start), m.c(0), size);
      Value hi = m.clamp(m.sub(m.add(offsets[axis], sizes[axis]), start),
                         m.c(0), size);
      SmallVector<Value> boxOffsets(offsets), boxSizes(sizes);
      boxOffsets[axis] = lo;
      boxSizes[axis] = m.sub(hi, lo);
      if (dist::getDistEnv(operand.getType())) {
        pieces.push_back(fetchBox(b, loc, env.getTeam(), block, boxOffsets,
                                  boxSizes, pieceType));
      } else {
        GridArray view{block.buffer, boxOffsets, boxSizes, boxOffsets, shape};
        pieces.push_back(castTo(b, loc, view.block(b, loc), pieceType));
      }
      start = m.add(start, size);
    }
    Value block = ConcatOp::create(b, loc, localType, pieces, axis);
    rewriter.replaceOpWithMultiple(
        op, {packBlock(b, loc, block, offsets, shape, type)});
    return success();
  }
};

/// load: every rank receives the element from its owner (one repartition
/// of the 1x..x1 box at the indices).
struct GridLoadLowering : public GridPattern<LoadOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getArray().getType();
    if (!isGridArray(type))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray array = GridArray::unpack(adaptor.getArray());
    SmallVector<Value> indices, ones, zeros;
    for (ValueRange index : adaptor.getIndices()) {
      indices.push_back(index.front());
      ones.push_back(m.c(1));
      zeros.push_back(m.c(0));
    }
    SmallVector<int64_t> shape(type.getRank(), 1);
    Value element = fetchBox(
        b, loc, dist::getDistEnv(type).getTeam(), array, indices, ones,
        dist::getLocalType(type).cloneWith(shape, type.getElementType()));
    rewriter.replaceOp(op, LoadOp::create(b, loc, element, zeros));
    return success();
  }
};

} // namespace

bool imex::dist::detail::isGridMatMul(Operation *op) {
  auto matmul = dyn_cast<MatMulOp>(op);
  if (!matmul)
    return false;
  NDArrayType lhs = matmul.getLhs().getType(), rhs = matmul.getRhs().getType();
  return isGridArray(matmul.getType()) && isGridArray(lhs) &&
         lhs.getRank() == 2 && rhs.getRank() == 2 &&
         (!dist::getDistEnv(rhs) || isGridArray(rhs));
}

void imex::dist::detail::populateGridMovesToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RedistributeLowering, GridPermuteDimsLowering,
               GridStridedSliceLowering<SubviewOp>,
               GridStridedSliceLowering<ExtractSliceOp>,
               GridDroppingSliceLowering<SubviewOp>,
               GridDroppingSliceLowering<ExtractSliceOp>, GridMatMulLowering,
               GridFlipLowering, GridConcatLowering, GridLoadLowering>(
      converter, context);
}
