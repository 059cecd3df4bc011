// RUN: imex-opt %s -split-input-file --pass-pipeline='builtin.module(inline,canonicalize,convert-ndarray-to-linalg,canonicalize,cse,linalg-fuse-elementwise-ops,canonicalize,cse,eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},canonicalize,cse,canonicalize)' | FileCheck %s

// a[...] = b + s * c: the fused loop writes straight into a.
// CHECK-LABEL: func @triad
// CHECK-SAME: (%[[A:.*]]: memref<64xf64>, %[[B:.*]]: memref<64xf64>, %[[C:.*]]: memref<64xf64>
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%[[B]], %[[C]] : {{.*}}) outs(%[[A]] : memref<64xf64>)
// CHECK-NOT: memref.copy
func.func @triad(%a: !ndarray.ndarray<64xf64>, %b: !ndarray.ndarray<64xf64>, %c: !ndarray.ndarray<64xf64>, %s: f64) {
  %sa = ndarray.create value %s : !ndarray.ndarray<f64>
  %sc = ndarray.ewbin multiply %sa, %c : (!ndarray.ndarray<f64>, !ndarray.ndarray<64xf64>) -> !ndarray.ndarray<64xf64>
  %r = ndarray.ewbin add %b, %sc : (!ndarray.ndarray<64xf64>, !ndarray.ndarray<64xf64>) -> !ndarray.ndarray<64xf64>
  %d = ndarray.cast %a : !ndarray.ndarray<64xf64> to !ndarray.ndarray<?xf64>
  ndarray.insert_slice %r into %d[0] [64] [1] : !ndarray.ndarray<64xf64> into !ndarray.ndarray<?xf64>
  return
}

// -----

// Two outputs computed before either is written; the second reads the first
// output's new contents.
// CHECK-LABEL: func @two_outputs
// CHECK-SAME: (%[[X:.*]]: memref<8xf64>, %[[P:.*]]: memref<8xf64>, %[[Q:.*]]: memref<8xf64>)
// CHECK: linalg.generic {{.*}} outs(%[[P]] : memref<8xf64>)
// CHECK: linalg.generic {{.*}} outs(%[[Q]] : memref<8xf64>)
func.func @two_outputs(%x: !ndarray.ndarray<8xf64>, %p: !ndarray.ndarray<8xf64>, %q: !ndarray.ndarray<8xf64>) {
  %e = ndarray.ewuny exp %x : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %f = ndarray.ewbin add %e, %x : (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) -> !ndarray.ndarray<8xf64>
  ndarray.insert_slice %e into %p[0] [8] [1] : !ndarray.ndarray<8xf64> into !ndarray.ndarray<8xf64>
  ndarray.insert_slice %f into %q[0] [8] [1] : !ndarray.ndarray<8xf64> into !ndarray.ndarray<8xf64>
  return
}

// -----

// Arrays over memrefs given shared sizes (as the Python frontend passes
// them): an update through a view of one from the other needs no broadcast
// checks, and the write-back of the updated array is in place: one loop
// nest, no copies.
// CHECK-LABEL: func @shared_sizes
// CHECK-NOT: scf.if
// CHECK-NOT: memref.copy
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.copy
// CHECK: return
func.func @shared_sizes(%n: index, %m: index, %x: memref<?x?xf64>, %y: memref<?x?xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %xr = memref.reinterpret_cast %x to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?x?xf64> to memref<?x?xf64>
  %yr = memref.reinterpret_cast %y to offset: [0], sizes: [%n, %m], strides: [%m, 1] : memref<?x?xf64> to memref<?x?xf64>
  %u = ndarray.from_memref %xr : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %v = ndarray.from_memref %yr : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %k = arith.subi %n, %c1 : index
  %a = ndarray.subview %u[1, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %b = ndarray.subview %u[0, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %w = ndarray.subview %v[1, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %s into %w[0, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// Two arrays created alike (CSE merges their creations after lowering), one
// overwritten whole from the other: the overwrite may not be forced into
// the shared buffer; bufferization gives it its own.
// CHECK-LABEL: func @equal_creations
// CHECK: %[[NEW:.*]] = memref.alloc
// CHECK: %[[FILL:.*]] = memref.alloc
// CHECK: linalg.fill {{.*}} outs(%[[FILL]]
// CHECK: linalg.generic {{.*}} outs(%[[NEW]] :
// CHECK: return %[[NEW]], %[[FILL]]
func.func @equal_creations(%s: f64) -> (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) {
  %z = arith.constant 0.0 : f64
  %a = ndarray.create value %z : !ndarray.ndarray<8xf64>
  %b = ndarray.create value %z : !ndarray.ndarray<8xf64>
  %one = ndarray.create value %s : !ndarray.ndarray<f64>
  %r = ndarray.ewbin add %b, %one : (!ndarray.ndarray<8xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<8xf64>
  ndarray.insert_slice %r into %a[0] [8] [1] : !ndarray.ndarray<8xf64> into !ndarray.ndarray<8xf64>
  return %a, %b : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
}
