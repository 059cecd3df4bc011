// RUN: imex-opt %s -split-input-file -cse -canonicalize -loop-invariant-code-motion | FileCheck %s

// Communication is never merged, even between identical ops with identical
// operands: every rank must issue every collective.
// CHECK-LABEL: func @allreduce_not_merged
// CHECK-COUNT-2: distruntime.allreduce sum
func.func @allreduce_not_merged(%a: !ndarray.ndarray<4xf64>) -> (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) {
  %0 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xf64>
  %1 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xf64>
  return %0, %1 : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>
}

// -----

// CHECK-LABEL: func @exscan_not_merged_nor_erased
// CHECK-COUNT-3: distruntime.exscan sum
func.func @exscan_not_merged_nor_erased(%a: !ndarray.ndarray<4xf64>) -> (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) {
  %0 = distruntime.exscan sum %a team = 1 : !ndarray.ndarray<4xf64>
  %1 = distruntime.exscan sum %a team = 1 : !ndarray.ndarray<4xf64>
  %2 = distruntime.exscan sum %a team = 1 : !ndarray.ndarray<4xf64>
  return %0, %1 : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>
}

// -----

// CHECK-LABEL: func @get_halo_not_merged
// CHECK: distruntime.get_halo
// CHECK: distruntime.wait
// CHECK: distruntime.get_halo
// CHECK: distruntime.wait
func.func @get_halo_not_merged(%a: !ndarray.ndarray<?xf64>, %n: index, %o: index, %b: index, %s: index) -> (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) {
  %h1, %l1, %r1 = distruntime.get_halo %a global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %w1:3 = distruntime.wait %h1, %a, %l1, %r1 : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %h2, %l2, %r2 = distruntime.get_halo %a global_shape[%n] local_offsets[%o] bb_offsets[%b] bb_sizes[%s] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  %w2:3 = distruntime.wait %h2, %a, %l2, %r2 : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return %w1#1, %w2#1 : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
}

// -----

// Unused results do not make communication dead.
// CHECK-LABEL: func @unused_not_erased
// CHECK: distruntime.allreduce
// CHECK: distruntime.copy_reshape
// CHECK: distruntime.wait
func.func @unused_not_erased(%a: !ndarray.ndarray<?xf64>, %n: index, %o: index) {
  %0 = distruntime.allreduce max %a team = 1 : !ndarray.ndarray<?xf64>
  %h, %r = distruntime.copy_reshape %a global_shape_in[%n] local_offsets_in[%o] global_shape_out[%n] local_offsets_out[%o] local_shape_out[%n] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %w:2 = distruntime.wait %h, %a, %r : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

// Team queries are pure run-time values: identical ones merge, unused ones
// go away, nothing folds them to constants.
// CHECK-LABEL: func @team_queries
// CHECK-NEXT: %[[N:.*]] = distruntime.team_size team = 1
// CHECK-NEXT: %[[R:.*]] = distruntime.team_member team = 1
// CHECK-NEXT: return %[[N]], %[[N]], %[[R]]
func.func @team_queries() -> (index, index, index) {
  %n1 = distruntime.team_size team = 1
  %n2 = distruntime.team_size team = 1
  %r = distruntime.team_member team = 1
  %unused = distruntime.team_member team = 2
  return %n1, %n2, %r : index, index, index
}

// -----

// Communication is not hoisted out of loops even with loop-invariant
// operands.
// CHECK-LABEL: func @not_hoisted
// CHECK: scf.for
// CHECK-NEXT: distruntime.allreduce
func.func @not_hoisted(%a: !ndarray.ndarray<4xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %0 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<4xf64>
  }
  return
}

// -----

// Forgetting plans changes the communication state: never removed, merged
// or hoisted out of a loop.
// CHECK-LABEL: func.func @forget_plan
// CHECK: scf.for
// CHECK-NEXT: distruntime.forget_plan team = 1 key = 0
// CHECK-NEXT: distruntime.forget_plan team = 1 key = 0
func.func @forget_plan(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    distruntime.forget_plan team = 1 key = 0
    distruntime.forget_plan team = 1 key = 0
  }
  return
}
