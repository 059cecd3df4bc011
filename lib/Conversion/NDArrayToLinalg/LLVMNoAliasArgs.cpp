//===- LLVMNoAliasArgs.cpp - noalias pointers of array arguments ----------===//

#include "imex/Conversion/NDArrayToLinalg/NDArrayToLinalg.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace imex {
#define GEN_PASS_DEF_LLVMNOALIASARGS
#include "imex/Conversion/Passes.h.inc"
} // namespace imex

using namespace mlir;

namespace {
struct LLVMNoAliasArgsPass
    : public imex::impl::LLVMNoAliasArgsBase<LLVMNoAliasArgsPass> {
  void runOnOperation() override {
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      // The allocation functions of the generic memref lowering return
      // fresh blocks, as malloc does (which LLVM knows).
      if (func.isExternal() &&
          (func.getSymName() == "_mlir_memref_to_llvm_alloc" ||
           func.getSymName() == "_mlir_memref_to_llvm_aligned_alloc") &&
          func.getNumResults() == 1) {
        func.setResultAttr(0, LLVM::LLVMDialect::getNoAliasAttrName(),
                           UnitAttr::get(&getContext()));
        return;
      }
      Attribute attr = func->getAttr(imex::kNoAliasArgsAttrName);
      if (!attr)
        return;
      auto positions = dyn_cast<DenseI64ArrayAttr>(attr);
      if (!positions) {
        func.emitError(imex::kNoAliasArgsAttrName)
            << " must be an array<i64> of argument positions, got " << attr;
        return signalPassFailure();
      }
      func->removeAttr(imex::kNoAliasArgsAttrName);
      // The C-interface wrapper takes pointers to descriptors instead.
      if (func.getSymName().starts_with("_mlir_ciface_"))
        return;
      for (int64_t position : positions.asArrayRef()) {
        if (position < 0 || position >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgumentTypes()[position])) {
          func.emitError("imex.noalias_llvm_args position ")
              << position << " is not a pointer argument";
          return signalPassFailure();
        }
        func.setArgAttr(position, LLVM::LLVMDialect::getNoAliasAttrName(),
                        UnitAttr::get(&getContext()));
      }
    });
  }
};
} // namespace
