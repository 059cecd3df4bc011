// RUN: imex-opt %s -convert-dist-to-standard -split-input-file | FileCheck %s

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xf64>

// A repartition fetches the rows outside the owned block with one halo
// exchange and keeps the owned rows inside the box as a view of the exchange
// input (computing on them need not wait for the messages).
// CHECK-LABEL: func.func @repartition
// CHECK-SAME: (%[[L:.*]]: !ndarray.ndarray<?x4xf64>, %[[O:.*]]: !ndarray.ndarray<?x4xf64>, %[[R:.*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:.*]]: index, %[[N:.*]]: index, %[[B:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[H:.*]], %[[LH:.*]], %[[RH:.*]] = distruntime.get_halo %[[O]] global_shape[%[[N]], %{{.*}}] local_offsets[%{{.*}}, %{{.*}}] bb_offsets[%[[B]], %{{.*}}] bb_sizes[%[[S]], %{{.*}}] team = 1
// CHECK: %[[W:.*]]:3 = distruntime.wait %[[H]], %[[O]], %[[LH]], %[[RH]]
// CHECK: %[[IN:.*]] = ndarray.subview %[[O]]
// CHECK: return %[[W]]#1, %[[IN]], %[[W]]#2
func.func @repartition(%l: !local, %o: !local, %r: !local, %off: index, %n: index, %b: index, %s: index) -> (!local, !local, !local) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %e = dist.repartition %d offset %b size %s : !dist -> !dist
  %p:3 = dist.parts_of %e : !dist -> !local, !local, !local
  return %p#0, %p#1, %p#2 : !local, !local, !local
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xf64>

// Elementwise ops on operands with halos compute three pieces: the rows
// needing left halo rows, the core on views of the owned blocks, the rows
// needing right halo rows.
// CHECK-LABEL: func.func @elementwise_pieces
// CHECK-COUNT-3: ndarray.ewbin add
// CHECK: %[[OWN:.*]] = ndarray.concat %{{.*}}, %{{.*}}, %{{.*}} axis 0
// CHECK: return {{.*}}%[[OWN]]
func.func @elementwise_pieces(%l: !local, %o: !local, %r: !local, %off: index, %n: index) -> (!local, !local, !local) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %e = ndarray.ewbin add %d, %d : (!dist, !dist) -> !dist
  %p:3 = dist.parts_of %e : !dist -> !local, !local, !local
  return %p#0, %p#1, %p#2 : !local, !local, !local
}

// -----

!dist = !ndarray.ndarray<?x4xi64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xi64>

// Integer reductions over dimension 0 reduce the owned block, then all ranks.
// CHECK-LABEL: func.func @reduce_int
// CHECK: %[[LOC:.*]] = ndarray.reduction sum %{{.*}} axes [0] keepdims
// CHECK: %[[ALL:.*]] = distruntime.allreduce sum %[[LOC]] team = 1
// CHECK: ndarray.squeeze %[[ALL]] [0]
func.func @reduce_int(%l: !local, %o: !local, %r: !local, %off: index, %n: index) -> !ndarray.ndarray<4xi64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %s = ndarray.reduction sum %d axes [0] : !dist -> !ndarray.ndarray<4xi64>
  return %s : !ndarray.ndarray<4xi64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xf64>

// Floating point sums are reduced in blocks of 64 global rows, each on the
// rank where the block starts (it receives the rest of the block), and the
// block results are gathered and reduced in block order on every rank: the
// same result on any number of ranks. The last block is completed with
// zeros.
// CHECK-LABEL: func.func @reduce_float
// CHECK-SAME: (%{{[^:]*}}: !ndarray.ndarray<?x4xf64>, %[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>
// CHECK: %[[ROWS:.*]] = ndarray.reduction sum %[[O]] axes [1] keepdims
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = distruntime.get_halo %[[ROWS]] {{.*}} bb_offsets[%[[BEGIN:[^,]*]], %{{.*}}] bb_sizes[%[[SIZE:[^,]*]],
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[SIZE]], %c64
// CHECK: %[[PAD:.*]] = ndarray.create(%{{.*}}) value %{{.*}} : !ndarray.ndarray<?x1xf64>
// CHECK: %[[PADDED:.*]] = ndarray.concat %{{.*}}, %{{.*}}, %{{.*}}, %[[PAD]] axis 0
// CHECK: %[[BLOCKED:.*]] = ndarray.reshape %[[PADDED]](%[[BLOCKS]]) : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<?x64x1xf64>
// CHECK: %[[PER_BLOCK:.*]] = ndarray.reduction sum %[[BLOCKED]] axes [1] :
// CHECK: distruntime.get_halo %[[PER_BLOCK]]
// CHECK: %[[ALL:.*]] = ndarray.concat
// CHECK: ndarray.reduction sum %[[ALL]] axes [0] keepdims
// CHECK-NOT: distruntime.allreduce
func.func @reduce_float(%l: !local, %o: !local, %r: !local, %off: index, %n: index) -> !ndarray.ndarray<f64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %s = ndarray.reduction sum %d : !dist -> !ndarray.ndarray<f64>
  return %s : !ndarray.ndarray<f64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!dist2 = !ndarray.ndarray<?x2xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x2,?x2,?x2>>
!local = !ndarray.ndarray<?x4xf64>

// Reshapes redistribute to the default partition of the result.
// CHECK-LABEL: func.func @reshape
// CHECK: distruntime.team_size team = 1
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.copy_reshape
// CHECK: distruntime.wait %[[H]], %{{.*}}, %[[OUT]]
func.func @reshape(%l: !local, %o: !local, %r: !local, %off: index, %n: index, %m: index) -> !ndarray.ndarray<?x2xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %e = ndarray.reshape %d(%m) : !dist -> !dist2
  %p:3 = dist.parts_of %e : !dist2 -> !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>
  return %p#1 : !ndarray.ndarray<?x2xf64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xf64>

// A local repartition takes the requested rows out of the parts, without
// communication: each part contributes the rows of [offset, offset + size)
// it holds.
// CHECK-LABEL: func.func @local_repartition
// CHECK-SAME: (%[[L:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[R:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:[^:]*]]: index, %[[N:[^:]*]]: index, %[[FIRST:[^:]*]]: index, %[[COUNT:[^:]*]]: index)
// CHECK-NOT: distruntime
// CHECK: %[[L2:.*]] = ndarray.subview %[[L]]
// CHECK-NOT: distruntime
// CHECK: %[[O2:.*]] = ndarray.subview %[[O]]
// CHECK-NOT: distruntime
// CHECK: %[[R2:.*]] = ndarray.subview %[[R]]
// CHECK-NOT: distruntime
// CHECK: return %[[L2]], %[[O2]], %[[R2]], %[[FIRST]]
func.func @local_repartition(%l: !local, %o: !local, %r: !local, %off: index, %n: index, %first: index, %count: index) -> (!local, !local, !local, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %v = dist.local_repartition %d offset %first size %count : !dist -> !dist
  %p:3 = dist.parts_of %v : !dist -> !local, !local, !local
  %offs:2 = dist.local_offsets_of %v : !dist
  return %p#0, %p#1, %p#2, %offs#0 : !local, !local, !local, index
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!local = !ndarray.ndarray<?x4xf64>

// Elementwise ops on arrays split at a common core are computed part by
// part on the parts themselves (the core on a view of the owned blocks); a
// result only used by elementwise ops and inserts keeps the three parts,
// which are inserted one by one.
// CHECK-LABEL: func.func @aligned_cores
// CHECK-NOT: distruntime
// CHECK-COUNT-3: ndarray.ewbin add
// CHECK-COUNT-3: ndarray.ewbin multiply
// CHECK-NOT: ndarray.ewbin
// CHECK-NOT: ndarray.concat
// CHECK-COUNT-3: ndarray.immutable_insert_slice
func.func @aligned_cores(%l: !local, %o: !local, %r: !local, %off: index, %n: index, %m: index) -> !local {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %b = dist.init_dist_array parts(%r, %o, %l) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %x:2 = dist.align_cores %a, %b : !dist, !dist
  %s = ndarray.ewbin add %x#0, %x#1 : (!dist, !dist) -> !dist
  %t = ndarray.ewbin multiply %s, %x#0 : (!dist, !dist) -> !dist
  %u = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %v = ndarray.immutable_insert_slice %t into %u[1, 0] [%m, 4] [1, 1] : !dist into !dist
  %p:3 = dist.parts_of %v : !dist -> !local, !local, !local
  return %p#1 : !local
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x4,?x4,?x4>>
!dist3 = !ndarray.ndarray<?x4x1xf64, #dist.dist_env<team = 1 loffs = ?,0,0 lparts = ?x4x1,?x4x1,?x4x1>>
!local = !ndarray.ndarray<?x4xf64>
!local3 = !ndarray.ndarray<?x4x1xf64>

// Unit dimensions after dimension 0 are added and removed on the owned
// block; the results own the same rows and have no halos. No communication.
// CHECK-LABEL: func.func @unit_dims
// CHECK-SAME: (%[[L:.*]]: !ndarray.ndarray<?x4xf64>, %[[O:.*]]: !ndarray.ndarray<?x4xf64>, %[[R:.*]]: !ndarray.ndarray<?x4xf64>
// CHECK-NOT: distruntime
// CHECK: %[[E:.*]] = ndarray.expand_dims %[[O]] [2] : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4x1xf64>
// CHECK: %[[S:.*]] = ndarray.squeeze %[[E]] [2] : !ndarray.ndarray<?x4x1xf64> -> !ndarray.ndarray<?x4xf64>
// CHECK-NOT: distruntime
// CHECK: return %{{.*}}, %[[S]], %{{.*}} :
func.func @unit_dims(%l: !local, %o: !local, %r: !local, %off: index, %n: index) -> (!local, !local, !local) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c4) : !local, !local, !local -> !dist
  %e = ndarray.expand_dims %d [2] : !dist -> !dist3
  %s = ndarray.squeeze %e [2] : !dist3 -> !dist
  %p:3 = dist.parts_of %s : !dist -> !local, !local, !local
  return %p#0, %p#1, %p#2 : !local, !local, !local
}

// -----

!src = !ndarray.ndarray<?x1xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x1,?x1,?x1>>
!dst = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x?,?x?,?x?>>
!local = !ndarray.ndarray<?x1xf64>
!localdst = !ndarray.ndarray<?x?xf64>

// broadcast_to keeping dimension 0 broadcasts the owned block to its rows:
// dimension 0 gets the owned row count, the others the op's sizes.
// CHECK-LABEL: func.func @broadcast_rows
// CHECK-SAME: (%[[L:[^:]*]]: !ndarray.ndarray<?x1xf64>, %[[O:[^:]*]]: !ndarray.ndarray<?x1xf64>, %{{[^:]*}}: !ndarray.ndarray<?x1xf64>, %{{[^:]*}}: index, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK-NOT: distruntime
// CHECK: %[[ROWS:.*]] = ndarray.dim %[[O]], %{{.*}}
// CHECK: %[[B:.*]] = ndarray.broadcast_to %[[O]](%[[ROWS]], %[[M]]) : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<?x?xf64>
// CHECK-NOT: distruntime
// CHECK: return %{{.*}}, %[[B]], %{{.*}} :
func.func @broadcast_rows(%l: !local, %o: !local, %r: !local, %off: index, %n: index, %m: index) -> (!localdst, !localdst, !localdst) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = dist.init_dist_array parts(%l, %o, %r) offsets(%off, %c0) shape(%n, %c1) : !local, !local, !local -> !src
  %b = ndarray.broadcast_to %d(%n, %m) : !src -> !dst
  %p:3 = dist.parts_of %b : !dst -> !localdst, !localdst, !localdst
  return %p#0, %p#1, %p#2 : !localdst, !localdst, !localdst
}
