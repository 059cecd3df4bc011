// Global constructors run before the entry function and destructors after
// it, in priority order, whether the object was just compiled or came from
// the cache.
//
// RUN: rm -rf %t.cache
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --pipeline='builtin.module(canonicalize)' | FileCheck %s
// RUN: env IMEX_CACHE_DIR=%t.cache imex-runner %s --pipeline='builtin.module(canonicalize)' --timing 2>&1 | FileCheck %s --check-prefixes=CHECK,HIT

// CHECK: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 3
// CHECK-NEXT: 4
// CHECK-NEXT: 5
// HIT: imex-runner: cache hit

llvm.mlir.global_ctors ctors = [@second, @first], priorities = [20 : i32, 10 : i32], data = [#llvm.zero, #llvm.zero]
llvm.mlir.global_dtors dtors = [@fifth, @fourth], priorities = [20 : i32, 10 : i32], data = [#llvm.zero, #llvm.zero]

llvm.func @printI64(i64)
llvm.func @printNewline()

llvm.func @say(%v: i64) {
  llvm.call @printI64(%v) : (i64) -> ()
  llvm.call @printNewline() : () -> ()
  llvm.return
}
llvm.func @first() {
  %c = llvm.mlir.constant(1 : i64) : i64
  llvm.call @say(%c) : (i64) -> ()
  llvm.return
}
llvm.func @second() {
  %c = llvm.mlir.constant(2 : i64) : i64
  llvm.call @say(%c) : (i64) -> ()
  llvm.return
}
llvm.func @main() {
  %c = llvm.mlir.constant(3 : i64) : i64
  llvm.call @say(%c) : (i64) -> ()
  llvm.return
}
llvm.func @fourth() {
  %c = llvm.mlir.constant(4 : i64) : i64
  llvm.call @say(%c) : (i64) -> ()
  llvm.return
}
llvm.func @fifth() {
  %c = llvm.mlir.constant(5 : i64) : i64
  llvm.call @say(%c) : (i64) -> ()
  llvm.return
}
