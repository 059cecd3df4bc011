// RUN: imex-opt %s -dist-expand-ghost-zones="depth=4" -canonicalize -split-input-file | FileCheck %s
// RUN: imex-opt %s -dist-expand-ghost-zones="depth=5" -canonicalize -split-input-file | FileCheck %s --check-prefix=ODD
// RUN: imex-opt %s -dist-expand-ghost-zones -canonicalize -split-input-file | FileCheck %s --check-prefix=MODEL
// RUN: imex-opt %s -dist-expand-ghost-zones="exchange-cost-us=0.001" -canonicalize -split-input-file | FileCheck %s --check-prefix=CHEAP

!d = !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
!dd = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
!v = !ndarray.ndarray<14xf64, #dist.dist_env<team = 1>>

// A 3-point stencil time step as ndarray-dist leaves it (u[1:-1] = u[:-2] +
// u[2:]). The loop first runs the steps that do not fill a block of k = 4
// (all of them where k is smaller at run time: one rank, small blocks);
// then, if a block runs at all, each block exchanges 4 rows on each side once and computes 4 steps
// in two pairs on two local buffers with the owned block at row 4 (the
// second starts with the rows of the block the update never writes: row 0
// and row 15), the first of a pair on the rows within (k - 1 - 2p) rows of
// the owned block, the second on one row less.
// CHECK-LABEL: func.func @heat
// CHECK: %[[P:.*]] = distruntime.team_size team = 1
// CHECK: %[[PER:.*]] = arith.divsi %c16, %{{.*}}
// CHECK: %[[K0:.*]] = arith.minsi %{{.*}}, %c4
// CHECK: %[[MULTI:.*]] = arith.cmpi sgt, %[[P]], %c1
// CHECK: %[[K:.*]] = arith.select %[[MULTI]], %[[K0]], %c0
// CHECK: %[[LOOP:.*]] = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args
// CHECK: dist.repartition
// CHECK: scf.yield
// CHECK: %[[ANY:.*]] = arith.cmpi sgt
// CHECK: %[[IF:.*]] = scf.if %[[ANY]]
// CHECK: %[[OFF:.*]] = dist.local_offsets_of %[[LOOP]]
// CHECK: %[[BLOCK:.*]] = dist.owned_block_of %[[LOOP]]
// CHECK: %[[X0:.*]] = ndarray.create(%{{.*}}) : !ndarray.ndarray<?xf64>
// CHECK: ndarray.immutable_insert_slice %[[BLOCK]] into %[[X0]][4]
// CHECK: %[[Y0:.*]] = ndarray.create(%{{.*}}) : !ndarray.ndarray<?xf64>
// CHECK: %[[HEAD:.*]] = ndarray.extract_slice %[[BLOCK]][0] [%{{.*}}] [1]
// CHECK: %[[Y1:.*]] = ndarray.immutable_insert_slice %[[HEAD]] into %[[Y0]][4]
// CHECK: %[[TAIL:.*]] = ndarray.extract_slice %[[BLOCK]][%{{.*}}] [%{{.*}}] [1]
// CHECK: ndarray.immutable_insert_slice %[[TAIL]] into %[[Y1]][%{{.*}}]
// CHECK: %[[BLOCKS:.*]]:2 = scf.for
// CHECK:   %[[OWNED:.*]] = ndarray.subview %{{.*}}[4] [%{{.*}}] [1]
// CHECK:   %{{.*}}, %{{.*}}, %{{.*}} = distruntime.get_halo %[[OWNED]] global_shape[%c16] local_offsets[%[[OFF]]]
// CHECK:   distruntime.wait
// CHECK-COUNT-4: ndarray.immutable_insert_slice
// CHECK:   %[[PAIRS:.*]] = arith.divsi %[[K]], %c2
// CHECK:   scf.for %{{.*}} = %c0 to %[[PAIRS]] step %c1
// CHECK:     ndarray.extract_slice
// CHECK:     ndarray.extract_slice
// CHECK:     ndarray.ewbin add
// CHECK:     ndarray.immutable_insert_slice
// CHECK:     ndarray.extract_slice
// CHECK:     ndarray.extract_slice
// CHECK:     ndarray.ewbin add
// CHECK:     ndarray.immutable_insert_slice
// CHECK:     scf.yield
// CHECK-NOT: dist.repartition
// CHECK: %[[FINAL:.*]] = ndarray.subview %[[BLOCKS]]#0[4] [%{{.*}}] [1]
// CHECK: %[[RESULT:.*]] = dist.init_dist_array %[[FINAL]] offsets(%[[OFF]]) shape(%c16) spare_rows [4, 4]
// CHECK: scf.yield %[[RESULT]]
// CHECK: } else {
// CHECK: scf.yield %[[LOOP]]
// CHECK: return %[[IF]]

// With an odd depth the blocks have one step less (they alternate between
// two buffers): a frame of 4 rows.
// ODD-LABEL: func.func @heat
// ODD: arith.minsi %{{.*}}, %c4
// ODD: spare_rows [4, 4]

// The cost model: rows of one element and one op against an exchange of
// 20 us: the largest depth (8); an exchange as cheap as a row: no blocks.
// MODEL-LABEL: func.func @heat
// MODEL: spare_rows [8, 8]
// CHEAP-LABEL: func.func @heat
// CHEAP-NOT: distruntime.get_halo
// CHEAP: return
func.func @heat(%u0: !d, %steps: index) -> !d {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0) -> (!d) {
    %a = ndarray.cast %u : !d to !dd
    %l = ndarray.extract_slice %a[0] [14] [1] : !dd to !v
    %h = ndarray.extract_slice %a[2] [14] [1] : !dd to !v
    %to, %ts = dist.local_target_of_slice %a[1] [14] [1] : !dd
    %lr = dist.repartition %l offset %to size %ts : !v -> !v
    %hr = dist.repartition %h offset %to size %ts : !v -> !v
    %s = ndarray.ewbin add %lr, %hr : (!v, !v) -> !v
    %w = ndarray.immutable_insert_slice %s into %a[1] [14] [1] : !v into !dd
    %n = ndarray.cast %w : !dd to !d
    scf.yield %n : !d
  }
  return %r : !d
}

// -----

!d = !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
!dd = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
!v = !ndarray.ndarray<14xf64, #dist.dist_env<team = 1>>

// Two stages per iteration (double buffering by hand, as the Python
// frontend traces `v[1:-1] = u[:-2] + u[2:]; u[1:-1] = v[:-2] + v[2:];
// return u, v`): the second update reads the first one's result, so each
// iteration shrinks the valid block by 2 h and a block of 4 iterations
// needs a frame of 8 rows. The second update reads the first one's local
// version (the buffer it was just written into).
// CHECK-LABEL: func.func @two_stages
// CHECK: scf.for
// CHECK: scf.if
// CHECK:   scf.for
// CHECK:     distruntime.get_halo
// CHECK:     distruntime.get_halo
// CHECK:     scf.for %{{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}}, %[[U2:.*]] = %{{.*}}, %[[V2:.*]] = %{{.*}})
// CHECK:       ndarray.extract_slice %[[U]]
// CHECK:       %[[V1:.*]] = ndarray.immutable_insert_slice %{{.*}} into %[[V2]]
// CHECK:       ndarray.extract_slice %[[V1]]
// CHECK:       ndarray.immutable_insert_slice %{{.*}} into %[[U2]]
// CHECK: spare_rows [8, 8]
func.func @two_stages(%u0: !d, %v0: !d, %steps: index) -> (!d, !d) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0, %v = %v0) -> (!d, !d) {
    %a = ndarray.cast %u : !d to !dd
    %b = ndarray.cast %v : !d to !dd
    %l = ndarray.extract_slice %a[0] [14] [1] : !dd to !v
    %h = ndarray.extract_slice %a[2] [14] [1] : !dd to !v
    %s = ndarray.ewbin add %l, %h : (!v, !v) -> !v
    %w = ndarray.immutable_insert_slice %s into %b[1] [14] [1] : !v into !dd
    %l2 = ndarray.extract_slice %w[0] [14] [1] : !dd to !v
    %h2 = ndarray.extract_slice %w[2] [14] [1] : !dd to !v
    %s2 = ndarray.ewbin add %l2, %h2 : (!v, !v) -> !v
    %w2 = ndarray.immutable_insert_slice %s2 into %a[1] [14] [1] : !v into !dd
    %n = ndarray.cast %w2 : !dd to !d
    %m = ndarray.cast %w : !dd to !d
    scf.yield %n, %m : !d, !d
  }
  return %r#0, %r#1 : !d, !d
}

// -----

!d = !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
!dd = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
!v = !ndarray.ndarray<14xf64, #dist.dist_env<team = 1>>

// Loops the pass leaves alone: the induction variable is used (a
// time-dependent update), the body reduces (communication every step), an
// update reads the written slice unshifted only (nothing to exchange).
// CHECK-LABEL: func.func @not_expanded
// CHECK-NOT: distruntime.get_halo
// CHECK: return
func.func @not_expanded(%u0: !d, %steps: index, %x: !ndarray.ndarray<f64>) -> (!d, !d, !d) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r0 = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0) -> (!d) {
    %a = ndarray.cast %u : !d to !dd
    %l = ndarray.extract_slice %a[0] [14] [1] : !dd to !v
    %to, %ts = dist.local_target_of_slice %a[1] [14] [1] : !dd
    %lr = dist.repartition %l offset %to size %ts : !v -> !v
    %i = arith.index_cast %it : index to i64
    %f = arith.sitofp %i : i64 to f64
    %fa = ndarray.create value %f : !ndarray.ndarray<f64>
    %s = ndarray.ewbin add %lr, %fa : (!v, !ndarray.ndarray<f64>) -> !v
    %w = ndarray.immutable_insert_slice %s into %a[1] [14] [1] : !v into !dd
    %n = ndarray.cast %w : !dd to !d
    scf.yield %n : !d
  }
  %r1 = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0) -> (!d) {
    %a = ndarray.cast %u : !d to !dd
    %l = ndarray.extract_slice %a[0] [14] [1] : !dd to !v
    %to, %ts = dist.local_target_of_slice %a[1] [14] [1] : !dd
    %lr = dist.repartition %l offset %to size %ts : !v -> !v
    %m = ndarray.reduction max %lr : !v -> !ndarray.ndarray<f64>
    %s = ndarray.ewbin add %lr, %m : (!v, !ndarray.ndarray<f64>) -> !v
    %w = ndarray.immutable_insert_slice %s into %a[1] [14] [1] : !v into !dd
    %n = ndarray.cast %w : !dd to !d
    scf.yield %n : !d
  }
  %r2 = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0) -> (!d) {
    %a = ndarray.cast %u : !d to !dd
    %c = ndarray.extract_slice %a[1] [14] [1] : !dd to !v
    %s = ndarray.ewbin add %c, %x : (!v, !ndarray.ndarray<f64>) -> !v
    %w = ndarray.immutable_insert_slice %s into %a[1] [14] [1] : !v into !dd
    %n = ndarray.cast %w : !dd to !d
    scf.yield %n : !d
  }
  return %r0, %r1, %r2 : !d, !d, !d
}

// -----

!g = !ndarray.ndarray<8x8xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!gd = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
!gv = !ndarray.ndarray<6x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>

// On a 2-D grid of ranks the block is widened along both split axes: k is
// limited by the extent per rank of each grid dimension, and each block of
// steps fetches the 8 boxes around the owned block (faces, edges, corners).
// CHECK-LABEL: func.func @grid
// CHECK-DAG: distruntime.grid_dim team = 1 ndims = 2 dim = 0
// CHECK-DAG: distruntime.grid_dim team = 1 ndims = 2 dim = 1
// CHECK: %[[OFF:.*]]:2 = dist.local_offsets_of
// CHECK: scf.for
// CHECK:   distruntime.fetch_boxes %{{.*}} global_shape[%c8, %c8] local_offsets[%[[OFF]]#0, %[[OFF]]#1] box_offsets[{{([^,]*, ){15}[^,]*}}]
// CHECK-SAME: -> !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>{{$}}
// CHECK-COUNT-16: ndarray.immutable_insert_slice
// CHECK: scf.for
// CHECK: dist.init_dist_array %{{.*}} offsets(%[[OFF]]#0, %[[OFF]]#1) shape(%c8, %c8) spare_rows [4, 4]
func.func @grid(%u0: !g, %steps: index) -> !g {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %it = %c0 to %steps step %c1 iter_args(%u = %u0) -> (!g) {
    %a = ndarray.cast %u : !g to !gd
    %n = ndarray.extract_slice %a[0, 1] [6, 6] [1, 1] : !gd to !gv
    %w = ndarray.extract_slice %a[1, 0] [6, 6] [1, 1] : !gd to !gv
    %s = ndarray.ewbin add %n, %w : (!gv, !gv) -> !gv
    %i = ndarray.immutable_insert_slice %s into %a[1, 1] [6, 6] [1, 1] : !gv into !gd
    %c = ndarray.cast %i : !gd to !g
    scf.yield %c : !g
  }
  return %r : !g
}
