//===- RegionOps.cpp - region dialect -------------------------------------===//

#include "imex/Dialect/Region/IR/Region.h"

#include "imex/Utils/Inlining.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace imex::region;

#include "imex/Dialect/Region/IR/RegionOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "imex/Dialect/Region/IR/RegionOpsAttrs.cpp.inc"

void RegionDialect::initialize() {
  addInterfaces<imex::AlwaysInlinableInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "imex/Dialect/Region/IR/RegionOpsAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "imex/Dialect/Region/IR/RegionOps.cpp.inc"
      >();
}

bool imex::region::isGpuRegion(Operation *op) {
  auto region = dyn_cast_if_present<EnvRegionOp>(op);
  return region && isa<GPUEnvAttr>(region.getEnvironment());
}

bool imex::region::isInGpuRegion(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (isGpuRegion(parent))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// EnvRegionOp
//===----------------------------------------------------------------------===//

void EnvRegionOp::build(OpBuilder &builder, OperationState &state,
                        Attribute environment, ValueRange args,
                        TypeRange resultTypes) {
  state.addAttribute(getEnvironmentAttrName(state.name), environment);
  state.addOperands(args);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  OpBuilder::InsertionGuard guard(builder);
  builder.createBlock(body);
  if (resultTypes.empty())
    EnvRegionYieldOp::create(builder, state.location, ValueRange());
}

EnvRegionYieldOp EnvRegionOp::getYield() {
  return cast<EnvRegionYieldOp>(getRegion().front().getTerminator());
}

LogicalResult EnvRegionOp::verify() {
  TypeRange yielded = getYield().getResults().getTypes();
  if (yielded != getResultTypes())
    return emitOpError("yields ")
           << yielded.size() << " value(s) of types (" << yielded
           << ") but has result types (" << getResultTypes() << ")";
  return success();
}

void EnvRegionOp::getSuccessorRegions(
    RegionBranchPoint point, SmallVectorImpl<RegionSuccessor> &regions) {
  if (point.isParent())
    regions.push_back(RegionSuccessor(&getRegion()));
  else
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

void EnvRegionOp::inlineIntoParent(RewriterBase &rewriter, EnvRegionOp op) {
  Block &body = op.getRegion().front();
  EnvRegionYieldOp yield = op.getYield();
  SmallVector<Value> results(yield.getResults());
  rewriter.inlineBlockBefore(&body, op);
  rewriter.eraseOp(yield);
  rewriter.replaceOp(op, results);
}

namespace {
/// Merges a region into the directly preceding one with an equal
/// environment.
struct MergeAdjacentRegions : public OpRewritePattern<EnvRegionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvRegionOp second,
                                PatternRewriter &rewriter) const override {
    auto first = dyn_cast_if_present<EnvRegionOp>(second->getPrevNode());
    if (!first || first.getEnvironment() != second.getEnvironment())
      return failure();

    // Uses of the first region's results inside the second now see the
    // yielded values directly.
    EnvRegionYieldOp firstYield = first.getYield();
    for (auto [result, yielded] :
         llvm::zip_equal(first.getResults(), firstYield.getResults()))
      rewriter.replaceUsesWithIf(result, yielded, [&](OpOperand &use) {
        return second->isProperAncestor(use.getOwner());
      });

    SmallVector<Value> args(first.getArgs());
    for (Value arg : second.getArgs())
      if (!llvm::is_contained(args, arg))
        args.push_back(arg);
    SmallVector<Type> resultTypes(first.getResultTypes());
    llvm::append_range(resultTypes, second.getResultTypes());
    SmallVector<Value> yielded(firstYield.getResults());
    llvm::append_range(yielded, second.getYield().getResults());

    rewriter.setInsertionPoint(second);
    auto merged = EnvRegionOp::create(
        rewriter, second.getLoc(), first.getEnvironment(), args, resultTypes);
    Block &body = merged.getRegion().front();
    if (!body.empty())
      rewriter.eraseOp(&body.back());
    rewriter.eraseOp(firstYield);
    rewriter.eraseOp(second.getYield());
    rewriter.inlineBlockBefore(&first.getRegion().front(), &body, body.end());
    rewriter.inlineBlockBefore(&second.getRegion().front(), &body, body.end());
    rewriter.setInsertionPointToEnd(&body);
    EnvRegionYieldOp::create(rewriter, second.getLoc(), yielded);

    unsigned numFirst = first.getNumResults();
    rewriter.replaceOp(first, merged.getResults().take_front(numFirst));
    rewriter.replaceOp(second, merged.getResults().drop_front(numFirst));
    return success();
  }
};

/// Drops results that are unused, duplicate an earlier result, or merely
/// forward a value defined outside the region.
struct CleanupRegionResults : public OpRewritePattern<EnvRegionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvRegionOp op,
                                PatternRewriter &rewriter) const override {
    EnvRegionYieldOp yield = op.getYield();
    SmallVector<Value> keptYields;
    // Per old result: its index among the kept results, or -1.
    SmallVector<int> newIndex(op.getNumResults(), -1);
    // Per old result: the value defined above the region it forwards.
    SmallVector<Value> forwarded(op.getNumResults());
    for (auto [i, result, yielded] :
         llvm::enumerate(op.getResults(), yield.getResults())) {
      if (result.use_empty())
        continue;
      if (!op.getRegion().isAncestor(yielded.getParentRegion())) {
        forwarded[i] = yielded;
        continue;
      }
      auto *it = llvm::find(keptYields, yielded);
      newIndex[i] = it - keptYields.begin();
      if (it == keptYields.end())
        keptYields.push_back(yielded);
    }
    if (keptYields.size() == op.getNumResults())
      return failure();

    rewriter.setInsertionPoint(op);
    auto newOp =
        EnvRegionOp::create(rewriter, op.getLoc(), op.getEnvironment(),
                            op.getArgs(), ValueRange(keptYields).getTypes());
    Block &body = newOp.getRegion().front();
    if (!body.empty())
      rewriter.eraseOp(&body.back());
    rewriter.inlineBlockBefore(&op.getRegion().front(), &body, body.end());
    rewriter.modifyOpInPlace(
        yield, [&] { yield.getResultsMutable().assign(keptYields); });
    for (auto [i, result] : llvm::enumerate(op.getResults())) {
      if (forwarded[i])
        rewriter.replaceAllUsesWith(result, forwarded[i]);
      else if (newIndex[i] >= 0)
        rewriter.replaceAllUsesWith(result, newOp.getResult(newIndex[i]));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Removes a region whose body does nothing but yield.
struct EraseEmptyRegion : public OpRewritePattern<EnvRegionOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EnvRegionOp op,
                                PatternRewriter &rewriter) const override {
    if (!llvm::hasSingleElement(op.getRegion().front()))
      return failure();
    rewriter.replaceOp(op, op.getYield().getResults());
    return success();
  }
};
} // namespace

void EnvRegionOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<MergeAdjacentRegions, CleanupRegionResults, EraseEmptyRegion>(
      context);
}

#define GET_OP_CLASSES
#include "imex/Dialect/Region/IR/RegionOps.cpp.inc"
