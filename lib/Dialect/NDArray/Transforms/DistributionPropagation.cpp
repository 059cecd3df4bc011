//===- DistributionPropagation.cpp - which values are distributed ---------===//
//
// ndarray-dist: which ops have a distributed lowering, and the distributed
// types propagated from arrays created on a team through the program
// (including around loops and across branches).
//
//===----------------------------------------------------------------------===//

#include "DistributeOps.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::detail;

/// Whether convert-dist-to-standard computes `op` on the local parts of its
/// distributed operands. Every other op with distributed operands is
/// computed on gathered (replicated) operands and its result distributed
/// again: correct for any op, at the price of communicating whole arrays.
bool imex::ndarray::detail::hasDistributedLowering(Operation *op) {
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
  // broadcast_to that keeps dimension 0 (same rank, dimension 0 not
  // broadcast): each rank broadcasts its rows.
  if (auto broadcast = dyn_cast<BroadcastToOp>(op)) {
    auto source = cast<NDArrayType>(broadcast.getSource().getType());
    NDArrayType result = broadcast.getType();
    return source.getRank() == result.getRank() && source.getRank() > 0 &&
           broadcast.keepsSourceDim(0);
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
int64_t imex::ndarray::detail::getOperandTeam(Operation *op) {
  for (Value operand : op->getOperands())
    if (auto env = dist::getDistEnv(operand.getType()))
      return env.getTeam();
  return 0;
}

/// Whether operands of types `a` and `b` (of one rank) may broadcast
/// against each other: their sizes differ, or one is 1 where the other is
/// not known to be (a 1x1 array and an Nx1 one). Blocks of arrays that do
/// not broadcast line up; a broadcast along a split axis needs elements of
/// other ranks.
static bool mayBroadcast(NDArrayType a, NDArrayType b) {
  for (auto [x, y] : llvm::zip(a.getShape(), b.getShape()))
    if ((x == 1) != (y == 1) ||
        (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y))
      return true;
  return false;
}

bool imex::ndarray::detail::supportsAnyDistribution(Operation *op) {
  if (isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp, CopyOp, CastOp, DimOp>(op))
    return true;
  // Sorts and scans along an axis the distribution does not split.
  if (dist::isLocalAlongAxis(op))
    return true;
  // Views and inserts of boxes: the elements of each rank's block are
  // fetched from their owners.
  // (Views keeping the rank, with any strides: the view's blocks fetched
  // from the elements of it the source's blocks hold.)
  if (isa<SubviewOp, ExtractSliceOp>(op))
    return cast<NDArrayType>(op->getOperand(0).getType()).getRank() ==
           cast<NDArrayType>(op->getResult(0).getType()).getRank();
  if (auto insert = dyn_cast<ImmutableInsertSliceOp>(op)) {
    NDArrayType source = insert.getSource().getType();
    int64_t rank = insert.getDestination().getType().getRank();
    // (a distributed source of the destination's rank, redistributed to
    // its distribution; a replicated one of any rank, broadcast)
    return dist::isBoxSlice(op) &&
           (dist::getDistEnv(source)
                ? source.getRank() == rank || source.getRank() == 0
                : source.getRank() <= rank);
  }
  return false;
}

bool imex::ndarray::detail::derivesDistribution(Operation *op) {
  // (A concatenation whose first operand is in another distribution than
  // rows: its result is distributed like it.)
  if (isa<ConcatOp>(op))
    return hasNonDefaultDistribution(op->getOperand(0).getType());
  // (A view of a box dropping axes of an array in another distribution
  // than rows: the dropped axes are reduced away from its distribution.)
  if (dist::getDroppedAxesOfBox(op))
    return hasNonDefaultDistribution(op->getOperand(0).getType());
  // (A matrix product of a matrix in another distribution than rows and a
  // matrix: distributed like the first.)
  if (auto matmul = dyn_cast<MatMulOp>(op)) {
    auto lhs = cast<NDArrayType>(matmul.getLhs().getType());
    auto rhs = cast<NDArrayType>(matmul.getRhs().getType());
    return lhs.getRank() == 2 && rhs.getRank() == 2 &&
           hasNonDefaultDistribution(lhs);
  }
  return isa<ReductionOp, ArgReduceOp, PermuteDimsOp, FlipOp, LoadOp>(op);
}

/// Whether the reduction `op` (ReductionOp, ArgReduceOp) reduces an axis
/// that `env` splits.
template <typename OpTy>
static bool reducesSplitAxis(OpTy op, dist::DistEnvAttr env) {
  SmallVector<int64_t> axes = op.getReducedAxes();
  return llvm::any_of(env.getSplit(), [&](int64_t axis) {
    return llvm::is_contained(axes, axis);
  });
}

/// The distribution of the result of `op` (see derivesDistribution) whose
/// operand is distributed as `env`: a permutation keeps it (the elements
/// move to their owners in it); a reduction over axes that are not split,
/// or a view dropping such axes, keeps the split axes (renumbered if axes
/// are dropped); over a split axis the result is split on rows.
static dist::DistEnvAttr getDerivedDistEnv(Operation *op,
                                           dist::DistEnvAttr env) {
  auto reduced = [&](auto reduction) {
    return cast<dist::DistEnvAttr>(env.getReducedEnvironment(
        reduction.getType(), reduction.getReducedAxes(),
        reduction.getKeepdims()));
  };
  if (auto reduction = dyn_cast<ReductionOp>(op))
    return reduced(reduction);
  if (auto reduction = dyn_cast<ArgReduceOp>(op))
    return reduced(reduction);
  if (std::optional<SmallVector<int64_t>> dropped =
          dist::getDroppedAxesOfBox(op))
    return cast<dist::DistEnvAttr>(env.getReducedEnvironment(
        cast<ShapedType>(op->getResult(0).getType()), *dropped,
        /*keepdims=*/false));
  return env;
}

bool imex::ndarray::detail::hasNonDefaultDistribution(Type type) {
  auto env = dist::getDistEnv(type);
  return env && !env.isDefaultDistribution();
}

FailureOr<dist::DistEnvAttr> imex::ndarray::detail::getRequestedDistEnv(
    function_ref<InFlightDiagnostic()> emitError, DictionaryAttr attrs) {
  StringRef teamName = dist::DistDialect::getTeamAttrName();
  auto team = dyn_cast_or_null<IntegerAttr>(attrs.get(teamName));
  if (!team || team.getInt() < 1)
    return emitError() << "'" << teamName
                       << "' must be an integer team id >= 1";
  SmallVector<int64_t> split{0}, grid;
  for (auto [name, values] :
       {std::make_pair(dist::DistDialect::getSplitAttrName(), &split),
        std::make_pair(dist::DistDialect::getGridAttrName(), &grid)}) {
    Attribute attr = attrs.get(name);
    if (!attr)
      continue;
    auto list = dyn_cast<DenseI64ArrayAttr>(attr);
    if (!list)
      return emitError() << "'" << name << "' must be an array<i64: ...>";
    values->assign(list.asArrayRef().begin(), list.asArrayRef().end());
  }
  auto emitInvalid = [&] { return emitError() << "invalid distribution: "; };
  if (failed(
          dist::DistEnvAttr::verify(emitInvalid, team.getInt(), split, grid)))
    return failure();
  return dist::DistEnvAttr::get(attrs.getContext(), team.getInt(), split, grid);
}

FailureOr<dist::DistEnvAttr>
imex::ndarray::detail::getRequestedDistEnv(Operation *op) {
  return getRequestedDistEnv([op] { return op->emitOpError(); },
                             op->getAttrDictionary());
}

/// The distribution of the distributed results of `op` (rank >= 1) given
/// its operands, or null if none is distributed: for an op computing on any
/// distribution whose operands of rank >= 1 are all distributed and not
/// broadcast (as far as their static shapes tell), the first one's (the
/// others are redistributed to it), for a copy the one it asks for, else
/// the default one.
static dist::DistEnvAttr getResultDistEnv(Operation *op) {
  if (derivesDistribution(op)) {
    auto env = dist::getDistEnv(op->getOperand(0).getType());
    return env ? getDerivedDistEnv(op, env) : nullptr;
  }
  // An insert: a new version of the destination.
  if (auto insert = dyn_cast<ImmutableInsertSliceOp>(op))
    if (auto env = dist::getDistEnv(insert.getDestination().getType()))
      return supportsAnyDistribution(op) ? env : env.getDefault();
  dist::DistEnvAttr first, scalar;
  NDArrayType firstType;
  bool onBlocks = supportsAnyDistribution(op);
  for (Type type : op->getOperandTypes()) {
    auto array = dyn_cast<NDArrayType>(type);
    auto env = dist::getDistEnv(array);
    if (!array || (array.getRank() == 0 && !env))
      continue;
    if (array.getRank() == 0) {
      scalar = scalar ? scalar : env.getDefault();
      continue;
    }
    if (!env) {
      onBlocks = false; // a replicated array (maybe broadcast)
    } else if (!first) {
      first = env;
      firstType = array;
    } else {
      onBlocks &= array.getRank() == firstType.getRank() &&
                  !mayBroadcast(array, firstType);
    }
  }
  if (!first)
    return scalar;
  // (A copy of a distributed array asking for a distribution, checked by
  // the pass: the team is the same.)
  if (op->hasAttr(dist::DistDialect::getTeamAttrName()))
    if (FailureOr<dist::DistEnvAttr> requested = getRequestedDistEnv(op);
        succeeded(requested))
      return *requested;
  return onBlocks ? first : first.getDefault();
}

void imex::ndarray::detail::redistributeOperands(FunctionOpInterface func) {
  func->walk([&](Operation *op) {
    if (!isa<NDArrayDialect>(op->getDialect()))
      return;
    // A concatenation or matrix product distributed like its first operand
    // takes the other distributed operands in that distribution (arrays of
    // one distribution; the pieces or panels are then fetched from their
    // blocks).
    if (isa<ConcatOp, MatMulOp>(op) && derivesDistribution(op)) {
      auto first = dist::getDistEnv(op->getOperand(0).getType());
      OpBuilder b(op);
      for (OpOperand &operand : op->getOpOperands().drop_front()) {
        auto type = cast<NDArrayType>(operand.get().getType());
        auto env = dist::getDistEnv(type);
        if (env && env != first && type.getRank() > 0)
          operand.set(dist::RedistributeOp::create(
              b, op->getLoc(), dist::withDistEnv(type, first), operand.get()));
      }
      return;
    }
    if (derivesDistribution(op))
      return;
    // The distribution the operands must have: the result's if the op
    // computes on any distribution, else the default one.
    dist::DistEnvAttr target;
    if (supportsAnyDistribution(op)) {
      for (Type type : op->getResultTypes())
        if (auto env = dist::getDistEnv(type);
            env && cast<NDArrayType>(type).getRank() > 0)
          target = env;
      // (No distributed result, e.g. ndarray.dim: the operands are read
      // where they are.)
      if (!target &&
          llvm::none_of(op->getResultTypes(), llvm::IsaPred<NDArrayType>))
        return;
    }
    OpBuilder b(op);
    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<NDArrayType>(operand.get().getType());
      auto env = dist::getDistEnv(type);
      if (!env || type.getRank() == 0)
        continue;
      dist::DistEnvAttr wanted = target ? target : env.getDefault();
      if (env == wanted)
        continue;
      operand.set(dist::RedistributeOp::create(
          b, op->getLoc(), dist::withDistEnv(type, wanted), operand.get()));
    }
  });
}

namespace {

/// Whether result `result` of `op`, whose operands are distributed on a
/// team, is distributed too (rather than replicated).
bool isDistributedResult(OpResult result) {
  Operation *op = result.getOwner();
  if (!isa<NDArrayType>(result.getType()))
    return false;
  // Replicated if a split axis is reduced.
  if (auto reduction = dyn_cast<ReductionOp>(op))
    return !reducesSplitAxis(reduction,
                             dist::getDistEnv(reduction.getSource().getType()));
  if (auto reduction = dyn_cast<ArgReduceOp>(op))
    return !reducesSplitAxis(reduction,
                             dist::getDistEnv(reduction.getSource().getType()));
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
  // A view dropping axes of an array in another distribution than rows:
  // replicated if a split axis is dropped (as `a[i, :]` of rows).
  if (std::optional<SmallVector<int64_t>> dropped =
          dist::getDroppedAxesOfBox(op))
    if (auto env = dist::getDistEnv(op->getOperand(0).getType());
        env && !env.isDefaultDistribution())
      return llvm::none_of(env.getSplit(), [&](int64_t axis) {
        return llvm::is_contained(*dropped, axis);
      });
  if (isa<SubviewOp, ExtractSliceOp>(op) && dist::dropsSplitDimension(op))
    return false;
  return cast<NDArrayType>(result.getType()).getRank() > 0;
}

} // namespace

void imex::ndarray::detail::forEachEdge(
    RegionBranchOpInterface op,
    function_ref<void(Operation *, OperandRange, ValueRange)> fn) {
  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (RegionSuccessor &successor : successors)
    fn(op, op.getEntrySuccessorOperands(successor),
       successor.getSuccessorInputs());
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
        fn(terminator, terminator.getSuccessorOperands(successor),
           successor.getSuccessorInputs());
    }
}

namespace {

/// Makes `value` distributed as `env` (the default distribution if its rank
/// has not the split axes); returns whether it changed.
bool markDistributed(Value value, dist::DistEnvAttr env) {
  auto type = dyn_cast<NDArrayType>(value.getType());
  if (!type || type.getRank() == 0 || dist::getDistEnv(type))
    return false;
  value.setType(dist::withDistEnv(
      type, cast<dist::DistEnvAttr>(env.getResultEnvironment(type))));
  return true;
}

/// Splits a view with steps that drops axes of an array in another
/// distribution than rows (`a[::2, 3]`) into the view with the steps
/// keeping the rank, computed on the blocks, and a view of a box dropping
/// the unit axes; returns whether it did.
template <typename OpTy> bool splitStridedDroppingView(OpTy op) {
  NDArrayType source = op.getSource().getType();
  auto env = dist::getDistEnv(source);
  std::optional<SmallVector<int64_t>> dropped = getDroppedAxes(op);
  if (!env || env.isDefaultDistribution() || !dropped || dropped->empty() ||
      llvm::all_of(op.getMixedStrides(),
                   [](OpFoldResult s) { return isConstantIntValue(s, 1); }))
    return false;
  OpBuilder b(op);
  SmallVector<int64_t> shape;
  for (OpFoldResult size : op.getMixedSizes())
    shape.push_back(getConstantIntValue(size).value_or(ShapedType::kDynamic));
  Value kept = OpTy::create(b, op.getLoc(),
                            source.cloneWith(shape, source.getElementType()),
                            op.getSource(), op.getMixedOffsets(),
                            op.getMixedSizes(), op.getMixedStrides());
  SmallVector<OpFoldResult> zeros(source.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(source.getRank(), b.getIndexAttr(1));
  Value view = OpTy::create(b, op.getLoc(), op.getType(), kept, zeros,
                            op.getMixedSizes(), ones);
  op.getResult().replaceAllUsesWith(view);
  op.erase();
  return true;
}

} // namespace

/// Gives every value computed from distributed arrays a distributed type,
/// until nothing changes (loops carry distribution around their back edge).
void imex::ndarray::detail::propagateDistribution(FunctionOpInterface func) {
  bool changed = true;
  while (changed) {
    changed = false;
    func->walk([&](Operation *op) {
      if (auto branch = dyn_cast<RegionBranchOpInterface>(op)) {
        forEachEdge(branch,
                    [&](Operation *, OperandRange sources, ValueRange inputs) {
                      for (auto [source, input] : llvm::zip(sources, inputs))
                        if (auto env = dist::getDistEnv(source.getType()))
                          changed |= markDistributed(input, env);
                    });
        return;
      }
      if (!isa<NDArrayDialect>(op->getDialect()))
        return;
      if (auto view = dyn_cast<SubviewOp>(op);
          view && splitStridedDroppingView(view)) {
        changed = true;
        return;
      }
      if (auto view = dyn_cast<ExtractSliceOp>(op);
          view && splitStridedDroppingView(view)) {
        changed = true;
        return;
      }
      dist::DistEnvAttr env = getResultDistEnv(op);
      if (!env)
        return;
      for (OpResult result : op->getResults())
        if (isDistributedResult(result))
          changed |= markDistributed(result, env);
    });
  }
}
