//===- GridArrayToStandard.cpp - arrays split on any axes -----------------===//
//
// Arrays in a distribution other than the default one (split on other axes
// or over a grid of ranks) become their GridArray: a buffer with this rank's
// block and ghost cells around it, and the block's global position. Ops
// computing on blocks of any distribution (elementwise ops, copies, casts,
// `ndarray.dim`, views and inserts of boxes) become the same op on the
// blocks; redistributions, permutations, flips, strided views,
// concatenations and loads move elements between ranks
// (GridMovesToStandard.cpp), reductions combine over the team
// (ReductionsToStandard.cpp); ndarray-dist redistributed the operands of
// every other op to rows (the default distribution).
//
// A stencil update (GridGhosts.cpp) is computed in the part of the slice
// each rank owns: the halos of the arrays it reads are exchanged into their
// ghost cells in place, and its views are views of their buffers.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

bool imex::dist::detail::isGridArray(Type type) {
  auto env = dist::getDistEnv(type);
  return env && !env.isDefaultDistribution();
}

GridArray GridArray::unpack(ValueRange values) {
  assert(values.size() % 4 == 1 && "not a grid array");
  size_t rank = values.size() / 4;
  auto part = [&](size_t i) {
    return SmallVector<Value>(values.slice(1 + i * rank, rank));
  };
  return {values.front(), part(0), part(1), part(2), part(3)};
}

SmallVector<Value> GridArray::pack() const {
  SmallVector<Value> values{buffer};
  for (ArrayRef<Value> part : {first, sizes, offsets, shape})
    llvm::append_range(values, part);
  return values;
}

SmallVector<int64_t> imex::dist::detail::getStaticShape(ValueRange sizes) {
  return llvm::map_to_vector(sizes, [](Value size) {
    std::optional<int64_t> value = getConstantIntValue(size);
    return value ? *value : ShapedType::kDynamic;
  });
}

Value GridArray::block(OpBuilder &b, Location loc) const {
  auto type = cast<NDArrayType>(buffer.getType());
  SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
  return SubviewOp::create(
      b, loc, type.cloneWith(getStaticShape(sizes), type.getElementType()),
      buffer, getAsOpFoldResult(first), getAsOpFoldResult(sizes), ones);
}

GridArray GridArray::fromBlock(OpBuilder &b, Location loc, Value block,
                               ValueRange offsets, ValueRange shape,
                               ValueRange sizes) {
  IndexMath m{b, loc};
  auto type = cast<NDArrayType>(block.getType());
  GridArray array{block,
                  {},
                  SmallVector<Value>(sizes),
                  SmallVector<Value>(offsets),
                  SmallVector<Value>(shape)};
  for (int64_t d = 0; d < type.getRank(); ++d) {
    array.first.push_back(m.c(0));
    if (sizes.empty())
      array.sizes.push_back(dist::getDimValue(b, loc, block, d));
  }
  return array;
}

SmallVector<Value>
imex::dist::detail::packBlock(OpBuilder &b, Location loc, Value block,
                              ValueRange offsets, ValueRange shape,
                              NDArrayType type, ValueRange sizes) {
  if (isGridArray(type))
    return GridArray::fromBlock(b, loc, block, offsets, shape, sizes).pack();
  LocalArray rows = LocalArray::fromOwned(b, loc, block, offsets[0], shape[0]);
  rows.buffer = castTo(b, loc, rows.buffer, getBufferType(type));
  return rows.pack();
}

SliceValues
imex::dist::detail::getSliceValues(OpBuilder &b, Location loc,
                                   OffsetSizeAndStrideOpInterface slice) {
  return {getValueOrCreateConstantIndexOp(b, loc, slice.getMixedOffsets()),
          getValueOrCreateConstantIndexOp(b, loc, slice.getMixedSizes()),
          getValueOrCreateConstantIndexOp(b, loc, slice.getMixedStrides())};
}

Value imex::dist::detail::fetchBox(OpBuilder &b, Location loc, int64_t team,
                                   const GridArray &array, ValueRange offsets,
                                   ValueRange sizes, NDArrayType type) {
  Value block = array.block(b, loc);
  auto copy = distruntime::RepartitionOp::create(
      b, loc, type, block, array.shape, array.offsets, offsets, sizes, team);
  auto wait = distruntime::WaitOp::create(b, loc, copy.getHandle(),
                                          ValueRange{block, copy.getOutput()});
  return wait.getResult(1);
}

SmallVector<Value> imex::dist::detail::fetchBoxes(
    OpBuilder &b, Location loc, int64_t team, const GridArray &array,
    ArrayRef<SmallVector<Value>> offsets, ArrayRef<SmallVector<Value>> sizes,
    NDArrayType type) {
  if (offsets.size() == 1)
    return {fetchBox(b, loc, team, array, offsets[0], sizes[0], type)};
  Value block = array.block(b, loc);
  SmallVector<Value> boxOffsets, boxSizes;
  for (auto [boxOffset, boxSize] : llvm::zip_equal(offsets, sizes)) {
    llvm::append_range(boxOffsets, boxOffset);
    llvm::append_range(boxSizes, boxSize);
  }
  SmallVector<Type> types(offsets.size(), type);
  auto copy = distruntime::FetchBoxesOp::create(b, loc, types, block,
                                                array.shape, array.offsets,
                                                boxOffsets, boxSizes, team);
  SmallVector<Value> arrays{block};
  llvm::append_range(arrays, copy.getOutputs());
  auto wait = distruntime::WaitOp::create(b, loc, copy.getHandle(), arrays);
  return SmallVector<Value>(wait.getResults().drop_front());
}

GridArray imex::dist::detail::getOwnedBlock(OpBuilder &b, Location loc,
                                            NDArrayType type,
                                            ValueRange values) {
  if (isGridArray(type))
    return GridArray::unpack(values);
  IndexMath m{b, loc};
  LocalArray rows = LocalArray::unpack(values);
  Value owned = rows.owned(b, loc);
  return GridArray::fromBlock(
      b, loc, owned,
      withTrailingZeros(b, loc, rows.ownedStart(m), type.getRank()),
      withTrailingDims(b, loc, rows.size0, owned));
}

namespace {

/// The part of the slice (`offsets`, `sizes`) of an array split like
/// `array` that this rank owns: its offsets in the slice and sizes (0 and
/// empty where it owns none).
std::pair<SmallVector<Value>, SmallVector<Value>>
getOwnedPart(IndexMath &m, const GridArray &array, ArrayRef<Value> offsets,
             ArrayRef<Value> sizes) {
  SmallVector<Value> first, count;
  for (auto [d, offset] : llvm::enumerate(offsets)) {
    Value lo = m.max(offset, array.offsets[d]);
    Value hi =
        m.min(m.add(offset, sizes[d]), m.add(array.offsets[d], array.sizes[d]));
    Value n = m.max(m.sub(hi, lo), m.c(0));
    first.push_back(m.select(m.gt(n, m.c(0)), m.sub(lo, offset), m.c(0)));
    count.push_back(n);
  }
  return {first, count};
}

/// Where the part [first, first + count) along `d` of a slice at `offset`
/// of `array` starts in its buffer (the block's start where it is empty:
/// an empty part's offset stays in bounds). Views of an update's part and
/// the update's insert compute it alike, so that they fold to one slice.
Value getPositionInBuffer(IndexMath &m, const GridArray &array, int64_t d,
                          Value offset, Value first, Value count) {
  return m.select(
      m.gt(count, m.c(0)),
      m.add(m.sub(m.add(offset, first), array.offsets[d]), array.first[d]),
      array.first[d]);
}

/// The update whose part of its slice the blocks of the grid array `value`
/// cover: the one an aligned view is for, or that of the first operand of
/// rank >= 1 of an elementwise op or a cast (whose blocks it takes); null
/// if they are the default partition of its shape.
Operation *getPartOf(Value value, const GridGhosts &ghosts) {
  Operation *def = value.getDefiningOp();
  if (!def)
    return nullptr;
  if (auto it = ghosts.alignedViews.find(def); it != ghosts.alignedViews.end())
    return it->second;
  if (!isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp, CastOp>(def))
    return nullptr;
  for (Value operand : def->getOperands())
    if (cast<NDArrayType>(operand.getType()).getRank() > 0)
      return getPartOf(operand, ghosts);
  return nullptr;
}

/// The block in a buffer with the ghost cells its updates need
/// (GridGhosts): the caller's buffer where it has enough (`spare_rows`),
/// else a new one the block is copied into once (created there, if it is
/// created).
struct InitGridArrayLowering : public GridPattern<dist::InitDistArrayOp> {
  InitGridArrayLowering(const TypeConverter &converter, MLIRContext *context,
                        const GridGhosts &ghosts)
      : GridPattern(converter, context), ghosts(ghosts) {}

  LogicalResult
  matchAndRewrite(dist::InitDistArrayOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    NDArrayType localType = dist::getLocalType(type);
    Value block = castTo(b, loc, adaptor.getBlock().front(), localType);
    SmallVector<Value> offsets, shape;
    for (ValueRange offset : adaptor.getOffsets())
      offsets.push_back(offset.front());
    for (ValueRange size : adaptor.getGlobalShape())
      shape.push_back(size.front());
    GridArray array = GridArray::fromBlock(b, loc, block, offsets, shape);
    auto it = ghosts.margins.find(op);
    ArrayRef<int64_t> split = dist::getDistEnv(type).getSplit();
    std::optional<ArrayRef<int64_t>> spare = op.getSpareRows();
    auto fits = [&](const GridGhosts::Widths &margins) {
      return llvm::all_of(split, [&](int64_t d) {
        return margins.first[d] <= (*spare)[0] &&
               margins.second[d] <= (*spare)[1];
      });
    };
    if (spare && (it == ghosts.margins.end() || fits(it->second))) {
      // A view of the caller's buffer with ghost cells around it along the
      // split axes (`dist.ghost`): that buffer, the block at `before`.
      ndarray::SubviewOp view = op.getSpareRowsView();
      array.buffer = castTo(b, loc, view.getSource(), localType);
      for (int64_t d : split)
        array.first[d] = m.c((*spare)[0]);
    } else if (it != ghosts.margins.end()) {
      auto &[before, after] = it->second;
      SmallVector<Value> dynamicSizes;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        array.first[d] = m.c(before[d]);
        if (localType.isDynamicDim(d))
          dynamicSizes.push_back(
              m.add(m.add(array.sizes[d], array.first[d]), m.c(after[d])));
      }
      auto create = adaptor.getBlock().front().getDefiningOp<CreateOp>();
      array.buffer = CreateOp::create(b, loc, localType, dynamicSizes,
                                      create ? create.getValue() : Value());
      if (!create) {
        SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
        array.buffer = ImmutableInsertSliceOp::create(
            b, loc, block, array.buffer, getAsOpFoldResult(array.first),
            getAsOpFoldResult(array.sizes), ones);
      }
    }
    rewriter.replaceOpWithMultiple(op, {array.pack()});
    return success();
  }

  const GridGhosts &ghosts;
};

template <typename OpTy> struct GridBlockOfLowering : public GridPattern<OpTy> {
  using GridPattern<OpTy>::GridPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getArray().getType()))
      return failure();
    Value block =
        GridArray::unpack(adaptor.getArray()).block(rewriter, op.getLoc());
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), block, op.getType()));
    return success();
  }
};

struct GridOffsetsOfLowering : public GridPattern<dist::LocalOffsetsOfOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(dist::LocalOffsetsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getArray().getType()))
      return failure();
    rewriter.replaceOp(op, GridArray::unpack(adaptor.getArray()).offsets);
    return success();
  }
};

/// A cast changes the static shape of the buffer (the same elements).
struct GridCastLowering : public GridPattern<CastOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getType()))
      return failure();
    GridArray array = GridArray::unpack(adaptor.getSource());
    array.buffer = castTo(rewriter, op.getLoc(), array.buffer,
                          dist::getLocalType(op.getType()));
    rewriter.replaceOpWithMultiple(op, {array.pack()});
    return success();
  }
};

struct GridDimLowering : public GridPattern<DimOp> {
  using GridPattern::GridPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isGridArray(op.getSource().getType()))
      return failure();
    IndexMath m{rewriter, op.getLoc()};
    SmallVector<Value> shape = GridArray::unpack(adaptor.getSource()).shape;
    Value index = adaptor.getIndex().front();
    Value size = shape.back();
    for (int64_t d = shape.size() - 2; d >= 0; --d)
      size = m.select(m.eq(index, m.c(d)), shape[d], size);
    rewriter.replaceOp(op, size);
    return success();
  }
};

/// Elementwise ops and copies of arrays in one distribution, sorts and
/// scans along axes it does not split: the op on the blocks, in the part of
/// the first operand (ndarray-dist made every
/// operand of rank >= 1 an array of that distribution and shape; 0-d
/// operands are replicated). Operands whose blocks cover another part (not
/// the same values at compile time) are fetched for it.
struct GridElementwiseLowering : public ConversionPattern {
  GridElementwiseLowering(const TypeConverter &converter, MLIRContext *context,
                          const GridGhosts &ghosts)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/2,
                          context),
        ghosts(ghosts) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!(isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp>(op) ||
          dist::isLocalAlongAxis(op)) ||
        op->getNumResults() != 1 || !isGridArray(op->getResult(0).getType()))
      return failure();
    Location loc = op->getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    auto resultType = cast<NDArrayType>(op->getResult(0).getType());
    auto env = dist::getDistEnv(resultType);
    IRMapping mapping;
    std::optional<GridArray> first;
    Operation *part = nullptr;
    for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
      auto type = cast<NDArrayType>(original.getType());
      if (type.getRank() == 0) {
        mapping.map(original, converted.front());
        continue;
      }
      if (dist::getDistEnv(type) != env)
        return rewriter.notifyMatchFailure(
            op, "operand in another distribution; run ndarray-dist");
      GridArray array = GridArray::unpack(converted);
      if (!first) {
        first = array;
        part = getPartOf(original, ghosts);
        mapping.map(original, array.block(b, loc));
        continue;
      }
      // Blocks of equal global shapes line up; broadcasting along a
      // split axis would need elements of other ranks.
      Value equal;
      for (auto [x, y] : llvm::zip(first->shape, array.shape)) {
        Value eq = m.eq(x, y);
        equal = equal ? m.land(equal, eq) : eq;
      }
      if (!matchPattern(equal, m_One()))
        cf::AssertOp::create(
            b, loc, equal,
            "operands of an elementwise op on arrays split over a grid "
            "must have equal shapes (broadcasting is supported on arrays "
            "split on rows)");
      Value block = getPartOf(original, ghosts) == part
                        ? array.block(b, loc)
                        : fetchBox(b, loc, env.getTeam(), array, first->offsets,
                                   first->sizes, dist::getLocalType(type));
      mapping.map(original, block);
    }
    if (!first)
      return rewriter.notifyMatchFailure(op, "no operand of rank >= 1");
    Operation *local = rewriter.clone(*op, mapping);
    local->getResult(0).setType(dist::getLocalType(resultType));
    rewriter.replaceOpWithMultiple(
        op, {GridArray::fromBlock(b, loc, local->getResult(0), first->offsets,
                                  first->shape, first->sizes)
                 .pack()});
    return success();
  }

  const GridGhosts &ghosts;
};

/// Views with unit strides (others: GridMovesToStandard.cpp). A view
/// feeding a stencil update (GridGhosts) is the part of the update's slice
/// this rank owns, shifted: the halos of its source for the update are
/// exchanged into the source's ghost cells (once per update and source, in
/// place: the boxes around the block outside it, one
/// `distruntime.repartition` per face), and the view is a view of the
/// buffer. Other views are this rank's block in the view's distribution,
/// fetched from the source's blocks holding it.
template <typename OpTy> struct GridSliceLowering : public GridPattern<OpTy> {
  GridSliceLowering(const TypeConverter &converter, MLIRContext *context,
                    const GridGhosts &ghosts, GridUpdates &updates)
      : GridPattern<OpTy>(converter, context), ghosts(ghosts),
        updates(updates) {}

  LogicalResult
  matchAndRewrite(OpTy op, typename GridPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type) || !dist::isBoxSlice(op))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray source = GridArray::unpack(adaptor.getSource());
    auto [viewOffsets, viewShape, unitStrides] = getSliceValues(b, loc, op);
    auto env = dist::getDistEnv(type);
    NDArrayType localType = dist::getLocalType(type);

    auto aligned = ghosts.alignedViews.find(op);
    if (aligned == ghosts.alignedViews.end()) {
      auto [offsets, sizes] = dist::createBlock(b, loc, env, viewShape);
      SmallVector<Value> baseOffsets;
      for (auto [view, block] : llvm::zip(viewOffsets, offsets))
        baseOffsets.push_back(m.add(view, block));
      Value block = fetchBox(b, loc, env.getTeam(), source, baseOffsets, sizes,
                             localType);
      rewriter.replaceOpWithMultiple(
          op, {GridArray::fromBlock(b, loc, block, offsets, viewShape).pack()});
      return success();
    }

    auto update = cast<ImmutableInsertSliceOp>(aligned->second);
    SmallVector<Value> sliceOffsets =
        getValueOrCreateConstantIndexOp(b, loc, update.getMixedOffsets());
    auto &target = updates.targets[update];
    if (target.first.empty())
      target = getOwnedPart(m, source, sliceOffsets, viewShape);
    auto &[partOffsets, partSizes] = target;

    Value base = lookThroughCasts(op.getSource());
    Value &buffer = updates.exchanged[{update, base}];
    if (!buffer)
      buffer = exchangeHalos(b, loc, env.getTeam(), source, sliceOffsets,
                             partOffsets, partSizes,
                             ghosts.halos.find({update, base})->second,
                             ghosts.corners.contains({update, base}),
                             cast<NDArrayType>(base.getType()));
    // The view of the part: the part's global position shifted by the
    // view's offset from the slice's, in the buffer.
    SmallVector<Value> at;
    for (auto [d, offset] : llvm::enumerate(viewOffsets))
      at.push_back(getPositionInBuffer(m, source, d, offset, partOffsets[d],
                                       partSizes[d]));
    GridArray view{buffer, at, partSizes, partOffsets, viewShape};
    Value block = castTo(b, loc, view.block(b, loc), localType);
    rewriter.replaceOpWithMultiple(
        op,
        {GridArray::fromBlock(b, loc, block, partOffsets, viewShape, partSizes)
             .pack()});
    return success();
  }

  /// Writes the elements of the box around the part (`partOffsets`,
  /// `partSizes` in the slice at `sliceOffsets`) `halo` wide that lie
  /// outside `array`'s block into its ghost cells: per split axis the box's
  /// elements before and after the block along it (over the block's extent
  /// in the other axes; with `corners`, over the box's in the axes before
  /// it: each element once), all fetched from their owners in one exchange.
  /// Returns the buffer.
  Value exchangeHalos(OpBuilder &b, Location loc, int64_t team,
                      const GridArray &array, ArrayRef<Value> sliceOffsets,
                      ArrayRef<Value> partOffsets, ArrayRef<Value> partSizes,
                      const GridGhosts::Widths &halo, bool corners,
                      NDArrayType arrayType) const {
    IndexMath m{b, loc};
    int64_t rank = array.shape.size();
    // Nothing to receive where this rank owns none of the slice.
    Value owns;
    for (Value size : partSizes) {
      Value positive = m.gt(size, m.c(0));
      owns = owns ? m.land(owns, positive) : positive;
    }
    SmallVector<Value> boxLo, boxHi, ownLo, ownHi;
    for (int64_t d = 0; d < rank; ++d) {
      Value lo = m.add(sliceOffsets[d], partOffsets[d]);
      boxLo.push_back(m.sub(lo, m.c(halo.first[d])));
      boxHi.push_back(m.add(m.add(lo, partSizes[d]), m.c(halo.second[d])));
      ownLo.push_back(array.offsets[d]);
      ownHi.push_back(m.add(array.offsets[d], array.sizes[d]));
    }
    // The faces, fetched in one exchange, then written into the ghost cells.
    SmallVector<SmallVector<Value>> faceOffsets, faceSizes;
    for (int64_t d : dist::getDistEnv(arrayType).getSplit()) {
      for (bool after : {false, true}) {
        if ((after ? halo.second[d] : halo.first[d]) == 0)
          continue;
        SmallVector<Value> offsets, sizes;
        for (int64_t e = 0; e < rank; ++e) {
          Value lo, hi;
          if (e == d) {
            lo = after ? ownHi[e] : boxLo[e];
            hi = after ? boxHi[e] : ownLo[e];
          } else if (e < d && corners) {
            lo = boxLo[e];
            hi = boxHi[e];
          } else {
            lo = m.max(ownLo[e], boxLo[e]);
            hi = m.min(ownHi[e], boxHi[e]);
          }
          offsets.push_back(lo);
          sizes.push_back(m.select(owns, m.max(m.sub(hi, lo), m.c(0)), m.c(0)));
        }
        faceOffsets.push_back(offsets);
        faceSizes.push_back(sizes);
      }
    }
    Value buffer = array.buffer;
    if (faceOffsets.empty())
      return buffer;
    auto bufferType = cast<NDArrayType>(buffer.getType());
    SmallVector<int64_t> dynamic(rank, ShapedType::kDynamic);
    SmallVector<Value> faces =
        fetchBoxes(b, loc, team, array, faceOffsets, faceSizes,
                   bufferType.cloneWith(dynamic, bufferType.getElementType()));
    for (auto [face, offsets, sizes] :
         llvm::zip_equal(faces, faceOffsets, faceSizes)) {
      SmallVector<Value> at;
      for (int64_t e = 0; e < rank; ++e)
        at.push_back(m.select(
            owns, m.add(m.sub(offsets[e], array.offsets[e]), array.first[e]),
            m.c(0)));
      SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
      auto insert = ImmutableInsertSliceOp::create(
          b, loc, face, buffer, getAsOpFoldResult(at), getAsOpFoldResult(sizes),
          ones);
      insert->setAttr(kGhostWriteAttrName, b.getUnitAttr());
      buffer = insert.getResult();
    }
    return buffer;
  }

  const GridGhosts &ghosts;
  GridUpdates &updates;
};

/// Whether inserting `src` at `offsets` of `shape` into `dest` writes all of
/// `dest` from arrays with the same blocks (the same offset, size and
/// global shape values): each rank's block is then the source's.
static bool isWholeAlignedInsert(const GridArray &src, const GridArray &dest,
                                 NDArrayType destType, ArrayRef<Value> offsets,
                                 ArrayRef<Value> shape) {
  for (size_t d = 0; d < dest.shape.size(); ++d) {
    // (All of dimension d: the global size, as a value or in the type.)
    int64_t staticSize = destType.getDimSize(d);
    auto same = [](Value a, Value b) {
      return isEqualConstantIntOrValue(a, b) || dist::isSameIndexValue(a, b);
    };
    bool all = same(shape[d], dest.shape[d]) ||
               (!ShapedType::isDynamic(staticSize) &&
                isConstantIntValue(shape[d], staticSize));
    if (!isConstantIntValue(offsets[d], 0) || !all ||
        !same(src.shape[d], dest.shape[d]) ||
        !same(src.offsets[d], dest.offsets[d]) ||
        !same(src.sizes[d], dest.sizes[d]))
      return false;
  }
  return true;
}

/// An insert with unit strides: each rank writes the part of the slice in
/// its block, its source elements taken from the source's blocks (when
/// they are that part, as for a stencil update), else fetched from them
/// (distributed) or taken from the source (replicated; dimensions of size
/// 1 are broadcast).
struct GridInsertLowering : public GridPattern<ImmutableInsertSliceOp> {
  GridInsertLowering(const TypeConverter &converter, MLIRContext *context,
                     const GridGhosts &ghosts, GridUpdates &updates)
      : GridPattern(converter, context), ghosts(ghosts), updates(updates) {}

  LogicalResult
  matchAndRewrite(ImmutableInsertSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType type = op.getType();
    if (!isGridArray(type) || !dist::isBoxSlice(op))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    GridArray dest = GridArray::unpack(adaptor.getDestination());
    int64_t rank = type.getRank();
    auto [sliceOffsets, sliceShape, unitStrides] = getSliceValues(b, loc, op);
    // The slice's part in this rank's block: [first, first + count) in
    // slice coordinates (computed once per part, by its first view).
    Operation *part = ghosts.parts.lookup(op);
    auto known = updates.targets.find(part);
    auto [first, count] = known != updates.targets.end()
                              ? known->second
                              : getOwnedPart(m, dest, sliceOffsets, sliceShape);
    // The source's part: the same box, but all of its broadcast dimensions
    // (size 1 where the slice is larger; missing leading dimensions).
    NDArrayType sourceType = op.getSource().getType();
    ValueRange source = adaptor.getSource();
    int64_t lead = rank - sourceType.getRank();
    Value local = source.front();
    if (isGridArray(sourceType) && known != updates.targets.end() &&
        getPartOf(op.getSource(), ghosts) == part) {
      // (The source was computed in this part: a stencil update.)
      local = GridArray::unpack(source).block(b, loc);
    } else if (isGridArray(sourceType) && lead == 0 &&
               isWholeAlignedInsert(GridArray::unpack(source), dest, type,
                                    sliceOffsets, sliceShape)) {
      // (The whole of an array with the same blocks: `b[...] = f(a)`.)
      GridArray src = GridArray::unpack(source);
      local = src.block(b, loc);
      first = dest.offsets; // (in slice coordinates: the slice is all)
      count = src.sizes;
    } else if (isGridArray(sourceType)) {
      GridArray src = GridArray::unpack(source);
      SmallVector<Value> boxOffsets, boxSizes;
      for (int64_t d = 0; d < sourceType.getRank(); ++d) {
        Value aligned = m.eq(src.shape[d], sliceShape[lead + d]);
        boxOffsets.push_back(m.select(aligned, first[lead + d], m.c(0)));
        boxSizes.push_back(m.select(aligned, count[lead + d], src.shape[d]));
      }
      local = fetchBox(b, loc, dist::getDistEnv(type).getTeam(), src,
                       boxOffsets, boxSizes, dist::getLocalType(sourceType));
    } else if (sourceType.getRank() > 0) {
      SmallVector<Value> boxOffsets, boxSizes;
      for (int64_t d = 0; d < sourceType.getRank(); ++d) {
        Value size = DimOp::create(b, loc, local, d);
        Value aligned = m.eq(size, sliceShape[lead + d]);
        boxOffsets.push_back(m.select(aligned, first[lead + d], m.c(0)));
        boxSizes.push_back(m.select(aligned, count[lead + d], size));
      }
      SmallVector<OpFoldResult> ones(sourceType.getRank(), b.getIndexAttr(1));
      SmallVector<int64_t> dynamic(sourceType.getRank(), ShapedType::kDynamic);
      local = SubviewOp::create(
          b, loc, sourceType.cloneWith(dynamic, sourceType.getElementType()),
          local, getAsOpFoldResult(boxOffsets), getAsOpFoldResult(boxSizes),
          ones);
    }
    // At the part's position in the buffer.
    SmallVector<Value> at;
    for (int64_t d = 0; d < rank; ++d)
      at.push_back(
          getPositionInBuffer(m, dest, d, sliceOffsets[d], first[d], count[d]));
    // Into the buffer its halos were exchanged into for this update, if
    // they were (the same elements; the ghost writes and the update then
    // form one chain of writes into the buffer, which double-buffer-loops
    // follows).
    Value destination = lookThroughCasts(op.getDestination());
    if (auto it = updates.exchanged.find({part, destination});
        it != updates.exchanged.end())
      dest.buffer = castTo(b, loc, it->second, dest.buffer.getType());
    SmallVector<OpFoldResult> ones(rank, b.getIndexAttr(1));
    dest.buffer = ImmutableInsertSliceOp::create(
        b, loc, local, dest.buffer, getAsOpFoldResult(at),
        getAsOpFoldResult(count), ones);
    rewriter.replaceOpWithMultiple(op, {dest.pack()});
    return success();
  }

  const GridGhosts &ghosts;
  GridUpdates &updates;
};

} // namespace

LogicalResult imex::dist::detail::checkGridArrayUses(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    bool grid = llvm::any_of(op->getOperandTypes(), isGridArray) ||
                llvm::any_of(op->getResultTypes(), isGridArray);
    bool box = (isa<ImmutableInsertSliceOp>(op) && dist::isBoxSlice(op)) ||
               (isa<SubviewOp, ExtractSliceOp>(op) &&
                (cast<NDArrayType>(op->getOperand(0).getType()).getRank() ==
                     cast<NDArrayType>(op->getResult(0).getType()).getRank() ||
                 dist::getDroppedAxesOfBox(op)));
    if (!grid || box ||
        isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp, CastOp, DimOp,
            dist::InitDistArrayOp, dist::OwnedBlockOfOp, dist::HeldBlockOfOp,
            dist::LocalOffsetsOfOp, dist::RedistributeOp, dist::RepartitionOp,
            ReductionOp, ArgReduceOp, PermuteDimsOp, FlipOp, LoadOp, ConcatOp>(
            op) ||
        isGridMatMul(op) || dist::isLocalAlongAxis(op) ||
        !isa<NDArrayDialect, dist::DistDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitOpError("on an array split on other axes than rows or over a "
                    "grid of ranks is not supported by "
                    "convert-dist-to-standard; ndarray-dist redistributes "
                    "its operands (dist.redistribute)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

void imex::dist::detail::populateGridArrayToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GridGhosts &ghosts, GridUpdates &updates) {
  MLIRContext *context = patterns.getContext();
  patterns.add<GridBlockOfLowering<dist::OwnedBlockOfOp>,
               GridBlockOfLowering<dist::HeldBlockOfOp>, GridOffsetsOfLowering,
               GridCastLowering, GridDimLowering>(converter, context);
  populateGridMovesToStandardPatterns(converter, patterns);
  patterns.add<InitGridArrayLowering, GridElementwiseLowering>(converter,
                                                               context, ghosts);
  patterns.add<GridSliceLowering<SubviewOp>, GridSliceLowering<ExtractSliceOp>>(
      converter, context, ghosts, updates);
  patterns.add<GridInsertLowering>(converter, context, ghosts, updates);
}
