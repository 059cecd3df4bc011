//===- DistUtils.cpp - building distributed computations ------------------===//

#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist;

bool dist::isRowwise(Operation *op) {
  if (auto concat = dyn_cast<ConcatOp>(op))
    return concat.getAxis() != 0;
  return isa<EWBinOp, EWUnyOp, WhereOp, CastElemTypeOp>(op);
}

NDArrayType dist::withoutDistEnv(NDArrayType type) {
  SmallVector<Attribute> envs;
  for (Attribute env : type.getEnvironments())
    if (!isa<DistEnvAttr>(env))
      envs.push_back(env);
  return type.cloneWithEnvironments(envs);
}

OpFoldResult dist::getDimSize(OpBuilder &b, Location loc, Value array,
                              int64_t dim) {
  auto type = cast<NDArrayType>(array.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  if (getDistEnv(type))
    if (Value size = getKnownGlobalSize(array, dim))
      return size;
  // (Folded where the array's sizes are given, e.g. a subview's: arrays
  // of the same sizes then have the same size values.)
  Value index = b.createOrFold<arith::ConstantIndexOp>(loc, dim);
  return b.createOrFold<DimOp>(loc, array, index);
}

Value dist::createBroadcastSize(OpBuilder &b, Location loc, Value x, Value y) {
  if (x == y)
    return x;
  Value zero = b.createOrFold<arith::ConstantIndexOp>(loc, 0);
  Value empty = b.createOrFold<arith::OrIOp>(
      loc,
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, zero),
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, y, zero));
  return b.createOrFold<arith::SelectOp>(
      loc, empty, zero, b.createOrFold<arith::MaxUIOp>(loc, x, y));
}

Value dist::getDimValue(OpBuilder &b, Location loc, Value array, int64_t dim) {
  return getValueOrCreateConstantIndexOp(b, loc,
                                         getDimSize(b, loc, array, dim));
}

bool dist::isLocalAlongAxis(Operation *op) {
  std::optional<int64_t> axis;
  if (auto scan = dyn_cast<ndarray::CumulativeOp>(op))
    axis = scan.getIncludeInitial() ? std::nullopt
                                    : std::optional<int64_t>(scan.getAxis());
  else if (auto sort = dyn_cast<ndarray::SortOp>(op))
    axis = sort.getAxis();
  else if (auto argsort = dyn_cast<ndarray::ArgSortOp>(op))
    axis = argsort.getAxis();
  auto env = axis ? getDistEnv(op->getOperand(0).getType()) : nullptr;
  return env && !env.isDefaultDistribution() &&
         !llvm::is_contained(env.getSplit(), *axis);
}

bool dist::isBoxSlice(Operation *op) {
  auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
  bool keepsRank = isa<ImmutableInsertSliceOp, InsertSliceOp>(op) ||
                   cast<NDArrayType>(op->getOperand(0).getType()).getRank() ==
                       cast<NDArrayType>(op->getResult(0).getType()).getRank();
  return keepsRank && llvm::all_of(slice.getMixedStrides(), [](OpFoldResult s) {
           return isConstantIntValue(s, 1);
         });
}

std::optional<SmallVector<int64_t>> dist::getDroppedAxesOfBox(Operation *op) {
  std::optional<SmallVector<int64_t>> dropped = getDroppedAxes(op);
  if (!dropped || dropped->empty() ||
      cast<NDArrayType>(op->getResult(0).getType()).getRank() == 0 ||
      !llvm::all_of(cast<OffsetSizeAndStrideOpInterface>(op).getMixedStrides(),
                    [](OpFoldResult s) { return isConstantIntValue(s, 1); }))
    return std::nullopt;
  return dropped;
}

bool dist::dropsSplitDimension(Operation *op) {
  auto source = cast<NDArrayType>(op->getOperand(0).getType());
  auto result = cast<NDArrayType>(op->getResult(0).getType());
  if (source.getRank() == result.getRank())
    return false;
  if (result.getRank() == 0)
    return true;
  auto sliceOp = cast<OffsetSizeAndStrideOpInterface>(op);
  std::optional<llvm::SmallDenseSet<unsigned>> dropped =
      computeRankReductionMask(sliceOp.getStaticSizes(), result.getShape());
  return !dropped || dropped->contains(0);
}

Value dist::createTeamSize(OpBuilder &b, Location loc, int64_t team) {
  return distruntime::TeamSizeOp::create(b, loc, b.getIndexType(), team);
}

Value dist::createTeamMember(OpBuilder &b, Location loc, int64_t team) {
  return distruntime::TeamMemberOp::create(b, loc, b.getIndexType(), team);
}

std::pair<SmallVector<Value>, SmallVector<Value>>
dist::createBlock(OpBuilder &b, Location loc, DistEnvAttr env,
                  ValueRange shape) {
  int64_t team = env.getTeam();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  if (env.isDefaultDistribution()) {
    auto [offset, size] = createDefaultPartition(b, loc, team, shape[0]);
    SmallVector<Value> offsets(shape.size(), zero), sizes(shape);
    offsets[0] = offset;
    sizes[0] = size;
    return {offsets, sizes};
  }
  ArrayRef<int64_t> split = env.getSplit();
  SmallVector<Value> grid;
  if (env.getGrid().empty()) {
    for (int64_t k = 0, e = split.size(); k < e; ++k)
      grid.push_back(
          distruntime::GridDimOp::create(b, loc, b.getIndexType(), team, e, k));
  } else {
    int64_t cells = 1;
    for (int64_t size : env.getGrid()) {
      grid.push_back(arith::ConstantIndexOp::create(b, loc, size));
      cells *= size;
    }
    // A block nobody owns would silently lose its elements.
    Value enough = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::sge, createTeamSize(b, loc, team),
        arith::ConstantIndexOp::create(b, loc, cells));
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "the grid of " << env << " needs " << cells
       << " ranks, but the team has fewer";
    cf::AssertOp::create(b, loc, enough, message);
  }
  auto partition = GridPartitionOp::create(
      b, loc, createTeamMember(b, loc, team), grid, shape, split);
  // (Axes that are not split: 0 and the global size, as they are.)
  SmallVector<Value> offsets(shape.size(), zero), sizes(shape);
  for (int64_t axis : split) {
    offsets[axis] = partition.getResultOffsets()[axis];
    sizes[axis] = partition.getResultSizes()[axis];
  }
  return {offsets, sizes};
}

std::pair<Value, Value> dist::createDefaultPartition(OpBuilder &b, Location loc,
                                                     int64_t team, Value rows) {
  Value nprocs = createTeamSize(b, loc, team);
  Value rank = createTeamMember(b, loc, team);
  auto partition =
      DefaultPartitionOp::create(b, loc, nprocs, rank, ValueRange{rows});
  return {partition.getResultOffsets()[0], partition.getResultSizes()[0]};
}

std::pair<Value, Value> dist::createLocalTargetOfSlice(
    OpBuilder &b, Location loc, Value array, ArrayRef<OpFoldResult> offsets,
    ArrayRef<OpFoldResult> sizes, ArrayRef<OpFoldResult> strides) {
  auto target =
      LocalTargetOfSliceOp::create(b, loc, array, offsets, sizes, strides);
  return {target.getResultOffsets()[0], target.getResultSizes()[0]};
}

std::pair<Value, Value> dist::createOwnedRange(OpBuilder &b, Location loc,
                                               Value array) {
  auto type = cast<NDArrayType>(array.getType());
  SmallVector<OpFoldResult> zeros(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(getDimSize(b, loc, array, d));
  return createLocalTargetOfSlice(b, loc, array, zeros, sizes, ones);
}

bool dist::isOwnedRange(Value array, Value offset, Value size) {
  auto target = offset.getDefiningOp<LocalTargetOfSliceOp>();
  if (!target || target.getArray() != array || size.getDefiningOp() != target)
    return false;
  auto type = cast<NDArrayType>(array.getType());
  int64_t rank = type.getRank();
  if (offset != target->getResult(0) || size != target->getResult(rank))
    return false;
  for (int64_t d = 0; d < rank; ++d) {
    OpFoldResult dimSize = target.getMixedSizes()[d];
    bool fullDim =
        type.isDynamicDim(d) ? [&] {
          auto value = dyn_cast<Value>(dimSize);
          auto dim = value ? value.getDefiningOp<DimOp>() : DimOp();
          // (folders may have replaced the array by an
          // operand of the same shape, or the size by its known value)
          return (dim && isConstantIntValue(dim.getIndex(), d)) ||
                 (value && value == getKnownGlobalSize(array, d));
        }()
                             : isConstantIntValue(dimSize, type.getDimSize(d));
    if (!isConstantIntValue(target.getMixedOffsets()[d], 0) ||
        !isConstantIntValue(target.getMixedStrides()[d], 1) || !fullDim)
      return false;
  }
  return true;
}

/// The dist.init_dist_array ops whose storage `array` shares (versions made
/// by inserts and casts, carried by loops), if that is all it may share.
std::optional<SmallVector<InitDistArrayOp>> dist::getStorageRoots(Value array) {
  SmallVector<Value> worklist{array};
  llvm::SmallPtrSet<Value, 8> visited;
  SmallVector<InitDistArrayOp> roots;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!forOp || arg.getArgNumber() == 0)
        return std::nullopt;
      unsigned i = arg.getArgNumber() - 1;
      worklist.push_back(forOp.getInitArgs()[i]);
      worklist.push_back(forOp.getYieldedValues()[i]);
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (auto init = dyn_cast<InitDistArrayOp>(def)) {
      roots.push_back(init);
    } else if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def)) {
      worklist.push_back(insert.getDestination());
    } else if (auto castOp = dyn_cast<CastOp>(def)) {
      worklist.push_back(castOp.getSource());
    } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      unsigned i = cast<OpResult>(value).getResultNumber();
      worklist.push_back(forOp.getInitArgs()[i]);
      worklist.push_back(forOp.getYieldedValues()[i]);
    } else {
      return std::nullopt;
    }
  }
  return roots;
}

/// The default partition all of `roots` own their rows in, if they do.
Operation *dist::getCommonDefaultPartition(ArrayRef<InitDistArrayOp> roots) {
  Operation *common = nullptr;
  for (InitDistArrayOp init : roots) {
    auto partition = init.getOffsets()[0].getDefiningOp<DefaultPartitionOp>();
    if (!partition || (common && common != partition))
      return nullptr;
    common = partition;
  }
  return common;
}

Value dist::lookThroughCasts(Value value) {
  while (auto cast = value.getDefiningOp<CastOp>())
    value = cast.getSource();
  return value;
}

bool dist::isSameIndexValue(Value a, Value b, unsigned depth) {
  if (a == b)
    return true;
  auto x = dyn_cast<OpResult>(a), y = dyn_cast<OpResult>(b);
  if (!x || !y || depth == 0 || x.getResultNumber() != y.getResultNumber())
    return false;
  Operation *opX = x.getOwner(), *opY = y.getOwner();
  if (opX->getNumRegions() != 0 || !isMemoryEffectFree(opX))
    return false;
  return OperationEquivalence::isEquivalentTo(
      opX, opY,
      [&](Value u, Value v) {
        return success(isSameIndexValue(u, v, depth - 1));
      },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// The global number of rows in whose default partition over its team
/// `array` owns its rows, where that is known: an array redistributed to the
/// default distribution, or one whose storage was created in a default
/// partition of its team.
static Value getDefaultPartitionRows(Value array) {
  auto env = getDistEnv(array.getType());
  if (!env || !env.isDefaultDistribution())
    return {};
  if (array.getDefiningOp<RedistributeOp>())
    return getKnownGlobalSize(array, 0);
  std::optional<SmallVector<InitDistArrayOp>> roots = getStorageRoots(array);
  auto partition = roots && !roots->empty()
                       ? dyn_cast_if_present<DefaultPartitionOp>(
                             getCommonDefaultPartition(*roots))
                       : DefaultPartitionOp();
  if (!partition)
    return {};
  auto nprocs = partition.getNprocs().getDefiningOp<distruntime::TeamSizeOp>();
  auto rank = partition.getRank().getDefiningOp<distruntime::TeamMemberOp>();
  if (!nprocs || !rank ||
      nprocs.getTeam() != static_cast<uint64_t>(env.getTeam()) ||
      rank.getTeam() != static_cast<uint64_t>(env.getTeam()))
    return {};
  return partition.getGlobalShape()[0];
}

bool dist::haveSameOwnedRows(Value a, Value b) {
  if (a == b)
    return true;
  std::optional<SmallVector<InitDistArrayOp>> rootsA = getStorageRoots(a);
  std::optional<SmallVector<InitDistArrayOp>> rootsB = getStorageRoots(b);
  if (rootsA && rootsB && !rootsA->empty() && !rootsB->empty()) {
    rootsA->append(*rootsB);
    if (getCommonDefaultPartition(*rootsA))
      return true;
  }
  // (The same team: the types of the arrays compared agree on it.)
  Value rowsA = getDefaultPartitionRows(a);
  return rowsA && rowsA == getDefaultPartitionRows(b) &&
         getDistEnv(a.getType()).getTeam() == getDistEnv(b.getType()).getTeam();
}

/// The type of a part: dimension 0 dynamic, the others as in `type`.
NDArrayType dist::getRowsType(NDArrayType type) {
  SmallVector<int64_t> shape(type.getShape());
  if (!shape.empty())
    shape[0] = ShapedType::kDynamic;
  return dist::withoutDistEnv(type).cloneWith(shape, type.getElementType());
}

Value dist::createLocalRows(OpBuilder &b, Location loc, Value array,
                            OpFoldResult first, OpFoldResult count) {
  auto type = cast<NDArrayType>(array.getType());
  NDArrayType rowsType = getRowsType(type);
  if (getDistEnv(type)) {
    Value box = RepartitionOp::create(
        b, loc, type, array, getValueOrCreateConstantIndexOp(b, loc, first),
        getValueOrCreateConstantIndexOp(b, loc, count));
    Value rows = HeldBlockOfOp::create(b, loc, box);
    return rows.getType() == rowsType ? rows
                                      : CastOp::create(b, loc, rowsType, rows);
  }
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{count},
      strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = first;
  for (int64_t d = 1; d < type.getRank(); ++d)
    sizes.push_back(getDimSize(b, loc, array, d));
  return SubviewOp::create(b, loc, rowsType, array, offsets, sizes, strides);
}

Value dist::createGather(OpBuilder &b, Location loc, Value array) {
  auto type = cast<NDArrayType>(array.getType());
  Value gathered = createLocalRows(b, loc, array, b.getIndexAttr(0),
                                   getDimSize(b, loc, array, 0));
  NDArrayType local = withoutDistEnv(type);
  if (local != gathered.getType())
    gathered = CastOp::create(b, loc, local, gathered);
  return gathered;
}

Value dist::createGatherElement(OpBuilder &b, Location loc, Value array,
                                ValueRange indices) {
  auto type = cast<NDArrayType>(array.getType());
  SmallVector<int64_t> ones(type.getRank(), 1);
  SmallVector<OpFoldResult> unit(type.getRank(), b.getIndexAttr(1));
  // The distributed 1x..x1 view of the element, then its gathered copy.
  NDArrayType viewType =
      withDistEnv(withoutDistEnv(type).cloneWith(ones, type.getElementType()),
                  getDistEnv(type).getTeam());
  Value view = SubviewOp::create(b, loc, viewType, array,
                                 getAsOpFoldResult(indices), unit, unit);
  return createGather(b, loc, view);
}

Value dist::createFromOwned(OpBuilder &b, Location loc, Type distType,
                            Value owned, Value offset,
                            ArrayRef<Value> globalShape) {
  auto type = cast<NDArrayType>(distType);
  NDArrayType blockType = getLocalType(type);
  if (owned.getType() != blockType)
    owned = CastOp::create(b, loc, blockType, owned);
  SmallVector<Value> offsets{offset};
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  offsets.append(type.getRank() - 1, zero);
  return InitDistArrayOp::create(b, loc, type, owned, offsets, globalShape,
                                 /*spare_rows=*/nullptr);
}

Value dist::createDistribute(OpBuilder &b, Location loc, Value replicated,
                             int64_t team, Type distType) {
  auto type = cast<NDArrayType>(replicated.getType());
  auto resultType = cast<NDArrayType>(distType);
  SmallVector<Value> shape;
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape.push_back(getDimValue(b, loc, replicated, d));
  auto [offsets, sizes] = createBlock(b, loc, getDistEnv(resultType), shape);
  SmallVector<OpFoldResult> strides(type.getRank(), b.getIndexAttr(1));
  NDArrayType blockType = getLocalType(resultType);
  Value owned =
      SubviewOp::create(b, loc,
                        withoutDistEnv(type).cloneWith(blockType.getShape(),
                                                       type.getElementType()),
                        replicated, getAsOpFoldResult(offsets),
                        getAsOpFoldResult(sizes), strides);
  if (owned.getType() != blockType)
    owned = CastOp::create(b, loc, blockType, owned);
  return InitDistArrayOp::create(b, loc, resultType, owned, offsets, shape,
                                 /*spare_rows=*/nullptr);
}

Value dist::createDistributedCreate(OpBuilder &b, Location loc, CreateOp create,
                                    DistEnvAttr env) {
  NDArrayType type = create.getType();
  SmallVector<Value> shape;
  auto dynamicSizes = create.getDynamicSizes();
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape.push_back(type.isDynamicDim(d) ? dynamicSizes[next++]
                                         : Value(arith::ConstantIndexOp::create(
                                               b, loc, type.getDimSize(d))));
  NDArrayType distType = withDistEnv(type, env);
  auto [offsets, sizes] = createBlock(b, loc, env, shape);
  NDArrayType localType = getLocalType(distType);
  SmallVector<Value> localSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (localType.isDynamicDim(d))
      localSizes.push_back(sizes[d]);
  Value owned =
      CreateOp::create(b, loc, localType, localSizes, create.getValue());
  return InitDistArrayOp::create(b, loc, distType, owned, offsets, shape,
                                 /*spare_rows=*/nullptr);
}

bool dist::RowLayout::operator==(const RowLayout &other) const {
  if (ownedBy && other.ownedBy)
    return ownedBy == other.ownedBy;
  if (ownedBy)
    return isOwnedRange(ownedBy, other.offset, other.size);
  if (other.ownedBy)
    return isOwnedRange(other.ownedBy, offset, size);
  return offset == other.offset && size == other.size;
}

SmallVector<OpOperand *> dist::getRowAlignedOperands(Operation *op) {
  int64_t rank = cast<NDArrayType>(op->getResult(0).getType()).getRank();
  SmallVector<OpOperand *> operands;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<NDArrayType>(operand.get().getType());
    if (type && isDist(type) && type.getRank() == rank)
      operands.push_back(&operand);
  }
  return operands;
}

std::optional<RowLayout> dist::getOperandsLayout(Operation *op) {
  std::optional<RowLayout> common;
  int64_t rows = cast<NDArrayType>(op->getResult(0).getType()).getDimSize(0);
  for (OpOperand *operand : getRowAlignedOperands(op)) {
    // An operand of one row broadcast to more holds its one row, not the
    // result's (moving a repartition of the result to it would ask it for
    // rows it does not have).
    if (cast<NDArrayType>(operand->get().getType()).getDimSize(0) == 1 &&
        rows != 1)
      return std::nullopt;
    RowLayout layout = getRowLayout(operand->get());
    if (common && !(*common == layout))
      return std::nullopt;
    // An operand without halos determines the rows: the others were
    // repartitioned to its owned rows.
    if (!common || !layout.isExplicit())
      common = layout;
  }
  return common;
}

RowLayout dist::getRowLayout(Value array) {
  Operation *def = array.getDefiningOp();
  if (auto repartition = dyn_cast_if_present<RepartitionOp>(def))
    return {repartition.getOffset(), repartition.getSize(), {}};
  if (auto local = dyn_cast_if_present<LocalRepartitionOp>(def))
    return {local.getOffset(), local.getSize(), {}};
  // An elementwise result holds the rows its aligned operands hold.
  if (def && isRowwise(def))
    if (std::optional<RowLayout> layout = getOperandsLayout(def);
        layout && layout->isExplicit())
      return *layout;
  // Other arrays (built by ndarray-dist) have no halos.
  return {{}, {}, array};
}

/// Whether `op` may write or free memory (unknown effects included).
static bool mayWrite(Operation *op) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  return !effects || llvm::any_of(*effects, [](const auto &effect) {
    return isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect());
  });
}

LogicalResult
dist::hoistDefinitions(ValueRange values, Operation *before,
                       llvm::function_ref<bool(Operation *)> pinned) {
  Block *block = before->getBlock();
  // The ops to move, operands before users.
  SetVector<Operation *> toMove;
  std::function<bool(Value)> collect = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != block || def->isBeforeInBlock(before) ||
        toMove.contains(def))
      return true;
    if (def == before || def->getNumRegions() || mayWrite(def) ||
        (pinned && pinned(def)))
      return false;
    for (Value operand : def->getOperands())
      if (!collect(operand))
        return false;
    toMove.insert(def);
    return true;
  };
  for (Value value : values)
    if (!collect(value))
      return failure();
  if (toMove.empty())
    return success();
  // Reads move before no write.
  Operation *last = toMove.front();
  for (Operation *op : toMove)
    if (last->isBeforeInBlock(op))
      last = op;
  for (Operation *op = before; op != last; op = op->getNextNode())
    if (!toMove.contains(op) && mayWrite(op))
      return failure();
  for (Operation *op : toMove)
    op->moveBefore(before);
  return success();
}
