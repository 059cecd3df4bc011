// RUN: imex-opt %s -split-input-file -lower-distruntime-to-idtr -convert-ndarray-to-linalg -canonicalize -cse -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// IDTR may send from the input of an exchange until its wait: an update of
// the input between the start and the wait must not be done in place.

// The input is the output of an earlier exchange (read-only buffer).
// CHECK-LABEL: func.func @input_from_exchange
// CHECK: %[[IN:.*]] = memref.alloc() : memref<8xf64>
// CHECK: call @_imex_idtr_reduce_all_f64
// CHECK: call @_imex_idtr_copy_reshape_f64
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<8xf64>
// CHECK: memref.copy %[[IN]], %[[COPY]]
// CHECK: memref.subview %[[COPY]][0] [4] [1]
// CHECK: call @_imex_idtr_wait_
func.func @input_from_exchange(%c: !ndarray.ndarray<8xf64>, %s: !ndarray.ndarray<f64>) -> (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %x = distruntime.allreduce sum %c team = 1 : !ndarray.ndarray<8xf64>
  %h, %out = distruntime.copy_reshape %x global_shape_in[%c8] local_offsets_in[%c0] global_shape_out[%c8] local_offsets_out[%c0] local_shape_out[%c8] team = 1 : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %y = ndarray.immutable_insert_slice %s into %x[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  %x2, %out2 = distruntime.wait %h, %x, %out : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
  return %y, %out2 : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
}

// -----

// The input is computed: its read at the wait keeps it unmodified.
// CHECK-LABEL: func.func @computed_input
// CHECK: %[[IN:.*]] = memref.alloc() {{.*}} : memref<8xf64>
// CHECK: linalg.generic {{.*}} outs(%[[IN]] : memref<8xf64>)
// CHECK: call @_imex_idtr_copy_reshape_f64
// CHECK: %[[COPY:.*]] = memref.alloc() {{.*}} : memref<8xf64>
// CHECK: memref.copy %[[IN]], %[[COPY]]
// CHECK: memref.subview %[[COPY]][0] [4] [1]
// CHECK: call @_imex_idtr_wait_
func.func @computed_input(%c: !ndarray.ndarray<8xf64>, %s: !ndarray.ndarray<f64>) -> (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %x = ndarray.ewuny exp %c : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %h, %out = distruntime.copy_reshape %x global_shape_in[%c8] local_offsets_in[%c0] global_shape_out[%c8] local_offsets_out[%c0] local_shape_out[%c8] team = 1 : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %y = ndarray.immutable_insert_slice %s into %x[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  %x2, %out2 = distruntime.wait %h, %x, %out : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
  return %y, %out2 : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
}

// -----

// After the wait the input may be updated in place.
// CHECK-LABEL: func.func @update_after_wait
// CHECK: %[[IN:.*]] = memref.alloc() {{.*}} : memref<8xf64>
// CHECK: call @_imex_idtr_wait_
// CHECK-NOT: memref.copy
// CHECK: memref.subview %[[IN]][0] [4] [1]
func.func @update_after_wait(%c: !ndarray.ndarray<8xf64>, %s: !ndarray.ndarray<f64>) -> (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %x = ndarray.ewuny exp %c : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %h, %out = distruntime.copy_reshape %x global_shape_in[%c8] local_offsets_in[%c0] global_shape_out[%c8] local_offsets_out[%c0] local_shape_out[%c8] team = 1 : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  %x2, %out2 = distruntime.wait %h, %x, %out : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
  %y = ndarray.immutable_insert_slice %s into %x2[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  return %y, %out2 : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
}
