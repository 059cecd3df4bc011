// RUN: imex-opt %s -ndarray-dist -split-input-file | FileCheck %s

// A creation op with a team allocates only this rank's block of the default
// partition and binds it into a distributed array.
// CHECK-LABEL: func.func @create
// CHECK: %[[NP:.*]] = distruntime.team_size team = 1
// CHECK: %[[ME:.*]] = distruntime.team_member team = 1
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.default_partition %[[NP]], %[[ME]] shape(%{{.*}})
// CHECK: %[[OWN:.*]] = ndarray.create(%[[SIZE]]) value %{{.*}} : !ndarray.ndarray<?x4xf64>
// CHECK: dist.init_dist_array %[[OWN]] offsets(%[[OFF]], %{{.*}}) shape(%{{.*}}, %{{.*}})
// CHECK-SAME: -> !ndarray.ndarray<10x4xf64, #dist.dist_env<team = 1>>
// CHECK-NOT: dist.team
func.func @create() -> index {
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f64
  %a = ndarray.create value %v {dist.team = 1 : i64} : !ndarray.ndarray<10x4xf64>
  %d = ndarray.dim %a, %c0 : !ndarray.ndarray<10x4xf64>
  return %d : index
}

// -----

// Shifted views of one array: the first view is the anchor (its own rows
// are computed here, no communication); the other is repartitioned to them.
// CHECK-LABEL: func.func @stencil
// CHECK: %[[A:.*]] = dist.init_dist_array
// CHECK: %[[L:.*]] = ndarray.subview %[[A]][2] [8] [1]
// CHECK: %[[R:.*]] = ndarray.subview %[[A]][0] [8] [1]
// CHECK: %[[TO:.*]], %[[TS:.*]] = dist.local_target_of_slice %[[L]][0] [8] [1]
// CHECK: %[[RR:.*]] = dist.repartition %[[R]] offset %[[TO]] size %[[TS]]
// CHECK: ndarray.ewbin add %[[L]], %[[RR]]
func.func @stencil(%x: !ndarray.ndarray<10xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<10xf64> -> !ndarray.ndarray<10xf64>
  %l = ndarray.subview %a[2] [8] [1] : !ndarray.ndarray<10xf64> to !ndarray.ndarray<8xf64>
  %r = ndarray.subview %a[0] [8] [1] : !ndarray.ndarray<10xf64> to !ndarray.ndarray<8xf64>
  %s = ndarray.ewbin add %l, %r : (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) -> !ndarray.ndarray<8xf64>
  %e = ndarray.load %s[%c0] : !ndarray.ndarray<8xf64>
  return %e : f64
}

// -----

// Reductions over dimension 0 are replicated; reading one element gathers
// it from its owner.
// CHECK-LABEL: func.func @reduce_and_load
// CHECK: ndarray.reduction sum %{{.*}} axes [0] : !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<3xf64>
// CHECK: ndarray.reduction sum %{{.*}} axes [1] : !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<6xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[V:.*]] = ndarray.subview %{{.*}}[%{{.*}}] [1] [1]
// CHECK: %[[G:.*]] = dist.repartition %[[V]] offset %{{.*}} size %{{.*}}
// CHECK: dist.held_block_of %[[G]]
// CHECK: ndarray.load
func.func @reduce_and_load(%x: !ndarray.ndarray<6x3xf64>, %i: index) -> (!ndarray.ndarray<3xf64>, f64) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<6x3xf64>
  %s = ndarray.reduction sum %a axes [0] : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<3xf64>
  %t = ndarray.reduction sum %a axes [1] : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<6xf64>
  %e = ndarray.load %t[%i] : !ndarray.ndarray<6xf64>
  return %s, %e : !ndarray.ndarray<3xf64>, f64
}

// -----

// A loop carrying a distributed array carries it distributed.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>)
func.func @loop(%n: index, %k: index) -> !ndarray.ndarray<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %r = scf.for %i = %c0 to %k step %c1 iter_args(%x = %a) -> !ndarray.ndarray<?xf64> {
    %y = ndarray.ewbin add %x, %x : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    scf.yield %y : !ndarray.ndarray<?xf64>
  }
  %s = ndarray.reduction sum %r : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  return %s : !ndarray.ndarray<f64>
}

// -----

// Unit dimensions added or removed after dimension 0 keep each rank's rows:
// no communication. At dimension 0 the split dimension moves: gathered.
// CHECK-LABEL: func.func @unit_dims
// CHECK-NOT: dist.repartition
// CHECK: ndarray.expand_dims %{{.*}} [1, 3] : !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<6x1x3x1xf64, #dist.dist_env<{{.*}}>>
// CHECK-NOT: dist.repartition
// CHECK: ndarray.squeeze %{{.*}} [1] : !ndarray.ndarray<6x1x3x1xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<6x3x1xf64, #dist.dist_env<{{.*}}>>
// CHECK: dist.repartition
// CHECK: ndarray.expand_dims %{{.*}} [0] : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<1x6x3xf64>
func.func @unit_dims(%x: !ndarray.ndarray<6x3xf64>) -> (tensor<6x3x1xf64>, tensor<1x6x3xf64>) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<6x3xf64>
  %e = ndarray.expand_dims %a [1, 3] : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<6x1x3x1xf64>
  %s = ndarray.squeeze %e [1] : !ndarray.ndarray<6x1x3x1xf64> -> !ndarray.ndarray<6x3x1xf64>
  %r = ndarray.expand_dims %a [0] : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<1x6x3xf64>
  %ts = ndarray.to_tensor %s : !ndarray.ndarray<6x3x1xf64> -> tensor<6x3x1xf64>
  %tr = ndarray.to_tensor %r : !ndarray.ndarray<1x6x3xf64> -> tensor<1x6x3xf64>
  return %ts, %tr : tensor<6x3x1xf64>, tensor<1x6x3xf64>
}

// -----

// broadcast_to keeping dimension 0 is computed on each rank's rows; adding
// a leading dimension moves the split dimension: gathered.
// CHECK-LABEL: func.func @broadcasts
// CHECK-NOT: dist.repartition
// CHECK: ndarray.broadcast_to %{{.*}} : !ndarray.ndarray<6x1xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>>
// CHECK: dist.repartition
// CHECK: ndarray.broadcast_to %{{.*}} : !ndarray.ndarray<6x1xf64> -> !ndarray.ndarray<2x6x1xf64>
func.func @broadcasts(%x: !ndarray.ndarray<6x1xf64>) -> (tensor<6x3xf64>, tensor<2x6x1xf64>) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x1xf64> -> !ndarray.ndarray<6x1xf64>
  %b = ndarray.broadcast_to %a : !ndarray.ndarray<6x1xf64> -> !ndarray.ndarray<6x3xf64>
  %c = ndarray.broadcast_to %a : !ndarray.ndarray<6x1xf64> -> !ndarray.ndarray<2x6x1xf64>
  %tb = ndarray.to_tensor %b : !ndarray.ndarray<6x3xf64> -> tensor<6x3xf64>
  %tc = ndarray.to_tensor %c : !ndarray.ndarray<2x6x1xf64> -> tensor<2x6x1xf64>
  return %tb, %tc : tensor<6x3xf64>, tensor<2x6x1xf64>
}

// -----

// A dynamic dimension 0 sized by the source's own ndarray.dim is not
// broadcast: each rank broadcasts its rows (other sizes may be anything).
// CHECK-LABEL: func.func @broadcast_keeping_dynamic_rows
// CHECK-NOT: dist.repartition
// CHECK: ndarray.broadcast_to %{{.*}} : !ndarray.ndarray<?x?xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<{{.*}}>>
func.func @broadcast_keeping_dynamic_rows(%x: !ndarray.ndarray<?x?xf64>, %m: index) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %n = ndarray.dim %a, %c0 : !ndarray.ndarray<?x?xf64>
  %b = ndarray.broadcast_to %a(%n, %m) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %t = ndarray.to_tensor %b : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  return %t : tensor<?x?xf64>
}

// -----

// Concatenation along dimension 0: this rank's block of the result (default
// partition of the total rows) gets each operand's rows that fall into it,
// by a repartition of the distributed operand to those rows and a slice of
// the replicated one; the pieces are concatenated locally.
// CHECK-LABEL: func.func @row_concat
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.default_partition %{{.*}}, %{{.*}} shape(%c10)
// CHECK: %[[BOX:.*]] = dist.repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[A:.*]] = dist.held_block_of %[[BOX]]
// CHECK: %[[R:.*]] = ndarray.subview %{{.*}}[%{{.*}}, 0] [%{{.*}}, 3] [1, 1] : !ndarray.ndarray<4x3xf64> to !ndarray.ndarray<?x3xf64>
// CHECK: %[[OWN:.*]] = ndarray.concat %[[A]], %[[R]] axis 0
// CHECK: dist.init_dist_array %{{.*}} offsets(%[[OFF]], %{{.*}}) shape(%c10{{.*}}, %c3{{.*}}) {{.*}} -> !ndarray.ndarray<10x3xf64, #dist.dist_env<{{.*}}>>
func.func @row_concat(%x: !ndarray.ndarray<6x3xf64>, %r: !ndarray.ndarray<4x3xf64>) -> tensor<10x3xf64> {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x3xf64> -> !ndarray.ndarray<6x3xf64>
  %c = ndarray.concat %a, %r axis 0 : (!ndarray.ndarray<6x3xf64>, !ndarray.ndarray<4x3xf64>) -> !ndarray.ndarray<10x3xf64>
  %t = ndarray.to_tensor %c : !ndarray.ndarray<10x3xf64> -> tensor<10x3xf64>
  return %t : tensor<10x3xf64>
}

// -----

// A matrix product with a 2-d lhs computes this rank's rows of the result
// from its rows of lhs (a repartition to the default partition, a no-op
// when lhs has it) and the whole rhs (gathered); a 1-d lhs contracts the
// split dimension: each rank multiplies its share of the vector by its rows
// of the matrix, an allreduce sums the partial products.
// CHECK-LABEL: func.func @row_matmul
// CHECK: dist.init_dist_array {{.*}} -> !ndarray.ndarray<4xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.default_partition %{{.*}}, %{{.*}} shape(%c6
// CHECK: dist.repartition %{{.*}} offset %[[OFF]] size %[[SIZE]] : !ndarray.ndarray<6x4xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[B:.*]] = dist.repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<4x3xf64, #dist.dist_env<{{.*}}>>
// CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<4x3xf64>) -> !ndarray.ndarray<?x3xf64>
// CHECK: dist.init_dist_array {{.*}} -> !ndarray.ndarray<6x3xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[P:.*]] = ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?x3xf64>) -> !ndarray.ndarray<3xf64>
// CHECK: distruntime.allreduce sum %[[P]] team = 1 : !ndarray.ndarray<3xf64>
func.func @row_matmul(%x: !ndarray.ndarray<6x4xf64>, %y: !ndarray.ndarray<4x3xf64>, %v: !ndarray.ndarray<4xf64>) -> (tensor<6x3xf64>, tensor<3xf64>) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x4xf64> -> !ndarray.ndarray<6x4xf64>
  %b = ndarray.copy %y {dist.team = 1 : i64} : !ndarray.ndarray<4x3xf64> -> !ndarray.ndarray<4x3xf64>
  %w = ndarray.copy %v {dist.team = 1 : i64} : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %c = ndarray.matmul %a, %b : (!ndarray.ndarray<6x4xf64>, !ndarray.ndarray<4x3xf64>) -> !ndarray.ndarray<6x3xf64>
  %r = ndarray.matmul %w, %b : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4x3xf64>) -> !ndarray.ndarray<3xf64>
  %tc = ndarray.to_tensor %c : !ndarray.ndarray<6x3xf64> -> tensor<6x3xf64>
  %tr = ndarray.to_tensor %r : !ndarray.ndarray<3xf64> -> tensor<3xf64>
  return %tc, %tr : tensor<6x3xf64>, tensor<3xf64>
}

// -----

// A distributed argument is this rank's block of the default partition; its
// global shape is held by the index arguments named by dist.shape (arrays
// sharing them are aligned). The updated argument is written back by rows.
// CHECK-LABEL: func.func @arguments
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %[[A:.*]]: !ndarray.ndarray<?x4xf64>, %[[B:.*]]: !ndarray.ndarray<?x4xf64>)
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.default_partition %{{.*}}, %{{.*}} shape(%[[N]])
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[B]][0, 0] [%[[SIZE]], 4] [1, 1]
// CHECK: dist.init_dist_array %[[OWNED]] offsets(%[[OFF]], %{{.*}}) shape(%[[N]], %[[M]])
// CHECK: ndarray.subview %[[A]][0, 0]
// CHECK: ndarray.ewbin add
// The final value is a version of %b: its owned part is the block's rows.
// CHECK: %[[V:.*]] = ndarray.immutable_insert_slice
// CHECK-NOT: dist.repartition
// CHECK: %[[P:.*]] = dist.owned_block_of %[[V]]
// CHECK: ndarray.insert_slice %[[P]] into %[[B]]
func.func @arguments(%n: index, %m: index,
    %a: !ndarray.ndarray<?x4xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1>},
    %b: !ndarray.ndarray<?x4xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1>}) {
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>) -> !ndarray.ndarray<?x4xf64>
  %c0 = arith.constant 0 : index
  %rows = ndarray.dim %b, %c0 : !ndarray.ndarray<?x4xf64>
  %v = ndarray.immutable_insert_slice %s into %b[0, 0] [%rows, 4] [1, 1] : !ndarray.ndarray<?x4xf64> into !ndarray.ndarray<?x4xf64>
  ndarray.insert_slice %v into %b[0, 0] [%rows, 4] [1, 1] : !ndarray.ndarray<?x4xf64> into !ndarray.ndarray<?x4xf64>
  return
}

// -----

// A stencil update is computed in this rank's rows of the destination slice:
// the shifted views are repartitioned to them, the insert needs nothing.
// CHECK-LABEL: func.func @stencil_rows
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.local_target_of_slice %[[U:.*]][1] [%[[K:.*]]] [1]
// CHECK: dist.repartition %{{.*}} offset %[[OFF]] size %[[SIZE]]
// CHECK: dist.repartition %{{.*}} offset %[[OFF]] size %[[SIZE]]
// CHECK: %[[S:.*]] = ndarray.ewbin add
// CHECK-NOT: dist.repartition
// CHECK: ndarray.immutable_insert_slice %[[S]] into %[[U]][1] [%[[K]]] [1]
func.func @stencil_rows(%n: index) -> tensor<?xf64> {
  %v = arith.constant 1.0 : f64
  %c2 = arith.constant 2 : index
  %u = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %k = arith.subi %n, %c2 : index
  %a = ndarray.subview %u[0] [%k] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %b = ndarray.subview %u[2] [%k] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %w = ndarray.immutable_insert_slice %s into %u[1] [%k] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  %t = ndarray.to_tensor %w : !ndarray.ndarray<?xf64> -> tensor<?xf64>
  return %t : tensor<?xf64>
}

// -----

// A copy to the team of an array already distributed over it (or of such a
// copy) is a distributed copy: each rank copies its block.
// CHECK-LABEL: func.func @copy_of_distributed
// CHECK: ndarray.copy %{{.*}} : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
// CHECK-NOT: dist.init_dist_array %{{.*}} : !ndarray.ndarray<?xf64, #dist.dist_env
func.func @copy_of_distributed(%n: index) -> f64 {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %b = ndarray.copy %a {dist.team = 1 : i64} : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %c = ndarray.copy %b {dist.team = 1 : i64} : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %s = ndarray.reduction sum %c : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %e = ndarray.load %s[] : !ndarray.ndarray<f64>
  return %e : f64
}

// -----

// Scans along dimension 0 stay distributed (no gather); with
// include_initial the scan follows a replicated row of the identity in a
// concatenation along dimension 0 (unsigned: created signless, then cast).
// CHECK-LABEL: func.func @scan
// CHECK-NOT: dist.gather
// CHECK: %[[S:.*]] = ndarray.cumulative sum %{{.*}} axis 0 : !ndarray.ndarray<?xi32, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<?xi64, #dist.dist_env<
// CHECK: %[[I:.*]] = ndarray.cumulative prod %{{.*}} axis 0 : !ndarray.ndarray<?xui8, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<?xui64, #dist.dist_env<
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: %[[ROW:.*]] = ndarray.create value %[[ONE]] : !ndarray.ndarray<1xi64>
// CHECK: %[[UROW:.*]] = ndarray.cast_elemtype %[[ROW]] : !ndarray.ndarray<1xi64> to !ndarray.ndarray<1xui64>
// CHECK: dist.repartition %[[I]]
// CHECK: ndarray.concat
// CHECK-NOT: dist.gather
// CHECK-NOT: include_initial
// CHECK: return
func.func @scan(%n: index, %v: i32) -> (i64, ui64) {
  %c0 = arith.constant 0 : index
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xi32>
  %s = ndarray.cumulative sum %a axis 0 : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xi64>
  %u = ndarray.cast_elemtype %a : !ndarray.ndarray<?xi32> to !ndarray.ndarray<?xui8>
  %i = ndarray.cumulative prod %u axis 0 include_initial : !ndarray.ndarray<?xui8> -> !ndarray.ndarray<?xui64>
  %x = ndarray.load %s[%c0] : !ndarray.ndarray<?xi64>
  %y = ndarray.load %i[%c0] : !ndarray.ndarray<?xui64>
  return %x, %y : i64, ui64
}

// -----

// Boolean indexing: each rank selects from its block (the mask's rows
// repartitioned to it) and keeps the selection; offsets from an exclusive
// scan of the counts, the size from their sum; no gather.
// CHECK-LABEL: func.func @masked_select
// CHECK-NOT: dist.gather
// CHECK: %[[SEL:.*]] = ndarray.masked_select %{{.*}}[%{{.*}}] : !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi1> -> !ndarray.ndarray<?x2xf64>
// CHECK: %[[N:.*]] = ndarray.dim %[[SEL]]
// CHECK: %[[C:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[COUNTS:.*]] = ndarray.create value %[[C]] : !ndarray.ndarray<1xi64>
// CHECK: distruntime.exscan sum %[[COUNTS]] team = 1
// CHECK: distruntime.allreduce sum %[[COUNTS]] team = 1
// CHECK: dist.init_dist_array %[[SEL]]
// CHECK-NOT: dist.gather
// CHECK: return
func.func @masked_select(%n: index, %v: f64, %b: i1) -> f64 {
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x2xf64>
  %m = ndarray.create(%n) value %b {dist.team = 1 : i64} : !ndarray.ndarray<?xi1>
  %s = ndarray.masked_select %a[%m] : !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi1> -> !ndarray.ndarray<?x2xf64>
  %t = ndarray.reduction sum %s : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %t[] : !ndarray.ndarray<f64>
  return %x : f64
}

// -----

// flip along the split dimension: this rank's block of the result is the
// repartitioned mirrored rows, flipped locally; along other axes the op
// stays on the distributed array (local on each block).
// CHECK-LABEL: func.func @flip
// CHECK-NOT: dist.gather
// CHECK: dist.default_partition
// CHECK: dist.repartition
// CHECK: ndarray.flip %{{.*}} [0] : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x2xf64>
// CHECK: ndarray.flip %{{.*}} [1] : !ndarray.ndarray<?x2xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<?x2xf64, #dist.dist_env<
// CHECK-NOT: dist.gather
// CHECK: return
func.func @flip(%n: index, %v: f64) -> (f64, f64) {
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x2xf64>
  %f = ndarray.flip %a [0] : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x2xf64>
  %g = ndarray.flip %a [1] : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x2xf64>
  %s = ndarray.reduction sum %f : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %t = ndarray.reduction sum %g : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  %y = ndarray.load %t[] : !ndarray.ndarray<f64>
  return %x, %y : f64, f64
}

// -----

// sort along the split axis of a 2-d array: the sort along the last axis of
// the transpose, transposed back (no gather); along another axis and of a
// 1-d array the sort stays as it is (local, resp. a sample sort in
// convert-dist-to-standard).
// CHECK-LABEL: func.func @sort
// CHECK-NOT: dist.gather
// CHECK: %[[T:.*]] = ndarray.permute_dims %{{.*}} [1, 0] : !ndarray.ndarray<?x3xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<3x?xf64, #dist.dist_env<{{.*}}>>
// CHECK: %[[S:.*]] = ndarray.argsort %[[T]] axis 1 descending : !ndarray.ndarray<3x?xf64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<3x?xi64, #dist.dist_env<{{.*}}>>
// CHECK: ndarray.permute_dims %[[S]] [1, 0] : !ndarray.ndarray<3x?xi64, #dist.dist_env<{{.*}}>> -> !ndarray.ndarray<?x3xi64, #dist.dist_env<{{.*}}>>
// CHECK: ndarray.sort %{{.*}} axis 1 : !ndarray.ndarray<?x3xf64, #dist.dist_env<{{.*}}>>
// CHECK-NOT: dist.gather
// CHECK: return
func.func @sort(%n: index, %v: f64) -> (i64, f64) {
  %c0 = arith.constant 0 : index
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x3xf64>
  %i = ndarray.argsort %a axis 0 descending : !ndarray.ndarray<?x3xf64> -> !ndarray.ndarray<?x3xi64>
  %s = ndarray.sort %a axis 1 : !ndarray.ndarray<?x3xf64> -> !ndarray.ndarray<?x3xf64>
  %x = ndarray.load %i[%c0, %c0] : !ndarray.ndarray<?x3xi64>
  %y = ndarray.load %s[%c0, %c0] : !ndarray.ndarray<?x3xf64>
  return %x, %y : i64, f64
}

// -----


// each rank into its rows (no communication); split ones are sent to the
// owners (this rank's block of the indices and values); along another axis
// each rank puts into its rows. No gather of the array.
// CHECK-LABEL: func.func @put
// CHECK-NOT: dist.gather
// CHECK: distruntime.put %{{.*}} into %{{.*}} offset %{{.*}} rows %{{.*}} indices %{{.*}} replicated team = 1 : (!ndarray.ndarray<2x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<?x2xf64>
// CHECK: %[[I:.*]] = ndarray.cast_elemtype %{{.*}} : !ndarray.ndarray<?xi32> to !ndarray.ndarray<?xi64>
// CHECK: distruntime.put %{{.*}} into %{{.*}} offset %{{.*}} rows %{{.*}} indices %[[I]] team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x2xf64>
// CHECK: ndarray.put %{{.*}} into %{{.*}}[%{{.*}}] axis 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<?x2xf64>
// CHECK-NOT: dist.gather
// CHECK: return
func.func @put(%n: index, %v: f64, %i0: !ndarray.ndarray<2xi64>, %w: !ndarray.ndarray<2x2xf64>, %idx: !ndarray.ndarray<?xi32>) -> f64 {
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x2xf64>
  %b = ndarray.put %w into %a[%i0] axis 0 : (!ndarray.ndarray<2x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<?x2xf64>
  %c0 = arith.constant 0 : index
  %m = ndarray.dim %idx, %c0 : !ndarray.ndarray<?xi32>
  %s = ndarray.create(%m) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x2xf64>
  %c = ndarray.put %s into %b[%idx] axis 0 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x2xf64>
  %d = ndarray.put %c into %c[%i0] axis 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<?x2xf64>
  %r = ndarray.reduction sum %d : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %r[] : !ndarray.ndarray<f64>
  return %x : f64
}

// -----

// take along the split axis of a split array: this rank's block of the
// indices (default partition), its rows fetched by distruntime.take; no
// gather of the array.
// CHECK-LABEL: func.func @take
// CHECK-NOT: dist.gather
// CHECK: %[[I:.*]] = ndarray.cast_elemtype %{{.*}} : !ndarray.ndarray<?xi32> to !ndarray.ndarray<?xi64>
// CHECK: distruntime.take %{{.*}} offset %{{.*}} rows %{{.*}} indices %[[I]] team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x2xf64>
// CHECK-NOT: dist.gather
// CHECK: return
func.func @take(%n: index, %v: f64, %idx: !ndarray.ndarray<?xi32>) -> f64 {
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x2xf64>
  %t = ndarray.take %a[%idx] axis 0 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x2xf64>
  %s = ndarray.reduction sum %t : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  return %x : f64
}

// -----

// With dist.ghost the argument is the block with spare rows around it (ghost
// cells of the caller): the owned block is the view after the rows before
// it, and the write-back goes to those rows.
// CHECK-LABEL: func.func @ghost_arguments
// CHECK: %[[OFF:.*]], %[[SIZE:.*]] = dist.default_partition
// CHECK: %[[OWNED:.*]] = ndarray.subview %[[U:.*]][2, 0] [%[[SIZE]], %{{.*}}] [1, 1]
// CHECK: dist.init_dist_array %[[OWNED]] offsets(%[[OFF]], %{{.*}}) shape(%{{.*}}, %{{.*}}) spare_rows [2, 1]
// CHECK: %[[P:.*]] = dist.owned_block_of
// CHECK: ndarray.insert_slice %[[P]] into %[[U]][2, 0] [%[[SIZE]], %{{.*}}] [1, 1]
func.func @ghost_arguments(%n: index, %m: index,
    %u: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1>, dist.ghost = array<i64: 2, 1>}) {
  %c2 = arith.constant 2 : index
  %k = arith.subi %n, %c2 : index
  %a = ndarray.subview %u[0, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %b = ndarray.subview %u[2, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %v = ndarray.immutable_insert_slice %s into %u[1, 0] [%k, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %v into %u[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// dist.split/dist.grid: the block of a grid of ranks (its shape from the
// attribute or, absent, from the team's size at run time).
// CHECK-LABEL: func.func @create_on_grid
// CHECK-DAG: %[[P0:.*]] = distruntime.grid_dim team = 1 ndims = 2 dim = 0
// CHECK-DAG: %[[P1:.*]] = distruntime.grid_dim team = 1 ndims = 2 dim = 1
// CHECK: %[[ME:.*]] = distruntime.team_member team = 1
// CHECK: %[[OFF:.*]]:2, %[[SIZE:.*]]:2 = dist.grid_partition %[[ME]] grid(%[[P0]], %[[P1]]) shape(%{{.*}}, %{{.*}}) split [0, 1]
// CHECK: %[[OWN:.*]] = ndarray.create(%[[SIZE]]#0, %[[SIZE]]#1) value %{{.*}} : !ndarray.ndarray<?x?xf64>
// CHECK: %[[A:.*]] = dist.init_dist_array %[[OWN]] offsets(%[[OFF]]#0, %[[OFF]]#1)
// CHECK-SAME: -> !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// A fixed grid: checked against the team's size.
// CHECK: %[[NP:.*]] = distruntime.team_size team = 1
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[NP]], %{{.*}}
// CHECK: cf.assert %[[OK]], "the grid of #dist.dist_env<team = 1, split = [1], grid = [3]> needs 3 ranks, but the team has fewer"
// CHECK: dist.grid_partition %{{.*}} grid(%{{.*}}) shape(%{{.*}}, %{{.*}}) split [1]
// CHECK: %[[B:.*]] = dist.init_dist_array
// CHECK-SAME: -> !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [1], grid = [3]>>
// Elementwise ops compute on the blocks of one distribution; the other
// operand is redistributed to it.
// CHECK: %[[BA:.*]] = dist.redistribute %[[B]] : {{.*}} -> !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[A]], %[[BA]] : {{.*}} -> !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// Reductions and permutations take the distribution they get: a reduction
// over a split axis is replicated, over others split like its source (the
// split axes renumbered); a permutation is distributed like its source.
// CHECK: ndarray.reduction sum %[[S]] axes [1] : !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [0, 1]>> -> !ndarray.ndarray<10xf64>
// CHECK: %[[T:.*]] = ndarray.permute_dims %[[S]] [1, 0] : {{.*}} -> !ndarray.ndarray<6x10xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.reduction max %[[C:.*]] axes [0] : !ndarray.ndarray<4x10x6xf64, #dist.dist_env<team = 1, split = [1, 2]>> -> !ndarray.ndarray<10x6xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.argreduce max %[[T]] axis 1 : !ndarray.ndarray<6x10xf64, #dist.dist_env<team = 1, split = [0, 1]>> -> !ndarray.ndarray<6xi64>
// Other ops see rows.
// CHECK: %[[R:.*]] = dist.redistribute %[[T]] : {{.*}} -> !ndarray.ndarray<6x10xf64, #dist.dist_env<team = 1>>
// CHECK: ndarray.reshape %[[R]] : !ndarray.ndarray<6x10xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<60xf64, #dist.dist_env<team = 1>>
// CHECK-NOT: dist.split
// CHECK-NOT: dist.grid =
func.func @create_on_grid() -> (tensor<10xf64>, tensor<6xi64>, tensor<10x6xf64>, tensor<60xf64>) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<10x6xf64>
  %b = ndarray.create value %v {dist.team = 1 : i64, dist.split = array<i64: 1>, dist.grid = array<i64: 3>} : !ndarray.ndarray<10x6xf64>
  %s = ndarray.ewbin add %a, %b : (!ndarray.ndarray<10x6xf64>, !ndarray.ndarray<10x6xf64>) -> !ndarray.ndarray<10x6xf64>
  %r = ndarray.reduction sum %s axes [1] : !ndarray.ndarray<10x6xf64> -> !ndarray.ndarray<10xf64>
  %t = ndarray.permute_dims %s [1, 0] : !ndarray.ndarray<10x6xf64> -> !ndarray.ndarray<6x10xf64>
  %c = ndarray.create value %v {dist.team = 1 : i64, dist.split = array<i64: 1, 2>} : !ndarray.ndarray<4x10x6xf64>
  %m = ndarray.reduction max %c axes [0] : !ndarray.ndarray<4x10x6xf64> -> !ndarray.ndarray<10x6xf64>
  %i = ndarray.argreduce max %t axis 1 : !ndarray.ndarray<6x10xf64> -> !ndarray.ndarray<6xi64>
  %rt = ndarray.to_tensor %r : !ndarray.ndarray<10xf64> -> tensor<10xf64>
  %it = ndarray.to_tensor %i : !ndarray.ndarray<6xi64> -> tensor<6xi64>
  %mt = ndarray.to_tensor %m : !ndarray.ndarray<10x6xf64> -> tensor<10x6xf64>
  %f = ndarray.reshape %t : !ndarray.ndarray<6x10xf64> -> !ndarray.ndarray<60xf64>
  %ft = ndarray.to_tensor %f : !ndarray.ndarray<60xf64> -> tensor<60xf64>
  return %rt, %it, %mt, %ft : tensor<10xf64>, tensor<6xi64>, tensor<10x6xf64>, tensor<60xf64>
}

// -----

// A copy asking for another distribution is a redistribution; replicated
// data copied into a distribution keeps its block (no communication).
// CHECK-LABEL: func.func @copy_redistributes
// CHECK: %[[G:.*]]:2, %[[S:.*]]:2 = dist.grid_partition
// CHECK: %[[V:.*]] = ndarray.subview %{{.*}}[0, %[[G]]#1] [6, %[[S]]#1] [1, 1]
// CHECK: %[[C:.*]] = dist.init_dist_array %[[V]] offsets(%{{.*}}, %[[G]]#1)
// CHECK-SAME: #dist.dist_env<team = 1, split = [1]>
// CHECK: %[[R:.*]] = dist.redistribute %[[C]] : {{.*}} -> !ndarray.ndarray<6x8xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 1]>>
// CHECK: ndarray.copy %[[R]] : {{.*}} -> !ndarray.ndarray<6x8xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 1]>>
func.func @copy_redistributes(%x: !ndarray.ndarray<6x8xf64>) -> tensor<6x8xf64> {
  %c = ndarray.copy %x {dist.team = 1 : i64, dist.split = array<i64: 1>} : !ndarray.ndarray<6x8xf64> -> !ndarray.ndarray<6x8xf64>
  %g = ndarray.copy %c {dist.team = 1 : i64, dist.split = array<i64: 0, 1>, dist.grid = array<i64: 2, 1>} : !ndarray.ndarray<6x8xf64> -> !ndarray.ndarray<6x8xf64>
  %t = ndarray.to_tensor %g : !ndarray.ndarray<6x8xf64> -> tensor<6x8xf64>
  return %t : tensor<6x8xf64>
}

// -----

// A result marked dist.team returns this rank's rows of the default
// partition: a row-split value's owned block; a grid value redistributed to
// rows first; a replicated value's rows of this rank.
// CHECK-LABEL: func.func @distributed_results
// CHECK-SAME: -> (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>)
// CHECK: %[[A:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
// CHECK: %[[G:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: %[[R:.*]] = ndarray.create(%{{.*}}) value %{{.*}} : !ndarray.ndarray<?x4xf64>
// CHECK: %[[AB:.*]] = dist.owned_block_of %[[A]] : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x4xf64>
// CHECK: %[[GR:.*]] = dist.redistribute %[[G]] : {{.*}} -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
// CHECK: %[[GB:.*]] = dist.owned_block_of %[[GR]]
// CHECK: dist.default_partition
// CHECK: %[[RR:.*]] = ndarray.subview %[[R]]
// CHECK: %[[RD:.*]] = dist.init_dist_array %[[RR]]
// CHECK: %[[RB:.*]] = dist.owned_block_of %[[RD]]
// CHECK: return %[[AB]], %[[GB]], %[[RB]]
// CHECK-NOT: dist.team
func.func @distributed_results(%n: index) -> (!ndarray.ndarray<?x4xf64> {dist.team = 1 : i64}, !ndarray.ndarray<?x4xf64> {dist.team = 1 : i64}, !ndarray.ndarray<?x4xf64> {dist.team = 1 : i64}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x4xf64>
  %g = ndarray.create(%n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x4xf64>
  %r = ndarray.create(%n) value %v : !ndarray.ndarray<?x4xf64>
  return %a, %g, %r : !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>
}

// -----

// A result with dist.split is this rank's block of that distribution: the
// grid array's own block (no redistribution), the rows redistributed, the
// replicated value distributed.
// CHECK-LABEL: func.func @grid_results
// CHECK-SAME: -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>)
// CHECK: %[[A:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK: %[[G:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-NOT: dist.redistribute %[[G]]
// CHECK: %[[AG:.*]] = dist.redistribute %[[A]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK: %[[AB:.*]] = dist.owned_block_of %[[AG]]
// CHECK: %[[GB:.*]] = dist.owned_block_of %[[G]]
// CHECK: dist.grid_partition
// CHECK: %[[RD:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [1, 2]>>
// CHECK: %[[RB:.*]] = dist.owned_block_of %[[RD]]
// CHECK: return %[[AB]], %[[GB]], %[[RB]]
// CHECK-NOT: dist.team
func.func @grid_results(%n: index) -> (!ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.split = array<i64: 1>}, !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.split = array<i64: 0, 1>}, !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.split = array<i64: 0, 1>, dist.grid = array<i64: 1, 2>}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n, %n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %g = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %r = ndarray.create(%n, %n) value %v : !ndarray.ndarray<?x?xf64>
  return %a, %g, %r : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
}

// -----

// A concatenation of a grid array with arrays in other distributions is
// distributed like the grid array; the other distributed operands are
// redistributed to it (a replicated one is not).
// CHECK-LABEL: func.func @mixed_grid_concat
// CHECK: %[[G:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: %[[C:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK: %[[CG:.*]] = dist.redistribute %[[C]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.concat %[[G]], %[[CG]], %{{.*}} axis 0 : (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
func.func @mixed_grid_concat(%n: index) -> tensor<?x?xf64> {
  %v = arith.constant 1.0 : f64
  %g = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %c = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 1>} : !ndarray.ndarray<?x?xf64>
  %r = ndarray.create(%n, %n) value %v : !ndarray.ndarray<?x?xf64>
  %a = ndarray.concat %g, %c, %r axis 0 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  return %t : tensor<?x?xf64>
}

// -----

// A matrix product of a grid matrix and a row-split one is distributed like
// the grid matrix; the second is redistributed to the grid (its panels are
// fetched from there), not both to rows.
// CHECK-LABEL: func.func @mixed_grid_matmul
// CHECK: %[[G:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: %[[R:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK: %[[RG:.*]] = dist.redistribute %[[R]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.matmul %[[G]], %[[RG]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
func.func @mixed_grid_matmul(%n: index) -> tensor<?x?xf64> {
  %v = arith.constant 1.0 : f64
  %g = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %r = ndarray.create(%n, %n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %p = ndarray.matmul %g, %r : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %t = ndarray.to_tensor %p : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  return %t : tensor<?x?xf64>
}

// -----

// A view with steps dropping axes of a grid array is a strided view keeping
// the rank (computed on the blocks) and a box view dropping the unit axes:
// no redistribution to rows.
// CHECK-LABEL: func.func @grid_strided_dropping_view
// CHECK-NOT: dist.redistribute
// CHECK: %[[K:.*]] = ndarray.subview %{{.*}}[1, %{{.*}}] [4, 1] [2, 1] : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>> to !ndarray.ndarray<4x1xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.subview %[[K]][0, 0] [4, 1] [1, 1] : !ndarray.ndarray<4x1xf64, #dist.dist_env<team = 1, split = [0, 1]>> to !ndarray.ndarray<4xf64>
func.func @grid_strided_dropping_view(%n: index, %j: index) -> tensor<4xf64> {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %s = ndarray.subview %a[1, %j] [4, 1] [2, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<4xf64>
  %t = ndarray.to_tensor %s : !ndarray.ndarray<4xf64> -> tensor<4xf64>
  return %t : tensor<4xf64>
}

// -----

// ndarray.dim of a grid array (e.g. from a bounds check) reads its global
// size where it is: no redistribution to rows.
// CHECK-LABEL: func.func @grid_dim
// CHECK-NOT: dist.redistribute
// CHECK: ndarray.dim %{{.*}}, %{{.*}} : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
func.func @grid_dim(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f64
  %g = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %d = ndarray.dim %g, %c1 : !ndarray.ndarray<?x?xf64>
  return %d : index
}

// -----

// Scans and sorts along an axis the distribution does not split stay in it
// (each rank's lanes); along a split axis they are computed on rows.
// CHECK-LABEL: func.func @columns_scan_and_sort
// CHECK: %[[C:.*]] = dist.init_dist_array {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK: ndarray.cumulative sum %[[C]] axis 0 : {{.*}}split = [1]>> -> {{.*}}split = [1]>>
// CHECK: ndarray.argsort %[[C]] axis 0 : {{.*}}split = [1]>> -> !ndarray.ndarray<?x?xi64, #dist.dist_env<team = 1, split = [1]>>
// CHECK: %[[R:.*]] = dist.redistribute %[[C]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
// CHECK: ndarray.sort %[[R]] axis 1
func.func @columns_scan_and_sort(%n: index) -> (tensor<?x?xf64>, tensor<?x?xi64>, tensor<?x?xf64>) {
  %v = arith.constant 1.0 : f64
  %c = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 1>} : !ndarray.ndarray<?x?xf64>
  %s = ndarray.cumulative sum %c axis 0 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %i = ndarray.argsort %c axis 0 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xi64>
  %o = ndarray.sort %c axis 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %a = ndarray.to_tensor %s : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  %b = ndarray.to_tensor %i : !ndarray.ndarray<?x?xi64> -> tensor<?x?xi64>
  %d = ndarray.to_tensor %o : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  return %a, %b, %d : tensor<?x?xf64>, tensor<?x?xi64>, tensor<?x?xf64>
}

// -----

// An argument with dist.split is this rank's block of that distribution
// (checked against the block's sizes at run time, then seen with them);
// an update in place is written back as this rank's block of the final
// value.
// CHECK-LABEL: func.func @grid_argument
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %[[U:.*]]: !ndarray.ndarray<?x?xf64>)
// CHECK: %[[ME:.*]] = distruntime.team_member team = 1
// CHECK: %[[OFF:.*]]:2, %[[SIZE:.*]]:2 = dist.grid_partition %[[ME]] grid(%{{.*}}, %{{.*}}) shape(%[[N]], %[[M]]) split [0, 1]
// CHECK: cf.assert %{{.*}}, "argument #2 of @grid_argument is not this rank's block of its array in #dist.dist_env<team = 1, split = [0, 1]>"
// CHECK: %[[V:.*]] = ndarray.subview %[[U]][0, 0] [%[[SIZE]]#0, %[[SIZE]]#1] [1, 1]
// CHECK: %[[D:.*]] = dist.init_dist_array %[[V]] offsets(%[[OFF]]#0, %[[OFF]]#1) shape(%[[N]], %[[M]]) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[D]], %[[D]]
// CHECK: %[[B:.*]] = dist.owned_block_of %[[S]]
// CHECK: ndarray.insert_slice %[[B]] into %[[V]][0, 0]
func.func @grid_argument(%n: index, %m: index, %u: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1>, dist.split = array<i64: 0, 1>}) {
  %d = ndarray.ewbin add %u, %u : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %d into %u[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}

// -----

// A grid argument with ghost cells (`dist.ghost`: spare elements before
// and after the block along each split axis) is checked to be the block
// with them, and seen as its middle; an update of it (a version of it) is
// written back as the whole buffer.
// CHECK-LABEL: func.func @grid_argument_with_ghosts
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index, %[[U:.*]]: !ndarray.ndarray<?x?x3xf64>, %{{.*}}: index)
// CHECK: %[[OFF:.*]]:3, %[[SIZE:.*]]:3 = dist.grid_partition
// CHECK: %[[WITH:.*]] = arith.addi %[[SIZE]]#0, %{{c3.*}} : index
// CHECK: arith.cmpi eq, %{{.*}}, %[[WITH]]
// CHECK: %[[WITH1:.*]] = arith.addi %[[SIZE]]#1, %{{c3.*}} : index
// CHECK: arith.cmpi eq, %{{.*}}, %[[WITH1]]
// CHECK: cf.assert
// CHECK: %[[V:.*]] = ndarray.subview %[[U]][1, 1, 0] [%[[SIZE]]#0, %[[SIZE]]#1, 3] [1, 1, 1]
// CHECK: dist.init_dist_array %[[V]] offsets(%[[OFF]]#0, %[[OFF]]#1, %{{.*}}) shape(%[[N]], %[[M]], %{{.*}}) spare_rows [1, 2]
// CHECK: ndarray.insert_slice %{{.*}} into %[[U]][1, 1, 0] [%[[SIZE]]#0, %[[SIZE]]#1, 3] [1, 1, 1] {dist.ghosted_write_back}
func.func @grid_argument_with_ghosts(%n: index, %m: index, %u: !ndarray.ndarray<?x?x3xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 1, 3>, dist.split = array<i64: 0, 1>, dist.ghost = array<i64: 1, 2>}, %k: index) {
  %d = ndarray.ewbin add %u, %u : (!ndarray.ndarray<?x?x3xf64>, !ndarray.ndarray<?x?x3xf64>) -> !ndarray.ndarray<?x?x3xf64>
  %v = ndarray.immutable_insert_slice %d into %u[0, 0, 0] [%n, %m, 3] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64> into !ndarray.ndarray<?x?x3xf64>
  ndarray.insert_slice %v into %u[0, 0, 0] [%n, %m, 3] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64> into !ndarray.ndarray<?x?x3xf64>
  return
}

// -----

// Views dropping axes of a grid array stay on it (no redistribution to
// rows): a[:, :, k] keeps both split axes, a[i, :, :] drops one and is
// replicated.
// CHECK-LABEL: func.func @grid_dropping_views
// CHECK-NOT: dist.redistribute
// CHECK: ndarray.subview %[[A:.*]][0, 0, %{{.*}}] [%{{.*}}, %{{.*}}, 1] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64, #dist.dist_env<team = 1, split = [0, 1]>> to !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.subview %[[A]][%{{.*}}, 0, 0] [1, %{{.*}}, 3] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64, #dist.dist_env<team = 1, split = [0, 1]>> to !ndarray.ndarray<?x3xf64>
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @grid_dropping_views(%n: index, %i: index, %k: index, %v: f64) -> (f64, f64) {
  %a = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?x3xf64>
  %p = ndarray.subview %a[0, 0, %k] [%n, %n, 1] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64> to !ndarray.ndarray<?x?xf64>
  %r = ndarray.subview %a[%i, 0, 0] [1, %n, 3] [1, 1, 1] : !ndarray.ndarray<?x?x3xf64> to !ndarray.ndarray<?x3xf64>
  %s = ndarray.reduction sum %p : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  %t = ndarray.reduction sum %r : !ndarray.ndarray<?x3xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  %y = ndarray.load %t[] : !ndarray.ndarray<f64>
  return %x, %y : f64, f64
}

// -----

// A matrix product of grid arrays (or of a grid array and a replicated one)
// stays on the grid: the result is distributed like the first operand.
// CHECK-LABEL: func.func @grid_matmul
// CHECK-NOT: dist.redistribute
// CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>) -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<?x2xf64>) -> !ndarray.ndarray<?x2xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-NOT: dist.redistribute
// CHECK: return
func.func @grid_matmul(%n: index, %v: f64, %r: !ndarray.ndarray<?x2xf64>) -> (f64, f64) {
  %a = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %b = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
  %c = ndarray.matmul %a, %b : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %d = ndarray.matmul %a, %r : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x2xf64>) -> !ndarray.ndarray<?x2xf64>
  %s = ndarray.reduction sum %c : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  %t = ndarray.reduction sum %d : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  %y = ndarray.load %t[] : !ndarray.ndarray<f64>
  return %x, %y : f64, f64
}

// -----

// A Fourier transform over unsplit axes and a routine on a stack split along
// its batch axis run on this rank's block (a repartition to the default
// partition, a no-op when the array has it), nothing gathered; the failure
// counts are summed over the team. A transform over the split axis and not
// over axis 1 runs on the array redistributed to split on axis 1, and back.
// CHECK-LABEL: func.func @local_fft_and_batched_linalg
// CHECK: dist.repartition
// CHECK: ndarray.fft forward %{{.*}} axes [2, 1] : !ndarray.ndarray<?x4x6xcomplex<f64>> -> !ndarray.ndarray<?x4x6xcomplex<f64>>
// CHECK: dist.repartition
// CHECK: %[[L:.*]]:2 = ndarray.linalg inv %{{.*}} : (!ndarray.ndarray<?x3x3xf64>) -> (!ndarray.ndarray<?x3x3xf64>, !ndarray.ndarray<i64>)
// CHECK: dist.init_dist_array
// CHECK: distruntime.allreduce sum %[[L]]#1 team = 1 : !ndarray.ndarray<i64>
// CHECK: %[[C:.*]] = dist.redistribute %{{.*}} : !ndarray.ndarray<5x4x6xcomplex<f64>, #dist.dist_env<team = 1>> -> !ndarray.ndarray<5x4x6xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>>
// CHECK: %[[B:.*]] = dist.owned_block_of %[[C]]
// CHECK: %[[G:.*]] = ndarray.fft forward %[[B]] axes [0] : !ndarray.ndarray<5x?x6xcomplex<f64>> -> !ndarray.ndarray<5x?x6xcomplex<f64>>
// CHECK: %[[O:[a-z_0-9]+]]:3, %{{.*}} = dist.grid_partition
// CHECK: %[[D:.*]] = dist.init_dist_array %[[G]] offsets(%{{.*}}, %[[O]]#1, %{{.*}}) shape(%{{.*}}) : !ndarray.ndarray<5x?x6xcomplex<f64>> -> !ndarray.ndarray<5x4x6xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>>
// CHECK: dist.redistribute %[[D]] : !ndarray.ndarray<5x4x6xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<5x4x6xcomplex<f64>, #dist.dist_env<team = 1>>
func.func @local_fft_and_batched_linalg(%x: !ndarray.ndarray<5x4x6xcomplex<f64>>, %m: !ndarray.ndarray<5x3x3xf64>) -> (tensor<5x4x6xcomplex<f64>>, tensor<5x3x3xf64>, tensor<i64>, tensor<5x4x6xcomplex<f64>>) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<5x4x6xcomplex<f64>> -> !ndarray.ndarray<5x4x6xcomplex<f64>>
  %b = ndarray.copy %m {dist.team = 1 : i64} : !ndarray.ndarray<5x3x3xf64> -> !ndarray.ndarray<5x3x3xf64>
  %f = ndarray.fft forward %a axes [2, 1] : !ndarray.ndarray<5x4x6xcomplex<f64>> -> !ndarray.ndarray<5x4x6xcomplex<f64>>
  %i:2 = ndarray.linalg inv %b : (!ndarray.ndarray<5x3x3xf64>) -> (!ndarray.ndarray<5x3x3xf64>, !ndarray.ndarray<i64>)
  %g = ndarray.fft forward %f axes [0] : !ndarray.ndarray<5x4x6xcomplex<f64>> -> !ndarray.ndarray<5x4x6xcomplex<f64>>
  %tf = ndarray.to_tensor %f : !ndarray.ndarray<5x4x6xcomplex<f64>> -> tensor<5x4x6xcomplex<f64>>
  %ti = ndarray.to_tensor %i#0 : !ndarray.ndarray<5x3x3xf64> -> tensor<5x3x3xf64>
  %ts = ndarray.to_tensor %i#1 : !ndarray.ndarray<i64> -> tensor<i64>
  %tg = ndarray.to_tensor %g : !ndarray.ndarray<5x4x6xcomplex<f64>> -> tensor<5x4x6xcomplex<f64>>
  return %tf, %ti, %ts, %tg : tensor<5x4x6xcomplex<f64>>, tensor<5x3x3xf64>, tensor<i64>, tensor<5x4x6xcomplex<f64>>
}

// -----

// A real transform over every axis of an array split on rows: the real
// transform over axis 1 on each rank's rows first, then the complex one over
// axis 0 on the array split on axis 1 (two redistributions, no gather). The
// inverse runs the phases in the other order.
// CHECK-LABEL: func.func @fft_over_every_axis
// CHECK: ndarray.fft r2c %{{.*}} axes [1] : !ndarray.ndarray<?x8xf64> -> !ndarray.ndarray<?x5xcomplex<f64>>
// CHECK: dist.redistribute %{{.*}} -> !ndarray.ndarray<6x5xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>>
// CHECK: ndarray.fft forward %{{.*}} axes [0] : !ndarray.ndarray<6x?xcomplex<f64>> -> !ndarray.ndarray<6x?xcomplex<f64>>
// CHECK: dist.redistribute %{{.*}} : !ndarray.ndarray<6x5xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<6x5xcomplex<f64>, #dist.dist_env<team = 1>>
// CHECK: dist.redistribute %{{.*}} -> !ndarray.ndarray<6x5xcomplex<f64>, #dist.dist_env<team = 1, split = [1]>>
// CHECK: ndarray.fft backward %{{.*}} axes [0] : !ndarray.ndarray<6x?xcomplex<f64>> -> !ndarray.ndarray<6x?xcomplex<f64>>
// CHECK: dist.redistribute %{{.*}} -> !ndarray.ndarray<6x5xcomplex<f64>, #dist.dist_env<team = 1>>
// CHECK: ndarray.fft c2r %{{.*}} axes [1] length 8 : !ndarray.ndarray<?x5xcomplex<f64>> -> !ndarray.ndarray<?x8xf64>
// CHECK-NOT: distruntime.gather
func.func @fft_over_every_axis(%x: !ndarray.ndarray<6x8xf64>) -> tensor<6x8xf64> {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x8xf64> -> !ndarray.ndarray<6x8xf64>
  %f = ndarray.fft r2c %a axes [0, 1] : !ndarray.ndarray<6x8xf64> -> !ndarray.ndarray<6x5xcomplex<f64>>
  %g = ndarray.fft c2r %f axes [0, 1] length 8 : !ndarray.ndarray<6x5xcomplex<f64>> -> !ndarray.ndarray<6x8xf64>
  %t = ndarray.to_tensor %g : !ndarray.ndarray<6x8xf64> -> tensor<6x8xf64>
  return %t : tensor<6x8xf64>
}

// -----

// A routine on one matrix split on rows that ScaLAPACK runs: each input's
// rows of the default partition go to distruntime.matrix_linalg, which
// returns this rank's rows of the result (bound as its block) and the
// status, the eigenvalues whole on every rank; nothing is gathered. The
// reduced QR's Q is the first min(m, n) columns of the runtime's block and
// R has rows of the default partition of min(m, n); svdvals' first
// min(m, n) values are the result; the complete QR is computed on the
// gathered matrix.
// CHECK-LABEL: func.func @matrix_routines
// CHECK: %[[X:.*]]:2 = distruntime.matrix_linalg solve %{{.*}}, %{{.*}} team = 1 : (!ndarray.ndarray<?x6xf64>, !ndarray.ndarray<?x2xf64>) -> (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<i64>)
// CHECK: dist.init_dist_array %[[X]]#0
// CHECK: %[[D:.*]]:2 = distruntime.matrix_linalg det %{{.*}} team = 1 : (!ndarray.ndarray<?x6xf64>) -> (!ndarray.ndarray<f64>, !ndarray.ndarray<i64>)
// CHECK: %[[E:.*]]:2 = distruntime.matrix_linalg eigvalsh %{{.*}} team = 1 : (!ndarray.ndarray<?x6xf64>) -> (!ndarray.ndarray<6xf64>, !ndarray.ndarray<i64>)
// CHECK: %[[K:.*]] = arith.minui
// CHECK: %{{.*}}, %[[KROWS:.*]] = dist.default_partition %{{.*}}, %{{.*}} shape(%[[K]])
// CHECK: %[[Q:.*]]:3 = distruntime.matrix_linalg qr %{{.*}} rows(%[[KROWS]]) team = 1
// CHECK: ndarray.subview %[[Q]]#0[0, 0] [%{{.*}}, 6] [1, 1]
// CHECK: %[[SV:.*]]:2 = distruntime.matrix_linalg svdvals %{{.*}} team = 1
// CHECK: ndarray.subview %[[SV]]#0[0] [6] [1]
// CHECK: %[[SVD:.*]]:4 = distruntime.matrix_linalg svd %{{.*}} rows(%{{.*}}) team = 1
// CHECK: ndarray.subview %[[SVD]]#0[0, 0] [%{{.*}}, 6] [1, 1]
// CHECK: ndarray.subview %[[SVD]]#1[0] [6] [1]
// CHECK: ndarray.linalg qr %{{.*}} flag : (!ndarray.ndarray<6x6xf64>)
func.func @matrix_routines(%x: !ndarray.ndarray<6x6xf64>, %y: !ndarray.ndarray<6x2xf64>) -> (tensor<6x2xf64>, f64, tensor<6xf64>, tensor<6x6xf64>, tensor<6x6xf64>, tensor<6xf64>, tensor<6x6xf64>) {
  %a = ndarray.copy %x {dist.team = 1 : i64} : !ndarray.ndarray<6x6xf64> -> !ndarray.ndarray<6x6xf64>
  %b = ndarray.copy %y {dist.team = 1 : i64} : !ndarray.ndarray<6x2xf64> -> !ndarray.ndarray<6x2xf64>
  %s:2 = ndarray.linalg solve %a, %b : (!ndarray.ndarray<6x6xf64>, !ndarray.ndarray<6x2xf64>) -> (!ndarray.ndarray<6x2xf64>, !ndarray.ndarray<i64>)
  %d:2 = ndarray.linalg det %a : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<f64>, !ndarray.ndarray<i64>)
  %e:2 = ndarray.linalg eigvalsh %a : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<6xf64>, !ndarray.ndarray<i64>)
  %q:3 = ndarray.linalg qr %a : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<6x6xf64>, !ndarray.ndarray<6x6xf64>, !ndarray.ndarray<i64>)
  %sv:2 = ndarray.linalg svdvals %a : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<6xf64>, !ndarray.ndarray<i64>)
  %usv:4 = ndarray.linalg svd %a : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<6x6xf64>, !ndarray.ndarray<6xf64>, !ndarray.ndarray<6x6xf64>, !ndarray.ndarray<i64>)
  %c:3 = ndarray.linalg qr %a flag : (!ndarray.ndarray<6x6xf64>) -> (!ndarray.ndarray<6x6xf64>, !ndarray.ndarray<6x6xf64>, !ndarray.ndarray<i64>)
  %ts = ndarray.to_tensor %s#0 : !ndarray.ndarray<6x2xf64> -> tensor<6x2xf64>
  %v = ndarray.load %d#0[] : !ndarray.ndarray<f64>
  %te = ndarray.to_tensor %e#0 : !ndarray.ndarray<6xf64> -> tensor<6xf64>
  %tq = ndarray.to_tensor %q#0 : !ndarray.ndarray<6x6xf64> -> tensor<6x6xf64>
  %tc = ndarray.to_tensor %c#0 : !ndarray.ndarray<6x6xf64> -> tensor<6x6xf64>
  %tsv = ndarray.to_tensor %sv#0 : !ndarray.ndarray<6xf64> -> tensor<6xf64>
  %tu = ndarray.to_tensor %usv#0 : !ndarray.ndarray<6x6xf64> -> tensor<6x6xf64>
  return %ts, %v, %te, %tq, %tc, %tsv, %tu : tensor<6x2xf64>, f64, tensor<6xf64>, tensor<6x6xf64>, tensor<6x6xf64>, tensor<6xf64>, tensor<6x6xf64>
}
