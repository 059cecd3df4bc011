//===- ForwardGhostWrites.cpp - later readers see received halos ----------===//
//
// A halo exchange writes the neighbours' rows into the ghost cells (spare
// rows) of a distributed array's buffer: on tensors, an insert marked
// `ndarray.ghost_write` making a new version G of the array version V.
// The two hold the same array (ghost cells are not part of its value), but
// a use of V after G, e.g. the yield of a loop whose body computes from G
// (a time step reading the halos of the grid it does not write), keeps V
// alive past the in-place write of G: one-shot bufferization then copies
// the whole buffer in every iteration. Uses of V after G use G instead, and
// so do views of V taken before G but read only after it (the views a
// computation reads, taken before the exchange's wait).
//
// Sound because the ghost cells of one array version always receive the
// same rows: every rank runs the same program, so the neighbours' blocks of
// version V are the same in every exchange of V.
//
//===----------------------------------------------------------------------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"
#include "imex/Dialect/NDArray/IR/NDArray.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace imex {
#define GEN_PASS_DEF_FORWARDGHOSTWRITES
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

bool imex::isGhostWrite(Operation *op) {
  auto insert = dyn_cast_if_present<tensor::InsertSliceOp>(op);
  if (!insert)
    return false;
  if (op->hasAttr(ndarray::kGhostWriteAttrName))
    return true;
  Value source = insert.getSource();
  while (auto cast = source.getDefiningOp<tensor::CastOp>())
    source = cast.getSource();
  Operation *def = source.getDefiningOp();
  return def && def->hasAttr(ndarray::kGhostWriteAttrName);
}

namespace {

/// Whether every use of `value` is after `ghostWrite` in its block, or in an
/// extract_slice before it (in the block) that qualifies itself; those
/// extracts are added to `reads`.
bool isReadOnlyAfter(Value value, Operation *ghostWrite,
                     SmallVectorImpl<Operation *> &reads) {
  Block *block = ghostWrite->getBlock();
  for (Operation *user : value.getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return false;
    if (ghostWrite->isBeforeInBlock(ancestor))
      continue;
    if (!isa<tensor::ExtractSliceOp>(user) || user->getBlock() != block ||
        !isReadOnlyAfter(user->getResult(0), ghostWrite, reads))
      return false;
    reads.push_back(user);
  }
  return true;
}

/// Moves the extracts of `version` before `ghostWrite` whose values are only
/// used after it behind it, reading its result: the values are the same,
/// and the version is no longer read after it is written in place.
void forwardEarlyReads(Value version, tensor::InsertSliceOp ghostWrite) {
  SmallVector<Operation *> reads;
  SmallVector<Operation *> direct;
  for (Operation *user : version.getUsers()) {
    SmallVector<Operation *> userReads;
    if (!isa<tensor::ExtractSliceOp>(user) ||
        user->getBlock() != ghostWrite->getBlock() ||
        !user->isBeforeInBlock(ghostWrite) ||
        !isReadOnlyAfter(user->getResult(0), ghostWrite, userReads))
      continue;
    direct.push_back(user);
    reads.push_back(user);
    reads.append(userReads);
  }
  llvm::sort(reads,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  reads.erase(llvm::unique(reads), reads.end());
  Operation *last = ghostWrite;
  for (Operation *read : reads) {
    read->moveAfter(last);
    last = read;
  }
  for (Operation *read : direct)
    read->setOperand(0, ghostWrite.getResult());
}

struct ForwardGhostWritesPass
    : public imex::impl::ForwardGhostWritesBase<ForwardGhostWritesPass> {
  void runOnOperation() override {
    // Program order: the uses forwarded to G are forwarded again by a ghost
    // write into G.
    getOperation()->walk([](tensor::InsertSliceOp ghostWrite) {
      if (!imex::isGhostWrite(ghostWrite))
        return;
      Value version = ghostWrite.getDest();
      Block *block = ghostWrite->getBlock();
      forwardEarlyReads(version, ghostWrite);
      version.replaceUsesWithIf(ghostWrite.getResult(), [&](OpOperand &use) {
        Operation *user = block->findAncestorOpInBlock(*use.getOwner());
        return user && user != ghostWrite && ghostWrite->isBeforeInBlock(user);
      });
    });
  }
};

} // namespace
