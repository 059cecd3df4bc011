// RUN: imex-opt %s -split-input-file | FileCheck %s
// Round trip through the generic form.
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | imex-opt -split-input-file | FileCheck %s
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func @team
// CHECK: %[[N:.*]] = distruntime.team_size team = 1
// CHECK: %[[R:.*]] = distruntime.team_member team = 3
// CHECK: return %[[N]], %[[R]] : index, index
// GENERIC-LABEL: sym_name = "team"
// GENERIC: "distruntime.team_size"() <{team = 1 : i64}> : () -> index
// GENERIC: "distruntime.team_member"() <{team = 3 : i64}> : () -> index
func.func @team() -> (index, index) {
  %n = distruntime.team_size team = 1
  %r = distruntime.team_member team = 3
  return %n, %r : index, index
}

// -----

// CHECK-LABEL: func @grid_dim
// CHECK: distruntime.grid_dim team = 1 ndims = 2 dim = 0
// CHECK: distruntime.grid_dim team = 2 ndims = 3 dim = 2
// GENERIC-LABEL: sym_name = "grid_dim"
// GENERIC: "distruntime.grid_dim"() <{dim = 0 : i64, ndims = 2 : i64, team = 1 : i64}> : () -> index
func.func @grid_dim() -> (index, index) {
  %p = distruntime.grid_dim team = 1 ndims = 2 dim = 0
  %q = distruntime.grid_dim team = 2 ndims = 3 dim = 2
  return %p, %q : index, index
}

// -----

// CHECK-LABEL: func @allreduce
// CHECK: distruntime.allreduce sum %{{.*}} team = 1 : !ndarray.ndarray<4xf64>
// CHECK: distruntime.allreduce prod %{{.*}} team = 1 : !ndarray.ndarray<?x3xi32>
// CHECK: distruntime.allreduce min %{{.*}} team = 2 : !ndarray.ndarray<ui8>
// CHECK: distruntime.allreduce max %{{.*}} team = 1 : !ndarray.ndarray<2xindex>
// CHECK: distruntime.allreduce land %{{.*}} team = 1 : !ndarray.ndarray<5xi1>
// CHECK: distruntime.allreduce lor %{{.*}} team = 1 : !ndarray.ndarray<5xi1, "tag">
// GENERIC-LABEL: sym_name = "allreduce"
// GENERIC: "distruntime.allreduce"(%{{.*}}) <{kind = #distruntime<reduction sum>, team = 1 : i64}> : (!ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
// GENERIC: <{kind = #distruntime<reduction prod>, team = 1 : i64}>
// GENERIC: <{kind = #distruntime<reduction min>, team = 2 : i64}>
// GENERIC: <{kind = #distruntime<reduction max>, team = 1 : i64}>
// GENERIC: <{kind = #distruntime<reduction land>, team = 1 : i64}>
// GENERIC: <{kind = #distruntime<reduction lor>, team = 1 : i64}>
func.func @allreduce(%a: !ndarray.ndarray<4xf64>, %b: !ndarray.ndarray<?x3xi32>,
                     %c: !ndarray.ndarray<ui8>, %d: !ndarray.ndarray<2xindex>,
                     %e: !ndarray.ndarray<5xi1>, %f: !ndarray.ndarray<5xi1, "tag">) {
  %0 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xf64>
  %1 = distruntime.allreduce prod %b team = 1 : !ndarray.ndarray<?x3xi32>
  %2 = distruntime.allreduce min %c team = 2 : !ndarray.ndarray<ui8>
  %3 = distruntime.allreduce max %d team = 1 : !ndarray.ndarray<2xindex>
  %4 = distruntime.allreduce land %e team = 1 : !ndarray.ndarray<5xi1>
  %5 = distruntime.allreduce lor %f team = 1 : !ndarray.ndarray<5xi1, "tag">
  return
}

// -----

// CHECK-LABEL: func @exscan
// CHECK: distruntime.exscan sum %{{.*}} team = 1 : !ndarray.ndarray<1x4xi64>
// CHECK: distruntime.exscan prod %{{.*}} team = 2 : !ndarray.ndarray<?xf32>
// CHECK: distruntime.exscan max %{{.*}} team = 1 : !ndarray.ndarray<ui16>
// GENERIC-LABEL: sym_name = "exscan"
// GENERIC: "distruntime.exscan"(%{{.*}}) <{kind = #distruntime<reduction sum>, team = 1 : i64}> : (!ndarray.ndarray<1x4xi64>) -> !ndarray.ndarray<1x4xi64>
func.func @exscan(%a: !ndarray.ndarray<1x4xi64>, %b: !ndarray.ndarray<?xf32>,
                  %c: !ndarray.ndarray<ui16>) {
  %0 = distruntime.exscan sum %a team = 1 : !ndarray.ndarray<1x4xi64>
  %1 = distruntime.exscan prod %b team = 2 : !ndarray.ndarray<?xf32>
  %2 = distruntime.exscan max %c team = 1 : !ndarray.ndarray<ui16>
  return
}

// -----

// CHECK-LABEL: func @ordered_reduce
// CHECK: distruntime.ordered_reduce sum %{{.*}} offset %{{.*}} rows %{{.*}} team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<1x4xf64>
// CHECK: distruntime.ordered_reduce prod %{{.*}} offset %{{.*}} rows %{{.*}} team = 2 : !ndarray.ndarray<?x?xcomplex<f32>> -> !ndarray.ndarray<1x?xcomplex<f32>>
func.func @ordered_reduce(%a: !ndarray.ndarray<?x4xf64>, %b: !ndarray.ndarray<?x?xcomplex<f32>>, %o: index, %n: index) {
  %0 = distruntime.ordered_reduce sum %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<1x4xf64>
  %1 = distruntime.ordered_reduce prod %b offset %o rows %n team = 2 : !ndarray.ndarray<?x?xcomplex<f32>> -> !ndarray.ndarray<1x?xcomplex<f32>>
  return
}

// -----

// CHECK-LABEL: func @matrix_linalg
// CHECK: distruntime.matrix_linalg solve %{{.*}}, %{{.*}} team = 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x2xf64>) -> (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg cholesky %{{.*}} flag team = 2 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg slogdet %{{.*}} team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<complex<f32>>, !ndarray.ndarray<f32>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg eigh %{{.*}} team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<8xf32>, !ndarray.ndarray<?x8xcomplex<f32>>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg qr %{{.*}} rows(%{{.*}}) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg svdvals %{{.*}} team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<?xf32>, !ndarray.ndarray<i64>)
// CHECK: distruntime.matrix_linalg svd %{{.*}} rows(%{{.*}}) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
func.func @matrix_linalg(%a: !ndarray.ndarray<?x?xf64>, %b: !ndarray.ndarray<?x2xf64>, %c: !ndarray.ndarray<?x8xcomplex<f32>>, %k: index) {
  %x, %s = distruntime.matrix_linalg solve %a, %b team = 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x2xf64>) -> (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<i64>)
  %u, %t = distruntime.matrix_linalg cholesky %a flag team = 2 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
  %d:3 = distruntime.matrix_linalg slogdet %c team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<complex<f32>>, !ndarray.ndarray<f32>, !ndarray.ndarray<i64>)
  %e:3 = distruntime.matrix_linalg eigh %c team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<8xf32>, !ndarray.ndarray<?x8xcomplex<f32>>, !ndarray.ndarray<i64>)
  %q:3 = distruntime.matrix_linalg qr %a rows(%k) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
  %v:2 = distruntime.matrix_linalg svdvals %c team = 1 : (!ndarray.ndarray<?x8xcomplex<f32>>) -> (!ndarray.ndarray<?xf32>, !ndarray.ndarray<i64>)
  %w:4 = distruntime.matrix_linalg svd %a rows(%k) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
  return
}

// CHECK-LABEL: func @sample_sort
// CHECK: distruntime.sample_sort %{{.*}} offset %{{.*}} rows %{{.*}} team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
// CHECK: distruntime.sample_sort %{{.*}} offset %{{.*}} rows %{{.*}} descending indices team = 2 : !ndarray.ndarray<?xui8> -> !ndarray.ndarray<?xi64>
func.func @sample_sort(%a: !ndarray.ndarray<?xf64>, %b: !ndarray.ndarray<?xui8>, %o: index, %n: index) {
  %0 = distruntime.sample_sort %a offset %o rows %n team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %1 = distruntime.sample_sort %b offset %o rows %n descending indices team = 2 : !ndarray.ndarray<?xui8> -> !ndarray.ndarray<?xi64>
  return
}

// -----

// CHECK-LABEL: func @ragged_alltoall
// CHECK: distruntime.ragged_alltoall %{{.*}} send_offsets %{{.*}} send_sizes %{{.*}} into %{{.*}} output_offsets %{{.*}} recv_sizes %{{.*}} team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>) -> !ndarray.ndarray<?x2xf64>
func.func @ragged_alltoall(%s: !ndarray.ndarray<?x2xf64>, %t: !ndarray.ndarray<?xindex>, %o: !ndarray.ndarray<?x2xf64>) {
  %0 = distruntime.ragged_alltoall %s send_offsets %t send_sizes %t into %o output_offsets %t recv_sizes %t team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>) -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

// CHECK-LABEL: func @put
// CHECK: distruntime.put %{{.*}} into %{{.*}} offset %{{.*}} rows %{{.*}} indices %{{.*}} team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
// CHECK: distruntime.put %{{.*}} into %{{.*}} offset %{{.*}} rows %{{.*}} indices %{{.*}} replicated team = 1
func.func @put(%a: !ndarray.ndarray<?x4xf64>, %v: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) {
  %0 = distruntime.put %v into %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
  %1 = distruntime.put %v into %a offset %o rows %n indices %i replicated team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
  return
}

// -----

// CHECK-LABEL: func @gather_and_repartition
// CHECK: distruntime.gather %{{.*}} global_shape[%{{.*}}, %{{.*}}] local_offsets[%{{.*}}, %{{.*}}] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<10x4xf64>
// CHECK: distruntime.gather %{{.*}} root = 2 team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>
// CHECK: %[[H:.*]], %[[B:.*]] = distruntime.repartition %[[A:.*]] global_shape[%{{.*}}, %{{.*}}] local_offsets[%{{.*}}, %{{.*}}] target_offsets[%{{.*}}, %{{.*}}] target_sizes[%{{.*}}, %{{.*}}] team = 1 key = 3 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x2xf64>
// CHECK: distruntime.wait %[[H]], %[[A]], %[[B]]
func.func @gather_and_repartition(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %0 = distruntime.gather %a global_shape[%c10, %c4] local_offsets[%o, %c0] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<10x4xf64>
  %1 = distruntime.gather %a global_shape[%c10, %c4] local_offsets[%o, %c0] root = 2 team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>
  %h, %b = distruntime.repartition %a global_shape[%c10, %c4] local_offsets[%o, %c0] target_offsets[%c0, %c2] target_sizes[%c10, %c2] team = 1 key = 3 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x2xf64>
  %2:2 = distruntime.wait %h, %a, %b : !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x2xf64>
  return
}

// -----

// CHECK-LABEL: func @fetch_boxes
// CHECK: %[[H:.*]], %[[B:.*]]:2 = distruntime.fetch_boxes %[[A:.*]] global_shape[%{{.*}}, %{{.*}}] local_offsets[%{{.*}}, %{{.*}}] box_offsets[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] box_sizes[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] team = 1 key = 2 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x?xf64>
// CHECK: distruntime.wait %[[H]], %[[A]], %[[B]]#0, %[[B]]#1
func.func @fetch_boxes(%a: !ndarray.ndarray<?x?xf64>, %i: index, %j: index, %n: index) {
  %c1 = arith.constant 1 : index
  %h, %top, %left = distruntime.fetch_boxes %a global_shape[%n, %n] local_offsets[%i, %j] box_offsets[%i, %j, %i, %j] box_sizes[%c1, %n, %n, %c1] team = 1 key = 2 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x?xf64>
  %0:3 = distruntime.wait %h, %a, %top, %left : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func @take
// CHECK: distruntime.take %{{.*}} offset %{{.*}} rows %{{.*}} indices %{{.*}} team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
func.func @take(%a: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) {
  %0 = distruntime.take %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
  return
}

// -----

// CHECK-LABEL: func @get_halo
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x16xf32>, %[[N:.*]]: index, %[[O:.*]]: index, %[[B:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[H:.*]], %[[L:.*]], %[[R:.*]] = distruntime.get_halo %[[A]] global_shape[%[[N]], %[[C16]]] local_offsets[%[[O]], %[[C0]]] bb_offsets[%[[B]], %[[C0]]] bb_sizes[%[[S]], %[[C16]]] team = 1 : !ndarray.ndarray<?x16xf32> -> !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>
// CHECK: %{{.*}}:3 = distruntime.wait %[[H]], %[[A]], %[[L]], %[[R]] : !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>
// CHECK: distruntime.get_halo %{{.*}} team = 2 key = 7 : !ndarray.ndarray<?xi64> -> !ndarray.ndarray<?xi64>, !ndarray.ndarray<1xi64>
// GENERIC-LABEL: sym_name = "get_halo"
// GENERIC: "distruntime.get_halo"(%{{.*}}) <{key = -1 : i64, operandSegmentSizes = array<i32: 1, 2, 2, 2, 2>, team = 1 : i64}> : (!ndarray.ndarray<?x16xf32>, index, index, index, index, index, index, index, index) -> (!distruntime.asynchandle, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>)
// GENERIC: "distruntime.wait"(%{{.*}}) : (!distruntime.asynchandle, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>) -> (!ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>)
// GENERIC: <{key = 7 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>, team = 2 : i64}>
func.func @get_halo(%a: !ndarray.ndarray<?x16xf32>, %n: index, %o: index, %b: index, %s: index) -> !ndarray.ndarray<?x16xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %h, %l, %r = distruntime.get_halo %a global_shape[%n, %c16] local_offsets[%o, %c0] bb_offsets[%b, %c0] bb_sizes[%s, %c16] team = 1 : !ndarray.ndarray<?x16xf32> -> !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>
  %w:3 = distruntime.wait %h, %a, %l, %r : !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>, !ndarray.ndarray<?x16xf32>
  %c1 = arith.constant 1 : index
  %v = ndarray.create(%c1) : !ndarray.ndarray<?xi64>
  %h2, %l2, %r2 = distruntime.get_halo %v global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 2 key = 7 : !ndarray.ndarray<?xi64> -> !ndarray.ndarray<?xi64>, !ndarray.ndarray<1xi64>
  %w2:3 = distruntime.wait %h2, %v, %l2, %r2 : !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>, !ndarray.ndarray<1xi64>
  return %w#1 : !ndarray.ndarray<?x16xf32>
}

// -----

// CHECK-LABEL: func @copy_reshape
// CHECK: %[[H:.*]], %[[OUT:.*]] = distruntime.copy_reshape %[[A:.*]] global_shape_in[%{{.*}}, %{{.*}}] local_offsets_in[%{{.*}}, %{{.*}}] global_shape_out[%{{.*}}] local_offsets_out[%{{.*}}] local_shape_out[%{{.*}}] team = 1 key = 0 : !ndarray.ndarray<?x6xi32> -> !ndarray.ndarray<?xi32>
// CHECK: distruntime.wait %[[H]], %[[A]], %[[OUT]] : !ndarray.ndarray<?x6xi32>, !ndarray.ndarray<?xi32>
func.func @copy_reshape(%a: !ndarray.ndarray<?x6xi32>, %o: index, %p: index, %m: index) -> !ndarray.ndarray<?xi32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %h, %out = distruntime.copy_reshape %a global_shape_in[%c4, %c6] local_offsets_in[%o, %c0] global_shape_out[%c24] local_offsets_out[%p] local_shape_out[%m] team = 1 key = 0 : !ndarray.ndarray<?x6xi32> -> !ndarray.ndarray<?xi32>
  %a2, %out2 = distruntime.wait %h, %a, %out : !ndarray.ndarray<?x6xi32>, !ndarray.ndarray<?xi32>
  return %out2 : !ndarray.ndarray<?xi32>
}

// -----

// CHECK-LABEL: func @copy_permute
// CHECK: %[[H:.*]], %[[T:.*]] = distruntime.copy_permute %[[A:.*]] permutation = [1, 0] global_shape_in[%{{.*}}, %{{.*}}] local_offsets_in[%{{.*}}, %{{.*}}] local_offsets_out[%{{.*}}, %{{.*}}] local_shape_out[%{{.*}}, %{{.*}}] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
// CHECK: distruntime.wait %[[H]], %[[A]], %[[T]] : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
// GENERIC-LABEL: sym_name = "copy_permute"
// GENERIC: "distruntime.copy_permute"(%{{.*}}) <{key = -1 : i64, operandSegmentSizes = array<i32: 1, 2, 2, 2, 2>, permutation = array<i64: 1, 0>, team = 1 : i64}>
func.func @copy_permute(%a: !ndarray.ndarray<?x?xf64>, %n: index, %m: index, %o: index, %p: index, %k: index) -> !ndarray.ndarray<?x?xf64> {
  %c0 = arith.constant 0 : index
  %h, %t = distruntime.copy_permute %a permutation = [1, 0] global_shape_in[%n, %m] local_offsets_in[%o, %c0] local_offsets_out[%p, %c0] local_shape_out[%k, %n] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %a2, %t2 = distruntime.wait %h, %a, %t : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
  return %t2 : !ndarray.ndarray<?x?xf64>
}

// -----

// A handle may be carried through control flow; its wait then names between
// one and three arrays.
// CHECK-LABEL: func @handle_block_argument
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[H:.*]] = %{{.*}}) -> (!distruntime.asynchandle)
// CHECK: scf.yield %[[H]] : !distruntime.asynchandle
// CHECK: distruntime.wait %[[R]], %{{.*}}, %{{.*}} : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
func.func @handle_block_argument(%a: !ndarray.ndarray<?xf64>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h, %out = distruntime.copy_reshape %a global_shape_in[%n] local_offsets_in[%c0] global_shape_out[%n] local_offsets_out[%c0] local_shape_out[%m] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%hh = %h) -> (!distruntime.asynchandle) {
    scf.yield %hh : !distruntime.asynchandle
  }
  %w:2 = distruntime.wait %r, %a, %out : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

// CHECK-LABEL: func.func private @types
// CHECK-SAME: !distruntime.asynchandle
func.func private @types(!distruntime.asynchandle)

// -----

// CHECK-LABEL: func.func @forget_plan
// CHECK: distruntime.forget_plan team = 2 key = 3
func.func @forget_plan() {
  distruntime.forget_plan team = 2 key = 3
  return
}

// -----

// Constant global shapes whose element count overflows int64 are not
// compared (found by imex-fuzz: the product overflowed).
// CHECK-LABEL: func @copy_reshape_huge_constants
func.func @copy_reshape_huge_constants(%a: !ndarray.ndarray<?x3xi8>, %i: index) -> !ndarray.ndarray<?xi8> {
  %big = arith.constant 9223372036854775807 : index
  %c6 = arith.constant 6 : index
  %h, %o = distruntime.copy_reshape %a global_shape_in[%big, %c6] local_offsets_in[%i, %i] global_shape_out[%big] local_offsets_out[%i] local_shape_out[%i] team = 1 : !ndarray.ndarray<?x3xi8> -> !ndarray.ndarray<?xi8>
  %w:2 = distruntime.wait %h, %a, %o : !ndarray.ndarray<?x3xi8>, !ndarray.ndarray<?xi8>
  return %w#1 : !ndarray.ndarray<?xi8>
}
