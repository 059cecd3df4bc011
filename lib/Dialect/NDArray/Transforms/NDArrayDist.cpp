//===- NDArrayDist.cpp - distribute arrays created on a team --------------===//
//
// Gives arrays created with a `dist.team` attribute a `#dist.dist_env` type,
// propagates distribution through the program and inserts the `dist` ops the
// distributed operations need: repartitions that align the operands of
// elementwise ops and inserts, gathers for reads of single elements and for
// operations without a distributed lowering.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/NDArray/Transforms/Passes.h"

#include "DistributeOps.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace imex::ndarray {
#define GEN_PASS_DEF_NDARRAYDIST
#include "imex/Dialect/NDArray/Transforms/Passes.h.inc"
} // namespace imex::ndarray

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::detail;

namespace {

constexpr llvm::StringLiteral kTeamAttrName = "dist.team";

//===----------------------------------------------------------------------===//
// Which results are distributed
//===----------------------------------------------------------------------===//

/// Whether convert-dist-to-standard computes `op` on the local parts of its
/// distributed operands. Every other op with distributed operands is
/// computed on gathered (replicated) operands and its result distributed
/// again: correct for any op, at the price of communicating whole arrays.
bool hasDistributedLowering(Operation *op) {
  if (isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CastOp, CopyOp,
          ImmutableInsertSliceOp, InsertSliceOp, DimOp, ReductionOp,
          ArgReduceOp, SearchSortedOp, PermuteDimsOp, LoadOp, ToTensorOp>(op))
    return true;
  if (isa<SubviewOp, ExtractSliceOp>(op))
    return !dist::dropsSplitDimension(op);
  if (auto reshape = dyn_cast<ReshapeOp>(op))
    return reshape.getType().getRank() > 0;
  // Unit dimensions added or removed after dimension 0: each rank's block
  // keeps its rows.
  if (auto expand = dyn_cast<ExpandDimsOp>(op))
    return !llvm::is_contained(expand.getAxes(), 0);
  if (auto squeeze = dyn_cast<SqueezeOp>(op))
    return !llvm::is_contained(squeeze.getAxes(), 0);
  // broadcast_to that keeps dimension 0 (same rank, a static source size
  // that is not broadcast): each rank broadcasts its rows.
  if (auto broadcast = dyn_cast<BroadcastToOp>(op)) {
    auto source = cast<NDArrayType>(broadcast.getSource().getType());
    NDArrayType result = broadcast.getType();
    return source.getRank() == result.getRank() && source.getRank() > 0 &&
           !source.isDynamicDim(0) &&
           (source.getDimSize(0) != 1 || result.getDimSize(0) == 1);
  }
  if (auto concat = dyn_cast<ConcatOp>(op))
    return concat.getAxis() != 0;
  if (auto flip = dyn_cast<FlipOp>(op))
    return !llvm::is_contained(flip.getAxes(), 0);
  // Sorts: along other axes local, 1-d arrays by a sample sort (n-d arrays
  // along dimension 0: sortThroughTranspose).
  if (isa<SortOp, ArgSortOp>(op))
    return true;
  // Along dimension 0 with include_initial: split by splitInitialRow.
  if (auto scan = dyn_cast<CumulativeOp>(op))
    return scan.getAxis() != 0 || !scan.getIncludeInitial();
  return false;
}

/// The team of the distributed array operands of `op`, or 0.
int64_t getOperandTeam(Operation *op) {
  for (Value operand : op->getOperands())
    if (auto env = dist::getDistEnv(operand.getType()))
      return env.getTeam();
  return 0;
}

/// Whether result `result` of `op`, whose operands are distributed on a
/// team, is distributed too (rather than replicated).
bool isDistributedResult(OpResult result) {
  Operation *op = result.getOwner();
  if (!isa<NDArrayType>(result.getType()))
    return false;
  if (auto reduction = dyn_cast<ReductionOp>(op))
    return !llvm::is_contained(reduction.getReducedAxes(), 0);
  if (auto reduction = dyn_cast<ArgReduceOp>(op))
    return !llvm::is_contained(reduction.getReducedAxes(), 0);
  // Split like the values when the sorted array is replicated; replicated
  // (counts summed over the ranks) when it is split.
  if (auto search = dyn_cast<SearchSortedOp>(op))
    return !dist::getDistEnv(search.getSorted().getType()) &&
           dist::getDistEnv(search.getValues().getType());
  // Split like the source, or (along axis 0) like the indices.
  if (auto take = dyn_cast<TakeOp>(op))
    return dist::getDistEnv(take.getSource().getType()) || take.getAxis() == 0;
  // A new version of the destination: distributed like it.
  if (auto insert = dyn_cast<ImmutableInsertSliceOp>(op))
    return dist::getDistEnv(insert.getDestination().getType()) != nullptr;
  if (isa<SubviewOp, ExtractSliceOp>(op) && dist::dropsSplitDimension(op))
    return false;
  return cast<NDArrayType>(result.getType()).getRank() > 0;
}

/// Calls `fn(sources, inputs)` for every control-flow edge of `op` that
/// forwards values: from `op` into its regions or results, and from the
/// terminators of its regions.
void forEachEdge(RegionBranchOpInterface op,
                 function_ref<void(ValueRange, ValueRange)> fn) {
  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (RegionSuccessor &successor : successors)
    fn(op.getEntrySuccessorOperands(successor), successor.getSuccessorInputs());
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      if (block.empty())
        continue;
      auto terminator =
          dyn_cast<RegionBranchTerminatorOpInterface>(block.back());
      if (!terminator)
        continue;
      successors.clear();
      op.getSuccessorRegions(RegionBranchPoint(terminator), successors);
      for (RegionSuccessor &successor : successors)
        fn(terminator.getSuccessorOperands(successor),
           successor.getSuccessorInputs());
    }
}

/// Makes `value` distributed on `team`; returns whether it changed.
bool markDistributed(Value value, int64_t team) {
  auto type = dyn_cast<NDArrayType>(value.getType());
  if (!type || type.getRank() == 0 || dist::getDistEnv(type))
    return false;
  value.setType(dist::withDistEnv(type, team));
  return true;
}

/// Gives every value computed from distributed arrays a distributed type,
/// until nothing changes (loops carry distribution around their back edge).
void propagateDistribution(FunctionOpInterface func) {
  bool changed = true;
  while (changed) {
    changed = false;
    func->walk([&](Operation *op) {
      if (auto branch = dyn_cast<RegionBranchOpInterface>(op)) {
        forEachEdge(branch, [&](ValueRange sources, ValueRange inputs) {
          for (auto [source, input] : llvm::zip(sources, inputs))
            if (auto env = dist::getDistEnv(source.getType()))
              changed |= markDistributed(input, env.getTeam());
        });
        return;
      }
      if (!isa<NDArrayDialect>(op->getDialect()))
        return;
      int64_t team = getOperandTeam(op);
      if (!team)
        return;
      for (OpResult result : op->getResults())
        if (isDistributedResult(result))
          changed |= markDistributed(result, team);
    });
  }
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

/// The size of dimension 0 of the global array `value` as an index value,
/// taken from the op defining the size where possible, so that equal sizes
/// are the same value and comparisons of them fold.
Value dimZero(OpBuilder &b, Location loc, Value value) {
  while (true) {
    auto type = cast<NDArrayType>(value.getType());
    if (!type.isDynamicDim(0))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(0));
    Operation *def = value.getDefiningOp();
    if (isa_and_present<CastOp, dist::RepartitionOp>(def)) {
      value = def->getOperand(0);
      continue;
    }
    if (isa_and_present<SubviewOp, ExtractSliceOp>(def) &&
        !dist::dropsSplitDimension(def))
      return getValueOrCreateConstantIndexOp(
          b, loc, cast<OffsetSizeAndStrideOpInterface>(def).getMixedSizes()[0]);
    if (auto create = dyn_cast_if_present<CreateOp>(def))
      return create.getDynamicSizes().front();
    if (def && dist::isRowwise(def)) {
      // Dimension 0 of the result is the broadcast (maximum) of the
      // operands' of the same rank.
      Value size;
      for (Value operand : def->getOperands()) {
        if (cast<NDArrayType>(operand.getType()).getRank() != type.getRank())
          continue;
        Value rows = dimZero(b, loc, operand);
        size = size ? b.createOrFold<arith::MaxUIOp>(loc, size, rows) : rows;
      }
      if (size)
        return size;
    }
    return dist::getDimValue(b, loc, value, 0);
  }
}

Value cmpEq(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
}

Value select(OpBuilder &b, Location loc, Value cond, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}

} // namespace

Value imex::ndarray::detail::constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

namespace {

/// The rows of dimension 0 of an elementwise result that this rank computes.
struct Target {
  Value offset, size;
  /// The operand whose owned rows these are when known at compile time: it
  /// needs no repartition.
  Value anchor;
};

/// Chooses the rows of the first distributed operand that is not broadcast
/// along dimension 0 (so that one operand needs no communication), or the
/// default partition if every distributed operand is broadcast.
Target chooseTarget(OpBuilder &b, Location loc, int64_t team,
                    ValueRange operands, int64_t rank, Value size) {
  SmallVector<std::pair<Value, Value>> candidates;
  for (Value operand : operands) {
    auto type = cast<NDArrayType>(operand.getType());
    if (!dist::getDistEnv(type) || type.getRank() != rank)
      continue;
    Value aligned = cmpEq(b, loc, dimZero(b, loc, operand), size);
    candidates.push_back({operand, aligned});
    if (matchPattern(aligned, m_One())) {
      auto [offset, count] = dist::createOwnedRange(b, loc, operand);
      Target target{offset, count, operand};
      // Earlier candidates may be aligned at run time.
      for (auto [other, isAligned] :
           llvm::reverse(ArrayRef(candidates).drop_back())) {
        auto [ownOffset, ownSize] = dist::createOwnedRange(b, loc, other);
        target = {select(b, loc, isAligned, ownOffset, target.offset),
                  select(b, loc, isAligned, ownSize, target.size),
                  candidates.size() == 1 ? operand : Value()};
      }
      return target;
    }
  }
  auto [offset, count] = dist::createDefaultPartition(b, loc, team, size);
  Target target{offset, count, Value()};
  for (auto [operand, aligned] : llvm::reverse(candidates)) {
    auto [ownOffset, ownSize] = dist::createOwnedRange(b, loc, operand);
    target.offset = select(b, loc, aligned, ownOffset, target.offset);
    target.size = select(b, loc, aligned, ownSize, target.size);
  }
  return target;
}

/// `operand` prepared to take part in an elementwise computation of rows
/// [offset, offset + size) of a result with `size0` rows and rank `rank`:
/// distributed operands of the same rank are repartitioned to these rows
/// (or to their only row if broadcast), distributed operands of lower rank
/// are gathered; replicated operands are used as they are.
Value alignOperand(OpBuilder &b, Location loc, Value operand, int64_t rank,
                   Value size0, Value offset, Value size) {
  auto type = cast<NDArrayType>(operand.getType());
  if (!dist::getDistEnv(type))
    return operand;
  if (type.getRank() != rank)
    return dist::createGather(b, loc, operand);
  Value rows = dimZero(b, loc, operand);
  // Rows equal to the result's at compile time: not broadcast.
  if (matchPattern(cmpEq(b, loc, rows, size0), m_One()))
    return dist::RepartitionOp::create(b, loc, type, operand, offset, size);
  Value one = constIndex(b, loc, 1);
  Value broadcast = b.createOrFold<arith::AndIOp>(
      loc, cmpEq(b, loc, rows, one),
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, size0, one));
  Value boxOffset = select(b, loc, broadcast, constIndex(b, loc, 0), offset);
  Value boxSize = select(b, loc, broadcast, one, size);
  return dist::RepartitionOp::create(b, loc, type, operand, boxOffset, boxSize);
}

/// The rows chosen for the elementwise chains that feed inserts, by insert:
/// every op of a chain computes the same rows (same values).
using InsertTargets = DenseMap<Operation *, Target>;

/// The rows the row-wise `op` computes when its value, through a chain of
/// single-use row-wise ops of the same rank, is inserted into a distributed
/// array without broadcasting along dimension 0: this rank's rows of the
/// destination slice, so that the insert needs no repartition (a stencil
/// update `u[1:-1] = f(u[:-2], u[2:])` then exchanges halos of `u` only).
/// std::nullopt when there is no such insert or its bounds cannot be
/// computed before `op`.
std::optional<Target> getInsertTarget(Operation *op, int64_t rank, Value size0,
                                      InsertTargets &targets) {
  Operation *last = op;
  while (true) {
    Value result = last->getResult(0);
    if (!result.hasOneUse())
      return std::nullopt;
    Operation *user = *result.getUsers().begin();
    if (auto insert = dyn_cast<ImmutableInsertSliceOp>(user)) {
      if (insert.getSource() != result ||
          !dist::getDistEnv(insert.getDestination().getType()) ||
          static_cast<int64_t>(insert.getMixedSizes().size()) != rank ||
          !isEqualConstantIntOrValue(insert.getMixedSizes()[0], size0))
        return std::nullopt;
      if (auto known = targets.find(insert); known != targets.end())
        return known->second;
      SmallVector<Value> bounds{insert.getDestination()};
      llvm::append_range(bounds, insert.getOffsets());
      llvm::append_range(bounds, insert.getSizes());
      llvm::append_range(bounds, insert.getStrides());
      if (failed(dist::hoistDefinitions(bounds, op)))
        return std::nullopt;
      OpBuilder b(op);
      auto [offset, size] = dist::createLocalTargetOfSlice(
          b, insert.getLoc(), insert.getDestination(), insert.getMixedOffsets(),
          insert.getMixedSizes(), insert.getMixedStrides());
      Target target{offset, size, Value()};
      targets[insert] = target;
      return target;
    }
    if (!dist::isRowwise(user) || user->getNumResults() != 1 ||
        cast<NDArrayType>(user->getResult(0).getType()).getRank() != rank)
      return std::nullopt;
    last = user;
  }
}

/// Aligns the operands of an elementwise-like op (one result of rank >= 1
/// split like the operands).
void alignElementwiseOperands(Operation *op, InsertTargets &targets) {
  auto resultType = cast<NDArrayType>(op->getResult(0).getType());
  auto env = dist::getDistEnv(resultType);
  if (!env)
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  int64_t rank = resultType.getRank();
  // The result's dimension 0 is the broadcast of the operands' (equal sizes
  // or 1), i.e. their maximum.
  Value size0;
  if (!resultType.isDynamicDim(0)) {
    size0 = constIndex(b, loc, resultType.getDimSize(0));
  } else {
    for (Value operand : op->getOperands()) {
      auto type = cast<NDArrayType>(operand.getType());
      if (type.getRank() != rank)
        continue;
      Value rows = dimZero(b, loc, operand);
      size0 = size0 ? b.createOrFold<arith::MaxUIOp>(loc, size0, rows) : rows;
    }
  }
  std::optional<Target> inserted = getInsertTarget(op, rank, size0, targets);
  b.setInsertionPoint(op);
  Target target = inserted ? *inserted
                           : chooseTarget(b, loc, env.getTeam(),
                                          op->getOperands(), rank, size0);
  dist::RowLayout rows{target.offset, target.size, Value()};
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() != target.anchor &&
        !(dist::getDistEnv(operand.get().getType()) &&
          cast<NDArrayType>(operand.get().getType()).getRank() == rank &&
          dist::getRowLayout(operand.get()) == rows))
      operand.set(alignOperand(b, loc, operand.get(), rank, size0,
                               target.offset, target.size));
}

/// Aligns the source of an insert into a distributed destination with the
/// rows of the destination slice this rank owns.
void alignInsertedSource(ImmutableInsertSliceOp op, InsertTargets &targets) {
  Value source = op.getSource();
  auto sourceType = cast<NDArrayType>(source.getType());
  if (!dist::getDistEnv(sourceType))
    return;
  OpBuilder b(op);
  Location loc = op.getLoc();
  if (!dist::getDistEnv(op.getDestination().getType())) {
    op.getSourceMutable().set(dist::createGather(b, loc, source));
    return;
  }
  // The source is broadcast to the slice shape (dimensions aligned at the
  // end): only a source of the slice's rank is split like the slice.
  int64_t sliceRank = op.getMixedSizes().size();
  Value offset, size;
  if (auto known = targets.find(op); known != targets.end()) {
    // The source was computed in these rows.
    offset = known->second.offset;
    size = known->second.size;
    if (dist::getRowLayout(source) == dist::RowLayout{offset, size, Value()})
      return;
  } else {
    std::tie(offset, size) = dist::createLocalTargetOfSlice(
        b, loc, op.getDestination(), op.getMixedOffsets(), op.getMixedSizes(),
        op.getMixedStrides());
  }
  Value sliceRows =
      getValueOrCreateConstantIndexOp(b, loc, op.getMixedSizes()[0]);
  op.getSourceMutable().set(
      alignOperand(b, loc, source, sliceRank, sliceRows, offset, size));
}

} // namespace

/// Points every use of `result` at its distributed twin of type
/// `distType` (the local result is replicated: each rank keeps its block).
void imex::ndarray::detail::redistributeResult(OpBuilder &b, Location loc,
                                               OpResult result, Type distType) {
  SmallVector<OpOperand *> uses =
      llvm::map_to_vector(result.getUses(), [](OpOperand &u) { return &u; });
  Value distributed = dist::createDistribute(
      b, loc, result, dist::getDistEnv(distType).getTeam(), distType);
  for (OpOperand *use : uses)
    use->set(distributed);
}

/// Computes `op` on gathered operands and distributes its result again.
LogicalResult imex::ndarray::detail::rewriteWithGather(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  for (OpOperand &operand : op->getOpOperands())
    if (dist::getDistEnv(operand.get().getType()))
      operand.set(dist::createGather(b, loc, operand.get()));
  b.setInsertionPointAfter(op);
  for (OpResult result : op->getResults()) {
    auto env = dist::getDistEnv(result.getType());
    if (!env)
      continue;
    Type distType = result.getType();
    result.setType(dist::withoutDistEnv(cast<NDArrayType>(distType)));
    redistributeResult(b, loc, result, distType);
  }
  return success();
}

namespace {

/// A view or slice dropping the split dimension (`a[i, :]`, `a[i]`): only
/// the rows it selects are gathered (the owner sends them to every rank),
/// through the same view without dropping dimensions; the dropping view is
/// then taken of the gathered rows.
template <typename OpTy> LogicalResult gatherSelectedRows(OpTy op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto sourceType = cast<NDArrayType>(op.getSource().getType());
  auto local = dist::withoutDistEnv(sourceType);
  NDArrayType keptType = dist::withDistEnv(
      local.cloneWith(op.getStaticSizes(), local.getElementType()),
      dist::getDistEnv(sourceType).getTeam());
  Value kept =
      SubviewOp::create(b, loc, keptType, op.getSource(), op.getMixedOffsets(),
                        op.getMixedSizes(), op.getMixedStrides());
  Value rows = dist::createGather(b, loc, kept);
  SmallVector<OpFoldResult> zeros(keptType.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(keptType.getRank(), b.getIndexAttr(1));
  Type resultType = op.getType();
  auto view =
      OpTy::create(b, loc, dist::withoutDistEnv(cast<NDArrayType>(resultType)),
                   rows, zeros, op.getMixedSizes(), ones);
  op.getResult().replaceAllUsesWith(view.getResult());
  op.erase();
  if (dist::getDistEnv(resultType)) {
    b.setInsertionPointAfter(view);
    redistributeResult(b, loc, view->getResult(0), resultType);
  }
  return success();
}

} // namespace

/// Replaces the result of `op` by the distributed array of its type whose
/// block of the default partition, starting at global row `first`, is
/// `owned`; `rows` is its global size of dimension 0, `shapeOf` has its
/// sizes of dimensions 1...
void imex::ndarray::detail::replaceWithDistributed(OpBuilder &b, Operation *op,
                                                   Value owned, Value first,
                                                   Value rows, Value shapeOf) {
  Location loc = op->getLoc();
  Type distType = op->getResult(0).getType();
  SmallVector<Value> globalShape{rows};
  for (int64_t d = 1; d < cast<NDArrayType>(distType).getRank(); ++d)
    globalShape.push_back(dist::getDimValue(b, loc, shapeOf, d));
  Value distributed =
      dist::createFromOwned(b, loc, distType, owned, first, globalShape);
  op->getResult(0).replaceAllUsesWith(distributed);
  op->erase();
}

namespace {

/// Replaces a creation op carrying `dist.team` by the local block of the
/// array it creates.
LogicalResult distributeCreation(Operation *op) {
  auto teamAttr = dyn_cast<IntegerAttr>(op->getAttr(kTeamAttrName));
  op->removeAttr(kTeamAttrName);
  if (!teamAttr || teamAttr.getInt() < 1)
    return op->emitOpError("'")
           << kTeamAttrName << "' must be an integer team id >= 1";
  if (!isa<CreateOp, LinSpaceOp, RandomOp, TriOp, CopyOp>(op))
    return op->emitOpError("'")
           << kTeamAttrName
           << "' is supported on ndarray.create, ndarray.linspace, "
              "ndarray.random, ndarray.tri and ndarray.copy only";
  Value result = op->getResult(0);
  auto type = cast<NDArrayType>(result.getType());
  if (type.getRank() == 0)
    return success(); // 0-d arrays are replicated.
  int64_t team = teamAttr.getInt();
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  if (auto create = dyn_cast<CreateOp>(op)) {
    // Allocate only the local block.
    Value distributed = dist::createDistributedCreate(b, loc, create, team);
    result.replaceAllUsesWith(distributed);
    create.erase();
    return success();
  }
  // linspace, random, tri and copy: compute the replicated values, keep the
  // local block (only the block is computed in the end, see
  // imex-slice-elementwise-producers).
  SmallVector<OpOperand *> uses =
      llvm::map_to_vector(result.getUses(), [](OpOperand &u) { return &u; });
  Value distributed = dist::createDistribute(b, loc, result, team,
                                             dist::withDistEnv(type, team));
  for (OpOperand *use : uses)
    use->set(distributed);
  return success();
}

/// Distributed function arguments: an array argument with `dist.team = T`
/// is this rank's block of the default partition of a distributed array
/// whose global shape is held by the index arguments `dist.shape = [k0,
/// k1, ...]` (the calling convention of docs/distribution.md). Arrays of
/// equal shape share these arguments, which tells the compiler they are
/// aligned. The body sees the distributed array.
LogicalResult distributeArguments(FunctionOpInterface func, bool &any) {
  if (func.isExternal())
    return success();
  constexpr llvm::StringLiteral kShapeAttrName = "dist.shape";
  constexpr llvm::StringLiteral kGhostAttrName = "dist.ghost";
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    Attribute attr = func.getArgAttr(i, kTeamAttrName);
    if (!attr) {
      for (StringRef name : {kShapeAttrName, kGhostAttrName})
        if (func.getArgAttr(i, name))
          return func.emitOpError("argument #")
                 << i << ": '" << name << "' without '" << kTeamAttrName << "'";
      continue;
    }
    any = true;
    auto teamAttr = dyn_cast<IntegerAttr>(attr);
    auto shapeAttr =
        dyn_cast_or_null<DenseI64ArrayAttr>(func.getArgAttr(i, kShapeAttrName));
    auto type = dyn_cast<NDArrayType>(func.getArgument(i).getType());
    if (!teamAttr || teamAttr.getInt() < 1)
      return func.emitOpError("argument #")
             << i << ": '" << kTeamAttrName
             << "' must be an integer team id >= 1";
    if (!type || type.getRank() == 0 || dist::getDistEnv(type))
      return func.emitOpError("argument #")
             << i << ": '" << kTeamAttrName
             << "' needs a local array of rank >= 1";
    auto isSizeArgument = [&](int64_t k) {
      return k >= 0 && k < static_cast<int64_t>(e) &&
             func.getArgument(k).getType().isIndex();
    };
    if (!shapeAttr || shapeAttr.size() != type.getRank() ||
        !llvm::all_of(shapeAttr.asArrayRef(), isSizeArgument))
      return func.emitOpError("argument #")
             << i << ": a distributed argument needs '" << kShapeAttrName
             << " = array<i64: k0, ...>', one index argument (its global "
                "size) per dimension";
    // Ghost cells the caller allocated: rows before and after the block.
    Attribute ghostAttr = func.getArgAttr(i, kGhostAttrName);
    auto ghost = dyn_cast_or_null<DenseI64ArrayAttr>(ghostAttr);
    if (ghostAttr &&
        (!ghost || ghost.size() != 2 || ghost[0] < 0 || ghost[1] < 0))
      return func.emitOpError("argument #")
             << i << ": '" << kGhostAttrName
             << "' must be array<i64: before, after> (non-negative spare "
                "rows around the block)";
    func.removeArgAttr(i, kTeamAttrName);
    func.removeArgAttr(i, kShapeAttrName);
    func.removeArgAttr(i, kGhostAttrName);
    BlockArgument block = func.getArgument(i);
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(block.getUses(), [](OpOperand &u) { return &u; });
    Location loc = block.getLoc();
    SmallVector<Value> shape =
        llvm::map_to_vector(shapeAttr.asArrayRef(), [&](int64_t k) -> Value {
          return func.getArgument(k);
        });
    OpBuilder b = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
    auto [offset, size] =
        dist::createDefaultPartition(b, loc, teamAttr.getInt(), shape[0]);
    // The whole block, as a view with the partition's size and the global
    // sizes of dimensions 1..: the blocks of arrays of equal shape then
    // have the same size values.
    SmallVector<OpFoldResult> zeros(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
    SmallVector<OpFoldResult> blockOffsets(zeros);
    if (ghost)
      blockOffsets[0] = b.getIndexAttr(ghost[0]);
    SmallVector<OpFoldResult> sizes{size};
    SmallVector<int64_t> globalShape{ShapedType::kDynamic};
    for (int64_t d = 1; d < type.getRank(); ++d) {
      sizes.push_back(type.isDynamicDim(d)
                          ? OpFoldResult(shape[d])
                          : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
      globalShape.push_back(type.getDimSize(d));
    }
    NDArrayType rowsType = type.cloneWith(globalShape, type.getElementType());
    Value owned =
        SubviewOp::create(b, loc, rowsType, block, blockOffsets, sizes, ones);
    Value distributed = dist::createFromOwned(
        b, loc, dist::withDistEnv(rowsType, teamAttr.getInt()), owned, offset,
        shape);
    if (ghost)
      distributed.getDefiningOp<dist::InitDistArrayOp>().setSpareRowsAttr(
          ghost);
    for (OpOperand *use : uses)
      use->set(distributed);
  }
  return success();
}

/// The local block a distributed argument was bound from by `init`, if it
/// is one (see distributeArguments).
Value getArgumentBlock(dist::InitDistArrayOp init) {
  if (!init || init.getParts().size() != 3)
    return {};
  Value block = init.getParts()[1];
  while (isa_and_present<CastOp, SubviewOp>(block.getDefiningOp()))
    block = block.getDefiningOp()->getOperand(0);
  auto arg = dyn_cast<BlockArgument>(block);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
    return {};
  return block;
}

/// ndarray-value-semantics writes the final value of an updated argument
/// back with a full insert at each return; for a distributed argument (bound
/// by `init` from `block`) this rank's rows of that value go into its block.
LogicalResult writeBackToArgument(InsertSliceOp insert,
                                  dist::InitDistArrayOp init, Value block) {
  auto isZero = [](OpFoldResult v) { return isConstantIntValue(v, 0); };
  auto isOne = [](OpFoldResult v) { return isConstantIntValue(v, 1); };
  if (!llvm::all_of(insert.getMixedOffsets(), isZero) ||
      !llvm::all_of(insert.getMixedStrides(), isOne))
    return insert.emitOpError("in-place update of a distributed argument "
                              "that is not a whole-array write-back; run "
                              "-ndarray-value-semantics first");
  OpBuilder b(insert);
  Location loc = insert.getLoc();
  auto type = cast<NDArrayType>(block.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(dist::getDimSize(b, loc, block, d));
  // With ghost cells (spare rows) around the block, the rows of the view.
  if (SubviewOp view = init.getSpareRowsView()) {
    offsets[0] = view.getMixedOffsets()[0];
    sizes[0] = view.getMixedSizes()[0];
  }
  // A version of the argument (its storage, through updates and loops)
  // holds exactly the block's rows as its owned part; anything else is
  // repartitioned to them.
  std::optional<SmallVector<dist::InitDistArrayOp>> roots =
      dist::getStorageRoots(insert.getSource());
  bool isVersion = roots && !roots->empty() &&
                   llvm::all_of(*roots, [&](dist::InitDistArrayOp root) {
                     return root == init;
                   });
  Value rows =
      isVersion
          ? dist::PartsOfOp::create(b, loc, insert.getSource()).getResult(1)
          : dist::createLocalRows(b, loc, insert.getSource(),
                                  init.getLocalOffsets()[0], sizes[0]);
  auto write = InsertSliceOp::create(b, loc, rows, block, offsets, sizes, ones);
  if (isVersion && init.getSpareRowsAttr())
    write->setAttr(dist::kGhostedWriteBackAttrName, b.getUnitAttr());
  insert.erase();
  return success();
}

LogicalResult rewriteOp(Operation *op, InsertTargets &targets) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  if (isa<EWBinOp, WhereOp>(op)) {
    alignElementwiseOperands(op, targets);
    return success();
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    if (concat.getAxis() == 0)
      return distributeRowConcat(concat);
    alignElementwiseOperands(op, targets);
    return success();
  }
  if (auto insert = dyn_cast<ImmutableInsertSliceOp>(op)) {
    alignInsertedSource(insert, targets);
    return success();
  }
  if (auto insert = dyn_cast<InsertSliceOp>(op)) {
    auto init = insert.getDestination().getDefiningOp<dist::InitDistArrayOp>();
    if (Value block = getArgumentBlock(init))
      return writeBackToArgument(insert, init, block);
    if (dist::getDistEnv(insert.getDestination().getType()))
      return op->emitOpError("in-place update of a distributed array; run "
                             "-ndarray-value-semantics first");
    if (dist::getDistEnv(insert.getSource().getType()))
      insert.getSourceMutable().set(
          dist::createGather(b, loc, insert.getSource()));
    return success();
  }
  if (auto load = dyn_cast<LoadOp>(op)) {
    Value array = load.getArray();
    if (!dist::getDistEnv(array.getType()))
      return success();
    // Fetch the one element from its owner to every rank.
    Value element = dist::createGatherElement(b, loc, array, load.getIndices());
    SmallVector<Value> zeros(load.getIndices().size(), constIndex(b, loc, 0));
    load.getArrayMutable().set(element);
    load.getIndicesMutable().assign(zeros);
    return success();
  }
  if (auto view = dyn_cast<SubviewOp>(op);
      view && dist::getDistEnv(view.getSource().getType()) &&
      dist::dropsSplitDimension(op))
    return gatherSelectedRows(view);
  if (auto slice = dyn_cast<ExtractSliceOp>(op);
      slice && dist::getDistEnv(slice.getSource().getType()) &&
      dist::dropsSplitDimension(op))
    return gatherSelectedRows(slice);
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    if (cast<NDArrayType>(matmul.getLhs().getType()).getRank() == 1 &&
        cast<NDArrayType>(matmul.getRhs().getType()).getRank() == 2)
      return distributeVectorMatmul(matmul);
    return distributeRowMatmul(matmul);
  }
  if (auto select = dyn_cast<MaskedSelectOp>(op))
    return distributeMaskedSelect(select);
  if (auto take = dyn_cast<TakeOp>(op))
    return distributeTake(take);
  if (auto put = dyn_cast<PutOp>(op))
    return distributePut(put);
  if (isa<SortOp, ArgSortOp>(op))
    return distributeSort(op);
  if (auto search = dyn_cast<SearchSortedOp>(op)) {
    if (dist::getDistEnv(search.getSorted().getType()) &&
        dist::getDistEnv(search.getValues().getType()))
      search.getValuesMutable().set(
          dist::createGather(b, loc, search.getValues()));
    return success();
  }
  if (auto flip = dyn_cast<FlipOp>(op);
      flip && llvm::is_contained(flip.getAxes(), 0))
    return distributeRowFlip(flip);
  if (auto scan = dyn_cast<CumulativeOp>(op);
      scan && scan.getAxis() == 0 && scan.getIncludeInitial() &&
      dist::getDistEnv(scan.getSource().getType()))
    return splitInitialRow(scan);
  if (auto toTensor = dyn_cast<ToTensorOp>(op)) {
    if (dist::getDistEnv(toTensor.getArray().getType()))
      toTensor.getArrayMutable().set(
          dist::createGather(b, loc, toTensor.getArray()));
    return success();
  }
  if (!hasDistributedLowering(op) && getOperandTeam(op))
    return rewriteWithGather(op);
  return success();
}

struct NDArrayDistPass
    : public imex::ndarray::impl::NDArrayDistBase<NDArrayDistPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      if (failed(runOnFunction(func)))
        return signalPassFailure();
    }
  }

  LogicalResult runOnFunction(FunctionOpInterface func) {
    bool distributedArguments = false;
    if (failed(distributeArguments(func, distributedArguments)))
      return failure();
    SmallVector<Operation *> seeds;
    func->walk([&](Operation *op) {
      if (op->hasAttr(kTeamAttrName))
        seeds.push_back(op);
    });
    if (seeds.empty() && !distributedArguments)
      return success();
    // Copies come last: a copy of an array distributed by another seed is
    // a distributed copy (on the same team) once distribution has
    // propagated to its source.
    SmallVector<Operation *> copies;
    for (Operation *op : seeds) {
      if (isa<CopyOp>(op))
        copies.push_back(op);
      else if (failed(distributeCreation(op))) // may erase `op`
        return failure();
    }
    propagateDistribution(func);
    for (Operation *op : copies) {
      auto source = dist::getDistEnv(op->getOperand(0).getType());
      if (!source) {
        if (failed(distributeCreation(op)))
          return failure();
        propagateDistribution(func);
        continue;
      }
      auto team = dyn_cast<IntegerAttr>(op->getAttr(kTeamAttrName));
      if (!team || team.getInt() != source.getTeam())
        return op->emitOpError("copies an array distributed over team ")
               << source.getTeam() << " to " << op->getAttr(kTeamAttrName)
               << ": redistribution to another team is not supported";
      op->removeAttr(kTeamAttrName);
    }

    // Distributed arrays live inside one function: their parts and offsets
    // are not part of any calling convention.
    WalkResult boundary = func->walk([&](Operation *op) {
      if (!isa<CallOpInterface>(op) && !op->hasTrait<OpTrait::ReturnLike>())
        return WalkResult::advance();
      if (isa<RegionBranchTerminatorOpInterface>(op) &&
          !isa<func::ReturnOp>(op))
        return WalkResult::advance();
      for (Type type : op->getOperandTypes())
        if (dist::getDistEnv(type)) {
          op->emitOpError("passes a distributed array across a function "
                          "boundary; inline the callee first");
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    if (boundary.wasInterrupted())
      return failure();

    // Replicated values flowing into distributed loop-carried values or
    // results are distributed at the edge.
    if (failed(distributeEdgeSources(func)))
      return failure();

    SmallVector<Operation *> ops;
    func->walk([&](Operation *op) {
      if (isa<NDArrayDialect>(op->getDialect()) &&
          (getOperandTeam(op) || llvm::any_of(op->getResultTypes(), [](Type t) {
             return dist::getDistEnv(t);
           })))
        ops.push_back(op);
    });
    InsertTargets targets;
    for (Operation *op : ops)
      if (failed(rewriteOp(op, targets)))
        return failure();
    return success();
  }

  /// Replicated values flowing into distributed region arguments or results
  /// are distributed just before the op or terminator forwarding them.
  LogicalResult distributeEdgeSources(FunctionOpInterface func) {
    SmallVector<RegionBranchOpInterface> branches;
    func->walk([&](RegionBranchOpInterface op) { branches.push_back(op); });
    for (RegionBranchOpInterface branch : branches) {
      auto fix = [&](Operation *forwarder, unsigned firstOperand,
                     ValueRange sources, ValueRange inputs) {
        for (auto [i, pair] : llvm::enumerate(llvm::zip(sources, inputs))) {
          auto [source, input] = pair;
          auto env = dist::getDistEnv(input.getType());
          if (!env || dist::getDistEnv(source.getType()))
            continue;
          OpBuilder b(forwarder);
          Value distributed = dist::createDistribute(
              b, forwarder->getLoc(), source, env.getTeam(), input.getType());
          forwarder->setOperand(firstOperand + i, distributed);
        }
      };
      SmallVector<RegionSuccessor> successors;
      branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
      for (RegionSuccessor &successor : successors) {
        OperandRange sources = branch.getEntrySuccessorOperands(successor);
        unsigned first = sources.empty() ? 0 : sources.getBeginOperandIndex();
        fix(branch, first, sources, successor.getSuccessorInputs());
      }
      for (Region &region : branch->getRegions())
        for (Block &block : region) {
          if (block.empty())
            continue;
          auto terminator =
              dyn_cast<RegionBranchTerminatorOpInterface>(block.back());
          if (!terminator)
            continue;
          successors.clear();
          branch.getSuccessorRegions(RegionBranchPoint(terminator), successors);
          for (RegionSuccessor &successor : successors) {
            OperandRange sources = terminator.getSuccessorOperands(successor);
            unsigned first =
                sources.empty() ? 0 : sources.getBeginOperandIndex();
            fix(terminator, first, sources, successor.getSuccessorInputs());
          }
        }
    }
    return success();
  }
};

} // namespace
