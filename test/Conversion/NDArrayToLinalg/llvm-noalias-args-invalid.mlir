// RUN: imex-opt %s -imex-llvm-noalias-args -verify-diagnostics

// expected-error @+1 {{imex.noalias_llvm_args position 1 is not a pointer argument}}
llvm.func @wrong(%x: !llvm.ptr, %y: i64) attributes {imex.noalias_llvm_args = array<i64: 1>} {
  llvm.return
}
