//===- ValueSemantics.cpp - in-place updates to value semantics -----------===//
//
// Builds array SSA for ndarray programs: every in-place write becomes a new
// version of the written array's root, and every read of a view is
// re-derived from the version current at the read.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/NDArray/Transforms/Passes.h"

#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Iterators.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace imex::ndarray {
#define GEN_PASS_DEF_NDARRAYVALUESEMANTICS
#include "imex/Dialect/NDArray/Transforms/Passes.h.inc"
} // namespace imex::ndarray

using namespace mlir;
using namespace imex::ndarray;

namespace {

/// Follows subviews and casts from `value` to the array they view (the
/// root). `steps` receives the view ops, innermost (closest to `value`)
/// first.
Value getRoot(Value value, SmallVectorImpl<Operation *> *steps = nullptr) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<SubviewOp, CastOp>(def))
      break;
    if (steps)
      steps->push_back(def);
    value = def->getOperand(0);
  }
  return value;
}

/// Whether `value` is defined inside `op` (in one of its regions).
bool isDefinedInside(Value value, Operation *op) {
  return op->isProperAncestor(value.getParentRegion()->getParentOp()) ||
         value.getParentRegion()->getParentOp() == op;
}

/// The current version of each written root.
using Versions = DenseMap<Value, Value>;

class ValueSemanticsBuilder {
public:
  explicit ValueSemanticsBuilder(FunctionOpInterface func)
      : func(func), builder(func.getContext()) {}

  LogicalResult run();

private:
  LogicalResult processRegion(Region &region, Versions &versions);
  LogicalResult processOp(Operation &op, Versions &versions);
  /// The contents of `value` at the insertion point, given `versions`.
  Value materialize(Value value, Versions &versions, Location loc);
  void rewriteReads(Operation &op, Versions &versions);
  void rewriteWrite(InsertSliceOp write, Versions &versions);
  LogicalResult threadVersions(Operation &op, Versions &versions);
  LogicalResult threadWhileVersions(scf::WhileOp loop, ArrayRef<Value> roots,
                                    ArrayRef<Value> initial,
                                    Versions &versions);
  void writeBack(func::ReturnOp ret, Versions &versions);
  /// Written roots defined outside `op` and written inside it.
  SmallVector<Value> getWrittenOuterRoots(Operation *op);

  FunctionOpInterface func;
  OpBuilder builder;
  llvm::SetVector<Value> writtenRoots;
};

LogicalResult ValueSemanticsBuilder::run() {
  // Write-backs (of an earlier run, or made by ndarray-dist) already write
  // a version of their destination: they stay as they are unless other
  // writes make their destination a written root.
  func.walk([&](InsertSliceOp write) {
    if (!write->hasAttr(kWriteBackAttrName))
      writtenRoots.insert(getRoot(write.getDestination()));
  });
  for (Value root : writtenRoots) {
    auto fromMemRef = root.getDefiningOp<FromMemRefOp>();
    if (fromMemRef && fromMemRef->getBlock() != &func.getFunctionBody().front())
      return fromMemRef.emitOpError(
          "is updated in place but is not at function level; its updates "
          "could not be written back to the memref");
  }
  if (writtenRoots.empty()) {
    func.walk([](DeleteOp op) { op.erase(); });
    return success();
  }
  Versions versions;
  if (failed(processRegion(func.getFunctionBody(), versions)))
    return failure();

  // Views of written roots are now unused: reads were re-derived. Erase
  // users before the views they use.
  SmallVector<Operation *> views;
  func.walk([&](Operation *op) {
    if (isa<SubviewOp, CastOp>(op) &&
        writtenRoots.contains(getRoot(op->getResult(0))))
      views.push_back(op);
  });
  for (Operation *view : llvm::reverse(views))
    if (view->use_empty())
      view->erase();
  return success();
}

LogicalResult ValueSemanticsBuilder::processRegion(Region &region,
                                                   Versions &versions) {
  for (Block &block : region)
    for (Operation &op : llvm::make_early_inc_range(block))
      if (failed(processOp(op, versions)))
        return failure();
  return success();
}

LogicalResult ValueSemanticsBuilder::processOp(Operation &op,
                                               Versions &versions) {
  if (auto write = dyn_cast<InsertSliceOp>(op)) {
    if (!write->hasAttr(kWriteBackAttrName) ||
        writtenRoots.contains(getRoot(write.getDestination())))
      rewriteWrite(write, versions);
    return success();
  }
  if (isa<DeleteOp>(op)) {
    op.erase();
    return success();
  }
  // Views of written roots are re-derived where they are read; the shape of
  // an array never changes, so `dim` reads nothing that a write changes.
  if (isa<SubviewOp, CastOp, DimOp>(op))
    return success();
  rewriteReads(op, versions);
  if (auto ret = dyn_cast<func::ReturnOp>(op))
    writeBack(ret, versions);
  // Last: this may replace `op`.
  if (op.getNumRegions())
    return threadVersions(op, versions);
  return success();
}

Value ValueSemanticsBuilder::materialize(Value value, Versions &versions,
                                         Location loc) {
  SmallVector<Operation *> steps;
  Value root = getRoot(value, &steps);
  Value current = versions.lookup(root);
  if (!current)
    current = root;
  for (Operation *step : llvm::reverse(steps)) {
    if (auto cast = dyn_cast<CastOp>(step)) {
      current = CastOp::create(builder, loc, cast.getType(), current);
      continue;
    }
    auto view = cast<SubviewOp>(step);
    current = ExtractSliceOp::create(
        builder, loc, view.getType(), current, view.getMixedOffsets(),
        view.getMixedSizes(), view.getMixedStrides());
  }
  return current;
}

void ValueSemanticsBuilder::rewriteReads(Operation &op, Versions &versions) {
  for (OpOperand &operand : op.getOpOperands()) {
    Value value = operand.get();
    if (!isa<NDArrayType>(value.getType()) ||
        !writtenRoots.contains(getRoot(value)))
      continue;
    builder.setInsertionPoint(&op);
    operand.set(materialize(value, versions, op.getLoc()));
  }
}

void ValueSemanticsBuilder::rewriteWrite(InsertSliceOp write,
                                         Versions &versions) {
  Location loc = write.getLoc();
  builder.setInsertionPoint(write);
  Value source = write.getSource();
  if (writtenRoots.contains(getRoot(source)))
    source = materialize(source, versions, loc);

  SmallVector<Operation *> steps;
  Value root = getRoot(write.getDestination(), &steps);
  Value version = ImmutableInsertSliceOp::create(
      builder, loc, source, materialize(write.getDestination(), versions, loc),
      write.getMixedOffsets(), write.getMixedSizes(), write.getMixedStrides());
  // Propagate the new contents of the view up to its root.
  for (Operation *step : steps) {
    if (auto cast = dyn_cast<CastOp>(step)) {
      version =
          CastOp::create(builder, loc, cast.getSource().getType(), version);
      continue;
    }
    auto view = cast<SubviewOp>(step);
    if (view.getType().getRank() < view.getSource().getType().getRank()) {
      std::optional<llvm::SmallDenseSet<unsigned>> dropped =
          computeRankReductionMask(view.getStaticSizes(),
                                   view.getType().getShape());
      SmallVector<int64_t> axes(dropped->begin(), dropped->end());
      llvm::sort(axes);
      version = ExpandDimsOp::create(builder, loc, version, axes);
    }
    version = ImmutableInsertSliceOp::create(
        builder, loc, version, materialize(view.getSource(), versions, loc),
        view.getMixedOffsets(), view.getMixedSizes(), view.getMixedStrides());
  }
  versions[root] = version;
  write.erase();
}

/// The versions of `roots` (written inside `loop`) become operands and
/// results of the loop and arguments of both of its regions: the condition
/// forwards them to the body, which yields them.
LogicalResult ValueSemanticsBuilder::threadWhileVersions(
    scf::WhileOp loop, ArrayRef<Value> roots, ArrayRef<Value> initial,
    Versions &versions) {
  if (!loop.getBefore().hasOneBlock() || !loop.getAfter().hasOneBlock())
    return loop.emitOpError("with several blocks updates in place an array "
                            "defined outside of it; this is not supported");
  SmallVector<Value> inits(loop.getInits());
  inits.append(initial.begin(), initial.end());
  SmallVector<Type> types(loop.getResultTypes());
  for (Value root : roots)
    types.push_back(root.getType());
  builder.setInsertionPoint(loop);
  auto newLoop = scf::WhileOp::create(builder, loop.getLoc(), types, inits);
  unsigned numOldResults = loop.getNumResults();
  newLoop.getBefore().takeBody(loop.getBefore());
  newLoop.getAfter().takeBody(loop.getAfter());
  Block &before = newLoop.getBefore().front();
  Block &after = newLoop.getAfter().front();
  Versions beforeVersions = versions, afterVersions = versions;
  for (Value root : roots) {
    beforeVersions[root] = before.addArgument(root.getType(), loop.getLoc());
    afterVersions[root] = after.addArgument(root.getType(), loop.getLoc());
  }
  if (failed(processRegion(newLoop.getBefore(), beforeVersions)))
    return failure();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  for (Value root : roots)
    condition.getArgsMutable().append(beforeVersions.lookup(root));
  if (failed(processRegion(newLoop.getAfter(), afterVersions)))
    return failure();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  for (Value root : roots)
    yield.getResultsMutable().append(afterVersions.lookup(root));
  loop.replaceAllUsesWith(newLoop->getResults().take_front(numOldResults));
  loop.erase();
  for (auto [i, root] : llvm::enumerate(roots))
    versions[root] = newLoop.getResult(numOldResults + i);
  return success();
}

SmallVector<Value> ValueSemanticsBuilder::getWrittenOuterRoots(Operation *op) {
  llvm::SetVector<Value> roots;
  op->walk([&](InsertSliceOp write) {
    Value root = getRoot(write.getDestination());
    if (!isDefinedInside(root, op))
      roots.insert(root);
  });
  return roots.takeVector();
}

/// Recreates `op` with results of `extraTypes` appended, moving its regions.
static Operation *addResults(OpBuilder &builder, Operation *op,
                             TypeRange extraTypes) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addAttributes(llvm::to_vector(op->getDiscardableAttrs()));
  state.propertiesAttr = op->getPropertiesAsAttribute();
  state.addTypes(op->getResultTypes());
  state.addTypes(extraTypes);
  for (unsigned i = 0, e = op->getNumRegions(); i < e; ++i)
    state.addRegion();
  builder.setInsertionPoint(op);
  Operation *newOp = builder.create(state);
  for (auto [from, to] : llvm::zip(op->getRegions(), newOp->getRegions()))
    to.takeBody(from);
  op->replaceAllUsesWith(newOp->getResults().take_front(op->getNumResults()));
  op->erase();
  return newOp;
}

LogicalResult ValueSemanticsBuilder::threadVersions(Operation &op,
                                                    Versions &versions) {
  SmallVector<Value> roots = getWrittenOuterRoots(&op);
  if (roots.empty()) {
    for (Region &region : op.getRegions()) {
      Versions inner = versions;
      if (failed(processRegion(region, inner)))
        return failure();
    }
    return success();
  }
  SmallVector<Value> initial;
  for (Value root : roots)
    initial.push_back(versions.lookup(root) ? versions.lookup(root) : root);

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    IRRewriter rewriter(builder);
    rewriter.setInsertionPoint(loop);
    unsigned numOld = loop.getNumResults();
    auto newLoop = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
        rewriter, initial, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
          return SmallVector<Value>(args.begin(), args.end());
        }));
    Versions inner = versions;
    for (auto [i, root] : llvm::enumerate(roots))
      inner[root] = newLoop.getRegionIterArgs()[numOld + i];
    if (failed(processRegion(newLoop.getRegion(), inner)))
      return failure();
    Operation *yield = newLoop.getBody()->getTerminator();
    for (auto [i, root] : llvm::enumerate(roots)) {
      yield->setOperand(numOld + i, inner.lookup(root));
      versions[root] = newLoop.getResult(numOld + i);
    }
    return success();
  }

  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return threadWhileVersions(loop, roots, initial, versions);

  if (!isa<scf::IfOp, scf::ExecuteRegionOp, imex::region::EnvRegionOp>(op))
    return op.emitOpError("updates in place an array defined outside of it; "
                          "this is supported inside scf.for, scf.while, "
                          "scf.if, scf.execute_region and region.env_region "
                          "only");
  for (Region &region : op.getRegions())
    if (!region.empty() && !region.hasOneBlock())
      return op.emitOpError("with several blocks updates in place an array "
                            "defined outside of it; this is not supported");

  SmallVector<Type> types;
  for (Value root : roots)
    types.push_back(root.getType());
  unsigned numOld = op.getNumResults();
  Operation *newOp = addResults(builder, &op, types);
  for (Region &region : newOp->getRegions()) {
    if (region.empty()) {
      // An scf.if without else: the else branch keeps the versions.
      builder.createBlock(&region);
      scf::YieldOp::create(builder, newOp->getLoc());
    }
    Versions inner = versions;
    if (failed(processRegion(region, inner)))
      return failure();
    Operation *terminator = region.front().getTerminator();
    SmallVector<Value> yielded;
    for (Value root : roots)
      yielded.push_back(inner.lookup(root) ? inner.lookup(root) : root);
    terminator->insertOperands(terminator->getNumOperands(), yielded);
  }
  for (auto [i, root] : llvm::enumerate(roots))
    versions[root] = newOp->getResult(numOld + i);
  return success();
}

void ValueSemanticsBuilder::writeBack(func::ReturnOp ret, Versions &versions) {
  Block &entry = func.getFunctionBody().front();
  for (Value root : writtenRoots) {
    Value current = versions.lookup(root);
    if (!current || current == root)
      continue;
    bool isArgument = isa<BlockArgument>(root) &&
                      cast<BlockArgument>(root).getOwner() == &entry;
    bool isWrappedMemRef = root.getDefiningOp<FromMemRefOp>() != nullptr;
    if (!isArgument && !isWrappedMemRef)
      continue;
    builder.setInsertionPoint(ret);
    auto type = cast<NDArrayType>(root.getType());
    SmallVector<OpFoldResult> offsets(type.getRank(), builder.getIndexAttr(0));
    SmallVector<OpFoldResult> strides(type.getRank(), builder.getIndexAttr(1));
    SmallVector<OpFoldResult> sizes;
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      if (type.isDynamicDim(dim))
        sizes.push_back(builder.createOrFold<DimOp>(ret.getLoc(), root, dim));
      else
        sizes.push_back(builder.getIndexAttr(type.getDimSize(dim)));
    }
    auto write = InsertSliceOp::create(builder, ret.getLoc(), current, root,
                                       offsets, sizes, strides);
    write->setAttr(kWriteBackAttrName, builder.getUnitAttr());
  }
}

struct NDArrayValueSemanticsPass
    : public imex::ndarray::impl::NDArrayValueSemanticsBase<
          NDArrayValueSemanticsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>())
      if (!func.isExternal() && failed(convertToValueSemantics(func)))
        return signalPassFailure();
  }
};
} // namespace

LogicalResult imex::ndarray::convertToValueSemantics(FunctionOpInterface func) {
  return ValueSemanticsBuilder(func).run();
}
