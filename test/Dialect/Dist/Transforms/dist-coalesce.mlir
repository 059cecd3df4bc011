// RUN: imex-opt %s -dist-coalesce -split-input-file | FileCheck %s

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// A 3-point stencil as ndarray-dist aligns it: the result of the first add
// is repartitioned to the rows the insert writes. The repartitions move to
// the views; the view u[1:] of the written slice needs none (its target
// rows are the rows it owns), and the other views of %u share one exchange
// of %u covering the rows both read.
// CHECK-LABEL: func.func @stencil
// CHECK-SAME: (%[[U:.*]]: !ndarray.ndarray
// CHECK: %[[C:.*]] = ndarray.extract_slice %[[U]][1]
// CHECK: %[[TO:.*]], %[[TS:.*]] = dist.local_target_of_slice %[[U]][1] [%{{.*}}] [1]
// CHECK: %[[B0:.*]], %[[S0:.*]] = dist.local_bounding_box view[%{{.*}}] [%{{.*}}] [%{{.*}}] target[%[[TO]]] [%[[TS]]]
// CHECK: %[[B1:.*]], %[[S1:.*]] = dist.local_bounding_box {{.*}} target[%[[TO]]] [%[[TS]]] bb[%[[B0]]] [%[[S0]]]
// CHECK: %[[X:.*]] = dist.repartition %[[U]] offset %[[B1]] size %[[S1]]
// CHECK-NOT: dist.repartition
// CHECK: %[[L:.*]] = ndarray.extract_slice %[[X]][0]
// CHECK: %[[LR:.*]] = dist.local_repartition %[[L]] offset %[[TO]] size %[[TS]]
// CHECK: %[[R:.*]] = ndarray.extract_slice %[[X]][2]
// CHECK: %[[RR:.*]] = dist.local_repartition %[[R]] offset %[[TO]] size %[[TS]]
// CHECK: %[[LRS:.*]] = ndarray.ewbin add %[[LR]], %[[RR]]
// CHECK: %[[SUM:.*]] = ndarray.ewbin subtract %[[LRS]], %[[C]]
// CHECK: ndarray.immutable_insert_slice %[[SUM]] into %[[U]][1]
func.func @stencil(%u: !d, %m: index) -> !d {
  %c0 = arith.constant 0 : index
  %l = ndarray.extract_slice %u[0] [%m] [1] : !d to !d
  %r = ndarray.extract_slice %u[2] [%m] [1] : !d to !d
  %c = ndarray.extract_slice %u[1] [%m] [1] : !d to !d
  %n = ndarray.dim %l, %c0 : !d
  %lo, %ls = dist.local_target_of_slice %l[0] [%n] [1] : !d
  %r2 = dist.repartition %r offset %lo size %ls : !d -> !d
  %lr = ndarray.ewbin add %l, %r2 : (!d, !d) -> !d
  %k = ndarray.dim %lr, %c0 : !d
  %so, %ss = dist.local_target_of_slice %lr[0] [%k] [1] : !d
  %c2 = dist.repartition %c offset %so size %ss : !d -> !d
  %sum = ndarray.ewbin subtract %lr, %c2 : (!d, !d) -> !d
  %to, %ts = dist.local_target_of_slice %u[1] [%m] [1] : !d
  %sum2 = dist.repartition %sum offset %to size %ts : !d -> !d
  %new = ndarray.immutable_insert_slice %sum2 into %u[1] [%m] [1] : !d into !d
  return %new : !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// A write creates a new array: views of the array before and after it are
// exchanged separately (never merged across the write).
// CHECK-LABEL: func.func @write_between_reads
// CHECK-SAME: (%[[U:[^:]*]]: !ndarray.ndarray
// CHECK: dist.repartition %{{.*}} offset
// CHECK: %[[U2:.*]] = ndarray.immutable_insert_slice
// CHECK: %[[V:.*]] = ndarray.extract_slice %[[U2]][1]
// CHECK: dist.repartition %[[V]] offset
// CHECK-NOT: dist.local_repartition
func.func @write_between_reads(%u: !d, %v: !d, %m: index, %o: index, %s: index) -> (!d, !d) {
  %a = ndarray.extract_slice %u[1] [%m] [1] : !d to !d
  %a2 = dist.repartition %a offset %o size %s : !d -> !d
  %u2 = ndarray.immutable_insert_slice %v into %u[0] [%m] [1] : !d into !d
  %b = ndarray.extract_slice %u2[1] [%m] [1] : !d to !d
  %b2 = dist.repartition %b offset %o size %s : !d -> !d
  return %a2, %b2 : !d, !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// Views of different arrays need their own exchanges.
// CHECK-LABEL: func.func @different_arrays
// CHECK-SAME: (%[[U:[^:]*]]: !ndarray.ndarray{{.*}}, %[[W:[^:]*]]: !ndarray.ndarray
// CHECK: %[[A:.*]] = ndarray.extract_slice %[[U]]
// CHECK: dist.repartition %[[A]]
// CHECK: %[[B:.*]] = ndarray.extract_slice %[[W]]
// CHECK: dist.repartition %[[B]]
// CHECK-NOT: dist.local_repartition
func.func @different_arrays(%u: !d, %w: !d, %m: index, %o: index, %s: index) -> !d {
  %a = ndarray.extract_slice %u[1] [%m] [1] : !d to !d
  %a2 = dist.repartition %a offset %o size %s : !d -> !d
  %b = ndarray.extract_slice %w[1] [%m] [1] : !d to !d
  %b2 = dist.repartition %b offset %o size %s : !d -> !d
  %r = ndarray.ewbin add %a2, %b2 : (!d, !d) -> !d
  return %r : !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// An elementwise result that is also read by a non-elementwise op (here a
// reduction) is computed once and repartitioned: moving the repartition to
// its operands would compute it twice.
// CHECK-LABEL: func.func @other_data_user
// CHECK: %[[E:.*]] = ndarray.ewbin multiply
// CHECK: ndarray.reduction sum %[[E]]
// CHECK: dist.repartition %[[E]]
func.func @other_data_user(%a: !d, %o: index, %s: index) -> (!d, !ndarray.ndarray<f64>) {
  %e = ndarray.ewbin multiply %a, %a : (!d, !d) -> !d
  %t = ndarray.reduction sum %e : !d -> !ndarray.ndarray<f64>
  %r = dist.repartition %e offset %o size %s : !d -> !d
  return %r, %t : !d, !ndarray.ndarray<f64>
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// Repartitions of repartitions collapse; a repartition to the rows an array
// already holds is removed.
// CHECK-LABEL: func.func @collapse_and_drop
// CHECK-SAME: (%[[A:[^:]*]]: !ndarray.ndarray{{.*}}, %[[O1:.*]]: index, %[[S1:.*]]: index, %[[O2:.*]]: index, %[[S2:.*]]: index)
// CHECK-NEXT: %[[R:.*]] = dist.repartition %[[A]] offset %[[O2]] size %[[S2]]
// CHECK-NEXT: return %[[R]]
func.func @collapse_and_drop(%a: !d, %o1: index, %s1: index, %o2: index, %s2: index) -> !d {
  %r1 = dist.repartition %a offset %o1 size %s1 : !d -> !d
  %r2 = dist.repartition %r1 offset %o2 size %s2 : !d -> !d
  %r3 = dist.repartition %r2 offset %o2 size %s2 : !d -> !d
  return %r3 : !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// An operand broadcast along dimension 0 (its rows are selected at run
// time) does not hold the rows of the result: the repartition stays.
// CHECK-LABEL: func.func @broadcast_operand
// CHECK: %[[E:.*]] = ndarray.ewbin add
// CHECK-NEXT: dist.repartition %[[E]]
func.func @broadcast_operand(%a: !d, %b: !d, %o: index, %s: index, %c: i1) -> !d {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = ndarray.dim %a, %c0 : !d
  %ao, %as = dist.local_target_of_slice %a[0] [%n] [1] : !d
  %bo = arith.select %c, %c0, %ao : index
  %bs = arith.select %c, %c1, %as : index
  %b2 = dist.repartition %b offset %bo size %bs : !d -> !d
  %e = ndarray.ewbin add %a, %b2 : (!d, !d) -> !d
  %r = dist.repartition %e offset %o size %s : !d -> !d
  return %r : !d
}

// -----

!d = !ndarray.ndarray<100x8xf64, #dist.dist_env<team = 1>>
!row = !ndarray.ndarray<1x8xf64, #dist.dist_env<team = 1>>
!rows = !ndarray.ndarray<?x8xf64, #dist.dist_env<team = 1>>

// Gathers of views (every rank requests all rows of the view, as for a[0]
// and a[-1]) are not merged: their bounding box would be the whole array.
// CHECK-LABEL: func.func @gathers_of_rows
// CHECK: %[[F:.*]] = ndarray.subview %{{.*}}[0, 0]
// CHECK: dist.repartition %[[F]] offset %{{.*}} size %{{.*}} :
// CHECK: %[[L:.*]] = ndarray.subview %{{.*}}[99, 0]
// CHECK: dist.repartition %[[L]] offset %{{.*}} size %{{.*}} :
// CHECK: %[[V:.*]] = ndarray.subview %{{.*}}[%{{.*}}, 0]
// CHECK: dist.repartition %[[V]] offset %{{.*}} size %{{.*}} :
// CHECK-NOT: dist.local_repartition
func.func @gathers_of_rows(%u: !d, %i: index, %n: index) -> (!row, !row, !rows) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = ndarray.subview %u[0, 0] [1, 8] [1, 1] : !d to !row
  %f = dist.repartition %first offset %c0 size %c1 : !row -> !row
  %last = ndarray.subview %u[99, 0] [1, 8] [1, 1] : !d to !row
  %l = dist.repartition %last offset %c0 size %c1 : !row -> !row
  %some = ndarray.subview %u[%i, 0] [%n, 8] [1, 1] : !d to !rows
  %rows = ndarray.dim %some, %c0 : !rows
  %s = dist.repartition %some offset %c0 size %rows : !rows -> !rows
  return %f, %l, %s : !row, !row, !rows
}

// -----

!d = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
!l = !ndarray.ndarray<?x4xf64>

// Rows an array owns because its storage was created in a default
// partition (through updates and the loop that carries it): a repartition
// of it to that partition is dropped.
// CHECK-LABEL: func.func @owned_default_partition
// CHECK-NOT: dist.repartition
// CHECK: dist.owned_block_of %{{.*}} : !ndarray.ndarray<?x4xf64, #dist.dist_env
func.func @owned_default_partition(%n: index, %steps: index, %x: !ndarray.ndarray<f64>) -> !l {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %p = distruntime.team_size team = 1
  %r = distruntime.team_member team = 1
  %off, %size = dist.default_partition %p, %r shape(%n)
  %o = ndarray.create(%size) : !l
  %u = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !l -> !d
  %v = scf.for %i = %c0 to %steps step %c1 iter_args(%w = %u) -> (!d) {
    %w2 = ndarray.immutable_insert_slice %x into %w[0, 0] [%n, 4] [1, 1] : !ndarray.ndarray<f64> into !d
    scf.yield %w2 : !d
  }
  %b = dist.repartition %v offset %off size %size : !d -> !d
  %block = dist.owned_block_of %b : !d -> !l
  return %block : !l
}

// -----

!d = !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>

// An update of a view owns the rows the view owns: its repartition to the
// target rows of the same slice of the base is dropped.
// CHECK-LABEL: func.func @updated_view
// CHECK-NOT: dist.repartition
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[1, 0]
func.func @updated_view(%u: !d, %m: index, %x: !ndarray.ndarray<f64>) -> !d {
  %v = ndarray.extract_slice %u[1, 0] [%m, 4] [1, 1] : !d to !d
  %w = ndarray.immutable_insert_slice %x into %v[0, 0] [%m, 4] [1, 1] : !ndarray.ndarray<f64> into !d
  %to:2, %ts:2 = dist.local_target_of_slice %u[1, 0] [%m, 4] [1, 1] : !d
  %r = dist.repartition %w offset %to#0 size %ts#0 : !d -> !d
  %y = ndarray.immutable_insert_slice %r into %u[1, 0] [%m, 4] [1, 1] : !d into !d
  return %y : !d
}

// -----

// Requests of one array whose rows depend on an update computed from an
// earlier request of it (the rows of `%u`, an update of `%w` with `%a`'s
// rows, decide what the last request of `%a` fetches): that request cannot
// join the first exchange (hoisting its rows would put the update's own
// request of `%a` before the exchange replacing it: "operand does not
// dominate its use"). The first two merge, the last is exchanged alone.
!m = !ndarray.ndarray<8x8xf64, #dist.dist_env<team = 1>>
// CHECK-LABEL: func.func @request_after_dependent_update
// CHECK: %[[X:.*]] = dist.repartition %[[A:[^ ]*]] offset
// CHECK: dist.local_repartition %[[X]]
// CHECK: dist.local_repartition %[[X]]
// CHECK: ndarray.immutable_insert_slice
// CHECK: %[[Y:.*]] = dist.repartition %[[A]] offset
// CHECK: ndarray.ewbin add %{{.*}}, %[[Y]]
func.func @request_after_dependent_update(%a: !m, %v: !m, %w: !m) -> !m {
  %o1:2, %s1:2 = dist.local_target_of_slice %v[0, 0] [8, 8] [1, 1] : !m
  %r1 = dist.repartition %a offset %o1#0 size %s1#0 : !m -> !m
  %e1 = ndarray.ewbin add %v, %r1 : (!m, !m) -> !m
  %o2:2, %s2:2 = dist.local_target_of_slice %w[0, 0] [8, 8] [1, 1] : !m
  %r2 = dist.repartition %a offset %o2#0 size %s2#0 : !m -> !m
  %e2 = ndarray.ewbin add %e1, %r2 : (!m, !m) -> !m
  %u = ndarray.immutable_insert_slice %e2 into %w[0, 0] [8, 8] [1, 1] : !m into !m
  %o3:2, %s3:2 = dist.local_target_of_slice %u[0, 0] [8, 8] [1, 1] : !m
  %r3 = dist.repartition %a offset %o3#0 size %s3#0 : !m -> !m
  %e3 = ndarray.ewbin add %u, %r3 : (!m, !m) -> !m
  return %e3 : !m
}

// -----

!c = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
!d = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>

// An array redistributed to rows owns the rows of the default partition of
// its global rows: a repartition to the rows an array created in that
// partition owns (the target of a whole-array slice of it) is removed, and
// the redistribution writes them once.
// CHECK-LABEL: func.func @redistributed_to_owned_rows
// CHECK: %[[R:.*]] = dist.redistribute
// CHECK-NOT: dist.repartition
// CHECK: ndarray.immutable_insert_slice %[[R]]
// Other rows of a redistribution read by nothing else are fetched from the
// blocks of its source (one move of each element, not two).
// CHECK-LABEL: func.func @redistributed_other_rows
// CHECK: %[[X:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK-NOT: dist.redistribute
// CHECK: dist.repartition %[[X]] offset {{.*}} : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
func.func @redistributed_to_owned_rows(%xblock: !ndarray.ndarray<?x?xf64>, %xo: index, %block: !ndarray.ndarray<?x?xf64>, %n: index) -> !d {
  %p = distruntime.team_size team = 1
  %me = distruntime.team_member team = 1
  %off:2, %size:2 = dist.default_partition %p, %me shape(%n, %n)
  %b = dist.init_dist_array %block offsets(%off#0, %off#1) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !d
  %c0 = arith.constant 0 : index
  %x = dist.init_dist_array %xblock offsets(%c0, %xo) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !c
  %r = dist.redistribute %x : !c -> !d
  %to:2, %ts:2 = dist.local_target_of_slice %b[0, 0] [%n, %n] [1, 1] : !d
  %r2 = dist.repartition %r offset %to#0 size %ts#0 : !d -> !d
  %new = ndarray.immutable_insert_slice %r2 into %b[0, 0] [%n, %n] [1, 1] : !d into !d
  return %new : !d
}
// (The rows of %b are the default partition of %m rows, not of %x's.)
func.func @redistributed_other_rows(%xblock: !ndarray.ndarray<?x?xf64>, %xo: index, %block: !ndarray.ndarray<?x?xf64>, %n: index, %m: index) -> !d {
  %p = distruntime.team_size team = 1
  %me = distruntime.team_member team = 1
  %off:2, %size:2 = dist.default_partition %p, %me shape(%m, %n)
  %b = dist.init_dist_array %block offsets(%off#0, %off#1) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !d
  %c0 = arith.constant 0 : index
  %x = dist.init_dist_array %xblock offsets(%c0, %xo) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !c
  %r = dist.redistribute %x : !c -> !d
  %to:2, %ts:2 = dist.local_target_of_slice %b[0, 0] [%n, %n] [1, 1] : !d
  %r2 = dist.repartition %r offset %to#0 size %ts#0 : !d -> !d
  %new = ndarray.immutable_insert_slice %r2 into %b[0, 0] [%n, %n] [1, 1] : !d into !d
  return %new : !d
}

// -----

!c = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
!d = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>

// A view of rows [1, n - 1) (all columns) of an array split on columns,
// redistributed to rows and repartitioned to the rows an insert writes:
// the rows of the array are fetched (offset by the view's first row), the
// view taken of them, and its rows held locally. The rows of a view of
// some columns only are fetched from the view.
// CHECK-LABEL: func.func @redistributed_rows_view
// CHECK-SAME: (%{{[^:]*}}: !ndarray.ndarray<?x?xf64>, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index, %[[O:[^:]*]]: index, %[[S:[^:]*]]: index)
// CHECK: %[[X:.*]] = dist.init_dist_array
// CHECK: %[[ROW:.*]] = arith.addi %[[O]], %c1
// CHECK: %[[F:.*]] = dist.repartition %[[X]] offset %[[ROW]] size %[[S]] : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK: %[[V:.*]] = ndarray.subview %[[F]][1, 0] [%[[M]], %[[N]]] [1, 1] : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> to !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK: %[[R:.*]] = dist.local_repartition %[[V]] offset %[[O]] size %[[S]]
// CHECK: return %[[R]]
// CHECK-LABEL: func.func @redistributed_column_view
// CHECK: %[[CV:.*]] = ndarray.subview
// CHECK-NEXT: dist.repartition %[[CV]] {{.*}} split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK-NOT: dist.local_repartition
func.func @redistributed_rows_view(%block: !ndarray.ndarray<?x?xf64>, %n: index, %m: index, %o: index, %s: index) -> !d {
  %c0 = arith.constant 0 : index
  %x = dist.init_dist_array %block offsets(%c0, %o) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !c
  %v = ndarray.subview %x[1, 0] [%m, %n] [1, 1] : !c to !c
  %r = dist.redistribute %v : !c -> !d
  %r2 = dist.repartition %r offset %o size %s : !d -> !d
  return %r2 : !d
}
func.func @redistributed_column_view(%x: !c, %n: index, %m: index, %o: index, %s: index) -> !d {
  %v = ndarray.subview %x[1, 1] [%m, %m] [1, 1] : !c to !c
  %r = dist.redistribute %v : !c -> !d
  %r2 = dist.repartition %r offset %o size %s : !d -> !d
  return %r2 : !d
}
