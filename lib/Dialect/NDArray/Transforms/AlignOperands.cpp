//===- AlignOperands.cpp - rows of elementwise results --------------------===//
//
// ndarray-dist: the rows of dimension 0 each rank computes of an elementwise
// result (those of an operand, or of the slice it is inserted into), and the
// repartitions aligning the other operands with them.
//
//===----------------------------------------------------------------------===//

#include "DistributeOps.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::detail;

namespace {

/// The size of dimension 0 of the global array `value` as an index value,
/// taken from the op defining the size where possible, so that equal sizes
/// are the same value and comparisons of them fold.
Value dimZero(OpBuilder &b, Location loc, Value value) {
  while (true) {
    auto type = cast<NDArrayType>(value.getType());
    if (!type.isDynamicDim(0))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(0));
    Operation *def = value.getDefiningOp();
    if (isa_and_present<CastOp, dist::RepartitionOp, dist::RedistributeOp>(
            def)) {
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
      // Dimension 0 of the result is the broadcast of the
      // operands' of the same rank.
      Value size;
      for (Value operand : def->getOperands()) {
        if (cast<NDArrayType>(operand.getType()).getRank() != type.getRank())
          continue;
        Value rows = dimZero(b, loc, operand);
        size = size ? dist::createBroadcastSize(b, loc, size, rows) : rows;
      }
      if (size)
        return size;
    }
    return dist::getDimValue(b, loc, value, 0);
  }
}

/// `size`, or the value it reads if it is `ndarray.dim` of a distributed
/// array whose global size is known: equal sizes then compare equal at
/// compile time.
Value getKnownSize(Value size) {
  auto dim = size.getDefiningOp<DimOp>();
  std::optional<int64_t> index =
      dim ? getConstantIntValue(dim.getIndex()) : std::nullopt;
  if (!index || !dist::getDistEnv(dim.getSource().getType()))
    return size;
  Value known = dist::getKnownGlobalSize(dim.getSource(), *index);
  return known ? known : size;
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
  Value rows = getKnownSize(dimZero(b, loc, operand));
  size0 = getKnownSize(size0);
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

} // namespace

/// Aligns the operands of an elementwise-like op (one result of rank >= 1
/// split like the operands).
void imex::ndarray::detail::alignElementwiseOperands(Operation *op,
                                                     InsertTargets &targets) {
  auto resultType = cast<NDArrayType>(op->getResult(0).getType());
  auto env = dist::getDistEnv(resultType);
  if (!env)
    return;
  OpBuilder b(op);
  Location loc = op->getLoc();
  int64_t rank = resultType.getRank();
  // The result's dimension 0 is the broadcast of the operands' (equal sizes
  // or 1: 0 if one is 0, else their maximum).
  Value size0;
  if (!resultType.isDynamicDim(0)) {
    size0 = constIndex(b, loc, resultType.getDimSize(0));
  } else {
    for (Value operand : op->getOperands()) {
      auto type = cast<NDArrayType>(operand.getType());
      if (type.getRank() != rank)
        continue;
      Value rows = dimZero(b, loc, operand);
      size0 = size0 ? dist::createBroadcastSize(b, loc, size0, rows) : rows;
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
void imex::ndarray::detail::alignInsertedSource(ImmutableInsertSliceOp op,
                                                InsertTargets &targets) {
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
