// RUN: imex-opt %s -convert-dist-to-standard -canonicalize -split-input-file | FileCheck %s

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// A distributed array is one local buffer. A repartition exchanges the halo
// rows of the owned block (a view of the buffer) and writes them into the
// spare rows of the buffer. This buffer has none (the exchange is not in a
// loop: no ghost cells were allocated), so the halos go to a new buffer with
// the owned rows; the rows the result holds and its owned rows (those of the
// source inside the box) are views of it.
// CHECK-LABEL: func.func @repartition
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:[^:]*]]: index,
// CHECK-NOT: ndarray.concat
// CHECK-NOT: scf.if
// CHECK: %[[NEW:.*]] = ndarray.create
// CHECK: %[[BUF:.*]] = ndarray.immutable_insert_slice %[[O]] into %[[NEW]]
// CHECK: %[[H:.*]], %[[LH:.*]], %[[RH:.*]] = distruntime.get_halo %[[O]]
// CHECK: %[[W:.*]]:3 = distruntime.wait %[[H]], %[[O]], %[[LH]], %[[RH]]
// CHECK: %[[B1:.*]] = ndarray.immutable_insert_slice %[[W]]#1 into %[[BUF]]
// CHECK: %[[B2:.*]] = ndarray.immutable_insert_slice %[[W]]#2 into %[[B1]]
// CHECK-NOT: ndarray.concat
// CHECK: %[[HELD:.*]] = ndarray.subview %[[B2]]
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[B2]]
// CHECK: return %[[HELD]], %[[OWNED]], %{{.*}}
func.func @repartition(%o: !local, %off: index, %n: index, %b: index, %s: index) -> (!local, !local, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %r = dist.repartition %d offset %b size %s : !dist -> !dist
  %held = dist.held_block_of %r : !dist -> !local
  %owned = dist.owned_block_of %r : !dist -> !local
  %offs:2 = dist.local_offsets_of %r : !dist
  return %held, %owned, %offs#0 : !local, !local, index
}

// -----

!dist = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>

// A stencil step: the ghost widths the exchange of u needs (one row on each
// side: views at offsets 0 and 2 for the rows of the slice at offset 1) are
// allocated with u, so the time loop carries one buffer. Each step is one
// exchange into its spare rows (no run-time check: the loop only carries
// versions of u), the stencil on views of that buffer and the update of its
// owned rows in place: no concatenation, no copy of u.
// CHECK-LABEL: func.func @stencil_step
// CHECK-SAME: (%[[ROWS:[^:]*]]: index, %[[N:[^:]*]]: index
// CHECK: %[[GHOSTED:.*]] = arith.addi %[[ROWS]], %c2
// CHECK: %[[U:.*]] = ndarray.create(%[[GHOSTED]], %[[N]]) value
// CHECK: scf.for {{.*}} iter_args(%[[BUF:[^ ]*]] = %[[U]]
// CHECK-NOT: ndarray.concat
// CHECK-NOT: scf.if
// CHECK: distruntime.get_halo
// CHECK-NOT: distruntime.get_halo
// CHECK: %[[X1:.*]] = ndarray.immutable_insert_slice %{{.*}} into %{{[^[]*}}[
// CHECK: %[[X2:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[X1]][
// CHECK-NOT: ndarray.concat
// CHECK: ndarray.extract_slice %[[X2]]
// CHECK: ndarray.extract_slice %[[X2]]
// CHECK: ndarray.ewbin add
// CHECK-NOT: ndarray.ewbin add
// CHECK: %[[NEW:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[X2]]
// CHECK: scf.yield %[[NEW]]
func.func @stencil_step(%rows: index, %n: index, %off: index, %steps: index) -> !ndarray.ndarray<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %m = arith.subi %n, %c2 : index
  %o = ndarray.create(%rows, %n) value %zero : !ndarray.ndarray<?x?xf64>
  %u = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !dist
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%v = %u) -> (!dist) {
    %t:4 = dist.local_target_of_slice %v[1, 0] [%m, %n] [1, 1] : !dist
    %b0:2 = dist.local_bounding_box view[%c0] [%m] [%c1] target[%t#0] [%t#2]
    %b1:2 = dist.local_bounding_box view[%c2] [%m] [%c1] target[%t#0] [%t#2] bb[%b0#0] [%b0#1]
    %x = dist.repartition %v offset %b1#0 size %b1#1 : !dist -> !dist
    %north = ndarray.extract_slice %x[0, 0] [%m, %n] [1, 1] : !dist to !dist
    %south = ndarray.extract_slice %x[2, 0] [%m, %n] [1, 1] : !dist to !dist
    %nl = dist.local_repartition %north offset %t#0 size %t#2 : !dist -> !dist
    %sl = dist.local_repartition %south offset %t#0 size %t#2 : !dist -> !dist
    %sum = ndarray.ewbin add %nl, %sl : (!dist, !dist) -> !dist
    %w = ndarray.immutable_insert_slice %sum into %v[1, 0] [%m, %n] [1, 1] : !dist into !dist
    scf.yield %w : !dist
  }
  %p = dist.owned_block_of %r : !dist -> !ndarray.ndarray<?x?xf64>
  return %p : !ndarray.ndarray<?x?xf64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!dist3 = !ndarray.ndarray<?x3xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// A view read only by a local_repartition (dist-coalesce's shifted views of
// one exchange) is the requested rows of the buffer: `count` rows from buffer
// row first + 2 - off (clamped only for empty views), not a view clamped to
// the valid rows and then narrowed.
// CHECK-LABEL: func.func @shifted_view
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:[^:]*]]: index, %{{[^:]*}}: index, %{{[^:]*}}: index, %[[FIRST:[^:]*]]: index, %[[COUNT:[^:]*]]: index)
// CHECK: %[[ROWS:.*]] = ndarray.dim %[[O]], %c0
// CHECK: %[[G:.*]] = arith.addi %[[FIRST]], %c2
// CHECK: %[[FROM:.*]] = arith.subi %[[G]], %[[OFF]]
// CHECK: %[[LO:.*]] = arith.maxsi %[[FROM]], %c0
// CHECK: %[[ROW:.*]] = arith.minsi %[[LO]], %[[ROWS]]
// CHECK: %[[V:.*]] = ndarray.extract_slice %[[O]][%[[ROW]], 1] [%[[COUNT]], 3] [1, 1]
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[V]], %[[V]]
// CHECK: return %[[S]]
func.func @shifted_view(%o: !local, %off: index, %n: index, %m: index, %first: index, %count: index) -> !ndarray.ndarray<?x3xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %s = ndarray.extract_slice %d[2, 1] [%m, 3] [1, 1] : !dist to !dist3
  %v = dist.local_repartition %s offset %first size %count : !dist3 -> !dist3
  %sum = ndarray.ewbin add %v, %v : (!dist3, !dist3) -> !dist3
  %p = dist.owned_block_of %sum : !dist3 -> !ndarray.ndarray<?x3xf64>
  return %p : !ndarray.ndarray<?x3xf64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// Elementwise ops on arrays holding the same rows are one op on views of
// their buffers (halos included); the result owns the rows it computes.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[O]], %[[O]]
// CHECK-NOT: ndarray.ewbin
// CHECK: return %[[S]]
func.func @elementwise(%o: !local, %off: index, %n: index) -> !local {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %e = ndarray.ewbin add %d, %d : (!dist, !dist) -> !dist
  %p = dist.owned_block_of %e : !dist -> !local
  return %p : !local
}

// -----

!dist = !ndarray.ndarray<?x4xi64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xi64>

// Integer reductions over dimension 0 reduce the owned block, then all ranks.
// CHECK-LABEL: func.func @reduce_int
// CHECK: %[[LOC:.*]] = ndarray.reduction sum %{{.*}} axes [0] keepdims
// CHECK: %[[ALL:.*]] = distruntime.allreduce sum %[[LOC]] team = 1
// CHECK: ndarray.squeeze %[[ALL]] [0]
func.func @reduce_int(%o: !local, %off: index, %n: index) -> !ndarray.ndarray<4xi64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %s = ndarray.reduction sum %d axes [0] : !dist -> !ndarray.ndarray<4xi64>
  return %s : !ndarray.ndarray<4xi64>
}

// -----

!dist = !ndarray.ndarray<?x4xi32, #dist.dist_env<team = 1>>
!scan = !ndarray.ndarray<?x4xi64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xi32>
!lscan = !ndarray.ndarray<?x4xi64>

// A scan along dimension 0: the owned block's total goes into an
// exclusive scan over the ranks, and the block is scanned on from it (the
// total of the ranks before, then the rows: the single-process order).
// Along dimension 1 the scan is local.
// CHECK-LABEL: func.func @scan
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xi32>
// CHECK: %[[TOT:.*]] = ndarray.reduction sum %[[O]] axes [0] keepdims : !ndarray.ndarray<?x4xi32> -> !ndarray.ndarray<1x4xi64>
// CHECK: %[[BEFORE:.*]] = distruntime.exscan sum %[[TOT]] team = 1 : !ndarray.ndarray<1x4xi64>
// CHECK: %[[SEEDED:.*]] = ndarray.concat %[[BEFORE]], %[[O]] axis 0 : (!ndarray.ndarray<1x4xi64>, !ndarray.ndarray<?x4xi32>) -> !ndarray.ndarray<?x4xi64>
// CHECK: %[[SCANNED:.*]] = ndarray.cumulative sum %[[SEEDED]] axis 0 : !ndarray.ndarray<?x4xi64> -> !ndarray.ndarray<?x4xi64>
// CHECK: %[[CAST:.*]] = ndarray.cast %[[SCANNED]]
// CHECK: ndarray.subview %[[CAST]][1, 0]
// CHECK-NOT: distruntime.exscan
// CHECK: ndarray.cumulative prod %{{.*}} axis 1 include_initial : !ndarray.ndarray<?x4xi32> -> !ndarray.ndarray<?x5xi64>
// CHECK-NOT: distruntime
// CHECK: return
func.func @scan(%o: !local, %off: index, %n: index) -> (!lscan, !ndarray.ndarray<?x5xi64>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %s = ndarray.cumulative sum %d axis 0 : !dist -> !scan
  %p = dist.owned_block_of %s : !scan -> !lscan
  %t = ndarray.cumulative prod %d axis 1 include_initial : !dist -> !ndarray.ndarray<?x5xi64, #dist.dist_env<team = 1>>
  %q = dist.owned_block_of %t : !ndarray.ndarray<?x5xi64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x5xi64>
  return %p, %q : !lscan, !ndarray.ndarray<?x5xi64>
}

// -----

!dist = !ndarray.ndarray<?x4xf32, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf32>

// argmax over dimension 0: each rank's best value and global index (the
// identity and the largest index when it owns nothing), then allreduces:
// any NaN, the best number, the lowest index holding the winner.
// CHECK-LABEL: func.func @argmax
// CHECK: cf.assert {{.*}} "attempt to get argmax of an empty sequence"
// CHECK: %[[C:.*]]:2 = scf.if
// CHECK:   ndarray.reduction max %{{.*}} axes [0] keepdims
// CHECK:   %[[LOC:.*]] = ndarray.argreduce max %{{.*}} axis 0 keepdims : !ndarray.ndarray<?x4xf32> -> !ndarray.ndarray<1x4xi64>
// CHECK:   ndarray.ewbin add %[[LOC]]
// CHECK: } else {
// CHECK: %[[NAN:.*]] = ndarray.ewuny isnan %[[C]]#0
// CHECK: %[[ANY:.*]] = distruntime.allreduce lor %[[NAN]] team = 1
// CHECK: %[[NUM:.*]] = ndarray.where %[[NAN]]
// CHECK: %[[BEST:.*]] = distruntime.allreduce max %[[NUM]] team = 1
// CHECK: %[[EQ:.*]] = ndarray.ewbin equal %[[C]]#0, %[[BEST]]
// CHECK: %[[CAND:.*]] = ndarray.where %[[ANY]], %[[NAN]], %[[EQ]]
// CHECK: %[[MASKED:.*]] = ndarray.where %[[CAND]], %[[C]]#1
// CHECK: %[[MIN:.*]] = distruntime.allreduce min %[[MASKED]] team = 1
// CHECK: ndarray.squeeze %[[MIN]] [0]
func.func @argmax(%o: !local, %off: index, %n: index) -> !ndarray.ndarray<4xi64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %s = ndarray.argreduce max %d axis 0 : !dist -> !ndarray.ndarray<4xi64>
  return %s : !ndarray.ndarray<4xi64>
}

// -----

!dist = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?xf64>

// A distributed 1-d sort is IDTR's sample sort into the default partition.
// CHECK-LABEL: func.func @sort
// CHECK: %[[S:.*]] = distruntime.sample_sort %{{.*}} offset %{{.*}} rows %{{.*}} descending team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
// CHECK: return %[[S]]
func.func @sort(%o: !local, %off: index, %n: index) -> !local {
  %d = dist.init_dist_array %o offsets(%off) shape(%n) : !local -> !dist
  %s = ndarray.sort %d axis 0 descending : !dist -> !dist
  %p = dist.owned_block_of %s : !dist -> !local
  return %p : !local
}

// -----

!dist = !ndarray.ndarray<?xi64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?xi64>

// searchsorted in a split sorted array: counts in the owned block, summed
// over the ranks.
// CHECK-LABEL: func.func @searchsorted
// CHECK: %[[C:.*]] = ndarray.searchsorted %{{.*}}, %{{.*}} right : (!ndarray.ndarray<?xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
// CHECK: distruntime.allreduce sum %[[C]] team = 1
func.func @searchsorted(%o: !local, %off: index, %n: index, %v: !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64> {
  %d = dist.init_dist_array %o offsets(%off) shape(%n) : !local -> !dist
  %i = ndarray.searchsorted %d, %v right : (!dist, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  return %i : !ndarray.ndarray<4xi64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// Floating point sums over the split axis: the other axes locally, then
// IDTR's ordered reduction of the rows (blocks of 64 global rows in a fixed
// order: the same result on any number of ranks).
// CHECK-LABEL: func.func @reduce_float
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:[^:]*]]: index, %[[N:[^:]*]]: index)
// CHECK: %[[ROWS:.*]] = ndarray.reduction sum %[[O]] axes [1] keepdims : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x1xf64>
// CHECK: %[[S:.*]] = distruntime.ordered_reduce sum %[[ROWS]] offset %[[OFF]] rows %[[N]] team = 1 : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<1x1xf64>
// CHECK: %[[R:.*]] = ndarray.squeeze %[[S]] [0, 1]
// CHECK: return %[[R]]
func.func @reduce_float(%o: !local, %off: index, %n: index) -> !ndarray.ndarray<f64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %s = ndarray.reduction sum %d : !dist -> !ndarray.ndarray<f64>
  return %s : !ndarray.ndarray<f64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!dist2 = !ndarray.ndarray<?x2xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// Reshapes redistribute to the default partition of the result.
// CHECK-LABEL: func.func @reshape
// CHECK: distruntime.team_size team = 1
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.copy_reshape
// CHECK: distruntime.wait %[[H]], %{{.*}}, %[[OUT]]
func.func @reshape(%o: !local, %off: index, %n: index, %m: index) -> !ndarray.ndarray<?x2xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %e = ndarray.reshape %d(%m) : !dist -> !dist2
  %p = dist.owned_block_of %e : !dist2 -> !ndarray.ndarray<?x2xf64>
  return %p : !ndarray.ndarray<?x2xf64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// A local repartition narrows the valid rows of the buffer: the rows it
// holds and owns are views of the same buffer, no communication, no copy.
// CHECK-LABEL: func.func @local_repartition
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>, %[[OFF:[^:]*]]: index, %[[N:[^:]*]]: index, %[[FIRST:[^:]*]]: index, %[[COUNT:[^:]*]]: index)
// CHECK-NOT: distruntime
// CHECK: %[[HELD:.*]] = ndarray.subview %[[O]]
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[O]]
// CHECK-NOT: distruntime
// CHECK: return %[[HELD]], %[[OWNED]], %{{.*}}
func.func @local_repartition(%o: !local, %off: index, %n: index, %first: index, %count: index) -> (!local, !local, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %v = dist.local_repartition %d offset %first size %count : !dist -> !dist
  %held = dist.held_block_of %v : !dist -> !local
  %owned = dist.owned_block_of %v : !dist -> !local
  %offs:2 = dist.local_offsets_of %v : !dist
  return %held, %owned, %offs#0 : !local, !local, index
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>

// An insert writes the owned rows of the destination's buffer in place. An
// insert after an exchange of the destination writes the buffer the halos
// went to (it holds the same owned rows), so the exchange is not followed by
// a write of the old buffer (which bufferization would have to copy).
// CHECK-LABEL: func.func @insert_after_exchange
// CHECK: distruntime.get_halo
// CHECK: %[[X1:.*]] = ndarray.immutable_insert_slice %{{.*}} into %{{[^[]*}}[
// CHECK: %[[X2:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[X1]][
// CHECK: %[[NEW:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[X2]][
// CHECK: ndarray.subview %[[NEW]]
func.func @insert_after_exchange(%o: !local, %off: index, %n: index, %b: index, %s: index, %x: !ndarray.ndarray<f64>) -> !local {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %r = dist.repartition %d offset %b size %s : !dist -> !dist
  %w = ndarray.immutable_insert_slice %x into %d[0, 0] [%n, 4] [1, 1] : !ndarray.ndarray<f64> into !dist
  %p = dist.owned_block_of %w : !dist -> !local
  return %p : !local
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!dist3 = !ndarray.ndarray<?x4x1xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x4xf64>
!local3 = !ndarray.ndarray<?x4x1xf64>

// Unit dimensions after dimension 0 are added and removed on the owned
// block; the results own the same rows and have no halos. No communication.
// CHECK-LABEL: func.func @unit_dims
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x4xf64>
// CHECK-NOT: distruntime
// CHECK: %[[E:.*]] = ndarray.expand_dims %[[O]] [2] : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4x1xf64>
// CHECK: %[[S:.*]] = ndarray.squeeze %[[E]] [2] : !ndarray.ndarray<?x4x1xf64> -> !ndarray.ndarray<?x4xf64>
// CHECK-NOT: distruntime
// CHECK: return %[[S]] :
func.func @unit_dims(%o: !local, %off: index, %n: index) -> !local {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  %x = ndarray.expand_dims %d [2] : !dist -> !dist3
  %s = ndarray.squeeze %x [2] : !dist3 -> !dist
  %p = dist.owned_block_of %s : !dist -> !local
  return %p : !local
}

// -----

!src = !ndarray.ndarray<?x1xf64, #dist.dist_env<team = 1>>
!dst = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<?x1xf64>
!localdst = !ndarray.ndarray<?x?xf64>

// broadcast_to keeping dimension 0 broadcasts the owned block to its rows:
// dimension 0 gets the owned row count, the others the op's sizes.
// CHECK-LABEL: func.func @broadcast_rows
// CHECK-SAME: (%[[O:[^:]*]]: !ndarray.ndarray<?x1xf64>, %{{[^:]*}}: index, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK-NOT: distruntime
// CHECK: %[[ROWS:.*]] = ndarray.dim %[[O]], %{{.*}}
// CHECK: %[[B:.*]] = ndarray.broadcast_to %[[O]](%[[ROWS]], %[[M]]) : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<?x?xf64>
// CHECK-NOT: distruntime
// CHECK: return %[[B]] :
func.func @broadcast_rows(%o: !local, %off: index, %n: index, %m: index) -> !localdst {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c1) : !local -> !src
  %b = ndarray.broadcast_to %d(%n, %m) : !src -> !dst
  %p = dist.owned_block_of %b : !dst -> !localdst
  return %p : !localdst
}

// -----

!dist = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>

// A loop that carries an elementwise result: its storage is not always the
// created buffer, so the exchange checks at run time that the buffer has
// the spare rows it needs (else it exchanges into a new buffer).
// CHECK-LABEL: func.func @unknown_storage
// CHECK: scf.for {{.*}} iter_args(%[[BUF:[^ ]*]] =
// CHECK: %[[X:.*]] = scf.if %{{.*}} -> (!ndarray.ndarray<?x?xf64>
// CHECK-NEXT: scf.yield %[[BUF]]
// CHECK: } else {
// CHECK: ndarray.create
// CHECK: distruntime.get_halo
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %[[X]]
func.func @unknown_storage(%rows: index, %n: index, %off: index, %steps: index) -> !ndarray.ndarray<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %m = arith.subi %n, %c2 : index
  %o = ndarray.create(%rows, %n) value %zero : !ndarray.ndarray<?x?xf64>
  %u = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !dist
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%v = %u) -> (!dist) {
    %t:4 = dist.local_target_of_slice %v[1, 0] [%m, %n] [1, 1] : !dist
    %b0:2 = dist.local_bounding_box view[%c0] [%m] [%c1] target[%t#0] [%t#2]
    %x = dist.repartition %v offset %b0#0 size %b0#1 : !dist -> !dist
    %north = ndarray.extract_slice %x[0, 0] [%m, %n] [1, 1] : !dist to !dist
    %nl = dist.local_repartition %north offset %t#0 size %t#2 : !dist -> !dist
    %w = ndarray.immutable_insert_slice %nl into %v[1, 0] [%m, %n] [1, 1] : !dist into !dist
    %d = ndarray.ewbin add %w, %w : (!dist, !dist) -> !dist
    scf.yield %d : !dist
  }
  %p = dist.owned_block_of %r : !dist -> !ndarray.ndarray<?x?xf64>
  return %p : !ndarray.ndarray<?x?xf64>
}

// -----

!dist = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>

// A time step keeping the previous value (`p[1:-1] = u[1:-1]`, then u
// updated from u's halos and p): p is copied into at the positions u is
// read, so it gets u's ghost width (one spare row on each side) although it
// is never exchanged. Both buffers have the same layout, which lets
// imex-double-buffer-loops swap them instead of copying.
// CHECK-LABEL: func.func @copied_layouts
// CHECK: %[[UROWS:.*]] = arith.addi %[[OWNED:.*]], %c2
// CHECK-NEXT: %[[U:.*]] = ndarray.create(%[[UROWS]]) value
// CHECK-NEXT: %[[PROWS:.*]] = arith.addi %[[OWNED]], %c2
// CHECK-NEXT: %[[P:.*]] = ndarray.create(%[[PROWS]]) value
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]*}} = %[[U]], %{{[^ ]*}} = %[[P]]
func.func @copied_layouts(%n: index, %steps: index) -> !ndarray.ndarray<?x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %m = arith.subi %n, %c2 : index
  %team = distruntime.team_size team = 1
  %rank = distruntime.team_member team = 1
  %offs, %sizes = dist.default_partition %team, %rank shape(%n)
  %uo = ndarray.create(%sizes) value %zero : !ndarray.ndarray<?x4xf64>
  %u0 = dist.init_dist_array %uo offsets(%offs, %c0) shape(%n, %c4) : !ndarray.ndarray<?x4xf64> -> !dist
  %po = ndarray.create(%sizes) value %zero : !ndarray.ndarray<?x4xf64>
  %p0 = dist.init_dist_array %po offsets(%offs, %c0) shape(%n, %c4) : !ndarray.ndarray<?x4xf64> -> !dist
  %r:2 = scf.for %i = %c0 to %steps step %c1 iter_args(%u = %u0, %p = %p0) -> (!dist, !dist) {
    %t:4 = dist.local_target_of_slice %u[1, 0] [%m, 4] [1, 1] : !dist
    %b0:2 = dist.local_bounding_box view[%c0] [%m] [%c1] target[%t#0] [%t#2]
    %b1:2 = dist.local_bounding_box view[%c2] [%m] [%c1] target[%t#0] [%t#2] bb[%b0#0] [%b0#1]
    %x = dist.repartition %u offset %b1#0 size %b1#1 : !dist -> !dist
    %north = ndarray.extract_slice %x[0, 0] [%m, 4] [1, 1] : !dist to !dist
    %south = ndarray.extract_slice %x[2, 0] [%m, 4] [1, 1] : !dist to !dist
    %nl = dist.local_repartition %north offset %t#0 size %t#2 : !dist -> !dist
    %sl = dist.local_repartition %south offset %t#0 size %t#2 : !dist -> !dist
    %sum = ndarray.ewbin add %nl, %sl : (!dist, !dist) -> !dist
    %kept = ndarray.extract_slice %u[1, 0] [%m, 4] [1, 1] : !dist to !dist
    %p1 = ndarray.immutable_insert_slice %kept into %p[1, 0] [%m, 4] [1, 1] : !dist into !dist
    %u1 = ndarray.immutable_insert_slice %sum into %u[1, 0] [%m, 4] [1, 1] : !dist into !dist
    scf.yield %u1, %p1 : !dist, !dist
  }
  %q = dist.owned_block_of %r#1 : !dist -> !ndarray.ndarray<?x4xf64>
  return %q : !ndarray.ndarray<?x4xf64>
}

// -----

// An array split over a grid is its block and global position: elementwise
// ops compute on the blocks; a redistribution to rows is one repartition of
// the block (any block distribution) to this rank's rows.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!rows = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK-LABEL: func.func @grid_elementwise_and_redistribute
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[B:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[A]], %[[B]] : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
// CHECK: distruntime.team_size team = 1
// CHECK: %[[SB:.*]] = ndarray.subview %[[S]][0, 0]
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[SB]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%{{.*}}, %{{.*}}] target_sizes[%{{.*}}, %[[M]]] team = 1
// CHECK: %{{.*}}:2 = distruntime.wait %[[H]], %[[SB]], %[[OUT]]
// CHECK: ndarray.reduction sum
// CHECK-NOT: dist.
func.func @grid_elementwise_and_redistribute(%a: !ndarray.ndarray<?x?xf64>, %b: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?xf64> {
  %da = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %db = dist.init_dist_array %b offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %s = ndarray.ewbin add %da, %db : (!grid, !grid) -> !grid
  %r = dist.redistribute %s : !grid -> !rows
  %t = ndarray.reduction sum %r axes [1] : !rows -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %l = dist.owned_block_of %t : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  return %l : !ndarray.ndarray<?xf64>
}

// -----

// Rows to columns: the owned rows, at their global row, to the column block
// of this rank (the grid's shape at run time).
!rows = !ndarray.ndarray<?x8xf64, #dist.dist_env<team = 1>>
!cols = !ndarray.ndarray<?x8xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK-LABEL: func.func @rows_to_columns
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x8xf64>, %[[OFF:.*]]: index, %[[N:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[P:.*]] = distruntime.grid_dim team = 1 ndims = 1 dim = 0
// CHECK: %[[ME:.*]] = distruntime.team_member team = 1
// CHECK: arith.remsi %[[ME]], %[[P]]
// CHECK: distruntime.repartition %[[A]] global_shape[%[[N]], %[[C8]]] local_offsets[%[[OFF]], %[[C0]]] target_offsets[%[[C0]], %{{.*}}] target_sizes[%[[N]], %{{.*}}] team = 1 : !ndarray.ndarray<?x8xf64> -> !ndarray.ndarray<?x?xf64>
func.func @rows_to_columns(%a: !ndarray.ndarray<?x8xf64>, %off: index, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d = dist.init_dist_array %a offsets(%off, %c0) shape(%n, %c8) : !ndarray.ndarray<?x8xf64> -> !rows
  %c = dist.redistribute %d : !rows -> !cols
  %b = dist.owned_block_of %c : !cols -> !ndarray.ndarray<?x?xf64>
  %k = ndarray.dim %b, %c1 : !ndarray.ndarray<?x?xf64>
  return %k : index
}

// -----

// A stencil update of an array split over a grid: the block gets one ghost
// cell on each side (copied once into the bigger buffer); the halos of the
// four views are exchanged into them (the four faces in one fetch_boxes,
// ghost-write inserts), the views are views of that buffer, and the update
// is written into it.
!grid = !ndarray.ndarray<8x8xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!view = !ndarray.ndarray<6x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_stencil_update
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>
// CHECK: %[[BUF:.*]] = ndarray.create(%{{.*}}, %{{.*}}) : !ndarray.ndarray<?x?xf64>
// CHECK: %[[B0:.*]] = ndarray.immutable_insert_slice %[[A]] into %[[BUF]][1, 1]
// CHECK-NOT: distruntime.repartition
// CHECK: %[[H:.*]], %[[F:.*]]:4 = distruntime.fetch_boxes %{{.*}} global_shape[%c8, %c8] local_offsets[%{{.*}}, %{{.*}}] box_offsets[{{.*}}] box_sizes[{{.*}}] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
// CHECK: %[[R:.*]]:5 = distruntime.wait %[[H]], %{{.*}}, %[[F]]#0, %[[F]]#1, %[[F]]#2, %[[F]]#3
// CHECK: ndarray.immutable_insert_slice %[[R]]#1 into %[[B0]]{{.*}} {ndarray.ghost_write}
// CHECK: ndarray.immutable_insert_slice %[[R]]#2 into {{.*}} {ndarray.ghost_write}
// CHECK: ndarray.immutable_insert_slice %[[R]]#3 into {{.*}} {ndarray.ghost_write}
// CHECK: %[[G:.*]] = ndarray.immutable_insert_slice %[[R]]#4 into %{{.*}} {ndarray.ghost_write}
// CHECK: %[[N:.*]] = ndarray.subview %[[G]]
// CHECK: %[[S:.*]] = ndarray.subview %[[G]]
// CHECK: %[[W:.*]] = ndarray.subview %[[G]]
// CHECK: %[[E:.*]] = ndarray.subview %[[G]]
// CHECK: ndarray.ewbin add %[[N]], %[[S]]
// CHECK: ndarray.ewbin add %[[W]], %[[E]]
// CHECK-NOT: distruntime.repartition
// CHECK: %[[U:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[G]]
// CHECK: ndarray.subview %[[U]][1, 1]
func.func @grid_stencil_update(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %q: !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64> {
  %c8 = arith.constant 8 : index
  %u = dist.init_dist_array %a offsets(%o0, %o1) shape(%c8, %c8) : !ndarray.ndarray<?x?xf64> -> !grid
  %n = ndarray.subview %u[0, 1] [6, 6] [1, 1] : !grid to !view
  %s = ndarray.subview %u[2, 1] [6, 6] [1, 1] : !grid to !view
  %w = ndarray.subview %u[1, 0] [6, 6] [1, 1] : !grid to !view
  %e = ndarray.subview %u[1, 2] [6, 6] [1, 1] : !grid to !view
  %ns = ndarray.ewbin add %n, %s : (!view, !view) -> !view
  %we = ndarray.ewbin add %w, %e : (!view, !view) -> !view
  %sum = ndarray.ewbin add %ns, %we : (!view, !view) -> !view
  %new = ndarray.ewbin multiply %sum, %q : (!view, !ndarray.ndarray<f64>) -> !view
  %u2 = ndarray.immutable_insert_slice %new into %u[1, 1] [6, 6] [1, 1] : !view into !grid
  %b = dist.owned_block_of %u2 : !grid -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// A floating point sum over split axes of a grid array, axes innermost
// first as on one process: each rank reduces the tiles along the innermost
// split axis (64 elements, fixed by global indices) that start in its
// block: those it holds whole on a view of the block, the last one (if it
// holds only its start, or it is the array's shorter last one) fetched
// (its rest from the next ranks) and padded with -0.0; the tiles' results
// (an identity-filled array of all tiles and all rows, allreduced) are
// reduced with the outer axis on every rank.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_float_sum
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[ID:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[T1:.*]] = arith.ceildivsi %[[O1]], %[[C64]]
// CHECK: %[[L1:.*]] = arith.muli %[[T1]], %[[C64]]
// CHECK: %[[LO1:.*]] = arith.minsi %[[L1]], %[[M]]
// CHECK: %[[WHOLE:.*]] = ndarray.subview %[[A]][0, %{{.*}}] [%[[R:.*]], %{{.*}}] [1, 1]
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[O0]], %[[REST:.*]]] target_sizes[%[[R]], %[[S1:.*]]] team = 1
// CHECK: %[[BOX:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[PAD:.*]] = ndarray.create(%[[R]], %{{.*}}) value %[[ID]] : !ndarray.ndarray<?x?xf64>
// CHECK: %[[IN:.*]] = ndarray.immutable_insert_slice %[[BOX]]#1 into %[[PAD]][0, 0] [%[[R]], %[[S1]]] [1, 1]
// CHECK: %[[TILES:.*]] = ndarray.create(%[[R]], %{{.*}}) value %[[ID]]
// CHECK: %[[TILED:.*]] = ndarray.reshape %[[WHOLE]](%[[R]], %[[K:.*]]) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?x64xf64>
// CHECK: %[[PER:.*]] = ndarray.reduction sum %[[TILED]] axes [2] keepdims : !ndarray.ndarray<?x?x64xf64> -> !ndarray.ndarray<?x?x1xf64>
// CHECK: %[[SQ:.*]] = ndarray.squeeze %[[PER]] [2]
// CHECK: %[[T:.*]] = ndarray.immutable_insert_slice %[[SQ]] into %[[TILES]][0, 0] [%[[R]], %[[K]]] [1, 1]
// CHECK: %[[TILED2:.*]] = ndarray.reshape %[[IN]](%[[R]], %{{.*}}) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?x64xf64>
// CHECK: %[[PER2:.*]] = ndarray.reduction sum %[[TILED2]] axes [2] keepdims
// CHECK: %[[SQ2:.*]] = ndarray.squeeze %[[PER2]] [2]
// CHECK: %[[T2:.*]] = ndarray.immutable_insert_slice %[[SQ2]] into %[[T]][0, %[[K]]]
// CHECK: %[[ALL:.*]] = ndarray.create(%[[N]], %{{.*}}) value %[[ID]] : !ndarray.ndarray<?x?xf64>
// CHECK: %[[MINE:.*]] = ndarray.immutable_insert_slice %[[T2]] into %[[ALL]][%[[O0]], %{{.*}}]
// CHECK: %[[RED:.*]] = distruntime.allreduce sum %[[MINE]] team = 1
// CHECK: %[[S:.*]] = ndarray.reduction sum %[[RED]] axes [0, 1] keepdims : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<1x1xf64>
// CHECK: ndarray.squeeze %[[S]] [0, 1] : !ndarray.ndarray<1x1xf64> -> !ndarray.ndarray<f64>
func.func @grid_float_sum(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<f64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %s = ndarray.reduction sum %d : !grid -> !ndarray.ndarray<f64>
  return %s : !ndarray.ndarray<f64>
}

// -----

// Other reductions over split axes: the block's partials (the identity if
// it has none of the reduced elements) written at the block's columns into
// an identity-filled array of the result's shape, allreduced.
!grid = !ndarray.ndarray<?x?xi32, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_integer_max
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xi32>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: cf.assert
// CHECK: %[[P:.*]] = scf.if %{{.*}} -> (!ndarray.ndarray<1x?xi32>)
// CHECK: ndarray.reduction max %[[A]] axes [0] keepdims
// CHECK: ndarray.create(%{{.*}}) value %[[MIN]]
// CHECK: %[[ALL:.*]] = ndarray.create(%[[M]]) value %[[MIN]] : !ndarray.ndarray<1x?xi32>
// CHECK: %[[MINE:.*]] = ndarray.immutable_insert_slice %[[P]] into %[[ALL]][0, %[[O1]]]
// CHECK: %[[R:.*]] = distruntime.allreduce max %[[MINE]] team = 1
// CHECK: ndarray.squeeze %[[R]] [0]
func.func @grid_integer_max(%a: !ndarray.ndarray<?x?xi32>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?xi32> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xi32> -> !grid
  %s = ndarray.reduction max %d axes [0] : !grid -> !ndarray.ndarray<?xi32>
  return %s : !ndarray.ndarray<?xi32>
}

// -----

// Over axes that are not split: on the block, no communication; the result
// is split on the same axes, renumbered.
!cube = !ndarray.ndarray<4x?x?xf64, #dist.dist_env<team = 1, split = [1, 2]>>
!plane = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_local_sum
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<4x?x?xf64>
// CHECK-NEXT: %[[S:.*]] = ndarray.reduction sum %[[A]] axes [0] : !ndarray.ndarray<4x?x?xf64> -> !ndarray.ndarray<?x?xf64>
// CHECK-NEXT: return %[[S]]
func.func @grid_local_sum(%a: !ndarray.ndarray<4x?x?xf64>, %o1: index, %o2: index, %n: index, %m: index) -> !ndarray.ndarray<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %a offsets(%c0, %o1, %o2) shape(%c4, %n, %m) : !ndarray.ndarray<4x?x?xf64> -> !cube
  %s = ndarray.reduction sum %d axes [0] : !cube -> !plane
  %b = dist.owned_block_of %s : !plane -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// Rows of an array on a grid fetched for an array split on rows: one
// repartition of the block to the box of the rows (all columns).
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!rows = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK-LABEL: func.func @grid_rows_fetched
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index, %[[R:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[R]], %{{.*}}] target_sizes[%[[S]], %[[M]]]
// CHECK: distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK-NOT: distruntime.repartition
// CHECK-NOT: distruntime.get_halo
// CHECK: return
func.func @grid_rows_fetched(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index, %r: index, %s: index) -> !ndarray.ndarray<?x?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %t = dist.repartition %d offset %r size %s : !grid -> !rows
  %b = dist.held_block_of %t : !rows -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// permute_dims: the block permuted where it is (at the permuted global
// offsets), then one repartition to this rank's block of the result.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_transpose
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[T:.*]] = ndarray.permute_dims %[[A]] [1, 0]
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[T]] global_shape[%[[M]], %[[N]]] local_offsets[%[[O1]], %[[O0]]]
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[T]], %[[OUT]]
// CHECK: %[[B:.*]] = ndarray.subview %[[W]]#1[0, 0]
// CHECK: return %[[B]]
func.func @grid_transpose(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?x?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %t = ndarray.permute_dims %d [1, 0] : !grid -> !grid
  %b = dist.owned_block_of %t : !grid -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// load: every rank receives the element from its owner (the 1x1 box at the
// indices, one repartition).
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_load
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[I]], %[[J]]] target_sizes[%[[C1]], %[[C1]]] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<1x1xf64>
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[E:.*]] = ndarray.load %[[W]]#1[%[[C0]], %[[C0]]]
// CHECK: return %[[E]]
func.func @grid_load(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index, %i: index, %j: index) -> f64 {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %e = ndarray.load %d[%i, %j] : !grid
  return %e : f64
}

// -----

// concat on a grid: this rank's block of the result is the part of it each
// operand holds (one repartition per distributed operand, a view of a
// replicated one), concatenated locally.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_concat
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index, %[[R:.*]]: !ndarray.ndarray<?x?xf64>)
// CHECK: distruntime.team_member team = 1
// CHECK-NOT: distruntime.repartition %[[R]]
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]]
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[V:.*]] = ndarray.subview %[[R]]
// CHECK: ndarray.concat %[[W]]#1, %[[V]] axis 0
func.func @grid_concat(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index, %r: !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %c = ndarray.concat %d, %r axis 0 : (!grid, !ndarray.ndarray<?x?xf64>) -> !grid
  %b = dist.owned_block_of %c : !grid -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// flip on a grid: this rank's block of the result is the mirrored box of
// the source (one repartition), flipped locally.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_flip
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[R:.*]] = arith.subi %[[N]], %[[O0]]
// CHECK: %[[LO:.*]] = arith.subi %[[R]], %{{.*}}
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[LO]], %[[O1]]]
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[F:.*]] = ndarray.flip %[[W]]#1 [0]
// CHECK: %[[V:.*]] = ndarray.subview %[[F]][0, 0]
// CHECK: return %[[V]]
func.func @grid_flip(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?x?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %f = ndarray.flip %d [0] : !grid -> !grid
  %b = dist.owned_block_of %f : !grid -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// A strided view on a grid: each rank takes the elements of the view its
// block holds (a strided view of the block, at view indices
// ceil((offset - start) / step)...), then this rank's block of the view is
// fetched from them (one repartition).
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!view = !ndarray.ndarray<4x5xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_strided_view
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[D0:.*]] = arith.subi %[[O0]], %{{.*}}
// CHECK: arith.ceildivsi %[[D0]], %[[C3]]
// CHECK: %[[HELD:.*]] = ndarray.subview %[[A]][%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [3, 2]
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[HELD]] global_shape[%{{.*}}, %{{.*}}] local_offsets[%{{.*}}, %{{.*}}]
// CHECK: distruntime.wait %[[H]], %[[HELD]], %[[OUT]]
func.func @grid_strided_view(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?x?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %v = ndarray.subview %d[1, 0] [4, 5] [3, 2] : !grid to !view
  %b = dist.owned_block_of %v : !view -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// argmax over a split axis of a grid array: each rank's candidate (local
// argmax plus its block's offset along the axis); the best values and then
// the lowest index holding them are combined over the team (identity-filled
// arrays of the result's shape, the rank's part at its columns, allreduced).
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_argmax
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[L:.*]] = ndarray.argreduce max %[[A]] axis 0 keepdims
// CHECK: %[[OFF:.*]] = arith.index_cast %[[O0]] : index to i64
// CHECK: %[[O:.*]] = ndarray.create value %[[OFF]] : !ndarray.ndarray<i64>
// CHECK: ndarray.ewbin add %[[L]], %[[O]]
// CHECK: distruntime.allreduce lor
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[0, %[[O1]]]
// CHECK: distruntime.allreduce max
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[0, %[[O1]]]
// CHECK: %[[I:.*]] = distruntime.allreduce min
// CHECK: ndarray.squeeze %[[I]] [0]
func.func @grid_argmax(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index) -> !ndarray.ndarray<?xi64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %i = ndarray.argreduce max %d axis 0 : !grid -> !ndarray.ndarray<?xi64>
  return %i : !ndarray.ndarray<?xi64>
}

// -----

// A view dropping an axis of a grid array that keeps the split axes
// (a[:, :, k] of a 3-d array split on [0, 1]): this rank's block of the
// result is the box of its block at index k (one repartition, which moves
// nothing here), its unit axis dropped locally.
!grid3 = !ndarray.ndarray<?x?x4xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!plane = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_plane
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?x4xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index, %[[K:.*]]: index)
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]], %{{.*}}] local_offsets[%[[O0]], %[[O1]], %{{.*}}] target_offsets[%{{.*}}, %{{.*}}, %[[K]]] target_sizes[%{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[V:.*]] = ndarray.subview %[[W]]#1[0, 0, 0] [%{{.*}}, %{{.*}}, 1] [1, 1, 1] : !ndarray.ndarray<?x?x1xf64> to !ndarray.ndarray<?x?xf64>
// CHECK: return %[[V]]
func.func @grid_plane(%a: !ndarray.ndarray<?x?x4xf64>, %o0: index, %o1: index, %n: index, %m: index, %k: index) -> !ndarray.ndarray<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %a offsets(%o0, %o1, %c0) shape(%n, %m, %c4) : !ndarray.ndarray<?x?x4xf64> -> !grid3
  %p = ndarray.subview %d[0, 0, %k] [%n, %m, 1] [1, 1, 1] : !grid3 to !plane
  %b = dist.owned_block_of %p : !plane -> !ndarray.ndarray<?x?xf64>
  return %b : !ndarray.ndarray<?x?xf64>
}

// -----

// A view dropping a split axis of a grid array (a[i, :]) is replicated:
// every rank fetches the whole row from its owners.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_row
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index, %[[M:.*]]: index, %[[I:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[M]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[I]], %[[C0]]] target_sizes[%[[C1]], %[[M]]]
// CHECK: %[[W:.*]]:2 = distruntime.wait %[[H]], %[[A]], %[[OUT]]
// CHECK: %[[V:.*]] = ndarray.subview %[[W]]#1[0, 0] [1, %[[M]]] [1, 1] : !ndarray.ndarray<1x?xf64> to !ndarray.ndarray<?xf64>
// CHECK: return %[[V]]
func.func @grid_row(%a: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index, %m: index, %i: index) -> !ndarray.ndarray<?xf64> {
  %d = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %m) : !ndarray.ndarray<?x?xf64> -> !grid
  %r = ndarray.subview %d[%i, 0] [1, %m] [1, 1] : !grid to !ndarray.ndarray<?xf64>
  return %r : !ndarray.ndarray<?xf64>
}

// -----

// A matrix product on a grid: this rank's block of the result (rows I,
// columns J) is the product of the row panel A[I, :] and the column panel
// B[:, J], each fetched with one repartition.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-LABEL: func.func @grid_matmul
// CHECK-SAME: (%[[A:[^:]*]]: !ndarray.ndarray<?x?xf64>, %[[B:[^:]*]]: !ndarray.ndarray<?x?xf64>, %[[O0:.*]]: index, %[[O1:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[HA:.*]], %[[PA:.*]] = distruntime.repartition %[[A]] global_shape[%[[N]], %[[N]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%[[I:.*]], %{{.*}}] target_sizes[%[[M:.*]], %[[N]]]
// CHECK: %[[WA:.*]]:2 = distruntime.wait %[[HA]], %[[A]], %[[PA]]
// CHECK: %[[HB:.*]], %[[PB:.*]] = distruntime.repartition %[[B]] global_shape[%[[N]], %[[N]]] local_offsets[%[[O0]], %[[O1]]] target_offsets[%{{.*}}, %[[J:.*]]] target_sizes[%[[N]], %[[K:.*]]]
// CHECK: %[[WB:.*]]:2 = distruntime.wait %[[HB]], %[[B]], %[[PB]]
// CHECK: %[[C:.*]] = ndarray.matmul %[[WA]]#1, %[[WB]]#1
// CHECK: return %[[C]]
func.func @grid_matmul(%a: !ndarray.ndarray<?x?xf64>, %b: !ndarray.ndarray<?x?xf64>, %o0: index, %o1: index, %n: index) -> !ndarray.ndarray<?x?xf64> {
  %da = dist.init_dist_array %a offsets(%o0, %o1) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !grid
  %db = dist.init_dist_array %b offsets(%o0, %o1) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !grid
  %c = ndarray.matmul %da, %db : (!grid, !grid) -> !grid
  %blk = dist.owned_block_of %c : !grid -> !ndarray.ndarray<?x?xf64>
  return %blk : !ndarray.ndarray<?x?xf64>
}

// -----

// A 0-d distributed array has no local offsets (the lowering crashed).
// CHECK-LABEL: func.func @offsets_of_0d
// CHECK-NOT: local_offsets_of
// CHECK: return
func.func @offsets_of_0d(%v: !ndarray.ndarray<f64>) {
  %s = dist.init_dist_array %v : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  dist.local_offsets_of %s : !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}
