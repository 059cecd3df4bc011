//===- RandomLowering.cpp - ndarray.random to Philox in linalg.generic ----===//
//
// Every element is Philox4x32-10 of its row-major position: a parallel
// linalg.generic on linalg.index, so elementwise fusion and slicing (the
// block of a distributed array, imex-slice-elementwise-producers) apply as
// to any elementwise op.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace imex::ndarray;

namespace {

// Philox4x32's multipliers and Weyl key increments (Random123).
constexpr uint32_t kMultipliers[2] = {0xD2511F53, 0xCD9E8D57};
constexpr uint32_t kKeyIncrements[2] = {0x9E3779B9, 0xBB67AE85};
constexpr int kRounds = 10;

/// Builds i32/i64 arithmetic at one location.
struct Arith {
  OpBuilder &b;
  Location loc;

  Value i32(uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                        static_cast<int64_t>(v));
  }
  Value i64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value lo32(Value x) {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), x);
  }
  Value hi32(Value x) {
    return lo32(arith::ShRUIOp::create(b, loc, x, i64(32)));
  }
  Value zext(Value x) {
    return arith::ExtUIOp::create(b, loc, b.getI64Type(), x);
  }
  Value xor_(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  /// (hi, lo) of the 64-bit product of two 32-bit words.
  std::pair<Value, Value> mulhilo(uint32_t m, Value x) {
    Value product = arith::MulIOp::create(b, loc, zext(x), i64(m));
    return {hi32(product), lo32(product)};
  }
  /// The 53 high bits of (hi << 32 | lo) as a double in [0, 2^53).
  Value top53(Value hi, Value lo) {
    Value word = arith::OrIOp::create(
        b, loc, arith::ShLIOp::create(b, loc, zext(hi), i64(32)), zext(lo));
    Value bits = arith::ShRUIOp::create(b, loc, word, i64(11));
    return arith::UIToFPOp::create(b, loc, b.getF64Type(), bits);
  }
  Value f64(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }
};

/// Philox4x32-10 of `counter` with the round keys `keys` (2 per round).
std::array<Value, 4> philox(Arith &a, std::array<Value, 4> c,
                            ArrayRef<Value> keys) {
  for (int round = 0; round < kRounds; ++round) {
    auto [hi0, lo0] = a.mulhilo(kMultipliers[0], c[0]);
    auto [hi1, lo1] = a.mulhilo(kMultipliers[1], c[2]);
    c = {a.xor_(a.xor_(hi1, c[1]), keys[2 * round]), lo1,
         a.xor_(a.xor_(hi0, c[3]), keys[2 * round + 1]), lo0};
  }
  return c;
}

struct RandomLowering : public OpConversionPattern<RandomOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RandomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NDArrayType type = op.getType();
    Type element = type.getElementType();
    int64_t rank = type.getRank();
    Arith outer{rewriter, loc};

    // The sizes of every dimension, for the row-major position.
    SmallVector<Value> sizes;
    auto dynamicSize = adaptor.getDynamicSizes().begin();
    for (int64_t size : type.getShape())
      sizes.push_back(ShapedType::isDynamic(size)
                          ? *dynamicSize++
                          : arith::ConstantIndexOp::create(rewriter, loc, size)
                                .getResult());
    // The round keys depend on the seed only: computed once.
    SmallVector<Value> keys;
    Value seed = adaptor.getSeed();
    Value key[2] = {outer.lo32(seed), outer.hi32(seed)};
    for (int round = 0; round < kRounds; ++round)
      for (int word = 0; word < 2; ++word)
        keys.push_back(round == 0 ? key[word]
                                  : arith::AddIOp::create(
                                        rewriter, loc, keys[keys.size() - 2],
                                        outer.i32(kKeyIncrements[word])));
    Value stream = adaptor.getStream();
    Value streamLo = outer.lo32(stream), streamHi = outer.hi32(stream);

    auto tensorType = RankedTensorType::get(type.getShape(), element);
    Value init = tensor::EmptyOp::create(rewriter, loc, tensorType,
                                         adaptor.getDynamicSizes());
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, tensorType, ValueRange{}, init,
        rewriter.getMultiDimIdentityMap(rank), iterators,
        [&](OpBuilder &b, Location nloc, ValueRange) {
          Arith a{b, nloc};
          Value position = arith::ConstantIndexOp::create(b, nloc, 0);
          for (int64_t d = 0; d < rank; ++d)
            position = arith::AddIOp::create(
                b, nloc, arith::MulIOp::create(b, nloc, position, sizes[d]),
                linalg::IndexOp::create(b, nloc, d));
          Value i =
              arith::IndexCastUIOp::create(b, nloc, b.getI64Type(), position);
          std::array<Value, 4> x =
              philox(a, {a.lo32(i), a.hi32(i), streamLo, streamHi}, keys);
          Value value;
          if (op.getDistribution() == RandomDistribution::uniform) {
            if (element.isF32()) {
              Value bits = arith::ShRUIOp::create(b, nloc, x[0], a.i32(8));
              value = arith::MulFOp::create(
                  b, nloc,
                  arith::UIToFPOp::create(b, nloc, b.getF32Type(), bits),
                  arith::ConstantOp::create(b, nloc,
                                            b.getF32FloatAttr(0x1p-24f)));
            } else {
              value = arith::MulFOp::create(b, nloc, a.top53(x[0], x[1]),
                                            a.f64(0x1p-53));
            }
          } else {
            // Box-Muller: u1 in (0, 1), so log(u1) is finite.
            Value u1 = arith::MulFOp::create(
                b, nloc,
                arith::AddFOp::create(b, nloc, a.top53(x[0], x[1]), a.f64(0.5)),
                a.f64(0x1p-53));
            Value u2 = arith::MulFOp::create(b, nloc, a.top53(x[2], x[3]),
                                             a.f64(0x1p-53));
            Value radius = math::SqrtOp::create(
                b, nloc,
                arith::MulFOp::create(b, nloc, a.f64(-2.0),
                                      math::LogOp::create(b, nloc, u1)));
            Value angle = arith::MulFOp::create(
                b, nloc, a.f64(2 * llvm::numbers::pi), u2);
            value = arith::MulFOp::create(b, nloc, radius,
                                          math::CosOp::create(b, nloc, angle));
            if (element.isF32())
              value = arith::TruncFOp::create(b, nloc, element, value);
          }
          linalg::YieldOp::create(b, nloc, value);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void imex::populateRandomLoweringPatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns.add<RandomLowering>(converter, patterns.getContext());
}
