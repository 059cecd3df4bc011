//===- OverlapCommAndCompute.cpp - start early, wait late -----------------===//
//
// Moves asynchronous exchanges up and their waits down within a block so
// that computation independent of the messages runs while they are in
// flight. With `split-interior`, an update computed from an array whose
// halos were just received is first split into the rows that read no
// ghost cells (the interior, computed from the array before the halos
// arrive) and the boundary rows.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_OVERLAPCOMMANDCOMPUTE
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex::distruntime;
using namespace imex::ndarray;

namespace {

//===----------------------------------------------------------------------===//
// Interior split
//===----------------------------------------------------------------------===//

/// An array version whose ghost cells hold received halos: the result of the
/// two ghost writes of one exchange (convert-dist-to-standard writes the
/// left halo just before the owned rows, then the right halo just after
/// them). The buffer rows between the halos are the same in the version
/// before the writes (`left`'s destination).
struct HaloedArray {
  ImmutableInsertSliceOp left, right;
  Value before() { return left.getDestination(); }
};

/// `x + y` (folded when both are constants).
OpFoldResult addIndex(OpBuilder &b, Location loc, OpFoldResult x,
                      OpFoldResult y) {
  std::optional<int64_t> cx = getConstantIntValue(x),
                         cy = getConstantIntValue(y);
  if (cx && cy)
    return b.getIndexAttr(*cx + *cy);
  if (cx == 0)
    return y;
  if (cy == 0)
    return x;
  return arith::AddIOp::create(b, loc,
                               getValueOrCreateConstantIndexOp(b, loc, x),
                               getValueOrCreateConstantIndexOp(b, loc, y))
      .getResult();
}

/// `value` (through casts) as an array with received halos, if it is one.
std::optional<HaloedArray> getHaloedArray(Value value) {
  while (auto cast = value.getDefiningOp<CastOp>())
    value = cast.getSource();
  auto right = value.getDefiningOp<ImmutableInsertSliceOp>();
  if (!right || !right->hasAttr(kGhostWriteAttrName))
    return std::nullopt;
  auto left = right.getDestination().getDefiningOp<ImmutableInsertSliceOp>();
  if (!left || !left->hasAttr(kGhostWriteAttrName))
    return std::nullopt;
  return HaloedArray{left, right};
}

/// A view read by the computation of an update: `slice` (an extract_slice
/// or subview, unit stride on dimension 0) of an array outside it; `haloed`
/// if that array has received halos.
struct Leaf {
  OffsetSizeAndStrideOpInterface slice;
  std::optional<HaloedArray> haloed;
};

/// The elementwise computation of the source of `insert` from views of
/// arrays, each row of the result computed from the same row of every view
/// (every array value in it has the insert's rows, `rows`, on dimension 0,
/// or broadcasts along it).
struct RowwiseComputation {
  ImmutableInsertSliceOp insert;
  Value rows;
  llvm::SetVector<Operation *> ops;
  SmallVector<Leaf> leaves;
};

bool isOne(OpFoldResult ofr) { return isConstantIntValue(ofr, 1); }
bool isZero(OpFoldResult ofr) { return isConstantIntValue(ofr, 0); }

/// Whether `type` is an array with the computation's rows on dimension 0
/// (dynamic, the rows of this rank) among results of rank `rank`; else it
/// broadcasts along dimension 0.
bool hasRows(Type type, int64_t rank) {
  auto array = dyn_cast<NDArrayType>(type);
  return array && array.getRank() == rank && array.isDynamicDim(0);
}

class ComputationBuilder {
public:
  ComputationBuilder(ImmutableInsertSliceOp insert, Value rows)
      : result{insert, rows, {}, {}}, block(insert->getBlock()),
        rank(insert.getSource().getType().getRank()) {}

  /// Collects the computation of the insert's source; fails if it is not
  /// one of views or has other users.
  std::optional<RowwiseComputation> build() {
    if (!visit(result.insert.getSource()))
      return std::nullopt;
    // The ops only feed each other and the insert (the split replaces them).
    for (Operation *op : result.ops)
      for (Operation *user : op->getUsers())
        if (user != result.insert && !result.ops.contains(user))
          return std::nullopt;
    if (llvm::none_of(result.leaves,
                      [](const Leaf &leaf) { return leaf.haloed; }))
      return std::nullopt;
    // In block order, to be cloned so.
    SmallVector<Operation *> ordered = result.ops.takeVector();
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    result.ops.insert_range(ordered);
    return std::move(result);
  }

private:
  bool isComputed(Value v) {
    Operation *def = v.getDefiningOp();
    return def && result.ops.contains(def);
  }

  /// A size of a view or of a result: the rows, or a size of a computed
  /// array (cloned with it), or any value on dimensions 1...
  bool visitSize(OpFoldResult size, bool rowSize) {
    auto value = dyn_cast<Value>(size);
    if (value == result.rows)
      return true;
    auto dim = value ? value.getDefiningOp<DimOp>() : DimOp();
    if (dim && isComputed(dim.getSource())) {
      result.ops.insert(dim);
      return true;
    }
    return !rowSize;
  }

  bool visit(Value v) {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != block || !hasRows(v.getType(), rank))
      return false;
    if (result.ops.contains(def) ||
        llvm::any_of(result.leaves,
                     [&](const Leaf &l) { return l.slice == def; }))
      return true;
    if (isa<EWBinOp, EWUnyOp, WhereOp, CastOp, CastElemTypeOp>(def)) {
      for (Value operand : def->getOperands())
        if (hasRows(operand.getType(), rank) && !visit(operand))
          return false;
      result.ops.insert(def);
      return true;
    }
    auto slice = dyn_cast<OffsetSizeAndStrideOpInterface>(def);
    if (!slice || !isa<ExtractSliceOp, SubviewOp>(def) ||
        !isOne(slice.getMixedStrides()[0]))
      return false;
    Value source = def->getOperand(0);
    Operation *sourceDef = source.getDefiningOp();
    if (sourceDef && sourceDef->getBlock() == block &&
        isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp>(sourceDef)) {
      // A view of all rows of a computed array (an alignment of sizes).
      if (!visit(source) || !isZero(slice.getMixedOffsets()[0]))
        return false;
      result.ops.insert(def);
      for (auto [d, size] : llvm::enumerate(slice.getMixedSizes()))
        if (!visitSize(size, /*rowSize=*/d == 0))
          return false;
      return true;
    }
    // A view of the rows of an array computed before.
    if (dyn_cast<Value>(slice.getMixedSizes()[0]) != result.rows)
      return false;
    result.leaves.push_back({slice, getHaloedArray(source)});
    return true;
  }

  RowwiseComputation result;
  Block *block;
  int64_t rank;
};

/// The computation of rows [from, from + count) of `c`'s result: its ops
/// cloned on those rows of its views, read from the arrays before their
/// halos arrived if `interior`.
Value cloneRows(OpBuilder &b, RowwiseComputation &c, Value from, Value count,
                bool interior) {
  Location loc = c.insert.getLoc();
  IRMapping map;
  map.map(c.rows, count);
  for (Leaf &leaf : c.leaves) {
    Operation *op = leaf.slice.getOperation();
    SmallVector<OpFoldResult> offsets = leaf.slice.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = leaf.slice.getMixedSizes();
    offsets[0] = addIndex(b, loc, offsets[0], from);
    sizes[0] = count;
    Value source = op->getOperand(0);
    if (interior && leaf.haloed) {
      source = leaf.haloed->before();
      if (source.getType() != op->getOperand(0).getType())
        source = CastOp::create(b, loc, op->getOperand(0).getType(), source);
    }
    auto type = cast<NDArrayType>(op->getResult(0).getType());
    Value view =
        isa<SubviewOp>(op)
            ? SubviewOp::create(b, loc, type, source, offsets, sizes,
                                leaf.slice.getMixedStrides())
                  .getResult()
            : ExtractSliceOp::create(b, loc, type, source, offsets, sizes,
                                     leaf.slice.getMixedStrides())
                  .getResult();
    map.map(op->getResult(0), view);
  }
  for (Operation *op : c.ops)
    b.clone(*op, map);
  return map.lookup(c.insert.getSource());
}

/// Splits the update `c.insert` into its interior rows (read no ghost cells
/// of the views with halos: computed from the arrays before the halos
/// arrive) and the rows before and after them, each inserted.
void splitInterior(RowwiseComputation &c) {
  ImmutableInsertSliceOp insert = c.insert;
  OpBuilder b(insert);
  Location loc = insert.getLoc();
  auto val = [&](OpFoldResult ofr) {
    return getValueOrCreateConstantIndexOp(b, loc, ofr);
  };
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  // Interior rows [lo, hi): row r reads buffer row offset + r of each view
  // with halos, which must be an owned row.
  Value lo = zero, hi = c.rows;
  for (Leaf &leaf : c.leaves) {
    if (!leaf.haloed)
      continue;
    Value offset = val(leaf.slice.getMixedOffsets()[0]);
    ImmutableInsertSliceOp left = leaf.haloed->left;
    Value ownedBegin = val(
        addIndex(b, loc, left.getMixedOffsets()[0], left.getMixedSizes()[0]));
    Value ownedEnd = val(leaf.haloed->right.getMixedOffsets()[0]);
    lo = arith::MaxSIOp::create(
        b, loc, lo, arith::SubIOp::create(b, loc, ownedBegin, offset));
    hi = arith::MinSIOp::create(
        b, loc, hi, arith::SubIOp::create(b, loc, ownedEnd, offset));
  }
  lo = arith::MinSIOp::create(b, loc, lo, c.rows);
  hi = arith::MaxSIOp::create(b, loc, hi, lo);

  Value interiorRows = arith::SubIOp::create(b, loc, hi, lo);
  Value backRows = arith::SubIOp::create(b, loc, c.rows, hi);
  Value interior = cloneRows(b, c, lo, interiorRows, /*interior=*/true);
  Value front = cloneRows(b, c, zero, lo, /*interior=*/false);
  Value back = cloneRows(b, c, hi, backRows, /*interior=*/false);

  // The pieces are written into the destination after all are computed
  // (sinkToFirstUser does not move their computation below an update).
  SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
  OpFoldResult start = offsets[0];
  Value dest = insert.getDestination();
  auto place = [&](Value piece, Value row, Value count) {
    offsets[0] = addIndex(b, loc, start, row);
    sizes[0] = count;
    dest = ImmutableInsertSliceOp::create(b, loc, piece, dest, offsets, sizes,
                                          insert.getMixedStrides());
  };
  place(interior, lo, interiorRows);
  place(front, zero, lo);
  place(back, hi, backRows);
  insert.replaceAllUsesWith(dest);
  insert.erase();
  for (Operation *op : llvm::reverse(c.ops))
    op->erase();
  for (Leaf &leaf : c.leaves)
    if (leaf.slice->use_empty())
      leaf.slice->erase();
}

/// Splits every update in `root` whose rows are computed elementwise from
/// views of arrays with received halos.
void splitInteriors(Operation *root) {
  SmallVector<RowwiseComputation> computations;
  root->walk([&](ImmutableInsertSliceOp insert) {
    if (insert->hasAttr(kGhostWriteAttrName) ||
        insert.getDestination().getType().getRank() == 0 ||
        !isOne(insert.getMixedStrides()[0]) ||
        insert.getSource().getType().getRank() !=
            insert.getDestination().getType().getRank())
      return;
    auto rows = dyn_cast<Value>(insert.getMixedSizes()[0]);
    if (!rows)
      return;
    if (std::optional<RowwiseComputation> c =
            ComputationBuilder(insert, rows).build())
      computations.push_back(std::move(*c));
  });
  for (RowwiseComputation &c : computations)
    splitInterior(c);
}

//===----------------------------------------------------------------------===//
// Moving exchanges and waits
//===----------------------------------------------------------------------===//

/// Whether exchanges must not move across `op`: it has unknown effects or
/// writes or frees memory other than fresh allocations (a blocking
/// collective like `allreduce` may be crossed: ranks still issue every
/// collective in the same order, as they all run the same code).
bool isBarrier(Operation *op) {
  if (isMemoryEffectFree(op))
    return false;
  auto effects = getEffectsRecursively(op);
  if (!effects)
    return true;
  return llvm::any_of(*effects, [](const MemoryEffects::EffectInstance &e) {
    if (isa<CommResource>(e.getResource()))
      return false;
    return isa<MemoryEffects::Write, MemoryEffects::Free>(e.getEffect());
  });
}

/// Moves `op` up to just after the last definition of its operands in its
/// block, not across communication barriers.
void hoist(Operation *op) {
  Operation *target = op;
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode()) {
    bool defines = llvm::any_of(op->getOperands(), [&](Value v) {
      Operation *def = v.getDefiningOp();
      return def && (def == prev || prev->isAncestor(def));
    });
    if (defines || isBarrier(prev))
      break;
    target = prev;
  }
  if (target != op)
    op->moveBefore(target);
}

/// Whether `op` updates an array (other than its ghost cells): a computation
/// moved below it could read the array after it, and bufferization would
/// then copy the array to keep the version read.
bool isUpdate(Operation *op) {
  return isa<ImmutableInsertSliceOp>(op) && !op->hasAttr(kGhostWriteAttrName);
}

/// Moves `op` down to just before the first op in its block that uses one
/// of its results (or contains such a use), not across communication
/// barriers or updates.
void sinkToFirstUser(Operation *op) {
  Operation *target = nullptr;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    bool uses = llvm::any_of(op->getUsers(), [&](Operation *user) {
      return next == user || next->isAncestor(user);
    });
    if (uses || isBarrier(next) || isUpdate(next) ||
        next->hasTrait<OpTrait::IsTerminator>())
      break;
    target = next;
  }
  if (target)
    op->moveAfter(target);
}

/// The op of `block` that is or contains `op`.
Operation *getInBlock(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Moves the ops after the wait `op` in its block that depend on its
/// results (the computation on received data) down to just before their
/// first user, so that independent computation comes first and the wait can
/// sink below it.
void sinkDependents(WaitOp op) {
  Block *block = op->getBlock();
  llvm::SmallPtrSet<Operation *, 16> dependent{op};
  SmallVector<Operation *> order;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    bool uses = false;
    next->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (Operation *top = getInBlock(block, def);
              top && dependent.contains(top))
            uses = true;
    });
    if (uses) {
      dependent.insert(next);
      order.push_back(next);
    }
  }
  for (Operation *dep : llvm::reverse(order)) {
    if (!dep->getNumRegions() && !isBarrier(dep) &&
        !dep->hasTrait<OpTrait::IsTerminator>())
      sinkToFirstUser(dep);
  }
}

struct OverlapCommAndComputePass
    : public imex::distruntime::impl::OverlapCommAndComputeBase<
          OverlapCommAndComputePass> {
  using Base::Base;

  void runOnOperation() override {
    if (splitInterior)
      splitInteriors(getOperation());
    SmallVector<Operation *> starts;
    SmallVector<WaitOp> waits;
    getOperation()->walk([&](Operation *op) {
      if (isa<AsyncOpInterface>(op))
        starts.push_back(op);
      else if (auto wait = dyn_cast<WaitOp>(op))
        waits.push_back(wait);
    });
    // Sizes are known when an exchange starts: shape queries of completed
    // arrays need not wait for the data.
    for (WaitOp wait : waits)
      for (auto [operand, result] :
           llvm::zip(wait.getArrays(), wait.getResults()))
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses()))
          if (isa<imex::ndarray::DimOp>(use.getOwner()))
            use.set(operand);
    // Waits last first, starts first first, so that moved ops do not block
    // each other.
    for (WaitOp wait : llvm::reverse(waits)) {
      sinkDependents(wait);
      sinkToFirstUser(wait);
    }
    for (Operation *start : starts)
      hoist(start);
  }
};

} // namespace
