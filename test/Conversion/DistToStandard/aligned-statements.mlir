// RUN: imex-opt %s -split-input-file --pass-pipeline='builtin.module(imex-dist-cpu-pipeline)' | FileCheck %s

// Pointwise statements on distributed arguments of one shape and
// distribution, as the Python frontend emits them (shared size arguments;
// the offsets of the written slice shared by the views at those offsets):
// no exchange (only the team size and rank are asked) and no temporary,
// the update computed in the argument's buffer.

// b[1:-1, k:] = b[1:-1, k:] + a[1:-1, k:] on rows.
// CHECK-LABEL: llvm.func @update_rows
// CHECK-NOT: llvm.call @_idtr_{{(update_halo|repartition|wait)}}
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @update_rows(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a2: index, %a3: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a4: index) {
  %1 = arith.constant 2 : index
  %2 = arith.subi %a0, %1 : index
  %3 = ndarray.subview %a1[1, %a2] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %4 = ndarray.subview %a3[1, %a2] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %5 = ndarray.ewbin add %3, %4 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %5 into %a1[1, %a2] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[...] = where(a > s, a, b) on rows.
// CHECK-LABEL: llvm.func @where_rows
// CHECK-NOT: llvm.call @_idtr_{{(update_halo|repartition|wait)}}
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @where_rows(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a2: f64, %a3: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}) {
  %4 = arith.constant 0 : index
  %6 = arith.constant 1 : index
  %1 = ndarray.create value %a2 : !ndarray.ndarray<f64>
  %2 = ndarray.ewbin greater %a1, %1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xi1>
  %3 = ndarray.where %2, %a1, %a3 : (!ndarray.ndarray<?x?xi1>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %5 = ndarray.dim %a3, %4 : !ndarray.ndarray<?x?xf64>
  %7 = ndarray.dim %a3, %6 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %3 into %a3[0, 0] [%5, %7] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[...] = a + s on the grid of the ranks.
// CHECK-LABEL: llvm.func @assign_grid
// CHECK-NOT: llvm.call @_idtr_{{(update_halo|repartition|wait)}}
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @assign_grid(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}, %a2: f64, %a3: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}) {
  %3 = arith.constant 0 : index
  %5 = arith.constant 1 : index
  %1 = ndarray.create value %a2 : !ndarray.ndarray<f64>
  %2 = ndarray.ewbin add %a1, %1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
  %4 = ndarray.dim %a3, %3 : !ndarray.ndarray<?x?xf64>
  %6 = ndarray.dim %a3, %5 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %2 into %a3[0, 0] [%4, %6] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[1:-1, :] = b[1:-1, :] + a[1:-1, :] on the grid: views with no shift
// from the written slice need no ghost cells (the blocks stay the
// arguments' buffers), and the view of b's part and the insert into it
// are one slice (in place).
// CHECK-LABEL: llvm.func @update_rows_grid
// CHECK-NOT: llvm.call @_idtr_{{(update_halo|repartition|fetch_boxes|wait)}}
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @update_rows_grid(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}) {
  %1 = arith.constant 2 : index
  %2 = arith.subi %a0, %1 : index
  %3 = ndarray.subview %a1[1, 0] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %4 = ndarray.subview %a2[1, 0] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %5 = ndarray.ewbin add %3, %4 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %5 into %a1[1, 0] [%2, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[:, 1:-1] = a[:, 1:-1] * s on the grid.
// CHECK-LABEL: llvm.func @scale_columns_grid
// CHECK-NOT: llvm.call @_idtr_{{(update_halo|repartition|fetch_boxes|wait)}}
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @scale_columns_grid(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}, %a2: f64, %a3: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.split = array<i64: 0, 1>}) {
  %1 = arith.constant 2 : index
  %2 = arith.subi %a0, %1 : index
  %3 = ndarray.subview %a1[0, 1] [%a0, %2] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %4 = ndarray.create value %a2 : !ndarray.ndarray<f64>
  %5 = ndarray.ewbin multiply %3, %4 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %5 into %a3[0, 1] [%a0, %2] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// A 5-point stencil on grid arguments with ghost cells of the caller
// (dist.ghost: 2 spare elements around each block along each split axis):
// the halos go into the arguments' buffers; the only allocation is the
// exchange's receive buffer (no copy of a block into a wider buffer).
// CHECK-LABEL: llvm.func @stencil_grid_ghosts
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK-NOT: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: llvm.return
func.func @stencil_grid_ghosts(%a0: f64, %a1: index, %a2: index, %a3: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 2>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 0, 1>}, %a4: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 2>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 0, 1>}) {
  %2 = arith.constant 2 : index
  %3 = arith.subi %a1, %2 : index
  %4 = arith.subi %a2, %2 : index
  %1 = ndarray.create value %a0 : !ndarray.ndarray<f64>
  %5 = ndarray.subview %a3[0, 1] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %6 = ndarray.subview %a3[2, 1] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %7 = ndarray.ewbin add %5, %6 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %8 = ndarray.subview %a3[1, 0] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %9 = ndarray.ewbin add %7, %8 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %10 = ndarray.subview %a3[1, 2] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %11 = ndarray.ewbin add %9, %10 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %12 = ndarray.ewbin multiply %1, %11 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %12 into %a4[1, 1] [%3, %4] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
