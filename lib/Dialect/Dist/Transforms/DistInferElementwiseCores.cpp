//===- DistInferElementwiseCores.cpp - common cores of elementwise chains -===//
//
// A stencil step is a chain of elementwise ops on shifted views. Computed
// one op at a time, each op splits its rows at its own core (the rows its
// operands hold without halos), so the loops of consecutive ops have
// different bounds and do not fuse. This pass groups the ops computing the
// same rows and splits all the arrays the group reads at one common core
// (`dist.align_cores`), so that every op of the group is computed in the
// same three parts.
//
//===----------------------------------------------------------------------===//

#include "imex/Dialect/Dist/Transforms/Passes.h"

#include "imex/Dialect/Dist/Utils/DistUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/EquivalenceClasses.h"

namespace imex::dist {
#define GEN_PASS_DEF_DISTINFERELEMENTWISECORES
#include "imex/Dialect/Dist/Transforms/Passes.h.inc"
} // namespace imex::dist

using namespace mlir;
using namespace imex;
using namespace imex::dist;
using namespace imex::ndarray;

namespace {

/// Whether `op` is a row-wise op on distributed arrays computing explicitly
/// known rows (its distributed operands are repartitioned to them).
bool computesExplicitRows(Operation *op) {
  if (!isRowwise(op) || !isDist(op->getResult(0).getType()))
    return false;
  std::optional<RowLayout> layout = getOperandsLayout(op);
  return layout && layout->isExplicit();
}

/// Splits the leaves of `members` (ops of one block computing the same rows,
/// in block order) at their common core.
void alignGroup(RewriterBase &rewriter, ArrayRef<Operation *> members) {
  llvm::SmallPtrSet<Operation *, 8> memberSet(members.begin(), members.end());
  SmallVector<Value> leaves;
  for (Operation *op : members)
    for (OpOperand *operand : getRowAlignedOperands(op))
      if (!memberSet.contains(operand->get().getDefiningOp()) &&
          !llvm::is_contained(leaves, operand->get()))
        leaves.push_back(operand->get());
  if (leaves.empty())
    return;
  Operation *first = members.front();
  if (failed(hoistDefinitions(leaves, first)))
    return;
  rewriter.setInsertionPoint(first);
  auto align = AlignCoresOp::create(rewriter, first->getLoc(), leaves);
  for (auto [leaf, aligned] : llvm::zip(leaves, align.getResults()))
    rewriter.replaceUsesWithIf(leaf, aligned, [&](OpOperand &use) {
      return memberSet.contains(use.getOwner());
    });
}

struct DistInferElementwiseCoresPass
    : public imex::dist::impl::DistInferElementwiseCoresBase<
          DistInferElementwiseCoresPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks) {
      // Ops computing the same rows that feed each other form a group.
      llvm::EquivalenceClasses<Operation *> groups;
      SmallVector<Operation *> candidates;
      for (Operation &op : *block) {
        if (!computesExplicitRows(&op))
          continue;
        candidates.push_back(&op);
        groups.insert(&op);
        RowLayout rows = *getOperandsLayout(&op);
        for (OpOperand *operand : getRowAlignedOperands(&op)) {
          Operation *producer = operand->get().getDefiningOp();
          if (producer && groups.contains(producer) &&
              *getOperandsLayout(producer) == rows)
            groups.unionSets(producer, &op);
        }
      }
      llvm::MapVector<Operation *, SmallVector<Operation *>> members;
      for (Operation *op : candidates)
        members[groups.getLeaderValue(op)].push_back(op);
      for (auto &[leader, group] : members)
        alignGroup(rewriter, group);
    }
  }
};

} // namespace
