// Assigning the whole of an array (or rows of it) to an array of another distribution
// (`B[...] = C`, kernels as the Python frontend emits them) moves each
// element once, straight into the destination's block: one repartition
// whose output is the block of the destination (no buffer of its own, no
// copy, no exchange of halos of the redistributed array).
// RUN: imex-opt %s -split-input-file --imex-dist-cpu-pipeline -mlir-print-ir-before=convert-linalg-to-loops -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @columns_to_rows(
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_get_halo
// CHECK-NOT: copy
// CHECK: return
func.func @columns_to_rows(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 1>}, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = ndarray.dim %a2, %c0 : !ndarray.ndarray<?x?xf64>
  %m = ndarray.dim %a2, %c1 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %a1 into %a2[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @rows_to_columns(
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_repartition_
// CHECK-NOT: copy
// CHECK: return
func.func @rows_to_columns(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 1>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = ndarray.dim %a2, %c0 : !ndarray.ndarray<?x?xf64>
  %m = ndarray.dim %a2, %c1 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %a1 into %a2[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @rows_to_grid(
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_repartition_
// CHECK-NOT: copy
// CHECK: return
func.func @rows_to_grid(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 0, 1>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = ndarray.dim %a2, %c0 : !ndarray.ndarray<?x?xf64>
  %m = ndarray.dim %a2, %c1 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %a1 into %a2[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// A slice of rows of another distribution: the rows each rank writes are
// fetched from the blocks of the array (not the view redistributed to rows
// first and its rows then exchanged), straight into the destination.
// CHECK-LABEL: func.func @columns_to_rows_slice(
// CHECK-NOT: memref.alloc(
// CHECK-NOT: copy
// CHECK: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_repartition_
// CHECK-NOT: call @_imex_idtr_get_halo
// CHECK-NOT: copy
// CHECK: return
func.func @columns_to_rows_slice(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 1>}, %a2: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}) {
  %c2 = arith.constant 2 : index
  %n = arith.subi %a0, %c2 : index
  %v = ndarray.subview %a1[1, 0] [%n, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %v into %a2[1, 0] [%n, %a0] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
