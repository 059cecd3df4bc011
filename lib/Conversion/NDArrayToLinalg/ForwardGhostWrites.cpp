//===- ForwardGhostWrites.cpp - later readers see received halos ----------===//
//
// A halo exchange writes the neighbours' rows into the ghost cells (spare
// rows) of a distributed array's buffer: on tensors, an insert marked
// `ndarray.ghost_write` making a new version G of the array version V.
// The two hold the same array (ghost cells are not part of its value), but
// a use of V after G, e.g. the yield of a loop whose body computes from G
// (a time step reading the halos of the grid it does not write), keeps V
// alive past the in-place write of G: one-shot bufferization then copies
// the whole buffer in every iteration. Uses of V after G use G instead.
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
      version.replaceUsesWithIf(ghostWrite.getResult(), [&](OpOperand &use) {
        Operation *user = block->findAncestorOpInBlock(*use.getOwner());
        return user && user != ghostWrite && ghostWrite->isBeforeInBlock(user);
      });
    });
  }
};

} // namespace
