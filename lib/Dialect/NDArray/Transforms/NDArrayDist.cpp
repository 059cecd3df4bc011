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
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
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

/// The distributed array of type `distType` whose block of the default
/// partition, starting at global row `first`, is `owned`; `rows` is its
/// global size of dimension 0, `shapeOf` has its sizes of dimensions 1...
Value imex::ndarray::detail::bindOwnedRows(OpBuilder &b, Location loc,
                                           Type distType, Value owned,
                                           Value first, Value rows,
                                           Value shapeOf) {
  SmallVector<Value> globalShape{rows};
  for (int64_t d = 1; d < cast<NDArrayType>(distType).getRank(); ++d)
    globalShape.push_back(dist::getDimValue(b, loc, shapeOf, d));
  return dist::createFromOwned(b, loc, distType, owned, first, globalShape);
}

/// Replaces the result of `op` by bindOwnedRows of its type.
void imex::ndarray::detail::replaceWithDistributed(OpBuilder &b, Operation *op,
                                                   Value owned, Value first,
                                                   Value rows, Value shapeOf) {
  op->getResult(0).replaceAllUsesWith(
      bindOwnedRows(b, op->getLoc(), op->getResult(0).getType(), owned, first,
                    rows, shapeOf));
  op->erase();
}

namespace {

/// Removes the attributes naming the distribution of the array `op` makes.
void removeDistAttrs(Operation *op) {
  for (StringRef name :
       {StringRef(kTeamAttrName), dist::DistDialect::getSplitAttrName(),
        dist::DistDialect::getGridAttrName()})
    op->removeAttr(name);
}

/// Replaces a creation op carrying `dist.team` by the local block of the
/// array it creates.
LogicalResult distributeCreation(Operation *op) {
  FailureOr<dist::DistEnvAttr> env = getRequestedDistEnv(op);
  removeDistAttrs(op);
  if (failed(env))
    return failure();
  if (!isa<CreateOp, LinSpaceOp, RandomOp, TriOp, CopyOp>(op))
    return op->emitOpError("'")
           << kTeamAttrName
           << "' is supported on ndarray.create, ndarray.linspace, "
              "ndarray.random, ndarray.tri and ndarray.copy only";
  Value result = op->getResult(0);
  auto type = cast<NDArrayType>(result.getType());
  if (type.getRank() == 0) {
    if (!env->isDefaultDistribution())
      return op->emitOpError("a 0-d array is replicated: it cannot be split ")
             << "(" << *env << ")";
    return success();
  }
  if (failed(env->verifyArrayType([&] { return op->emitOpError(); }, type)))
    return failure();
  int64_t team = env->getTeam();
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  if (auto create = dyn_cast<CreateOp>(op)) {
    // Allocate only the local block.
    Value distributed = dist::createDistributedCreate(b, loc, create, *env);
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
                                             dist::withDistEnv(type, *env));
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
  StringRef splitName = dist::DistDialect::getSplitAttrName(),
            gridName = dist::DistDialect::getGridAttrName();
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    Attribute attr = func.getArgAttr(i, kTeamAttrName);
    if (!attr) {
      for (StringRef name : {StringRef(kShapeAttrName),
                             StringRef(kGhostAttrName), splitName, gridName})
        if (func.getArgAttr(i, name))
          return func.emitOpError("argument #")
                 << i << ": '" << name << "' without '" << kTeamAttrName << "'";
      continue;
    }
    any = true;
    auto shapeAttr =
        dyn_cast_or_null<DenseI64ArrayAttr>(func.getArgAttr(i, kShapeAttrName));
    auto type = dyn_cast<NDArrayType>(func.getArgument(i).getType());
    FailureOr<dist::DistEnvAttr> env = getRequestedDistEnv(
        [&] { return func.emitOpError("argument #") << i << ": "; },
        DictionaryAttr::get(func->getContext(), func.getArgAttrs(i)));
    if (failed(env))
      return failure();
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
    if (failed(env->verifyArrayType(
            [&] { return func.emitOpError("argument #") << i << ": "; }, type)))
      return failure();
    for (StringRef name : {StringRef(kTeamAttrName), StringRef(kShapeAttrName),
                           StringRef(kGhostAttrName), splitName, gridName})
      func.removeArgAttr(i, name);
    BlockArgument block = func.getArgument(i);
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(block.getUses(), [](OpOperand &u) { return &u; });
    Location loc = block.getLoc();
    SmallVector<Value> shape =
        llvm::map_to_vector(shapeAttr.asArrayRef(), [&](int64_t k) -> Value {
          return func.getArgument(k);
        });
    OpBuilder b = OpBuilder::atBlockBegin(&func.getFunctionBody().front());
    if (!env->isDefaultDistribution()) {
      // The block of that distribution: all of the argument, or with
      // `dist.ghost` its middle, `before` and `after` elements from its ends
      // along each split axis (checked).
      auto [offsets, sizes] = dist::createBlock(b, loc, *env, shape);
      ArrayRef<int64_t> split = env->getSplit();
      auto spareAlong = [&](int64_t d, int64_t side) -> int64_t {
        return ghost && llvm::is_contained(split, d) ? ghost[side] : 0;
      };
      Value fits;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        Value size = dist::getDimValue(b, loc, block, d);
        Value expected = sizes[d];
        if (int64_t spare = spareAlong(d, 0) + spareAlong(d, 1))
          expected = arith::AddIOp::create(
              b, loc, expected, arith::ConstantIndexOp::create(b, loc, spare));
        Value equal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            size, expected);
        fits = fits ? arith::AndIOp::create(b, loc, fits, equal) : equal;
      }
      std::string message;
      llvm::raw_string_ostream(message)
          << "argument #" << i << " of @" << func.getName()
          << " is not this rank's block of its array in " << *env;
      cf::AssertOp::create(b, loc, fits, message);
      SmallVector<int64_t> globalShape(type.getShape());
      for (int64_t d : env->getSplit())
        globalShape[d] = ShapedType::kDynamic;
      auto distType = dist::withDistEnv(
          type.cloneWith(globalShape, type.getElementType()), *env);
      // (Seen with the partition's sizes, checked equal: the blocks of
      // arrays of one shape and distribution then have the same size
      // values, and operations between them need no broadcasting.)
      NDArrayType localType = dist::getLocalType(distType);
      SmallVector<OpFoldResult> blockSizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        blockSizes.push_back(
            localType.isDynamicDim(d)
                ? OpFoldResult(sizes[d])
                : OpFoldResult(b.getIndexAttr(localType.getDimSize(d))));
      SmallVector<OpFoldResult> blockOffsets,
          ones(type.getRank(), b.getIndexAttr(1));
      for (int64_t d = 0; d < type.getRank(); ++d)
        blockOffsets.push_back(b.getIndexAttr(spareAlong(d, 0)));
      Value owned = block;
      NDArrayType bufferType = localType;
      if (ghost)
        bufferType = localType.cloneWith(
            SmallVector<int64_t>(
                llvm::map_range(llvm::enumerate(localType.getShape()),
                                [&](auto dim) -> int64_t {
                                  auto [d, size] = dim;
                                  return llvm::is_contained(split, int64_t(d))
                                             ? ShapedType::kDynamic
                                             : size;
                                })),
            localType.getElementType());
      if (owned.getType() != bufferType)
        owned = CastOp::create(b, loc, bufferType, owned);
      owned = SubviewOp::create(b, loc, localType, owned, blockOffsets,
                                blockSizes, ones);
      Value distributed = dist::InitDistArrayOp::create(b, loc, distType, owned,
                                                        offsets, shape, ghost);
      for (OpOperand *use : uses)
        use->set(distributed);
      continue;
    }
    auto [offset, size] =
        dist::createDefaultPartition(b, loc, env->getTeam(), shape[0]);
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
        b, loc, dist::withDistEnv(rowsType, env->getTeam()), owned, offset,
        shape);
    if (ghost)
      distributed.getDefiningOp<dist::InitDistArrayOp>().setSpareRowsAttr(
          ghost);
    for (OpOperand *use : uses)
      use->set(distributed);
  }
  return success();
}

/// Whether a result of `func` is marked distributed (`dist.team`).
bool hasDistributedResults(FunctionOpInterface func) {
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, kTeamAttrName))
      return true;
  return false;
}

/// Distributed function results: a result with `dist.team = T` returns this
/// rank's block of the default partition of the returned array (its rows,
/// a local array; the caller knows the global shape, or sums the rows over
/// the ranks); with `dist.split` (and `dist.grid`) beside it, this rank's
/// block of that distribution (as arguments take it). The returned value is
/// redistributed if it is in another distribution, and distributed if it is
/// replicated (each rank returns its block of it).
LogicalResult distributeResults(FunctionOpInterface func) {
  MLIRContext *context = func->getContext();
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody())
    if (!block.empty() && block.back().hasTrait<OpTrait::ReturnLike>())
      returns.push_back(&block.back());
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    if (!func.getResultAttr(i, kTeamAttrName))
      continue;
    FailureOr<dist::DistEnvAttr> env = getRequestedDistEnv(
        [&] { return func.emitOpError("result #") << i << ": "; },
        DictionaryAttr::get(context, func.getResultAttrs(i)));
    if (failed(env))
      return failure();
    auto type = dyn_cast<NDArrayType>(func.getResultTypes()[i]);
    if (!type || type.getRank() == 0 || dist::getDistEnv(type))
      return func.emitOpError("result #")
             << i << ": '" << kTeamAttrName
             << "' needs a local array of rank >= 1 (this rank's block)";
    if (failed(env->verifyArrayType(
            [&] { return func.emitOpError("result #") << i << ": "; }, type)))
      return failure();
    SmallVector<int64_t> split(env->getSplit());
    if (env->isDefaultDistribution())
      split = {0};
    for (int64_t d : split)
      if (!type.isDynamicDim(d))
        return func.emitOpError("result #")
               << i << ": dimension " << d
               << " is split (each rank returns its block), so it must be "
                  "dynamic, got "
               << type;
    for (StringRef name :
         {StringRef(kTeamAttrName), dist::DistDialect::getSplitAttrName(),
          dist::DistDialect::getGridAttrName()})
      func.removeResultAttr(i, StringAttr::get(context, name));
    for (Operation *ret : returns) {
      OpBuilder b(ret);
      Location loc = ret->getLoc();
      Value value = ret->getOperand(i);
      auto valueType = cast<NDArrayType>(value.getType());
      auto valueEnv = dist::getDistEnv(valueType);
      if (valueEnv && valueEnv.getTeam() != env->getTeam())
        return ret->emitOpError("returns an array distributed over team ")
               << valueEnv.getTeam() << " as result #" << i << " of team "
               << env->getTeam();
      NDArrayType resultType = dist::withDistEnv(valueType, *env);
      if (!valueEnv)
        value =
            dist::createDistribute(b, loc, value, env->getTeam(), resultType);
      else if (valueEnv != *env)
        value = dist::RedistributeOp::create(b, loc, resultType, value);
      Value owned = dist::OwnedBlockOfOp::create(b, loc, value);
      if (owned.getType() != type)
        owned = CastOp::create(b, loc, type, owned);
      ret->setOperand(i, owned);
    }
  }
  return success();
}

/// The local block a distributed argument was bound from by `init`, if it
/// is one (see distributeArguments).
Value getArgumentBlock(dist::InitDistArrayOp init) {
  if (!init)
    return {};
  Value block = init.getBlock();
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
LogicalResult checkWholeArrayWriteBack(InsertSliceOp insert) {
  auto isZero = [](OpFoldResult v) { return isConstantIntValue(v, 0); };
  auto isOne = [](OpFoldResult v) { return isConstantIntValue(v, 1); };
  if (!llvm::all_of(insert.getMixedOffsets(), isZero) ||
      !llvm::all_of(insert.getMixedStrides(), isOne))
    return insert.emitOpError("in-place update of a distributed argument "
                              "that is not a whole-array write-back; run "
                              "-ndarray-value-semantics first");
  return success();
}

/// Whether `value` is a version of the argument bound by `init` (its
/// storage, through updates and loops, is that of `init` alone).
bool isVersionOfArgument(Value value, dist::InitDistArrayOp init) {
  std::optional<SmallVector<dist::InitDistArrayOp>> roots =
      dist::getStorageRoots(value);
  return roots && !roots->empty() &&
         llvm::all_of(*roots,
                      [&](dist::InitDistArrayOp root) { return root == init; });
}

LogicalResult writeBackToArgument(InsertSliceOp insert,
                                  dist::InitDistArrayOp init, Value block) {
  if (failed(checkWholeArrayWriteBack(insert)))
    return failure();
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
  bool isVersion = isVersionOfArgument(insert.getSource(), init);
  Value rows = isVersion
                   ? dist::OwnedBlockOfOp::create(b, loc, insert.getSource())
                   : dist::createLocalRows(b, loc, insert.getSource(),
                                           init.getOffsets()[0], sizes[0]);
  auto write = InsertSliceOp::create(b, loc, rows, block, offsets, sizes, ones);
  if (isVersion && init.getSpareRowsAttr())
    write->setAttr(dist::kGhostedWriteBackAttrName, b.getUnitAttr());
  insert.erase();
  return success();
}

/// The write-back of the final value of an updated argument in another
/// distribution than rows: this rank's block of the value (redistributed to
/// the argument's distribution) into the argument's block. Runs before
/// redistributeOperands, which would otherwise send the insert's operands
/// to rows.
LogicalResult writeBackGridArguments(FunctionOpInterface func) {
  SmallVector<std::pair<InsertSliceOp, dist::InitDistArrayOp>> writeBacks;
  func->walk([&](InsertSliceOp insert) {
    auto init = insert.getDestination().getDefiningOp<dist::InitDistArrayOp>();
    if (getArgumentBlock(init) && hasNonDefaultDistribution(init.getType()))
      writeBacks.emplace_back(insert, init);
  });
  for (auto [insert, init] : writeBacks) {
    if (failed(checkWholeArrayWriteBack(insert)))
      return failure();
    OpBuilder b(insert);
    Location loc = insert.getLoc();
    Value value = insert.getSource();
    auto env = dist::getDistEnv(init.getType());
    if (!dist::getDistEnv(value.getType()))
      value =
          dist::createDistribute(b, loc, value, env.getTeam(), init.getType());
    else if (dist::getDistEnv(value.getType()) != env)
      value = dist::RedistributeOp::create(
          b, loc, dist::withDistEnv(insert.getSource().getType(), env), value);
    Value block = init.getBlock();
    auto type = cast<NDArrayType>(block.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
    SmallVector<OpFoldResult> ones(type.getRank(), b.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(dist::getDimSize(b, loc, block, d));
    // A version of the argument with ghost cells (its storage, through
    // updates and loops) is written back as its whole buffer (see
    // writeBackToArgument).
    SubviewOp spareView = init.getSpareRowsView();
    bool ghosted = spareView && isVersionOfArgument(value, init);
    if (ghosted) {
      block = getArgumentBlock(init);
      offsets = spareView.getMixedOffsets();
    }
    auto write = InsertSliceOp::create(
        b, loc, dist::OwnedBlockOfOp::create(b, loc, value), block, offsets,
        sizes, ones);
    if (ghosted)
      write->setAttr(dist::kGhostedWriteBackAttrName, b.getUnitAttr());
    insert.erase();
  }
  return success();
}

LogicalResult rewriteOp(Operation *op, InsertTargets &targets) {
  // Arrays split on other axes or over a grid: only ops that
  // convert-dist-to-standard computes on blocks of any distribution see
  // them (redistributeOperands), and they need nothing more.
  if (llvm::any_of(op->getOperandTypes(), hasNonDefaultDistribution) ||
      llvm::any_of(op->getResultTypes(), hasNonDefaultDistribution))
    return success();
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
  if (auto fft = dyn_cast<FFTOp>(op);
      fft && dist::getDistEnv(fft.getSource().getType()))
    return distributeRowFFT(fft);
  if (auto linalg = dyn_cast<LinalgOp>(op); linalg && getOperandTeam(op))
    return distributeBatchLinalg(linalg);
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
    if (seeds.empty() && !distributedArguments && !hasDistributedResults(func))
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
      FailureOr<dist::DistEnvAttr> env = getRequestedDistEnv(op);
      if (failed(env))
        return failure();
      if (env->getTeam() != source.getTeam())
        return op->emitOpError("copies an array distributed over team ")
               << source.getTeam() << " to team " << env->getTeam()
               << ": redistribution to another team is not supported";
      // (Another distribution of the same team: the copy's result has it,
      // and its operand is redistributed below.)
      removeDistAttrs(op);
    }

    if (failed(distributeResults(func)))
      return failure();

    // Otherwise distributed arrays live inside one function: their parts
    // and offsets are not part of any calling convention.
    WalkResult boundary = func->walk([&](Operation *op) {
      if (!isa<CallOpInterface>(op) && !op->hasTrait<OpTrait::ReturnLike>())
        return WalkResult::advance();
      if (isa<RegionBranchTerminatorOpInterface>(op) &&
          !isa<func::ReturnOp>(op))
        return WalkResult::advance();
      for (Type type : op->getOperandTypes())
        if (dist::getDistEnv(type)) {
          op->emitOpError("passes a distributed array across a function "
                          "boundary; inline the callee first (a function "
                          "returns this rank's rows of a result marked "
                          "'dist.team')");
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

    if (failed(writeBackGridArguments(func)))
      return failure();
    redistributeOperands(func);

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
  /// are distributed just before the op or terminator forwarding them;
  /// distributed values of another distribution are redistributed.
  LogicalResult distributeEdgeSources(FunctionOpInterface func) {
    SmallVector<RegionBranchOpInterface> branches;
    func->walk([&](RegionBranchOpInterface op) { branches.push_back(op); });
    for (RegionBranchOpInterface branch : branches) {
      forEachEdge(branch, [&](Operation *forwarder, OperandRange sources,
                              ValueRange inputs) {
        for (auto [i, pair] : llvm::enumerate(llvm::zip(sources, inputs))) {
          auto [source, input] = pair;
          auto env = dist::getDistEnv(input.getType());
          auto sourceEnv = dist::getDistEnv(source.getType());
          if (!env || sourceEnv == env ||
              (sourceEnv && cast<NDArrayType>(source.getType()).getRank() == 0))
            continue;
          OpBuilder b(forwarder);
          Value distributed =
              sourceEnv
                  ? dist::RedistributeOp::create(b, forwarder->getLoc(),
                                                 input.getType(), source)
                        .getResult()
                  : dist::createDistribute(b, forwarder->getLoc(), source,
                                           env.getTeam(), input.getType());
          forwarder->setOperand(sources.getBeginOperandIndex() + i,
                                distributed);
        }
      });
    }
    return success();
  }
};

} // namespace
