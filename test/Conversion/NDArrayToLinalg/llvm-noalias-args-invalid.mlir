// RUN: imex-opt %s -imex-llvm-noalias-args -split-input-file -verify-diagnostics

// expected-error @+1 {{imex.noalias_llvm_args position 1 is not a pointer argument}}
llvm.func @wrong(%x: !llvm.ptr, %y: i64) attributes {imex.noalias_llvm_args = array<i64: 1>} {
  llvm.return
}

// -----

// expected-error @+1 {{imex.noalias_llvm_args position -1 is not a pointer argument}}
llvm.func @negative(%x: !llvm.ptr) attributes {imex.noalias_llvm_args = array<i64: -1>} {
  llvm.return
}

// -----

// expected-error @+1 {{imex.noalias_llvm_args must be an array<i64> of argument positions, got 3 : i64}}
llvm.func @not_an_array(%x: !llvm.ptr) attributes {imex.noalias_llvm_args = 3 : i64} {
  llvm.return
}
