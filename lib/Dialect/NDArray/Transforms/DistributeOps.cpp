//===- DistributeOps.cpp - distributed algorithms of single ndarray ops
//----===//
//
// The parts of ndarray-dist that give single ops a distributed algorithm
// instead of the gather fallback: concatenation, flips, integer and boolean
// indexing, sorts, scans with an initial row, matrix products, Fourier
// transforms along unsplit axes and routines on stacks of matrices, each
// computing this rank's block of the result (see docs/distribution.md for
// what each communicates).
//
//===----------------------------------------------------------------------===//

#include "DistributeOps.h"

#include "imex/Dialect/Dist/IR/Dist.h"
#include "imex/Dialect/Dist/IR/IndexMath.h"
#include "imex/Dialect/Dist/Utils/DistUtils.h"
#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/TypeRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::detail;

/// Concatenation along the split dimension: this rank's block of the result
/// (default partition) is made of the operand rows that fall into it. Each
/// distributed operand is repartitioned to exactly its rows of the block
/// (at most the block's rows move), a replicated one is sliced; the pieces
/// are concatenated locally.
LogicalResult imex::ndarray::detail::distributeRowConcat(ConcatOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  if (!env)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  dist::IndexMath m(b, loc);
  OpFoldResult total = m.constant(0);
  for (Value operand : op.getOperands())
    total = m.add(total, dist::getDimSize(b, loc, operand, 0));
  Value rows = getValueOrCreateConstantIndexOp(b, loc, total);
  auto [first, count] =
      dist::createDefaultPartition(b, loc, env.getTeam(), rows);
  OpFoldResult last = m.add(first, count);

  SmallVector<Value> pieces;
  OpFoldResult start = m.constant(0);
  for (Value operand : op.getOperands()) {
    OpFoldResult size = dist::getDimSize(b, loc, operand, 0);
    OpFoldResult lo = m.clamp(m.sub(first, start), m.constant(0), size);
    OpFoldResult hi = m.clamp(m.sub(last, start), m.constant(0), size);
    start = m.add(start, size);
    pieces.push_back(dist::createLocalRows(b, loc, operand, lo, m.sub(hi, lo)));
  }
  Value owned =
      ConcatOp::create(b, loc, dist::getRowsType(resultType), pieces, 0);
  replaceWithDistributed(b, op, owned, first, rows, op.getOperand(0));
  return success();
}

/// A flip along the split dimension: this rank's block of the result
/// (default partition) is the mirrored rows of the source, fetched by a
/// repartition (at most the block moves) and flipped locally.
LogicalResult imex::ndarray::detail::distributeRowFlip(FlipOp op) {
  auto env = dist::getDistEnv(op.getType());
  if (!env)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  dist::IndexMath m(b, loc);
  Value rows = dist::getDimValue(b, loc, op.getSource(), 0);
  auto [first, count] =
      dist::createDefaultPartition(b, loc, env.getTeam(), rows);
  OpFoldResult mirrored = m.sub(m.sub(rows, first), count);
  Value local = FlipOp::create(
      b, loc, dist::getRowsType(op.getType()),
      dist::createLocalRows(b, loc, op.getSource(), mirrored, count),
      op.getAxes());
  replaceWithDistributed(b, op, local, first, rows, op.getSource());
  return success();
}

/// Integer indices as i64 (what IDTR takes).
static Value castToI64(OpBuilder &b, Location loc, Value indices) {
  auto type = cast<NDArrayType>(indices.getType());
  if (type.getElementType().isInteger(64))
    return indices;
  return CastElemTypeOp::create(
      b, loc,
      cast<NDArrayType>(type.cloneWith(type.getShape(), b.getI64Type())),
      indices);
}

/// Integer-array indexing along an axis. Along axis 0 this rank's block of
/// the result (default partition of the indices) is its block of the
/// indices' rows: of a split source fetched by distruntime.take (requests
/// and rows through one all-to-all each), of a replicated one taken
/// locally. Along other axes each rank takes from its rows of the source
/// (the indices replicated, gathered if split).
LogicalResult imex::ndarray::detail::distributeTake(TakeOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value source = op.getSource(), indices = op.getIndices();
  if (!env) {
    // Replicated result (a replicated source along another axis): the
    // indices are gathered.
    if (dist::getDistEnv(indices.getType()))
      op.getIndicesMutable().set(dist::createGather(b, loc, indices));
    return success();
  }
  int64_t team = env.getTeam();
  int64_t axis = op.getAxis();
  auto sourceEnv = dist::getDistEnv(source.getType());
  if (axis != 0) {
    if (dist::getDistEnv(indices.getType()))
      indices = dist::createGather(b, loc, indices);
    Value rows = dist::getDimValue(b, loc, source, 0);
    auto [first, count] = dist::createDefaultPartition(b, loc, team, rows);
    Value local = TakeOp::create(
        b, loc, dist::getRowsType(resultType),
        dist::createLocalRows(b, loc, source, first, count), indices, axis);
    // (The trailing dimensions of the local result are global.)
    replaceWithDistributed(b, op, local, first, rows, local);
    return success();
  }
  Value n = dist::getDimValue(b, loc, indices, 0);
  auto [first, count] = dist::createDefaultPartition(b, loc, team, n);
  Value localIndices = dist::createLocalRows(b, loc, indices, first, count);
  Value local;
  if (!sourceEnv) {
    local = TakeOp::create(b, loc, dist::getRowsType(resultType), source,
                           localIndices, 0);
  } else {
    localIndices = castToI64(b, loc, localIndices);
    Value rows = dist::getDimValue(b, loc, source, 0);
    auto [firstRow, rowCount] =
        dist::createDefaultPartition(b, loc, team, rows);
    local = distruntime::TakeOp::create(
        b, loc, dist::getRowsType(resultType),
        dist::createLocalRows(b, loc, source, firstRow, rowCount), firstRow,
        rows, localIndices, team);
  }
  replaceWithDistributed(b, op, local, first, n, source);
  return success();
}

/// Integer-array assignment along an axis. A distributed result (the
/// destination's rows, default partition) is written block by block: along
/// axis 0 by distruntime.put, with replicated indices and values each rank
/// writing its rows without communication, otherwise each rank sending its
/// block of the (index, value) pairs (default partition of the indices) to
/// the owners; along other axes by a local put into the rank's rows (split
/// indices gathered, the values' rows aligned with the destination's). A
/// replicated result gathers split indices and values.
LogicalResult imex::ndarray::detail::distributePut(PutOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  if (!env)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value destination = op.getDestination(), indices = op.getIndices(),
        values = op.getValues();
  int64_t team = env.getTeam();
  Value rows = dist::getDimValue(b, loc, destination, 0);
  auto [first, count] = dist::createDefaultPartition(b, loc, team, rows);
  Value block = dist::createLocalRows(b, loc, destination, first, count);
  NDArrayType localType = dist::getRowsType(resultType);
  Value local;
  if (op.getAxis() != 0) {
    if (dist::getDistEnv(indices.getType()))
      indices = dist::createGather(b, loc, indices);
    local = PutOp::create(b, loc, localType,
                          dist::createLocalRows(b, loc, values, first, count),
                          block, indices, op.getAxis());
  } else {
    bool replicated = !dist::getDistEnv(indices.getType()) &&
                      !dist::getDistEnv(values.getType());
    if (!replicated) {
      Value n = dist::getDimValue(b, loc, indices, 0);
      auto [firstIndex, indexCount] =
          dist::createDefaultPartition(b, loc, team, n);
      indices = dist::createLocalRows(b, loc, indices, firstIndex, indexCount);
      values = dist::createLocalRows(b, loc, values, firstIndex, indexCount);
    }
    local = distruntime::PutOp::create(b, loc, localType, values, block, first,
                                       rows, castToI64(b, loc, indices),
                                       replicated, team);
  }
  replaceWithDistributed(b, op, local, first, rows, destination);
  return success();
}

/// A sort along dimension 0 of an n-d array: the sort along the last axis
/// of the transpose with dimension 0 moved last (local to each rank's rows),
/// transposed back. Each transpose moves every element once (IDTR's
/// copy_permute); nothing is gathered.
template <typename OpTy> static LogicalResult sortThroughTranspose(OpTy op) {
  auto sourceType = cast<NDArrayType>(op.getSource().getType());
  int64_t team = dist::getDistEnv(sourceType).getTeam();
  int64_t rank = sourceType.getRank();
  SmallVector<int64_t> forward, backward{rank - 1};
  for (int64_t d = 1; d < rank; ++d)
    forward.push_back(d);
  forward.push_back(0);
  for (int64_t d = 0; d + 1 < rank; ++d)
    backward.push_back(d);
  auto transposed = [&](NDArrayType type) {
    SmallVector<int64_t> shape;
    for (int64_t d : forward)
      shape.push_back(type.getDimSize(d));
    return dist::withDistEnv(
        dist::withoutDistEnv(type).cloneWith(shape, type.getElementType()),
        team);
  };
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value source =
      PermuteDimsOp::create(b, loc, transposed(sourceType), op.getSource(),
                            b.getDenseI64ArrayAttr(forward));
  Value sorted = OpTy::create(b, loc, transposed(op.getType()), source,
                              rank - 1, op.getDescending());
  Value back = PermuteDimsOp::create(b, loc, op.getType(), sorted,
                                     b.getDenseI64ArrayAttr(backward));
  op.getResult().replaceAllUsesWith(back);
  op.erase();
  return success();
}

/// Boolean indexing: each rank selects from its block of the source
/// (default partition; the mask's rows are repartitioned to it, a
/// replicated operand sliced) and keeps its selection. The result's block
/// offsets are the exclusive scan of the ranks' counts, its size their sum:
/// one exclusive scan and one allreduce of one number, no data moves.
LogicalResult imex::ndarray::detail::distributeMaskedSelect(MaskedSelectOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  if (!env)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value source = op.getSource(), mask = op.getMask();
  Value rows = dist::getDimValue(b, loc, source, 0);
  auto [first, count] =
      dist::createDefaultPartition(b, loc, env.getTeam(), rows);
  Value local = MaskedSelectOp::create(
      b, loc, dist::getRowsType(resultType),
      dist::createLocalRows(b, loc, source, first, count),
      dist::createLocalRows(b, loc, mask, first, count));
  // This rank's count, the counts before it and the total.
  Type i64 = b.getI64Type();
  Value zero = constIndex(b, loc, 0);
  Value selected = arith::IndexCastOp::create(
      b, loc, i64, DimOp::create(b, loc, local, zero).getResult());
  auto countType = NDArrayType::get({1}, i64);
  Value counts =
      CreateOp::create(b, loc, countType, ValueRange{}, selected).getResult();
  auto toIndex = [&](Value array) {
    Value element = LoadOp::create(b, loc, array, ValueRange{zero});
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), element)
        .getResult();
  };
  Value offset = toIndex(distruntime::ExScanOp::create(
      b, loc, countType, distruntime::ReductionKind::sum, counts,
      env.getTeam()));
  Value total = toIndex(distruntime::AllReduceOp::create(
      b, loc, countType, distruntime::ReductionKind::sum, counts,
      env.getTeam()));
  // (The trailing dimensions of the local selection are global.)
  replaceWithDistributed(b, op, local, offset, total, local);
  return success();
}

/// A scan along the split dimension with `include_initial`: the scan
/// without it, after a replicated row of the identity (concatenated as
/// above: each rank's block shifts by at most one row).
LogicalResult imex::ndarray::detail::splitInitialRow(CumulativeOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  NDArrayType resultType = op.getType();
  auto sourceType = cast<NDArrayType>(op.getSource().getType());
  SmallVector<int64_t> scanShape(resultType.getShape());
  scanShape[0] = sourceType.getDimSize(0);
  auto scanType = cast<NDArrayType>(
      resultType.cloneWith(scanShape, resultType.getElementType()));
  Value scan = CumulativeOp::create(b, loc, scanType, op.getKind(),
                                    op.getSource(), /*axis=*/0,
                                    /*include_initial=*/false);
  SmallVector<int64_t> rowShape(resultType.getShape());
  rowShape[0] = 1;
  auto rowType =
      cast<NDArrayType>(dist::withoutDistEnv(resultType)
                            .cloneWith(rowShape, resultType.getElementType()));
  SmallVector<Value> rowSizes;
  for (int64_t d = 1; d < rowType.getRank(); ++d)
    if (rowType.isDynamicDim(d))
      rowSizes.push_back(dist::getDimValue(b, loc, op.getSource(), d));
  Type element = resultType.getElementType();
  // arith constants are signless and real: unsigned rows are created
  // signless, complex rows real, and converted.
  Type storage = element.isUnsignedInteger()
                     ? b.getIntegerType(element.getIntOrFloatBitWidth())
                     : getRealType(element);
  bool isSum = op.getKind() == ReductionKind::sum;
  TypedAttr identity =
      isa<FloatType>(storage)
          ? TypedAttr(b.getFloatAttr(storage, isSum ? 0 : 1))
          : TypedAttr(b.getIntegerAttr(storage, isSum ? 0 : 1));
  Value one = arith::ConstantOp::create(b, loc, identity);
  Value row = CreateOp::create(
      b, loc, cast<NDArrayType>(rowType.cloneWith(rowShape, storage)), rowSizes,
      one);
  if (storage != element)
    row = CastElemTypeOp::create(b, loc, rowType, row);
  auto concat = ConcatOp::create(b, loc, resultType, ValueRange{row, scan},
                                 /*axis=*/0);
  op.getResult().replaceAllUsesWith(concat.getResult());
  op.erase();
  return distributeRowConcat(concat);
}

/// Matrix products whose dimension 0 is dimension 0 of `lhs` (a matrix or
/// a stack of matrices, distributed or not, times a matrix or a vector):
/// this rank computes its block of the result (default partition) from
/// those rows (or matrices) of `lhs` and the whole `rhs`, gathered if
/// distributed: the size of `rhs` moves to each rank, plus the rows of
/// `lhs` a rank does not own (none when `lhs` has the default partition).
LogicalResult imex::ndarray::detail::distributeRowMatmul(MatMulOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  if (!env || cast<NDArrayType>(op.getLhs().getType()).getRank() < 2 ||
      cast<NDArrayType>(op.getRhs().getType()).getRank() > 2)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value rows = dist::getDimValue(b, loc, op.getLhs(), 0);
  auto [first, count] =
      dist::createDefaultPartition(b, loc, env.getTeam(), rows);
  Value lhs = dist::createLocalRows(b, loc, op.getLhs(), first, count);
  Value rhs = op.getRhs();
  if (dist::getDistEnv(rhs.getType()))
    rhs = dist::createGather(b, loc, rhs);
  Value owned =
      MatMulOp::create(b, loc, dist::getRowsType(resultType), lhs, rhs);
  replaceWithDistributed(b, op, owned, first, rows, owned);
  return success();
}

/// A vector times a matrix split on its rows (`x @ A`): each rank
/// multiplies its share of `x` by its rows of `A`, and an allreduce sums
/// the partial products: the result's size moves instead of `A`. (Float
/// results then depend on the rank count: the order of the partial sums.)
LogicalResult imex::ndarray::detail::distributeVectorMatmul(MatMulOp op) {
  NDArrayType resultType = op.getType();
  Value x = op.getLhs(), a = op.getRhs();
  auto env = dist::getDistEnv(a.getType());
  if (!env || resultType.getElementType().isInteger(1))
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t team = env.getTeam();
  Value rows = dist::getDimValue(b, loc, a, 0);
  auto [first, count] = dist::createDefaultPartition(b, loc, team, rows);
  NDArrayType localType = dist::withoutDistEnv(resultType);
  Value partial = MatMulOp::create(
      b, loc, localType, dist::createLocalRows(b, loc, x, first, count),
      dist::createLocalRows(b, loc, a, first, count));
  auto total = distruntime::AllReduceOp::create(
      b, loc, localType, distruntime::ReductionKind::sum, partial, team);
  op.getResult().replaceAllUsesWith(total.getResult());
  if (dist::getDistEnv(resultType)) {
    b.setInsertionPointAfter(total);
    redistributeResult(b, loc, total->getResult(0), resultType);
  }
  op.erase();
  return success();
}

/// The transform `kind` over `axes` of the distributed array `source`,
/// moved to a distribution split on axis `split` (not among `axes`): each
/// rank transforms its owned block on its own, and the result moves back
/// to the distribution of `resultType`. Two all-to-all exchanges, as the
/// transposes of FFTW-MPI.
static Value createSplitFFT(OpBuilder &b, Location loc, NDArrayType resultType,
                            FFTKind kind, Value source, ArrayRef<int64_t> axes,
                            std::optional<int64_t> length, int64_t split) {
  auto env = dist::getDistEnv(resultType);
  auto splitEnv = dist::DistEnvAttr::get(b.getContext(), env.getTeam(),
                                         ArrayRef<int64_t>{split}, {});
  auto sourceType = cast<NDArrayType>(source.getType());
  Value moved = dist::RedistributeOp::create(
      b, loc, dist::withDistEnv(sourceType, splitEnv), source);
  Value block = dist::OwnedBlockOfOp::create(b, loc, moved);
  NDArrayType splitResultType = dist::withDistEnv(resultType, splitEnv);
  Value local =
      FFTOp::create(b, loc, dist::getLocalType(splitResultType),
                    FFTKindAttr::get(b.getContext(), kind), block,
                    b.getDenseI64ArrayAttr(axes),
                    length ? b.getI64IntegerAttr(*length) : IntegerAttr());
  dist::IndexMath m(b, loc);
  SmallVector<Value> shape;
  for (int64_t d = 0; d < sourceType.getRank(); ++d) {
    OpFoldResult size = dist::getDimSize(b, loc, source, d);
    if (d == axes.back() && kind == FFTKind::r2c)
      size = m.add(m.div(size, m.constant(2)), m.constant(1));
    if (d == axes.back() && kind == FFTKind::c2r)
      size = m.constant(*length);
    shape.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  }
  auto [offsets, sizes] = dist::createBlock(b, loc, splitEnv, shape);
  Value result = dist::InitDistArrayOp::create(b, loc, splitResultType, local,
                                               offsets, shape,
                                               /*spare_rows=*/nullptr);
  return dist::RedistributeOp::create(b, loc, resultType, result);
}

/// A Fourier transform of an array split on rows. Over axes other than the
/// split one: this rank transforms its block of rows (default partition,
/// repartitioned if the source has another) on its own; nothing else moves.
/// Over the split axis and an axis it leaves alone: on the array split on
/// that axis (createSplitFFT). Over every axis: in two phases, over the
/// others on the rows and over the split axis on the array split on axis 1
/// (forward and r2c in this order, backward and c2r in the other). Only a
/// 1-d transform gathers.
LogicalResult imex::ndarray::detail::distributeRowFFT(FFTOp op) {
  NDArrayType resultType = op.getType();
  auto env = dist::getDistEnv(resultType);
  ArrayRef<int64_t> axes = op.getAxes();
  int64_t rank = resultType.getRank();
  if (!env || (rank < 2 && llvm::is_contained(axes, 0)))
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  FFTKind kind = op.getKind();
  if (llvm::is_contained(axes, 0)) {
    auto untouched = llvm::find_if(llvm::seq<int64_t>(1, rank), [&](int64_t d) {
      return !llvm::is_contained(axes, d);
    });
    if (untouched != llvm::seq<int64_t>(1, rank).end()) {
      op.replaceAllUsesWith(createSplitFFT(b, loc, resultType, kind,
                                           op.getSource(), axes, op.getLength(),
                                           *untouched));
      op.erase();
      return success();
    }
    // Every axis: the rows' phase (axes but 0) and the split axis' phase.
    SmallVector<int64_t> rowAxes;
    llvm::copy_if(axes, std::back_inserter(rowAxes),
                  [](int64_t a) { return a != 0; });
    SmallVector<int64_t> splitAxes{0};
    bool realOnRows = axes.back() != 0;
    auto *ctx = b.getContext();
    auto kindAttr = [&](FFTKind k) { return FFTKindAttr::get(ctx, k); };
    FFTKind firstKind = kind, secondKind = kind;
    ArrayRef<int64_t> firstAxes = rowAxes, secondAxes = splitAxes;
    NDArrayType middleType = resultType;
    IntegerAttr firstLength, secondLength;
    // (backward mirrors forward, so that in fftn then ifftn the
    // redistributions back to rows and again to axis 1 cancel.)
    if (kind == FFTKind::backward) {
      std::swap(firstAxes, secondAxes);
    } else if (kind == FFTKind::r2c) {
      // The real transform first, the other phase forward.
      secondKind = FFTKind::forward;
      if (!realOnRows)
        std::swap(firstAxes, secondAxes);
    } else if (kind == FFTKind::c2r) {
      // The other phase backward, the real transform last.
      firstKind = FFTKind::backward;
      middleType = op.getSource().getType();
      secondLength = op.getLengthAttr();
      if (realOnRows)
        std::swap(firstAxes, secondAxes);
    }
    auto first =
        FFTOp::create(b, loc, middleType, kindAttr(firstKind), op.getSource(),
                      b.getDenseI64ArrayAttr(firstAxes), firstLength);
    auto second =
        FFTOp::create(b, loc, resultType, kindAttr(secondKind), first,
                      b.getDenseI64ArrayAttr(secondAxes), secondLength);
    op.replaceAllUsesWith(second.getResult());
    op.erase();
    if (failed(distributeRowFFT(first)))
      return failure();
    return distributeRowFFT(second);
  }
  Value rows = dist::getDimValue(b, loc, op.getSource(), 0);
  auto [first, count] =
      dist::createDefaultPartition(b, loc, env.getTeam(), rows);
  Value owned =
      FFTOp::create(b, loc, dist::getRowsType(resultType), op.getKindAttr(),
                    dist::createLocalRows(b, loc, op.getSource(), first, count),
                    op.getAxesAttr(), op.getLengthAttr());
  replaceWithDistributed(b, op, owned, first, rows, owned);
  return success();
}

/// A routine on one matrix split on rows that ScaLAPACK runs
/// (distruntime.matrix_linalg): each input's rows of the default partition
/// (repartitioned if it has another, sliced if replicated) go to the
/// runtime, which returns this rank's rows of a matrix result and the
/// other results (0-d, eigenvalues) whole on every rank. The reduced QR
/// and SVD of an m x n matrix: Q's and U's rows as a's (the first
/// k = min(m, n) of the runtime's n columns), R's and V^H's rows of the
/// default partition of k, the singular values the first k of n. False
/// (nothing changed) for other routines and for results not split on rows.
static bool distributeMatrixLinalg(LinalgOp op, int64_t team) {
  bool qr = op.getKind() == LinalgKind::qr,
       svd = op.getKind() == LinalgKind::svd,
       svdvals = op.getKind() == LinalgKind::svdvals;
  if (op.getKind() > LinalgKind::eigvalsh && !((qr || svd) && !op.getFlag()) &&
      !svdvals)
    return false;
  Type element =
      cast<NDArrayType>(op.getInputs().front().getType()).getElementType();
  Type real = element;
  if (auto complex = dyn_cast<ComplexType>(element))
    real = complex.getElementType();
  if (!real.isF32() && !real.isF64())
    return false;
  for (Value input : op.getInputs())
    if (cast<NDArrayType>(input.getType()).getRank() != 2)
      return false;
  for (Value output : op.getResults().drop_back()) {
    auto type = cast<NDArrayType>(output.getType());
    if (type.getRank() == 2 && !dist::getDistEnv(type))
      return false;
  }
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value rows = dist::getDimValue(b, loc, op.getInputs().front(), 0);
  Value first, count;
  std::tie(first, count) = dist::createDefaultPartition(b, loc, team, rows);
  SmallVector<Value> inputs = llvm::map_to_vector(op.getInputs(), [&](Value v) {
    return dist::createLocalRows(b, loc, v, first, count);
  });
  SmallVector<Type> types;
  for (Value result : op.getResults()) {
    auto type = cast<NDArrayType>(result.getType());
    types.push_back(type.getRank() == 2 ? dist::getRowsType(type)
                                        : dist::withoutDistEnv(type));
  }
  // QR and SVD: R's or V^H's k rows and this rank's part of them; Q's or
  // U's local block has n columns of which the first k are the result's;
  // the runtime's singular values are n of which the first k are.
  Value k, rFirst, rCount;
  SmallVector<Value> resultRows;
  if (qr || svd || svdvals)
    k = arith::MinUIOp::create(
        b, loc, rows, dist::getDimValue(b, loc, op.getInputs().front(), 1));
  auto dynamicLike = [](Type type, int64_t rank) {
    return NDArrayType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                            cast<NDArrayType>(type).getElementType());
  };
  if (qr || svd) {
    std::tie(rFirst, rCount) = dist::createDefaultPartition(b, loc, team, k);
    resultRows.push_back(rCount);
    types[0] = dynamicLike(types[0], 2);
  }
  if (svd || svdvals)
    types[svd ? 1 : 0] = dynamicLike(types[svd ? 1 : 0], 1);
  auto local = distruntime::MatrixLinalgOp::create(
      b, loc, types,
      distruntime::MatrixRoutineAttr::get(
          b.getContext(),
          static_cast<distruntime::MatrixRoutine>(op.getKind())),
      inputs, resultRows, op.getFlagAttr(), b.getI64IntegerAttr(team));
  for (auto [i, result, value] :
       llvm::enumerate(op.getResults(), local.getResults())) {
    Type type = result.getType();
    Value replacement = value;
    if ((qr || svd) && i == 0) {
      auto qType = dist::getRowsType(cast<NDArrayType>(type));
      SmallVector<OpFoldResult> zeros(2, b.getIndexAttr(0)),
          ones(2, b.getIndexAttr(1)), sizes{count, k};
      if (!qType.isDynamicDim(1)) // (k static in the type)
        sizes[1] = b.getIndexAttr(qType.getDimSize(1));
      Value q = SubviewOp::create(b, loc, qType, value, zeros, sizes, ones);
      replacement = bindOwnedRows(b, loc, type, q, first, rows, q);
    } else if ((qr && i == 1) || (svd && i == 2)) {
      replacement = bindOwnedRows(b, loc, type, value, rFirst, k, value);
    } else if ((svdvals && i == 0) || (svd && i == 1)) {
      // (The first k of n values.)
      auto sType = dist::withoutDistEnv(cast<NDArrayType>(type));
      OpFoldResult size = k;
      if (!sType.isDynamicDim(0))
        size = b.getIndexAttr(sType.getDimSize(0));
      replacement = SubviewOp::create(b, loc, sType, value, {b.getIndexAttr(0)},
                                      {size}, {b.getIndexAttr(1)});
      if (dist::getDistEnv(type))
        replacement = dist::createDistribute(b, loc, replacement, team, type);
    } else if (cast<NDArrayType>(type).getRank() == 2)
      replacement = bindOwnedRows(b, loc, type, value, first, rows, value);
    else if (dist::getDistEnv(type))
      replacement = dist::createDistribute(b, loc, value, team, type);
    result.replaceAllUsesWith(replacement);
  }
  op.erase();
  return true;
}

/// A routine on a stack of matrices split along its first batch dimension:
/// this rank runs it on its block of matrices (default partition; every
/// input's block, repartitioned if it has another); the results keep the
/// partition, and the failure counts are summed over the team so that
/// every rank raises. Nothing else moves.
LogicalResult imex::ndarray::detail::distributeBatchLinalg(LinalgOp op) {
  auto sourceType = cast<NDArrayType>(op.getInputs().front().getType());
  ResultRange outputs = op.getResults().drop_back();
  auto env = dist::getDistEnv(sourceType);
  bool batched = true;
  for (Value input : op.getInputs())
    batched &= cast<NDArrayType>(input.getType()).getRank() >= 3;
  for (Value output : outputs)
    batched &= cast<NDArrayType>(output.getType()).getRank() >= 1 &&
               dist::getDistEnv(output.getType()) != nullptr;
  if (env && !batched && distributeMatrixLinalg(op, env.getTeam()))
    return success();
  if (!env || !batched)
    return rewriteWithGather(op);
  OpBuilder b(op);
  Location loc = op.getLoc();
  int64_t team = env.getTeam();
  Value rows = dist::getDimValue(b, loc, op.getInputs().front(), 0);
  auto [first, count] = dist::createDefaultPartition(b, loc, team, rows);
  SmallVector<Value> inputs = llvm::map_to_vector(op.getInputs(), [&](Value v) {
    return dist::createLocalRows(b, loc, v, first, count);
  });
  SmallVector<Type> types;
  for (Value output : outputs)
    types.push_back(dist::getRowsType(cast<NDArrayType>(output.getType())));
  Value status = op.getResults().back();
  types.push_back(dist::withoutDistEnv(cast<NDArrayType>(status.getType())));
  auto local = LinalgOp::create(b, loc, types, op.getKindAttr(), inputs,
                                op.getFlagAttr());
  for (auto [output, owned] : llvm::zip(outputs, local.getResults()))
    output.replaceAllUsesWith(
        bindOwnedRows(b, loc, output.getType(), owned, first, rows, owned));
  Value failures = distruntime::AllReduceOp::create(
      b, loc, local.getResults().back().getType(),
      distruntime::ReductionKind::sum, local.getResults().back(), team);
  if (dist::getDistEnv(status.getType()))
    failures = dist::createDistribute(b, loc, failures, team, status.getType());
  status.replaceAllUsesWith(failures);
  op.erase();
  return success();
}

LogicalResult imex::ndarray::detail::distributeSort(Operation *op) {
  auto type = cast<NDArrayType>(op->getResult(0).getType());
  auto axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
  if (axis != 0 || type.getRank() < 2 ||
      !dist::getDistEnv(op->getOperand(0).getType()))
    return success(); // local, or a sample sort in convert-dist-to-standard
  if (auto sort = dyn_cast<SortOp>(op))
    return sortThroughTranspose(sort);
  return sortThroughTranspose(cast<ArgSortOp>(op));
}
