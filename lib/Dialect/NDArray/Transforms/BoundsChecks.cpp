//===- BoundsChecks.cpp - run-time checks of indices and slices -----------===//
//
// Guards every slice, insert and load whose bounds are not known to hold at
// compile time with a check that reports the op's location, the index or
// slice and the bounds, then ends the process (see imexIndexOutOfBounds in
// ImexRunnerUtils.cpp).
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/NDArray/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

namespace imex::ndarray {
#define GEN_PASS_DEF_NDARRAYBOUNDSCHECKS
#include "imex/Dialect/NDArray/Transforms/Passes.h.inc"
} // namespace imex::ndarray

using namespace mlir;
using namespace imex::ndarray;

namespace {

constexpr StringLiteral kIndexReport = "imexIndexOutOfBounds";
constexpr StringLiteral kSliceReport = "imexSliceOutOfBounds";

/// `file:line:col` of the first file location in `loc` (the innermost call
/// site of inlined code), else empty.
std::string formatLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().str() + ":" + Twine(file.getLine()) + ":" +
              Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text;
}

/// Builds the checks of one module: the report functions and the message
/// strings (one constant global per distinct message) are created on
/// demand.
class CheckBuilder {
public:
  explicit CheckBuilder(ModuleOp module) : module(module), symbols(module) {}

  /// Checks `0 <= index < extent` before `op`.
  void checkIndex(Operation *op, int64_t dim, Value index, Value extent) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value zero = constant(b, loc, 0);
    Value ok = b.createOrFold<arith::AndIOp>(
        loc, cmp(b, loc, arith::CmpIPredicate::sge, index, zero),
        cmp(b, loc, arith::CmpIPredicate::slt, index, extent));
    report(b, op, ok, kIndexReport, {constant(b, loc, dim), index, extent});
  }

  /// Checks before `op` that the slice `offset`, `size`, `stride` of a
  /// dimension of `extent` elements is in bounds: a positive stride, a
  /// non-negative size, an offset in [0, extent] (an empty slice may start
  /// at the end) and, unless empty, a last index below the extent.
  void checkSlice(Operation *op, int64_t dim, Value offset, Value size,
                  Value stride, Value extent) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    Value zero = constant(b, loc, 0), one = constant(b, loc, 1);
    using Pred = arith::CmpIPredicate;
    Value last = b.createOrFold<arith::AddIOp>(
        loc, offset,
        b.createOrFold<arith::MulIOp>(
            loc, b.createOrFold<arith::SubIOp>(loc, size, one), stride));
    Value empty = cmp(b, loc, Pred::eq, size, zero);
    Value endOk = b.createOrFold<arith::OrIOp>(
        loc, empty, cmp(b, loc, Pred::slt, last, extent));
    Value ok = cmp(b, loc, Pred::sge, stride, one);
    for (Value part : {cmp(b, loc, Pred::sge, size, zero),
                       cmp(b, loc, Pred::sge, offset, zero),
                       cmp(b, loc, Pred::sle, offset, extent), endOk})
      ok = b.createOrFold<arith::AndIOp>(loc, ok, part);
    report(b, op, ok, kSliceReport,
           {constant(b, loc, dim), offset, size, stride, extent});
  }

private:
  static Value constant(OpBuilder &b, Location loc, int64_t value) {
    return b.createOrFold<arith::ConstantIndexOp>(loc, value);
  }
  static Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                   Value lhs, Value rhs) {
    return b.createOrFold<arith::CmpIOp>(loc, pred, lhs, rhs);
  }

  /// Calls `function` with the message of `op` and `values` unless `ok`;
  /// nothing if `ok` folds to true.
  void report(OpBuilder &b, Operation *op, Value ok, StringRef function,
              ArrayRef<Value> values) {
    // (Constants left unused are for canonicalization to remove.)
    if (matchPattern(ok, m_One()))
      return;
    Location loc = op->getLoc();
    SmallVector<Value> operands = {getMessage(op)};
    llvm::append_range(operands, values);
    func::FuncOp callee = getReportFunction(function, values.size());
    Value failed = arith::XOrIOp::create(
        b, loc, ok, arith::ConstantIntOp::create(b, loc, 1, 1));
    scf::IfOp::create(b, loc, failed, [&](OpBuilder &then, Location loc) {
      func::CallOp::create(then, loc, callee, operands);
      scf::YieldOp::create(then, loc);
    });
  }

  /// The report `function(index message, index...)`, declared once (the
  /// message is the address of a NUL-terminated string).
  func::FuncOp getReportFunction(StringRef name, size_t numValues) {
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    SmallVector<Type> inputs(numValues + 1, b.getIndexType());
    auto callee = func::FuncOp::create(b, module.getLoc(), name,
                                       b.getFunctionType(inputs, {}));
    callee.setPrivate();
    symbols.insert(callee);
    return callee;
  }

  /// The address of `<location>: ndarray.<op>` in a constant global
  /// (NUL-terminated), taken once before `op` (an address, not a memref:
  /// the checks stay small in the lowered code).
  Value getMessage(Operation *op) {
    Value &buffer = messageBuffers[op];
    if (buffer)
      return buffer;
    OpBuilder b(op);
    Location loc = op->getLoc();
    std::string text = formatLocation(op->getLoc());
    text += (text.empty() ? "" : ": ") + op->getName().getStringRef().str();
    memref::GlobalOp &global = messages[text];
    if (!global) {
      SmallVector<int8_t> bytes(text.begin(), text.end());
      bytes.push_back(0);
      auto type =
          MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
      auto init = DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          ArrayRef(bytes));
      OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
      global =
          memref::GlobalOp::create(moduleBuilder, loc, "__imex_bounds_message",
                                   b.getStringAttr("private"), type, init,
                                   /*constant=*/true, /*alignment=*/nullptr);
      symbols.insert(global); // renames to a unique name
    }
    Value contents = memref::GetGlobalOp::create(b, loc, global.getType(),
                                                 global.getSymName());
    buffer = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, contents);
    return buffer;
  }

  ModuleOp module;
  SymbolTable symbols;
  llvm::StringMap<memref::GlobalOp> messages;
  DenseMap<Operation *, Value> messageBuffers;
};

/// The extent of dimension `dim` of `array` as a value before `op`.
Value getExtent(Operation *op, Value array, int64_t dim) {
  OpBuilder b(op);
  auto type = cast<NDArrayType>(array.getType());
  if (!type.isDynamicDim(dim))
    return arith::ConstantIndexOp::create(b, op->getLoc(),
                                          type.getDimSize(dim));
  return b.createOrFold<DimOp>(op->getLoc(), array, dim);
}

Value materialize(Operation *op, OpFoldResult ofr) {
  if (auto value = dyn_cast<Value>(ofr))
    return value;
  OpBuilder b(op);
  return arith::ConstantIndexOp::create(
      b, op->getLoc(), cast<IntegerAttr>(cast<Attribute>(ofr)).getInt());
}

struct NDArrayBoundsChecksPass
    : public imex::ndarray::impl::NDArrayBoundsChecksBase<
          NDArrayBoundsChecksPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    CheckBuilder checks(module);
    module.walk([&](Operation *op) {
      if (auto load = dyn_cast<LoadOp>(op)) {
        auto type = cast<NDArrayType>(load.getArray().getType());
        for (auto [dim, index] : llvm::enumerate(load.getIndices())) {
          // Constant indices into static dimensions are verified.
          if (!type.isDynamicDim(dim) && matchPattern(index, m_Constant()))
            continue;
          checks.checkIndex(op, dim, index,
                            getExtent(op, load.getArray(), dim));
        }
        return;
      }
      Value sliced =
          llvm::TypeSwitch<Operation *, Value>(op)
              .Case<SubviewOp, ExtractSliceOp>(
                  [](auto slice) { return slice.getSource(); })
              .Case<InsertSliceOp, ImmutableInsertSliceOp>(
                  [](auto insert) { return insert.getDestination(); })
              .Default([](Operation *) { return Value(); });
      if (!sliced)
        return;
      auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
      auto type = cast<NDArrayType>(sliced.getType());
      for (auto [dim, offset, size, stride] :
           llvm::enumerate(slice.getMixedOffsets(), slice.getMixedSizes(),
                           slice.getMixedStrides())) {
        // Static dimensions are verified at compile time.
        if (!type.isDynamicDim(dim) && isa<Attribute>(offset) &&
            isa<Attribute>(size) && isa<Attribute>(stride))
          continue;
        checks.checkSlice(op, dim, materialize(op, offset),
                          materialize(op, size), materialize(op, stride),
                          getExtent(op, sliced, dim));
      }
    });
  }
};

} // namespace
