//===- DistOpsToStandard.cpp - lower the dist ops -------------------------===//
//
// The dist ops on distributed arrays: binding local storage, halo exchanges
// into it, and the analysis of how many spare rows (ghost cells) a buffer
// needs for the exchanges of its array.
//
//===----------------------------------------------------------------------===//

#include "LocalArray.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::dist::detail;

//===----------------------------------------------------------------------===//
// Ghost widths
//===----------------------------------------------------------------------===//

/// The halo rows before and after the owned rows that `op` requests, if
/// known at compile time: the box is the union of views shifted by constants
/// from the slice whose owned rows they are read for (a stencil).
static std::optional<std::pair<int64_t, int64_t>>
getStaticHaloWidths(dist::RepartitionOp op) {
  auto box = op.getOffset().getDefiningOp<dist::LocalBoundingBoxOp>();
  if (!box || op.getSize() != box.getResult(1))
    return std::nullopt;
  int64_t left = 0, right = 0;
  while (box) {
    auto target =
        box.getTargetOffsets()[0].getDefiningOp<dist::LocalTargetOfSliceOp>();
    if (!target)
      return std::nullopt;
    std::optional<int64_t> viewOffset =
        getConstantIntValue(box.getViewOffsets()[0]);
    std::optional<int64_t> sliceOffset =
        getConstantIntValue(target.getMixedOffsets()[0]);
    if (!viewOffset || !sliceOffset ||
        !isConstantIntValue(box.getViewStrides()[0], 1) ||
        !isConstantIntValue(target.getMixedStrides()[0], 1))
      return std::nullopt;
    left = std::max(left, *sliceOffset - *viewOffset);
    right = std::max(right, *viewOffset - *sliceOffset);
    if (box.getBbOffsets().empty())
      break;
    box = box.getBbOffsets()[0].getDefiningOp<dist::LocalBoundingBoxOp>();
    if (!box)
      return std::nullopt;
  }
  return std::make_pair(left, right);
}

GhostWidths dist::detail::computeGhostWidths(Operation *root) {
  GhostWidths widths;
  root->walk([&](dist::RepartitionOp op) {
    std::optional<std::pair<int64_t, int64_t>> halo = getStaticHaloWidths(op);
    if (!halo)
      return;
    // The arrays whose storage the source shares: versions made by inserts
    // and carried by loops, back to their dist.init_dist_array.
    SmallVector<Value> worklist{op.getSource()};
    llvm::SmallPtrSet<Value, 8> visited;
    while (!worklist.empty()) {
      Value value = worklist.pop_back_val();
      if (!visited.insert(value).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (!forOp || arg.getArgNumber() == 0)
          continue;
        unsigned i = arg.getArgNumber() - 1;
        worklist.push_back(forOp.getInitArgs()[i]);
        worklist.push_back(forOp.getYieldedValues()[i]);
        continue;
      }
      Operation *def = value.getDefiningOp();
      if (auto init = dyn_cast<dist::InitDistArrayOp>(def)) {
        GhostWidth &width = widths[init];
        width.left = std::max(width.left, halo->first);
        width.right = std::max(width.right, halo->second);
        Operation *loop = op->getParentOfType<LoopLikeOpInterface>();
        width.inLoop |= loop && !loop->isAncestor(init);
      } else if (auto insert = dyn_cast<ImmutableInsertSliceOp>(def)) {
        worklist.push_back(insert.getDestination());
      } else if (auto forOp = dyn_cast<scf::ForOp>(def)) {
        unsigned i = cast<OpResult>(value).getResultNumber();
        worklist.push_back(forOp.getInitArgs()[i]);
      }
    }
  });
  return widths;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// Binds the parts: the owned block is the buffer (with the spare rows the
/// array's exchanges need, see computeGhostWidths) unless halos are given.
struct InitDistArrayLowering
    : public OpConversionPattern<dist::InitDistArrayOp> {
  InitDistArrayLowering(const TypeConverter &converter, MLIRContext *context,
                        const GhostWidths &ghostWidths)
      : OpConversionPattern(converter, context), ghostWidths(ghostWidths) {}

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
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    IndexMath m{b, loc};
    Value offset = adaptor.getLocalOffsets()[0].front();
    Value size0 = adaptor.getGlobalShape()[0].front();
    NDArrayType bufferType = getBufferType(op.getType());
    bool noHalos = isStaticallyEmpty(parts[0]) && isStaticallyEmpty(parts[2]);
    std::array<Value, 3> rows = {noHalos ? m.c(0) : m.rows(parts[0]),
                                 m.rows(parts[1]),
                                 noHalos ? m.c(0) : m.rows(parts[2])};
    LocalArray local;
    if (!noHalos) {
      // Halos given: one buffer of the three parts.
      Value buffer = ConcatOp::create(
          b, loc, dist::getRowsType(cast<NDArrayType>(parts[1].getType())),
          ValueRange(parts).take_front(3), 0);
      local = {castTo(b, loc, buffer, bufferType), m.c(0), rows, offset, size0};
    } else if (auto it = ghostWidths.find(op);
               it != ghostWidths.end() &&
               (it->second.inLoop || parts[1].getDefiningOp<CreateOp>())) {
      // With the spare rows its exchanges need (a given block is copied
      // into the new buffer once, for exchanges in loops).
      Value start = m.add(offset, rows[0]);
      local = withSpareRows(b, loc, parts[1], start, size0,
                            m.c(it->second.left), m.c(it->second.right));
      local.buffer = castTo(b, loc, local.buffer, bufferType);
    } else {
      local = LocalArray::fromOwned(b, loc, parts[1], offset, size0);
      local.buffer = castTo(b, loc, local.buffer, bufferType);
    }
    rewriter.replaceOpWithMultiple(op, {local.pack()});
    return success();
  }

  const GhostWidths &ghostWidths;
};

struct PartsOfLowering : public OpConversionPattern<dist::PartsOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::PartsOfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange values = adaptor.getArray();
    SmallVector<SmallVector<Value>> results;
    if (op.getArray().getType().getRank() == 0) {
      results.push_back({values.front()});
    } else {
      LocalArray array = LocalArray::unpack(values);
      for (auto [p, result] : llvm::enumerate(op.getResults()))
        results.push_back(
            {castTo(rewriter, op.getLoc(), array.part(rewriter, op.getLoc(), p),
                    result.getType())});
    }
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
    rewriter.replaceOp(op,
                       withTrailingZeros(rewriter, op.getLoc(), array.offset,
                                         op->getNumResults()));
    return success();
  }
};

/// Halo exchange into the spare rows of the buffer.
struct RepartitionLowering : public OpConversionPattern<dist::RepartitionOp> {
  RepartitionLowering(const TypeConverter &converter, MLIRContext *context,
                      ExchangedBuffers &exchanged)
      : OpConversionPattern(converter, context), exchanged(exchanged) {}

  LogicalResult
  matchAndRewrite(dist::RepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    LocalArray source = LocalArray::unpack(adaptor.getSource());
    Value ownedRow;
    LocalArray result = exchangeRows(
        rewriter, op.getLoc(), dist::getDistEnv(op.getType()).getTeam(), source,
        adaptor.getOffset().front(), adaptor.getSize().front(),
        /*fits=*/false, &ownedRow);
    exchanged[source.buffer] = {result.buffer, ownedRow};
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }

  ExchangedBuffers &exchanged;
};

/// Rows held locally: the valid rows shrink to the requested ones, the
/// buffer stays.
struct LocalRepartitionLowering
    : public OpConversionPattern<dist::LocalRepartitionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::LocalRepartitionOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    IndexMath m{rewriter, op.getLoc()};
    LocalArray source = LocalArray::unpack(adaptor.getSource());
    Value offset = adaptor.getOffset().front();
    Value from = m.sub(offset, source.offset);
    Value to = m.add(from, adaptor.getSize().front());
    LocalArray result = source;
    result.offset = offset;
    result.first =
        m.add(source.first, m.clamp(from, m.c(0), source.validRows(m)));
    Value begin = m.c(0);
    for (unsigned p = 0; p < 3; ++p) {
      Value end = m.add(begin, source.rows[p]);
      Value lo = m.clamp(from, begin, end), hi = m.clamp(to, begin, end);
      result.rows[p] = m.max(m.sub(hi, lo), m.c(0));
      begin = end;
    }
    rewriter.replaceOpWithMultiple(op, {result.pack()});
    return success();
  }
};

/// Arrays holding the same rows are one loop over views of their buffers:
/// nothing to split.
struct AlignCoresLowering : public OpConversionPattern<dist::AlignCoresOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(dist::AlignCoresOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, adaptor.getArrays());
    return success();
  }
};

} // namespace

void dist::detail::populateDistOpsToStandardPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const GhostWidths &ghostWidths, ExchangedBuffers &exchanged) {
  MLIRContext *context = patterns.getContext();
  patterns.add<InitDistArrayLowering>(converter, context, ghostWidths);
  patterns.add<RepartitionLowering>(converter, context, exchanged);
  patterns.add<PartsOfLowering, LocalOffsetsOfLowering,
               LocalRepartitionLowering, AlignCoresLowering>(converter,
                                                             context);
}
