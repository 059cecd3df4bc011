//===- LinalgToBlas.cpp - matrix products on buffers as BLAS gemm calls ---===//
//
// After bufferization, linalg ops that are matrix products of f32, f64 or
// complex buffers become loops over their batch dimensions calling the gemm
// wrappers of libimex_runner_utils (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"

namespace imex {
#define GEN_PASS_DEF_LINALGTOBLAS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {

/// The suffix of the gemm wrapper for `element`, or "" if BLAS has none.
StringRef getBlasSuffix(Type element) {
  if (element.isF32())
    return "f32";
  if (element.isF64())
    return "f64";
  if (auto complexType = dyn_cast<ComplexType>(element)) {
    if (complexType.getElementType().isF32())
      return "c64";
    if (complexType.getElementType().isF64())
      return "c128";
  }
  return "";
}

/// Whether `body` computes `out + in0 * in1` (in either order) with no
/// conversion, in the arithmetic of `element`.
bool isMultiplyAdd(Block &body, Type element) {
  if (body.getNumArguments() != 3 || body.getOperations().size() != 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *add = yield.getValues().front().getDefiningOp();
  if (!add || add->getNumOperands() != 2 ||
      !(isa<ComplexType>(element) ? isa<complex::AddOp>(add)
                                  : isa<arith::AddFOp>(add)))
    return false;
  Value acc = body.getArgument(2);
  Value product = add->getOperand(0) == acc   ? add->getOperand(1)
                  : add->getOperand(1) == acc ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || mul->getNumOperands() != 2 ||
      !(isa<ComplexType>(element) ? isa<complex::MulOp>(mul)
                                  : isa<arith::MulFOp>(mul)))
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1);
  return (mul->getOperand(0) == a && mul->getOperand(1) == b) ||
         (mul->getOperand(0) == b && mul->getOperand(1) == a);
}

/// The position of loop dimension `dim` among the results of `map`.
std::optional<unsigned> getPosition(AffineMap map, unsigned dim) {
  return map.getResultPosition(getAffineDimExpr(dim, map.getContext()));
}

/// A matrix product: the operands A (batch, m, k), B (batch, k, n) and
/// C (batch, m, n) of `op`, with at most one m, n and k dimension each.
struct MatrixProduct {
  linalg::LinalgOp op;
  linalg::ContractionDimensions dims;
  StringRef suffix;
  Type element;
};

std::optional<MatrixProduct> matchMatrixProduct(linalg::LinalgOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumRegions() != 1 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  Type element = getElementTypeOrSelf(op.getDpsInits().front().getType());
  StringRef suffix = getBlasSuffix(element);
  if (suffix.empty() || llvm::any_of(op.getDpsInputs(), [&](Value input) {
        return getElementTypeOrSelf(input.getType()) != element;
      }))
    return std::nullopt;
  if (!isMultiplyAdd(op->getRegion(0).front(), element))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  // (Without m and n the product is a dot product per batch index: memory
  // bound, the loops are as fast.)
  if (failed(dims) || dims->k.size() != 1 || dims->m.size() > 1 ||
      dims->n.size() > 1 || dims->m.size() + dims->n.size() == 0)
    return std::nullopt;
  // Every loop dimension must be one of the four kinds (no dimension of
  // one operand only).
  if (dims->batch.size() + dims->m.size() + dims->n.size() + 1 !=
      op.getNumLoops())
    return std::nullopt;
  return MatrixProduct{op, *dims, suffix, element};
}

/// The base buffer, offset and strides of a memref operand.
struct Strided {
  Value base, offset;
  SmallVector<Value> strides;
};

void replaceWithGemmCalls(RewriterBase &rewriter, MatrixProduct product,
                          func::FuncOp callee) {
  linalg::LinalgOp op = product.op;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<Value> operands{op.getDpsInputs()[0], op.getDpsInputs()[1],
                              op.getDpsInits()[0]};
  SmallVector<Strided> strided;
  for (Value operand : operands) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, operand);
    strided.push_back(Strided{metadata.getBaseBuffer(), metadata.getOffset(),
                              SmallVector<Value>(metadata.getStrides())});
  }
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  // The size of loop dimension `dim` and the stride of operand `i` along it
  // (0 where the operand does not have it).
  auto size = [&](unsigned dim) -> Value {
    for (auto [i, map] : llvm::enumerate(maps))
      if (std::optional<unsigned> at = getPosition(map, dim))
        return memref::DimOp::create(rewriter, loc, operands[i], *at);
    llvm_unreachable("every loop dimension indexes an operand");
  };
  auto stride = [&](unsigned i, std::optional<unsigned> dim) -> Value {
    if (!dim)
      return zero;
    std::optional<unsigned> at = getPosition(maps[i], *dim);
    return at ? strided[i].strides[*at] : zero;
  };
  const linalg::ContractionDimensions &dims = product.dims;
  std::optional<unsigned> m, n, k = dims.k.front();
  if (!dims.m.empty())
    m = dims.m.front();
  if (!dims.n.empty())
    n = dims.n.front();
  Value sizeM = m ? size(*m) : one, sizeN = n ? size(*n) : one,
        sizeK = size(*k);
  SmallVector<Value> lower, upper, steps;
  for (unsigned dim : dims.batch) {
    lower.push_back(zero);
    upper.push_back(size(dim));
    steps.push_back(one);
  }
  auto call = [&](OpBuilder &b, Location loc, ValueRange ivs) {
    SmallVector<Value> args;
    for (unsigned i = 0; i < 3; ++i) {
      Value offset = strided[i].offset;
      for (auto [dim, iv] : llvm::zip_equal(dims.batch, ivs))
        offset = arith::AddIOp::create(
            b, loc, offset, arith::MulIOp::create(b, loc, iv, stride(i, dim)));
      // Rows then columns: A (m, k), B (k, n), C (m, n).
      std::optional<unsigned> rows = i == 1 ? k : m;
      std::optional<unsigned> cols = i == 0 ? k : n;
      llvm::append_range(args, ValueRange{strided[i].base, offset,
                                          stride(i, rows), stride(i, cols)});
    }
    llvm::append_range(args, ValueRange{sizeM, sizeN, sizeK});
    func::CallOp::create(b, loc, callee, args);
  };
  if (dims.batch.empty())
    call(rewriter, loc, {});
  else
    scf::buildLoopNest(
        rewriter, loc, lower, upper, steps,
        [&](OpBuilder &b, Location loc, ValueRange ivs) { call(b, loc, ivs); });
  rewriter.eraseOp(op);
}

/// Declares `_imex_blas_gemm_<suffix>` in `module` (once).
func::FuncOp getGemmFunction(ModuleOp module, StringRef suffix, Type element) {
  std::string name = ("_imex_blas_gemm_" + suffix).str();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  MLIRContext *context = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type base = MemRefType::get({}, element);
  Type index = b.getIndexType();
  SmallVector<Type> inputs;
  for (int i = 0; i < 3; ++i)
    llvm::append_range(inputs, TypeRange{base, index, index, index});
  llvm::append_range(inputs, TypeRange{index, index, index});
  auto func = func::FuncOp::create(b, module.getLoc(), name,
                                   FunctionType::get(context, inputs, {}));
  func.setPrivate();
  return func;
}

struct LinalgToBlasPass
    : public imex::impl::LinalgToBlasBase<LinalgToBlasPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<MatrixProduct> products;
    module.walk([&](linalg::LinalgOp op) {
      if (std::optional<MatrixProduct> product = matchMatrixProduct(op))
        products.push_back(*product);
    });
    IRRewriter rewriter(&getContext());
    for (const MatrixProduct &product : products)
      replaceWithGemmCalls(
          rewriter, product,
          getGemmFunction(module, product.suffix, product.element));
  }
};

} // namespace
