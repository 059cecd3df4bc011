// The distributed stencil statements of the Python frontend (kernels as it
// emits them: arguments with ghost rows, slice offsets as arguments) use the
// arguments' buffers where they stand. B from A: the halos go into A's
// ghost rows (A is written there, so its buffer is writable) and B's block
// is computed in place; no buffer is allocated and nothing is copied (the
// write-back of B's block is a copy of a view to itself, removed). The
// update of A from its own views: one ring of row blocks, copied back block
// by block in the loop; no copy of the block.
// RUN: imex-opt %s -split-input-file --imex-dist-cpu-pipeline -mlir-print-ir-before=convert-linalg-to-loops -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @stencil(
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_get_halo
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: linalg.generic
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: return
func.func @stencil(%a0: f64, %a1: index, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 1>, dist.ghost = array<i64: 2, 2>}, %a3: index, %a4: index, %a5: index, %a6: index, %a7: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 1>, dist.ghost = array<i64: 2, 2>}) {
  %2 = arith.constant 2 : index
  %3 = arith.subi %a1, %2 : index
  %4 = arith.subi %a1, %a4 : index
  %1 = ndarray.create value %a0 : !ndarray.ndarray<f64>
  %5 = ndarray.subview %a2[0, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %6 = ndarray.subview %a2[2, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %7 = ndarray.ewbin add %5, %6 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %8 = ndarray.subview %a2[1, %a5] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %9 = ndarray.ewbin add %7, %8 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %10 = ndarray.subview %a2[1, %a6] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %11 = ndarray.ewbin add %9, %10 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %12 = ndarray.ewbin multiply %1, %11 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %12 into %a7[1, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @stencil_in_place(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_get_halo
// CHECK-NOT: copy
// CHECK: %[[RING:.*]] = memref.alloc(
// CHECK-NOT: memref.alloc(
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : memref<?x?xf64, strided<[?, 1], offset: ?>>)
// CHECK: scf.if
// CHECK: linalg.copy
// CHECK: scf.for
// CHECK: linalg.copy
// CHECK-NOT: copy
// CHECK: memref.dealloc %[[RING]]
// CHECK-NOT: copy
// CHECK: return
func.func @stencil_in_place(%a0: f64, %a1: index, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 1>, dist.ghost = array<i64: 2, 2>}, %a3: index, %a4: index, %a5: index, %a6: index) {
  %2 = arith.constant 2 : index
  %3 = arith.subi %a1, %2 : index
  %4 = arith.subi %a1, %a4 : index
  %1 = ndarray.create value %a0 : !ndarray.ndarray<f64>
  %5 = ndarray.subview %a2[0, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %6 = ndarray.subview %a2[2, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %7 = ndarray.ewbin add %5, %6 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %8 = ndarray.subview %a2[1, %a5] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %9 = ndarray.ewbin add %7, %8 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %10 = ndarray.subview %a2[1, %a6] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %11 = ndarray.ewbin add %9, %10 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %12 = ndarray.ewbin multiply %1, %11 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %12 into %a2[1, %a3] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
