// RUN: imex-opt %s -dist-infer-elementwise-cores -split-input-file | FileCheck %s

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// A chain of elementwise ops computing the same rows: all the arrays it
// reads from outside (also those defined between its ops) are split at one
// common core, before the first op of the chain.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:[^:]*]]: !ndarray.ndarray{{.*}}, %[[Y:[^:]*]]: !ndarray.ndarray{{.*}}, %[[Z:[^:]*]]: !ndarray.ndarray
// CHECK-DAG: %[[A:.*]] = dist.local_repartition %[[X]]
// CHECK-DAG: %[[B:.*]] = dist.local_repartition %[[Y]]
// CHECK-DAG: %[[C:.*]] = dist.local_repartition %[[Z]]
// CHECK: %[[AL:.*]]:3 = dist.align_cores %[[A]], %[[B]], %[[C]]
// CHECK-NEXT: %[[S:.*]] = ndarray.ewbin add %[[AL]]#0, %[[AL]]#1
// CHECK-NEXT: %[[T:.*]] = ndarray.ewbin multiply %[[S]], %[[AL]]#2
// CHECK-NEXT: %[[U:.*]] = ndarray.ewuny negative %[[T]]
// CHECK-NEXT: return %[[U]]
func.func @chain(%x: !d, %y: !d, %z: !d, %o: index, %s: index) -> !d {
  %a = dist.local_repartition %x offset %o size %s : !d -> !d
  %b = dist.local_repartition %y offset %o size %s : !d -> !d
  %sum = ndarray.ewbin add %a, %b : (!d, !d) -> !d
  %c = dist.local_repartition %z offset %o size %s : !d -> !d
  %prod = ndarray.ewbin multiply %sum, %c : (!d, !d) -> !d
  %neg = ndarray.ewuny negative %prod : !d -> !d
  return %neg : !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// Ops computing different rows are separate groups, each with its own core.
// CHECK-LABEL: func.func @different_rows
// CHECK: %[[P:.*]]:2 = dist.align_cores
// CHECK-NEXT: ndarray.ewbin add %[[P]]#0, %[[P]]#1
// CHECK: %[[Q:.*]]:2 = dist.align_cores
// CHECK-NEXT: ndarray.ewbin add %[[Q]]#0, %[[Q]]#1
func.func @different_rows(%x: !d, %y: !d, %o: index, %s: index, %o2: index, %s2: index) -> (!d, !d) {
  %a = dist.repartition %x offset %o size %s : !d -> !d
  %b = dist.repartition %y offset %o size %s : !d -> !d
  %e = ndarray.ewbin add %a, %b : (!d, !d) -> !d
  %c = dist.repartition %x offset %o2 size %s2 : !d -> !d
  %d = dist.repartition %y offset %o2 size %s2 : !d -> !d
  %f = ndarray.ewbin add %c, %d : (!d, !d) -> !d
  return %e, %f : !d, !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// Operands without explicit rows (the owned rows of an array and an array
// repartitioned to them): no halos to split off, nothing to do.
// CHECK-LABEL: func.func @owned_rows
// CHECK-NOT: dist.align_cores
func.func @owned_rows(%x: !d, %y: !d) -> !d {
  %c0 = arith.constant 0 : index
  %n = ndarray.dim %x, %c0 : !d
  %o, %s = dist.local_target_of_slice %x[0] [%n] [1] : !d
  %b = dist.repartition %y offset %o size %s : !d -> !d
  %e = ndarray.ewbin add %x, %b : (!d, !d) -> !d
  return %e : !d
}

// -----

!d = !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>

// Only elementwise ops read the split arrays: a reduction of a leaf keeps
// reading the leaf itself.
// CHECK-LABEL: func.func @non_elementwise
// CHECK: %[[A:.*]] = dist.repartition
// CHECK: %[[B:.*]] = dist.repartition
// CHECK: ndarray.reduction sum %[[A]]
// CHECK: %[[AL:.*]]:2 = dist.align_cores %[[A]], %[[B]]
// CHECK: ndarray.ewbin add %[[AL]]#0, %[[AL]]#1
func.func @non_elementwise(%x: !d, %y: !d, %o: index, %s: index) -> (!d, !ndarray.ndarray<f64>) {
  %a = dist.repartition %x offset %o size %s : !d -> !d
  %b = dist.repartition %y offset %o size %s : !d -> !d
  %r = ndarray.reduction sum %a : !d -> !ndarray.ndarray<f64>
  %e = ndarray.ewbin add %a, %b : (!d, !d) -> !d
  return %e, %r : !d, !ndarray.ndarray<f64>
}
