//===- DistCoalesce.cpp - one halo exchange per array ---------------------===//
//
// ndarray-dist aligns the operands of every elementwise op and insert on its
// own, so a stencil step requests halos for each shifted view, and for
// intermediate results, separately. This pass
//
//  1. moves repartitions of elementwise results to the operands (rows of an
//     elementwise result are computed from the same rows of its operands),
//     so that every op of a chain computes the rows its final consumer needs
//     and only views of stored arrays are exchanged; repartitions of
//     repartitions collapse and repartitions to the rows an array already
//     holds disappear;
//  2. merges the repartitions of views of one array within a block into one
//     repartition of the array to the union (bounding box) of the rows they
//     read; each view then takes its rows out of it locally
//     (`dist.local_repartition`). Gathers (every rank requests all rows of a
//     view, e.g. of a[i]) are not merged;
//  3. repartitions the source of a redistribution to rows read only by the
//     repartition instead (the rows fetched from its blocks: one move).
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/Dist/Transforms/Passes.h"

#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex::dist {
#define GEN_PASS_DEF_DISTCOALESCE
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace imex::dist

using namespace mlir;
using namespace imex;
using namespace imex::dist;
using namespace imex::ndarray;

namespace {

//===----------------------------------------------------------------------===//
// Moving repartitions to the operands
//===----------------------------------------------------------------------===//

/// repartition(repartition(x)) -> repartition(x): the rows of the global
/// array do not depend on how it was split before.
struct CollapseRepartitions : public OpRewritePattern<RepartitionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RepartitionOp op,
                                PatternRewriter &rewriter) const override {
    Value source = op.getSource();
    Operation *def = source.getDefiningOp();
    if (!isa_and_present<RepartitionOp, LocalRepartitionOp>(def))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getSourceMutable().set(def->getOperand(0)); });
    return success();
  }
};

/// Whether `target` is the target of the whole of its array (offsets 0,
/// strides 1, dimension 0 its global number of rows), whose local target
/// is the rows the array owns.
static bool targetsWholeArray(LocalTargetOfSliceOp target) {
  std::optional<SmallVector<InitDistArrayOp>> roots =
      getStorageRoots(target.getArray());
  if (!roots || roots->empty())
    return false;
  OpFoldResult rows = target.getMixedSizes()[0];
  // (The global number of rows: static in the array's type, or the
  // storage's.)
  int64_t staticRows = target.getArray().getType().getDimSize(0);
  bool wholeRows =
      (!ShapedType::isDynamic(staticRows) &&
       isConstantIntValue(rows, staticRows)) ||
      llvm::all_of(*roots, [&](InitDistArrayOp init) {
        return !init.getGlobalShape().empty() &&
               isEqualConstantIntOrValue(rows, init.getGlobalShape()[0]);
      });
  return wholeRows && areAllConstantIntValue(target.getMixedOffsets(), 0) &&
         areAllConstantIntValue(target.getMixedStrides(), 1);
}

/// Whether [offset, offset + size) are the rows the view `view` owns: the
/// target of the same slice of an array owning the same rows as its base,
/// or of the whole of an array owning the rows `view` owns.
static bool isOwnedRangeOfView(Value view, Value offset, Value size) {
  auto target = offset.getDefiningOp<LocalTargetOfSliceOp>();
  if (!target || size.getDefiningOp() != target ||
      offset != target->getResult(0))
    return false;
  int64_t rank = target.getArray().getType().getRank();
  if (size != target->getResult(rank))
    return false;
  if (targetsWholeArray(target) && haveSameOwnedRows(view, target.getArray()))
    return true;
  // (An update of the view owns the rows the view owns.)
  while (Operation *def = view.getDefiningOp()) {
    if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def))
      view = insert.getDestination();
    else if (auto castOp = dyn_cast<CastOp>(def))
      view = castOp.getSource();
    else
      break;
  }
  // (The same rows: dimension 0 of the slices alike; the others do not
  // decide which rows a rank owns.)
  auto slice = view.getDefiningOp<OffsetSizeAndStrideOpInterface>();
  if (!slice || !isa<ExtractSliceOp, SubviewOp>(slice.getOperation()) ||
      slice.getMixedOffsets().size() != target.getMixedOffsets().size() ||
      !isEqualConstantIntOrValue(slice.getMixedOffsets()[0],
                                 target.getMixedOffsets()[0]) ||
      !isEqualConstantIntOrValue(slice.getMixedSizes()[0],
                                 target.getMixedSizes()[0]) ||
      !isEqualConstantIntOrValue(slice.getMixedStrides()[0],
                                 target.getMixedStrides()[0]))
    return false;
  return haveSameOwnedRows(slice->getOperand(0), target.getArray());
}

/// Whether [offset, offset + size) are the rows `array` owns because they
/// are the default partition its storage was created in.
static bool isOwnedDefaultPartition(Value array, Value offset, Value size) {
  auto partition = offset.getDefiningOp<DefaultPartitionOp>();
  if (!partition || size.getDefiningOp() != partition ||
      offset != partition->getResult(0) ||
      size != partition->getResult(partition->getNumResults() / 2))
    return false;
  std::optional<SmallVector<InitDistArrayOp>> roots = getStorageRoots(array);
  return roots && !roots->empty() &&
         getCommonDefaultPartition(*roots) == partition.getOperation();
}

/// A repartition to the rows the source already holds is the source.
struct DropRedundantRepartition : public OpRewritePattern<RepartitionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RepartitionOp op,
                                PatternRewriter &rewriter) const override {
    RowLayout layout = getRowLayout(op.getSource());
    bool holds =
        layout.isExplicit()
            ? layout.offset == op.getOffset() && layout.size == op.getSize()
            : isOwnedRangeOfView(op.getSource(), op.getOffset(),
                                 op.getSize()) ||
                  isOwnedDefaultPartition(op.getSource(), op.getOffset(),
                                          op.getSize());
    if (!holds)
      return failure();
    Value source = op.getSource();
    if (source.getType() != op.getType())
      source = CastOp::create(rewriter, op.getLoc(), op.getType(), source);
    rewriter.replaceOp(op, source);
    return success();
  }
};

/// Whether `user` reads only the shape (not the data) of distributed arrays.
bool readsShapeOnly(Operation *user) {
  return isa<DimOp, LocalTargetOfSliceOp>(user);
}

/// repartition(f(x, y, ...)) -> f(repartition(x), repartition(y), ...) for a
/// row-wise op f whose operands hold the same rows, computed only for this
/// repartition.
struct RepartitionOperands : public OpRewritePattern<RepartitionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RepartitionOp op,
                                PatternRewriter &rewriter) const override {
    Operation *def = op.getSource().getDefiningOp();
    if (!def || !isRowwise(def) || !getOperandsLayout(def))
      return failure();
    if (!llvm::all_of(def->getUsers(), [&](Operation *user) {
          return user == op || readsShapeOnly(user);
        }))
      return rewriter.notifyMatchFailure(op, "source has other data users");
    IRMapping mapping;
    for (OpOperand *operand : getRowAlignedOperands(def)) {
      Value value = operand->get();
      auto repartition =
          RepartitionOp::create(rewriter, op.getLoc(), value.getType(), value,
                                op.getOffset(), op.getSize());
      mapping.map(value, repartition.getResult());
    }
    Operation *clone = rewriter.clone(*def, mapping);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResults());
    // Erased now so that the repartitions of its operands see no other user.
    if (isOpTriviallyDead(def))
      rewriter.eraseOp(def);
    return success();
  }
};

/// repartition(redistribute(x)) -> repartition(x) where the redistribution
/// is read only by the repartition: each rank fetches the rows it needs
/// from the blocks of `x` (one move of each element) instead of receiving
/// its rows of the redistribution and then their halos.
struct FetchRowsFromRedistributed : public OpRewritePattern<RepartitionOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RepartitionOp op,
                                PatternRewriter &rewriter) const override {
    auto redistribute = op.getSource().getDefiningOp<RedistributeOp>();
    if (!redistribute ||
        !llvm::all_of(redistribute->getUsers(), [&](Operation *user) {
          return user == op || readsShapeOnly(user);
        }))
      return failure();
    Value source = redistribute.getSource();
    if (succeeded(fetchThroughRowsView(rewriter, op, source)))
      return success();
    rewriter.modifyOpInPlace(op, [&] { op.getSourceMutable().assign(source); });
    return success();
  }

  /// Where `source` is a view of rows [r, r + n) (and all of the other
  /// dimensions) of an array `x` read by nothing else: the rows of `x`
  /// fetched from its blocks (repartition(x) to rows [r + offset, ...)),
  /// their view, then the rows of the view held locally; fetching the view
  /// would move its elements to blocks of its own first.
  static LogicalResult fetchThroughRowsView(PatternRewriter &rewriter,
                                            RepartitionOp op, Value source) {
    auto slice = source.getDefiningOp<OffsetSizeAndStrideOpInterface>();
    if (!slice || !isa<SubviewOp, ExtractSliceOp>(slice.getOperation()) ||
        !source.hasOneUse())
      return failure();
    Value base = slice->getOperand(0);
    auto baseType = cast<NDArrayType>(base.getType());
    auto viewType = cast<NDArrayType>(source.getType());
    if (baseType.getRank() != viewType.getRank() ||
        !areAllConstantIntValue(slice.getMixedStrides(), 1))
      return failure();
    for (int64_t d = 1; d < baseType.getRank(); ++d) {
      Value size = getKnownGlobalSize(base, d);
      OpFoldResult whole =
          baseType.isDynamicDim(d)
              ? OpFoldResult(size)
              : OpFoldResult(rewriter.getIndexAttr(baseType.getDimSize(d)));
      if (!whole || !isConstantIntValue(slice.getMixedOffsets()[d], 0) ||
          !isEqualConstantIntOrValue(slice.getMixedSizes()[d], whole))
        return failure();
    }
    Location loc = op.getLoc();
    DistEnvAttr rows = getDistEnv(op.getType());
    Value first = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                  slice.getMixedOffsets()[0]);
    Value offset =
        rewriter.createOrFold<arith::AddIOp>(loc, first, op.getOffset());
    auto fetched = RepartitionOp::create(
        rewriter, loc, withDistEnv(baseType, rows), base, offset, op.getSize());
    IRMapping mapping;
    mapping.map(base, fetched.getResult());
    Operation *view = rewriter.clone(*slice, mapping);
    view->getResult(0).setType(withDistEnv(viewType, rows));
    rewriter.replaceOpWithNewOp<LocalRepartitionOp>(
        op, op.getType(), view->getResult(0), op.getOffset(), op.getSize());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Merging the exchanges of views of one array
//===----------------------------------------------------------------------===//

/// A repartition of a view of `base`: the rows `[viewOffset + viewStride *
/// offset, ...)` of the base it reads.
struct ViewRequest {
  RepartitionOp repartition;
  Operation *view; // nullptr: the base itself
  Value base;
};

/// Whether `op` makes all rows of its source available on every rank (a
/// gather, e.g. of the row `a[i]` selects).
bool isGather(RepartitionOp op) {
  if (!isConstantIntValue(op.getOffset(), 0))
    return false;
  int64_t rows = cast<NDArrayType>(op.getSource().getType()).getDimSize(0);
  if (std::optional<int64_t> size = getConstantIntValue(op.getSize()))
    return *size == rows;
  auto dim = op.getSize().getDefiningOp<DimOp>();
  return dim && dim.getSource() == op.getSource() &&
         isConstantIntValue(dim.getIndex(), 0);
}

/// The request `op` makes, unless it is a gather: gathers of different
/// views of an array are not merged (the bounding box of a[0] and a[-1] is
/// the whole array, on every rank).
std::optional<ViewRequest> getViewRequest(RepartitionOp op) {
  if (isGather(op))
    return std::nullopt;
  Value source = op.getSource();
  Operation *def = source.getDefiningOp();
  if (isa_and_present<SubviewOp, ExtractSliceOp>(def) &&
      !dropsSplitDimension(def))
    return ViewRequest{op, def, def->getOperand(0)};
  return ViewRequest{op, nullptr, source};
}

/// The index values a request needs (its rows and its view's bounds).
SmallVector<Value> getIndexValues(ViewRequest request) {
  SmallVector<Value> values{request.repartition.getOffset(),
                            request.repartition.getSize()};
  if (request.view)
    llvm::append_range(values, request.view->getOperands().drop_front());
  return values;
}

/// Replaces the repartitions of `requests` (all of views of one base, in
/// block order, their index values available at the first) by one
/// repartition of the base to the bounding box of their rows and local
/// repartitions of views of it.
void mergeRequests(RewriterBase &rewriter, ArrayRef<ViewRequest> requests) {
  RepartitionOp first = requests.front().repartition;
  Location loc = first.getLoc();

  rewriter.setInsertionPoint(first);
  Value boxOffset, boxSize;
  for (ViewRequest request : requests) {
    OpFoldResult viewOffset = rewriter.getIndexAttr(0), viewSize,
                 viewStride = rewriter.getIndexAttr(1);
    if (request.view) {
      auto view = cast<OffsetSizeAndStrideOpInterface>(request.view);
      viewOffset = view.getMixedOffsets()[0];
      viewSize = view.getMixedSizes()[0];
      viewStride = view.getMixedStrides()[0];
    } else {
      viewSize = getDimSize(rewriter, loc, request.base, 0);
    }
    auto materialize = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
    };
    SmallVector<Value> bbOffsets, bbSizes;
    if (boxOffset)
      bbOffsets.push_back(boxOffset), bbSizes.push_back(boxSize);
    auto box = LocalBoundingBoxOp::create(
        rewriter, loc, ValueRange{materialize(viewOffset)},
        ValueRange{materialize(viewSize)}, ValueRange{materialize(viewStride)},
        ValueRange{request.repartition.getOffset()},
        ValueRange{request.repartition.getSize()}, bbOffsets, bbSizes);
    boxOffset = box.getResultOffsets().front();
    boxSize = box.getResultSizes().front();
  }
  Value base = requests.front().base;
  auto exchange = RepartitionOp::create(rewriter, loc, base.getType(), base,
                                        boxOffset, boxSize);

  for (const ViewRequest &request : requests) {
    RepartitionOp op = request.repartition;
    rewriter.setInsertionPoint(op);
    Value rows = exchange.getResult();
    if (request.view) {
      IRMapping mapping;
      mapping.map(request.base, rows);
      rows = rewriter.clone(*request.view, mapping)->getResult(0);
    }
    rewriter.replaceOpWithNewOp<LocalRepartitionOp>(
        op, op.getType(), rows, op.getOffset(), op.getSize());
  }
}

/// Merges the requests of one base in runs: a request joins the run before
/// it if its index values can be computed at the run's first request. They
/// may not when they depend on a later request of the same base (the rows
/// of an update computed from another view of it): hoisting that request
/// above the first would put it before the exchange that replaces it.
void mergeRequestRuns(RewriterBase &rewriter, ArrayRef<ViewRequest> requests) {
  llvm::SmallPtrSet<Operation *, 8> group;
  for (const ViewRequest &request : requests)
    group.insert(request.repartition);
  auto pinned = [&](Operation *op) { return group.contains(op); };
  size_t start = 0;
  for (size_t i = 1; i <= requests.size(); ++i) {
    if (i < requests.size() &&
        succeeded(hoistDefinitions(getIndexValues(requests[i]),
                                   requests[start].repartition, pinned)))
      continue;
    if (i - start > 1)
      mergeRequests(rewriter, requests.slice(start, i - start));
    start = i;
  }
}

/// Merges the repartitions of views of one array in each block.
void mergeExchanges(Operation *root) {
  IRRewriter rewriter(root->getContext());
  SmallVector<Block *> blocks;
  root->walk([&](Block *block) { blocks.push_back(block); });
  for (Block *block : blocks) {
    // Requests grouped by base array, in block order.
    llvm::MapVector<Value, SmallVector<ViewRequest>> groups;
    for (auto op : block->getOps<RepartitionOp>())
      if (std::optional<ViewRequest> request = getViewRequest(op))
        groups[request->base].push_back(*request);
    for (auto &[base, requests] : groups)
      mergeRequestRuns(rewriter, requests);
  }
}

struct DistCoalescePass
    : public imex::dist::impl::DistCoalesceBase<DistCoalescePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<CollapseRepartitions, DropRedundantRepartition,
                 RepartitionOperands>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    mergeExchanges(getOperation());
    // (Last: the patterns above expect sources split on rows.)
    RewritePatternSet fetches(&getContext());
    fetches.add<FetchRowsFromRedistributed>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(fetches))))
      return signalPassFailure();
  }
};

} // namespace
