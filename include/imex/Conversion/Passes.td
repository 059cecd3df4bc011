//===- Passes.td - IMEX conversion passes ---------------------*- tablegen -*-//

#ifndef IMEX_CONVERSION_PASSES_TD
#define IMEX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertNDArrayToLinalg
    : Pass<"convert-ndarray-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lower the ndarray dialect to linalg, tensor and bufferization";
  let description = [{
    First rewrites in-place updates and views into value semantics (see
    `ndarray-value-semantics`), then lowers every ndarray op to upstream
    dialects on tensors, ready for elementwise fusion and one-shot
    bufferization:

    * arrays become tensors (unsigned element types stored as signless
      integers); function arguments of array type become memrefs with the
      identity layout, read through `bufferization.to_tensor restrict`
      (arguments must not alias each other); the final version of an
      argument updated in place is written back with
      `bufferization.materialize_in_destination`;
    * elementwise ops become `linalg.generic` with numpy broadcasting
      (trailing dimensions aligned; a dynamic size that is 1 at run time is
      broadcast, and incompatible sizes abort with a message);
    * reductions start from the identity of their operation, accumulate
      integers in 64 bits, and compute `var`/`std` in two passes;
    * integer division, remainder and shifts follow numpy for negative
      operands, zero divisors and large shift amounts; `maximum`/`minimum`
      propagate NaN.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def LLVMNoAliasArgs : Pass<"imex-llvm-noalias-args", "::mlir::ModuleOp"> {
  let summary = "Mark the pointers of array arguments noalias in llvm.func";
  let description = [{
    Runs after `convert-func-to-llvm`. Array arguments of functions lowered
    by `convert-ndarray-to-linalg` must not alias each other; that pass
    records in `imex.noalias_llvm_args` where their allocated and aligned
    pointers land in the expanded LLVM signature, and this pass marks those
    arguments `llvm.noalias` (upstream drops `llvm.noalias` of memref
    arguments unless the bare-pointer calling convention is used).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // IMEX_CONVERSION_PASSES_TD
