//===- GridGhosts.cpp - ghost cells of arrays split over a grid -----------===//
//
// Internal to convert-dist-to-standard. A stencil update of an array split
// over a grid, `u[s] = f(u[s + k1], u[s + k2], ...)` (an insert of a box of
// u computed elementwise from views of u, or of arrays of u's shape and
// distribution, shifted by constants), is computed in the part of the
// slice each rank owns: the views need the owned elements shifted by k,
// i.e. ghost cells of width |k| around each block, which the exchange
// writes in place. This analysis finds these views, the halo each update
// needs of each array it reads, and the ghost cells to allocate with each
// array.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

/// `b - a` if it is known at compile time (equal values: 0).
std::optional<int64_t> getConstantDifference(OpFoldResult a, OpFoldResult b) {
  if (a == b)
    return 0;
  std::optional<int64_t> x = getConstantIntValue(a), y = getConstantIntValue(b);
  if (!x || !y)
    return std::nullopt;
  return *y - *x;
}

/// The global shape of the arrays made by `roots` if they all have one
/// (equal at compile time).
std::optional<SmallVector<OpFoldResult>>
getCommonShape(ArrayRef<dist::InitDistArrayOp> roots) {
  std::optional<SmallVector<OpFoldResult>> shape;
  for (dist::InitDistArrayOp init : roots) {
    SmallVector<OpFoldResult> mine = getAsOpFoldResult(init.getGlobalShape());
    if (!shape)
      shape = mine;
    else if (!llvm::all_of(llvm::zip(*shape, mine), [](auto pair) {
               return getConstantDifference(std::get<0>(pair),
                                            std::get<1>(pair)) == 0;
             }))
      return std::nullopt;
  }
  return shape;
}

/// Whether `base` has the blocks of `dest` (the same partition): it is
/// `dest`, or an array of the same distribution and shape (static, or of
/// arrays created with the same sizes).
bool hasSamePartition(Value base, Value dest) {
  if (lookThroughCasts(base) == lookThroughCasts(dest))
    return true;
  auto a = cast<NDArrayType>(base.getType()),
       b = cast<NDArrayType>(dest.getType());
  if (dist::getDistEnv(a) != dist::getDistEnv(b))
    return false;
  if (a.hasStaticShape() && a.getShape() == b.getShape())
    return true;
  std::optional<SmallVector<dist::InitDistArrayOp>> rootsA =
      dist::getStorageRoots(base);
  std::optional<SmallVector<dist::InitDistArrayOp>> rootsB =
      dist::getStorageRoots(dest);
  if (!rootsA || !rootsB || rootsA->empty() || rootsB->empty())
    return false;
  SmallVector<dist::InitDistArrayOp> all(*rootsA);
  all.append(*rootsB);
  return getCommonShape(all).has_value();
}

void maxInto(SmallVector<int64_t> &into, ArrayRef<int64_t> values) {
  if (into.empty())
    into.assign(values.size(), 0);
  for (auto [a, b] : llvm::zip(into, values))
    a = std::max(a, b);
}

/// Whether the two inserts write the same slice (equal at compile time) of
/// arrays with the same blocks, in one block: each rank owns the same part
/// of both.
bool sameOwnedPart(ImmutableInsertSliceOp a, ImmutableInsertSliceOp b) {
  if (a->getBlock() != b->getBlock() ||
      !hasSamePartition(a.getDestination(), b.getDestination()))
    return false;
  for (auto [x, y] : llvm::zip(
           llvm::concat<OpFoldResult>(a.getMixedOffsets(), a.getMixedSizes()),
           llvm::concat<OpFoldResult>(b.getMixedOffsets(), b.getMixedSizes())))
    if (getConstantDifference(x, y) != 0)
      return false;
  return true;
}

/// Records the views the update `insert` is computed from, as views of the
/// update `part` (`insert` or an earlier one writing the same part).
void analyzeUpdate(ImmutableInsertSliceOp insert, ImmutableInsertSliceOp part,
                   GridGhosts &ghosts) {
  int64_t rank = insert.getType().getRank();
  SmallVector<Value> worklist{insert.getSource()};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != insert->getBlock())
      continue;
    if (isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CastOp>(def)) {
      llvm::append_range(worklist, def->getOperands());
      continue;
    }
    if (!isa<SubviewOp, ExtractSliceOp>(def) || ghosts.alignedViews.count(def))
      continue;
    auto view = cast<OffsetSizeAndStrideOpInterface>(def);
    Value base = def->getOperand(0);
    if (!isGridArray(value.getType()) || !dist::isBoxSlice(view) ||
        !hasSamePartition(base, part.getDestination()))
      continue;
    // Shifted by constants from the slice, of its sizes: it reaches
    // `before` and `after` elements beyond the slice's part; ghost cells
    // along the split axes (every rank holds the others whole).
    SmallVector<int64_t> before(rank, 0), after(rank, 0);
    ArrayRef<int64_t> split = dist::getDistEnv(insert.getType()).getSplit();
    bool shifted = true;
    for (int64_t d = 0; d < rank && shifted; ++d) {
      std::optional<int64_t> shift = getConstantDifference(
          part.getMixedOffsets()[d], view.getMixedOffsets()[d]);
      std::optional<int64_t> size = getConstantDifference(
          part.getMixedSizes()[d], view.getMixedSizes()[d]);
      shifted = shift && size == 0;
      if (shifted) {
        before[d] = std::max<int64_t>(0, -*shift);
        after[d] = std::max<int64_t>(0, *shift);
      }
    }
    // The ghost cells go with the storage of the arrays it is a version of.
    std::optional<SmallVector<dist::InitDistArrayOp>> roots =
        dist::getStorageRoots(base);
    if (!shifted || !roots || roots->empty())
      continue;
    ghosts.alignedViews[def] = part;
    std::pair<Operation *, Value> key{part.getOperation(),
                                      lookThroughCasts(base)};
    auto &halo = ghosts.halos[key];
    if (llvm::count_if(split,
                       [&](int64_t d) { return before[d] + after[d] > 0; }) > 1)
      ghosts.corners.insert(key);
    maxInto(halo.first, before);
    maxInto(halo.second, after);
    for (int64_t d = 0; d < rank; ++d)
      if (!llvm::is_contained(split, d))
        before[d] = after[d] = 0;
    // Aligned views (no shift along a split axis) need no ghost cells: the
    // block stays the argument's buffer, not a copy with margins.
    if (llvm::all_of(split, [&](int64_t d) { return !before[d] && !after[d]; }))
      continue;
    for (dist::InitDistArrayOp init : *roots) {
      auto &margins = ghosts.margins[init.getOperation()];
      maxInto(margins.first, before);
      maxInto(margins.second, after);
      // Ghost cells the caller allocated are kept (and given to the arrays
      // of the same part, unifyMargins: one layout).
      if (std::optional<ArrayRef<int64_t>> spare = init.getSpareRows()) {
        SmallVector<int64_t> spareBefore(rank, 0), spareAfter(rank, 0);
        for (int64_t d : split) {
          spareBefore[d] = (*spare)[0];
          spareAfter[d] = (*spare)[1];
        }
        maxInto(margins.first, spareBefore);
        maxInto(margins.second, spareAfter);
      }
    }
  }
}

/// The arrays written and read by the updates of one part get the same
/// ghost cells: their buffers then have one layout, so that a time loop
/// rotating them (`uprev[c] = u[c]; u[c] = f(u, uprev)`) can swap buffers
/// instead of copying (double-buffer-loops).
void unifyMargins(GridGhosts &ghosts) {
  llvm::MapVector<Operation *, llvm::SetVector<Operation *>> rootsByPart;
  auto addRoots = [&](Operation *part, Value array) {
    if (std::optional<SmallVector<dist::InitDistArrayOp>> roots =
            dist::getStorageRoots(array))
      for (dist::InitDistArrayOp init : *roots)
        rootsByPart[part].insert(init);
  };
  for (auto [insert, part] : ghosts.parts)
    addRoots(part, cast<ImmutableInsertSliceOp>(insert).getDestination());
  for (auto &[key, halo] : ghosts.halos)
    addRoots(key.first, key.second);
  for (auto &[part, roots] : rootsByPart) {
    GridGhosts::Widths widest;
    for (Operation *init : roots)
      if (auto it = ghosts.margins.find(init); it != ghosts.margins.end()) {
        maxInto(widest.first, it->second.first);
        maxInto(widest.second, it->second.second);
      }
    if (widest.first.empty())
      continue;
    for (Operation *init : roots) {
      auto &margins = ghosts.margins[init];
      maxInto(margins.first, widest.first);
      maxInto(margins.second, widest.second);
    }
  }
}

} // namespace

GridGhosts imex::dist::detail::analyzeGridGhosts(Operation *root) {
  GridGhosts ghosts;
  SmallVector<ImmutableInsertSliceOp> parts;
  root->walk([&](ImmutableInsertSliceOp insert) {
    if (!isGridArray(insert.getType()) || !dist::isBoxSlice(insert))
      return;
    // Updates of the same part share it (e.g. `uprev[c] = u[c]; u[c] =
    // f(u, uprev)`: the view u[c] feeds both).
    auto it = llvm::find_if(parts, [&](ImmutableInsertSliceOp part) {
      return sameOwnedPart(part, insert);
    });
    ImmutableInsertSliceOp part = it != parts.end() ? *it : insert;
    if (it == parts.end())
      parts.push_back(insert);
    ghosts.parts[insert] = part;
    analyzeUpdate(insert, part, ghosts);
  });
  unifyMargins(ghosts);
  return ghosts;
}
