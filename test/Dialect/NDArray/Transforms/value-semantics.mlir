// RUN: imex-opt %s -split-input-file -ndarray-value-semantics -verify-diagnostics | FileCheck %s

// A write through a view becomes a new version of the root; a later read of
// the view is re-derived from that version.
// CHECK-LABEL: func @write_through_view
// CHECK-SAME: (%[[N:.*]]: index, %[[S:.*]]: !ndarray.ndarray<f64>)
// CHECK: %[[U:.*]] = ndarray.create(%[[N]])
// CHECK: %[[OLD:.*]] = ndarray.extract_slice %[[U]][1] [4] [1]
// CHECK: %[[NEWV:.*]] = ndarray.immutable_insert_slice %[[S]] into %[[OLD]][0] [2] [1]
// CHECK: %[[NEWU:.*]] = ndarray.immutable_insert_slice %[[NEWV]] into %[[U]][1] [4] [1]
// CHECK: %[[READ:.*]] = ndarray.extract_slice %[[NEWU]][1] [4] [1]
// CHECK: ndarray.ewuny sqrt %[[READ]]
// CHECK-NOT: ndarray.subview
// CHECK-NOT: ndarray.insert_slice
// CHECK: return %[[NEWU]]
func.func @write_through_view(%n: index, %s: !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64> {
  %u = ndarray.create(%n) : !ndarray.ndarray<?xf64>
  %v = ndarray.subview %u[1] [4] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<4xf64>
  ndarray.insert_slice %s into %v[0] [2] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<4xf64>
  %r = ndarray.ewuny sqrt %v : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  ndarray.delete %r : !ndarray.ndarray<4xf64>
  return %u : !ndarray.ndarray<?xf64>
}

// -----

// Reads before a write see the old version.
// CHECK-LABEL: func @read_before_write
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<4xf64>, %[[S:.*]]: !ndarray.ndarray<f64>)
// CHECK: %[[R0:.*]] = ndarray.ewuny negative %[[A]]
// CHECK: %[[A1:.*]] = ndarray.immutable_insert_slice %[[S]] into %[[A]]
// CHECK: %[[R1:.*]] = ndarray.ewuny negative %[[A1]]
// CHECK: ndarray.insert_slice %[[A1]] into %[[A]][0] [4] [1] {ndarray.write_back}
// CHECK: return %[[R0]], %[[R1]]
func.func @read_before_write(%a: !ndarray.ndarray<4xf64>, %s: !ndarray.ndarray<f64>) -> (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) {
  %0 = ndarray.ewuny negative %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  ndarray.insert_slice %s into %a[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<4xf64>
  %1 = ndarray.ewuny negative %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return %0, %1 : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>
}

// -----

// Versions are loop-carried through new iteration arguments.
// CHECK-LABEL: func @loop
// CHECK: %[[U:.*]] = ndarray.create
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[V:.*]] = %[[U]]) -> (!ndarray.ndarray<8xf64>)
// CHECK:   %[[X:.*]] = ndarray.extract_slice %[[V]][0] [7] [1]
// CHECK:   %[[N:.*]] = ndarray.immutable_insert_slice %[[X]] into %[[V]][1] [7] [1]
// CHECK:   scf.yield %[[N]]
// CHECK: ndarray.reduction sum %[[R]]
func.func @loop(%lb: index, %ub: index, %step: index) -> !ndarray.ndarray<f64> {
  %u = ndarray.create : !ndarray.ndarray<8xf64>
  scf.for %i = %lb to %ub step %step {
    %lo = ndarray.subview %u[0] [7] [1] : !ndarray.ndarray<8xf64> to !ndarray.ndarray<7xf64>
    ndarray.insert_slice %lo into %u[1] [7] [1] : !ndarray.ndarray<7xf64> into !ndarray.ndarray<8xf64>
  }
  %s = ndarray.reduction sum %u : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<f64>
  return %s : !ndarray.ndarray<f64>
}

// -----

// scf.if gets a result per updated array; a missing else keeps the version.
// CHECK-LABEL: func @branch
// CHECK: %[[U:.*]] = ndarray.create
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (!ndarray.ndarray<4xi32>) {
// CHECK:   %[[N:.*]] = ndarray.immutable_insert_slice
// CHECK:   scf.yield %[[N]]
// CHECK: } else {
// CHECK:   scf.yield %[[U]]
// CHECK: return %[[R]]
func.func @branch(%c: i1, %s: !ndarray.ndarray<i32>) -> !ndarray.ndarray<4xi32> {
  %u = ndarray.create : !ndarray.ndarray<4xi32>
  scf.if %c {
    ndarray.insert_slice %s into %u[0] [4] [1] : !ndarray.ndarray<i32> into !ndarray.ndarray<4xi32>
  }
  return %u : !ndarray.ndarray<4xi32>
}

// -----

// Writes into a rank-reduced view expand the dropped dimension back.
// CHECK-LABEL: func @rank_reduced
// CHECK: %[[C:.*]] = ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[1] [2] [1] : !ndarray.ndarray<2xf64> into !ndarray.ndarray<4xf64>
// CHECK: %[[E:.*]] = ndarray.expand_dims %[[C]] [1] : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4x1xf64>
// CHECK: ndarray.immutable_insert_slice %[[E]] into %{{.*}}[0, 2] [4, 1] [1, 1] : !ndarray.ndarray<4x1xf64> into !ndarray.ndarray<4x4xf64>
func.func @rank_reduced(%v: !ndarray.ndarray<2xf64>) -> !ndarray.ndarray<4x4xf64> {
  %a = ndarray.create : !ndarray.ndarray<4x4xf64>
  %col = ndarray.subview %a[0, 2] [4, 1] [1, 1] : !ndarray.ndarray<4x4xf64> to !ndarray.ndarray<4xf64>
  ndarray.insert_slice %v into %col[1] [2] [1] : !ndarray.ndarray<2xf64> into !ndarray.ndarray<4xf64>
  return %a : !ndarray.ndarray<4x4xf64>
}

// -----

// Versions of arrays updated in an scf.while are threaded through both
// regions: the condition forwards them, the body yields the new ones.
// CHECK-LABEL: func @while_loop
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<4xf64>, %[[S:.*]]: !ndarray.ndarray<f64>, %[[C:.*]]: i1)
// CHECK: %[[R:.*]] = scf.while (%[[B:.*]] = %[[A]]) : (!ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
// CHECK: ndarray.reduction sum %[[B]]
// CHECK: scf.condition(%{{.*}}) %[[B]]
// CHECK: ^bb0(%[[D:.*]]: !ndarray.ndarray<4xf64>):
// CHECK: %[[N:.*]] = ndarray.immutable_insert_slice %[[S]] into %[[D]]
// CHECK: scf.yield %[[N]]
// CHECK: ndarray.insert_slice %[[R]] into %[[A]][0] [4] [1] {ndarray.write_back}
func.func @while_loop(%a: !ndarray.ndarray<4xf64>, %s: !ndarray.ndarray<f64>, %c: i1) {
  scf.while : () -> () {
    %t = ndarray.reduction sum %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<f64>
    %v = ndarray.load %t[] : !ndarray.ndarray<f64>
    %zero = arith.constant 0.0 : f64
    %go = arith.cmpf olt, %v, %zero : f64
    scf.condition(%go)
  } do {
    ndarray.insert_slice %s into %a[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<4xf64>
    scf.yield
  }
  return
}

// -----

func.func @nested_from_memref(%m: memref<4xf64>, %s: !ndarray.ndarray<f64>, %c: i1) {
  scf.if %c {
    // expected-error @+1 {{is updated in place but is not at function level}}
    %a = ndarray.from_memref %m : memref<4xf64> -> !ndarray.ndarray<4xf64>
    ndarray.insert_slice %s into %a[0] [4] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<4xf64>
  }
  return
}

// -----

// Write-backs already write a version of their destination (an earlier run
// of the pass, or ndarray-dist): they stay, and the pass is idempotent.
// CHECK-LABEL: func.func @write_back_kept
// CHECK-NEXT: %[[V:.*]] = ndarray.ewuny negative %[[A:.*]] :
// CHECK-NEXT: ndarray.insert_slice %[[V]] into %[[A]][0, 0] [%{{.*}}, %{{.*}}] [1, 1] {ndarray.write_back}
// CHECK-NEXT: return
func.func @write_back_kept(%a: !ndarray.ndarray<?x?xf64>, %n: index, %m: index) {
  %v = ndarray.ewuny negative %a : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %v into %a[0, 0] [%n, %m] [1, 1] {ndarray.write_back} : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
