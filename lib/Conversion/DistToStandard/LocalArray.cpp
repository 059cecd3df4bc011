//===- LocalArray.cpp - the local storage of a distributed array ----------===//
//
// The local representation of distributed arrays and the helpers the
// convert-dist-to-standard patterns build it with: views of rows, buffers
// with spare rows, and halo exchanges into them.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

//===----------------------------------------------------------------------===//
// IndexMath
//===----------------------------------------------------------------------===//

Value IndexMath::c(int64_t v) const {
  return arith::ConstantIndexOp::create(b, loc, v);
}
Value IndexMath::add(Value x, Value y) const {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}
Value IndexMath::sub(Value x, Value y) const {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}
Value IndexMath::mul(Value x, Value y) const {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}
Value IndexMath::min(Value x, Value y) const {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}
Value IndexMath::max(Value x, Value y) const {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}
Value IndexMath::clamp(Value x, Value lo, Value hi) const {
  std::optional<int64_t> constX = getConstantIntValue(x),
                         constLo = getConstantIntValue(lo);
  if (constX && constLo && *constX <= *constLo)
    return lo;
  return min(max(x, lo), hi);
}
Value IndexMath::cmp(arith::CmpIPredicate pred, Value x, Value y) const {
  return b.createOrFold<arith::CmpIOp>(loc, pred, x, y);
}
Value IndexMath::land(Value x, Value y) const {
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}
Value IndexMath::select(Value cond, Value x, Value y) const {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}
Value IndexMath::ceilDiv(Value x, Value y) const {
  return b.createOrFold<arith::CeilDivSIOp>(loc, x, y);
}
Value IndexMath::floorDiv(Value x, Value y) const {
  return b.createOrFold<arith::DivSIOp>(loc, x, y);
}
Value IndexMath::rows(Value array) const {
  return dist::getDimValue(b, loc, array, 0);
}

//===----------------------------------------------------------------------===//
// LocalArray
//===----------------------------------------------------------------------===//

LocalArray LocalArray::unpack(ValueRange values) {
  assert(values.size() == kNumValues && "not a distributed array");
  return {values[0], values[1], values[2], values[3],
          values[4], values[5], values[6]};
}

SmallVector<Value> LocalArray::pack() const {
  return {buffer, first, ownedFrom, ownedCount, validCount, offset, size0};
}

LocalArray LocalArray::fromOwned(OpBuilder &b, Location loc, Value owned,
                                 Value start, Value size0) {
  IndexMath m{b, loc};
  Value count = m.rows(owned);
  return {owned, m.c(0), m.c(0), count, count, start, size0};
}

Value LocalArray::owned(OpBuilder &b, Location loc) const {
  IndexMath m{b, loc};
  return sliceRows(b, loc, buffer, ownedRow(m), ownedCount);
}

Value LocalArray::validSlice(OpBuilder &b, Location loc, Value from,
                             Value count) const {
  IndexMath m{b, loc};
  return sliceRows(b, loc, buffer, m.add(first, from), count);
}

Value LocalArray::valid(OpBuilder &b, Location loc) const {
  IndexMath m{b, loc};
  return validSlice(b, loc, m.c(0), validCount);
}

bool LocalArray::hasNoSpareRows() const {
  if (!isConstantIntValue(first, 0) || !isConstantIntValue(ownedFrom, 0))
    return false;
  if (validCount != ownedCount) {
    std::optional<int64_t> valid = getConstantIntValue(validCount);
    if (!valid || valid != getConstantIntValue(ownedCount))
      return false;
  }
  Value storage = lookThroughCasts(buffer);
  if (auto dim = ownedCount.getDefiningOp<DimOp>())
    return (dim.getSource() == buffer || dim.getSource() == storage) &&
           isConstantIntValue(dim.getIndex(), 0);
  auto type = cast<NDArrayType>(buffer.getType());
  std::optional<int64_t> count = getConstantIntValue(ownedCount);
  return count && !type.isDynamicDim(0) && type.getDimSize(0) == *count;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool dist::detail::isStaticallyEmpty(Value array) {
  while (true) {
    if (cast<NDArrayType>(array.getType()).getDimSize(0) == 0)
      return true;
    if (auto cast = array.getDefiningOp<CastOp>()) {
      array = cast.getSource();
      continue;
    }
    if (auto view = array.getDefiningOp<SubviewOp>())
      return isConstantIntValue(view.getMixedSizes()[0], 0);
    return false;
  }
}

NDArrayType dist::detail::getBufferType(NDArrayType distType) {
  return dist::getRowsType(dist::getLocalType(distType));
}

Value dist::detail::castTo(OpBuilder &b, Location loc, Value value, Type type) {
  return value.getType() == type ? value : CastOp::create(b, loc, type, value);
}

Value dist::detail::buildIf(OpBuilder &b, Location loc, Value cond, Type type,
                            function_ref<Value()> thenValue,
                            function_ref<Value()> elseValue) {
  auto coerce = [&](Value v) { return castTo(b, loc, v, type); };
  if (std::optional<int64_t> known = getConstantIntValue(cond))
    return coerce(*known ? thenValue() : elseValue());
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, cond,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  scf::YieldOp::create(b, loc, coerce(thenValue()));
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(b, loc, coerce(elseValue()));
  return ifOp.getResult(0);
}

Value dist::detail::sliceRows(OpBuilder &b, Location loc, Value array,
                              Value first, Value count, Value step) {
  auto type = cast<NDArrayType>(array.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
  offsets[0] = first;
  sizes.push_back(count);
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(dist::getDimSize(b, loc, array, d));
  if (step)
    strides[0] = step;
  return SubviewOp::create(b, loc, dist::getRowsType(type), array, offsets,
                           sizes, strides);
}

Value dist::detail::insertRows(OpBuilder &b, Location loc, Value into,
                               Value local, Value row, Value count) {
  auto type = cast<NDArrayType>(into.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes{count}, strides(rank, b.getIndexAttr(1));
  offsets[0] = row;
  // (Sizes from the source where it has all dimensions: known to match it,
  // so that the insert needs no broadcasting.)
  Value sized =
      cast<NDArrayType>(local.getType()).getRank() == rank ? local : into;
  for (int64_t d = 1; d < rank; ++d)
    sizes.push_back(dist::getDimSize(b, loc, sized, d));
  return ImmutableInsertSliceOp::create(b, loc, local, into, offsets, sizes,
                                        strides);
}

LocalArray dist::detail::withSpareRows(OpBuilder &b, Location loc, Value owned,
                                       Value start, Value size0, Value left,
                                       Value right) {
  IndexMath m{b, loc};
  auto type = dist::getRowsType(cast<NDArrayType>(owned.getType()));
  Value count = m.rows(owned);
  SmallVector<Value> dynamicSizes{m.add(m.add(left, count), right)};
  for (int64_t d = 1; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(dist::getDimValue(b, loc, owned, d));
  // A created owned block is created with the spare rows instead (their
  // contents do not matter): no copy.
  auto create = owned.getDefiningOp<CreateOp>();
  Value buffer = CreateOp::create(b, loc, type, dynamicSizes,
                                  create ? create.getValue() : Value());
  if (!create)
    buffer = insertRows(b, loc, buffer, owned, left, count);
  return {buffer, left, m.c(0), count, count, start, size0};
}

std::pair<Value, Value> dist::detail::ownedRowsInBox(const IndexMath &m,
                                                     Value start, Value count,
                                                     Value boxOffset,
                                                     Value boxEnd) {
  Value first = m.clamp(m.sub(boxOffset, start), m.c(0), count);
  return {first, m.clamp(m.sub(boxEnd, start), first, count)};
}

LocalArray dist::detail::exchangeRows(OpBuilder &b, Location loc, int64_t team,
                                      const LocalArray &array, Value boxOffset,
                                      Value boxSize, bool fits,
                                      Value *ownedRowOut) {
  IndexMath m{b, loc};
  Value owned = array.owned(b, loc);
  Value count = array.ownedCount;
  Value start = array.ownedStart(m);
  Value end = m.add(start, count);
  Value boxEnd = m.add(boxOffset, boxSize);
  // Halo rows of the box before and after the owned block.
  Value zero = m.c(0);
  Value left = m.clamp(m.sub(start, boxOffset), zero, boxSize);
  Value right = m.clamp(m.sub(boxEnd, end), zero, boxSize);

  // The buffer the halos go to: the array's own when its spare rows suffice
  // (in place: the owned rows are not copied), else a new one.
  auto bufferType = cast<NDArrayType>(array.buffer.getType());
  Value ownedRow = array.ownedRow(m);
  Value buffer, row;
  if (fits) {
    buffer = array.buffer;
    row = ownedRow;
  } else if (array.hasNoSpareRows()) {
    LocalArray fresh =
        withSpareRows(b, loc, owned, start, array.size0, left, right);
    buffer = castTo(b, loc, fresh.buffer, bufferType);
    row = left;
  } else {
    Value spareAfter = m.sub(m.sub(m.rows(array.buffer), ownedRow), count);
    Value enough = m.land(m.le(left, ownedRow), m.le(right, spareAfter));
    auto ifOp = scf::IfOp::create(
        b, loc, TypeRange{bufferType, b.getIndexType()}, enough,
        /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{array.buffer, ownedRow});
    b.setInsertionPointToStart(&ifOp.getElseRegion().front());
    LocalArray fresh =
        withSpareRows(b, loc, owned, start, array.size0, left, right);
    scf::YieldOp::create(
        b, loc, ValueRange{castTo(b, loc, fresh.buffer, bufferType), left});
    b.setInsertionPointAfter(ifOp);
    buffer = ifOp.getResult(0);
    row = ifOp.getResult(1);
  }

  int64_t rank = bufferType.getRank();
  NDArrayType haloType = dist::getRowsType(bufferType);
  auto halo = distruntime::GetHaloOp::create(
      b, loc, distruntime::AsyncHandleType::get(b.getContext()), haloType,
      haloType, owned, withTrailingDims(b, loc, array.size0, owned),
      withTrailingZeros(b, loc, start, rank),
      withTrailingZeros(b, loc, boxOffset, rank),
      withTrailingDims(b, loc, boxSize, owned), team);
  auto wait = distruntime::WaitOp::create(
      b, loc, halo.getHandle(),
      ValueRange{owned, halo.getLhalo(), halo.getRhalo()});
  // (The row counts of the inserts are those of the received arrays: equal
  // to left and right, and known to match the sources, so that the inserts
  // need no broadcasting.)
  // They are ghost cells: valid until the array is next updated.
  Value leftHalo = wait.getResult(1), rightHalo = wait.getResult(2);
  for (auto [halo, at] : {std::make_pair(leftHalo, m.sub(row, left)),
                          std::make_pair(rightHalo, m.add(row, count))}) {
    buffer = insertRows(b, loc, buffer, halo, at, m.rows(halo));
    buffer.getDefiningOp()->setAttr(kGhostWriteAttrName, b.getUnitAttr());
  }

  if (ownedRowOut)
    *ownedRowOut = row;
  // The owned rows inside the box follow the left halo.
  auto [firstOwned, lastOwned] =
      ownedRowsInBox(m, start, count, boxOffset, boxEnd);
  // (The valid rows are the box: its rows before, in and after the owned
  // block.)
  return {buffer,     m.sub(m.add(row, firstOwned), left),
          left,       m.sub(lastOwned, firstOwned),
          boxSize,    boxOffset,
          array.size0};
}

bool dist::detail::isDefinedBefore(Value value, Operation *op) {
  Operation *def = value.getDefiningOp();
  Block *block = def ? def->getBlock() : cast<BlockArgument>(value).getOwner();
  Operation *ancestor = block->findAncestorOpInBlock(*op);
  return ancestor && (!def || def->isBeforeInBlock(ancestor));
}

std::pair<Value, Value> LocalArray::ownedIn(const IndexMath &m, Value from,
                                            Value count) const {
  Value lo = m.clamp(m.sub(ownedFrom, from), m.c(0), count);
  Value hi = m.clamp(m.sub(m.add(ownedFrom, ownedCount), from), lo, count);
  return {lo, m.sub(hi, lo)};
}

/// The exchange from `buffer` that precedes `user` (in its block or an
/// enclosing one), if any.
static const ExchangedBuffer *
findExchangeBefore(Value buffer, Operation *user,
                   const ExchangedBuffers &exchanged) {
  auto it = exchanged.find(buffer);
  if (it == exchanged.end() || !it->second.buffer.getDefiningOp() ||
      !isDefinedBefore(it->second.buffer, user))
    return nullptr;
  return &it->second;
}

LocalArray dist::detail::getLatestOwned(const LocalArray &array, OpBuilder &b,
                                        Location loc, Operation *user,
                                        const ExchangedBuffers &exchanged) {
  IndexMath m{b, loc};
  LocalArray owned{array.buffer,     array.ownedRow(m), m.c(0),
                   array.ownedCount, array.ownedCount,  array.ownedStart(m),
                   array.size0};
  while (const ExchangedBuffer *next =
             findExchangeBefore(owned.buffer, user, exchanged)) {
    owned.buffer = next->buffer;
    owned.first = next->ownedRow;
  }
  return owned;
}

LocalArray dist::detail::getLatest(const LocalArray &array, Operation *user,
                                   const ExchangedBuffers &exchanged) {
  LocalArray latest = array;
  while (const ExchangedBuffer *next =
             findExchangeBefore(latest.buffer, user, exchanged)) {
    if (!next->inPlace)
      break;
    latest.buffer = next->buffer;
  }
  return latest;
}

/// The local array `local` (global rows from `start`) as the replacement of
/// the distributed `result`.
LogicalResult
dist::detail::replaceOnOwnedBlock(ConversionPatternRewriter &rewriter,
                                  Operation *op, const LocalArray &array) {
  Location loc = op->getLoc();
  IndexMath m{rewriter, loc};
  Value owned = array.owned(rewriter, loc);
  Operation *local = rewriter.clone(*op);
  local->setOperand(0, owned);
  local->getResult(0).setType(
      getRowsType(cast<NDArrayType>(op->getResult(0).getType())));
  return replaceWithOwned(rewriter, op, local->getResult(0),
                          array.ownedStart(m), array.size0);
}

LogicalResult
dist::detail::replaceWithOwned(ConversionPatternRewriter &rewriter,
                               Operation *op, Value local, Value start,
                               Value size0) {
  auto resultType = cast<NDArrayType>(op->getResultTypes()[0]);
  if (!getDistEnv(resultType))
    return op->emitOpError("keeps the rows of a distributed array, so its "
                           "result must be distributed too, got ")
           << resultType;
  Location loc = op->getLoc();
  LocalArray array = LocalArray::fromOwned(rewriter, loc, local, start, size0);
  array.buffer = castTo(rewriter, loc, array.buffer, getBufferType(resultType));
  rewriter.replaceOpWithMultiple(op, {array.pack()});
  return success();
}

SmallVector<Value> dist::detail::withTrailingDims(OpBuilder &b, Location loc,
                                                  Value first, Value array) {
  SmallVector<Value> values{first};
  auto type = cast<NDArrayType>(array.getType());
  for (int64_t d = 1; d < type.getRank(); ++d)
    values.push_back(dist::getDimValue(b, loc, array, d));
  return values;
}

SmallVector<Value> dist::detail::withTrailingZeros(OpBuilder &b, Location loc,
                                                   Value first, int64_t rank) {
  SmallVector<Value> values{first};
  values.append(rank - 1, arith::ConstantIndexOp::create(b, loc, 0));
  return values;
}
