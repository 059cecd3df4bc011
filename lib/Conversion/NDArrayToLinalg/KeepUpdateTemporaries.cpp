//===- KeepUpdateTemporaries.cpp - one temporary for self-reading updates -===//
//
// An update D[s] = f(views of D) whose views may overlap s computes f into
// a ring of blocks of rows written back behind the rows f still reads, or
// else into an explicit temporary, so that eliminate-empty-tensors does not
// make f write into D (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace imex {
#define GEN_PASS_DEF_KEEPUPDATETEMPORARIES
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// The tensor `value` is a slice or version of: followed through
/// extract_slice sources, insert_slice destinations and casts.
Value getRoot(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(def))
      value = extract.getSource();
    else if (auto insert = dyn_cast<tensor::InsertSliceOp>(def))
      value = insert.getDest();
    else if (auto cast = dyn_cast<tensor::CastOp>(def))
      value = cast.getSource();
    else
      break;
  }
  return value;
}

/// Whether `linalgOp` reads its `input` at the element it writes with
/// `init`, in every iteration (an elementwise op: reading and writing the
/// same buffer then needs no temporary).
bool readsWhereItWrites(linalg::LinalgOp linalgOp, OpOperand *input,
                        OpOperand *init) {
  return linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
         linalgOp.getMatchingIndexingMap(input) ==
             linalgOp.getMatchingIndexingMap(init) &&
         linalgOp.getMatchingIndexingMap(init).isPermutation();
}

/// Size `d` of the tensor `value`: static, or the size a buffer it was made
/// of was given (a kernel argument's `memref.reinterpret_cast`), or else
/// the size as a value bounds variable.
ValueBoundsConstraintSet::Variable sizeOf(Value value, int64_t d) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.isDynamicDim(d))
    return OpFoldResult(
        Builder(value.getContext()).getIndexAttr(type.getDimSize(d)));
  if (auto toTensor = value.getDefiningOp<bufferization::ToTensorOp>()) {
    Value buffer = toTensor.getBuffer();
    auto view = buffer.getDefiningOp<OffsetSizeAndStrideOpInterface>();
    if (view && view.getMixedSizes().size() == size_t(type.getRank()))
      return view.getMixedSizes()[d];
  }
  return ValueBoundsConstraintSet::Variable(value, d);
}

/// Whether the slice `op` (offsets 0, unit strides) is the whole of the
/// tensor `of` (sizes equal to its sizes by value bounds).
bool isWholeSlice(OffsetSizeAndStrideOpInterface op, Value of) {
  for (auto [d, offset, size, stride] : llvm::enumerate(
           op.getMixedOffsets(), op.getMixedSizes(), op.getMixedStrides())) {
    FailureOr<bool> whole =
        ValueBoundsConstraintSet::areEqual(size, sizeOf(of, d));
    if (!isConstantIntValue(offset, 0) || !isConstantIntValue(stride, 1) ||
        failed(whole) || !*whole)
      return false;
  }
  return true;
}

/// Whether `insert` writes its whole destination.
bool writesWholeDestination(tensor::InsertSliceOp insert) {
  return isWholeSlice(insert, insert.getDest());
}

/// Replaces slices that are their whole tensor (`extract_slice %t[0, 0]
/// [dims of %t]`, and `insert_slice %s into %d[0, 0] [dims of %d]` where
/// %s is a version of %d; sizes equal by value bounds where dynamic, which
/// canonicalization does not fold) by the tensor: a write-back of a whole
/// block after an update in place then does not read the block the update
/// overwrote (a conflict one-shot bufferization resolves by copying the
/// block). (Other whole inserts stay: eliminate-empty-tensors makes their
/// destination the init of the op computing their source.)
void foldWholeSlices(IRRewriter &rewriter, Operation *root) {
  auto replace = [&](Operation *op, Value by) {
    rewriter.setInsertionPoint(op);
    Type type = op->getResult(0).getType();
    if (by.getType() != type)
      by = tensor::CastOp::create(rewriter, op->getLoc(), type, by);
    rewriter.replaceOp(op, by);
  };
  root->walk([&](Operation *op) {
    if (auto extract = dyn_cast<tensor::ExtractSliceOp>(op)) {
      if (extract.getSourceType().getRank() == extract.getType().getRank() &&
          isWholeSlice(extract, extract.getSource()))
        replace(extract, extract.getSource());
    } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
      if (insert.getSourceType().getRank() == insert.getType().getRank() &&
          getRoot(insert.getSource()) == getRoot(insert.getDest()) &&
          writesWholeDestination(insert))
        replace(insert, insert.getSource());
    }
  });
}

/// Whether the input `view` of `linalgOp`, whose result `insert` writes
/// into its destination, may read elements the op overwrites before it
/// reads them: views overlapping the written slice, but for the written
/// slice itself read elementwise (`d[s] = d[s] + x`).
bool mayOverlap(linalg::LinalgOp linalgOp, OpOperand *input, OpOperand *init,
                tensor::InsertSliceOp insert) {
  Value view = input->get();
  if (getRoot(view) != getRoot(insert.getDest()))
    return false;
  auto extract = view.getDefiningOp<tensor::ExtractSliceOp>();
  if (!extract || extract.getSource() != insert.getDest())
    return true;
  MLIRContext *context = insert.getContext();
  if (readsWhereItWrites(linalgOp, input, init)) {
    FailureOr<bool> equivalent = ValueBoundsConstraintSet::areEquivalentSlices(
        context, HyperrectangularSlice(extract), HyperrectangularSlice(insert));
    if (succeeded(equivalent) && *equivalent)
      return false;
  }
  FailureOr<bool> overlapping = ValueBoundsConstraintSet::areOverlappingSlices(
      context, HyperrectangularSlice(extract), HyperrectangularSlice(insert));
  return failed(overlapping) || *overlapping;
}

/// An elementwise op reading the whole destination its result overwrites
/// (`d[...] = d * 2`) reads it as the slice written, whose equal slice
/// `eliminate-empty-tensors` makes the op's init: then the update is in
/// place (after CSE, one-shot bufferization sees one value read and written
/// elementwise).
void readWholeDestinationAsSlice(IRRewriter &rewriter, DominanceInfo &domInfo,
                                 linalg::LinalgOp linalgOp, OpOperand *init,
                                 tensor::InsertSliceOp insert) {
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    if (input->get() != insert.getDest() ||
        !readsWhereItWrites(linalgOp, input, init) ||
        !writesWholeDestination(insert) ||
        llvm::any_of(insert.getOperands().drop_front(2), [&](Value operand) {
          return !domInfo.properlyDominates(operand, linalgOp);
        }))
      continue;
    rewriter.setInsertionPoint(linalgOp);
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, insert.getLoc(), insert.getSourceType(), insert.getDest(),
        insert.getMixedOffsets(), insert.getMixedSizes(),
        insert.getMixedStrides());
    rewriter.modifyOpInPlace(linalgOp, [&] { input->set(slice); });
  }
}

/// Whether iteration i of `linalgOp`'s loop 0 reads row i of the operand
/// `map` indexes, and only that row (loop 0 indexes axis 0 and no other).
bool readsRowOfLoop0(AffineMap map) {
  if (map.getNumResults() == 0 ||
      map.getResult(0) != getAffineDimExpr(0, map.getContext()))
    return false;
  return llvm::none_of(map.getResults().drop_front(),
                       [](AffineExpr expr) { return expr.isFunctionOfDim(0); });
}

/// The inputs of `linalgOp` that are views of the destination of `insert`
/// if the update can be computed in blocks of rows: every view of the
/// destination's root is a slice of the destination itself with unit row
/// stride, read row i in iteration i of loop 0, which writes row i of the
/// result (an all-parallel op with one identity-indexed init); the insert
/// has unit strides.
FailureOr<SmallVector<OpOperand *>>
matchRowBlocks(linalg::LinalgOp linalgOp, OpOperand *init,
               tensor::InsertSliceOp insert) {
  if (linalgOp.getNumLoops() == 0 ||
      linalgOp.getNumLoops() != linalgOp.getNumParallelLoops() ||
      linalgOp.getNumDpsInits() != 1 ||
      !linalgOp.getMatchingIndexingMap(init).isIdentity() ||
      insert.getSourceType().getRank() != insert.getType().getRank() ||
      !llvm::all_of(insert.getMixedStrides(), [](OpFoldResult stride) {
        return isConstantIntValue(stride, 1);
      }))
    return failure();
  SmallVector<OpOperand *> reads;
  Value root = getRoot(insert.getDest());
  for (OpOperand *input : linalgOp.getDpsInputOperands()) {
    if (!isa<RankedTensorType>(input->get().getType()) ||
        getRoot(input->get()) != root)
      continue;
    auto extract = input->get().getDefiningOp<tensor::ExtractSliceOp>();
    if (!extract || extract.getSource() != insert.getDest() ||
        extract.getSourceType().getRank() != extract.getType().getRank() ||
        !isConstantIntValue(extract.getMixedStrides()[0], 1) ||
        !readsRowOfLoop0(linalgOp.getMatchingIndexingMap(input)))
      return failure();
    reads.push_back(input);
  }
  return reads;
}

/// Bytes of an element of `type` (at least 1).
int64_t elementBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, type.getIntOrFloatBitWidth() / 8);
  return 8;
}

/// Computes the update `insert` of `linalgOp`'s result into D = its
/// destination, whose input views `reads` of D may overlap the written
/// slice, in blocks of B rows (axis 0; B * row elements ~ `blockBytes`)
/// through a ring of L + 1 blocks: block b is computed into the ring from
/// views of D, then block b - L is written back into D. The lag L covers
/// the rows the views read behind the written ones (L * B >= the largest
/// offset of the written slice above a view's, at run time), so no view
/// reads a row already written; views reading ahead see rows not yet
/// written. Returns the updated D.
Value emitRowBlocks(IRRewriter &rewriter, linalg::LinalgOp linalgOp,
                    OpOperand *init, tensor::EmptyOp empty,
                    tensor::InsertSliceOp insert, ArrayRef<OpOperand *> reads,
                    int64_t blockBytes) {
  Location loc = insert.getLoc();
  rewriter.setInsertionPoint(insert);
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(rewriter, loc, value).getResult();
  };
  Value zero = index(0), one = index(1);
  auto resultType = cast<RankedTensorType>(init->get().getType());
  // (The sizes of the loops: the init is indexed by the identity.)
  SmallVector<OpFoldResult> sizes = empty.getMixedSizes();
  Value rows = getValueOrCreateConstantIndexOp(rewriter, loc, sizes[0]);
  Value rowElements = one;
  for (OpFoldResult size : llvm::drop_begin(sizes))
    rowElements = arith::MulIOp::create(
        rewriter, loc, rowElements,
        getValueOrCreateConstantIndexOp(rewriter, loc, size));
  // B = max(1, elements per block / max(1, row elements)).
  Value blockElements = index(std::max<int64_t>(
      1, blockBytes / elementBytes(resultType.getElementType())));
  Value blockRows = arith::MaxUIOp::create(
      rewriter, loc, one,
      arith::DivUIOp::create(
          rewriter, loc, blockElements,
          arith::MaxUIOp::create(rewriter, loc, one, rowElements)));
  // L = ceil(max(0, written row offset - view row offsets) / B).
  Value writtenRow = getValueOrCreateConstantIndexOp(
      rewriter, loc, insert.getMixedOffsets()[0]);
  Value behind = zero;
  for (OpOperand *read : reads) {
    auto extract = read->get().getDefiningOp<tensor::ExtractSliceOp>();
    Value viewRow = getValueOrCreateConstantIndexOp(
        rewriter, loc, extract.getMixedOffsets()[0]);
    behind = arith::MaxSIOp::create(
        rewriter, loc, behind,
        arith::SubIOp::create(rewriter, loc, writtenRow, viewRow));
  }
  Value lag = arith::CeilDivUIOp::create(rewriter, loc, behind, blockRows);
  Value slots = arith::AddIOp::create(rewriter, loc, lag, one);
  Value blocks = arith::CeilDivUIOp::create(rewriter, loc, rows, blockRows);
  Value ringRows = arith::MinUIOp::create(
      rewriter, loc, rows,
      arith::MulIOp::create(rewriter, loc, slots, blockRows));
  SmallVector<int64_t> ringShape(resultType.getShape());
  ringShape[0] = ShapedType::kDynamic;
  SmallVector<Value> ringSizes = {ringRows};
  for (auto [d, size] : llvm::enumerate(sizes))
    if (d > 0 && resultType.isDynamicDim(d))
      ringSizes.push_back(cast<Value>(size));
  Value ring = bufferization::AllocTensorOp::create(
      rewriter, loc, resultType.clone(ringShape), ringSizes);

  // Offsets of block `b`'s rows in the ring.
  auto slotOf = [&](OpBuilder &b, Value block) -> OpFoldResult {
    return arith::MulIOp::create(
               b, loc, arith::RemUIOp::create(b, loc, block, slots), blockRows)
        .getResult();
  };
  // D with block `b` of the ring written back.
  auto writeBack = [&](OpBuilder &b, Value block, Value ring,
                       Value dest) -> Value {
    Value firstRow = arith::MulIOp::create(b, loc, block, blockRows);
    Value count = arith::MinUIOp::create(
        b, loc, blockRows, arith::SubIOp::create(b, loc, rows, firstRow));
    SmallVector<OpFoldResult> ringOffsets(sizes.size(), b.getIndexAttr(0));
    ringOffsets[0] = slotOf(b, block);
    SmallVector<OpFoldResult> blockSizes = insert.getMixedSizes();
    blockSizes[0] = count;
    SmallVector<OpFoldResult> ones(sizes.size(), b.getIndexAttr(1));
    Value slice = tensor::ExtractSliceOp::create(b, loc, ring, ringOffsets,
                                                 blockSizes, ones);
    SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
    offsets[0] =
        arith::AddIOp::create(b, loc, writtenRow, firstRow).getResult();
    return tensor::InsertSliceOp::create(b, loc, slice, dest, offsets,
                                         blockSizes, ones);
  };

  auto loop = scf::ForOp::create(
      rewriter, loc, zero, blocks, one, ValueRange{insert.getDest(), ring},
      [&](OpBuilder &b, Location loc, Value block, ValueRange args) {
        // The op on block `block` of its iteration space, reading the views
        // of D from the loop's version of D, into the block's slot.
        SmallVector<Value> operands;
        for (OpOperand &operand : linalgOp->getOpOperands()) {
          Value value = operand.get();
          if (llvm::is_contained(reads, &operand)) {
            auto extract = value.getDefiningOp<tensor::ExtractSliceOp>();
            value = tensor::ExtractSliceOp::create(
                b, loc, extract.getType(), args[0], extract.getMixedOffsets(),
                extract.getMixedSizes(), extract.getMixedStrides());
          }
          operands.push_back(value);
        }
        SmallVector<OpFoldResult> firstRow = {
            arith::MulIOp::create(b, loc, block, blockRows).getResult()};
        SmallVector<OpFoldResult> tileSizes(sizes.size(), b.getIndexAttr(0));
        tileSizes[0] = blockRows;
        SmallVector<Value> tiled = linalg::makeTiledShapes(
            b, loc, linalgOp, operands, firstRow, tileSizes, sizes,
            /*omitPartialTileCheck=*/false);
        // The init's tile, a slice of the tensor.empty, becomes the slot.
        Value initTile = tiled[init->getOperandNumber()];
        SmallVector<OpFoldResult> slotOffsets(sizes.size(), b.getIndexAttr(0));
        slotOffsets[0] = slotOf(b, block);
        SmallVector<OpFoldResult> ones(sizes.size(), b.getIndexAttr(1));
        auto initSlice = initTile.getDefiningOp<tensor::ExtractSliceOp>();
        SmallVector<OpFoldResult> tileShape =
            initSlice ? initSlice.getMixedSizes() : sizes;
        Value slot = tensor::ExtractSliceOp::create(
            b, loc, cast<RankedTensorType>(initTile.getType()), args[1],
            slotOffsets, tileShape, ones);
        if (initSlice && initSlice->use_empty())
          initSlice->erase();
        tiled[init->getOperandNumber()] = slot;
        Operation *tiledOp =
            clone(b, linalgOp, TypeRange{slot.getType()}, tiled);
        SmallVector<OpFoldResult> tileOffsets(sizes.size(), b.getIndexAttr(0));
        tileOffsets[0] = firstRow[0];
        IRRewriter tileRewriter(b);
        linalg::offsetIndices(tileRewriter, cast<linalg::LinalgOp>(tiledOp),
                              tileOffsets);
        Value newRing = tensor::InsertSliceOp::create(
            b, loc, tiledOp->getResult(0), args[1], slotOffsets, tileShape,
            ones);
        // Block `block - L`, whose rows no view reads any more, into D.
        Value due = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                          block, lag);
        auto ifOp = scf::IfOp::create(
            b, loc, due,
            [&](OpBuilder &b, Location loc) {
              Value written =
                  writeBack(b, arith::SubIOp::create(b, loc, block, lag),
                            newRing, args[0]);
              scf::YieldOp::create(b, loc, written);
            },
            [&](OpBuilder &b, Location loc) {
              scf::YieldOp::create(b, loc, args[0]);
            });
        scf::YieldOp::create(b, loc, ValueRange{ifOp.getResult(0), newRing});
      });
  // The last L blocks.
  Value pending = arith::SelectOp::create(
      rewriter, loc,
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt, blocks,
                            lag),
      arith::SubIOp::create(rewriter, loc, blocks, lag), zero);
  auto tail = scf::ForOp::create(
      rewriter, loc, pending, blocks, one, ValueRange{loop.getResult(0)},
      [&](OpBuilder &b, Location loc, Value block, ValueRange args) {
        scf::YieldOp::create(b, loc,
                             writeBack(b, block, loop.getResult(1), args[0]));
      });
  return tail.getResult(0);
}

struct KeepUpdateTemporariesPass
    : public imex::impl::KeepUpdateTemporariesBase<KeepUpdateTemporariesPass> {
  using KeepUpdateTemporariesBase::KeepUpdateTemporariesBase;

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    foldWholeSlices(rewriter, getOperation());
    DominanceInfo domInfo(getOperation());
    SmallVector<tensor::InsertSliceOp> inserts;
    getOperation()->walk(
        [&](tensor::InsertSliceOp insert) { inserts.push_back(insert); });
    for (tensor::InsertSliceOp insert : inserts) {
      auto result = dyn_cast<OpResult>(insert.getSource());
      auto linalgOp =
          result ? dyn_cast<linalg::LinalgOp>(result.getOwner()) : nullptr;
      if (!linalgOp || !linalgOp.hasPureTensorSemantics())
        continue;
      OpOperand *init = linalgOp.getDpsInitOperand(result.getResultNumber());
      auto empty = init->get().getDefiningOp<tensor::EmptyOp>();
      if (!empty)
        continue;
      readWholeDestinationAsSlice(rewriter, domInfo, linalgOp, init, insert);
      if (llvm::none_of(linalgOp.getDpsInputOperands(), [&](OpOperand *input) {
            return mayOverlap(linalgOp, input, init, insert);
          }))
        continue;
      FailureOr<SmallVector<OpOperand *>> reads =
          matchRowBlocks(linalgOp, init, insert);
      if (blockBytes > 0 && succeeded(reads) && result.hasOneUse()) {
        Value updated = emitRowBlocks(rewriter, linalgOp, init, empty, insert,
                                      *reads, blockBytes);
        rewriter.replaceOp(insert, updated);
        // (Tiling asked the init for its sizes: the empty tensor's sizes, so
        // that no use is left that would allocate it.)
        for (Operation *user : llvm::make_early_inc_range(empty->getUsers()))
          if (auto dim = dyn_cast<tensor::DimOp>(user)) {
            std::optional<int64_t> d = dim.getConstantIndex();
            if (!d)
              continue;
            rewriter.setInsertionPoint(dim);
            rewriter.replaceOp(
                dim, getValueOrCreateConstantIndexOp(
                         rewriter, dim.getLoc(), empty.getMixedSizes()[*d]));
          }
        SmallVector<Operation *> unused = {empty};
        for (OpOperand *read : *reads)
          unused.push_back(read->get().getDefiningOp());
        rewriter.eraseOp(linalgOp);
        for (Operation *op : unused)
          if (op->use_empty())
            rewriter.eraseOp(op);
        continue;
      }
      rewriter.setInsertionPoint(linalgOp);
      auto temporary = bufferization::AllocTensorOp::create(
          rewriter, empty.getLoc(), empty.getType(), empty.getDynamicSizes());
      rewriter.modifyOpInPlace(linalgOp, [&] { init->set(temporary); });
    }
  }
};

} // namespace
