//===- DoubleBufferLoops.cpp - two buffers for loop-carried updates -------===//
//
// A time-step loop `u[1:-1] = f(u)` carries a tensor updated by a chain of
// writes at loop-invariant positions whose values read the old tensor. The
// values cannot be written into the tensor's buffer while it is still read,
// so one-shot bufferization computes them into a temporary and copies them
// in: a second pass over memory per step. Hand-written stencils keep two
// buffers and swap them. Swapping iter_args makes bufferization copy both
// (their yields are not equivalent to them), so the loop is unrolled by two
// and the chain of the first copy writes into a second iter_arg: each copy
// reads one buffer and writes the other, and every yield is equivalent to its
// iter_arg. Elements outside the written region are never written in the
// loop, so both buffers keep the initial values there.
//
// A time step that also keeps the previous value, `uprev[c] = u[c]; u[c] =
// f(u, uprev)`, copies u into uprev's buffer every step, where hand-written
// code rotates the buffers: the new values go into uprev's buffer (uprev is
// read only elementwise there), which becomes u, and u's buffer becomes
// uprev. The values are the same when each buffer also receives the other
// array's elements outside the written region (a frame around it, copied),
// unless both arrays start from one value: the loop writes neither outside
// that region except for ghost cells (not part of an array's value, and
// rewritten by the next exchange before they are read), so their frames
// stay equal. (With few long rows the frame is a large part of the array.)
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace imex {
#define GEN_PASS_DEF_DOUBLEBUFFERLOOPS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// Whether `linalgOp` writes every element of `init` without reading it.
bool overwrites(linalg::LinalgOp linalgOp, OpOperand *init) {
  return linalgOp.hasPureTensorSemantics() && linalgOp.isAllParallelLoops() &&
         linalgOp.isDpsInit(init) &&
         !linalgOp.payloadUsesValueFromOperand(init) &&
         linalgOp.getMatchingIndexingMap(init).isPermutation();
}

/// The number of writes at the end of `chain` (program order: the writes
/// after the ghost writes) that are not ghost writes, if the chain is ghost
/// writes followed by other writes.
std::optional<size_t> countUpdates(ArrayRef<OpOperand *> chain) {
  size_t updates = 0;
  while (updates < chain.size() &&
         !imex::isGhostWrite(chain[updates]->getOwner()))
    ++updates;
  for (OpOperand *link : chain.drop_front(updates))
    if (!imex::isGhostWrite(link->getOwner()))
      return std::nullopt;
  return updates;
}

/// Whether the uses of an intermediate version of an update chain other
/// than `next` (the write that follows it) do not read it. A read could see
/// a region that the chain writes later in the iteration, which holds the
/// previous iteration's value in the original loop but an older one in the
/// spare.
bool onlyOverwritten(Value version, OpOperand *next) {
  return llvm::all_of(version.getUses(), [&](OpOperand &use) {
    if (&use == next)
      return true;
    auto slice = dyn_cast<tensor::ExtractSliceOp>(use.getOwner());
    return slice && llvm::all_of(slice->getUses(), [](OpOperand &sliceUse) {
             auto linalgOp = dyn_cast<linalg::LinalgOp>(sliceUse.getOwner());
             return linalgOp && overwrites(linalgOp, &sliceUse);
           });
  });
}

/// The destination operands from `end` back to `root` (last write first),
/// if `end` is `root` updated by a chain of ops of `loop`'s body that write
/// at loop-invariant positions: `tensor.insert_slice` into the previous
/// version, or a parallel linalg op overwriting all of its init (which then
/// does not depend on the previous version's contents), with intermediate
/// versions not read otherwise (unless `allowReads`: the chain of both
/// copies of an unrolled body, whose middle version is read by the second).
/// Empty otherwise.
SmallVector<OpOperand *> findUpdateChain(Value end, Value root, scf::ForOp loop,
                                         bool allowReads = false) {
  SmallVector<OpOperand *> chain;
  for (Value value = end; value != root;) {
    // (Versions made by ghost writes may be read: they are the version the
    // iteration computes from.)
    if (!chain.empty() && !allowReads &&
        !imex::isGhostWrite(value.getDefiningOp()) &&
        !onlyOverwritten(value, chain.back()))
      return {};
    Operation *def = value.getDefiningOp();
    if (!def || def->getParentOp() != loop)
      return {};
    OpOperand *dest = nullptr;
    if (auto insert = dyn_cast<tensor::InsertSliceOp>(def)) {
      if (!llvm::all_of(insert->getOperands().drop_front(2), [&](Value v) {
            return loop.isDefinedOutsideOfLoop(v);
          }))
        return {};
      dest = &insert.getDestMutable();
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def)) {
      dest =
          linalgOp.getDpsInitOperand(cast<OpResult>(value).getResultNumber());
      if (!overwrites(linalgOp, dest))
        return {};
    } else {
      return {};
    }
    chain.push_back(dest);
    value = dest->get();
  }
  return chain;
}

/// Whether `value` is computed in `loop`'s body from reads of `versions`,
/// not counting reads through other arrays written in the body (inserts):
/// those are materialized there, so the versions are dead when `value` is
/// computed and it can be computed in place.
bool computedFrom(Value value, const llvm::SmallPtrSetImpl<Value> &versions,
                  scf::ForOp loop) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Value, 16> visited;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (versions.contains(v))
      return true;
    Operation *def = v.getDefiningOp();
    if (!visited.insert(v).second || !def || !loop->isAncestor(def) ||
        isa<tensor::InsertSliceOp>(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// The iter_args of `loop` updated by a chain whose values read the previous
/// version (another use of the iter_arg): double buffering saves a copy.
SmallVector<unsigned> findDoubleBufferedArgs(scf::ForOp loop) {
  SmallVector<unsigned> args;
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isa<RankedTensorType>(arg.getType()))
      continue;
    SmallVector<OpOperand *> chain =
        findUpdateChain(loop.getYieldedValues()[index], arg, loop);
    std::optional<size_t> updates = countUpdates(chain);
    if (chain.empty() || !updates || *updates == 0)
      continue;
    // The versions the updates could read: the argument and its versions
    // after ghost writes (what the first update writes into). Double
    // buffering pays only if an update computes its values from them.
    llvm::SmallPtrSet<Value, 4> read;
    for (OpOperand *link : ArrayRef(chain).drop_front(*updates - 1))
      read.insert(link->get());
    if (llvm::any_of(
            ArrayRef(chain).take_front(*updates), [&](OpOperand *link) {
              auto insert = dyn_cast<tensor::InsertSliceOp>(link->getOwner());
              return insert && computedFrom(insert.getSource(), read, loop);
            }))
      args.push_back(index);
  }
  return args;
}

/// `value` with the ghost writes that made it from an iter_arg of `loop`
/// looked through: that iter_arg, or null.
BlockArgument getGhostWrittenArg(Value value, scf::ForOp loop) {
  while (auto insert = value.getDefiningOp<tensor::InsertSliceOp>()) {
    if (!imex::isGhostWrite(insert) || insert->getParentOp() != loop)
      return {};
    value = insert.getDest();
  }
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner() == loop.getBody() && arg.getArgNumber() > 0
             ? arg
             : BlockArgument();
}

/// The offset of a slice of `size` elements where it matters: the
/// distributed lowering guards the offsets of slices that may be empty,
/// `select(size > 0, offset, default)`, and the offset of an empty slice
/// does not matter.
OpFoldResult getEffectiveOffset(OpFoldResult offset, OpFoldResult size) {
  auto select = dyn_cast_if_present<Value>(offset)
                    ? cast<Value>(offset).getDefiningOp<arith::SelectOp>()
                    : arith::SelectOp();
  auto nonEmpty =
      select ? select.getCondition().getDefiningOp<arith::CmpIOp>() : nullptr;
  if (nonEmpty && nonEmpty.getPredicate() == arith::CmpIPredicate::sgt &&
      isEqualConstantIntOrValue(nonEmpty.getLhs(), size) &&
      isZeroInteger(nonEmpty.getRhs()))
    return select.getTrueValue();
  return offset;
}

/// A unit-stride slice of `base`, with effective offsets.
struct Slice {
  Value base;
  SmallVector<OpFoldResult> offsets, sizes;

  /// The slice `op` (an extract or insert slice) takes of (or writes into)
  /// its source (destination), looking through extracts it takes from at
  /// offset 0; no base if it has other strides.
  static Slice get(OffsetSizeAndStrideOpInterface op) {
    if (!op.hasUnitStride())
      return {};
    Slice slice{op->getOperand(isa<tensor::InsertSliceOp>(op) ? 1 : 0),
                op.getMixedOffsets(), op.getMixedSizes()};
    for (auto [offset, size] : llvm::zip(slice.offsets, slice.sizes))
      offset = getEffectiveOffset(offset, size);
    if (auto outer = slice.base.getDefiningOp<tensor::ExtractSliceOp>();
        outer && llvm::all_of(slice.offsets, isZeroInteger)) {
      Slice outerSlice = get(outer);
      if (outerSlice.base)
        return {outerSlice.base, outerSlice.offsets, slice.sizes};
    }
    return slice;
  }

  /// Whether this and `other` are the same elements of the same base.
  bool isSameAs(const Slice &other) const {
    return base && base == other.base &&
           isEqualConstantIntOrValueArray(offsets, other.offsets) &&
           isEqualConstantIntOrValueArray(sizes, other.sizes);
  }
};

/// Whether tensors `a` and `b` (of the same type) surely have the same
/// shape.
bool haveSameShape(Value a, Value b) {
  auto type = cast<RankedTensorType>(a.getType());
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d) || a == b)
      continue;
    FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual({a, d}, {b, d});
    if (failed(equal) || !*equal)
      return false;
  }
  return true;
}

/// Iter_args `previous` (p) and `current` (u) of a loop that yields
/// `p' = insert_slice(extract_slice(u, S), p, S)` (the copy) and
/// `u' = insert_slice(new, ug, S)` (the update; ug is u after ghost writes).
struct Rotation {
  BlockArgument previous, current;
  tensor::InsertSliceOp copy, update;
};

/// The rotations of `loop`'s iter_args, each iter_arg in at most one.
SmallVector<Rotation> findRotations(scf::ForOp loop) {
  SmallVector<Rotation> rotations;
  llvm::SmallPtrSet<Value, 8> taken;
  auto yielded = loop.getYieldedValues();
  for (auto [index, previous] : llvm::enumerate(loop.getRegionIterArgs())) {
    auto copy = yielded[index].getDefiningOp<tensor::InsertSliceOp>();
    if (!copy || copy->getParentOp() != loop || copy.getDest() != previous ||
        !copy.hasUnitStride() || !copy->hasOneUse())
      continue;
    auto read = copy.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    if (!read)
      continue;
    Slice copied = Slice::get(read), written = Slice::get(copy);
    if (!copied.base || copied.base.getType() != previous.getType() ||
        !written.base)
      continue;
    BlockArgument current = getGhostWrittenArg(copied.base, loop);
    if (!current || current == previous || taken.contains(current) ||
        taken.contains(previous))
      continue;
    unsigned currentIndex = current.getArgNumber() - 1;
    auto update = yielded[currentIndex].getDefiningOp<tensor::InsertSliceOp>();
    if (!update || update->getParentOp() != loop || !update->hasOneUse() ||
        getGhostWrittenArg(update.getDest(), loop) != current)
      continue;
    // The same positions: the copy reads u where the update writes it
    // (bases differ by ghost writes only) and writes p there.
    Slice updated = Slice::get(update);
    copied.base = written.base;
    updated.base = written.base;
    if (!copied.isSameAs(written) || !updated.isSameAs(written))
      continue;
    // The arrays swap buffers, so they must have the same shape (the
    // updates keep the shapes of the iter_args).
    if (!haveSameShape(loop.getInitArgs()[index],
                       loop.getInitArgs()[currentIndex]))
      continue;
    taken.insert(previous);
    taken.insert(current);
    rotations.push_back({previous, current, copy, update});
  }
  return rotations;
}

/// A box of a tensor (unit strides).
struct Part {
  SmallVector<OpFoldResult> offsets, sizes;
};

/// The parts of a tensor of shape `dims` outside the slice `slice` (unit
/// strides), its frame: for each dimension d, the elements before and after
/// the slice's range in d that are inside its ranges in the dimensions
/// before d. Parts known to be empty are left out.
SmallVector<Part> getFrame(OpBuilder &b, Location loc,
                           ArrayRef<OpFoldResult> dims,
                           OffsetSizeAndStrideOpInterface slice) {
  int64_t rank = dims.size();
  SmallVector<OpFoldResult> offsets = slice.getMixedOffsets(),
                            sizes = slice.getMixedSizes();
  SmallVector<Part> parts;
  auto sub = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx - *cy);
    if (cy == 0)
      return x;
    return b.createOrFold<arith::SubIOp>(
        loc, getValueOrCreateConstantIndexOp(b, loc, x),
        getValueOrCreateConstantIndexOp(b, loc, y));
  };
  auto add = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    std::optional<int64_t> cx = getConstantIntValue(x),
                           cy = getConstantIntValue(y);
    if (cx && cy)
      return b.getIndexAttr(*cx + *cy);
    return b.createOrFold<arith::AddIOp>(
        loc, getValueOrCreateConstantIndexOp(b, loc, x),
        getValueOrCreateConstantIndexOp(b, loc, y));
  };
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult end = add(offsets[d], sizes[d]);
    for (auto [start, size] :
         {std::pair<OpFoldResult, OpFoldResult>{b.getIndexAttr(0), offsets[d]},
          {end, sub(dims[d], end)}}) {
      if (isZeroInteger(size))
        continue;
      SmallVector<OpFoldResult> partOffsets(offsets.begin(),
                                            offsets.begin() + d),
          partSizes(sizes.begin(), sizes.begin() + d);
      partOffsets.push_back(start);
      partSizes.push_back(size);
      for (int64_t e = d + 1; e < rank; ++e) {
        partOffsets.push_back(b.getIndexAttr(0));
        partSizes.push_back(dims[e]);
      }
      parts.push_back({partOffsets, partSizes});
    }
  }
  return parts;
}

/// The parts `frame` of `tensor`, one slice each.
SmallVector<Value> extractParts(OpBuilder &b, Location loc, Value tensor,
                                ArrayRef<Part> frame) {
  SmallVector<Value> slices;
  for (const Part &part : frame)
    slices.push_back(tensor::ExtractSliceOp::create(
        b, loc, tensor, part.offsets, part.sizes,
        SmallVector<OpFoldResult>(part.sizes.size(), b.getIndexAttr(1))));
  return slices;
}

/// `into` with `slices` written at the parts `frame`.
Value insertParts(OpBuilder &b, Location loc, ValueRange slices, Value into,
                  ArrayRef<Part> frame) {
  for (auto [slice, part] : llvm::zip_equal(slices, frame))
    into = tensor::InsertSliceOp::create(
        b, loc, slice, into, part.offsets, part.sizes,
        SmallVector<OpFoldResult>(part.sizes.size(), b.getIndexAttr(1)));
  return into;
}

/// `into` with the elements of `from` at the parts `frame`.
Value copyParts(OpBuilder &b, Location loc, Value from, Value into,
                ArrayRef<Part> frame) {
  for (const Part &part : frame)
    into = insertParts(b, loc, extractParts(b, loc, from, part), into, part);
  return into;
}

/// Lets the parallel linalg op computing `value`, which `written` inserts,
/// write its result into a view of the elements `written` writes (not a
/// new tensor), taken right before it, so that bufferization computes it in
/// place (empty-tensor elimination could place the view where the
/// destination is read later). An input reading the same elements
/// elementwise reads that view too: the op updates them in place.
void computeInto(RewriterBase &rewriter, Value value,
                 tensor::InsertSliceOp written) {
  auto linalgOp = value.getDefiningOp<linalg::LinalgOp>();
  if (!linalgOp || linalgOp->getNumResults() != 1 ||
      linalgOp.getNumDpsInits() != 1 || !written.hasUnitStride())
    return;
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  Operation *empty = init->get().getDefiningOp<tensor::EmptyOp>();
  if (!empty || !overwrites(linalgOp, init) ||
      !linalgOp.getMatchingIndexingMap(init).isIdentity() ||
      init->get().getType() != written.getSourceType())
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(linalgOp);
  Value view = tensor::ExtractSliceOp::create(
      rewriter, written.getLoc(), written.getSourceType(), written.getDest(),
      written.getMixedOffsets(), written.getMixedSizes(),
      written.getMixedStrides());
  SmallVector<Operation *> replaced{empty};
  Slice target = Slice::get(written);
  rewriter.modifyOpInPlace(linalgOp, [&] {
    init->set(view);
    for (OpOperand *input : linalgOp.getDpsInputOperands()) {
      auto slice = input->get().getDefiningOp<tensor::ExtractSliceOp>();
      if (slice && Slice::get(slice).isSameAs(target) &&
          slice.getType() == view.getType() &&
          linalgOp.getMatchingIndexingMap(input).isIdentity()) {
        input->set(view);
        replaced.push_back(slice);
      }
    }
  });
  for (Operation *op : replaced)
    if (op->use_empty())
      rewriter.eraseOp(op);
}

/// Rewrites `rotation` so that the new values go into p's buffer and u's
/// buffer becomes p (see the file comment); the loop then yields each
/// iter_arg's value in the other's buffer. `equalFrames`: u and p start
/// from one value, so the frames need not be copied.
void rotate(RewriterBase &rewriter, scf::ForOp loop, Rotation rotation,
            bool equalFrames) {
  Location loc = rotation.update.getLoc();
  Value previous = rotation.previous;
  Value current = rotation.update.getDest();
  // (The shape of both, computed before the loop: allocations of the
  // frame's size can be hoisted out of it.)
  rewriter.setInsertionPoint(loop);
  SmallVector<OpFoldResult> dims = tensor::getMixedSizes(
      rewriter, loc,
      loop.getInitArgs()[cast<BlockArgument>(previous).getArgNumber() - 1]);
  // p's frame, copied before anything writes into p's buffer (its index
  // arithmetic serves the inserts below too).
  rewriter.setInsertionPointToStart(loop.getBody());
  SmallVector<Part> frame;
  if (!equalFrames)
    frame = getFrame(rewriter, loc, dims, rotation.copy);
  SmallVector<Value> previousFrame;
  for (const Part &part : frame) {
    Value slice = extractParts(rewriter, loc, previous, part).front();
    previousFrame.push_back(bufferization::AllocTensorOp::create(
        rewriter, loc, cast<RankedTensorType>(slice.getType()),
        /*dynamicSizes=*/ValueRange(), slice));
  }
  // u' = the new values in p's buffer, u's frame around them.
  rewriter.setInsertionPoint(rotation.update);
  Value newValues = rotation.update.getSource();
  auto intoPrevious = tensor::InsertSliceOp::create(
      rewriter, loc, newValues, previous, rotation.update.getMixedOffsets(),
      rotation.update.getMixedSizes(), rotation.update.getMixedStrides());
  computeInto(rewriter, newValues, intoPrevious);
  Value updated = copyParts(rewriter, loc, current, intoPrevious, frame);
  // p' = u's buffer with p's frame.
  Value kept = insertParts(rewriter, loc, previousFrame, current, frame);
  auto read = rotation.copy.getSource().getDefiningOp();
  rewriter.replaceOp(rotation.update, updated);
  rewriter.replaceOp(rotation.copy, kept);
  if (read->use_empty())
    rewriter.eraseOp(read);
}

/// Gives every iter_arg of `loop` initialized with a value that an earlier
/// iter_arg also starts from its own copy of it. (Both are updated in
/// place; one-shot bufferization would copy each of them, a full pass over
/// memory and a new buffer more than needed.) The copy is made where the
/// value is defined when that is in the loop's block: two arrays created
/// alike (merged by CSE) are copied apart where the program created them,
/// not at the loop's start (e.g. inside a timed region before the loop).
void copyRepeatedInits(RewriterBase &rewriter, scf::ForOp loop) {
  llvm::SmallPtrSet<Value, 8> seen;
  for (OpOperand &init : loop.getInitArgsMutable()) {
    auto type = dyn_cast<RankedTensorType>(init.get().getType());
    if (!type || seen.insert(init.get()).second)
      continue;
    if (init.get().getParentBlock() == loop->getBlock())
      rewriter.setInsertionPointAfterValue(init.get());
    else
      rewriter.setInsertionPoint(loop);
    Value copy = bufferization::AllocTensorOp::create(
        rewriter, loop.getLoc(), type, /*dynamicSizes=*/ValueRange(),
        init.get());
    rewriter.modifyOpInPlace(loop, [&] { init.set(copy); });
  }
}

struct DoubleBufferLoopsPass
    : public imex::impl::DoubleBufferLoopsBase<DoubleBufferLoopsPass> {
  void runOnOperation() override {
    // (Inner loops first: the pass rewrites only ops of the loop it treats.)
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      // Nothing to gain (and no unrolling) unless the step can be doubled.
      if (loop.getStep().getType().isIndex())
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      // Rotated iter_args are yielded in each other's buffers, which the
      // unrolling in doubleBuffer swaps back.
      SmallVector<Rotation> rotations = findRotations(loop);
      if (rotations.empty() && findDoubleBufferedArgs(loop).empty())
        continue;
      auto startAlike = [&](const Rotation &rotation) {
        return loop.getTiedLoopInit(rotation.previous)->get() ==
               loop.getTiedLoopInit(rotation.current)->get();
      };
      SmallVector<bool> equalFrames =
          llvm::map_to_vector(rotations, startAlike);
      copyRepeatedInits(rewriter, loop);
      Operation *original = rotations.empty() ? nullptr : loop->clone();
      for (auto [rotation, equal] : llvm::zip_equal(rotations, equalFrames))
        rotate(rewriter, loop, rotation, equal);
      doubleBuffer(rewriter, loop, findDoubleBufferedArgs(loop), original);
    }
  }

  /// The initial value of the spare of `init` when a single insert,
  /// `update`, writes the array in each iteration: a new tensor holding
  /// `init`'s frame around the slice the insert writes (the first iteration
  /// writes the rest), not a copy of all of `init`.
  static Value buildSpare(RewriterBase &rewriter, scf::ForOp loop, Value init,
                          tensor::InsertSliceOp update) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop);
    Location loc = update.getLoc();
    SmallVector<OpFoldResult> dims = tensor::getMixedSizes(rewriter, loc, init);
    Value spare = tensor::EmptyOp::create(
        rewriter, loc, dims,
        cast<RankedTensorType>(init.getType()).getElementType());
    if (spare.getType() != init.getType())
      spare = tensor::CastOp::create(rewriter, loc, init.getType(), spare);
    SmallVector<Part> frame = getFrame(rewriter, loc, dims, update);
    return copyParts(rewriter, loc, init, spare, frame);
  }

  /// Unrolls `loop` by two and double buffers the iter_args at `args`;
  /// `original` (detached, may be null) is the loop before its rotations.
  void doubleBuffer(RewriterBase &rewriter, scf::ForOp loop,
                    ArrayRef<unsigned> args, Operation *original) {
    FailureOr<UnrolledLoopInfo> unrolled = loopUnrollByFactor(loop, 2);
    if (failed(unrolled) || !unrolled->mainLoopOp) {
      if (original)
        original->erase();
      return;
    }
    scf::ForOp main = *unrolled->mainLoopOp;
    // The chain of each argument now runs through both copies of the body:
    // its first half is the second copy's, ending at the first copy's
    // result. Chains that do not split so (they cannot, being clones) are
    // left alone.
    SmallVector<unsigned> spareArgs;
    SmallVector<OpOperand *> firstRoots, secondRoots;
    SmallVector<Value> inits, firstResults;
    for (unsigned index : args) {
      SmallVector<OpOperand *> chain = findUpdateChain(
          main.getYieldedValues()[index], main.getRegionIterArgs()[index], main,
          /*allowReads=*/true);
      if (chain.empty() || chain.size() % 2)
        continue;
      // Each copy's chain: ghost writes (which stay on the buffer the copy
      // reads), then the updates (which go to the other buffer).
      size_t half = chain.size() / 2;
      std::optional<size_t> updates =
          countUpdates(ArrayRef(chain).take_front(half));
      if (!updates || *updates == 0 ||
          countUpdates(ArrayRef(chain).drop_front(half)) != updates)
        continue;
      OpOperand *first = chain[half + *updates - 1];
      OpOperand *second = chain[*updates - 1];
      spareArgs.push_back(index);
      firstRoots.push_back(first);
      secondRoots.push_back(second);
      // The spare is the buffer the second copy read (after its ghost
      // writes); the second copy updates the one the first copy read.
      firstResults.push_back(second->get());
      Value init = main.getInitArgs()[index];
      auto update = dyn_cast<tensor::InsertSliceOp>(first->getOwner());
      inits.push_back(*updates == 1 && update && update.hasUnitStride()
                          ? buildSpare(rewriter, main, init, update)
                          : init);
    }
    if (!inits.empty())
      addSpares(rewriter, main, unrolled->epilogueLoopOp, spareArgs, firstRoots,
                secondRoots, inits, firstResults);
    if (original)
      runOriginalLast(rewriter,
                      inits.empty() ? unrolled->epilogueLoopOp : std::nullopt,
                      original);
  }

  /// Lets the odd last iteration (`epilogue`, if any, and without spares)
  /// run `original`, the loop before rotation (detached): the rotated body
  /// yields the arrays in each other's buffers, which bufferization copies into
  /// new ones (and the same before the loop, if the epilogue were an scf.if
  /// selecting either buffer); the original body copies u's new values in place
  /// and needs one temporary.
  static void runOriginalLast(RewriterBase &rewriter,
                              std::optional<scf::ForOp> epilogue,
                              Operation *original) {
    auto last = cast<scf::ForOp>(original);
    if (!epilogue) {
      original->erase();
      return;
    }
    rewriter.setInsertionPoint(*epilogue);
    rewriter.insert(last);
    rewriter.modifyOpInPlace(last, [&] {
      last.getLowerBoundMutable().assign(epilogue->getLowerBound());
      last.getInitArgsMutable().assign(epilogue->getInitArgs());
    });
    rewriter.replaceOp(*epilogue, last.getResults());
  }

  /// Adds the spares (initial values `inits`) of the iter_args at `args` to
  /// `main` and lets the first copy of each chain (`firstRoots`) write into
  /// its spare, the second (`secondRoots`) into the array the first read;
  /// then the epilogue computes through the spares.
  static void addSpares(RewriterBase &rewriter, scf::ForOp main,
                        std::optional<scf::ForOp> epilogue,
                        ArrayRef<unsigned> args,
                        ArrayRef<OpOperand *> firstRoots,
                        ArrayRef<OpOperand *> secondRoots,
                        ArrayRef<Value> inits, ArrayRef<Value> firstResults) {
    rewriter.setInsertionPoint(main);
    FailureOr<LoopLikeOpInterface> withSpares =
        cast<LoopLikeOpInterface>(main.getOperation())
            .replaceWithAdditionalYields(
                rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
                [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
                  return llvm::to_vector(firstResults);
                });
    if (failed(withSpares))
      return;
    auto doubled = cast<scf::ForOp>(withSpares->getOperation());
    unsigned numArgs = doubled.getNumRegionIterArgs() - inits.size();
    for (unsigned i = 0, e = firstRoots.size(); i < e; ++i) {
      // The first copy writes into the spare, the second into the
      // argument the first copy read.
      OpOperand *first = firstRoots[i], *second = secondRoots[i];
      Value read = first->get(),
            spare = doubled.getRegionIterArgs()[numArgs + i];
      rewriter.modifyOpInPlace(first->getOwner(), [&] { first->set(spare); });
      rewriter.modifyOpInPlace(second->getOwner(), [&] { second->set(read); });
    }
    if (epilogue)
      updateThroughSpares(rewriter, *epilogue, args,
                          doubled.getResults().drop_front(numArgs));
  }

  /// Lets the epilogue (at most one iteration) compute the single update of
  /// each array at `args` into the array's spare (the main loop's result,
  /// carried as an extra iter_arg) and copy the written elements back: the
  /// values cannot be computed in the array's buffer, which they read, and
  /// the spare's buffer exists and is touched already, while a new
  /// temporary would be allocated and first touched.
  static void updateThroughSpares(RewriterBase &rewriter, scf::ForOp epilogue,
                                  ArrayRef<unsigned> args, ValueRange spares) {
    SmallVector<tensor::InsertSliceOp> updates;
    SmallVector<Value> inits;
    for (auto [index, spare] : llvm::zip_equal(args, spares)) {
      SmallVector<OpOperand *> chain =
          findUpdateChain(epilogue.getYieldedValues()[index],
                          epilogue.getRegionIterArgs()[index], epilogue);
      std::optional<size_t> count = countUpdates(chain);
      auto update = count == 1
                        ? dyn_cast<tensor::InsertSliceOp>(chain[0]->getOwner())
                        : tensor::InsertSliceOp();
      if (!update || !update.hasUnitStride() ||
          update.getSourceType() != update.getSource().getType())
        continue;
      updates.push_back(update);
      inits.push_back(spare);
    }
    if (updates.empty())
      return;
    rewriter.setInsertionPoint(epilogue);
    (void)cast<LoopLikeOpInterface>(epilogue.getOperation())
        .replaceWithAdditionalYields(
            rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &, Location, ArrayRef<BlockArgument> spareArgs) {
              SmallVector<Value> yields;
              for (auto [i, spareArg] : llvm::enumerate(spareArgs)) {
                tensor::InsertSliceOp update = updates[i];
                OpBuilder::InsertionGuard guard(rewriter);
                rewriter.setInsertionPoint(update);
                Location loc = update.getLoc();
                Value values = update.getSource();
                auto intoSpare = tensor::InsertSliceOp::create(
                    rewriter, loc, values, spareArg, update.getMixedOffsets(),
                    update.getMixedSizes(), update.getMixedStrides());
                computeInto(rewriter, values, intoSpare);
                Value written = tensor::ExtractSliceOp::create(
                    rewriter, loc, update.getSourceType(), intoSpare,
                    update.getMixedOffsets(), update.getMixedSizes(),
                    update.getMixedStrides());
                rewriter.modifyOpInPlace(
                    update, [&] { update.getSourceMutable().assign(written); });
                yields.push_back(intoSpare);
              }
              return yields;
            });
  }
};

} // namespace
