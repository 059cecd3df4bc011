//===- AddCommCacheKeys.cpp - plan cache keys for exchanges in loops ------===//
//
// IDTR builds a communication plan for every exchange from all ranks'
// metadata, which costs a collective call. An exchange in a loop usually has
// the same metadata in every iteration (a stencil's halo exchange); with a
// cache key IDTR builds its plan once. A key is only given when the
// metadata provably cannot change while the loop runs, and the cached plan
// is dropped before the loop starts, since a reused key with different
// metadata is an error.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/DistRuntime/Transforms/Passes.h"

#include "imex/Dialect/DistRuntime/IR/DistRuntime.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace imex::distruntime {
#define GEN_PASS_DEF_ADDCOMMCACHEKEYS
#include "imex/Dialect/DistRuntime/Transforms/Passes.h.inc"
} // namespace imex::distruntime

using namespace mlir;
using namespace imex;
using namespace imex::distruntime;
using namespace imex::ndarray;

namespace {

/// Decides which values cannot change while one execution of `loop` runs.
class LoopInvariance {
public:
  explicit LoopInvariance(Operation *loop) : loop(loop) {}

  bool isInvariant(Value value) {
    if (isDefinedOutside(value))
      return true;
    auto [it, inserted] = invariant.try_emplace(value, false);
    if (!inserted)
      return it->second;
    Operation *def = value.getDefiningOp();
    bool result = false;
    if (auto dim = dyn_cast_if_present<DimOp>(def))
      result =
          isInvariant(dim.getIndex()) && hasInvariantShape(dim.getSource());
    else if (def && def->getNumRegions() == 0 && isMemoryEffectFree(def))
      result = llvm::all_of(def->getOperands(),
                            [&](Value v) { return isInvariant(v); });
    return invariant[value] = result;
  }

  /// Whether the shape of the array `array` is the same in every iteration.
  bool hasInvariantShape(Value array) {
    if (cast<NDArrayType>(array.getType()).hasStaticShape() ||
        isDefinedOutside(array))
      return true;
    auto [it, inserted] = invariantShape.try_emplace(array, false);
    if (!inserted)
      return it->second;
    bool result = false;
    Operation *def = array.getDefiningOp();
    if (auto cast = dyn_cast_if_present<CastOp>(def))
      result = hasInvariantShape(cast.getSource());
    else if (auto insert = dyn_cast_if_present<ImmutableInsertSliceOp>(def))
      result = hasInvariantShape(insert.getDestination());
    else if (auto slice =
                 dyn_cast_if_present<OffsetSizeAndStrideOpInterface>(def))
      result = llvm::all_of(slice.getSizes(),
                            [&](Value v) { return isInvariant(v); });
    else if (auto create = dyn_cast_if_present<CreateOp>(def))
      result = llvm::all_of(create.getDynamicSizes(),
                            [&](Value v) { return isInvariant(v); });
    else if (auto arg = dyn_cast<BlockArgument>(array))
      result = isShapePreservingIterArg(arg);
    return invariantShape[array] = result;
  }

private:
  bool isDefinedOutside(Value value) {
    return !loop->isAncestor(value.getParentRegion()->getParentOp());
  }

  /// An iteration argument of an scf.for (in the loop) whose initial value
  /// has an invariant shape and that every iteration yields updated in
  /// place (through inserts into it and casts).
  bool isShapePreservingIterArg(BlockArgument arg) {
    auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!forOp || arg.getArgNumber() == 0)
      return false;
    unsigned index = arg.getArgNumber() - 1;
    Value yielded = forOp.getYieldedValues()[index];
    while (yielded != arg) {
      Operation *def = yielded.getDefiningOp();
      if (auto cast = dyn_cast_if_present<CastOp>(def))
        yielded = cast.getSource();
      else if (auto insert = dyn_cast_if_present<ImmutableInsertSliceOp>(def))
        yielded = insert.getDestination();
      else
        return false;
    }
    return hasInvariantShape(forOp.getInitArgs()[index]);
  }

  Operation *loop;
  llvm::DenseMap<Value, bool> invariant, invariantShape;
};

/// Whether the metadata of the exchange `op` cannot change while `loop`
/// runs.
bool hasInvariantMetadata(AsyncOpInterface op, LoopInvariance &invariance) {
  for (Value operand : op->getOperands())
    if (operand.getType().isIndex() && !invariance.isInvariant(operand))
      return false;
  return invariance.hasInvariantShape(op.getAsyncInput());
}

struct AddCommCacheKeysPass
    : public imex::distruntime::impl::AddCommCacheKeysBase<
          AddCommCacheKeysPass> {
  using AddCommCacheKeysBase::AddCommCacheKeysBase;

  void runOnOperation() override {
    int64_t key = firstKey;
    llvm::DenseMap<Operation *, LoopInvariance> invariances;
    getOperation()->walk([&](AsyncOpInterface op) {
      auto keyAttr = op->getAttrOfType<IntegerAttr>("key");
      auto teamAttr = op->getAttrOfType<IntegerAttr>("team");
      if (!keyAttr || !teamAttr || keyAttr.getInt() >= 0)
        return;
      // The outermost enclosing loop in which the metadata is fixed.
      Operation *outermost = nullptr;
      for (auto loop = op->getParentOfType<LoopLikeOpInterface>(); loop;
           loop = loop->getParentOfType<LoopLikeOpInterface>()) {
        auto it = invariances.try_emplace(loop, loop).first;
        if (!hasInvariantMetadata(op, it->second))
          break;
        outermost = loop;
      }
      if (!outermost)
        return;
      op->setAttr("key", IntegerAttr::get(keyAttr.getType(), key));
      OpBuilder b(outermost);
      ForgetPlanOp::create(b, op.getLoc(), teamAttr, b.getI64IntegerAttr(key));
      ++key;
    });
  }
};

} // namespace
