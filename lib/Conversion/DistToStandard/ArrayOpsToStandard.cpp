//===- ArrayOpsToStandard.cpp - ndarray ops on distributed arrays ---------===//
//
// ndarray ops on distributed arrays become the same ops on views of the
// local buffers (plus distruntime copies for reshapes and permutations).
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

namespace {

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
    IndexMath m{rewriter, op.getLoc()};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    Value index = adaptor.getIndex().front();
    Value local = DimOp::create(rewriter, op.getLoc(), array.buffer, index);
    rewriter.replaceOp(op, m.select(m.eq(index, m.c(0)), array.size0, local));
    return success();
  }
};

/// Casts change the static shape of the buffer; copies keep the owned block.
struct CastLowering : public DistPattern<CastOp> {
  using DistPattern::DistPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!dist::getDistEnv(op.getType()))
      return failure();
    SmallVector<Value> results(adaptor.getSource());
    results[0] =
        castTo(rewriter, op.getLoc(), results[0],
               op.getType().getRank() == 0 ? dist::getLocalType(op.getType())
                                           : getBufferType(op.getType()));
    rewriter.replaceOpWithMultiple(op, {results});
    return success();
  }
};

/// Ops computed on the owned block alone, keeping its rows: copies, unit
/// dimensions added or removed after dimension 0, flips of other axes.
template <typename OpTy> struct OwnedBlockLowering : public DistPattern<OpTy> {
  using DistPattern<OpTy>::DistPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename DistPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<NDArrayType>(op.getType());
    if (!dist::getDistEnv(resultType) ||
        !dist::getDistEnv(op->getOperand(0).getType()))
      return failure();
    return replaceOnOwnedBlock(rewriter, op,
                               LocalArray::unpack(adaptor.getOperands()[0]));
  }
};

/// Views and slices: a view of the buffer; the rows of the slice in each
/// part are the parts of the result.
template <typename OpTy> struct SliceLowering : public DistPattern<OpTy> {
  SliceLowering(const TypeConverter &converter, MLIRContext *context,
                const ExchangedBuffers &exchanged)
      : DistPattern<OpTy>(converter, context), exchanged(exchanged) {}
  const ExchangedBuffers &exchanged;

  /// The slice rows [from, from + count) taken by the only user of `op` if it
  /// is a `dist.local_repartition` and they can be used at `op`, for a view
  /// with unit stride along dimension 0.
  static std::optional<std::pair<Value, Value>>
  getRepartitionedRows(OpTy op, ConversionPatternRewriter &rewriter) {
    if (!op->hasOneUse() || getConstantIntValue(op.getMixedStrides()[0]) != 1)
      return std::nullopt;
    auto user = dyn_cast<dist::LocalRepartitionOp>(*op->user_begin());
    if (!user)
      return std::nullopt;
    Value from = rewriter.getRemappedValue(user.getOffset());
    Value count = rewriter.getRemappedValue(user.getSize());
    if (!from || !count || !isDefinedBefore(from, op) ||
        !isDefinedBefore(count, op))
      return std::nullopt;
    return std::make_pair(from, count);
  }

  LogicalResult
  matchAndRewrite(OpTy op, typename DistPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType resultType = op.getType();
    if (!dist::getDistEnv(resultType))
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array =
        getLatest(LocalArray::unpack(adaptor.getSource()), op, exchanged);
    auto materialize = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(rewriter, loc, ofr);
    };
    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    SmallVector<OpFoldResult> strides = op.getMixedStrides();
    Value offset = materialize(offsets[0]), size = materialize(sizes[0]),
          stride = materialize(strides[0]);
    SmallVector<OpFoldResult> localOffsets(offsets), localSizes(sizes);
    LocalArray result;
    result.first = m.c(0);
    result.size0 = size;

    // A view read only by a `dist.local_repartition` (dist-coalesce's
    // shifted views of one exchange) is the rows that op takes, which the
    // source holds: a view of its buffer, not clamped to its valid rows.
    if (auto rows = getRepartitionedRows(op, rewriter)) {
      auto [from, count] = *rows;
      Value zero = m.c(0);
      // Clamped only so that an empty view stays inside the buffer.
      Value row = m.clamp(m.sub(m.add(offset, from), array.offset), zero,
                          array.validCount);
      std::tie(result.ownedFrom, result.ownedCount) =
          array.ownedIn(m, row, count);
      localOffsets[0] = m.add(array.first, row);
      localSizes[0] = count;
      result.buffer =
          OpTy::create(rewriter, loc, getBufferType(resultType), array.buffer,
                       localOffsets, localSizes, strides);
      result.validCount = count;
      result.offset = from;
      rewriter.replaceOpWithMultiple(op, {result.pack()});
      return success();
    }

    // The slice rows i with offset + i * stride in global rows [begin, end)
    // are [ceil((begin - offset) / stride), ceil((end - offset) / stride)),
    // clamped to the slice; so for the valid and the owned rows.
    // (The end of a range clamped to at least its start, as the local
    // target of a slice is (dist.local_target_of_slice): the same values
    // then, which CSE makes one, e.g. for an update reading its target.)
    auto sliceRowAt = [&](Value globalRow, Value lo) {
      return m.clamp(m.ceilDiv(m.sub(globalRow, offset), stride), lo, size);
    };
    Value ownedStart = array.ownedStart(m);
    Value firstRow = sliceRowAt(array.offset, m.c(0));
    Value ownedFirst = sliceRowAt(ownedStart, m.c(0));
    Value ownedLast =
        sliceRowAt(m.add(ownedStart, array.ownedCount), ownedFirst);
    Value lastRow = sliceRowAt(m.add(array.offset, array.validCount), firstRow);
    Value count = m.sub(lastRow, firstRow);
    result.ownedFrom = m.sub(ownedFirst, firstRow);
    result.ownedCount = m.sub(ownedLast, ownedFirst);
    result.validCount = count;
    // Buffer row of slice row firstRow; the first valid row when the slice
    // holds none.
    Value localRow = m.select(
        m.gt(count, m.c(0)),
        m.add(array.first,
              m.sub(m.add(offset, m.mul(firstRow, stride)), array.offset)),
        array.first);
    localOffsets[0] = localRow;
    localSizes[0] = count;
    result.buffer =
        OpTy::create(rewriter, loc, getBufferType(resultType), array.buffer,
                     localOffsets, localSizes, strides);
    result.offset = firstRow;
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// Elementwise ops (and concatenation along dimensions other than 0) whose
/// distributed operands were aligned by ndarray-dist: all hold the same rows
/// of the result (or are broadcast along dimension 0), so the op is computed
/// once on views of their buffers. The result owns the rows it computes.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), 1, context) {}

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
    };
    SmallVector<Operand> inputs;
    Value size0;
    for (auto [original, converted] : llvm::zip(op->getOperands(), operands)) {
      auto type = cast<NDArrayType>(original.getType());
      Operand input{Operand::Whole, {}, nullptr, nullptr, type};
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
        size0 = size0 ? dist::createBroadcastSize(b, loc, size0, rows) : rows;
      }
      inputs.push_back(input);
    }
    if (!size0)
      return rewriter.notifyMatchFailure(op, "no operand spans dimension 0");
    if (!resultType.isDynamicDim(0))
      size0 = m.c(resultType.getDimSize(0));

    // The rows of the result this rank computes: those the first
    // row-aligned distributed operand holds, or the default partition.
    auto [defaultOffset, defaultCount] =
        dist::createDefaultPartition(b, loc, env.getTeam(), size0);
    Value offset = defaultOffset, count = defaultCount;
    for (Operand &input : llvm::reverse(inputs)) {
      if (input.kind == Operand::Whole)
        continue;
      Value rows = input.kind == Operand::Aligned ? input.dist.size0
                                                  : m.rows(input.local);
      input.isRowAligned = m.eq(rows, size0);
      if (input.kind != Operand::Aligned)
        continue;
      offset = m.select(input.isRowAligned, input.dist.offset, offset);
      count = m.select(input.isRowAligned, input.dist.validCount, count);
    }

    IRMapping mapping;
    for (auto [original, operand] : llvm::zip(op->getOperands(), inputs)) {
      const Operand &input = operand;
      NDArrayType rowsType = dist::getRowsType(input.type);
      Value local;
      switch (input.kind) {
      case Operand::Whole:
        local = input.local;
        break;
      case Operand::Replicated:
        local = buildIf(
            b, loc, input.isRowAligned, rowsType,
            [&] { return sliceRows(b, loc, input.local, offset, count); },
            [&] { return input.local; });
        break;
      case Operand::Aligned:
        local = buildIf(
            b, loc, input.isRowAligned, rowsType,
            [&] { return input.dist.validSlice(b, loc, m.c(0), count); },
            [&] { return input.dist.valid(b, loc); });
        break;
      }
      mapping.map(original, local);
    }
    Operation *local = b.clone(*op, mapping);
    local->getResult(0).setType(dist::getRowsType(resultType));
    return replaceWithOwned(rewriter, op, local->getResult(0), offset, size0);
  }
};

/// Insert into a distributed array: each rank writes the rows of the slice
/// in its owned block, in place in its buffer. ndarray-dist aligned a
/// distributed source with those rows. The result's halos are invalid.
struct InsertSliceLowering : public DistPattern<ImmutableInsertSliceOp> {
  InsertSliceLowering(const TypeConverter &converter, MLIRContext *context,
                      const ExchangedBuffers &exchanged)
      : DistPattern(converter, context), exchanged(exchanged) {}

  LogicalResult
  matchAndRewrite(ImmutableInsertSliceOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NDArrayType destType = op.getType();
    if (!dist::getDistEnv(destType))
      return failure();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    LocalArray dest = getLatestOwned(
        LocalArray::unpack(adaptor.getDestination()), b, loc, op, exchanged);
    Value start = dest.ownedStart(m);
    Value ownedRow = dest.ownedRow(m);

    SmallVector<OpFoldResult> offsets = op.getMixedOffsets();
    SmallVector<OpFoldResult> sizes = op.getMixedSizes();
    SmallVector<OpFoldResult> strides = op.getMixedStrides();
    auto materialize = [&](OpFoldResult ofr) {
      return getValueOrCreateConstantIndexOp(b, loc, ofr);
    };
    Value offset = materialize(offsets[0]), sliceRows0 = materialize(sizes[0]),
          stride = materialize(strides[0]);
    // Slice rows [first, first + count) land in the owned block.
    auto [targetFirst, targetCount] = dist::createLocalTargetOfSlice(
        b, loc, op.getDestination(), offsets, sizes, strides);
    Value first = targetFirst, count = targetCount;
    Value globalRow = m.add(offset, m.mul(first, stride));
    Value bufferRow =
        m.select(m.gt(count, m.c(0)), m.add(ownedRow, m.sub(globalRow, start)),
                 ownedRow);
    SmallVector<OpFoldResult> localOffsets(offsets), localSizes(sizes);
    localOffsets[0] = bufferRow;
    localSizes[0] = count;

    auto sourceType = cast<NDArrayType>(op.getSource().getType());
    ValueRange source = adaptor.getSource();
    Value local;
    if (dist::getDistEnv(sourceType)) {
      LocalArray src = LocalArray::unpack(source);
      // Row-aligned: the source holds the slice rows [first, first + count);
      // else it is broadcast along dimension 0.
      local = buildIf(
          b, loc, m.eq(src.size0, sliceRows0), dist::getRowsType(sourceType),
          [&] { return src.validSlice(b, loc, m.c(0), count); },
          [&] { return src.valid(b, loc); });
    } else {
      local = source.front();
      if (sourceType.getRank() == (int64_t)sizes.size())
        local = buildIf(
            b, loc, m.eq(m.rows(local), sliceRows0),
            dist::getRowsType(sourceType),
            [&] { return sliceRows(b, loc, local, first, count); },
            [&] { return local; });
    }
    Value buffer = ImmutableInsertSliceOp::create(
        b, loc, local, dest.buffer, localOffsets, localSizes, strides);
    Value zero = m.c(0);
    LocalArray result{buffer,          ownedRow, zero,      dest.ownedCount,
                      dest.ownedCount, start,    dest.size0};
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }

  const ExchangedBuffers &exchanged;
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
    Value owned = array.owned(rewriter, loc);
    // The local result's dimension 0 is dynamic (the owned rows); the
    // others keep the op's sizes.
    SmallVector<Value> sizes{array.ownedCount};
    auto dynamicSizes = adaptor.getDynamicSizes();
    for (int64_t d = 0, k = 0; d < resultType.getRank(); ++d) {
      if (!resultType.isDynamicDim(d))
        continue;
      if (d > 0)
        sizes.push_back(dynamicSizes[k].front());
      ++k;
    }
    Value local = BroadcastToOp::create(
        rewriter, loc, dist::getRowsType(resultType), owned, sizes);
    return replaceWithOwned(rewriter, op, local, array.ownedStart(m),
                            array.size0);
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
    Value owned = array.owned(b, loc);
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
        dist::getRowsType(resultType), owned,
        withTrailingDims(b, loc, array.size0, owned),
        withTrailingZeros(b, loc, array.ownedStart(m), sourceRank), shape,
        withTrailingZeros(b, loc, offset, rank), localShape, env.getTeam());
    auto wait = distruntime::WaitOp::create(
        b, loc, copy.getHandle(), ValueRange{owned, copy.getOutput()});
    return replaceWithOwned(rewriter, op, wait.getResult(1), offset, shape[0]);
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
    Value owned = array.owned(b, loc);
    ArrayRef<int64_t> permutation = op.getPermutation();
    if (permutation[0] == 0) {
      Value local = PermuteDimsOp::create(b, loc, dist::getRowsType(resultType),
                                          owned, permutation);
      return replaceWithOwned(rewriter, op, local, array.ownedStart(m),
                              array.size0);
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
        dist::getRowsType(resultType), owned, sourceShape,
        withTrailingZeros(b, loc, array.ownedStart(m), rank),
        withTrailingZeros(b, loc, offset, rank), localShape, permutation,
        env.getTeam());
    auto wait = distruntime::WaitOp::create(
        b, loc, copy.getHandle(), ValueRange{owned, copy.getOutput()});
    return replaceWithOwned(rewriter, op, wait.getResult(1), offset, shape[0]);
  }
};

/// Sorts: along dimensions other than 0 on the owned block; a 1-d array by
/// the sample sort of IDTR into the default partition.
template <typename OpTy> struct SortLowering : public DistPattern<OpTy> {
  using DistPattern<OpTy>::DistPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename DistPattern<OpTy>::OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto env = dist::getDistEnv(op.getSource().getType());
    if (!env)
      return failure();
    Location loc = op.getLoc();
    IndexMath m{rewriter, loc};
    LocalArray array = LocalArray::unpack(adaptor.getSource());
    if (op.getAxis() != 0)
      return replaceOnOwnedBlock(rewriter, op, array);
    Value owned = array.owned(rewriter, loc);
    NDArrayType rowsType = dist::getRowsType(op.getType());
    if (rowsType.getRank() != 1)
      return rewriter.notifyMatchFailure(
          op, "sort along dimension 0 of an n-d array (transposed by "
              "ndarray-dist)");
    auto [first, count] =
        dist::createDefaultPartition(rewriter, loc, env.getTeam(), array.size0);
    Value sorted = distruntime::SampleSortOp::create(
        rewriter, loc, rowsType, owned, array.ownedStart(m), count,
        op.getDescending(), std::is_same_v<OpTy, ArgSortOp>, env.getTeam());
    return replaceWithOwned(rewriter, op, sorted, first, array.size0);
  }
};

} // namespace

void dist::detail::populateArrayOpsToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const ExchangedBuffers &exchanged) {
  MLIRContext *context = patterns.getContext();
  patterns.add<InsertSliceLowering, SliceLowering<SubviewOp>,
               SliceLowering<ExtractSliceOp>>(converter, context, exchanged);
  patterns.add<ElementwiseLowering, DimLowering, CastLowering,
               OwnedBlockLowering<CopyOp>, OwnedBlockLowering<ExpandDimsOp>,
               OwnedBlockLowering<SqueezeOp>, OwnedBlockLowering<FlipOp>,
               BroadcastToRowsLowering, ReshapeLowering, PermuteDimsLowering,
               SortLowering<SortOp>, SortLowering<ArgSortOp>>(converter,
                                                              context);
}
