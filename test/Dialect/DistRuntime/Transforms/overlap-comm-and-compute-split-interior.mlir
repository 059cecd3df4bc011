// RUN: imex-opt %s -overlap-comm-and-compute="split-interior=1" -split-input-file | FileCheck %s

!a = !ndarray.ndarray<?xf64>

// A 1-d stencil step as convert-dist-to-standard lowers it: the owned rows
// [1, 1 + k) of buffer %u are sent, the halos received into its ghost cells
// (left halo before row 1, right halo after row k), and rows r of the
// update read buffer rows r + %o0 and r + %o2. The interior rows [lo, hi)
// read owned rows only: computed from %u before the wait; the rows before
// and after them from the buffer with the halos, after the wait. All three
// are computed before any is written (writing the buffer while it is still
// read would make bufferization copy it).
// CHECK-LABEL: func.func @stencil
// CHECK-SAME: (%[[U:[^:]*]]: !ndarray.ndarray<?xf64>, %{{[^:]*}}: index, %[[K:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[M:[^:]*]]: index, %[[O0:[^:]*]]: index, %[[O2:[^:]*]]: index, %[[AT:[^:]*]]: index)
// CHECK: %[[H:.*]], %[[L:.*]], %[[R:.*]] = distruntime.get_halo
// CHECK: %[[LROWS:.*]] = ndarray.dim %[[L]]
// CHECK: %[[LO:.*]] = arith.minsi %{{.*}}, %[[M]]
// CHECK: %[[HI:.*]] = arith.maxsi %{{.*}}, %[[LO]]
// CHECK: %[[N:.*]] = arith.subi %[[HI]], %[[LO]]
// CHECK: %[[NBACK:.*]] = arith.subi %[[M]], %[[HI]]
// CHECK: %[[I0:.*]] = ndarray.extract_slice %[[U]][%{{.*}}] [%[[N]]] [1]
// CHECK: %[[I2:.*]] = ndarray.extract_slice %[[U]][%{{.*}}] [%[[N]]] [1]
// CHECK: %[[INTERIOR:.*]] = ndarray.ewbin add %[[I0]], %[[I2]]
// CHECK: %[[AT_LO:.*]] = arith.addi %[[AT]], %[[LO]]
// CHECK: %[[AT_HI:.*]] = arith.addi %[[AT]], %[[HI]]
// CHECK: %[[W:.*]]:3 = distruntime.wait %[[H]]
// CHECK: %[[G1:.*]] = ndarray.immutable_insert_slice %[[W]]#1 into %[[U]]
// CHECK: %[[G2:.*]] = ndarray.immutable_insert_slice %[[W]]#2 into %[[G1]]
// CHECK: %[[BACK:.*]] = ndarray.ewbin add
// CHECK-DAG: %[[F0:.*]] = ndarray.extract_slice %[[G2]][%[[O0]]] [%[[LO]]] [1]
// CHECK-DAG: %[[F2:.*]] = ndarray.extract_slice %[[G2]][%[[O2]]] [%[[LO]]] [1]
// CHECK: %[[FRONT:.*]] = ndarray.ewbin add %[[F0]], %[[F2]]
// CHECK: %[[P1:.*]] = ndarray.immutable_insert_slice %[[INTERIOR]] into %[[G2]][%[[AT_LO]]] [%[[N]]] [1]
// CHECK: %[[P2:.*]] = ndarray.immutable_insert_slice %[[FRONT]] into %[[P1]][%[[AT]]] [%[[LO]]] [1]
// CHECK: %[[P3:.*]] = ndarray.immutable_insert_slice %[[BACK]] into %[[P2]][%[[AT_HI]]] [%[[NBACK]]] [1]
// CHECK: return %[[P3]]
func.func @stencil(%u: !a, %n: index, %k: index, %b: index, %s: index, %m: index, %o0: index, %o2: index, %at: index) -> !a {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %own = ndarray.subview %u[1] [%k] [1] : !a to !a
  %h, %l, %r = distruntime.get_halo %own global_shape[%n] local_offsets[%b] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %lrows = ndarray.dim %l, %c0 : !a
  %rrows = ndarray.dim %r, %c0 : !a
  %lat = arith.subi %c1, %lrows : index
  %rat = arith.addi %k, %c1 : index
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  %g1 = ndarray.immutable_insert_slice %w#1 into %u[%lat] [%lrows] [1] {ndarray.ghost_write} : !a into !a
  %g2 = ndarray.immutable_insert_slice %w#2 into %g1[%rat] [%rrows] [1] {ndarray.ghost_write} : !a into !a
  %v0 = ndarray.extract_slice %g2[%o0] [%m] [1] : !a to !a
  %v2 = ndarray.extract_slice %g2[%o2] [%m] [1] : !a to !a
  %sum = ndarray.ewbin add %v0, %v2 : (!a, !a) -> !a
  %res = ndarray.immutable_insert_slice %sum into %g2[%at] [%m] [1] : !a into !a
  return %res : !a
}

// -----

!a = !ndarray.ndarray<?xf64>

// A computation that is used elsewhere too, and one that reads no halos,
// are not split (the latter runs before the wait as it is).
// CHECK-LABEL: func.func @not_split
// CHECK-NOT: ndarray.create
// CHECK: ndarray.ewbin multiply
// CHECK: distruntime.wait
// CHECK: ndarray.ewbin add
// CHECK-NOT: ndarray.create
// CHECK: return
func.func @not_split(%u: !a, %f: !a, %n: index, %k: index, %b: index, %s: index, %m: index, %o0: index, %at: index) -> (!a, !a, !a) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %own = ndarray.subview %u[1] [%k] [1] : !a to !a
  %h, %l, %r = distruntime.get_halo %own global_shape[%n] local_offsets[%b] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %lrows = ndarray.dim %l, %c0 : !a
  %rrows = ndarray.dim %r, %c0 : !a
  %lat = arith.subi %c1, %lrows : index
  %rat = arith.addi %k, %c1 : index
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  %g1 = ndarray.immutable_insert_slice %w#1 into %u[%lat] [%lrows] [1] {ndarray.ghost_write} : !a into !a
  %g2 = ndarray.immutable_insert_slice %w#2 into %g1[%rat] [%rrows] [1] {ndarray.ghost_write} : !a into !a
  %v0 = ndarray.extract_slice %g2[%o0] [%m] [1] : !a to !a
  %sum = ndarray.ewbin add %v0, %v0 : (!a, !a) -> !a
  %res = ndarray.immutable_insert_slice %sum into %g2[%at] [%m] [1] : !a into !a
  %x = ndarray.extract_slice %f[%o0] [%m] [1] : !a to !a
  %y = ndarray.ewbin multiply %x, %x : (!a, !a) -> !a
  %res2 = ndarray.immutable_insert_slice %y into %f[%at] [%m] [1] : !a into !a
  return %res, %sum, %res2 : !a, !a, !a
}

// -----

!a = !ndarray.ndarray<?x4xf64>
!b = !ndarray.ndarray<4xf64>

// Views of other arrays are split by rows too; an operand broadcast along
// the rows is read whole by every piece.
// CHECK-LABEL: func.func @other_arrays
// CHECK-SAME: (%[[U:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[F:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[ROW:[^:]*]]: !ndarray.ndarray<4xf64>
// CHECK: ndarray.extract_slice %[[U]]
// CHECK: ndarray.extract_slice %[[F]]
// CHECK: ndarray.ewbin add
// CHECK: ndarray.ewbin multiply %{{.*}}, %[[ROW]]
// CHECK: distruntime.wait
// CHECK-COUNT-2: ndarray.ewbin multiply %{{.*}}, %[[ROW]]
// CHECK-COUNT-3: ndarray.immutable_insert_slice %{{.*}} into
func.func @other_arrays(%u: !a, %f: !a, %row: !b, %n: index, %k: index, %b: index, %s: index, %m: index, %o0: index, %at: index) -> !a {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %own = ndarray.subview %u[1, 0] [%k, 4] [1, 1] : !a to !a
  %h, %l, %r = distruntime.get_halo %own global_shape[%n, %c4] local_offsets[%b, %c0] bb_offsets[%b, %c0] bb_sizes[%s, %c4] team = 1 : !a -> !a, !a
  %lrows = ndarray.dim %l, %c0 : !a
  %rrows = ndarray.dim %r, %c0 : !a
  %lat = arith.subi %c1, %lrows : index
  %rat = arith.addi %k, %c1 : index
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  %g1 = ndarray.immutable_insert_slice %w#1 into %u[%lat, 0] [%lrows, 4] [1, 1] {ndarray.ghost_write} : !a into !a
  %g2 = ndarray.immutable_insert_slice %w#2 into %g1[%rat, 0] [%rrows, 4] [1, 1] {ndarray.ghost_write} : !a into !a
  %v0 = ndarray.extract_slice %g2[%o0, 0] [%m, 4] [1, 1] : !a to !a
  %x = ndarray.extract_slice %f[%at, 0] [%m, 4] [1, 1] : !a to !a
  %sum = ndarray.ewbin add %v0, %x : (!a, !a) -> !a
  %scaled = ndarray.ewbin multiply %sum, %row : (!a, !b) -> !a
  %res = ndarray.immutable_insert_slice %scaled into %g2[%at, 0] [%m, 4] [1, 1] : !a into !a
  return %res : !a
}

// -----

// Inserts into 0-d arrays have no rows to split (they crashed the pass).
// CHECK-LABEL: func.func @zero_dimensional
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[] [] [] : !ndarray.ndarray<f64> into !ndarray.ndarray<f64>
func.func @zero_dimensional(%x: !ndarray.ndarray<f64>, %y: !ndarray.ndarray<f64>) -> !ndarray.ndarray<f64> {
  %r = ndarray.immutable_insert_slice %x into %y[] [] [] : !ndarray.ndarray<f64> into !ndarray.ndarray<f64>
  return %r : !ndarray.ndarray<f64>
}
