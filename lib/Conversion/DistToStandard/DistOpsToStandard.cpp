//===- DistOpsToStandard.cpp - lower the dist ops -------------------------===//
//
// The dist ops on distributed arrays: binding local storage, halo exchanges
// into it, and the analysis of how many spare rows (ghost cells) a buffer
// needs for the exchanges of its array.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

//===----------------------------------------------------------------------===//
// Ghost widths
//===----------------------------------------------------------------------===//

namespace {
/// The halo rows an exchange requests before and after the owned rows of
/// the arrays it reads for.
struct StaticHalo {
  int64_t left = 0, right = 0;
  /// The arrays whose owned rows the halo is relative to.
  SmallVector<Value> targets;
};
} // namespace

/// The halo `op` requests, if known at compile time: the box is the union of
/// views shifted by constants from slices whose owned rows they are read for
/// (a stencil).
static std::optional<StaticHalo> getStaticHalo(dist::RepartitionOp op) {
  auto box = op.getOffset().getDefiningOp<dist::LocalBoundingBoxOp>();
  if (!box || op.getSize() != box.getResult(1))
    return std::nullopt;
  StaticHalo halo;
  while (box) {
    auto target =
        box.getTargetOffsets()[0].getDefiningOp<dist::LocalTargetOfSliceOp>();
    if (!target)
      return std::nullopt;
    std::optional<int64_t> viewOffset =
        getConstantIntValue(box.getViewOffsets()[0]);
    std::optional<int64_t> sliceOffset =
        getConstantIntValue(target.getMixedOffsets()[0]);
    if (!viewOffset || !sliceOffset ||
        !isConstantIntValue(box.getViewStrides()[0], 1) ||
        !isConstantIntValue(target.getMixedStrides()[0], 1))
      return std::nullopt;
    // A target of a view (or an update of one): its rows in the base.
    Value array = target.getArray();
    while (Operation *def = array.getDefiningOp()) {
      if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def)) {
        array = insert.getDestination();
        continue;
      }
      auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(def);
      if (!slice || !isa<ExtractSliceOp, SubviewOp>(def))
        break;
      std::optional<int64_t> offset =
          getConstantIntValue(slice.getMixedOffsets()[0]);
      if (!offset || !isConstantIntValue(slice.getMixedStrides()[0], 1))
        return std::nullopt;
      *sliceOffset += *offset;
      array = def->getOperand(0);
    }
    halo.left = std::max(halo.left, *sliceOffset - *viewOffset);
    halo.right = std::max(halo.right, *viewOffset - *sliceOffset);
    halo.targets.push_back(array);
    if (box.getBbOffsets().empty())
      break;
    box = box.getBbOffsets()[0].getDefiningOp<dist::LocalBoundingBoxOp>();
    if (!box)
      return std::nullopt;
  }
  return halo;
}

/// Whether `init` gets a buffer with the spare rows `width`: unless it is
/// given halos; for a given owned block (a copy) only if it is exchanged in
/// a loop.
static bool getsSpareRows(dist::InitDistArrayOp init, const GhostWidth &width) {
  if (init.getType().getRank() == 0 || init.getSpareRowsAttr())
    return false;
  return width.inLoop || init.getBlock().getDefiningOp<CreateOp>();
}

/// Arrays copied into each other at the same position in a loop
/// (`b[s] = a[s]`, e.g. keeping the previous time step) get the same spare
/// rows, so that their buffers have the same layout: the loop can then swap
/// the buffers' roles instead of copying (imex-double-buffer-loops).
static void
unifyCopiedLayouts(Operation *root,
                   llvm::DenseMap<Operation *, GhostWidth> &widths) {
  llvm::EquivalenceClasses<Operation *> layouts;
  root->walk([&](ImmutableInsertSliceOp insert) {
    auto read = insert.getSource().getDefiningOp<ExtractSliceOp>();
    if (!read || !insert->getParentOfType<LoopLikeOpInterface>() ||
        !read.isSameAs(
            cast<OffsetSizeAndStrideOpInterface>(insert.getOperation()),
            isEqualConstantIntOrValue))
      return;
    std::optional<SmallVector<dist::InitDistArrayOp>> from =
        dist::getStorageRoots(read.getSource());
    std::optional<SmallVector<dist::InitDistArrayOp>> to =
        dist::getStorageRoots(insert.getDestination());
    if (!from || !to || from->empty() || to->empty())
      return;
    SmallVector<dist::InitDistArrayOp> all(*from);
    all.append(*to);
    if (!dist::getCommonDefaultPartition(all))
      return;
    for (dist::InitDistArrayOp init : all)
      layouts.unionSets(all.front(), init);
  });
  for (auto it = layouts.begin(), e = layouts.end(); it != e; ++it) {
    if (!(*it)->isLeader())
      continue;
    GhostWidth joint;
    for (Operation *init : layouts.members(**it)) {
      auto found = widths.find(init);
      if (found == widths.end())
        continue;
      joint.left = std::max(joint.left, found->second.left);
      joint.right = std::max(joint.right, found->second.right);
      joint.inLoop |= found->second.inLoop;
    }
    if (joint.left == 0 && joint.right == 0)
      continue;
    for (Operation *init : layouts.members(**it))
      widths[init] = joint;
  }
}

GhostAnalysis dist::detail::analyzeGhostCells(Operation *root) {
  GhostAnalysis analysis;
  SmallVector<std::tuple<dist::RepartitionOp, StaticHalo,
                         SmallVector<dist::InitDistArrayOp>>>
      exchanges;
  root->walk([&](dist::RepartitionOp op) {
    std::optional<StaticHalo> halo = getStaticHalo(op);
    std::optional<SmallVector<dist::InitDistArrayOp>> roots =
        dist::getStorageRoots(op.getSource());
    if (!halo || !roots)
      return;
    Operation *loop = op->getParentOfType<LoopLikeOpInterface>();
    for (dist::InitDistArrayOp init : *roots) {
      GhostWidth &width = analysis.widths[init];
      width.left = std::max(width.left, halo->left);
      width.right = std::max(width.right, halo->right);
      width.inLoop |= loop && !loop->isAncestor(init);
    }
    exchanges.emplace_back(op, std::move(*halo), std::move(*roots));
  });
  unifyCopiedLayouts(root, analysis.widths);
  // An exchange needs no run-time check of the spare rows if its source's
  // storage surely has them, relative to owned rows that are those of the
  // arrays the halo is for.
  for (auto &[op, halo, roots] : exchanges) {
    SmallVector<dist::InitDistArrayOp> all(roots);
    bool sameRows = true, others = false;
    for (Value target : halo.targets) {
      if (target == op.getSource())
        continue;
      std::optional<SmallVector<dist::InitDistArrayOp>> targetRoots =
          dist::getStorageRoots(target);
      sameRows &= targetRoots.has_value();
      if (targetRoots)
        all.append(*targetRoots);
      others = true;
    }
    if (others)
      sameRows &= dist::getCommonDefaultPartition(all) != nullptr;
    bool fits =
        llvm::all_of(roots, [&, &halo = halo](dist::InitDistArrayOp init) {
          if (std::optional<ArrayRef<int64_t>> spare = init.getSpareRows())
            return (*spare)[0] >= halo.left && (*spare)[1] >= halo.right;
          const GhostWidth &width = analysis.widths.find(init)->second;
          return getsSpareRows(init, width) && width.left >= halo.left &&
                 width.right >= halo.right;
        });
    if (sameRows && fits)
      analysis.fits.insert(op);
  }
  return analysis;
}

/// Whether `view` is all of its source, seen with other (equal) sizes of
/// dimensions 1.. (as `withViewSizes` makes it).
static bool isWholeView(SubviewOp view) {
  OpFoldResult rows = view.getMixedSizes()[0];
  auto value = dyn_cast<Value>(rows);
  auto dim = value ? value.getDefiningOp<DimOp>() : DimOp();
  int64_t sourceRows =
      cast<NDArrayType>(view.getSource().getType()).getDimSize(0);
  bool allRows = dim ? dim.getSource() == view.getSource() &&
                           isConstantIntValue(dim.getIndex(), 0)
                     : !ShapedType::isDynamic(sourceRows) &&
                           isConstantIntValue(rows, sourceRows);
  return allRows && areAllConstantIntValue(view.getMixedOffsets(), 0) &&
         areAllConstantIntValue(view.getMixedStrides(), 1);
}

/// The buffer `view` (of whole rows) is a view of, with the view's sizes
/// of dimensions 1.. (the caller's: the global shape's, known to the
/// compiler, where the buffer's own are not).
static Value withViewSizes(OpBuilder &b, Location loc,
                           ndarray::SubviewOp view) {
  Value buffer = view.getSource();
  int64_t rank = view.getType().getRank();
  auto type = cast<NDArrayType>(buffer.getType());
  if (type.getRank() != rank || rank < 2)
    return buffer;
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes = view.getMixedSizes();
  for (int64_t d = 1; d < rank; ++d)
    if (!isConstantIntValue(view.getMixedOffsets()[d], 0) ||
        !isConstantIntValue(view.getMixedStrides()[d], 1))
      return buffer;
  sizes[0] = dist::getDimSize(b, loc, buffer, 0);
  return SubviewOp::create(b, loc, type, buffer, offsets, sizes, strides);
}

/// Whether `value` is a version of `root`: `root` itself, or made from a
/// version by inserts into it, casts, and loops and ifs that carry versions.
static bool isVersionOf(Value value, Value root, unsigned depth = 0) {
  if (value == root)
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 64)
    return false;
  if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def))
    return isVersionOf(insert.getDestination(), root, depth + 1);
  if (auto cast = dyn_cast<CastOp>(def))
    return isVersionOf(cast.getSource(), root, depth + 1);
  if (auto view = dyn_cast<SubviewOp>(def); view && isWholeView(view))
    return isVersionOf(view.getSource(), root, depth + 1);
  unsigned i = cast<OpResult>(value).getResultNumber();
  if (auto loop = dyn_cast<scf::ForOp>(def))
    return isVersionOf(loop.getInitArgs()[i], root, depth + 1) &&
           isVersionOf(loop.getYieldedValues()[i], loop.getRegionIterArgs()[i],
                       depth + 1);
  if (auto ifOp = dyn_cast<scf::IfOp>(def))
    return ifOp.elseBlock() &&
           isVersionOf(ifOp.thenYield().getOperand(i), root, depth + 1) &&
           isVersionOf(ifOp.elseYield().getOperand(i), root, depth + 1);
  return false;
}

void dist::detail::writeBackGhostedArguments(Operation *root) {
  root->walk([](InsertSliceOp insert) {
    if (!insert->removeAttr(dist::kGhostedWriteBackAttrName))
      return;
    Value rows = lookThroughCasts(insert.getSource());
    auto view = rows.getDefiningOp<SubviewOp>();
    Value block = insert.getDestination();
    // The owned rows of a version of the block's buffer are where the
    // block's rows are (the binding put them there and versions keep the
    // layout); the other rows are ghost cells.
    if (!view || !isVersionOf(view.getSource(), block))
      return;
    OpBuilder b(insert);
    Location loc = insert.getLoc();
    auto type = cast<NDArrayType>(block.getType());
    Value buffer = view.getSource();
    if (buffer.getType() != type)
      buffer = CastOp::create(b, loc, type, buffer);
    SmallVector<OpFoldResult> zeros(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
    // (The sizes of the version, which are those of the view of the block
    // it was made from, its columns the global ones: the write-back is then
    // that view inserted where it lies, a copy to itself, which bufferization
    // removes; the block's own sizes are not known to be equal to them.)
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(dist::getDimSize(b, loc, view.getSource(), d));
    auto write =
        InsertSliceOp::create(b, loc, buffer, block, zeros, sizes, ones);
    write->setAttr(kWriteBackAttrName, b.getUnitAttr());
    insert.erase();
  });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Binds the block: it is the buffer (with the spare rows the array's
/// exchanges need, see analyzeGhostCells) or a view of the caller's buffer
/// with spare rows.
struct InitDistArrayLowering
    : public OpConversionPattern<dist::InitDistArrayOp> {
  InitDistArrayLowering(const TypeConverter &converter, MLIRContext *context,
                        const GhostAnalysis &ghosts)
      : OpConversionPattern(converter, context), ghosts(ghosts) {}

  LogicalResult
  matchAndRewrite(dist::InitDistArrayOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value block = adaptor.getBlock().front();
    if (op.getType().getRank() == 0) {
      rewriter.replaceOp(op, block);
      return success();
    }
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    Value offset = adaptor.getOffsets()[0].front();
    Value size0 = adaptor.getGlobalShape()[0].front();
    NDArrayType bufferType = getBufferType(op.getType());
    LocalArray local;
    if (ndarray::SubviewOp view = op.getSpareRowsView()) {
      // A view of a buffer with spare rows around it (ghost cells of the
      // caller): that buffer, with the block at its row.
      Value first =
          getValueOrCreateConstantIndexOp(b, loc, view.getMixedOffsets()[0]);
      Value rows = m.rows(block);
      local = {castTo(b, loc, withViewSizes(b, loc, view), bufferType),
               first,
               m.c(0),
               rows,
               rows,
               offset,
               size0};
    } else if (auto it = ghosts.widths.find(op);
               it != ghosts.widths.end() && getsSpareRows(op, it->second)) {
      // With the spare rows its exchanges need (a given block is copied
      // into the new buffer once, for exchanges in loops).
      local = withSpareRows(b, loc, block, offset, size0, m.c(it->second.left),
                            m.c(it->second.right));
      local.buffer = castTo(b, loc, local.buffer, bufferType);
    } else {
      local = LocalArray::fromOwned(b, loc, block, offset, size0);
      local.buffer = castTo(b, loc, local.buffer, bufferType);
    }
    rewriter.replaceOpWithMultiple(op, {local.pack()});
    return success();
  }

  const GhostAnalysis &ghosts;
};

/// The owned block (`Held = false`) or all held rows (`Held = true`), a
/// view of the buffer.
template <typename OpTy, bool Held>
struct BlockOfLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getArray();
    Value block = values.front();
    if (op.getArray().getType().getRank() != 0) {
      LocalArray array = LocalArray::unpack(values);
      block = Held ? array.valid(rewriter, op.getLoc())
                   : array.owned(rewriter, op.getLoc());
    }
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), block, op.getType()));
    return success();
  }
};

struct LocalOffsetsOfLowering
    : public OpConversionPattern<dist::LocalOffsetsOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::LocalOffsetsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A 0-d array has no offsets (and no rows to start from).
    if (op->getNumResults() == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    LocalArray array = LocalArray::unpack(adaptor.getArray());
    IndexMath m{rewriter, op.getLoc()};
    rewriter.replaceOp(op, withTrailingZeros(rewriter, op.getLoc(),
                                             array.ownedStart(m),
                                             op->getNumResults()));
    return success();
  }
};

/// Rows [offset, offset + size) of the array of type `type` (split on rows)
/// whose values `source` holds in another distribution, fetched from its
/// blocks: the valid rows of the result, its owned rows those of this rank's
/// block among them.
static LocalArray fetchRows(OpBuilder &b, Location loc, NDArrayType type,
                            const GridArray &source, Value offset, Value size) {
  IndexMath m{b, loc};
  SmallVector<Value> offsets{offset}, sizes{size};
  for (size_t d = 1; d < source.shape.size(); ++d) {
    offsets.push_back(m.c(0));
    sizes.push_back(source.shape[d]);
  }
  dist::DistEnvAttr env = dist::getDistEnv(type);
  Value box = fetchBox(b, loc, env.getTeam(), source, offsets, sizes,
                       dist::getRowsType(type));
  auto [ownOffsets, ownSizes] = dist::createBlock(b, loc, env, source.shape);
  Value start = ownOffsets[0], count = ownSizes[0];
  Value zero = m.c(0);
  Value left = m.clamp(m.sub(start, offset), zero, size);
  auto [firstOwned, lastOwned] =
      ownedRowsInBox(m, start, count, offset, m.add(offset, size));
  return {castTo(b, loc, box, getBufferType(type)),
          zero,
          left,
          m.sub(lastOwned, firstOwned),
          size,
          offset,
          source.shape[0]};
}

/// Halo exchange into the spare rows of the buffer; from a source in another
/// distribution, the rows fetched from its blocks.
struct RepartitionLowering : public OpConversionPattern<dist::RepartitionOp> {
  RepartitionLowering(const TypeConverter &converter, MLIRContext *context,
                      const GhostAnalysis &ghosts, ExchangedBuffers &exchanged)
      : OpConversionPattern(converter, context), ghosts(ghosts),
        exchanged(exchanged) {}

  LogicalResult
  matchAndRewrite(dist::RepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isGridArray(op.getSource().getType())) {
      LocalArray result =
          fetchRows(rewriter, op.getLoc(), op.getType(),
                    GridArray::unpack(adaptor.getSource()),
                    adaptor.getOffset().front(), adaptor.getSize().front());
      rewriter.replaceOpWithMultiple(op, {result.pack()});
      return success();
    }
    LocalArray source = LocalArray::unpack(adaptor.getSource());
    Value ownedRow;
    LocalArray result = exchangeRows(
        rewriter, op.getLoc(), dist::getDistEnv(op.getType()).getTeam(), source,
        adaptor.getOffset().front(), adaptor.getSize().front(),
        /*fits=*/ghosts.fits.contains(op), &ownedRow);
    exchanged[source.buffer] = {result.buffer, ownedRow, /*inPlace=*/false};
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }

  const GhostAnalysis &ghosts;
  ExchangedBuffers &exchanged;
};

/// Rows held locally: the valid rows shrink to the requested ones, the
/// buffer stays.
struct LocalRepartitionLowering
    : public OpConversionPattern<dist::LocalRepartitionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::LocalRepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexMath m{rewriter, op.getLoc()};
    LocalArray source = LocalArray::unpack(adaptor.getSource());
    Value offset = adaptor.getOffset().front();
    // Valid rows [from, from + size) of the source (the op requires the
    // source to hold them; `from` is clamped only so that an empty result
    // stays a view inside the buffer); the owned rows are those inside.
    Value size = adaptor.getSize().front();
    if (offset == source.offset && size == source.validCount) {
      rewriter.replaceOpWithMultiple(op, {adaptor.getSource()});
      return success();
    }
    Value from = m.sub(offset, source.offset);
    Value zero = m.c(0);
    Value lo = m.clamp(from, zero, source.validCount);
    auto [ownedFrom, ownedCount] = source.ownedIn(m, lo, size);
    LocalArray result = source;
    result.offset = offset;
    result.first = m.add(source.first, lo);
    result.ownedFrom = ownedFrom;
    result.ownedCount = ownedCount;
    result.validCount = size;
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

} // namespace

void dist::detail::populateDistOpsToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GhostAnalysis &ghosts, ExchangedBuffers &exchanged) {
  MLIRContext *context = patterns.getContext();
  patterns.add<InitDistArrayLowering>(converter, context, ghosts);
  patterns.add<RepartitionLowering>(converter, context, ghosts, exchanged);
  patterns.add<BlockOfLowering<dist::OwnedBlockOfOp, /*Held=*/false>,
               BlockOfLowering<dist::HeldBlockOfOp, /*Held=*/true>,
               LocalOffsetsOfLowering, LocalRepartitionLowering>(converter,
                                                                 context);
}
