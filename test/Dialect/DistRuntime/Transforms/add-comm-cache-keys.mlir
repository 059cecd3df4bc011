// RUN: imex-opt %s -add-comm-cache-keys -split-input-file | FileCheck %s
// RUN: imex-opt %s -add-comm-cache-keys=first-key=100 -split-input-file | FileCheck %s --check-prefix=FIRST

!a = !ndarray.ndarray<?x8xf64>

// Metadata computed from values defined outside the loop: keyed, and the
// plan is forgotten before the loop (built again by the next execution).
// The loop-carried array is updated in place, so its shape is fixed.
// CHECK-LABEL: func.func @invariant
// CHECK: distruntime.forget_plan team = 1 key = 0
// CHECK-NEXT: scf.for
// CHECK: distruntime.get_halo {{.*}} team = 1 key = 0
// FIRST-LABEL: func.func @invariant
// FIRST: distruntime.forget_plan team = 1 key = 100
// FIRST: distruntime.get_halo {{.*}} team = 1 key = 100
func.func @invariant(%u: !a, %n: index, %o: index, %lb: index, %ub: index, %steps: index) -> !a {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %u) -> (!a) {
    %rows = ndarray.dim %x, %c0 : !a
    %end = arith.addi %o, %rows : index
    %b = arith.subi %o, %c1 : index
    %s = arith.addi %rows, %c1 : index
    %h, %l, %rh = distruntime.get_halo %x global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%b, %c0] bb_sizes[%s, %c8] team = 1 : !a -> !a, !a
    %w:3 = distruntime.wait %h, %x, %l, %rh : !a, !a, !a
    %y = ndarray.immutable_insert_slice %w#1 into %x[0, 0] [%c1, 8] [1, 1] : !a into !a
    scf.yield %y : !a
  }
  return %r : !a
}

// -----

!a = !ndarray.ndarray<?x8xf64>

// A bounding box depending on the iteration: no key.
// CHECK-LABEL: func.func @varying
// CHECK-NOT: forget_plan
// CHECK: distruntime.get_halo {{.*}} team = 1 :
func.func @varying(%u: !a, %n: index, %o: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %steps step %c1 {
    %h, %l, %rh = distruntime.get_halo %u global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%i, %c0] bb_sizes[%c1, %c8] team = 1 : !a -> !a, !a
    %w:3 = distruntime.wait %h, %u, %l, %rh : !a, !a, !a
  }
  return
}

// -----

!a = !ndarray.ndarray<?x8xf64>

// An array whose shape changes between iterations: no key.
// CHECK-LABEL: func.func @shape_changes
// CHECK-NOT: forget_plan
// CHECK: distruntime.get_halo {{.*}} team = 1 :
func.func @shape_changes(%u: !a, %v: !a, %n: index, %o: index, %steps: index) -> !a {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %u) -> (!a) {
    %h, %l, %rh = distruntime.get_halo %x global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%o, %c0] bb_sizes[%c1, %c8] team = 1 : !a -> !a, !a
    %w:3 = distruntime.wait %h, %x, %l, %rh : !a, !a, !a
    scf.yield %v : !a
  }
  return %r : !a
}

// -----

!a = !ndarray.ndarray<?x8xf64>

// Outside loops, or with a key already: unchanged.
// CHECK-LABEL: func.func @no_loop
// CHECK-NOT: forget_plan
// CHECK: distruntime.get_halo {{.*}} team = 1 :
// CHECK: distruntime.get_halo {{.*}} team = 1 key = 7 :
func.func @no_loop(%u: !a, %n: index, %o: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %h, %l, %rh = distruntime.get_halo %u global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%o, %c0] bb_sizes[%c1, %c8] team = 1 : !a -> !a, !a
  %w:3 = distruntime.wait %h, %u, %l, %rh : !a, !a, !a
  scf.for %i = %c0 to %steps step %c1 {
    %h2, %l2, %r2 = distruntime.get_halo %u global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%o, %c0] bb_sizes[%c1, %c8] team = 1 key = 7 : !a -> !a, !a
    %w2:3 = distruntime.wait %h2, %u, %l2, %r2 : !a, !a, !a
  }
  return
}

// -----

!a = !ndarray.ndarray<?x8xf64>

// Nested loops: the plan is forgotten before the outermost loop in which
// the metadata is fixed.
// CHECK-LABEL: func.func @nested
// CHECK: distruntime.forget_plan team = 1 key = 0
// CHECK-NEXT: scf.for %[[I:.*]] =
// CHECK: distruntime.forget_plan team = 1 key = 1
// CHECK-NEXT: scf.for
// CHECK: distruntime.get_halo {{.*}} key = 0
// CHECK: distruntime.get_halo {{.*}} bb_offsets[%[[I]], {{.*}} key = 1
func.func @nested(%u: !a, %n: index, %o: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %steps step %c1 {
    scf.for %j = %c0 to %steps step %c1 {
      %h, %l, %rh = distruntime.get_halo %u global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%o, %c0] bb_sizes[%c1, %c8] team = 1 : !a -> !a, !a
      %w:3 = distruntime.wait %h, %u, %l, %rh : !a, !a, !a
      %h2, %l2, %r2 = distruntime.get_halo %u global_shape[%n, %c8] local_offsets[%o, %c0] bb_offsets[%i, %c0] bb_sizes[%c1, %c8] team = 1 : !a -> !a, !a
      %w2:3 = distruntime.wait %h2, %u, %l2, %r2 : !a, !a, !a
    }
  }
  return
}
