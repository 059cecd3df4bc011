// RUN: imex-opt %s -split-input-file --pass-pipeline='builtin.module(imex-cpu-pipeline)' | FileCheck %s

// Updates reading their target, as the Python frontend emits them (kernel
// arguments given shared sizes; the offsets of the written slice and of
// the views of the target at those offsets one argument): elementwise
// reads of the written slice itself are computed in place, with no
// temporary; a view shifted against the written slice needs one.

// b[o0:o0+k, o1:] = b[o0:o0+k, o1:] + a[p0:p0+k, o1:]
// CHECK-LABEL: llvm.func @same_slice
// CHECK-NOT: alloc
// CHECK: llvm.return
func.func @same_slice(%b: memref<?x?xf64>, %n: index, %o0: index, %k: index, %o1: index, %a: memref<?x?xf64>, %p0: index) {
  %br = memref.reinterpret_cast %b to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?x?xf64> to memref<?x?xf64>
  %B = ndarray.from_memref %br : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %ar = memref.reinterpret_cast %a to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?x?xf64> to memref<?x?xf64>
  %A = ndarray.from_memref %ar : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %m = arith.subi %n, %o1 : index
  %x = ndarray.subview %B[%o0, %o1] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %y = ndarray.subview %A[%p0, %o1] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %s = ndarray.ewbin add %x, %y : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %s into %B[%o0, %o1] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[...] = where(a > t, v, b): the whole target read and written.
// CHECK-LABEL: llvm.func @whole_target
// CHECK-NOT: alloc
// CHECK: llvm.return
func.func @whole_target(%a: memref<?x?xf64>, %n: index, %t: f64, %v: f64, %b: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ar = memref.reinterpret_cast %a to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?x?xf64> to memref<?x?xf64>
  %A = ndarray.from_memref %ar : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %br = memref.reinterpret_cast %b to offset: [0], sizes: [%n, %n], strides: [%n, 1] : memref<?x?xf64> to memref<?x?xf64>
  %B = ndarray.from_memref %br : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %tv = ndarray.create value %t : !ndarray.ndarray<f64>
  %mask = ndarray.ewbin greater %A, %tv : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xi1>
  %vv = ndarray.create value %v : !ndarray.ndarray<f64>
  %w = ndarray.where %mask, %vv, %B : (!ndarray.ndarray<?x?xi1>, !ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %d0 = ndarray.dim %B, %c0 : !ndarray.ndarray<?x?xf64>
  %d1 = ndarray.dim %B, %c1 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %w into %B[0, 0] [%d0, %d1] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[o:o+k] = b[o:o+k] * b[p:p+k]: the view at another offset may overlap
// the written slice, one temporary.
// CHECK-LABEL: llvm.func @shifted_view
// CHECK: alloc
// CHECK: llvm.return
func.func @shifted_view(%b: memref<?xf64>, %n: index, %o: index, %k: index, %p: index) {
  %br = memref.reinterpret_cast %b to offset: [0], sizes: [%n], strides: [1] : memref<?xf64> to memref<?xf64>
  %B = ndarray.from_memref %br : memref<?xf64> -> !ndarray.ndarray<?xf64>
  %x = ndarray.subview %B[%o] [%k] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %y = ndarray.subview %B[%p] [%k] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %s = ndarray.ewbin multiply %x, %y : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  ndarray.insert_slice %s into %B[%o] [%k] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  return
}
