//===- ExpandGhostZones.cpp - k steps per halo exchange -------------------===//
//
// A time-step loop of shifted-slice updates of row-distributed arrays
// exchanges halos of h rows every step. With ghost-zone expansion each rank
// instead fetches k*h rows on each side once every k steps and computes the
// k steps on its owned rows widened by the rows later steps still need:
// step j of a block (0-based) computes the rows within (k-1-j)*h of its
// owned block, so that step j+1 finds the h rows around its own widened
// block valid. Every element is computed by the same expression from the
// same inputs as with one exchange per step: the results are bitwise equal.
//
// The loop is matched after ndarray-dist (global semantics, before
// dist-coalesce): its body updates each carried array at most once, by an
// insert of a chain of row-wise ops (elementwise ops, where, element type
// conversions) of views of the carried arrays. The pass emits the blocks of
// k steps on local arrays (ndarray ops on each rank's widened block, with a
// `distruntime.get_halo` per block) in front of the loop and leaves the
// remaining iterations (fewer than k, or all where k is 1) to the loop.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/Dist/Transforms/Passes.h"

#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

namespace imex::dist {
#define GEN_PASS_DEF_DISTEXPANDGHOSTZONES
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace imex::dist

using namespace mlir;
using namespace imex;
using namespace imex::dist;
using namespace imex::ndarray;

namespace {

/// A time-step loop the pass can expand.
struct StencilLoop {
  scf::ForOp loop;
  /// Per carried array, the insert updating it (null: unchanged).
  SmallVector<ImmutableInsertSliceOp> inserts;
  /// Per insert, its stage: 1 + the largest stage of the updates of this
  /// iteration it reads (0: it reads the arrays of the previous iteration
  /// only); `stages` is one more than the largest.
  DenseMap<Operation *, int64_t> stage;
  int64_t stages = 1;
  /// The distribution of every carried array, its split axes and their
  /// extents (all equal: one partition).
  DistEnvAttr env;
  SmallVector<int64_t> split, extents;
  int64_t rank = 0;
  /// The largest distance along a split axis between a written element and
  /// an element read for it.
  int64_t halo = 0;
  /// Row-wise ops per step (for the cost model).
  int64_t opsPerStep = 0;
  /// Elements per unit of width along a split axis (a row of a row split,
  /// the longest edge of a grid block), of the widest carried array.
  int64_t rowElements = 1;
};

/// The index of the carried array `value` is (through casts), if any.
std::optional<unsigned> carriedIndex(scf::ForOp loop, Value value) {
  auto arg = dyn_cast<BlockArgument>(lookThroughCasts(value));
  if (!arg || arg.getOwner() != loop.getBody() || arg.getArgNumber() == 0)
    return std::nullopt;
  return arg.getArgNumber() - 1;
}

/// The offsets (static) and sizes (static or values defined outside
/// `loop`) along the split axes of a box view or insert.
std::optional<std::pair<SmallVector<int64_t>, SmallVector<OpFoldResult>>>
getBox(OffsetSizeAndStrideOpInterface slice, ArrayRef<int64_t> split,
       scf::ForOp loop) {
  if (!isBoxSlice(slice))
    return std::nullopt;
  SmallVector<int64_t> offsets;
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : split) {
    std::optional<int64_t> offset =
        getConstantIntValue(slice.getMixedOffsets()[d]);
    OpFoldResult size = slice.getMixedSizes()[d];
    if (!offset ||
        (isa<Value>(size) && !loop.isDefinedOutsideOfLoop(cast<Value>(size))))
      return std::nullopt;
    offsets.push_back(*offset);
    sizes.push_back(size);
  }
  return std::make_pair(offsets, sizes);
}

/// Whether `op` may be computed again: no effects but allocating its
/// results (a scalar wrapped in a 0-d array).
bool isClonable(Operation *op) {
  if (isMemoryEffectFree(op))
    return true;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> list;
  effects.getEffects(list);
  return llvm::all_of(list, [](const MemoryEffects::EffectInstance &effect) {
    return isa<MemoryEffects::Allocate>(effect.getEffect());
  });
}

/// Checks the cone of values an update reads (row-wise ops of views of the
/// carried arrays, values from outside the loop and side-effect free scalar
/// computations) and records the ops and the halo it needs.
class ConeChecker {
public:
  ConeChecker(StencilLoop &plan, DenseSet<Operation *> &allowed)
      : plan(plan), allowed(allowed) {}

  /// `value` feeds an update writing the box `written` (offsets, sizes
  /// along the split axes); empty for index operands.
  bool check(Value value, ArrayRef<int64_t> offsets,
             ArrayRef<OpFoldResult> sizes) {
    if (!plan.loop.getBody()->getParent()->isAncestor(value.getParentRegion()))
      return true; // defined outside the loop
    if (!isDist(value.getType()))
      return checkScalar(value);
    Operation *def = value.getDefiningOp();
    if (!def || sizes.empty())
      return false; // a carried array read whole: not a shifted view
    auto type = cast<NDArrayType>(value.getType());
    // (Static sizes along the split axes are the update's; dynamic ones
    // are checked at the views the value is computed from.)
    bool aligned = type.getRank() == plan.rank;
    for (auto [i, d] : llvm::enumerate(plan.split))
      aligned =
          aligned && (type.isDynamicDim(d) ||
                      getConstantIntValue(sizes[i]) == type.getDimSize(d));
    if (!aligned)
      return isa<CastOp>(def) && check(def->getOperand(0), offsets, sizes);
    allowed.insert(def);
    if (isa<CastOp, RepartitionOp, LocalRepartitionOp>(def))
      return check(def->getOperand(0), offsets, sizes);
    if (isa<ExtractSliceOp, SubviewOp>(def)) {
      auto slice = cast<OffsetSizeAndStrideOpInterface>(def);
      auto box = getBox(slice, plan.split, plan.loop);
      if (!box ||
          cast<NDArrayType>(def->getOperand(0).getType()).getRank() !=
              type.getRank() ||
          !llvm::all_of(llvm::zip(box->second, sizes), [](auto pair) {
            return isEqualConstantIntOrValue(std::get<0>(pair),
                                             std::get<1>(pair));
          }))
        return false;
      // A view of a carried array, or of an update earlier in the body.
      if (!carriedIndex(plan.loop, def->getOperand(0))) {
        Operation *update =
            lookThroughCasts(def->getOperand(0)).getDefiningOp();
        auto it = plan.stage.find(update);
        if (it == plan.stage.end())
          return false;
        stage = std::max(stage, it->second + 1);
      }
      for (auto [read, written] : llvm::zip(box->first, offsets))
        plan.halo = std::max(plan.halo, std::abs(read - written));
      for (Value operand : def->getOperands().drop_front())
        if (!check(operand, {}, {}))
          return false;
      return true;
    }
    if (!isRowwise(def))
      return false;
    ++plan.opsPerStep;
    for (Value operand : def->getOperands()) {
      // A replicated operand broadcasts along the split axes (numpy aligns
      // trailing dimensions): size 1 there or fewer dimensions.
      auto other = dyn_cast<NDArrayType>(operand.getType());
      if (other && !isDist(other))
        for (int64_t d : plan.split) {
          int64_t at = d - (plan.rank - other.getRank());
          if (at >= 0 && (other.isDynamicDim(at) || other.getDimSize(at) != 1))
            return false;
        }
      if (!check(operand, offsets, sizes))
        return false;
    }
    return true;
  }

private:
  bool checkScalar(Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isClonable(def))
      return false;
    allowed.insert(def);
    for (Value operand : def->getOperands())
      if (!check(operand, {}, {}))
        return false;
    return true;
  }

public:
  /// The stage of the update whose cone is checked.
  int64_t stage = 0;

private:
  StencilLoop &plan;
  DenseSet<Operation *> &allowed;
};

std::optional<StencilLoop> matchStencilLoop(scf::ForOp loop) {
  StencilLoop plan;
  plan.loop = loop;
  if (loop.getNumRegionIterArgs() == 0 || !loop.getInductionVar().use_empty())
    return std::nullopt;
  for (BlockArgument arg : loop.getRegionIterArgs()) {
    auto type = dyn_cast<NDArrayType>(arg.getType());
    DistEnvAttr env = type ? getDistEnv(type) : DistEnvAttr();
    if (!env || type.getRank() == 0 || (plan.env && env != plan.env))
      return std::nullopt;
    SmallVector<int64_t> extents;
    for (int64_t d : env.getSplit())
      extents.push_back(type.getDimSize(d));
    if (plan.env && extents != plan.extents)
      return std::nullopt;
    plan.env = env;
    plan.split.assign(env.getSplit().begin(), env.getSplit().end());
    plan.extents = extents;
    if (plan.rank && plan.rank != type.getRank())
      return std::nullopt;
    plan.rank = type.getRank();
    // (The elements of a widest face of the global array: an upper bound
    // of a block's, whose extents are known at run time only; 1024 per
    // dynamic size.)
    int64_t elements = 1, shortest = std::numeric_limits<int64_t>::max();
    for (int64_t d = 0; d < type.getRank(); ++d) {
      int64_t size = type.isDynamicDim(d) ? 1024 : type.getDimSize(d);
      elements *= size;
      if (llvm::is_contained(plan.split, d))
        shortest = std::min(shortest, size);
    }
    plan.rowElements =
        std::max(plan.rowElements, elements / std::max<int64_t>(shortest, 1));
  }

  DenseSet<Operation *> allowed;
  ConeChecker cone(plan, allowed);
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<ImmutableInsertSliceOp> updates;
  for (auto [index, yielded] : llvm::enumerate(yield.getOperands())) {
    Value value = lookThroughCasts(yielded);
    if (carriedIndex(loop, value) == index) {
      plan.inserts.push_back(nullptr);
      continue;
    }
    // (The written box is loop-invariant: the buffers' frames are copied
    // before the steps.)
    auto insert = value.getDefiningOp<ImmutableInsertSliceOp>();
    if (!insert || carriedIndex(loop, insert.getDestination()) != index ||
        !llvm::all_of(insert->getOperands().drop_front(2),
                      [&](Value v) { return loop.isDefinedOutsideOfLoop(v); }))
      return std::nullopt;
    plan.inserts.push_back(insert);
    updates.push_back(insert);
  }
  // (In body order: the stages of the updates an update reads are known.)
  llvm::sort(updates, [](ImmutableInsertSliceOp a, ImmutableInsertSliceOp b) {
    return a->isBeforeInBlock(b);
  });
  for (ImmutableInsertSliceOp insert : updates) {
    auto box = getBox(insert, plan.split, loop);
    cone.stage = 0;
    if (!box || !cone.check(insert.getSource(), box->first, box->second))
      return std::nullopt;
    for (Value operand : insert->getOperands().drop_front(2))
      if (!cone.check(operand, {}, {}))
        return std::nullopt;
    allowed.insert(insert);
    plan.stage[insert] = cone.stage;
    plan.stages = std::max(plan.stages, cone.stage + 1);
  }
  if (plan.halo == 0)
    return std::nullopt; // no communication to save
  // Nothing else may happen in the body: casts of the carried arrays, the
  // index computations of ndarray-dist, the cones and the inserts.
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (allowed.contains(&op) || isa<LocalTargetOfSliceOp>(op))
      continue;
    // (Casts of the carried arrays and of their updates.)
    if (auto cast = dyn_cast<CastOp>(op)) {
      Value root = lookThroughCasts(cast);
      if (carriedIndex(loop, root) || allowed.contains(root.getDefiningOp()))
        continue;
    }
    if (op.getNumRegions() == 0 && isClonable(&op) &&
        llvm::none_of(op.getResultTypes(), isDist))
      continue; // unused or only feeding the ops above
    return std::nullopt;
  }
  return plan;
}

/// Emits the blocks of k steps for one matched loop.
class Expander {
public:
  Expander(StencilLoop &plan, int64_t depth)
      : plan(plan), depth(depth), b(plan.loop), loc(plan.loop.getLoc()),
        m(b, loc) {}

  void run();

private:
  Value index(OpFoldResult value) {
    return getValueOrCreateConstantIndexOp(b, loc, value);
  }
  OpFoldResult c(int64_t value) { return b.getIndexAttr(value); }
  /// Position of split axis `d` in plan.split, if split.
  std::optional<unsigned> splitIndex(int64_t d) const {
    auto it = llvm::find(plan.split, d);
    if (it == plan.split.end())
      return std::nullopt;
    return it - plan.split.begin();
  }

  /// One step reading the widened blocks `from` and writing the updated
  /// elements into `into`: those within `widen` of the owned block along
  /// every split axis.
  SmallVector<Value> emitStep(ValueRange from, ValueRange into, Value widen);
  /// The elements `[first, first + count)` along the split axes (view
  /// coordinates of the update's slice; other axes whole) of `value`, a
  /// value of an update's cone, as a local array.
  Value localize(Value value, ValueRange from, IRMapping &mapping,
                 ArrayRef<OpFoldResult> first, ArrayRef<OpFoldResult> count);
  /// The owned block of `array`'s widened buffer `buffer`, as a view.
  Value ownedView(Value buffer, unsigned array);

  StencilLoop &plan;
  /// Steps per exchange at most (even); fewer where blocks are small.
  int64_t depth;
  OpBuilder b;
  Location loc;
  IndexMath m;
  /// Per split axis: this rank's owned block [owned, owned + count) and the
  /// global index of index 0 of the widened buffers.
  SmallVector<OpFoldResult> owned, count, base;
  /// The global extents of the carried arrays along the split axes.
  SmallVector<OpFoldResult> extents;
  /// The owned blocks of the carried arrays when the blocks start.
  SmallVector<Value> blocks;
  /// While a step is emitted: the local versions the updates emitted so far
  /// made (by insert of the loop body).
  DenseMap<Operation *, Value> updated;
  int64_t frame = 0;
};

Value Expander::localize(Value value, ValueRange from, IRMapping &mapping,
                         ArrayRef<OpFoldResult> first,
                         ArrayRef<OpFoldResult> count) {
  if (Value known = mapping.lookupOrNull(value))
    return known;
  if (!plan.loop.getBody()->getParent()->isAncestor(value.getParentRegion()))
    return value;
  Operation *def = value.getDefiningOp();
  Value result;
  if (!isDist(value.getType())) {
    for (Value operand : def->getOperands())
      localize(operand, from, mapping, first, count);
    Operation *copy = b.clone(*def, mapping);
    result = copy->getResult(cast<OpResult>(value).getResultNumber());
  } else if (isa<CastOp, RepartitionOp, LocalRepartitionOp>(def)) {
    result = localize(def->getOperand(0), from, mapping, first, count);
  } else if (isa<ExtractSliceOp, SubviewOp>(def)) {
    auto slice = cast<OffsetSizeAndStrideOpInterface>(def);
    // (The previous iteration's array, or this iteration's update.)
    std::optional<unsigned> carried =
        carriedIndex(plan.loop, def->getOperand(0));
    Value buffer =
        carried ? from[*carried]
                : updated.lookup(
                      lookThroughCasts(def->getOperand(0)).getDefiningOp());
    auto mixed = [&](ArrayRef<OpFoldResult> list) {
      SmallVector<OpFoldResult> out;
      for (OpFoldResult entry : list)
        out.push_back(isa<Value>(entry)
                          ? OpFoldResult(localize(cast<Value>(entry), from,
                                                  mapping, first, count))
                          : entry);
      return out;
    };
    SmallVector<OpFoldResult> offsets = mixed(slice.getMixedOffsets());
    SmallVector<OpFoldResult> sizes = mixed(slice.getMixedSizes());
    SmallVector<OpFoldResult> strides = mixed(slice.getMixedStrides());
    for (auto [i, d] : llvm::enumerate(plan.split)) {
      offsets[d] = m.sub(m.add(offsets[d], first[i]), base[i]);
      sizes[d] = count[i];
    }
    result = ExtractSliceOp::create(
        b, loc, getLocalType(cast<NDArrayType>(value.getType())), buffer,
        offsets, sizes, strides);
  } else {
    // A row-wise op: the same op on the same elements of its operands.
    SmallVector<Value> operands;
    for (Value operand : def->getOperands())
      operands.push_back(localize(operand, from, mapping, first, count));
    Operation *copy = b.clone(*def);
    copy->setOperands(operands);
    for (OpResult res : copy->getResults())
      res.setType(getLocalType(cast<NDArrayType>(res.getType())));
    result = copy->getResult(cast<OpResult>(value).getResultNumber());
  }
  // Every localized array has its local type (casts in the cone only
  // changed static sizes).
  if (auto type = dyn_cast<NDArrayType>(value.getType());
      type && isDist(type) && result.getType() != getLocalType(type))
    result = CastOp::create(b, loc, getLocalType(type), result);
  mapping.map(value, result);
  return result;
}

SmallVector<Value> Expander::emitStep(ValueRange from, ValueRange into,
                                      Value widen) {
  SmallVector<Value> out(into);
  updated.clear();
  SmallVector<std::pair<unsigned, ImmutableInsertSliceOp>> order;
  for (auto [index, insert] : llvm::enumerate(plan.inserts))
    if (insert)
      order.push_back({static_cast<unsigned>(index), insert});
  llvm::sort(order, [](auto &a, auto &b) {
    return a.second->isBeforeInBlock(b.second);
  });
  for (auto [index, insert] : order) {
    auto [offsets0, sizes0] = *getBox(insert, plan.split, plan.loop);
    // The update's elements whose base elements lie in the owned block
    // widened by what the later stages of the block still read.
    OpFoldResult reach = m.sub(widen, c(plan.stage.lookup(insert) * plan.halo));
    SmallVector<OpFoldResult> first, extent;
    for (unsigned i = 0; i < plan.split.size(); ++i) {
      OpFoldResult lo = m.clamp(m.sub(m.sub(owned[i], reach), c(offsets0[i])),
                                c(0), sizes0[i]);
      OpFoldResult hi = m.clamp(
          m.sub(m.add(m.add(owned[i], count[i]), reach), c(offsets0[i])), lo,
          sizes0[i]);
      first.push_back(lo);
      extent.push_back(m.sub(hi, lo));
    }
    IRMapping mapping;
    Value values = localize(insert.getSource(), from, mapping, first, extent);
    SmallVector<OpFoldResult> offsets = insert.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    for (auto *list : {&offsets, &sizes})
      for (OpFoldResult &entry : *list)
        if (auto v = dyn_cast<Value>(entry))
          entry = localize(v, from, mapping, first, extent);
    for (auto [i, d] : llvm::enumerate(plan.split)) {
      offsets[d] = m.sub(m.add(c(offsets0[i]), first[i]), base[i]);
      sizes[d] = extent[i];
    }
    SmallVector<OpFoldResult> ones(offsets.size(), c(1));
    out[index] = ImmutableInsertSliceOp::create(b, loc, values, into[index],
                                                offsets, sizes, ones);
    updated[insert] = out[index];
  }
  return out;
}

Value Expander::ownedView(Value buffer, unsigned array) {
  auto type = cast<NDArrayType>(blocks[array].getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, c(0)), sizes, ones(rank, c(1));
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(getDimSize(b, loc, blocks[array], d));
    if (splitIndex(d))
      offsets[d] = c(frame);
  }
  return SubviewOp::create(b, loc, type, buffer, offsets, sizes, ones);
}

void Expander::run() {
  scf::ForOp loop = plan.loop;
  int64_t h = plan.halo;
  int64_t team = plan.env.getTeam();
  unsigned axes = plan.split.size();
  // (Each step shrinks the valid block by h per stage.)
  int64_t shrink = h * plan.stages;
  frame = (depth & ~int64_t(1)) * shrink;

  // k: even (the steps alternate between two buffers) and at most the
  // extent of the smallest block per halo along every split axis (halos
  // from the neighbours only); 0 on one rank, where nothing is exchanged.
  Value ranks = createTeamSize(b, loc, team);
  OpFoldResult k = c(depth & ~int64_t(1));
  // The global extents along the split axes; arrays of dynamic sizes that
  // differ at run time (other partitions) run the loop alone.
  ValueRange initArgs = loop.getInitArgs();
  for (int64_t d : plan.split)
    extents.push_back(getDimSize(b, loc, initArgs.front(), d));
  for (Value other : initArgs.drop_front())
    for (auto [i, d] : llvm::enumerate(plan.split))
      if (!isEqualConstantIntOrValue(extents[i], getDimSize(b, loc, other, d)))
        k = m.select(arith::CmpIPredicate::eq, extents[i],
                     getDimSize(b, loc, other, d), k, c(0));
  ArrayRef<int64_t> grid = plan.env.getGrid();
  for (unsigned i = 0; i < axes; ++i) {
    OpFoldResult ranksAlong =
        axes == 1 ? OpFoldResult(ranks)
        : !grid.empty()
            ? c(grid[i])
            : OpFoldResult(distruntime::GridDimOp::create(b, loc, team, axes, i)
                               .getResult());
    OpFoldResult perRank =
        m.div(m.div(extents[i], m.max(ranksAlong, c(1))), c(shrink));
    k = m.min(k, m.mul(m.div(perRank, c(2)), c(2)));
  }
  k = m.select(arith::CmpIPredicate::sgt, ranks, c(1), k, c(0));
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();
  OpFoldResult iterations = m.select(
      arith::CmpIPredicate::sgt, ub, lb,
      [&] { return m.ceilDiv(m.sub(ub, lb), step); }, [&] { return c(0); });
  OpFoldResult blocksToRun = m.select(
      arith::CmpIPredicate::sge, k, c(2),
      [&] { return m.div(iterations, m.max(k, c(1))); }, [&] { return c(0); });
  // The loop runs the iterations that do not fill a block first (all of
  // them where k < 2, unchanged), the blocks continue from its results.
  OpFoldResult remaining = m.sub(iterations, m.mul(blocksToRun, k));
  loop.getUpperBoundMutable().assign(index(m.add(lb, m.mul(remaining, step))));
  // (Only where blocks run: one rank, or a loop too short for a block, runs
  // the loop alone, without the buffers' copies.)
  b.setInsertionPointAfter(loop);
  ValueRange inits = loop.getResults();
  unsigned n = inits.size();
  Value anyBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt,
                                         index(blocksToRun), index(c(0)));
  auto ifOp = scf::IfOp::create(b, loc, loop.getResultTypes(), anyBlock,
                                /*withElseRegion=*/true);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, inits);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());

  // This rank's block (all carried arrays share the partition).
  auto offsetsOf = LocalOffsetsOfOp::create(b, loc, inits.front());
  for (Value init : inits)
    blocks.push_back(OwnedBlockOfOp::create(b, loc, init));
  for (int64_t d : plan.split) {
    owned.push_back(offsetsOf.getResult(d));
    count.push_back(getDimSize(b, loc, blocks.front(), d));
    base.push_back(m.sub(owned.back(), c(frame)));
  }

  // Two widened buffers per carried array, the block at `frame` along the
  // split axes. The second needs only the block's elements its update
  // never writes (the first step writes the others before they are read).
  SmallVector<Value> buffers[2];
  for (unsigned a = 0; a < blocks.size(); ++a) {
    Value block = blocks[a];
    auto localType = cast<NDArrayType>(block.getType());
    int64_t rank = localType.getRank();
    SmallVector<Value> dynamicSizes;
    SmallVector<OpFoldResult> sizes, offsets, ones(rank, c(1));
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult size = getDimSize(b, loc, block, d);
      sizes.push_back(size);
      offsets.push_back(c(splitIndex(d) ? frame : 0));
      if (localType.isDynamicDim(d))
        dynamicSizes.push_back(
            index(splitIndex(d) ? m.add(size, c(2 * frame)) : size));
    }
    auto placeBox = [&](Value into, ArrayRef<OpFoldResult> first,
                        ArrayRef<OpFoldResult> extent) {
      SmallVector<OpFoldResult> at(first);
      for (int64_t d = 0; d < rank; ++d)
        if (splitIndex(d))
          at[d] = m.add(at[d], c(frame));
      SmallVector<int64_t> shape;
      for (OpFoldResult size : extent)
        shape.push_back(
            getConstantIntValue(size).value_or(ShapedType::kDynamic));
      Value part = ExtractSliceOp::create(
          b, loc, localType.cloneWith(shape, localType.getElementType()), block,
          first, extent, ones);
      return ImmutableInsertSliceOp::create(b, loc, part, into, at, extent,
                                            ones);
    };
    Value x = CreateOp::create(b, loc, localType, dynamicSizes, Value());
    buffers[0].push_back(
        ImmutableInsertSliceOp::create(b, loc, block, x, offsets, sizes, ones));
    Value y = CreateOp::create(b, loc, localType, dynamicSizes, Value());
    ImmutableInsertSliceOp insert = plan.inserts[a];
    if (!insert) {
      buffers[1].push_back(ImmutableInsertSliceOp::create(
          b, loc, block, y, offsets, sizes, ones));
      continue;
    }
    // The written box in block coordinates, [lo, hi) per dimension; the
    // block outside it is 2 boxes per dimension (before and after along d,
    // within the written box along the dimensions before d).
    SmallVector<OpFoldResult> lo, hi;
    for (int64_t d = 0; d < rank; ++d) {
      OpFoldResult offset = insert.getMixedOffsets()[d];
      OpFoldResult size = insert.getMixedSizes()[d];
      if (std::optional<unsigned> i = splitIndex(d))
        offset = m.sub(offset, owned[*i]);
      lo.push_back(m.clamp(offset, c(0), sizes[d]));
      hi.push_back(m.clamp(m.add(offset, size), lo.back(), sizes[d]));
    }
    for (int64_t d = 0; d < rank; ++d) {
      SmallVector<OpFoldResult> first(rank, c(0)), extent(sizes);
      for (int64_t e = 0; e < d; ++e) {
        first[e] = lo[e];
        extent[e] = m.sub(hi[e], lo[e]);
      }
      extent[d] = lo[d];
      y = placeBox(y, first, extent);
      first[d] = hi[d];
      extent[d] = m.sub(sizes[d], hi[d]);
      y = placeBox(y, first, extent);
    }
    buffers[1].push_back(y);
  }

  SmallVector<Value> carried(buffers[0]);
  carried.append(buffers[1]);
  auto outer = scf::ForOp::create(b, loc, index(c(0)), index(blocksToRun),
                                  index(c(1)), carried);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outer.getBody());
    ValueRange args = outer.getRegionIterArgs();
    SmallVector<Value> x(args.take_front(n)), y(args.drop_front(n));
    // One exchange of k*h elements around the block along every split
    // axis: the 3^axes - 1 boxes of the widened block around the owned one
    // (faces, edges, corners; empty at the array's bounds).
    OpFoldResult width = m.mul(k, c(shrink));
    SmallVector<std::array<OpFoldResult, 3>> segmentFirst, segmentSize;
    for (unsigned i = 0; i < axes; ++i) {
      OpFoldResult before = m.max(m.sub(owned[i], width), c(0));
      OpFoldResult end = m.add(owned[i], count[i]);
      OpFoldResult after = m.min(m.add(end, width), extents[i]);
      segmentFirst.push_back({before, owned[i], end});
      segmentSize.push_back(
          {m.sub(owned[i], before), count[i], m.sub(after, end)});
    }
    unsigned boxes = 1;
    for (unsigned i = 0; i < axes; ++i)
      boxes *= 3;
    for (unsigned a = 0; a < n; ++a) {
      auto type = cast<NDArrayType>(blocks[a].getType());
      int64_t rank = type.getRank();
      Value ownedRows = ownedView(x[a], a);
      SmallVector<Value> shape, local, boxOffsets, boxSizes;
      SmallVector<SmallVector<OpFoldResult>> at;
      SmallVector<Type> types;
      for (int64_t d = 0; d < rank; ++d) {
        shape.push_back(index(getDimSize(b, loc, initArgs[a], d)));
        std::optional<unsigned> i = splitIndex(d);
        local.push_back(index(i ? owned[*i] : c(0)));
      }
      for (unsigned box = 0; box < boxes; ++box) {
        if (box == (boxes - 1) / 2)
          continue; // the owned block (all segments 1)
        SmallVector<OpFoldResult> position(rank, c(0));
        for (int64_t d = 0; d < rank; ++d) {
          std::optional<unsigned> i = splitIndex(d);
          if (!i) {
            boxOffsets.push_back(index(c(0)));
            boxSizes.push_back(index(getDimSize(b, loc, blocks[a], d)));
            continue;
          }
          // (Axis i's segment is digit i of `box` in base 3, the first
          // split axis most significant.)
          unsigned digit = box;
          for (unsigned j = *i + 1; j < axes; ++j)
            digit /= 3;
          digit %= 3;
          boxOffsets.push_back(index(segmentFirst[*i][digit]));
          boxSizes.push_back(index(segmentSize[*i][digit]));
          position[d] = m.sub(segmentFirst[*i][digit], base[*i]);
        }
        at.push_back(position);
        types.push_back(type);
      }
      Value handle;
      SmallVector<Value> waited{ownedRows};
      if (plan.split == ArrayRef<int64_t>{0}) {
        // Rows: the halo exchange of the rows before and after the block
        // (the neighbours' rows, as every step's exchange).
        SmallVector<Value> boxFirst(boxOffsets.begin(),
                                    boxOffsets.begin() + rank);
        SmallVector<Value> boxExtent(boxSizes.begin(), boxSizes.begin() + rank);
        boxExtent[0] =
            index(m.add(m.add(segmentSize[0][0], count[0]), segmentSize[0][2]));
        auto halo =
            distruntime::GetHaloOp::create(b, loc, type, type, ownedRows, shape,
                                           local, boxFirst, boxExtent, team);
        handle = halo.getHandle();
        waited.append({halo.getLhalo(), halo.getRhalo()});
      } else {
        auto fetch = distruntime::FetchBoxesOp::create(
            b, loc, types, ownedRows, shape, local, boxOffsets, boxSizes, team);
        handle = fetch.getHandle();
        waited.append(fetch.getOutputs().begin(), fetch.getOutputs().end());
      }
      auto wait = distruntime::WaitOp::create(b, loc, handle, waited);
      for (auto [received, position] :
           llvm::zip(wait.getResults().drop_front(), at)) {
        SmallVector<OpFoldResult> sizes, ones(rank, c(1));
        for (int64_t d = 0; d < rank; ++d)
          sizes.push_back(getDimSize(b, loc, received, d));
        x[a] = ImmutableInsertSliceOp::create(b, loc, received, x[a], position,
                                              sizes, ones);
        y[a] = ImmutableInsertSliceOp::create(b, loc, received, y[a], position,
                                              sizes, ones);
      }
    }
    // k steps in pairs, x -> y -> x, the widened block shrinking by S h
    // per step.
    SmallVector<Value> pair(x);
    pair.append(y);
    auto inner = scf::ForOp::create(b, loc, index(c(0)), index(m.div(k, c(2))),
                                    index(c(1)), pair);
    scf::YieldOp::create(b, loc, inner.getResults());
    b.setInsertionPointToStart(inner.getBody());
    ValueRange bufs = inner.getRegionIterArgs();
    SmallVector<Value> xs(bufs.take_front(n)), ys(bufs.drop_front(n));
    // Step 2p computes the elements within (k - 1 - 2p) S h + (S - 1 - s) h
    // of the owned block at stage s (S stages), step 2p + 1 S h less.
    OpFoldResult widen =
        m.add(m.mul(m.sub(m.sub(k, c(1)), m.mul(inner.getInductionVar(), c(2))),
                    c(shrink)),
              c(shrink - h));
    SmallVector<Value> y1 = emitStep(xs, ys, index(widen));
    SmallVector<Value> x1 = emitStep(y1, xs, index(m.sub(widen, c(shrink))));
    SmallVector<Value> next(x1);
    next.append(y1);
    scf::YieldOp::create(b, loc, next);
  }

  // The arrays after the blocks, each block keeping its buffer's frame as
  // spare elements (later exchanges receive into them).
  SmallVector<Value> arrays;
  for (unsigned a = 0; a < n; ++a) {
    auto type = cast<NDArrayType>(blocks[a].getType());
    SmallVector<Value> globalOffsets, shape;
    for (int64_t d = 0; d < type.getRank(); ++d) {
      std::optional<unsigned> i = splitIndex(d);
      globalOffsets.push_back(index(i ? owned[*i] : c(0)));
      shape.push_back(index(getDimSize(b, loc, initArgs[a], d)));
    }
    arrays.push_back(InitDistArrayOp::create(
        b, loc, inits[a].getType(), ownedView(outer.getResult(a), a),
        globalOffsets, shape, b.getDenseI64ArrayAttr({frame, frame})));
  }
  scf::YieldOp::create(b, loc, arrays);
  for (auto [before, after] : llvm::zip(inits, ifOp.getResults()))
    before.replaceUsesWithIf(after, [&](OpOperand &use) {
      return !ifOp->isAncestor(use.getOwner());
    });
}

struct DistExpandGhostZonesPass
    : public imex::dist::impl::DistExpandGhostZonesBase<
          DistExpandGhostZonesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      std::optional<StencilLoop> plan = matchStencilLoop(loop);
      if (!plan)
        continue;
      int64_t limit = std::max<int64_t>(maxDepth, depth);
      int64_t k = depth;
      if (k <= 0) {
        // Per step: a k-th of the exchange against S h (k - 1) more rows
        // computed (S stages); optimal at k = sqrt(exchange / (S h row
        // cost)).
        double rowCost = elementCostNs * 1e-3 * plan->rowElements *
                         std::max<int64_t>(plan->opsPerStep, 1);
        k = static_cast<int64_t>(
            std::sqrt(exchangeCostUs / (plan->halo * plan->stages * rowCost)));
      }
      k = std::clamp<int64_t>(k, 1, limit);
      if (k < 2)
        continue;
      Expander(*plan, k).run();
    }
  }
};

} // namespace
