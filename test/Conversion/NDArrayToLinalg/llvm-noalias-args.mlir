// RUN: imex-opt %s -split-input-file -convert-ndarray-to-linalg | FileCheck %s --check-prefix=RECORD
// RUN: imex-opt %s -split-input-file --pass-pipeline='builtin.module(imex-cpu-pipeline)' | FileCheck %s

// convert-ndarray-to-linalg records the positions of the array pointers in
// the expanded LLVM signature: a 1-d memref takes 5 arguments, a scalar 1.
// RECORD: func.func @kernel({{.*}}) attributes {imex.noalias_llvm_args = array<i64: 0, 1, 6, 7>}
// CHECK: llvm.func @kernel(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f64, %{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias},
// CHECK-NOT: imex.noalias_llvm_args
func.func @kernel(%a: !ndarray.ndarray<?xf64>, %s: f64, %b: !ndarray.ndarray<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = ndarray.dim %a, %c0 : !ndarray.ndarray<?xf64>
  %v = ndarray.create value %s : !ndarray.ndarray<f64>
  %r = ndarray.ewbin multiply %b, %v : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  ndarray.insert_slice %r into %a[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  return
}
