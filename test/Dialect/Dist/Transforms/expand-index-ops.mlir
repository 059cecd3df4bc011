// RUN: imex-opt %s -split-input-file -dist-expand-index-ops | FileCheck %s

// CHECK-LABEL: func @partition
// CHECK-SAME: (%[[NP:[a-z0-9]+]]: index, %[[R:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[Q:.*]] = arith.divsi %[[N]], %[[NP]] : index
// CHECK: %[[REM:.*]] = arith.remsi %[[N]], %[[NP]] : index
// CHECK: %[[FIRST:.*]] = arith.subi %[[NP]], %[[REM]] : index
// CHECK: %[[RQ:.*]] = arith.muli %[[R]], %[[Q]] : index
// CHECK: %[[RF:.*]] = arith.subi %[[R]], %[[FIRST]] : index
// CHECK: %[[EXTRA:.*]] = arith.maxsi %[[RF]], %[[C0]] : index
// CHECK: %[[OFF:.*]] = arith.addi %[[RQ]], %[[EXTRA]] : index
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %[[R]], %[[FIRST]] : index
// CHECK: %[[ONE:.*]] = arith.select %[[BIG]], %[[C1]], %[[C0]] : index
// CHECK: %[[SIZE:.*]] = arith.addi %[[Q]], %[[ONE]] : index
// CHECK-NOT: dist.
// CHECK: return %[[OFF]], %[[C0]], %[[SIZE]], %[[M]]
func.func @partition(%np: index, %r: index, %n: index, %m: index) -> (index, index, index, index) {
  %p:4 = dist.default_partition %np, %r shape(%n, %m)
  return %p#0, %p#1, %p#2, %p#3 : index, index, index, index
}

// -----

// Constant operands fold while expanding.
// CHECK-LABEL: func @partition_constant
// CHECK-DAG: %[[C27:.*]] = arith.constant 27 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NOT: arith.divsi
// CHECK: return %[[C27]], %[[C4]]
func.func @partition_constant() -> (index, index) {
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c31 = arith.constant 31 : index
  %p:2 = dist.default_partition %c8, %c7 shape(%c31)
  return %p#0, %p#1 : index, index
}

// -----

// The owned block of an array of unknown origin comes from
// dist.local_offsets_of and ndarray.dim of dist.owned_block_of.
// CHECK-LABEL: func @target_of_slice
// CHECK-SAME: (%[[D:[a-z0-9]+]]: {{.*}}, %[[F:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[LOFF:.*]]:2 = dist.local_offsets_of %[[D]]
// CHECK: %[[BLOCK:.*]] = dist.owned_block_of %[[D]]
// CHECK: %[[OROWS:.*]] = ndarray.dim %[[BLOCK]], %[[C0]]
// CHECK: %[[A:.*]] = arith.subi %[[LOFF]]#0, %[[F]] : index
// CHECK: %[[FIRST:.*]] = arith.ceildivsi %[[A]], %[[C2]] : index
// CHECK: %[[END:.*]] = arith.addi %[[LOFF]]#0, %[[OROWS]] : index
// CHECK: %[[B:.*]] = arith.subi %[[END]], %[[F]] : index
// CHECK: %[[LAST:.*]] = arith.ceildivsi %[[B]], %[[C2]] : index
// CHECK: %[[T0:.*]] = arith.maxsi %[[FIRST]], %[[C0]] : index
// CHECK: %[[T:.*]] = arith.minsi %[[T0]], %[[M]] : index
// CHECK: %[[E0:.*]] = arith.maxsi %[[LAST]], %[[T]] : index
// CHECK: %[[E:.*]] = arith.minsi %[[E0]], %[[M]] : index
// CHECK: %[[SIZE:.*]] = arith.subi %[[E]], %[[T]] : index
// CHECK: return %[[T]], %[[C0]], %[[SIZE]], %[[C16]]
func.func @target_of_slice(%d: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>, %f: index, %m: index) -> (index, index, index, index) {
  %t:4 = dist.local_target_of_slice %d[%f, 0] [%m, 16] [2, 1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  return %t#0, %t#1, %t#2, %t#3 : index, index, index, index
}

// -----

// A dist.init_dist_array gives its offset operand and block.
// CHECK-LABEL: func @target_of_init
// CHECK-SAME: (%[[O:[a-z0-9]+]]: !ndarray.ndarray<?xf64>, %[[OFF:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[F:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index, %[[S:[a-z0-9]+]]: index)
// CHECK-NOT: dist.local_offsets_of
// CHECK-NOT: dist.owned_block_of
// CHECK: %[[OROWS:.*]] = ndarray.dim %[[O]], %{{.*}} : !ndarray.ndarray<?xf64>
// CHECK: arith.subi %[[OFF]], %[[F]] : index
// CHECK: arith.ceildivsi %{{.*}}, %[[S]] : index
// CHECK: arith.addi %[[OFF]], %[[OROWS]] : index
// CHECK-NOT: dist.
func.func @target_of_init(%o: !ndarray.ndarray<?xf64>, %off: index, %n: index, %f: index, %m: index, %s: index) -> (index, index) {
  %d = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  %t:2 = dist.local_target_of_slice %d[%f] [%m] [%s] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return %t#0, %t#1 : index, index
}

// -----

// CHECK-LABEL: func @bounding_box
// CHECK-SAME: (%[[F:[a-z0-9]+]]: index, %[[S:[a-z0-9]+]]: index, %[[T:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[BO:[a-z0-9]+]]: index, %[[BS:[a-z0-9]+]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[ST:.*]] = arith.muli %[[S]], %[[T]] : index
// CHECK: %[[LO:.*]] = arith.addi %[[F]], %[[ST]] : index
// CHECK: %[[N1:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK: %[[SN:.*]] = arith.muli %[[S]], %[[N1]] : index
// CHECK: %[[SZ0:.*]] = arith.addi %[[SN]], %[[C1]] : index
// CHECK: %[[SZ:.*]] = arith.maxsi %[[SZ0]], %[[C0]] : index
// CHECK: %[[HLO:.*]] = arith.minsi %[[LO]], %[[BO]] : index
// CHECK: %[[HI1:.*]] = arith.addi %[[LO]], %[[SZ]] : index
// CHECK: %[[HI2:.*]] = arith.addi %[[BO]], %[[BS]] : index
// CHECK: %[[HHI:.*]] = arith.maxsi %[[HI1]], %[[HI2]] : index
// CHECK: %[[HSZ:.*]] = arith.subi %[[HHI]], %[[HLO]] : index
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[SZ]], %[[C0]] : index
// CHECK: %[[O1:.*]] = arith.select %[[EMPTY]], %[[BO]], %[[HLO]] : index
// CHECK: %[[BEMPTY:.*]] = arith.cmpi eq, %[[BS]], %[[C0]] : index
// CHECK: %[[OFF:.*]] = arith.select %[[BEMPTY]], %[[LO]], %[[O1]] : index
// CHECK: %[[EMPTY2:.*]] = arith.cmpi eq, %[[SZ]], %[[C0]] : index
// CHECK: %[[S1:.*]] = arith.select %[[EMPTY2]], %[[BS]], %[[HSZ]] : index
// CHECK: %[[BEMPTY2:.*]] = arith.cmpi eq, %[[BS]], %[[C0]] : index
// CHECK: %[[SIZE:.*]] = arith.select %[[BEMPTY2]], %[[SZ]], %[[S1]] : index
// CHECK: return %[[OFF]], %[[SIZE]]
func.func @bounding_box(%f: index, %s: index, %t: index, %n: index, %bo: index, %bs: index) -> (index, index) {
  %m = arith.constant 100 : index
  %b:2 = dist.local_bounding_box view[%f] [%m] [%s] target[%t] [%n] bb[%bo] [%bs]
  return %b#0, %b#1 : index, index
}

// -----

// Stride 1 and no incoming box: [f + t, f + t + max(n, 0)).
// CHECK-LABEL: func @bounding_box_unit_stride
// CHECK-SAME: (%[[F:[a-z0-9]+]]: index, %[[T:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index)
// CHECK: %[[LO:.*]] = arith.addi %[[F]], %[[T]] : index
// CHECK: %[[SZ:.*]] = arith.maxsi %[[N]], %{{.*}} : index
// CHECK-NOT: arith.select
// CHECK: return %[[LO]], %[[SZ]]
func.func @bounding_box_unit_stride(%f: index, %t: index, %n: index) -> (index, index) {
  %c1 = arith.constant 1 : index
  %b:2 = dist.local_bounding_box view[%f] [%n] [%c1] target[%t] [%n]
  return %b#0, %b#1 : index, index
}

// -----

// CHECK-LABEL: func @core
// CHECK-SAME: (%[[D:[a-z0-9]+]]: {{.*}}, %[[T:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[F:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index, %[[S:[a-z0-9]+]]: index, %[[CO:[a-z0-9]+]]: index, %[[CS:[a-z0-9]+]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[END:.*]] = arith.addi %[[T]], %[[N]] : index
// CHECK: %[[O:.*]] = dist.local_offsets_of %[[D]]
// CHECK: %[[BLOCK:.*]] = dist.owned_block_of %[[D]]
// CHECK: %[[OROWS:.*]] = ndarray.dim %[[BLOCK]], %[[C0]]
// CHECK: %[[A:.*]] = arith.subi %[[O]], %[[F]] : index
// CHECK: %[[FIRST:.*]] = arith.ceildivsi %[[A]], %[[S]] : index
// CHECK: %[[OEND:.*]] = arith.addi %[[O]], %[[OROWS]] : index
// CHECK: %[[B:.*]] = arith.subi %[[OEND]], %[[F]] : index
// CHECK: %[[LAST:.*]] = arith.ceildivsi %[[B]], %[[S]] : index
// CHECK: %[[CEND:.*]] = arith.addi %[[CO]], %[[CS]] : index
// CHECK: %[[FIRST2:.*]] = arith.maxsi %[[FIRST]], %[[CO]] : index
// CHECK: %[[LAST2:.*]] = arith.minsi %[[LAST]], %[[CEND]] : index
// CHECK: %[[LO0:.*]] = arith.maxsi %[[FIRST2]], %[[T]] : index
// CHECK: %[[LO:.*]] = arith.minsi %[[LO0]], %[[END]] : index
// CHECK: %[[HI0:.*]] = arith.maxsi %[[LAST2]], %[[LO]] : index
// CHECK: %[[HI:.*]] = arith.minsi %[[HI0]], %[[END]] : index
// CHECK: %[[SIZE:.*]] = arith.subi %[[HI]], %[[LO]] : index
// CHECK: return %[[LO]], %[[SIZE]]
func.func @core(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %t: index, %n: index, %f: index, %m: index, %s: index, %co: index, %cs: index) -> (index, index) {
  %c:2 = dist.local_core %d target[%t] [%n] view[%f] [%m] [%s] core[%co] [%cs] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return %c#0, %c#1 : index, index
}

// -----

// Dimensions 1.. of a core are the target without an incoming core; the
// owned block of a dist.init_dist_array with a static block and offset
// needs no ops.
// CHECK-LABEL: func @core_2d
// CHECK-SAME: (%{{[a-z0-9]+}}: {{.*}}, %[[T:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[F:[a-z0-9]+]]: index)
// CHECK-NOT: dist.local
// CHECK-NOT: dist.owned_block_of
// CHECK-NOT: ndarray.dim
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: arith.subi %[[C4]], %[[F]] : index
// CHECK: return %{{.*}}, %[[T]], %{{.*}}, %[[N]]
func.func @core_2d(%o: !ndarray.ndarray<4x8xf64>, %t: index, %n: index, %f: index) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %d = dist.init_dist_array %o offsets(%c4, %c0) shape(%c16, %c8) : !ndarray.ndarray<4x8xf64> -> !ndarray.ndarray<?x8xf64, #dist.dist_env<team = 1>>
  %c:4 = dist.local_core %d target[%t, %t] [%n, %n] view[%f, %c1] [%c8, %c8] [%c1, %c1] : !ndarray.ndarray<?x8xf64, #dist.dist_env<team = 1>>
  return %c#0, %c#1, %c#2, %c#3 : index, index, index, index
}

// -----

// The rows a stencil reads: a chain of boxes of views shifted by constants
// from one target, all of one size. Their hull is the target's rows widened
// by the smallest and largest shift (min/max/sub of one value shifted by
// constants fold); an empty target gives the last box (empty).
// CHECK-LABEL: func @stencil_hull
// CHECK-SAME: (%[[T:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[M:[a-z0-9]+]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[OWN:.*]] = arith.addi %[[T]], %[[C1]] : index
// CHECK-DAG: %[[SIZE:.*]] = arith.maxsi %[[N]], %[[C0]] : index
// CHECK: %[[EMPTY:.*]] = arith.cmpi eq, %[[SIZE]], %[[C0]] : index
// CHECK: %[[OFF:.*]] = arith.select %[[EMPTY]], %[[OWN]], %[[T]] : index
// CHECK: %[[WIDE:.*]] = arith.addi %[[SIZE]], %[[C2]] : index
// CHECK: %[[EMPTY2:.*]] = arith.cmpi eq, %[[SIZE]], %[[C0]] : index
// CHECK: %[[SZ:.*]] = arith.select %[[EMPTY2]], %[[SIZE]], %[[WIDE]] : index
// CHECK-NOT: arith.minsi
// CHECK-NOT: arith.maxsi
// CHECK: return %[[OFF]], %[[SZ]]
func.func @stencil_hull(%t: index, %n: index, %m: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s:2 = dist.local_bounding_box view[%c2] [%m] [%c1] target[%t] [%n]
  %n1:2 = dist.local_bounding_box view[%c0] [%m] [%c1] target[%t] [%n] bb[%s#0] [%s#1]
  %w:2 = dist.local_bounding_box view[%c1] [%m] [%c1] target[%t] [%n] bb[%n1#0] [%n1#1]
  return %w#0, %w#1 : index, index
}
