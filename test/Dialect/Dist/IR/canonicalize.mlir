// RUN: imex-opt %s -split-input-file -canonicalize | FileCheck %s
// RUN: imex-opt %s -split-input-file -cse | FileCheck %s --check-prefix=CSE
// RUN: imex-opt %s -split-input-file -loop-invariant-code-motion | FileCheck %s --check-prefix=LICM

// 31 rows over 8 ranks: 3 rows each, the last 7 ranks get one more.
// CHECK-LABEL: func @partition_31_over_8
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK-DAG: %[[C27:.*]] = arith.constant 27 : index
// CHECK-NOT: dist.default_partition
// CHECK: return %[[C0]], %[[C3]], %[[C3]], %[[C4]], %[[C7]], %[[C4]], %[[C27]], %[[C4]]
func.func @partition_31_over_8() -> (index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %n = arith.constant 31 : index
  %r0:2 = dist.default_partition %c8, %c0 shape(%n)
  %r1:2 = dist.default_partition %c8, %c1 shape(%n)
  %r2:2 = dist.default_partition %c8, %c2 shape(%n)
  %r7:2 = dist.default_partition %c8, %c7 shape(%n)
  return %r0#0, %r0#1, %r1#0, %r1#1, %r2#0, %r2#1, %r7#0, %r7#1 : index, index, index, index, index, index, index, index
}

// -----

// 10 rows over 4 ranks: sizes 2, 2, 3, 3 at offsets 0, 2, 4, 7.
// CHECK-LABEL: func @partition_10_over_4
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: return %[[C0]], %[[C2]], %[[C2]], %[[C2]], %[[C4]], %[[C3]], %[[C7]], %[[C3]]
func.func @partition_10_over_4() -> (index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10 : index
  %r0:2 = dist.default_partition %c4, %c0 shape(%n)
  %r1:2 = dist.default_partition %c4, %c1 shape(%n)
  %r2:2 = dist.default_partition %c4, %c2 shape(%n)
  %r3:2 = dist.default_partition %c4, %c3 shape(%n)
  return %r0#0, %r0#1, %r1#0, %r1#1, %r2#0, %r2#1, %r3#0, %r3#1 : index, index, index, index, index, index, index, index
}

// -----

// Fewer rows than ranks (2 over 4): sizes 0, 0, 1, 1 at offsets 0, 0, 0, 1.
// CHECK-LABEL: func @partition_2_over_4
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: return %[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C1]], %[[C1]], %[[C1]]
func.func @partition_2_over_4() -> (index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %r0:2 = dist.default_partition %c4, %c0 shape(%c2)
  %r1:2 = dist.default_partition %c4, %c1 shape(%c2)
  %r2:2 = dist.default_partition %c4, %c2 shape(%c2)
  %r3:2 = dist.default_partition %c4, %c3 shape(%c2)
  return %r0#0, %r0#1, %r1#0, %r1#1, %r2#0, %r2#1, %r3#0, %r3#1 : index, index, index, index, index, index, index, index
}

// -----

// No rows; an even split; one rank.
// CHECK-LABEL: func @partition_edge_cases
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C9:.*]] = arith.constant 9 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: return %[[C0]], %[[C0]], %[[C9]], %[[C3]], %[[C0]], %[[C5]]
func.func @partition_edge_cases() -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c12 = arith.constant 12 : index
  %e:2 = dist.default_partition %c4, %c3 shape(%c0)
  %v:2 = dist.default_partition %c4, %c3 shape(%c12)
  %o:2 = dist.default_partition %c1, %c0 shape(%c5)
  return %e#0, %e#1, %v#0, %v#1, %o#0, %o#1 : index, index, index, index, index, index
}

// -----

// Dimensions 1.. are whole, even when their sizes are dynamic.
// CHECK-LABEL: func @partition_2d
// CHECK-SAME: (%[[M:.*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK: return %[[C4]], %[[C0]], %[[C5]], %[[M]]
func.func @partition_2d(%m: index) -> (index, index, index, index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = arith.constant 9 : index
  %p:4 = dist.default_partition %c2, %c1 shape(%n, %m)
  return %p#0, %p#1, %p#2, %p#3 : index, index, index, index
}

// -----

// Not folded without constant operands, nor with invalid ones.
// CHECK-LABEL: func @partition_dynamic
// CHECK: dist.default_partition
// CHECK: dist.default_partition
func.func @partition_dynamic(%np: index, %r: index) -> (index, index, index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %p:2 = dist.default_partition %np, %c0 shape(%c8)
  %q:2 = "dist.default_partition"(%r, %c0, %c8) : (index, index, index) -> (index, index)
  return %p#0, %p#1, %q#0 : index, index, index
}

// -----

// The owned block is rows [4, 8) (offset 4, four rows); the
// view selects rows 1, 3, ..., 13 (offset 1, size 7, stride 2), so this rank
// owns view rows 2 and 3.
// CHECK-LABEL: func @target_of_slice
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NOT: dist.local_target_of_slice
// CHECK: return %[[C2]], %[[C0]], %[[C2]], %[[C5]]
func.func @target_of_slice(%o: !ndarray.ndarray<4x8xf64>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %d = dist.init_dist_array %o offsets(%c4, %c0) shape(%c16, %c8) : !ndarray.ndarray<4x8xf64> -> !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  %t:4 = dist.local_target_of_slice %d[1, 2] [7, %c5] [2, 1] : !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  return %t#0, %t#1, %t#2, %t#3 : index, index, index, index
}

// -----

// Ranks owning rows before the view ([0, 0) and [0, 4): ceildiv of negative
// numbers rounds up), after it ([15, 16)) and nothing: empty targets at the
// right position.
// CHECK-LABEL: func @target_of_slice_edges
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : index
// CHECK: return %[[C0]], %[[C0]], %[[C0]], %[[C2]], %[[C7]], %[[C0]]
func.func @target_of_slice_edges(%e: !ndarray.ndarray<0xf64>, %one: !ndarray.ndarray<1xf64>, %four: !ndarray.ndarray<4xf64>) -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %a = dist.init_dist_array %e offsets(%c0) shape(%c16) : !ndarray.ndarray<0xf64> -> !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  %b = dist.init_dist_array %four offsets(%c0) shape(%c16) : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  %c = dist.init_dist_array %one offsets(%c15) shape(%c16) : !ndarray.ndarray<1xf64> -> !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  %ta:2 = dist.local_target_of_slice %a[1] [7] [2] : !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  %tb:2 = dist.local_target_of_slice %b[1] [7] [2] : !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  %tc:2 = dist.local_target_of_slice %c[1] [7] [2] : !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  return %ta#0, %ta#1, %tb#0, %tb#1, %tc#0, %tc#1 : index, index, index, index, index, index
}

// -----

// The owned block of a dist.init_dist_array: a static block type and a
// constant offset.
// CHECK-LABEL: func @target_of_init
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: return %[[C1]], %[[C3]]
func.func @target_of_init(%o: !ndarray.ndarray<3xf64>, %n: index) -> (index, index) {
  %c7 = arith.constant 7 : index
  %d = dist.init_dist_array %o offsets(%c7) shape(%n) : !ndarray.ndarray<3xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  // Owned rows [7, 10) of the view starting at row 6.
  %c6 = arith.constant 6 : index
  %c10 = arith.constant 10 : index
  %t:2 = dist.local_target_of_slice %d[%c6] [%c10] [1] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return %t#0, %t#1 : index, index
}

// -----

// Not folded when the owned block is not known.
// CHECK-LABEL: func @target_dynamic
// CHECK: dist.local_target_of_slice
func.func @target_dynamic(%d: !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>) -> (index, index) {
  %t:2 = dist.local_target_of_slice %d[0] [8] [2] : !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  return %t#0, %t#1 : index, index
}

// -----

// View offset 1, stride 2; target rows [2, 4) read base rows 5 and 7: box
// [5, 8). Its hull with [2, 3) is [2, 8); an empty incoming box or target
// does not contribute.
// CHECK-LABEL: func @bounding_box
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NOT: dist.local_bounding_box
// CHECK: return %[[C5]], %[[C0]], %[[C3]], %[[C16]], %[[C2]], %[[C6]], %[[C5]], %[[C3]], %[[C2]], %[[C1]], %[[C5]], %[[C0]]
func.func @bounding_box() -> (index, index, index, index, index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %b:4 = dist.local_bounding_box view[%c1, %c0] [%c7, %c16] [%c2, %c1] target[%c2, %c0] [%c2, %c16]
  %h:2 = dist.local_bounding_box view[%c1] [%c7] [%c2] target[%c2] [%c2] bb[%c2] [%c1]
  %e:2 = dist.local_bounding_box view[%c1] [%c7] [%c2] target[%c2] [%c2] bb[%c7] [%c0]
  %n:2 = dist.local_bounding_box view[%c1] [%c7] [%c2] target[%c2] [%c0] bb[%c2] [%c1]
  %z:2 = dist.local_bounding_box view[%c1] [%c7] [%c2] target[%c2] [%c0]
  return %b#0, %b#1, %b#2, %b#3, %h#0, %h#1, %e#0, %e#1, %n#0, %n#1, %z#0, %z#1 : index, index, index, index, index, index, index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func @bounding_box_dynamic
// CHECK: dist.local_bounding_box
func.func @bounding_box_dynamic(%t: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %b:2 = dist.local_bounding_box view[%c1] [%c7] [%c1] target[%t] [%c1]
  return %b#0, %b#1 : index, index
}

// -----

// Owned rows [4, 8); view offset 1, stride 2 (view rows 2 and 3 are owned).
// Targets [1, 5) -> core [2, 4); [5, 7) -> empty at 5; with the incoming
// core [3, 4) -> [3, 4). Dimension 1: the target, intersected with an
// incoming core.
// CHECK-LABEL: func @core
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-NOT: dist.local_core
// CHECK: return %[[C2]], %[[C0]], %[[C2]], %[[C8]], %[[C5]], %[[C0]], %[[C3]], %[[C2]], %[[C1]], %[[C6]]
func.func @core(%o: !ndarray.ndarray<4x8xf64>) -> (index, index, index, index, index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %d = dist.init_dist_array %o offsets(%c4, %c0) shape(%c16, %c8) : !ndarray.ndarray<4x8xf64> -> !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  %a:4 = dist.local_core %d target[%c1, %c0] [%c4, %c8] view[%c1, %c0] [%c7, %c8] [%c2, %c1] : !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  %b:4 = dist.local_core %d target[%c5, %c0] [%c2, %c8] view[%c1, %c0] [%c7, %c8] [%c2, %c1] : !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  %c:4 = dist.local_core %d target[%c1, %c0] [%c4, %c8] view[%c1, %c0] [%c7, %c8] [%c2, %c1] core[%c3, %c2] [%c1, %c6] : !ndarray.ndarray<16x8xf64, #dist.dist_env<team = 1>>
  return %a#0, %a#1, %a#2, %a#3, %b#0, %b#2, %c#0, %c#1, %c#2, %c#3 : index, index, index, index, index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func @core_dynamic
// CHECK: dist.local_core
func.func @core_dynamic(%d: !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>) -> (index, index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a:2 = dist.local_core %d target[%c1] [%c4] view[%c1] [%c4] [%c1] : !ndarray.ndarray<16xf64, #dist.dist_env<team = 1>>
  return %a#0, %a#1 : index, index
}

// -----

// CHECK-LABEL: func @blocks_of_init
// CHECK-SAME: (%[[O:[a-z0-9]+]]: !ndarray.ndarray<?xf64>, %[[OFF:[a-z0-9]+]]: index
// CHECK-NOT: dist.owned_block_of
// CHECK-NOT: dist.held_block_of
// CHECK-NOT: dist.local_offsets_of
// CHECK: return %[[O]], %[[O]], %[[OFF]]
func.func @blocks_of_init(%o: !ndarray.ndarray<?xf64>, %off: index, %n: index) -> (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, index) {
  %d = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %p = dist.owned_block_of %d : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  %h = dist.held_block_of %d : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  %lo = dist.local_offsets_of %d : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return %p, %h, %lo : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, index
}

// -----

// Not folded when the types differ.
// CHECK-LABEL: func @blocks_of_init_types
// CHECK: dist.owned_block_of
// CHECK: dist.held_block_of
func.func @blocks_of_init_types(%l: !ndarray.ndarray<2xf64>, %n: index) -> (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) {
  %d = dist.init_dist_array %l offsets(%n) shape(%n) : !ndarray.ndarray<2xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %p = dist.owned_block_of %d : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  %h = dist.held_block_of %d : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  return %p, %h : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
}

// -----

// Local offsets of a dist.init_dist_array fold; the offsets of dimensions
// 1.. are always 0.
// CHECK-LABEL: func @local_offsets
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[D:.*]]:2 = dist.local_offsets_of %{{.*}} : !ndarray.ndarray<?x4xf64
// CHECK: return %[[C3]], %[[C0]], %[[D]]#0, %[[C0]]
func.func @local_offsets(%o: !ndarray.ndarray<?x4xf64>, %b: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = dist.init_dist_array %o offsets(%c3, %c0) shape(%c8, %c4) : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<8x4xf64, #dist.dist_env<team = 1>>
  %s:2 = dist.local_offsets_of %a : !ndarray.ndarray<8x4xf64, #dist.dist_env<team = 1>>
  %d:2 = dist.local_offsets_of %b : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return %s#0, %s#1, %d#0, %d#1 : index, index, index, index
}

// -----

// Repartitions are collective: removed when unused and merged by CSE when
// equal, but never hoisted out of a loop (all ranks must execute them), unlike
// the pure index computations.
// CHECK-LABEL: func @repartition
// CHECK-COUNT-2: dist.repartition
// CHECK-NOT: dist.repartition
// CSE-LABEL: func @repartition
// CSE-COUNT-1: dist.repartition
// CSE-NOT: dist.repartition
func.func @repartition(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %o: index, %n: index) -> (!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) {
  %unused = dist.repartition %d offset %n size %o : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %a = dist.repartition %d offset %o size %n : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %b = dist.repartition %d offset %o size %n : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return %a, %b : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
}

// -----

func.func private @use(!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>)

// CHECK-LABEL: func @repartition_in_loop
// CSE-LABEL: func @repartition_in_loop
// LICM-LABEL: func @repartition_in_loop
// LICM: dist.default_partition
// LICM: scf.for
// LICM: dist.repartition
func.func @repartition_in_loop(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %np: index, %r: index, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %steps step %c1 {
    %p:2 = dist.default_partition %np, %r shape(%n)
    %x = dist.repartition %d offset %p#0 size %p#1 : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
    func.call @use(%x) : (!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) -> ()
  }
  return
}

// -----

// The global size of a distributed array is known through elementwise ops
// whose operands agree on it (size-1 operands broadcast).
// CHECK-LABEL: func @dim_of_distributed
// CHECK-SAME: (%[[L:.*]]: !ndarray.ndarray<?xf64>, %[[O:.*]]: !ndarray.ndarray<?xf64>, %[[OFF:.*]]: index, %[[N:.*]]: index
// CHECK-NOT: ndarray.dim
// CHECK: return %[[N]], %[[N]]
!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
func.func @dim_of_distributed(%l: !ndarray.ndarray<?xf64>, %o: !ndarray.ndarray<?xf64>, %off: index, %n: index, %s: !ndarray.ndarray<1xf64>) -> (index, index) {
  %c0 = arith.constant 0 : index
  %a = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<?xf64> -> !d
  %b = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<?xf64> -> !d
  %e = ndarray.ewbin add %a, %b : (!d, !d) -> !d
  %f = ndarray.ewuny exp %e : !d -> !d
  %g = ndarray.ewbin multiply %f, %s : (!d, !ndarray.ndarray<1xf64>) -> !d
  %0 = ndarray.dim %e, %c0 : !d
  %1 = ndarray.dim %g, %c0 : !d
  return %0, %1 : index, index
}

// -----

// Unknown when the operands' sizes are different values.
// CHECK-LABEL: func @dim_of_distributed_unknown
// CHECK: ndarray.dim
!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
func.func @dim_of_distributed_unknown(%l: !ndarray.ndarray<?xf64>, %o: !ndarray.ndarray<?xf64>, %off: index, %n: index, %m: index) -> index {
  %c0 = arith.constant 0 : index
  %a = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<?xf64> -> !d
  %b = dist.init_dist_array %o offsets(%off) shape(%m) : !ndarray.ndarray<?xf64> -> !d
  %e = ndarray.ewbin add %a, %b : (!d, !d) -> !d
  %0 = ndarray.dim %e, %c0 : !d
  return %0 : index
}

// -----

// Rank 5 of a 2x3 grid has coordinates (1, 2): rows 3..6 of 7 (the second of
// two blocks), columns 4..6 of 7 (the last of 2, 2, 3); rank 6 is beyond the
// grid and owns nothing.
// CHECK-LABEL: func @grid_partition_fold
// CHECK-NOT: dist.grid_partition
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: return %[[C3]], %[[C4]], %[[C4]], %[[C3]], %[[C0]], %[[C0]]
func.func @grid_partition_fold() -> (index, index, index, index, index, index) {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %p:4 = dist.grid_partition %c5 grid(%c2, %c3) shape(%c7, %c7) split [0, 1]
  %q:4 = dist.grid_partition %c6 grid(%c2, %c3) shape(%c7, %c7) split [0, 1]
  return %p#0, %p#1, %p#2, %p#3, %q#2, %q#3 : index, index, index, index, index, index
}

// -----

// A rank known only at run time: no fold (the results are computed together).
// CHECK-LABEL: func @grid_partition_columns
// CHECK-SAME: (%[[R:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[O:.*]]:2, %[[S:.*]]:2 = dist.grid_partition %[[R]] grid(%{{.*}}) shape(%[[N]], %{{.*}}) split [1]
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @grid_partition_columns(%r: index, %n: index) -> (index, index) {
  %c4 = arith.constant 4 : index
  %c9 = arith.constant 9 : index
  %p:4 = dist.grid_partition %r grid(%c4) shape(%n, %c9) split [1]
  return %p#2, %p#3 : index, index
}

// -----

// CHECK-LABEL: func @redistribute_fold
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>)
// CHECK-NEXT: %[[G:.*]] = dist.redistribute %[[A]] : {{.*}} -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
// CHECK-NEXT: return %[[A]], %[[G]]
func.func @redistribute_fold(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>) -> (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>) {
  %same = dist.redistribute %a : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
  %c = dist.redistribute %same : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
  %back = dist.redistribute %c : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
  %g = dist.redistribute %c : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  return %back, %g : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
}
