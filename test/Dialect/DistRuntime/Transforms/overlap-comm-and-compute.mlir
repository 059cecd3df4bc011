// RUN: imex-opt %s -overlap-comm-and-compute -split-input-file | FileCheck %s

!a = !ndarray.ndarray<?xf64>

// The wait moves below the computation that does not use the halos; the
// size of a halo is known before the wait.
// CHECK-LABEL: func.func @sink_wait
// CHECK: %[[H:.*]], %[[L:.*]], %[[R:.*]] = distruntime.get_halo
// CHECK: ndarray.dim %[[L]]
// CHECK: %[[CORE:.*]] = ndarray.ewbin multiply
// CHECK: %[[W:.*]]:3 = distruntime.wait %[[H]]
// CHECK: ndarray.ewbin add %[[W]]#1, %[[W]]#2
func.func @sink_wait(%own: !a, %n: index, %o: index, %b: index, %s: index) -> (!a, !a, index) {
  %c0 = arith.constant 0 : index
  %h, %l, %r = distruntime.get_halo %own global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  %rows = ndarray.dim %w#1, %c0 : !a
  %core = ndarray.ewbin multiply %own, %own : (!a, !a) -> !a
  %edge = ndarray.ewbin add %w#1, %w#2 : (!a, !a) -> !a
  return %core, %edge, %rows : !a, !a, index
}

// -----

!a = !ndarray.ndarray<?xf64>

// The exchange starts as soon as its operands exist.
// CHECK-LABEL: func.func @hoist_start
// CHECK: %[[X:.*]] = ndarray.ewuny negative
// CHECK-NEXT: distruntime.get_halo %[[X]]
// CHECK: ndarray.ewbin multiply
func.func @hoist_start(%own: !a, %n: index, %o: index, %b: index, %s: index) -> (!a, !a) {
  %x = ndarray.ewuny negative %own : !a -> !a
  %y = ndarray.ewbin multiply %own, %own : (!a, !a) -> !a
  %h, %l, %r = distruntime.get_halo %x global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %w:3 = distruntime.wait %h, %x, %l, %r : !a, !a, !a
  return %y, %w#1 : !a, !a
}

// -----

!a = !ndarray.ndarray<?xf64>

// Nothing moves across an in-place write.
// CHECK-LABEL: func.func @barrier
// CHECK: distruntime.wait
// CHECK-NEXT: ndarray.insert_slice
func.func @barrier(%own: !a, %dst: !a, %n: index, %o: index, %b: index, %s: index) -> !a {
  %h, %l, %r = distruntime.get_halo %own global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  ndarray.insert_slice %own into %dst[0] [%n] [1] : !a into !a
  %y = ndarray.ewbin add %w#1, %w#1 : (!a, !a) -> !a
  return %y : !a
}

// -----

!a = !ndarray.ndarray<?xf64>

// Computation on received data (and what depends on it) moves down to its
// first user, so that independent computation written after it comes first
// and the wait sinks below that.
// CHECK-LABEL: func.func @sink_dependent_computation
// CHECK: %[[H:.*]], %[[L:.*]], %[[R:.*]] = distruntime.get_halo
// CHECK: %[[CORE:.*]] = ndarray.ewbin multiply
// CHECK: %[[CORE2:.*]] = ndarray.ewuny negative %[[CORE]]
// CHECK: %[[W:.*]]:3 = distruntime.wait %[[H]]
// CHECK: %[[EDGE:.*]] = ndarray.ewbin add %[[W]]#1, %[[W]]#2
// CHECK: %[[EDGE2:.*]] = ndarray.ewuny negative %[[EDGE]]
// CHECK: ndarray.concat %[[EDGE2]], %[[CORE2]]
func.func @sink_dependent_computation(%own: !a, %n: index, %o: index, %b: index, %s: index) -> !a {
  %h, %l, %r = distruntime.get_halo %own global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !a -> !a, !a
  %w:3 = distruntime.wait %h, %own, %l, %r : !a, !a, !a
  %edge = ndarray.ewbin add %w#1, %w#2 : (!a, !a) -> !a
  %edge2 = ndarray.ewuny negative %edge : !a -> !a
  %core = ndarray.ewbin multiply %own, %own : (!a, !a) -> !a
  %core2 = ndarray.ewuny negative %core : !a -> !a
  %all = ndarray.concat %edge2, %core2 axis 0 : (!a, !a) -> !a
  return %all : !a
}
