//===- PairwiseReduction.cpp - pairwise floating point reductions ---------===//
//
// Floating point (and complex) sums and products reduce each axis by the
// pairwise tree of the elements' indices: elements 2i and 2i+1 combined,
// then the results 2j and 2j+1, ..., an odd last one passed up unchanged.
// The error is that of log2(n) roundings (numpy's pairwise summation along
// contiguous axes: about log2(n / 128) + 16; a sequential sum: n), and the
// tree depends on the indices only: a distributed array reduced over blocks
// of 2^k elements aligned to global indices, and then over the blocks'
// results by the same tree, gives the same bits as one process
// (IDTR's ordered reductions, the tiled grid reductions of dist-to-standard).
//
// Six levels at a time run in one pass: each aligned block of 64 elements
// is read and reduced by its tree (vectorized along the kept axes, or by
// the SLP vectorizer along the reduced one), the last partial block by
// halving it until one value is left; the blocks' results are reduced the
// same way until one is left. Axes are reduced innermost first.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"
#include "ScalarOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace imex;
using namespace imex::ndarray;
using namespace imex::ndarray::lowering;

namespace {

/// Elements of the blocks reduced in one pass (six levels of the tree),
/// and of the vectors they are read in along the innermost axis.
constexpr int64_t kLanes = 8;
constexpr int64_t kBlock = kLanes * kLanes;

/// Reduces one axis of a tensor by the pairwise tree (see the file comment).
class AxisTree {
public:
  AxisTree(OpBuilder &b, Location loc, ReductionKind kind, Type accType)
      : b(b), loc(loc), kind(kind), accType(accType),
        storage(getStorageType(accType)) {}

  /// `source` reduced over `axis` to at most one element along it (none
  /// when it has none). `element` maps an element and the elements of
  /// `extras` (read by `extraMaps` in the source's index space, not using
  /// `axis`) to the accumulator type.
  /// The first six levels in one pass, then the levels above (on n / 64
  /// values) one at a time.
  Value reduce(Value source, int64_t axis,
               function_ref<Value(OpBuilder &, Location, ValueRange)> element,
               ValueRange extras, ArrayRef<AffineMap> extraMaps) {
    Value blocks = level(source, axis, element, extras, extraMaps);
    return whileLonger(blocks, axis,
                       [&](Value tensor) { return halve(tensor, axis); });
  }

private:
  /// Six levels of the tree along `axis`: the results of the aligned blocks
  /// of 64 elements (the last one partial).
  Value level(Value source, int64_t axis,
              function_ref<Value(OpBuilder &, Location, ValueRange)> element,
              ValueRange extras, ArrayRef<AffineMap> extraMaps) {
    IndexMath m{b, loc};
    Value n = toIndex(b, loc, getSize(b, loc, source, axis));
    Value whole = m.floorDiv(n, kBlock);
    Value tailStart = m.mul(whole, kBlock);
    // (Sliced to the complete blocks, so that static sizes verify.)
    Value blocks = fullBlocks(slice(source, axis, m.c(0), tailStart), axis,
                              whole, element, extras, extraMaps);
    Value rest = m.sub(n, tailStart);
    Value tail = partialBlock(mapElements(slice(source, axis, tailStart, rest),
                                          element, extras, extraMaps),
                              axis, rest);
    // The complete blocks' results followed by the partial block's.
    Value tailLength = tensor::DimOp::create(b, loc, tail, axis);
    Value joined = empty(blocks, axis, m.add(whole, tailLength));
    joined = insert(blocks, joined, axis, m.c(0));
    return insert(tail, joined, axis, whole);
  }

  /// Index arithmetic folded on constants.
  struct IndexMath {
    OpBuilder &b;
    Location loc;
    Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
    Value add(Value x, Value y) {
      return b.createOrFold<arith::AddIOp>(loc, x, y);
    }
    Value sub(Value x, Value y) {
      return b.createOrFold<arith::SubIOp>(loc, x, y);
    }
    Value mul(Value x, int64_t y) {
      return b.createOrFold<arith::MulIOp>(loc, x, c(y));
    }
    Value floorDiv(Value x, int64_t y) {
      return b.createOrFold<arith::DivUIOp>(loc, x, c(y));
    }
  };

  Value combine(OpBuilder &nb, Location nloc, Value x, Value y) {
    return buildReductionStep(nb, nloc, kind, x, y, accType);
  }

  /// The pairwise tree of `values` (a power of two of them).
  Value tree(OpBuilder &nb, Location nloc, SmallVector<Value> values) {
    while (values.size() > 1) {
      SmallVector<Value> next;
      for (size_t i = 0; i < values.size(); i += 2)
        next.push_back(combine(nb, nloc, values[i], values[i + 1]));
      values = std::move(next);
    }
    return values.front();
  }

  static SmallVector<int64_t> shapeOf(Value tensor) {
    return SmallVector<int64_t>(
        cast<RankedTensorType>(tensor.getType()).getShape());
  }

  /// An empty accumulator tensor shaped like `like` with `size` along `axis`.
  Value empty(Value like, int64_t axis, Value size) {
    SmallVector<int64_t> shape = shapeOf(like);
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, like);
    sizes[axis] = getAsOpFoldResult(size);
    std::optional<int64_t> constant = getConstantIntValue(sizes[axis]);
    shape[axis] = constant ? *constant : ShapedType::kDynamic;
    return createEmpty(b, loc, shape, sizes, storage);
  }

  /// `tensor[..., offset : offset + size * stride : stride, ...]` along
  /// `axis`.
  Value slice(Value tensor, int64_t axis, Value offset, Value size,
              int64_t stride = 1) {
    auto type = cast<RankedTensorType>(tensor.getType());
    int64_t rank = type.getRank();
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = getSizes(b, loc, tensor);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    offsets[axis] = getAsOpFoldResult(offset);
    sizes[axis] = getAsOpFoldResult(size);
    strides[axis] = b.getIndexAttr(stride);
    // (A static empty slice: offsets past a static empty axis, 0 on one of
    // size 0 included, do not verify.)
    if (llvm::any_of(sizes,
                     [](OpFoldResult s) { return isConstantIntValue(s, 0); })) {
      SmallVector<int64_t> shape;
      for (OpFoldResult s : sizes)
        shape.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
      return createEmpty(b, loc, shape, sizes, type.getElementType());
    }
    return tensor::ExtractSliceOp::create(b, loc, tensor, offsets, sizes,
                                          strides);
  }

  /// `source` inserted into `dest` at `offset` along `axis`.
  Value insert(Value source, Value dest, int64_t axis, Value offset) {
    int64_t rank = shapeOf(dest).size();
    // (Nothing to insert; the offsets would not verify on a static empty
    // axis.)
    if (llvm::is_contained(shapeOf(source), 0))
      return dest;
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[axis] = getAsOpFoldResult(offset);
    return tensor::InsertSliceOp::create(
        b, loc, source, dest, offsets, getSizes(b, loc, source),
        SmallVector<OpFoldResult>(rank, b.getIndexAttr(1)));
  }

  /// `element` applied to every element of `tensor` (a slice of the
  /// source); `tensor` itself without `element`.
  Value
  mapElements(Value tensor,
              function_ref<Value(OpBuilder &, Location, ValueRange)> element,
              ValueRange extras, ArrayRef<AffineMap> extraMaps) {
    auto type = cast<RankedTensorType>(tensor.getType());
    if (!element)
      return tensor;
    int64_t rank = type.getRank();
    SmallVector<Value> inputs = {tensor};
    llvm::append_range(inputs, extras);
    SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
    llvm::append_range(maps, extraMaps);
    maps.push_back(b.getMultiDimIdentityMap(rank));
    Value init =
        createEmpty(b, loc, type.getShape(), getSizes(b, loc, tensor), storage);
    return linalg::GenericOp::create(
               b, loc, init.getType(), inputs, init, maps,
               SmallVector<utils::IteratorType>(rank,
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location nloc, ValueRange args) {
                 Value v = element ? element(nb, nloc, args.drop_back())
                                   : args.front();
                 linalg::YieldOp::create(nb, nloc, v);
               })
        .getResult(0);
  }

  /// The results of the `whole` complete blocks along `axis` of `source`
  /// (sliced to them): along other axes than the innermost, the trees of
  /// groups of 8 consecutive elements (levels 1-3, a loop vectorized along
  /// the kept axes reading 8 neighbouring rows), then of 8 consecutive
  /// groups (levels 4-6).
  Value
  fullBlocks(Value source, int64_t axis, Value whole,
             function_ref<Value(OpBuilder &, Location, ValueRange)> element,
             ValueRange extras, ArrayRef<AffineMap> extraMaps) {
    int64_t rank = shapeOf(source).size();
    Type elementType = getElementTypeOrSelf(source.getType());
    if (axis == rank - 1 && !element && isa<FloatType>(elementType))
      return innermostBlocks(source, whole);
    IndexMath m{b, loc};
    Value groups = groupsOfEight(source, axis, m.mul(whole, kLanes), element,
                                 extras, extraMaps);
    return groupsOfEight(groups, axis, whole, nullptr, {}, {});
  }

  /// The trees of the `count` groups of 8 consecutive elements along `axis`
  /// of `source`.
  Value
  groupsOfEight(Value source, int64_t axis, Value count,
                function_ref<Value(OpBuilder &, Location, ValueRange)> element,
                ValueRange extras, ArrayRef<AffineMap> extraMaps) {
    int64_t rank = shapeOf(source).size();
    MLIRContext *ctx = b.getContext();
    SmallVector<AffineExpr> dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(b.getAffineDimExpr(d));
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    for (int64_t e = 0; e < kLanes; ++e) {
      SmallVector<AffineExpr> exprs(dims);
      exprs[axis] = dims[axis] * kLanes + e;
      inputs.push_back(source);
      maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    }
    for (auto [extra, map] : llvm::zip(extras, extraMaps)) {
      inputs.push_back(extra);
      maps.push_back(map);
    }
    maps.push_back(b.getMultiDimIdentityMap(rank));
    Value init = empty(source, axis, count);
    return linalg::GenericOp::create(
               b, loc, init.getType(), inputs, init, maps,
               SmallVector<utils::IteratorType>(rank,
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nb, Location nloc, ValueRange args) {
                 ValueRange extraArgs = args.slice(kLanes, extras.size());
                 SmallVector<Value> values;
                 for (int64_t e = 0; e < kLanes; ++e) {
                   SmallVector<Value> operands = {args[e]};
                   llvm::append_range(operands, extraArgs);
                   values.push_back(element ? element(nb, nloc, operands)
                                            : args[e]);
                 }
                 linalg::YieldOp::create(nb, nloc, tree(nb, nloc, values));
               })
        .getResult(0);
  }

  /// The blocks along the innermost axis, where the loop vectorizer would
  /// vectorize across blocks (a gather per element): loops over the blocks
  /// reading each as a vector of 64 elements, whose first levels are
  /// vector shuffles (the even and the odd elements) and additions.
  Value innermostBlocks(Value source, Value whole) {
    IndexMath m{b, loc};
    int64_t rank = shapeOf(source).size();
    Type elementType = getElementTypeOrSelf(source.getType());
    SmallVector<Value> bounds;
    for (int64_t d = 0; d + 1 < rank; ++d)
      bounds.push_back(toIndex(b, loc, getSize(b, loc, source, d)));
    bounds.push_back(whole);
    Value init = empty(source, rank - 1, whole);
    SmallVector<Value> lower(rank, m.c(0)), steps(rank, m.c(1));
    scf::LoopNest nest = scf::buildLoopNest(
        b, loc, lower, bounds, steps, ValueRange{init},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          // The block as one vector of 64, read by a loop over its 8 rows
          // (unrolled by LLVM into vector loads where the axis is
          // contiguous).
          Value start = arith::MulIOp::create(
              nb, nloc, ivs.back(),
              arith::ConstantIndexOp::create(nb, nloc, kBlock));
          Value zero = arith::ConstantIndexOp::create(nb, nloc, 0);
          Value one = arith::ConstantIndexOp::create(nb, nloc, 1);
          Value rowCount = arith::ConstantIndexOp::create(nb, nloc, kLanes);
          auto blockType = VectorType::get({kBlock}, elementType);
          // (Every element is overwritten: the zeros fold away.)
          Value initial = arith::ConstantOp::create(nb, nloc, blockType,
                                                    nb.getZeroAttr(blockType));
          auto read = scf::ForOp::create(
              nb, nloc, zero, rowCount, one, ValueRange{initial},
              [&](OpBuilder &lb, Location lloc, Value r, ValueRange acc) {
                Value rowOffset = arith::MulIOp::create(
                    lb, lloc, r,
                    arith::ConstantIndexOp::create(lb, lloc, kLanes));
                Value rowStart =
                    arith::AddIOp::create(lb, lloc, start, rowOffset);
                Value block = acc[0];
                for (int64_t l = 0; l < kLanes; ++l) {
                  Value lane = arith::ConstantIndexOp::create(lb, lloc, l);
                  SmallVector<Value> index(ivs);
                  index.back() =
                      arith::AddIOp::create(lb, lloc, rowStart, lane);
                  Value x = tensor::ExtractOp::create(lb, lloc, source, index);
                  Value position =
                      arith::AddIOp::create(lb, lloc, rowOffset, lane);
                  block = vector::InsertOp::create(lb, lloc, x, block,
                                                   OpFoldResult(position));
                }
                scf::YieldOp::create(lb, lloc, block);
              });
          Value values = read.getResult(0);
          // Levels 1-3: the even and the odd elements combined.
          for (int64_t width = kBlock / 2; width >= kLanes; width /= 2) {
            SmallVector<int64_t> evens, odds;
            for (int64_t i = 0; i < width; ++i) {
              evens.push_back(2 * i);
              odds.push_back(2 * i + 1);
            }
            Value even =
                vector::ShuffleOp::create(nb, nloc, values, values, evens);
            Value odd =
                vector::ShuffleOp::create(nb, nloc, values, values, odds);
            values = combine(nb, nloc, even, odd);
          }
          // Levels 4-6 on the 8 results of 8 elements.
          SmallVector<Value> lanes;
          for (int64_t l = 0; l < kLanes; ++l)
            lanes.push_back(vector::ExtractOp::create(nb, nloc, values, l));
          Value value = tree(nb, nloc, lanes);
          SmallVector<Value> at(ivs);
          return {tensor::InsertOp::create(nb, nloc, value, iterArgs[0], at)};
        });
    return nest.results.front();
  }

  /// The tree of `tail` (`rest` < 64 elements along `axis`), at most one
  /// value along it. Up to 8 elements (a reduction over a short axis: the
  /// whole work) in one pass: 8 reads of single elements (the last one
  /// repeated), the missing ones replaced by the identity, which leaves the
  /// tree's results as they are; more by halving.
  Value partialBlock(Value tail, int64_t axis, Value rest) {
    IndexMath m{b, loc};
    auto type = cast<RankedTensorType>(tail.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = ShapedType::kDynamic;
    auto resultType = RankedTensorType::get(shape, type.getElementType());
    // (whileLonger's result is dynamic along `axis`: of `resultType`.)
    auto halvedTail = [&] {
      return whileLonger(tail, axis, [&](Value t) { return halve(t, axis); });
    };
    std::optional<int64_t> known = getConstantIntValue(rest);
    if (known && (*known == 0 || *known > kLanes))
      return halvedTail();
    auto halved = [&](OpBuilder &nb, Location nloc) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      scf::YieldOp::create(nb, nloc, halvedTail());
    };
    Value one = m.c(1);
    Value short_ = arith::AndIOp::create(
        b, loc, cmpIndex(b, loc, arith::CmpIPredicate::uge, rest, one),
        cmpIndex(b, loc, arith::CmpIPredicate::ule, rest, m.c(kLanes)));
    auto shortTree = [&](OpBuilder &nb, Location nloc) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
      Value last = m.sub(rest, one);
      SmallVector<Value> inputs, present;
      for (int64_t e = 0; e < kLanes; ++e) {
        Value at = b.createOrFold<arith::MinUIOp>(nloc, m.c(e), last);
        inputs.push_back(slice(tail, axis, at, one));
        present.push_back(
            cmpIndex(b, nloc, arith::CmpIPredicate::ult, m.c(e), rest));
      }
      Value identity = buildReductionIdentity(b, nloc, kind, accType);
      Value result = buildElementwise(
          b, nloc, inputs, shapeOf(inputs.front()), storage,
          [&](OpBuilder &eb, Location eloc, ValueRange args) {
            SmallVector<Value> values;
            for (int64_t e = 0; e < kLanes; ++e)
              values.push_back(arith::SelectOp::create(eb, eloc, present[e],
                                                       args[e], identity));
            return tree(eb, eloc, values);
          },
          getSizes(b, nloc, inputs.front()));
      if (result.getType() != resultType)
        result = tensor::CastOp::create(b, nloc, resultType, result);
      scf::YieldOp::create(nb, nloc, result);
    };
    return scf::IfOp::create(b, loc, short_, shortTree, halved).getResult(0);
  }

  /// `step` applied to `tensor` while it has more than one element along
  /// `axis`.
  Value whileLonger(Value tensor, int64_t axis,
                    function_ref<Value(Value)> step) {
    auto type = cast<RankedTensorType>(tensor.getType());
    SmallVector<int64_t> shape(type.getShape());
    shape[axis] = ShapedType::kDynamic;
    auto loopType = RankedTensorType::get(shape, type.getElementType());
    if (loopType != type)
      tensor = tensor::CastOp::create(b, loc, loopType, tensor);
    // (One-shot bufferization counts a loop's init as written: a view (the
    // tail of a reduced array) gets a copy of its own, less than a block of
    // the tree, or bufferization copies the whole of an array the kernel
    // only reads, e.g. a distributed argument's block.)
    if (tensor.getDefiningOp<tensor::ExtractSliceOp>())
      tensor = bufferization::AllocTensorOp::create(b, loc, loopType,
                                                    ValueRange{}, tensor);
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{loopType}, ValueRange{tensor},
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value n = tensor::DimOp::create(nb, nloc, args[0], axis);
          Value more = arith::CmpIOp::create(
              nb, nloc, arith::CmpIPredicate::ugt, n,
              arith::ConstantIndexOp::create(nb, nloc, 1));
          scf::ConditionOp::create(nb, nloc, more, args);
        },
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value next = step(args[0]);
          if (next.getType() != loopType)
            next = tensor::CastOp::create(b, nloc, loopType, next);
          scf::YieldOp::create(nb, nloc, next);
        });
    return loop.getResult(0);
  }

  /// One level of the tree along `axis`.
  Value halve(Value tensor, int64_t axis) {
    IndexMath m{b, loc};
    Value n = tensor::DimOp::create(b, loc, tensor, axis);
    Value pairs = m.floorDiv(n, 2);
    Value even = slice(tensor, axis, m.c(0), pairs, 2);
    Value odd = slice(tensor, axis, m.c(1), pairs, 2);
    Value combined = buildElementwise(
        b, loc, {even, odd}, shapeOf(even), storage,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          return combine(nb, nloc, args[0], args[1]);
        },
        getSizes(b, loc, even));
    Value paired = m.mul(pairs, 2);
    Value last = slice(tensor, axis, paired, m.sub(n, paired));
    Value next = empty(tensor, axis, m.add(pairs, m.sub(n, paired)));
    next = insert(combined, next, axis, m.c(0));
    return insert(last, next, axis, pairs);
  }

  OpBuilder &b;
  Location loc;
  ReductionKind kind;
  Type accType, storage;
};

} // namespace

Value imex::ndarray::lowering::buildPairwiseReduction(
    OpBuilder &b, Location loc, ReductionKind kind, Value source,
    ArrayRef<int64_t> axes, Type accType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> element,
    ValueRange extraInputs, ArrayRef<AffineMap> extraMaps,
    function_ref<Value(OpBuilder &, Location, ReductionKind, Value, int64_t)>
        finish) {
  AxisTree axisTree(b, loc, kind, accType);
  SmallVector<int64_t> descending(axes);
  llvm::sort(descending, std::greater<int64_t>());
  Value result = source;
  bool first = true;
  for (int64_t axis : descending) {
    Value reduced =
        first ? axisTree.reduce(result, axis, element, extraInputs, extraMaps)
              : axisTree.reduce(result, axis, nullptr, {}, {});
    // At most one value left along the axis: the identity combined with it
    // (numpy's +0.0 for sums of -0.0, and the identity for no element).
    result = finish(b, loc, kind, reduced, axis);
    first = false;
  }
  return result;
}
