//===- LocalArray.h - the local storage of a distributed array --*- C++ -*-===//
//
// Internal to convert-dist-to-standard. A distributed array of rank >= 1
// becomes, on each rank, one local buffer holding a contiguous range of its
// global rows, as hand-written MPI codes store it:
//
//     buffer rows:  [ spare | left halo | owned | right halo | spare ]
//                           ^ first
//
// The valid rows (left halo, owned block, right halo) start at buffer row
// `first` and at global row `offset`. Spare rows are ghost cells allocated
// for halos that later exchanges write in place. Every part is a view of the
// buffer: a shifted view of a distributed array is a view of its buffer, and
// an elementwise op on aligned arrays is one op on views of their buffers.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_LIB_CONVERSION_DISTTOSTANDARD_LOCALARRAY_H
#define IMEX_LIB_CONVERSION_DISTTOSTANDARD_LOCALARRAY_H

#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/DialectConversion.h"

namespace imex::dist::detail {

/// Index arithmetic that folds constants as it builds.
struct IndexMath {
  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Value c(int64_t v) const;
  mlir::Value add(mlir::Value x, mlir::Value y) const;
  mlir::Value sub(mlir::Value x, mlir::Value y) const;
  mlir::Value mul(mlir::Value x, mlir::Value y) const;
  mlir::Value min(mlir::Value x, mlir::Value y) const;
  mlir::Value max(mlir::Value x, mlir::Value y) const;
  /// x clamped to [lo, hi] (lo <= hi: a constant x at or below a constant
  /// lo is lo).
  mlir::Value clamp(mlir::Value x, mlir::Value lo, mlir::Value hi) const;
  mlir::Value cmp(mlir::arith::CmpIPredicate pred, mlir::Value x,
                  mlir::Value y) const;
  mlir::Value eq(mlir::Value x, mlir::Value y) const {
    return cmp(mlir::arith::CmpIPredicate::eq, x, y);
  }
  mlir::Value gt(mlir::Value x, mlir::Value y) const {
    return cmp(mlir::arith::CmpIPredicate::sgt, x, y);
  }
  mlir::Value le(mlir::Value x, mlir::Value y) const {
    return cmp(mlir::arith::CmpIPredicate::sle, x, y);
  }
  mlir::Value land(mlir::Value x, mlir::Value y) const;
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y) const;
  mlir::Value ceilDiv(mlir::Value x, mlir::Value y) const;
  /// x / y rounded down (x >= 0, y > 0).
  mlir::Value floorDiv(mlir::Value x, mlir::Value y) const;
  /// The size of dimension 0 of `array`.
  mlir::Value rows(mlir::Value array) const;
};

/// The local representation of a distributed array of rank >= 1: two row
/// ranges of the buffer, the valid rows and the owned rows inside them (the
/// halos are the valid rows before and after the owned ones). Views narrow
/// each range with one clamp per bound.
struct LocalArray {
  static constexpr unsigned kNumValues = 7;

  mlir::Value buffer;     // the local storage
  mlir::Value first;      // buffer row of the first valid row
  mlir::Value ownedFrom;  // valid rows before the owned ones (left halo)
  mlir::Value ownedCount; // owned rows
  mlir::Value validCount; // valid rows (halos and owned rows)
  mlir::Value offset;     // global row of the first valid row
  mlir::Value size0;      // global size of dimension 0

  static LocalArray unpack(mlir::ValueRange values);
  llvm::SmallVector<mlir::Value> pack() const;

  /// A distributed array whose valid rows are all of `owned`, owned, starting
  /// at global row `start`; no spare rows.
  static LocalArray fromOwned(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value owned, mlir::Value start,
                              mlir::Value size0);

  /// Buffer row of the first owned row.
  mlir::Value ownedRow(const IndexMath &m) const {
    return m.add(first, ownedFrom);
  }
  /// Global row of the first owned row.
  mlir::Value ownedStart(const IndexMath &m) const {
    return m.add(offset, ownedFrom);
  }
  /// The owned rows, a view.
  mlir::Value owned(mlir::OpBuilder &b, mlir::Location loc) const;
  /// Valid rows [from, from + count) (relative to the first valid row).
  mlir::Value validSlice(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value from, mlir::Value count) const;
  /// All valid rows, a view.
  mlir::Value valid(mlir::OpBuilder &b, mlir::Location loc) const;
  /// Whether the buffer is known to hold exactly the owned rows.
  bool hasNoSpareRows() const;
  /// The owned rows among valid rows [from, from + count): their start
  /// relative to `from`, and their count.
  std::pair<mlir::Value, mlir::Value>
  ownedIn(const IndexMath &m, mlir::Value from, mlir::Value count) const;
};

/// Whether `type` is a distributed array of rank >= 1 in a distribution other
/// than the default one (split on other axes or over a grid of ranks).
bool isGridArray(mlir::Type type);

/// The local representation of an array in such a distribution: a buffer
/// holding this rank's block at `first` (per dimension; ghost cells around
/// it), the block's `sizes`, the global index of its first element
/// (`offsets`) and the global `shape`.
struct GridArray {
  mlir::Value buffer;
  llvm::SmallVector<mlir::Value> first, sizes, offsets, shape;

  static GridArray unpack(mlir::ValueRange values);
  llvm::SmallVector<mlir::Value> pack() const;
  /// The owned block, a view of the buffer.
  mlir::Value block(mlir::OpBuilder &b, mlir::Location loc) const;
  /// The array whose buffer is exactly its block `block` (of `sizes`, if
  /// given: known to equal its dimensions).
  static GridArray fromBlock(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value block, mlir::ValueRange offsets,
                             mlir::ValueRange shape,
                             mlir::ValueRange sizes = {});
};

/// This rank's block of the distributed array `values` (converted from
/// `type`, in any distribution: a row-split array's owned rows).
GridArray getOwnedBlock(mlir::OpBuilder &b, mlir::Location loc,
                        ndarray::NDArrayType type, mlir::ValueRange values);

/// Patterns for arrays in other distributions than rows take precedence
/// over the row patterns of the same ops.
template <typename OpTy>
struct GridPattern : public mlir::OpConversionPattern<OpTy> {
  GridPattern(const mlir::TypeConverter &converter, mlir::MLIRContext *context)
      : mlir::OpConversionPattern<OpTy>(converter, context, /*benefit=*/2) {}
  using OneToNOpAdaptor =
      typename mlir::OpConversionPattern<OpTy>::OneToNOpAdaptor;
};

/// The static shape of an array of `sizes` (dynamic where they are not
/// constants).
llvm::SmallVector<int64_t> getStaticShape(mlir::ValueRange sizes);

/// The converted values of the distributed array of type `type` whose block
/// on this rank is `block`, at global `offsets` of `shape` (a GridArray, or
/// for rows a LocalArray); `sizes`, where given, are the block's sizes (so
/// that blocks of one distribution compare equal at compile time).
llvm::SmallVector<mlir::Value>
packBlock(mlir::OpBuilder &b, mlir::Location loc, mlir::Value block,
          mlir::ValueRange offsets, mlir::ValueRange shape,
          ndarray::NDArrayType type, mlir::ValueRange sizes = {});

/// The offsets, sizes and strides of a slice op, as index values.
struct SliceValues {
  llvm::SmallVector<mlir::Value> offsets, sizes, strides;
};
SliceValues getSliceValues(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::OffsetSizeAndStrideOpInterface slice);

/// The global box [offsets, offsets + sizes) of `array` (any block
/// distribution) on this rank as a local array of type `type`, received from
/// the ranks owning its elements: one `distruntime.repartition` (collective;
/// ranks whose blocks the box does not reach exchange nothing).
mlir::Value fetchBox(mlir::OpBuilder &b, mlir::Location loc, int64_t team,
                     const GridArray &array, mlir::ValueRange offsets,
                     mlir::ValueRange sizes, ndarray::NDArrayType type);

/// fetchBox of several boxes (`offsets[i]`, `sizes[i]`) in one exchange
/// (`distruntime.fetch_boxes`), each as a local array of type `type`.
llvm::SmallVector<mlir::Value>
fetchBoxes(mlir::OpBuilder &b, mlir::Location loc, int64_t team,
           const GridArray &array,
           llvm::ArrayRef<llvm::SmallVector<mlir::Value>> offsets,
           llvm::ArrayRef<llvm::SmallVector<mlir::Value>> sizes,
           ndarray::NDArrayType type);

/// Ghost cells of arrays split over a grid (GridGhosts.cpp).
struct GridGhosts {
  using Widths = std::pair<llvm::SmallVector<int64_t>,
                           llvm::SmallVector<int64_t>>; // before, after
  /// By grid dist.init_dist_array: the ghost cells around its block.
  llvm::DenseMap<mlir::Operation *, Widths> margins;
  /// Views computed in the part of the slice of the update (insert) they
  /// feed that each rank owns: view -> the first update of that part.
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> alignedViews;
  /// Updates of grid arrays -> the first update of the same part (updates
  /// writing the same slice of arrays with the same blocks).
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> parts;
  /// How far the aligned views of an array reach beyond the part of the
  /// slice for an update, by (insert, array); the halo is what lies outside
  /// the block along the split axes.
  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Value>, Widths> halos;
  /// The (insert, array) pairs whose views are shifted along two split axes
  /// or more (a 9-point stencil): their halos include corners.
  llvm::DenseSet<std::pair<mlir::Operation *, mlir::Value>> corners;
};
GridGhosts analyzeGridGhosts(mlir::Operation *root);

/// What the grid patterns share while converting: per update the part of
/// its slice this rank owns (offsets in the slice, sizes), and the buffers
/// halos were exchanged into, by (update, array).
struct GridUpdates {
  llvm::DenseMap<mlir::Operation *, std::pair<llvm::SmallVector<mlir::Value>,
                                              llvm::SmallVector<mlir::Value>>>
      targets;
  llvm::DenseMap<std::pair<mlir::Operation *, mlir::Value>, mlir::Value>
      exchanged;
};

/// Whether `value` can be used by ops created right before `op` (structured
/// control flow: defined earlier in `op`'s block or an enclosing one).
bool isDefinedBefore(mlir::Value value, mlir::Operation *op);

/// The local type of the buffer of a distributed array of type `distType`.
ndarray::NDArrayType getBufferType(ndarray::NDArrayType distType);

/// Whether `array` has no rows, as far as known at compile time (looking
/// through casts and views).
bool isStaticallyEmpty(mlir::Value array);

using dist::lookThroughCasts;

/// `value` as an array of type `type` (a cast unless it has that type).
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value value,
                   mlir::Type type);

/// `thenValue()` if `cond` holds, else `elseValue()`, as an scf.if yielding
/// arrays of type `type` (no branch when `cond` is a constant).
mlir::Value buildIf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond,
                    mlir::Type type,
                    llvm::function_ref<mlir::Value()> thenValue,
                    llvm::function_ref<mlir::Value()> elseValue);

/// Rows [first, first + count) of the local array `array` (a view).
mlir::Value sliceRows(mlir::OpBuilder &b, mlir::Location loc, mlir::Value array,
                      mlir::Value first, mlir::Value count,
                      mlir::Value step = nullptr);

/// `local` written into rows [row, row + count) of `into`.
mlir::Value insertRows(mlir::OpBuilder &b, mlir::Location loc, mlir::Value into,
                       mlir::Value local, mlir::Value row, mlir::Value count);

/// The owned block `owned` (global rows from `start`) in a new buffer with
/// `left` and `right` spare rows.
LocalArray withSpareRows(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value owned, mlir::Value start,
                         mlir::Value size0, mlir::Value left,
                         mlir::Value right);

/// The owned rows [start, start + count) of a rank inside the box of rows
/// [boxOffset, boxEnd), relative to `start`: [first, last).
std::pair<mlir::Value, mlir::Value>
ownedRowsInBox(const IndexMath &m, mlir::Value start, mlir::Value count,
               mlir::Value boxOffset, mlir::Value boxEnd);

/// Global rows [boxOffset, boxOffset + boxSize) of `array`: the rows outside
/// its owned block arrive through `distruntime.get_halo` (collective over
/// `team`) and are written into its spare rows, in place when the buffer has
/// enough of them (always if `fits`), else into a new buffer holding the
/// box and all owned rows. `ownedRow`, if given, is set to the buffer row of
/// the first owned row in the result's buffer.
LocalArray exchangeRows(mlir::OpBuilder &b, mlir::Location loc, int64_t team,
                        const LocalArray &array, mlir::Value boxOffset,
                        mlir::Value boxSize, bool fits = false,
                        mlir::Value *ownedRow = nullptr);

/// The buffers halos were exchanged into, by the buffer they were exchanged
/// from. The new buffer holds the owned rows of the old one (at `ownedRow`),
/// so later updates of the array write it in place (bufferization would copy
/// the old buffer if it were written after the halos were); if the exchange
/// was in place, it holds all rows of the old one at the same positions.
struct ExchangedBuffer {
  mlir::Value buffer, ownedRow;
  bool inPlace;
};
using ExchangedBuffers = llvm::DenseMap<mlir::Value, ExchangedBuffer>;

/// `array` read from the buffer of the last in-place exchanges from its
/// buffer before `user` (the same rows at the same positions: halos it
/// holds are rows of the same version, which the exchange rewrites with the
/// same values), so that reads after an exchange do not keep the old
/// version alive.
LocalArray getLatest(const LocalArray &array, mlir::Operation *user,
                     const ExchangedBuffers &exchanged);

/// `array`'s owned rows in the buffer of the last exchange from its buffer
/// before `user` (see ExchangedBuffers), else `array`'s owned rows.
LocalArray getLatestOwned(const LocalArray &array, mlir::OpBuilder &b,
                          mlir::Location loc, mlir::Operation *user,
                          const ExchangedBuffers &exchanged);

/// Replaces `op`, whose result is distributed, by the local array `local`
/// holding owned global rows from `start`.
mlir::LogicalResult replaceWithOwned(mlir::ConversionPatternRewriter &rewriter,
                                     mlir::Operation *op, mlir::Value local,
                                     mlir::Value start, mlir::Value size0);

/// Replaces `op` (operand 0 the distributed `array`, the result keeping its
/// rows) by `op` computed on the owned block of `array`.
mlir::LogicalResult
replaceOnOwnedBlock(mlir::ConversionPatternRewriter &rewriter,
                    mlir::Operation *op, const LocalArray &array);

/// Index vectors for distruntime ops: `first` then dimensions 1.. of `array`.
llvm::SmallVector<mlir::Value> withTrailingDims(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::Value first,
                                                mlir::Value array);
/// `first` then `rank - 1` zeros.
llvm::SmallVector<mlir::Value> withTrailingZeros(mlir::OpBuilder &b,
                                                 mlir::Location loc,
                                                 mlir::Value first,
                                                 int64_t rank);

/// Spare rows to allocate before and after the owned block of arrays made by
/// `dist.init_dist_array`: what the exchanges of the array need.
struct GhostWidth {
  int64_t left = 0, right = 0;
  /// Whether an exchange is in a loop the array is not in (then the copy of
  /// a given owned block into a buffer with spare rows pays off).
  bool inLoop = false;
};
struct GhostAnalysis {
  /// By dist.init_dist_array op.
  llvm::DenseMap<mlir::Operation *, GhostWidth> widths;
  /// The dist.repartition ops whose source's buffer surely has the spare
  /// rows the exchange needs (no run-time check).
  llvm::DenseSet<mlir::Operation *> fits;
};
GhostAnalysis analyzeGhostCells(mlir::Operation *root);

/// Write-backs marked kGhostedWriteBackAttrName whose rows are stored in a
/// version of the argument's buffer become whole-buffer write-backs.
void writeBackGhostedArguments(mlir::Operation *root);

void populateDistOpsToStandardPatterns(const mlir::TypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const GhostAnalysis &ghosts,
                                       ExchangedBuffers &exchanged);
void populateArrayOpsToStandardPatterns(const mlir::TypeConverter &converter,
                                        mlir::RewritePatternSet &patterns,
                                        const ExchangedBuffers &exchanged);
void populateReductionsToStandardPatterns(const mlir::TypeConverter &converter,
                                          mlir::RewritePatternSet &patterns);
void populateGridMovesToStandardPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
void populateGridArrayToStandardPatterns(const mlir::TypeConverter &converter,
                                         mlir::RewritePatternSet &patterns,
                                         const GridGhosts &ghosts,
                                         GridUpdates &updates);
/// Whether `op` is a product of matrices the grid patterns compute on the
/// blocks: distributed like its first operand (not on rows), its second
/// operand replicated or distributed like it.
bool isGridMatMul(mlir::Operation *op);
/// Fails with a diagnostic at the first op on a grid array that
/// convert-dist-to-standard does not compute on its blocks.
mlir::LogicalResult checkGridArrayUses(mlir::Operation *root);

} // namespace imex::dist::detail

#endif // IMEX_LIB_CONVERSION_DISTTOSTANDARD_LOCALARRAY_H
