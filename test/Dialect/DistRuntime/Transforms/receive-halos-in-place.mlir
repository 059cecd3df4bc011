// RUN: imex-opt %s -split-input-file -receive-halos-in-place | FileCheck %s

// The halos of an exchange (the second and third arguments of the function
// lower-distruntime-to-idtr calls for get_halo) are received into the ghost
// rows they were copied to; the definitions of the views move above the
// call.
// CHECK-LABEL: func.func @ghost_rows
// CHECK-SAME: (%[[BUF:[^:]*]]: memref<?x8xf64>, %[[ROW:[^:]*]]: index, %[[L:[^:]*]]: index, %[[R:[^:]*]]: index, %[[N:[^:]*]]: index
// CHECK-NOT: memref.alloc
// CHECK: %[[LROW:.*]] = arith.subi %[[ROW]], %[[L]]
// CHECK: %[[LEFT:.*]] = memref.subview %[[BUF]][%[[LROW]], 0] [%[[L]], 8] [1, 1]
// CHECK: %[[RROW:.*]] = arith.addi %[[ROW]], %[[N]]
// CHECK: %[[RIGHT:.*]] = memref.subview %[[BUF]][%[[RROW]], 0] [%[[R]], 8] [1, 1]
// CHECK: %[[LCAST:.*]] = memref.cast %[[LEFT]] : memref<?x8xf64, strided<[8, 1], offset: ?>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[RCAST:.*]] = memref.cast %[[RIGHT]] : memref<?x8xf64, strided<[8, 1], offset: ?>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[H:.*]] = call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%{{.*}}, %[[LCAST]], %[[RCAST]], %{{.*}}, %{{.*}})
// CHECK: %[[LCAST2:.*]] = memref.cast %[[LEFT]]
// CHECK: %[[RCAST2:.*]] = memref.cast %[[RIGHT]]
// CHECK: call @_imex_idtr_wait_f64r2_f64r2_f64r2_n4(%[[H]], %{{.*}}, %[[LCAST2]], %[[RCAST2]])
// CHECK-NOT: memref.copy
// CHECK: return
func.func private @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
func.func private @_imex_idtr_wait_f64r2_f64r2_f64r2_n4(i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @ghost_rows(%buf: memref<?x8xf64>, %row: index, %l: index, %r: index, %n: index) {
  %c1 = arith.constant 1 : i64
  %owned = memref.subview %buf[%row, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  %data = memref.cast %owned : memref<?x8xf64, strided<[8, 1], offset: ?>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %lhalo = memref.alloc(%l) : memref<?x8xf64>
  %rhalo = memref.alloc(%r) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %rcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  %lcast2 = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast2 = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  func.call @_imex_idtr_wait_f64r2_f64r2_f64r2_n4(%h, %data, %lcast2, %rcast2) : (i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %lrow = arith.subi %row, %l : index
  %left = memref.subview %buf[%lrow, 0] [%l, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  memref.copy %lhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  %rrow = arith.addi %row, %n : index
  %right = memref.subview %buf[%rrow, 0] [%r, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  memref.copy %rhalo, %right : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  return
}

// -----

// Halo buffers that are read otherwise, copied twice, copied in another
// block, or copied into a buffer allocated after the call stay.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-2: memref.alloc
// CHECK: call @_imex_idtr_get_halo
// CHECK: memref.load
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-LABEL: func.func @copied_in_branch
// CHECK-COUNT-2: memref.alloc
// CHECK: scf.if
// CHECK: memref.copy
// CHECK-LABEL: func.func @fresh_destination
// CHECK-COUNT-2: memref.alloc(
// CHECK: call @_imex_idtr_get_halo
// CHECK: memref.alloc(
// CHECK: memref.copy
func.func private @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
func.func @kept(%buf: memref<?x8xf64>, %data: memref<?x?xf64, strided<[?, ?], offset: ?>>, %l: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : i64
  %lhalo = memref.alloc(%l) : memref<?x8xf64>
  %rhalo = memref.alloc(%l) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %rcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  %x = memref.load %lhalo[%c0, %c0] : memref<?x8xf64>
  %left = memref.subview %buf[0, 0] [%l, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  memref.copy %lhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  memref.copy %rhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  memref.copy %rhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  return %x : f64
}
func.func @copied_in_branch(%buf: memref<?x8xf64>, %data: memref<?x?xf64, strided<[?, ?], offset: ?>>, %l: index, %cond: i1) {
  %c1 = arith.constant 1 : i64
  %lhalo = memref.alloc(%l) : memref<?x8xf64>
  %rhalo = memref.alloc(%l) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %rcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  scf.if %cond {
    %left = memref.subview %buf[0, 0] [%l, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
    memref.copy %lhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  }
  return
}
func.func @fresh_destination(%data: memref<?x?xf64, strided<[?, ?], offset: ?>>, %l: index) -> memref<?x8xf64> {
  %c1 = arith.constant 1 : i64
  %lhalo = memref.alloc(%l) : memref<?x8xf64>
  %rhalo = memref.alloc(%l) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %rcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  %fresh = memref.alloc(%l) : memref<?x8xf64>
  memref.copy %lhalo, %fresh : memref<?x8xf64> to memref<?x8xf64>
  return %fresh : memref<?x8xf64>
}

// -----

// The array of the exchange is not in the destination's buffer (it is
// copied there later): the buffer may hold another array until the copy.
// Halos are received in place only if nothing but the exchange's calls
// accesses the destination rows before the copy: not where the whole buffer
// is read (another array assembled there first), but where only other rows
// are written (the array's own rows, copied in).
// CHECK-LABEL: func.func @destination_holds_another_array
// CHECK-COUNT-2: memref.alloc(
// CHECK: call @_imex_idtr_get_halo
// CHECK: call @use
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-LABEL: func.func @destination_rows_untouched
// CHECK-NOT: memref.alloc
// CHECK: call @_imex_idtr_get_halo
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>> to
// CHECK-NOT: memref.copy
// CHECK: return
func.func private @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
func.func private @use(memref<?x8xf64>)
func.func @destination_holds_another_array(%buf: memref<?x8xf64>, %data: memref<?x?xf64, strided<[?, ?], offset: ?>>, %n: index) {
  %c1 = arith.constant 1 : i64
  %lhalo = memref.alloc(%n) : memref<?x8xf64>
  %rhalo = memref.alloc(%n) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %rcast = memref.cast %rhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %rcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  func.call @use(%buf) : (memref<?x8xf64>) -> ()
  %left = memref.subview %buf[0, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  memref.copy %lhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  %rrow = arith.addi %n, %n : index
  %right = memref.subview %buf[%rrow, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  memref.copy %rhalo, %right : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  return
}
func.func @destination_rows_untouched(%buf: memref<?x8xf64>, %data: memref<?x?xf64, strided<[?, ?], offset: ?>>, %n: index) {
  %c1 = arith.constant 1 : i64
  %lhalo = memref.alloc(%n) : memref<?x8xf64>
  %lcast = memref.cast %lhalo : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_get_halo_f64r2_f64r2_f64r2_n5(%data, %lcast, %lcast, %c1, %c1) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64, i64) -> i64
  %own = memref.subview %buf[%n, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  memref.copy %data, %own : memref<?x?xf64, strided<[?, ?], offset: ?>> to memref<?x8xf64, strided<[8, 1], offset: ?>>
  %left = memref.subview %buf[0, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  memref.copy %lhalo, %left : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  return
}

// -----

// A function named like the outlined get_halo but taking fewer arguments is
// not one.
// CHECK-LABEL: func.func @foreign
// CHECK: call @_imex_idtr_get_halo_other
func.func private @_imex_idtr_get_halo_other(i64) -> i64
func.func @foreign(%x: i64) -> i64 {
  %h = func.call @_imex_idtr_get_halo_other(%x) : (i64) -> i64
  return %h : i64
}

// -----

// The output of a repartition (the last argument but the key of the
// function lower-distruntime-to-idtr calls for it), copied whole (here
// through a subview of all of it) into the rows of another array, is
// received there.
// CHECK-LABEL: func.func @repartition_into_rows
// CHECK-SAME: (%[[IN:[^:]*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[DST:[^:]*]]: memref<?x8xf64>, %[[N:[^:]*]]: index
// CHECK-NOT: memref.alloc
// CHECK: %[[ROWS:.*]] = memref.subview %[[DST]][2, 0] [%[[N]], 8] [1, 1]
// CHECK: %[[OUT:.*]] = memref.cast %[[ROWS]]
// CHECK: %[[H:.*]] = call @_imex_idtr_repartition_f64_l2_f64r2_f64r2_n6(%{{.*}}, %[[IN]], %[[N]], %{{.*}}, %[[OUT]], %{{.*}})
// CHECK: %[[OUT2:.*]] = memref.cast %[[ROWS]]
// CHECK: call @_imex_idtr_wait_f64r2_f64r2_n3(%[[H]], %[[IN]], %[[OUT2]])
// CHECK-NOT: memref.copy
// CHECK: return
// CHECK-LABEL: func.func @repartition_of_destination
// CHECK: memref.alloc
// CHECK: memref.copy
func.func private @_imex_idtr_repartition_f64_l2_f64r2_f64r2_n6(i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, index, index, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64) -> i64
func.func private @_imex_idtr_wait_f64r2_f64r2_n3(i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>)
func.func @repartition_into_rows(%in: memref<?x?xf64, strided<[?, ?], offset: ?>>, %dst: memref<?x8xf64>, %n: index) {
  %c1 = arith.constant 1 : i64
  %c8 = arith.constant 8 : index
  %out = memref.alloc(%n) : memref<?x8xf64>
  %cast = memref.cast %out : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_repartition_f64_l2_f64r2_f64r2_n6(%c1, %in, %n, %c8, %cast, %c1) : (i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, index, index, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64) -> i64
  %cast2 = memref.cast %out : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  func.call @_imex_idtr_wait_f64r2_f64r2_n3(%h, %in, %cast2) : (i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %all = memref.subview %out[0, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  %rows = memref.subview %dst[2, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: 16>>
  memref.copy %all, %rows : memref<?x8xf64, strided<[8, 1]>> to memref<?x8xf64, strided<[8, 1], offset: 16>>
  return
}
// The input is a view of the destination's buffer: the output stays apart.
func.func @repartition_of_destination(%dst: memref<?x8xf64>, %n: index) {
  %c1 = arith.constant 1 : i64
  %c8 = arith.constant 8 : index
  %src = memref.subview %dst[0, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1]>>
  %in = memref.cast %src : memref<?x8xf64, strided<[8, 1]>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %out = memref.alloc(%n) : memref<?x8xf64>
  %cast = memref.cast %out : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  %h = func.call @_imex_idtr_repartition_f64_l2_f64r2_f64r2_n6(%c1, %in, %n, %c8, %cast, %c1) : (i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, index, index, memref<?x?xf64, strided<[?, ?], offset: ?>>, i64) -> i64
  %cast2 = memref.cast %out : memref<?x8xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  func.call @_imex_idtr_wait_f64r2_f64r2_n3(%h, %in, %cast2) : (i64, memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) -> ()
  %rows = memref.subview %dst[2, 0] [%n, 8] [1, 1] : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: 16>>
  memref.copy %out, %rows : memref<?x8xf64> to memref<?x8xf64, strided<[8, 1], offset: 16>>
  return
}
