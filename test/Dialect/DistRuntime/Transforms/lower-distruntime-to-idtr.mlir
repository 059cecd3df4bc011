// RUN: imex-opt %s -split-input-file -lower-distruntime-to-idtr | FileCheck %s

// Only the functions a module calls are declared, once.
// CHECK-LABEL: module
// CHECK-NEXT: func.func private @_idtr_nprocs(i64) -> i64
// CHECK-NEXT: func.func private @_idtr_prank(i64) -> i64
// CHECK-NOT: func.func private
// CHECK-LABEL: func.func @team
// CHECK: %[[T1:.*]] = arith.constant 1 : i64
// CHECK: %[[N:.*]] = call @_idtr_nprocs(%[[T1]]) : (i64) -> i64
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : i64 to index
// CHECK: %[[T3:.*]] = arith.constant 3 : i64
// CHECK: %[[R:.*]] = call @_idtr_prank(%[[T3]]) : (i64) -> i64
// CHECK: %[[RI:.*]] = arith.index_cast %[[R]] : i64 to index
// CHECK: call @_idtr_nprocs
// CHECK: return %[[NI]], %[[RI]]
func.func @team() -> (index, index, index) {
  %n = distruntime.team_size team = 1
  %r = distruntime.team_member team = 3
  %m = distruntime.team_size team = 1
  return %n, %r, %m : index, index, index
}

// -----

// CHECK: func.func private @_idtr_grid_dim(i64, i64, i64) -> i64
// CHECK-LABEL: func.func @grid_dim
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[N:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[K:.*]] = arith.constant 1 : i64
// CHECK: %[[P:.*]] = call @_idtr_grid_dim(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64) -> i64
// CHECK: %[[PI:.*]] = arith.index_cast %[[P]] : i64 to index
// CHECK: return %[[PI]]
func.func @grid_dim() -> index {
  %p = distruntime.grid_dim team = 1 ndims = 2 dim = 1
  return %p : index
}

// -----

// The input is copied into a fresh buffer, which IDTR reduces in place. The
// call goes through a function that builds the C ABI's arguments (one per
// entry point and argument types, not inlined).
// CHECK: func.func private @_idtr_reduce_all_f64(i64, memref<*xf64>, i64)
// CHECK-LABEL: func.func @allreduce
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x3xf64>)
// CHECK: %[[T:.*]] = ndarray.to_tensor %[[A]] : !ndarray.ndarray<?x3xf64> -> tensor<?x3xf64>
// CHECK: %[[IN:.*]] = bufferization.to_buffer %[[T]] read_only {distruntime.read = {{[0-9]+}} : i64} : tensor<?x3xf64> to memref<?x3xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[N:.*]] = memref.dim %[[IN]], %{{.*}}
// CHECK: %[[BUF:.*]] = memref.alloc(%[[N]]) : memref<?x3xf64>
// CHECK: memref.copy %[[IN]], %[[BUF]]
// CHECK-DAG: %[[TEAM:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MAX:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[D:.*]] = memref.cast %[[BUF]] : memref<?x3xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: call @[[F:_imex_idtr_reduce_all_f64_f64r2_n3]](%[[TEAM]], %[[D]], %[[MAX]])
// The result is a read-only tensor of the buffer, seen as an array.
// CHECK: %[[RT:.*]] = bufferization.to_tensor %[[BUF]] restrict : memref<?x3xf64> to tensor<?x3xf64>
// CHECK: %[[R:.*]] = builtin.unrealized_conversion_cast %[[RT]] : tensor<?x3xf64> to !ndarray.ndarray<?x3xf64>
// CHECK: return %[[R]]
// CHECK: func.func private @[[F]](%[[T:.*]]: i64, %[[B:.*]]: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[K:.*]]: i64) attributes {distruntime.outlined, llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK: %[[U:.*]] = memref.cast %[[B]] : memref<?x?xf64, strided<[?, ?], offset: ?>> to memref<*xf64>
// CHECK: call @_idtr_reduce_all_f64(%[[T]], %[[U]], %[[K]])
func.func @allreduce(%a: !ndarray.ndarray<?x3xf64>) -> !ndarray.ndarray<?x3xf64> {
  %0 = distruntime.allreduce max %a team = 1 : !ndarray.ndarray<?x3xf64>
  return %0 : !ndarray.ndarray<?x3xf64>
}

// -----

// CHECK: func.func private @_idtr_exscan_i64(i64, memref<*xi64>, i64)
// CHECK-LABEL: func.func @exscan
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<1x4xi64>
// CHECK: memref.copy %{{.*}}, %[[BUF]]
// CHECK: %[[D:.*]] = memref.cast %[[BUF]] : memref<1x4xi64> to memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK: call @[[F:_imex_idtr_exscan_i64_i64r2_n3]](%{{.*}}, %[[D]], %{{.*}})
// CHECK: bufferization.to_tensor %[[BUF]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_exscan_i64
func.func @exscan(%a: !ndarray.ndarray<1x4xi64>) -> !ndarray.ndarray<1x4xi64> {
  %0 = distruntime.exscan prod %a team = 1 : !ndarray.ndarray<1x4xi64>
  return %0 : !ndarray.ndarray<1x4xi64>
}

// -----

// ndarray.sort (of a copy) and ndarray.argsort are IDTR calls.
// CHECK-DAG: func.func private @_idtr_sort_f32(memref<*xf32>, i64, i64)
// CHECK-DAG: func.func private @_idtr_argsort_f32(memref<*xf32>, memref<*xi64>, i64, i64)
// CHECK-LABEL: func.func @sort
// CHECK: %[[IN:.*]] = bufferization.to_buffer
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<3x?xf32>
// CHECK: memref.copy %[[IN]], %[[BUF]]
// CHECK: call @[[SORT:_imex_idtr_sort_f32_f32r2_n3]](%{{.*}}, %c1_i64, %c0_i64)
// CHECK: %[[IDX:.*]] = memref.alloc(%{{.*}}) : memref<3x?xi64>
// CHECK-NOT: memref.copy
// CHECK: call @[[ARGSORT:_imex_idtr_argsort_f32_f32r2_i64r2_n4]](%{{.*}}, %{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}})
// CHECK: func.func private @[[SORT]]
// CHECK: call @_idtr_sort_f32
// CHECK: func.func private @[[ARGSORT]]
// CHECK: call @_idtr_argsort_f32
func.func @sort(%a: !ndarray.ndarray<3x?xf32>) -> (!ndarray.ndarray<3x?xf32>, !ndarray.ndarray<3x?xi64>) {
  %0 = ndarray.sort %a axis 1 : !ndarray.ndarray<3x?xf32> -> !ndarray.ndarray<3x?xf32>
  %1 = ndarray.argsort %a axis 0 descending : !ndarray.ndarray<3x?xf32> -> !ndarray.ndarray<3x?xi64>
  return %0, %1 : !ndarray.ndarray<3x?xf32>, !ndarray.ndarray<3x?xi64>
}

// -----

// The ordered reduction writes one row into a new buffer.
// CHECK: func.func private @_idtr_ordered_reduce_f32(i64, memref<*xf32>, i64, i64, i64, memref<*xf32>)
// CHECK-LABEL: func.func @ordered_reduce
// CHECK-SAME: (%{{.*}}: {{.*}}, %[[OARG:.*]]: index, %[[NARG:.*]]: index)
// CHECK: %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only {{.*}} : tensor<?x?xf32>
// CHECK: %[[M:.*]] = memref.dim %[[IN]], %{{.*}} : memref<?x?xf32
// CHECK: %[[OUT:.*]] = memref.alloc(%[[M]]) : memref<1x?xf32>
// CHECK: %[[TEAM:.*]] = arith.constant 2 : i64
// CHECK: %[[O:.*]] = arith.index_cast %[[OARG]] : index to i64
// CHECK: %[[N:.*]] = arith.index_cast %[[NARG]] : index to i64
// CHECK: %[[PROD:.*]] = arith.constant 1 : i64
// CHECK: call @[[F:_imex_idtr_ordered_reduce_f32_f32r2_f32r2_n6]](%[[TEAM]], %{{.*}}, %[[O]], %[[N]], %[[PROD]], %{{.*}})
// CHECK: bufferization.to_tensor %[[OUT]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_ordered_reduce_f32
func.func @ordered_reduce(%a: !ndarray.ndarray<?x?xf32>, %o: index, %n: index) -> !ndarray.ndarray<1x?xf32> {
  %0 = distruntime.ordered_reduce prod %a offset %o rows %n team = 2 : !ndarray.ndarray<?x?xf32> -> !ndarray.ndarray<1x?xf32>
  return %0 : !ndarray.ndarray<1x?xf32>
}

// -----

// The sample sort writes values and positions; the result is one of them.
// CHECK: func.func private @_idtr_sample_sort_i32(i64, memref<*xi32>, i64, memref<*xi32>, memref<*xi64>, i64)
// CHECK-LABEL: func.func @sample_sort
// CHECK: %[[V:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: %[[I:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: call @[[F:_imex_idtr_sample_sort_i32_i32r1_i32r1_i64r1_n6]]
// CHECK: bufferization.to_tensor %[[I]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_sample_sort_i32
func.func @sample_sort(%a: !ndarray.ndarray<?xi32>, %o: index, %n: index) -> !ndarray.ndarray<?xi64> {
  %0 = distruntime.sample_sort %a offset %o rows %n indices team = 1 : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xi64>
  return %0 : !ndarray.ndarray<?xi64>
}

// -----

// CHECK: func.func private @_idtr_take_f64(i64, memref<*xf64>, i64, i64, memref<*xi64>, memref<*xf64>)
// CHECK-LABEL: func.func @take
// CHECK: %[[IDX:.*]] = bufferization.to_buffer %{{.*}} read_only {{.*}} : tensor<?xi64>
// CHECK: %[[N:.*]] = memref.dim %[[IDX]], %{{.*}} : memref<?xi64
// CHECK: %[[OUT:.*]] = memref.alloc(%[[N]]) : memref<?x4xf64>
// CHECK: call @[[F:_imex_idtr_take_f64_f64r2_i64r1_f64r2_n6]]
// CHECK: bufferization.to_tensor %[[OUT]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_take_f64
func.func @take(%a: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) -> !ndarray.ndarray<?x4xf64> {
  %0 = distruntime.take %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
  return %0 : !ndarray.ndarray<?x4xf64>
}

// -----

// gather: the global shape on every rank, or with a root on that rank and
// no rows elsewhere (the rank from _idtr_prank); repartition: an async
// call returning a handle, the output allocated with the target sizes.
// CHECK-DAG: func.func private @_idtr_gather_f64(i64, memref<*xf64>, memref<*xindex>, memref<*xindex>, memref<*xf64>, i64)
// CHECK-DAG: func.func private @_idtr_prank(i64) -> i64
// CHECK-DAG: func.func private @_idtr_repartition_f64(i64, memref<*xf64>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xf64>, i64) -> i64
// CHECK-LABEL: func.func @gather_and_repartition
// CHECK: %[[ALL:.*]] = memref.alloc() : memref<10x4xf64>
// CHECK: %[[M1:.*]] = arith.constant -1 : i64
// The index lists are passed as their values.
// CHECK: call @[[GATHER:_imex_idtr_gather_f64_l2_l2_f64r2_f64r2_n8]](%{{.*}}, %{{.*}}, %c10, %c4, %{{.*}}, %c0, %{{.*}}, %[[M1]])
// CHECK: %[[ME:.*]] = call @_idtr_prank
// CHECK: %[[IS:.*]] = arith.cmpi eq, %[[ME]], %{{.*}} : i64
// CHECK: %[[ROWS:.*]] = arith.select %[[IS]], %{{.*}}, %{{.*}} : index
// CHECK: memref.alloc(%[[ROWS]]) : memref<?x4xf64>
// CHECK: call @[[GATHER]]
// CHECK: memref.alloc(%{{.*}}) : memref<?x2xf64>
// CHECK: %[[H:.*]] = call @[[REPART:_imex_idtr_repartition_f64_l2_l2_l2_l2_f64r2_f64r2_n12]]
// CHECK: call @[[WAIT:_imex_idtr_wait_f64r2_f64r2_n3]](%[[H]],
// The outlined function stores the lists on its stack.
// CHECK: func.func private @[[GATHER]](%{{.*}}: i64, %{{.*}}: memref<?x?xf64, strided<[?, ?], offset: ?>>, %[[G0:.*]]: index, %[[G1:.*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<?x?xf64, strided<[?, ?], offset: ?>>, %{{.*}}: i64)
// CHECK: %[[GL:.*]] = memref.alloca() : memref<2xindex>
// CHECK: memref.store %[[G0]], %[[GL]][%{{.*}}]
// CHECK: memref.store %[[G1]], %[[GL]][%{{.*}}]
// CHECK: %[[GU:.*]] = memref.cast %[[GL]] : memref<2xindex> to memref<*xindex>
// CHECK: call @_idtr_gather_f64(%{{.*}}, %{{.*}}, %[[GU]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: func.func private @[[REPART]]
// CHECK: %[[RH:.*]] = call @_idtr_repartition_f64
// CHECK: return %[[RH]] : i64
// CHECK: func.func private @[[WAIT]]
// CHECK: call @_idtr_wait_buffers(
func.func @gather_and_repartition(%a: !ndarray.ndarray<?x4xf64>, %o: index) -> (!ndarray.ndarray<10x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x2xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %0 = distruntime.gather %a global_shape[%c10, %c4] local_offsets[%o, %c0] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<10x4xf64>
  %1 = distruntime.gather %a global_shape[%c10, %c4] local_offsets[%o, %c0] root = 1 team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>
  %h, %b = distruntime.repartition %a global_shape[%c10, %c4] local_offsets[%o, %c0] target_offsets[%c0, %c2] target_sizes[%c10, %c2] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x2xf64>
  %2:2 = distruntime.wait %h, %a, %b : !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x2xf64>
  return %0, %1, %2#1 : !ndarray.ndarray<10x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x2xf64>
}

// -----

// fetch_boxes: one call receiving every box into one buffer (the boxes'
// volumes added up), the outputs views of it (each box row-major); the
// wait passes the input and that buffer.
// CHECK-DAG: func.func private @_idtr_fetch_boxes_f64(i64, memref<*xf64>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xf64>, i64) -> i64
// CHECK-LABEL: func.func @fetch_boxes
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64>, %[[I:.*]]: index, %[[J:.*]]: index, %[[N:.*]]: index, %[[W:.*]]: index)
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[H:.*]] = call @[[F:_imex_idtr_fetch_boxes_f64[^(]*]](%{{.*}}, %{{.*}}, %[[N]], %[[N]], %[[I]], %[[J]], %[[I]], %[[J]], %{{.*}}, %[[W]], %[[I]], %[[J]], %[[N]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[TOP:.*]] = memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [1, %[[W]]], strides: [%{{.*}}, 1] : memref<?xf64> to memref<1x?xf64, strided<[?, 1], offset: ?>>
// CHECK: %[[LEFT:.*]] = memref.reinterpret_cast %[[BUF]] to offset: [%{{.*}}], sizes: [%[[N]], 1], strides: [%{{.*}}, 1] : memref<?xf64> to memref<?x1xf64, strided<[?, 1], offset: ?>>
// CHECK: %[[ALL:.*]] = memref.cast %[[BUF]]
// CHECK: call @{{_imex_idtr_wait_f64r2_f64r1_n3}}(%[[H]], %{{.*}}, %[[ALL]])
// CHECK: bufferization.to_tensor %[[TOP]] restrict
// CHECK: bufferization.to_tensor %[[LEFT]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_fetch_boxes_f64
func.func @fetch_boxes(%a: !ndarray.ndarray<?x?xf64>, %i: index, %j: index, %n: index, %w: index) -> (!ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x1xf64>) {
  %c1 = arith.constant 1 : index
  %h, %top, %left = distruntime.fetch_boxes %a global_shape[%n, %n] local_offsets[%i, %j] box_offsets[%i, %j, %i, %j] box_sizes[%c1, %w, %n, %c1] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x1xf64>
  %0:3 = distruntime.wait %h, %a, %top, %left : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x1xf64>
  return %0#1, %0#2 : !ndarray.ndarray<1x?xf64>, !ndarray.ndarray<?x1xf64>
}

// -----

// put writes into a copy of the block; `replicated` is the last argument.
// CHECK: func.func private @_idtr_put_f64(i64, memref<*xf64>, i64, i64, memref<*xi64>, memref<*xf64>, i64)
// CHECK-LABEL: func.func @put
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf64>
// CHECK: memref.copy %{{.*}}, %[[BUF]]
// CHECK: call @[[F:_imex_idtr_put_f64_f64r2_i64r1_f64r2_n7]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{.*}})
// CHECK: bufferization.to_tensor %[[BUF]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_put_f64
func.func @put(%a: !ndarray.ndarray<?x4xf64>, %v: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) -> !ndarray.ndarray<?x4xf64> {
  %0 = distruntime.put %v into %a offset %o rows %n indices %i replicated team = 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x4xf64>
  return %0 : !ndarray.ndarray<?x4xf64>
}

// -----

// ragged_alltoall writes into a copy of the output.
// CHECK: func.func private @_idtr_ragged_alltoall_f64(i64, memref<*xf64>, memref<*xindex>, memref<*xindex>, memref<*xf64>, memref<*xindex>, memref<*xindex>)
// CHECK-LABEL: func.func @ragged_alltoall
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?x2xf64>
// CHECK: memref.copy %{{.*}}, %[[BUF]]
// CHECK: call @[[F:_imex_idtr_ragged_alltoall_f64_[^(]*]](
// CHECK: bufferization.to_tensor %[[BUF]] restrict
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_ragged_alltoall_f64
func.func @ragged_alltoall(%s: !ndarray.ndarray<?x2xf64>, %t: !ndarray.ndarray<?xindex>, %o: !ndarray.ndarray<?x2xf64>) -> !ndarray.ndarray<?x2xf64> {
  %0 = distruntime.ragged_alltoall %s send_offsets %t send_sizes %t into %o output_offsets %t recv_sizes %t team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>) -> !ndarray.ndarray<?x2xf64>
  return %0 : !ndarray.ndarray<?x2xf64>
}

// -----

// Unsigned arrays travel as their signless twins; the entry point keeps the
// unsigned suffix.
// CHECK: func.func private @_idtr_reduce_all_ui8(i64, memref<*xi8>, i64)
// CHECK-LABEL: func.func @allreduce_unsigned
// CHECK: %[[S:.*]] = ndarray.cast_elemtype %{{.*}} : !ndarray.ndarray<4xui8> to !ndarray.ndarray<4xi8>
// CHECK: ndarray.to_tensor %[[S]] : !ndarray.ndarray<4xi8> -> tensor<4xi8>
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<4xi8>
// CHECK: call @[[F:_imex_idtr_reduce_all_ui8_i8r1_n3]]
// CHECK: %[[RT:.*]] = bufferization.to_tensor %[[BUF]] restrict : memref<4xi8> to tensor<4xi8>
// CHECK: builtin.unrealized_conversion_cast %[[RT]] : tensor<4xi8> to !ndarray.ndarray<4xui8>
// CHECK: func.func private @[[F]]
// CHECK: call @_idtr_reduce_all_ui8
func.func @allreduce_unsigned(%a: !ndarray.ndarray<4xui8>) -> !ndarray.ndarray<4xui8> {
  %0 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xui8>
  return %0 : !ndarray.ndarray<4xui8>
}

// -----

// CHECK-DAG: func.func private @_idtr_update_halo_f32(i64, memref<*xf32>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xf32>, memref<*xf32>, i64) -> i64
// CHECK-DAG: func.func private @_idtr_wait_buffers(i64, memref<*xi8>, memref<*xi8>, memref<*xi8>)
// CHECK-LABEL: func.func @get_halo
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x4xf32>, %[[N:.*]]: index, %[[O:.*]]: index, %[[B:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[T:.*]] = ndarray.to_tensor %[[A]]
// CHECK: %[[DATA:.*]] = bufferization.to_buffer %[[T]] read_only {distruntime.read = {{[0-9]+}} : i64} : tensor<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// Rows before the owned rows: clamp(o - b, 0, s); after: clamp(b + s - (o + n), 0, s).
// CHECK: %[[ROWS:.*]] = memref.dim %[[DATA]], %{{.*}}
// CHECK: %[[D1:.*]] = arith.subi %[[O]], %[[B]] : index
// CHECK: %[[L1:.*]] = arith.maxsi %[[D1]], %{{.*}} : index
// CHECK: %[[LROWS:.*]] = arith.minsi %[[L1]], %[[S]] : index
// CHECK: %[[BEND:.*]] = arith.addi %[[B]], %[[S]] : index
// CHECK: %[[OEND:.*]] = arith.addi %[[O]], %[[ROWS]] : index
// CHECK: %[[D2:.*]] = arith.subi %[[BEND]], %[[OEND]] : index
// CHECK: %[[R1:.*]] = arith.maxsi %[[D2]], %{{.*}} : index
// CHECK: %[[RROWS:.*]] = arith.minsi %[[R1]], %[[S]] : index
// CHECK: %[[LH:.*]] = memref.alloc(%[[LROWS]]) : memref<?x4xf32>
// CHECK: %[[RH:.*]] = memref.alloc(%[[RROWS]]) : memref<?x4xf32>
// The call glue (index lists, unranked descriptors) is one function per
// element type and rank, taking fully dynamic memrefs and the lists' values.
// CHECK: %[[TEAM:.*]] = arith.constant 1 : i64
// CHECK: %[[KEY:.*]] = arith.constant 5 : i64
// CHECK: %[[D:.*]] = memref.cast %[[DATA]] : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[LHD:.*]] = memref.cast %[[LH]] : memref<?x4xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[RHD:.*]] = memref.cast %[[RH]] : memref<?x4xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[H:.*]] = call @[[GET_HALO:_imex_idtr_get_halo_f32r2_f32r2_f32r2_n13]](%[[D]], %[[LHD]], %[[RHD]], %[[TEAM]], %[[KEY]], %[[N]], %[[C4]], %[[O]], %{{.*}}, %[[B]], %{{.*}}, %[[S]], %[[C4]])
// The input is read again at the wait (numbered, so that CSE keeps this read).
// CHECK: %[[T2:.*]] = ndarray.to_tensor %[[A]]
// CHECK: %[[DATA2:.*]] = bufferization.to_buffer %[[T2]] read_only {distruntime.read = {{[0-9]+}} : i64}
// CHECK: %[[D2:.*]] = memref.cast %[[DATA2]]
// CHECK: %[[LHD2:.*]] = memref.cast %[[LH]]
// CHECK: %[[RHD2:.*]] = memref.cast %[[RH]]
// CHECK: call @[[WAIT:_imex_idtr_wait_f32r2_f32r2_f32r2_n4]](%[[H]], %[[D2]], %[[LHD2]], %[[RHD2]])
// The halos become arrays only after the wait, marked as ghost cells (see
// imex-double-buffer-loops).
// CHECK: %[[LT:.*]] = bufferization.to_tensor %[[LH]] restrict {ndarray.ghost_write} : memref<?x4xf32> to tensor<?x4xf32>
// CHECK: %[[LA:.*]] = builtin.unrealized_conversion_cast %[[LT]] : tensor<?x4xf32> to !ndarray.ndarray<?x4xf32>
// CHECK: %[[RT:.*]] = bufferization.to_tensor %[[RH]] restrict {ndarray.ghost_write} : memref<?x4xf32> to tensor<?x4xf32>
// CHECK: %[[RA:.*]] = builtin.unrealized_conversion_cast %[[RT]] : tensor<?x4xf32> to !ndarray.ndarray<?x4xf32>
// CHECK: return %[[A]], %[[LA]], %[[RA]]
// CHECK: func.func private @[[GET_HALO]](%[[PD:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[PL:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[PR:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[PT:.*]]: i64, %[[PK:.*]]: i64, %[[PN:.*]]: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index) -> i64
// CHECK-SAME: attributes {distruntime.outlined, llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK: %[[UD:.*]] = memref.cast %[[PD]] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
// CHECK: %[[GS:.*]] = memref.alloca() : memref<2xindex>
// CHECK: memref.store %[[PN]], %[[GS]][%{{.*}}] : memref<2xindex>
// CHECK-COUNT-4: memref.cast %{{.*}} : memref<2xindex> to memref<*xindex>
// CHECK: %[[UL:.*]] = memref.cast %[[PL]]
// CHECK: %[[UR:.*]] = memref.cast %[[PR]]
// CHECK: %[[HH:.*]] = call @_idtr_update_halo_f32(%[[PT]], %[[UD]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[UL]], %[[UR]], %[[PK]])
// CHECK: return %[[HH]] : i64
// CHECK: func.func private @[[WAIT]](%[[WH:.*]]: i64, %[[W0:.*]]: memref<?x?xf32, {{.*}}>, %[[W1:.*]]: memref<?x?xf32, {{.*}}>, %[[W2:.*]]: memref<?x?xf32, {{.*}}>)
// CHECK: %[[U0:.*]] = memref.cast %[[W0]] : memref<?x?xf32, strided<[?, ?], offset: ?>> to memref<*xf32>
// CHECK: %[[B0:.*]] = builtin.unrealized_conversion_cast %[[U0]] : memref<*xf32> to memref<*xi8>
// CHECK: %[[U1:.*]] = memref.cast %[[W1]]
// CHECK: %[[B1:.*]] = builtin.unrealized_conversion_cast %[[U1]]
// CHECK: %[[U2:.*]] = memref.cast %[[W2]]
// CHECK: %[[B2:.*]] = builtin.unrealized_conversion_cast %[[U2]]
// CHECK: call @_idtr_wait_buffers(%[[WH]], %[[B0]], %[[B1]], %[[B2]])
func.func @get_halo(%a: !ndarray.ndarray<?x4xf32>, %n: index, %o: index, %b: index, %s: index) -> (!ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %h, %l, %r = distruntime.get_halo %a global_shape[%n, %c4] local_offsets[%o, %c0] bb_offsets[%b, %c0] bb_sizes[%s, %c4] team = 1 key = 5 : !ndarray.ndarray<?x4xf32> -> !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>
  %w:3 = distruntime.wait %h, %a, %l, %r : !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>
  return %w#0, %w#1, %w#2 : !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf32>
}

// -----

// Two arrays: the last buffer is repeated.
// CHECK: func.func private @_idtr_copy_reshape_i64(i64, memref<*xi64>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xi64>, i64) -> i64
// CHECK-LABEL: func.func @copy_reshape
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x6xi64>, %[[O:.*]]: index, %[[P:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[OUT:.*]] = memref.alloc(%[[M]]) : memref<?xi64>
// CHECK: %[[NOKEY:.*]] = arith.constant -1 : i64
// CHECK: %[[H:.*]] = call @[[RESHAPE:_imex_idtr_copy_reshape_i64_l2_l2_l1_l1_i64r2_i64r1_n10]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NOKEY]])
// CHECK: %[[OUTD:.*]] = memref.cast %[[OUT]] : memref<?xi64> to memref<?xi64, strided<[?], offset: ?>>
// CHECK: call @[[WAIT:.*]](%[[H]], %{{.*}}, %[[OUTD]])
// CHECK: bufferization.to_tensor %[[OUT]] restrict : memref<?xi64> to tensor<?xi64>
// CHECK: func.func private @[[RESHAPE]]
// CHECK: call @_idtr_copy_reshape_i64
// CHECK: func.func private @[[WAIT]](%[[WH:.*]]: i64, %{{.*}}: memref<?x?xi64, {{.*}}>, %{{.*}}: memref<?xi64, {{.*}}>)
// CHECK: %[[B0:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<*xi64> to memref<*xi8>
// CHECK: %[[B1:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<*xi64> to memref<*xi8>
// CHECK: call @_idtr_wait_buffers(%[[WH]], %[[B0]], %[[B1]], %[[B1]])
func.func @copy_reshape(%a: !ndarray.ndarray<?x6xi64>, %o: index, %p: index, %m: index) -> !ndarray.ndarray<?xi64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c24 = arith.constant 24 : index
  %h, %out = distruntime.copy_reshape %a global_shape_in[%c4, %c6] local_offsets_in[%o, %c0] global_shape_out[%c24] local_offsets_out[%p] local_shape_out[%m] team = 1 : !ndarray.ndarray<?x6xi64> -> !ndarray.ndarray<?xi64>
  %a2, %out2 = distruntime.wait %h, %a, %out : !ndarray.ndarray<?x6xi64>, !ndarray.ndarray<?xi64>
  return %out2 : !ndarray.ndarray<?xi64>
}

// -----

// The permutation is passed as an index list; IDTR derives the output
// offsets.
// CHECK: func.func private @_idtr_copy_permute_index(i64, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xindex>, memref<*xindex>, i64) -> i64
// CHECK-LABEL: func.func @copy_permute
// CHECK: %[[P2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[P0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[P1:.*]] = arith.constant 1 : index
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?x5x3xindex>
// CHECK: call @[[F:_imex_idtr_copy_permute_index_l3_l3_l3_indexr3_indexr3_n13]](%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[P2]], %[[P0]], %[[P1]], %{{.*}}, %{{.*}})
// CHECK: func.func private @[[F]]({{.*}}, %[[Q2:[^:]*]]: index, %[[Q0:[^:]*]]: index, %[[Q1:[^:]*]]: index, %{{.*}}: memref<?x?x?xindex, {{.*}}>, %{{.*}}: i64) -> i64
// CHECK: memref.store %[[Q2]], %[[PERM:alloca[_0-9]*]][
// CHECK: memref.store %[[Q0]], %[[PERM]]
// CHECK: memref.store %[[Q1]], %[[PERM]]
// CHECK: %[[PU:.*]] = memref.cast %[[PERM]] : memref<3xindex> to memref<*xindex>
// CHECK: call @_idtr_copy_permute_index(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[PU]], %{{.*}}, %{{.*}})
func.func @copy_permute(%a: !ndarray.ndarray<?x3x4xindex>, %o: index, %p: index, %k: index) -> !ndarray.ndarray<?x5x3xindex> {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %h, %t = distruntime.copy_permute %a permutation = [2, 0, 1] global_shape_in[%c5, %c3, %c4] local_offsets_in[%o, %c0, %c0] local_offsets_out[%p, %c0, %c0] local_shape_out[%k, %c5, %c3] team = 1 : !ndarray.ndarray<?x3x4xindex> -> !ndarray.ndarray<?x5x3xindex>
  %a2, %t2 = distruntime.wait %h, %a, %t : !ndarray.ndarray<?x3x4xindex>, !ndarray.ndarray<?x5x3xindex>
  return %t2 : !ndarray.ndarray<?x5x3xindex>
}

// -----

// Handles become i64 through region ops and function signatures.
// CHECK-LABEL: func.func @handle_through_loop
// CHECK: %[[H:.*]] = call @_imex_idtr_copy_reshape_f64
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[HH:.*]] = %[[H]]) -> (i64) {
// CHECK: scf.yield %[[HH]] : i64
// CHECK: call @wait_elsewhere(%[[R]], %{{.*}}, %{{.*}}) : (i64, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> ()
// CHECK-LABEL: func.func @wait_elsewhere
// CHECK-SAME: (%[[H:.*]]: i64, %[[A:.*]]: !ndarray.ndarray<?xf64>, %[[O:.*]]: !ndarray.ndarray<?xf64>)
// Without the producer, both arrays are read through their current buffers.
// CHECK: ndarray.to_tensor %[[A]]
// CHECK: ndarray.to_tensor %[[O]]
// CHECK: call @_imex_idtr_wait_f64r1_f64r1_n3(%[[H]],
func.func @handle_through_loop(%a: !ndarray.ndarray<?xf64>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h, %out = distruntime.copy_reshape %a global_shape_in[%n] local_offsets_in[%c0] global_shape_out[%n] local_offsets_out[%c0] local_shape_out[%m] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%hh = %h) -> (!distruntime.asynchandle) {
    scf.yield %hh : !distruntime.asynchandle
  }
  call @wait_elsewhere(%r, %a, %out) : (!distruntime.asynchandle, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> ()
  return
}
func.func @wait_elsewhere(%h: !distruntime.asynchandle, %a: !ndarray.ndarray<?xf64>, %o: !ndarray.ndarray<?xf64>) {
  %w:2 = distruntime.wait %h, %a, %o : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

// An existing declaration with the right type is reused.
// CHECK: func.func private @_idtr_nprocs(i64) -> i64
// CHECK-NOT: @_idtr_nprocs(i64)
// CHECK-LABEL: func.func @existing_declaration
func.func private @_idtr_nprocs(i64) -> i64
func.func @existing_declaration() -> index {
  %n = distruntime.team_size team = 1
  return %n : index
}

// -----

// CHECK: func.func private @_idtr_forget_plan(i64, i64)
// CHECK-LABEL: func.func @forget_plan
// CHECK-DAG: %[[TEAM:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[KEY:.*]] = arith.constant 5 : i64
// CHECK: call @_idtr_forget_plan(%[[TEAM]], %[[KEY]]) : (i64, i64) -> ()
func.func @forget_plan() {
  distruntime.forget_plan team = 1 key = 5
  return
}

// -----

// A symbol of the outlined function's name that is not that function: the
// function gets another name; two exchanges share one function.
// CHECK-LABEL: func.func private @_imex_idtr_get_halo_f64r1_f64r1_f64r1_n9()
// CHECK-LABEL: func.func @name_taken
// CHECK: call @_imex_idtr_get_halo_f64r1_f64r1_f64r1_n9_0(
// CHECK: call @_imex_idtr_get_halo_f64r1_f64r1_f64r1_n9_0(
// CHECK: func.func private @_imex_idtr_get_halo_f64r1_f64r1_f64r1_n9_0(
// CHECK-NOT: func.func private @_imex_idtr_get_halo
func.func private @_imex_idtr_get_halo_f64r1_f64r1_f64r1_n9()
func.func @name_taken(%a: !ndarray.ndarray<?xf64>, %n: index, %o: index) {
  %h, %l, %r = distruntime.get_halo %a global_shape[%n] local_offsets[%o] bb_offsets[%o] bb_sizes[%n] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %w:3 = distruntime.wait %h, %a, %l, %r : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %h2, %l2, %r2 = distruntime.get_halo %a global_shape[%n] local_offsets[%o] bb_offsets[%o] bb_sizes[%n] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %w2:3 = distruntime.wait %h2, %a, %l2, %r2 : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

// ndarray.linalg: results allocated with the sizes of the op's table, one
// call of the LAPACK wrapper with (kind, flag, a, b, out0..out2: unused
// ones are the input), the status stored in a 0-d buffer.
// CHECK: func.func private @_idtr_linalg_f64(i64, i64, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>) -> i64
// CHECK-LABEL: func.func @qr
// CHECK: %[[A:.*]] = bufferization.to_buffer
// CHECK: %[[M:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[N:.*]] = memref.dim %[[A]], %c1
// CHECK: %[[K:.*]] = arith.minsi %[[M]], %[[N]]
// CHECK: %[[Q:.*]] = memref.alloc(%[[M]], %[[K]]) : memref<?x?xf64>
// CHECK: %[[R:.*]] = memref.alloc(%[[K]]) : memref<?x4xf64>
// CHECK: %[[STATUS:.*]] = call @_idtr_linalg_f64(%c7_i64, %c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<i64>
// CHECK: memref.store %[[STATUS]], %[[BUF]][]
func.func @qr(%a: !ndarray.ndarray<?x4xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<i64>) {
  %0:3 = ndarray.linalg qr %a : (!ndarray.ndarray<?x4xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<i64>)
  return %0#0, %0#1, %0#2 : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<i64>
}

// -----

// ndarray.fft: the result allocated (n / 2 + 1 along the last axis for r2c),
// one call of the FFTW wrapper named by the input and output element types,
// with the kind, the axes as a bit mask and the last axis.
// CHECK-DAG: func.func private @_idtr_fft_f64_c128(i64, i64, i64, memref<*xf64>, memref<*xcomplex<f64>>)
// CHECK-DAG: func.func private @_idtr_fft_c128_c128(i64, i64, i64, memref<*xcomplex<f64>>, memref<*xcomplex<f64>>)
// CHECK-LABEL: func.func @fft
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c1
// CHECK: %[[HALF:.*]] = arith.divui %[[N]], %c2
// CHECK: %[[M:.*]] = arith.addi %[[HALF]], %c1
// CHECK: memref.alloc(%[[M]]) : memref<4x?xcomplex<f64>>
// CHECK: call @{{"?}}_imex_idtr_fft_f64_c128
// CHECK: call @{{"?}}_imex_idtr_fft_c128_c128
// CHECK: %[[MASK:.*]] = arith.constant 3 : i64
// CHECK: %[[LAST:.*]] = arith.constant 0 : i64
// CHECK: call @{{"?}}_imex_idtr_fft_c128_c128{{[^(]*}}(%{{[^,]*}}, %[[MASK]], %[[LAST]],
func.func @fft(%a: !ndarray.ndarray<4x?xf64>) -> !ndarray.ndarray<4x?xcomplex<f64>> {
  %0 = ndarray.fft r2c %a axes [1] : !ndarray.ndarray<4x?xf64> -> !ndarray.ndarray<4x?xcomplex<f64>>
  %1 = ndarray.fft backward %0 axes [0] : !ndarray.ndarray<4x?xcomplex<f64>> -> !ndarray.ndarray<4x?xcomplex<f64>>
  %2 = ndarray.fft forward %1 axes [1, 0] : !ndarray.ndarray<4x?xcomplex<f64>> -> !ndarray.ndarray<4x?xcomplex<f64>>
  return %2 : !ndarray.ndarray<4x?xcomplex<f64>>
}

// -----

// distruntime.matrix_linalg: one call of IDTR's ScaLAPACK wrapper with the
// team, the routine and the flag; the result's rows have a's rows and b's
// columns; the status is stored into a 0-d buffer.
// CHECK-DAG: func.func private @_idtr_matrix_linalg_f64(i64, i64, i64, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>, memref<*xi8>) -> i64
// CHECK-LABEL: func.func @matrix_solve
// CHECK: %[[A:.*]] = bufferization.to_buffer %{{.*}} {distruntime.read = 0
// CHECK: %[[B:.*]] = bufferization.to_buffer %{{.*}} {distruntime.read = 1
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[COLS:.*]] = memref.dim %[[B]], %c1
// CHECK: memref.alloc(%[[ROWS]], %[[COLS]]) : memref<?x?xf64>
// CHECK: %[[F:.*]] = call @_idtr_matrix_linalg_f64(%c1_i64, %c1_i64{{.*}}, %c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: memref.store %[[F]]
func.func @matrix_solve(%a: !ndarray.ndarray<?x?xf64>, %b: !ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>) {
  %x, %s = distruntime.matrix_linalg solve %a, %b team = 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
  return %x, %s : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>
}

// -----

// QR: Q's block has a's rows and columns (the runtime writes the first
// min(m, n)); R's has the 'rows' operand's rows and a's columns.
// CHECK-LABEL: func.func @matrix_qr
// CHECK-SAME: %{{[^:]*}}: !ndarray.ndarray<?x?xf64>, %[[K:[^:]*]]: index
// CHECK: %[[A:.*]] = bufferization.to_buffer %{{.*}} {distruntime.read = 0
// CHECK: %[[ROWS:.*]] = memref.dim %[[A]], %c0
// CHECK: %[[COLS:.*]] = memref.dim %[[A]], %c1
// CHECK: memref.alloc(%[[ROWS]], %[[COLS]]) : memref<?x?xf64>
// CHECK: %[[RCOLS:.*]] = memref.dim %[[A]], %c1
// CHECK: memref.alloc(%[[K]], %[[RCOLS]]) : memref<?x?xf64>
// CHECK: call @_idtr_matrix_linalg_f64(%c1_i64, %c7_i64
func.func @matrix_qr(%a: !ndarray.ndarray<?x?xf64>, %k: index) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>) {
  %q, %r, %s = distruntime.matrix_linalg qr %a rows(%k) team = 1 : (!ndarray.ndarray<?x?xf64>) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>)
  return %q, %r, %s : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<i64>
}

// -----

// SVD: U's block as Q's, the singular values n (the runtime writes the
// first min(m, n)), V^H's block has the 'rows' operand's rows; three
// output buffers.
// CHECK-LABEL: func.func @matrix_svd
// CHECK-SAME: %{{[^:]*}}: !ndarray.ndarray<?x?xf32>, %[[K:[^:]*]]: index
// CHECK: memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc(%[[K]], %{{.*}}) : memref<?x?xf32>
// CHECK: call @_idtr_matrix_linalg_f32(%c1_i64, %c8_i64, %c0_i64, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
func.func @matrix_svd(%a: !ndarray.ndarray<?x?xf32>, %k: index) -> (!ndarray.ndarray<?x?xf32>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<?x?xf32>, !ndarray.ndarray<i64>) {
  %u, %s, %v, %t = distruntime.matrix_linalg svd %a rows(%k) team = 1 : (!ndarray.ndarray<?x?xf32>) -> (!ndarray.ndarray<?x?xf32>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<?x?xf32>, !ndarray.ndarray<i64>)
  return %u, %s, %v, %t : !ndarray.ndarray<?x?xf32>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<?x?xf32>, !ndarray.ndarray<i64>
}
