// RUN: imex-opt %s -split-input-file -ndarray-value-semantics -ndarray-dist -canonicalize -cse -dist-coalesce -convert-dist-to-standard -canonicalize | FileCheck %s

// A distributed argument with ghost cells of the caller (dist.ghost, lowered
// from init_dist_array's spare_rows): the halo exchange writes into the spare
// rows of the argument's buffer, with no copy of the block into a new buffer
// and no run-time check of the spare rows (the halo of one row fits). The
// final version is stored in the argument's buffer: it is written back
// whole (the other rows are ghost cells), which bufferizes in place.
// CHECK-LABEL: func.func @ghost_arguments
// CHECK-SAME: %{{[^:]*}}: index, %[[M0:[^:]*]]: index, %[[U:[^:]*]]: !ndarray.ndarray<?x?xf64>)
// CHECK-NOT: ndarray.create
// CHECK-NOT: scf.if
// The buffer is seen with the argument's global sizes of dimensions 1..
// (known to match the operands').
// CHECK: %[[W:.*]] = ndarray.subview %[[U]][0, 0] [%{{.*}}, %[[M0]]]
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[W]][2, 0] [%{{.*}}, %[[M0]]]
// CHECK: distruntime.get_halo %[[OWNED]]
// CHECK: %[[L:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[W]][%{{.*}}, 0] {{.*}} {ndarray.ghost_write}
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %[[L]][%{{.*}}, 0] {{.*}} {ndarray.ghost_write}
// CHECK-NOT: ndarray.create
// CHECK: ndarray.insert_slice %{{.*}} into %[[U]][0, 0] {{.*}} {ndarray.write_back}
func.func @ghost_arguments(%n: index, %m: index,
    %u: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1>, dist.ghost = array<i64: 2, 1>}) {
  %c2 = arith.constant 2 : index
  %k = arith.subi %n, %c2 : index
  %a = ndarray.subview %u[0, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %b = ndarray.subview %u[2, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %s into %u[1, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// b[...] = a + s for two arguments of one shape and distribution (as the
// Python frontend passes them: the global sizes are shared arguments): the
// operand already holds the rows written, no exchange; the result is
// computed in the argument's buffer and written back whole.
// CHECK-LABEL: func.func @aligned_update
// CHECK-NOT: distruntime.get_halo
// CHECK-NOT: scf.if
// CHECK: ndarray.insert_slice %{{.*}} {ndarray.write_back}
func.func @aligned_update(%n: index,
    %a: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>},
    %s: f64,
    %b: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = ndarray.create value %s : !ndarray.ndarray<f64>
  %r = ndarray.ewbin add %a, %v : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
  %d0 = ndarray.dim %b, %c0 : !ndarray.ndarray<?x?xf64>
  %d1 = ndarray.dim %b, %c1 : !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %r into %b[0, 0] [%d0, %d1] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
