// RUN: imex-opt %s -ndarray-value-semantics -ndarray-dist -dist-coalesce -convert-dist-to-standard -canonicalize | FileCheck %s

// A distributed argument with ghost cells of the caller (dist.ghost, lowered
// from init_dist_array's spare_rows): the halo exchange writes into the spare
// rows of the argument's buffer, with no copy of the block into a new buffer
// and no run-time check of the spare rows (the halo of one row fits). The
// final version is stored in the argument's buffer: it is written back
// whole (the other rows are ghost cells), which bufferizes in place.
// CHECK-LABEL: func.func @ghost_arguments
// CHECK-SAME: %[[U:[^:]*]]: !ndarray.ndarray<?x?xf64>)
// CHECK-NOT: ndarray.create
// CHECK-NOT: scf.if
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[U]][2, 0]
// CHECK: distruntime.get_halo %[[OWNED]]
// CHECK: %[[L:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[U]][%{{.*}}, 0] {{.*}} {ndarray.ghost_write}
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
