//===- DistToStandard.cpp - lower distributed arrays to local code --------===//
//
// Every distributed array becomes its local representation: the three parts
// (left halo, owned block, right halo), the global offset of the first row
// of the left halo and the global size of dimension 0 (the sizes of the other
// dimensions are those of the parts). Operations on distributed arrays become
// ndarray operations on the parts plus distruntime communication.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/DistToStandard/DistToStandard.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Transforms/Passes.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace imex {
#define GEN_PASS_DEF_CONVERTDISTTOSTANDARD
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;

namespace {

//===----------------------------------------------------------------------===//
// Local representation
//===----------------------------------------------------------------------===//

/// Rows per block of the reproducible floating point reductions over
/// dimension 0 (part of the result's definition: changing it changes the
/// rounding).
constexpr int64_t kOrderedReductionBlock = 64;

/// Number of values a distributed array of rank >= 1 becomes.
constexpr unsigned kNumLocalValues = 5;

/// The local representation of a distributed array of rank >= 1.
struct LocalArray {
  std::array<Value, 3> parts; // left halo, owned block, right halo
  Value offset;               // global row of the first row of parts[0]
  Value size0;                // global size of dimension 0

  static LocalArray unpack(ValueRange values) {
    assert(values.size() == kNumLocalValues && "not a distributed array");
    return {{values[0], values[1], values[2]}, values[3], values[4]};
  }
  SmallVector<Value> pack() const {
    return {parts[0], parts[1], parts[2], offset, size0};
  }
};

/// Index arithmetic that folds constants as it builds.
struct IndexMath {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v) const { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) const {
    return b.createOrFold<arith::AddIOp>(loc, x, y);
  }
  Value sub(Value x, Value y) const {
    return b.createOrFold<arith::SubIOp>(loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return b.createOrFold<arith::MulIOp>(loc, x, y);
  }
  Value min(Value x, Value y) const {
    return b.createOrFold<arith::MinSIOp>(loc, x, y);
  }
  Value max(Value x, Value y) const {
    return b.createOrFold<arith::MaxSIOp>(loc, x, y);
  }
  Value clamp(Value x, Value lo, Value hi) const { return min(max(x, lo), hi); }
  Value eq(Value x, Value y) const {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
  }
  Value ne(Value x, Value y) const {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x, y);
  }
  Value gt(Value x, Value y) const {
    return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, x, y);
  }
  Value land(Value x, Value y) const {
    return b.createOrFold<arith::AndIOp>(loc, x, y);
  }
  Value select(Value cond, Value x, Value y) const {
    return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
  }
  Value ceilDiv(Value x, Value y) const {
    return b.createOrFold<arith::CeilDivSIOp>(loc, x, y);
  }
  Value rows(Value array) const { return dist::getDimValue(b, loc, array, 0); }
};

std::optional<bool> getConstantBool(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c != 0;
  return std::nullopt;
}

/// `value` as an array of type `type` (a cast unless it has that type).
Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  return value.getType() == type ? value : CastOp::create(b, loc, type, value);
}

/// `thenValue()` if `cond` holds, else `elseValue()`, as an scf.if yielding
/// arrays of type `type` (no branch when `cond` is a constant).
Value buildIf(OpBuilder &b, Location loc, Value cond, Type type,
              function_ref<Value()> thenValue,
              function_ref<Value()> elseValue) {
  auto coerce = [&](Value v) { return castTo(b, loc, v, type); };
  if (std::optional<bool> known = getConstantBool(cond))
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

using dist::getRowsType;

/// Rows [first, first + count) of the local array `array` (a view).
Value sliceRows(OpBuilder &b, Location loc, Value array, Value first,
                Value count, Value step = nullptr) {
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
  return SubviewOp::create(b, loc, getRowsType(type), array, offsets, sizes,
                           strides);
}

/// The concatenation of the three parts (a copy unless two are empty).
Value concatParts(OpBuilder &b, Location loc, const LocalArray &array) {
  NDArrayType type = getRowsType(cast<NDArrayType>(array.parts[1].getType()));
  return ConcatOp::create(b, loc, type, ValueRange(array.parts), 0);
}

/// Whether the local array `part` has no rows, as far as known at compile
/// time (looking through casts and views).
bool isStaticallyEmpty(Value part) {
  while (true) {
    auto type = cast<NDArrayType>(part.getType());
    if (type.getDimSize(0) == 0)
      return true;
    if (auto cast = part.getDefiningOp<CastOp>()) {
      part = cast.getSource();
      continue;
    }
    if (auto view = part.getDefiningOp<SubviewOp>())
      return isConstantIntValue(view.getMixedSizes()[0], 0);
    return false; // (zero-row creates have static type dimension 0)
  }
}

/// Each part's rows of [first, last), rows of the concatenation of the
/// parts of `array` (views; parts known to be empty are returned as they
/// are).
std::array<Value, 3> slicePartRows(OpBuilder &b, Location loc,
                                   const LocalArray &array, Value first,
                                   Value last) {
  IndexMath m{b, loc};
  std::array<Value, 3> pieces;
  Value start = m.c(0);
  for (auto [part, piece] : llvm::zip(array.parts, pieces)) {
    if (isStaticallyEmpty(part)) {
      piece = part;
      continue;
    }
    Value count = m.rows(part);
    Value lo = m.clamp(m.sub(first, start), m.c(0), count);
    Value hi = m.clamp(m.sub(last, start), m.c(0), count);
    piece = sliceRows(b, loc, part, lo, m.max(m.sub(hi, lo), m.c(0)));
    start = m.add(start, count);
  }
  return pieces;
}

/// Rows [first, last) of the concatenation of the parts of `array`.
Value rowsOfParts(OpBuilder &b, Location loc, const LocalArray &array,
                  Value first, Value last) {
  SmallVector<Value> pieces;
  for (Value piece : slicePartRows(b, loc, array, first, last))
    if (!isStaticallyEmpty(piece))
      pieces.push_back(piece);
  if (pieces.empty())
    return dist::createEmptyRows(b, loc, array.parts[1]);
  if (pieces.size() == 1)
    return pieces.front();
  NDArrayType type = getRowsType(cast<NDArrayType>(array.parts[1].getType()));
  return ConcatOp::create(b, loc, type, pieces, 0);
}

/// Global row of the first owned row.
Value ownedStart(IndexMath &m, const LocalArray &array) {
  return m.add(array.offset, m.rows(array.parts[0]));
}

/// A distributed array whose only non-empty part is `owned`.
SmallVector<Value> fromOwned(OpBuilder &b, Location loc, NDArrayType distType,
                             Value owned, Value offset, Value size0) {
  NDArrayType partType = dist::getPartType(distType, 1);
  if (owned.getType() != partType)
    owned = CastOp::create(b, loc, partType, owned);
  Value empty = dist::createEmptyRows(b, loc, owned);
  return LocalArray{{empty, owned, empty}, offset, size0}.pack();
}

int64_t getTeam(Type type) { return dist::getDistEnv(type).getTeam(); }

/// Index vectors for distruntime ops: `first` then dimensions 1.. of `part`.
SmallVector<Value> withTrailingDims(OpBuilder &b, Location loc, Value first,
                                    Value part) {
  SmallVector<Value> values{first};
  auto type = cast<NDArrayType>(part.getType());
  for (int64_t d = 1; d < type.getRank(); ++d)
    values.push_back(dist::getDimValue(b, loc, part, d));
  return values;
}
SmallVector<Value> withTrailingZeros(OpBuilder &b, Location loc, Value first,
                                     int64_t rank) {
  SmallVector<Value> values{first};
  values.append(rank - 1, arith::ConstantIndexOp::create(b, loc, 0));
  return values;
}

//===----------------------------------------------------------------------===//
// dist ops
//===----------------------------------------------------------------------===//

struct InitDistArrayLowering
    : public OpConversionPattern<dist::InitDistArrayOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::InitDistArrayOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> parts;
    for (ValueRange part : adaptor.getParts())
      parts.append(part.begin(), part.end());
    if (op.getType().getRank() == 0) {
      rewriter.replaceOpWithMultiple(op, {parts});
      return success();
    }
    LocalArray local{{parts[0], parts[1], parts[2]},
                     adaptor.getLocalOffsets()[0].front(),
                     adaptor.getGlobalShape()[0].front()};
    rewriter.replaceOpWithMultiple(op, {local.pack()});
    return success();
  }
};

struct PartsOfLowering : public OpConversionPattern<dist::PartsOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::PartsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getArray();
    SmallVector<SmallVector<Value>> results;
    for (unsigned i = 0; i < op->getNumResults(); ++i)
      results.push_back({values[i]});
    rewriter.replaceOpWithMultiple(op, std::move(results));
    return success();
  }
};

struct LocalOffsetsOfLowering
    : public OpConversionPattern<dist::LocalOffsetsOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::LocalOffsetsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LocalArray array = LocalArray::unpack(adaptor.getArray());
    SmallVector<Value> offsets = withTrailingZeros(
        rewriter, op.getLoc(), array.offset, op->getNumResults());
    rewriter.replaceOp(op, offsets);
    return success();
  }
};

/// The rows [boxOffset, boxOffset + boxSize) of a distributed array whose
/// owned block `owned` starts at global row `start` (global rows `size0`):
/// the rows before and after the owned ones arrive through
/// `distruntime.get_halo` (collective over `team`). Returns the left halo,
/// the owned rows inside the box and the right halo.
std::array<Value, 3> exchangeRows(OpBuilder &b, Location loc, int64_t team,
                                  Value owned, Value start, Value size0,
                                  Value boxOffset, Value boxSize) {
  IndexMath m{b, loc};
  int64_t rank = cast<NDArrayType>(owned.getType()).getRank();
  Value count = m.rows(owned);
  SmallVector<Value> globalShape = withTrailingDims(b, loc, size0, owned);
  SmallVector<Value> localOffsets = withTrailingZeros(b, loc, start, rank);
  SmallVector<Value> boxOffsets = withTrailingZeros(b, loc, boxOffset, rank);
  SmallVector<Value> boxSizes = withTrailingDims(b, loc, boxSize, owned);
  NDArrayType haloType = getRowsType(cast<NDArrayType>(owned.getType()));
  auto handleType = distruntime::AsyncHandleType::get(b.getContext());
  auto halo = distruntime::GetHaloOp::create(
      b, loc, handleType, haloType, haloType, owned, globalShape, localOffsets,
      boxOffsets, boxSizes, team);
  auto wait = distruntime::WaitOp::create(
      b, loc, halo.getHandle(),
      ValueRange{owned, halo.getLhalo(), halo.getRhalo()});
  // The owned rows inside the box.
  Value first = m.max(start, boxOffset);
  Value last = m.min(m.add(start, count), m.add(boxOffset, boxSize));
  Value inBox = m.max(m.sub(last, first), m.c(0));
  Value local = m.clamp(m.sub(first, start), m.c(0), count);
  // The owned rows are read from the input, not from the completed exchange:
  // computing on them need not wait for the messages.
  return {wait.getResult(1), sliceRows(b, loc, owned, local, inBox),
          wait.getResult(2)};
}

/// All rows of a distributed array on every rank, in global order.
Value gatherRows(OpBuilder &b, Location loc, int64_t team, Value owned,
                 Value start, Value size0) {
  IndexMath m{b, loc};
  std::array<Value, 3> parts =
      exchangeRows(b, loc, team, owned, start, size0, m.c(0), size0);
  return ConcatOp::create(b, loc,
                          getRowsType(cast<NDArrayType>(owned.getType())),
                          ValueRange(parts), 0);
}

/// Halo exchange: the parts of the result cover the requested rows.
struct RepartitionLowering : public OpConversionPattern<dist::RepartitionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::RepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value boxOffset = adaptor.getOffset().front();
    NDArrayType resultType = op.getType();
    std::array<Value, 3> rows =
        exchangeRows(rewriter, loc, getTeam(resultType), array.parts[1],
                     ownedStart(m, array), array.size0, boxOffset,
                     adaptor.getSize().front());
    LocalArray result{{}, boxOffset, array.size0};
    for (unsigned p = 0; p < 3; ++p) {
      NDArrayType t = dist::getPartType(resultType, p);
      result.parts[p] = castTo(rewriter, loc, rows[p], t);
    }
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// Rows held locally: each part contributes the requested rows it holds.
struct LocalRepartitionLowering
    : public OpConversionPattern<dist::LocalRepartitionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::LocalRepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray source = LocalArray::unpack(adaptor.getSource());
    Value first = adaptor.getOffset().front();
    Value last = m.add(first, adaptor.getSize().front());
    LocalArray result{{}, first, source.size0};
    std::array<Value, 3> held =
        slicePartRows(rewriter, loc, source, m.sub(first, source.offset),
                      m.sub(last, source.offset));
    for (unsigned p = 0; p < 3; ++p)
      result.parts[p] =
          castTo(rewriter, loc, held[p], dist::getPartType(op.getType(), p));
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// Splits arrays holding the same rows at their common core: rows before
/// the last left halo row of any of them, rows after the first right halo
/// row of any of them, and the rows in between, which all own.
struct AlignCoresLowering : public OpConversionPattern<dist::AlignCoresOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::AlignCoresOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    SmallVector<LocalArray> arrays =
        llvm::map_to_vector(adaptor.getArrays(),
                            [](ValueRange v) { return LocalArray::unpack(v); });
    const LocalArray &firstArray = arrays.front();
    Value count =
        m.add(m.add(m.rows(firstArray.parts[0]), m.rows(firstArray.parts[1])),
              m.rows(firstArray.parts[2]));
    Value left = m.c(0), right = m.c(0);
    bool noLeft = true, noRight = true;
    for (const LocalArray &a : arrays) {
      if (!isStaticallyEmpty(a.parts[0])) {
        left = m.max(left, m.rows(a.parts[0]));
        noLeft = false;
      }
      if (!isStaticallyEmpty(a.parts[2])) {
        right = m.max(right, m.rows(a.parts[2]));
        noRight = false;
      }
    }
    left = m.min(left, count);
    right = m.min(right, m.sub(count, left));
    Value coreEnd = m.sub(count, right);
    // Every part is a view with the same row count value for all arrays,
    // so that the shapes of the elementwise ops on them are known equal
    // (no broadcasting checks) and their loops fuse.
    Value coreSize = m.sub(coreEnd, left), rightSize = m.sub(count, coreEnd);
    SmallVector<SmallVector<Value>> results;
    for (auto [array, result] : llvm::zip(arrays, op.getResults())) {
      auto type = cast<NDArrayType>(result.getType());
      Value lh = m.rows(array.parts[0]);
      std::array<Value, 3> parts = {
          noLeft ? dist::createEmptyRows(b, loc, array.parts[1])
                 : sliceRows(b, loc, rowsOfParts(b, loc, array, m.c(0), left),
                             m.c(0), left),
          sliceRows(b, loc, array.parts[1], m.sub(left, lh), coreSize),
          noRight
              ? dist::createEmptyRows(b, loc, array.parts[1])
              : sliceRows(b, loc, rowsOfParts(b, loc, array, coreEnd, count),
                          m.c(0), rightSize)};
      LocalArray aligned{{}, array.offset, array.size0};
      for (unsigned p = 0; p < 3; ++p) {
        NDArrayType partType = dist::getPartType(type, p);
        aligned.parts[p] = castTo(b, loc, parts[p], partType);
      }
      results.push_back(aligned.pack());
    }
    SmallVector<ValueRange> replacements(results.begin(), results.end());
    rewriter.replaceOpWithMultiple(op, replacements);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// ndarray ops on distributed arrays
//===----------------------------------------------------------------------===//

template <typename OpTy> struct DistPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
};

struct DimLowering : public DistPattern<DimOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(DimOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!dist::getDistEnv(op.getSource().getType()))
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value index = adaptor.getIndex().front();
    Value local = DimOp::create(rewriter, loc, array.parts[1], index);
    rewriter.replaceOp(op, m.select(m.eq(index, m.c(0)), array.size0, local));
    return success();
  }
};

/// Casts and copies part by part; copies keep the owned block only.
struct CastLowering : public DistPattern<CastOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!dist::getDistEnv(op.getType()))
      return failure();
    ValueRange source = adaptor.getSource();
    SmallVector<Value> results(source);
    unsigned numParts = op.getType().getRank() == 0 ? 1 : 3;
    for (unsigned i = 0; i < numParts; ++i) {
      NDArrayType partType = dist::getPartType(op.getType(), i);
      if (results[i].getType() != partType)
        results[i] =
            CastOp::create(rewriter, op.getLoc(), partType, results[i]);
    }
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// Ops computed on the owned block alone, keeping its rows: copies and
/// unit dimensions added or removed after dimension 0.
template <typename OpTy> struct OwnedBlockLowering : public DistPattern<OpTy> {
  using DistPattern<OpTy>::DistPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename DistPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<NDArrayType>(op.getType());
    if (!dist::getDistEnv(resultType) ||
        !dist::getDistEnv(op->getOperand(0).getType()))
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getOperands()[0]);
    Operation *local = rewriter.clone(*op);
    local->setOperand(0, array.parts[1]);
    local->getResult(0).setType(getRowsType(resultType));
    rewriter.replaceOpWithMultiple(
        op, {fromOwned(rewriter, loc, resultType, local->getResult(0),
                       ownedStart(m, array), array.size0)});
    return success();
  }
};

/// Views and slices: each part contributes the rows of the slice it holds.
template <typename OpTy> struct SliceLowering : public DistPattern<OpTy> {
  using DistPattern<OpTy>::DistPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename DistPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType resultType = op.getType();
    if (!dist::getDistEnv(resultType))
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    auto materialize = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
    };
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    SmallVector<OpFoldResult> strides = op.getMixedStrides();
    Value offset = materialize(offsets[0]), size = materialize(sizes[0]),
          stride = materialize(strides[0]);

    // Part p holds global rows [begin, end); the slice rows i with
    // offset + i * stride in that range are [ceil((begin - offset) /
    // stride), ceil((end - offset) / stride)), clamped to the slice.
    SmallVector<Value> parts;
    Value begin = array.offset;
    Value firstRow;
    for (unsigned p = 0; p < 3; ++p) {
      Value part = array.parts[p];
      Value end = m.add(begin, m.rows(part));
      Value lo = m.clamp(m.ceilDiv(m.sub(begin, offset), stride), m.c(0), size);
      Value hi = m.clamp(m.ceilDiv(m.sub(end, offset), stride), m.c(0), size);
      Value count = m.max(m.sub(hi, lo), m.c(0));
      if (p == 0)
        firstRow = lo;
      // Local row of slice row lo; any in-range row when the slice is empty.
      Value localRow =
          m.select(m.gt(count, m.c(0)),
                   m.sub(m.add(offset, m.mul(lo, stride)), begin), m.c(0));
      NDArrayType partType = dist::getPartType(resultType, p);
      if (isStaticallyEmpty(part) &&
          partType.getRank() == (int64_t)sizes.size()) {
        SmallVector<Value> trailing;
        for (OpFoldResult size : llvm::drop_begin(sizes))
          trailing.push_back(materialize(size));
        parts.push_back(
            dist::createZeroRows(rewriter, loc, partType, trailing));
        begin = end;
        continue;
      }
      SmallVector<OpFoldResult> partOffsets(offsets), partSizes(sizes);
      partOffsets[0] = localRow;
      partSizes[0] = count;
      parts.push_back(OpTy::create(rewriter, loc, partType, part, partOffsets,
                                   partSizes, strides));
      begin = end;
    }
    LocalArray result{{parts[0], parts[1], parts[2]}, firstRow, size};
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// The row-wise ops whose distributed operands are all split at the same
/// common core (by one `dist.align_cores`, directly or through other such
/// ops), mapped to whether their result keeps that split: only when every
/// user is a row-wise op or an insert of it, which treat the parts as
/// plain rows. (Other users rely on the middle part being the owned block.)
using AlignedOps = llvm::DenseMap<Operation *, bool>;

AlignedOps findAlignedOps(Operation *root) {
  AlignedOps alignedOps;
  llvm::DenseMap<Value, Operation *> splitBy;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto align = dyn_cast<dist::AlignCoresOp>(op)) {
      for (Value result : align.getResults())
        splitBy[result] = op;
      return;
    }
    if (!dist::isRowwise(op) || !dist::isDist(op->getResult(0).getType()))
      return;
    Operation *split = nullptr;
    for (OpOperand *operand : dist::getRowAlignedOperands(op)) {
      Operation *operandSplit = splitBy.lookup(operand->get());
      if (!operandSplit || (split && split != operandSplit))
        return;
      split = operandSplit;
    }
    if (!split)
      return;
    Value result = op->getResult(0);
    bool keepsSplit = llvm::all_of(result.getUses(), [](OpOperand &use) {
      auto insert = dyn_cast<ImmutableInsertSliceOp>(use.getOwner());
      return dist::isRowwise(use.getOwner()) ||
             (insert && &use == &insert.getSourceMutable());
    });
    alignedOps[op] = keepsSplit;
    if (keepsSplit)
      splitBy[result] = split;
  });
  return alignedOps;
}

/// Elementwise ops (and concatenation along dimensions other than 0) whose
/// distributed operands were aligned by ndarray-dist: all cover the same
/// rows of the result (or are broadcast along dimension 0). The result rows
/// are computed in three pieces: the rows that need left halo rows of some
/// operand, the core, which reads owned blocks only (views, no copies), and
/// the rows that need right halo rows.
///
/// Ops whose distributed operands were all split at one common core by
/// `dist.align_cores` (see `findAlignedOps`) are computed part by part on
/// the parts of their operands; their result keeps these parts when only
/// elementwise ops and inserts use it.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *context,
                      const AlignedOps &alignedOps)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, context),
        alignedOps(alignedOps) {}
  const AlignedOps &alignedOps;

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<ValueRange> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!dist::isRowwise(op) || op->getNumResults() != 1)
      return failure();
    auto resultType = cast<NDArrayType>(op->getResult(0).getType());
    auto env = dist::getDistEnv(resultType);
    if (!env)
      return failure();
    Location loc = op->getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    int64_t rank = resultType.getRank();

    struct Operand {
      enum Kind { Aligned, Replicated, Whole } kind;
      LocalArray dist;    // Aligned
      Value local;        // Replicated, Whole
      Value isRowAligned; // i1: not broadcast along dimension 0
      NDArrayType type;
      Value broadcastRow = nullptr; // Aligned: the row if broadcast
    };
    SmallVector<Operand> inputs;
    Value size0;
    for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
      auto type = cast<NDArrayType>(original.getType());
      Operand input{Operand::Whole, {}, nullptr, nullptr, type, nullptr};
      if (dist::getDistEnv(type)) {
        if (type.getRank() != rank)
          return rewriter.notifyMatchFailure(
              op, "distributed operand of lower rank; run ndarray-dist");
        input.kind = Operand::Aligned;
        input.dist = LocalArray::unpack(converted);
      } else if (type.getRank() == rank) {
        input.kind = Operand::Replicated;
        input.local = converted.front();
      } else {
        input.local = converted.front();
      }
      if (input.kind != Operand::Whole) {
        Value rows = input.kind == Operand::Aligned ? input.dist.size0
                                                    : m.rows(input.local);
        size0 = size0 ? b.createOrFold<arith::MaxUIOp>(loc, size0, rows) : rows;
      }
      inputs.push_back(input);
    }
    if (!size0)
      return rewriter.notifyMatchFailure(op, "no operand spans dimension 0");
    if (!resultType.isDynamicDim(0))
      size0 = m.c(resultType.getDimSize(0));

    // The rows of the result this rank computes: those the first
    // row-aligned distributed operand covers, or the default partition.
    auto [offset, count] =
        dist::createDefaultPartition(b, loc, env.getTeam(), size0);
    Value left = m.c(0), right = m.c(0);
    for (Operand &input : llvm::reverse(inputs)) {
      if (input.kind == Operand::Whole)
        continue;
      Value rows = input.kind == Operand::Aligned ? input.dist.size0
                                                  : m.rows(input.local);
      input.isRowAligned = m.eq(rows, size0);
      if (input.kind != Operand::Aligned)
        continue;
      const LocalArray &a = input.dist;
      Value total = m.add(m.add(m.rows(a.parts[0]), m.rows(a.parts[1])),
                          m.rows(a.parts[2]));
      offset = m.select(input.isRowAligned, a.offset, offset);
      count = m.select(input.isRowAligned, total, count);
      left =
          m.max(left, m.select(input.isRowAligned, m.rows(a.parts[0]), m.c(0)));
      right = m.max(right,
                    m.select(input.isRowAligned, m.rows(a.parts[2]), m.c(0)));
    }
    left = m.min(left, count);
    right = m.min(right, m.sub(count, left));
    Value coreEnd = m.sub(count, right);

    auto aligned = alignedOps.find(op);
    // The rows of operands broadcast along dimension 0 (one row), built
    // once; only when that is possible.
    for (Operand &input : inputs)
      if (aligned == alignedOps.end() && input.kind == Operand::Aligned &&
          !matchPattern(input.isRowAligned, m_One()))
        input.broadcastRow = buildIf(
            b, loc, input.isRowAligned, getRowsType(input.type),
            [&] { return dist::createEmptyRows(b, loc, input.dist.parts[1]); },
            [&] { return concatParts(b, loc, input.dist); });

    // Without halos, the core is everything.
    bool noHalos = llvm::all_of(inputs, [](const Operand &input) {
      return input.kind != Operand::Aligned ||
             (isStaticallyEmpty(input.dist.parts[0]) &&
              isStaticallyEmpty(input.dist.parts[2]));
    });
    bool wholeOwned = false;

    // Operand values for result rows [first, last), which are part
    // `alignedPart` of aligned operands if not negative.
    int alignedPart = -1;
    auto operandRows = [&](Operand &input, Value first, Value last,
                           bool core) -> Value {
      NDArrayType rowsType = getRowsType(input.type);
      if (alignedPart >= 0 && input.kind == Operand::Aligned)
        return input.dist.parts[alignedPart];
      switch (input.kind) {
      case Operand::Whole:
        return input.local;
      case Operand::Replicated:
        return buildIf(
            b, loc, input.isRowAligned, rowsType,
            [&] {
              return sliceRows(b, loc, input.local, m.add(offset, first),
                               m.sub(last, first));
            },
            [&] { return input.local; });
      case Operand::Aligned:
        return buildIf(
            b, loc, input.isRowAligned, rowsType,
            [&]() -> Value {
              const LocalArray &a = input.dist;
              if (!core)
                return rowsOfParts(b, loc, a, first, last);
              if (wholeOwned)
                return a.parts[1];
              Value lh = m.rows(a.parts[0]);
              Value local = m.min(m.sub(first, lh), m.rows(a.parts[1]));
              return sliceRows(b, loc, a.parts[1], local, m.sub(last, first));
            },
            [&] { return input.broadcastRow; });
      }
      llvm_unreachable("operand kind");
    };
    NDArrayType localResultType = getRowsType(resultType);
    auto piece = [&](Value first, Value last, bool core) -> Value {
      IRMapping mapping;
      for (auto [original, input] : llvm::zip(op->getOperands(), inputs))
        mapping.map(original, operandRows(input, first, last, core));
      Operation *local = b.clone(*op, mapping);
      local->getResult(0).setType(localResultType);
      return local->getResult(0);
    };
    Value owned;
    if (aligned != alignedOps.end()) {
      // The parts of all aligned operands cover the same rows.
      const LocalArray &a = llvm::find_if(inputs, [](const Operand &input) {
                              return input.kind == Operand::Aligned;
                            })->dist;
      SmallVector<Value> bounds{m.c(0)};
      for (Value part : a.parts)
        bounds.push_back(m.add(bounds.back(), m.rows(part)));
      LocalArray result{{}, a.offset, size0};
      for (unsigned p = 0; p < 3; ++p) {
        alignedPart = p;
        result.parts[p] = piece(bounds[p], bounds[p + 1], p == 1);
      }
      if (aligned->second) {
        for (unsigned p = 0; p < 3; ++p)
          result.parts[p] =
              castTo(b, loc, result.parts[p], dist::getPartType(resultType, p));
        rewriter.replaceOpWithMultiple(op, {result.pack()});
        return success();
      }
      owned = concatParts(b, loc, result);
      offset = a.offset;
    } else if (noHalos) {
      wholeOwned = true;
      owned = piece(m.c(0), count, true);
    } else {
      // The core first: it needs no halo data and can run while the halo
      // messages are in flight (see overlap-comm-and-compute).
      Value core = piece(left, coreEnd, true);
      Value leftRows = piece(m.c(0), left, false);
      Value rightRows = piece(coreEnd, count, false);
      owned = ConcatOp::create(b, loc, localResultType,
                               ValueRange{leftRows, core, rightRows},
                               /*axis=*/0);
    }
    rewriter.replaceOpWithMultiple(
        op, {fromOwned(b, loc, resultType, owned, offset, size0)});
    return success();
  }
};

/// Insert into a distributed array: each rank writes the rows of the slice
/// in its owned block. ndarray-dist aligned a distributed source with those
/// rows.
struct InsertSliceLowering : public DistPattern<ImmutableInsertSliceOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ImmutableInsertSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType destType = op.getType();
    if (!dist::getDistEnv(destType))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray dest = LocalArray::unpack(adaptor.getDestination());
    Value owned = dest.parts[1];
    Value start = ownedStart(m, dest);

    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    SmallVector<OpFoldResult> strides = op.getMixedStrides();
    auto materialize = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(b, loc, ofr);
    };
    Value offset = materialize(offsets[0]), sliceRows0 = materialize(sizes[0]),
          stride = materialize(strides[0]);
    // Slice rows [first, first + count) land in the owned block.
    auto [first, count] = dist::createLocalTargetOfSlice(
        b, loc, op.getDestination(), offsets, sizes, strides);

    // Inserts `source` at slice rows [row, row + rows) of the owned block.
    auto insertAt = [&](Value into, Value source, Value row,
                        Value rows) -> Value {
      Value globalRow = m.add(offset, m.mul(row, stride));
      Value localRow =
          m.select(m.gt(rows, m.c(0)), m.sub(globalRow, start), m.c(0));
      SmallVector<OpFoldResult> localOffsets(offsets), localSizes(sizes);
      localOffsets[0] = localRow;
      localSizes[0] = rows;
      return ImmutableInsertSliceOp::create(b, loc, source, into, localOffsets,
                                            localSizes, strides)
          .getResult();
    };

    auto sourceType = cast<NDArrayType>(op.getSource().getType());
    ValueRange source = adaptor.getSource();
    Value result;
    if (dist::getDistEnv(sourceType)) {
      LocalArray src = LocalArray::unpack(source);
      Value rowAligned = m.eq(src.size0, sliceRows0);
      result = buildIf(
          b, loc, rowAligned, owned.getType(),
          [&] {
            // The core first: it is computed first (before the waits of
            // overlapped exchanges), so it can be computed in place of the
            // destination rows.
            Value rows[3], rowStart[3];
            Value row = first;
            for (int i = 0; i < 3; ++i) {
              rows[i] = m.rows(src.parts[i]);
              rowStart[i] = row;
              row = m.add(row, rows[i]);
            }
            Value into = owned;
            for (int i : {1, 0, 2})
              into = insertAt(into, src.parts[i], rowStart[i], rows[i]);
            return into;
          },
          [&] {
            return insertAt(owned, concatParts(b, loc, src), first, count);
          });
    } else {
      Value local = source.front();
      if (sourceType.getRank() == (int64_t)sizes.size()) {
        Value rowAligned = m.eq(m.rows(local), sliceRows0);
        local = buildIf(
            b, loc, rowAligned, getRowsType(sourceType),
            [&] { return sliceRows(b, loc, local, first, count); },
            [&] { return local; });
      }
      result = insertAt(owned, local, first, count);
    }
    rewriter.replaceOpWithMultiple(
        op, {fromOwned(b, loc, destType, result, start, dest.size0)});
    return success();
  }
};

/// Reductions: local on the owned block; over dimension 0 completed by an
/// allreduce over the team.
struct ReductionLowering : public DistPattern<ReductionOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ReductionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto sourceType = cast<NDArrayType>(op.getSource().getType());
    auto env = dist::getDistEnv(sourceType);
    if (!env)
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value owned = array.parts[1];
    NDArrayType resultType = op.getType();
    SmallVector<int64_t> axes = op.getReducedAxes();
    if (!llvm::is_contained(axes, 0)) {
      Operation *local = b.clone(*op);
      local->setOperand(0, owned);
      local->getResult(0).setType(getRowsType(resultType));
      rewriter.replaceOpWithMultiple(
          op, {fromOwned(b, loc, resultType, local->getResult(0),
                         ownedStart(m, array), array.size0)});
      return success();
    }
    FailureOr<Value> reduced = reduceOverTeam(
        b, loc, env.getTeam(), op, owned, ownedStart(m, array), array.size0);
    if (failed(reduced))
      return rewriter.notifyMatchFailure(op, "unsupported reduction");
    rewriter.replaceOp(op, *reduced);
    return success();
  }

  /// The reduction `op` of the rows of all ranks, given this rank's
  /// `owned` rows; `rows` is the global size of dimension 0.
  static FailureOr<Value> reduceOverTeam(OpBuilder &b, Location loc,
                                         int64_t team, ReductionOp op,
                                         Value owned, Value start, Value rows);
};

/// broadcast_to keeping dimension 0 (ndarray-dist distributes only those):
/// the owned block broadcast to its rows of the result.
struct BroadcastToRowsLowering : public DistPattern<BroadcastToOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType resultType = op.getType();
    if (!dist::getDistEnv(resultType) ||
        !dist::getDistEnv(op.getSource().getType()))
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value owned = array.parts[1];
    // The local result's dimension 0 is dynamic (the owned rows); the
    // others keep the op's sizes.
    SmallVector<Value> sizes{m.rows(owned)};
    auto dynamicSizes = adaptor.getDynamicSizes();
    for (int64_t d = 0, k = 0; d < resultType.getRank(); ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      if (d > 0)
        sizes.push_back(dynamicSizes[k].front());
      ++k;
    }
    Value local = BroadcastToOp::create(rewriter, loc, getRowsType(resultType),
                                        owned, sizes);
    rewriter.replaceOpWithMultiple(
        op, {fromOwned(rewriter, loc, resultType, local, ownedStart(m, array),
                       array.size0)});
    return success();
  }
};

/// Reshapes redistribute the row-major element order with
/// `distruntime.copy_reshape` to the default partition of the result.
struct ReshapeLowering : public DistPattern<ReshapeOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType resultType = op.getType();
    auto env = dist::getDistEnv(resultType);
    if (!env || !dist::getDistEnv(op.getSource().getType()))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value owned = array.parts[1];
    int64_t rank = resultType.getRank();
    SmallVector<Value> shape;
    unsigned next = 0;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(resultType.isDynamicDim(d)
                          ? adaptor.getDynamicSizes()[next++].front()
                          : m.c(resultType.getDimSize(d)));
    auto [offset, size] =
        dist::createDefaultPartition(b, loc, env.getTeam(), shape[0]);
    SmallVector<Value> localShape(shape);
    localShape[0] = size;
    int64_t sourceRank = cast<NDArrayType>(owned.getType()).getRank();
    auto copy = distruntime::CopyReshapeOp::create(
        b, loc, distruntime::AsyncHandleType::get(getContext()),
        getRowsType(resultType), owned,
        withTrailingDims(b, loc, array.size0, owned),
        withTrailingZeros(b, loc, ownedStart(m, array), sourceRank), shape,
        withTrailingZeros(b, loc, offset, rank), localShape, env.getTeam());
    auto wait = distruntime::WaitOp::create(
        b, loc, copy.getHandle(), ValueRange{owned, copy.getOutput()});
    rewriter.replaceOpWithMultiple(
        op,
        {fromOwned(b, loc, resultType, wait.getResult(1), offset, shape[0])});
    return success();
  }
};

/// Permutations keeping dimension 0 in place are local; others move data
/// with `distruntime.copy_permute` to the default partition of the result.
struct PermuteDimsLowering : public DistPattern<PermuteDimsOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(PermuteDimsOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType resultType = op.getType();
    auto env = dist::getDistEnv(resultType);
    if (!env)
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value owned = array.parts[1];
    ArrayRef<int64_t> permutation = op.getPermutation();
    if (permutation[0] == 0) {
      Value local = PermuteDimsOp::create(b, loc, getRowsType(resultType),
                                          owned, permutation);
      rewriter.replaceOpWithMultiple(
          op, {fromOwned(b, loc, resultType, local, ownedStart(m, array),
                         array.size0)});
      return success();
    }
    int64_t rank = resultType.getRank();
    SmallVector<Value> sourceShape =
        withTrailingDims(b, loc, array.size0, owned);
    SmallVector<Value> shape;
    for (int64_t d = 0; d < rank; ++d)
      shape.push_back(sourceShape[permutation[d]]);
    auto [offset, size] =
        dist::createDefaultPartition(b, loc, env.getTeam(), shape[0]);
    SmallVector<Value> localShape(shape);
    localShape[0] = size;
    auto copy = distruntime::CopyPermuteOp::create(
        b, loc, distruntime::AsyncHandleType::get(getContext()),
        getRowsType(resultType), owned, sourceShape,
        withTrailingZeros(b, loc, ownedStart(m, array), rank),
        withTrailingZeros(b, loc, offset, rank), localShape, permutation,
        env.getTeam());
    auto wait = distruntime::WaitOp::create(
        b, loc, copy.getHandle(), ValueRange{owned, copy.getOutput()});
    rewriter.replaceOpWithMultiple(
        op,
        {fromOwned(b, loc, resultType, wait.getResult(1), offset, shape[0])});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reductions over the team
//===----------------------------------------------------------------------===//

/// A 0-d or keepdims array filled with `value` of the result's shape.
Value createFilled(OpBuilder &b, Location loc, NDArrayType type,
                   ArrayRef<Value> shape, TypedAttr value) {
  SmallVector<Value> dynamic;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamic.push_back(shape[d]);
  Value scalar = arith::ConstantOp::create(b, loc, value);
  return CreateOp::create(b, loc, type, dynamic, scalar);
}

/// The identity of min/max for `type` (used for ranks owning no rows).
TypedAttr getMinMaxIdentity(OpBuilder &b, Type type, bool isMin) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return b.getFloatAttr(
        type, APFloat::getInf(floatType.getFloatSemantics(), !isMin));
  unsigned width = type.getIntOrFloatBitWidth();
  bool isUnsigned = type.isUnsignedInteger();
  APInt value = isMin ? (isUnsigned ? APInt::getMaxValue(width)
                                    : APInt::getSignedMaxValue(width))
                      : (isUnsigned ? APInt::getMinValue(width)
                                    : APInt::getSignedMinValue(width));
  if (width == 1)
    value = APInt(1, isMin ? 1 : 0);
  Type storage = isUnsigned ? b.getIntegerType(width) : type;
  return b.getIntegerAttr(storage, value);
}

FailureOr<Value> ReductionLowering::reduceOverTeam(OpBuilder &b, Location loc,
                                                   int64_t team, ReductionOp op,
                                                   Value owned, Value start,
                                                   Value rows) {
  IndexMath m{b, loc};
  NDArrayType resultType = op.getType();
  auto ownedType = cast<NDArrayType>(owned.getType());
  SmallVector<int64_t> axes = op.getReducedAxes();
  ReductionKind kind = op.getKind();
  DenseI64ArrayAttr axesAttr = b.getDenseI64ArrayAttr(axes);

  // The shape of the result with kept (size 1) reduced dimensions.
  SmallVector<int64_t> keptShape;
  SmallVector<Value> keptSizes;
  for (int64_t d = 0; d < ownedType.getRank(); ++d) {
    bool reduced = llvm::is_contained(axes, d);
    keptShape.push_back(reduced ? 1 : ownedType.getDimSize(d));
    keptSizes.push_back(reduced ? m.c(1) : dist::getDimValue(b, loc, owned, d));
  }
  auto keptType = [&](Type element) {
    return NDArrayType::get(keptShape, element);
  };
  // Squeezes the kept dimensions unless the op keeps them.
  auto finish = [&](Value kept) -> Value {
    if (op.getKeepdims()) {
      return kept.getType() == resultType
                 ? kept
                 : CastOp::create(b, loc, resultType, kept).getResult();
    }
    return SqueezeOp::create(b, loc, resultType, kept, axesAttr);
  };
  auto localReduce = [&](ReductionKind k, Value source, Type element) {
    return ReductionOp::create(b, loc, keptType(element), k, source, axesAttr,
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  auto allreduce = [&](Value local, distruntime::ReductionKind k) {
    return distruntime::AllReduceOp::create(b, loc, local.getType(), k, local,
                                            team)
        .getResult();
  };
  Type element = resultType.getElementType();
  // Floating point sums and products depend on the order of the operations.
  // To give the same result on any number of ranks, the rows are reduced in
  // blocks of kOrderedReductionBlock consecutive global rows (a blocking of
  // the global array; the last block is completed with the identity), each
  // block on one rank in row order, and the block results are gathered and
  // reduced in block order on every rank. A rank takes the blocks that start
  // in its rows and receives their rest from the next ranks (less than a
  // block): the rows moved are O(block), the partials gathered O(rows /
  // block), per column of the result.
  SmallVector<int64_t> otherAxes;
  for (int64_t d : axes)
    if (d != 0)
      otherAxes.push_back(d);
  auto orderedReduce = [&](ReductionKind k, Value source) -> Value {
    Value partials = source;
    if (!otherAxes.empty()) {
      SmallVector<int64_t> shape(keptShape);
      shape[0] = ShapedType::kDynamic;
      partials =
          ReductionOp::create(b, loc, NDArrayType::get(shape, element), k,
                              source, b.getDenseI64ArrayAttr(otherAxes),
                              /*keepdims=*/true, /*correction=*/nullptr);
    }
    NDArrayType rowsType = getRowsType(cast<NDArrayType>(partials.getType()));
    Value block = m.c(kOrderedReductionBlock);
    auto alignUp = [&](Value row) {
      return m.min(m.mul(m.ceilDiv(row, block), block), rows);
    };
    Value boxBegin = alignUp(start);
    Value boxSize = m.sub(alignUp(m.add(start, m.rows(source))), boxBegin);
    std::array<Value, 3> pieces =
        exchangeRows(b, loc, team, partials, start, rows, boxBegin, boxSize);
    // Complete the last block with the identity, then one row per block.
    Value blocks = m.ceilDiv(boxSize, block);
    SmallVector<Value> padShape{m.sub(m.mul(blocks, block), boxSize)};
    for (int64_t d = 1; d < rowsType.getRank(); ++d)
      padShape.push_back(dist::getDimValue(b, loc, partials, d));
    TypedAttr identity = k == ReductionKind::prod
                             ? TypedAttr(b.getFloatAttr(element, 1.0))
                             : TypedAttr(b.getFloatAttr(element, 0.0));
    Value padded = ConcatOp::create(
        b, loc, rowsType,
        ValueRange{pieces[0], pieces[1], pieces[2],
                   createFilled(b, loc, rowsType, padShape, identity)},
        0);
    SmallVector<int64_t> blockedShape{ShapedType::kDynamic,
                                      kOrderedReductionBlock};
    SmallVector<Value> blockedSizes{blocks};
    for (int64_t d = 1; d < rowsType.getRank(); ++d) {
      blockedShape.push_back(rowsType.getDimSize(d));
      if (rowsType.isDynamicDim(d))
        blockedSizes.push_back(padShape[d]);
    }
    Value blocked = ReshapeOp::create(
        b, loc, NDArrayType::get(blockedShape, element), padded, blockedSizes,
        /*copy=*/nullptr);
    Value blockResults = ReductionOp::create(
        b, loc, rowsType, k, blocked, b.getDenseI64ArrayAttr({1}),
        /*keepdims=*/false, /*correction=*/nullptr);
    Value all = gatherRows(b, loc, team, blockResults,
                           m.ceilDiv(boxBegin, block), m.ceilDiv(rows, block));
    return ReductionOp::create(b, loc, keptType(element), k, all,
                               b.getDenseI64ArrayAttr({0}),
                               /*keepdims=*/true, /*correction=*/nullptr)
        .getResult();
  };
  bool ordered = isa<FloatType>(element);

  switch (kind) {
  case ReductionKind::sum:
    if (ordered)
      return finish(orderedReduce(kind, owned));
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::sum));
  case ReductionKind::prod:
    if (ordered)
      return finish(orderedReduce(kind, owned));
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::prod));
  case ReductionKind::any:
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::lor));
  case ReductionKind::all:
    return finish(allreduce(localReduce(kind, owned, element),
                            distruntime::ReductionKind::land));
  case ReductionKind::min:
  case ReductionKind::max: {
    bool isMin = kind == ReductionKind::min;
    // numpy rejects empty min/max; ranks owning no rows contribute the
    // identity.
    Value total = rows;
    for (int64_t d : axes)
      if (d != 0)
        total = m.mul(total, keptSizes[d] == nullptr
                                 ? m.c(1)
                                 : dist::getDimValue(b, loc, owned, d));
    cf::AssertOp::create(
        b, loc, m.gt(total, m.c(0)),
        "zero-size array to reduction operation min/max, which has no "
        "identity");
    Value local = buildIf(
        b, loc, m.gt(m.rows(owned), m.c(0)), keptType(element),
        [&] { return localReduce(kind, owned, element); },
        [&] {
          return createFilled(b, loc, keptType(element), keptSizes,
                              getMinMaxIdentity(b, element, isMin));
        });
    return finish(allreduce(local, isMin ? distruntime::ReductionKind::min
                                         : distruntime::ReductionKind::max));
  }
  case ReductionKind::mean:
  case ReductionKind::var:
  case ReductionKind::std: {
    // Sums in the result's floating point type, divided by the global
    // element count; var/std subtract the global mean first (two passes).
    Value source = owned;
    NDArrayType floatSource =
        cast<NDArrayType>(ownedType.cloneWith(std::nullopt, element));
    if (ownedType.getElementType() != element)
      source = CastElemTypeOp::create(b, loc, floatSource, owned);
    Value count = rows;
    for (int64_t d : axes)
      if (d != 0)
        count = m.mul(count, dist::getDimValue(b, loc, owned, d));
    Value countF = arith::UIToFPOp::create(
        b, loc, element,
        arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count));
    auto divide = [&](Value array, Value divisor) {
      auto scalarType = NDArrayType::get({}, element);
      Value scalar =
          CreateOp::create(b, loc, scalarType, ValueRange{}, divisor);
      return EWBinOp::create(b, loc, array.getType(), EWBinOpKind::divide,
                             array, scalar)
          .getResult();
    };
    Value sum = orderedReduce(ReductionKind::sum, source);
    Value mean = divide(sum, countF);
    if (kind == ReductionKind::mean)
      return finish(mean);
    Value deviation = EWBinOp::create(b, loc, floatSource,
                                      EWBinOpKind::subtract, source, mean);
    Value squares = EWBinOp::create(b, loc, floatSource, EWBinOpKind::multiply,
                                    deviation, deviation);
    Value squareSum = orderedReduce(ReductionKind::sum, squares);
    double correction =
        op.getCorrection() ? op.getCorrection()->convertToDouble() : 0.0;
    Value corrected = arith::SubFOp::create(
        b, loc, countF,
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, correction)));
    Value zero =
        arith::ConstantOp::create(b, loc, b.getFloatAttr(element, 0.0));
    Value divisor = arith::MaximumFOp::create(b, loc, corrected, zero);
    Value variance = divide(squareSum, divisor);
    if (kind == ReductionKind::var)
      return finish(variance);
    return finish(
        EWUnyOp::create(b, loc, variance.getType(), EWUnyOpKind::sqrt, variance)
            .getResult());
  }
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// The shape of the empty array `value` of type `type`, if known at compile
/// time (from `type` and the types of the values it is a cast of).
std::optional<SmallVector<int64_t>> getStaticEmptyShape(Value value,
                                                        NDArrayType type) {
  SmallVector<int64_t> shape(type.getShape());
  while (true) {
    auto valueType = cast<NDArrayType>(value.getType());
    for (auto [dim, size] : llvm::zip(shape, valueType.getShape()))
      if (ShapedType::isDynamic(dim))
        dim = size;
    auto cast = value.getDefiningOp<CastOp>();
    if (!cast)
      break;
    value = cast.getSource();
  }
  if (llvm::any_of(shape, ShapedType::isDynamic) ||
      !llvm::is_contained(shape, 0))
    return std::nullopt;
  return shape;
}

/// Empty halos carried through a loop (every iteration yields a fresh empty
/// array of the same static shape) are the initial one: this keeps the
/// offsets and halo sizes computed from them loop-invariant, so that
/// exchanges in the loop have fixed metadata (see add-comm-cache-keys).
struct ForwardEmptyIterArg : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    auto yield = cast<scf::YieldOp>(op.getBody()->getTerminator());
    for (auto [init, arg, yielded] : llvm::zip(
             op.getInitArgs(), op.getRegionIterArgs(), yield.getOperands())) {
      if (!isa<NDArrayType>(arg.getType()) || yielded == arg || yielded == init)
        continue;
      auto type = cast<NDArrayType>(arg.getType());
      std::optional<SmallVector<int64_t>> initShape =
          getStaticEmptyShape(init, type);
      if (!initShape || getStaticEmptyShape(yielded, type) != initShape)
        continue;
      // Yielding the argument itself lets scf.for fold it away.
      rewriter.modifyOpInPlace(yield, [&, arg = arg] {
        yield->setOperand(cast<BlockArgument>(arg).getArgNumber() - 1, arg);
      });
      changed = true;
    }
    return success(changed);
  }
};

class DistToLocalTypeConverter : public TypeConverter {
public:
  DistToLocalTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion(
        [](NDArrayType type,
           SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
          if (!dist::getDistEnv(type))
            return std::nullopt;
          if (type.getRank() == 0) {
            results.push_back(dist::getPartType(type, 0));
            return success();
          }
          for (unsigned p = 0; p < 3; ++p)
            results.push_back(dist::getPartType(type, p));
          IndexType index = IndexType::get(type.getContext());
          results.append({index, index});
          return success();
        });
  }
};

bool hasDistTypes(TypeRange types) {
  return llvm::any_of(types, [](Type t) { return dist::getDistEnv(t); });
}

struct ConvertDistToStandardPass
    : public imex::impl::ConvertDistToStandardBase<ConvertDistToStandardPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    DistToLocalTypeConverter converter;
    ConversionTarget target(*context);
    target.addIllegalDialect<dist::DistDialect>();
    target.addLegalDialect<arith::ArithDialect, cf::ControlFlowDialect,
                           distruntime::DistRuntimeDialect, scf::SCFDialect>();
    target.addDynamicallyLegalDialect<NDArrayDialect>([](Operation *op) {
      return !hasDistTypes(op->getOperandTypes()) &&
             !hasDistTypes(op->getResultTypes());
    });

    // Results of dist.align_cores only feed elementwise computations.
    WalkResult misuse = getOperation()->walk([](dist::AlignCoresOp op) {
      for (Operation *user : op->getUsers())
        if (!dist::isRowwise(user))
          return WalkResult(user->emitOpError(
              "uses a result of dist.align_cores; only elementwise ops may"));
      return WalkResult::advance();
    });
    if (misuse.wasInterrupted())
      return signalPassFailure();
    AlignedOps alignedOps = findAlignedOps(getOperation());

    RewritePatternSet patterns(context);
    patterns.add<ElementwiseLowering>(converter, context, alignedOps);
    patterns
        .add<InitDistArrayLowering, PartsOfLowering, LocalOffsetsOfLowering,
             RepartitionLowering, LocalRepartitionLowering, AlignCoresLowering,
             DimLowering, CastLowering, OwnedBlockLowering<CopyOp>,
             OwnedBlockLowering<ExpandDimsOp>, OwnedBlockLowering<SqueezeOp>,
             BroadcastToRowsLowering, SliceLowering<SubviewOp>,
             SliceLowering<ExtractSliceOp>, InsertSliceLowering,
             ReductionLowering, ReshapeLowering, PermuteDimsLowering>(converter,
                                                                      context);
    dist::populateExpandDistIndexOpsPatterns(patterns);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();

    RewritePatternSet cleanup(context);
    cleanup.add<ForwardEmptyIterArg>(context);
    scf::ForOp::getCanonicalizationPatterns(cleanup, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(cleanup))))
      return signalPassFailure();
  }
};

} // namespace
