// RUN: imex-opt %s -imex-fuse-elementwise -cse -split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A DAG: q = -log(r) feeds three consumers, x and y share qs. Everything is
// one loop with one result per returned array; log is computed once.
// CHECK-LABEL: func.func @dag
// CHECK-SAME: (%[[R:.*]]: tensor<64xf64>, %[[F:.*]]: tensor<64xf64>)
// CHECK: %[[FUSED:.*]]:3 = linalg.generic
// CHECK-SAME: ins(%[[R]], %[[F]] : tensor<64xf64>, tensor<64xf64>)
// CHECK: math.log
// CHECK-NOT: math.log
// CHECK: math.cos
// CHECK: math.sin
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[FUSED]]#0, %[[FUSED]]#1, %[[FUSED]]#2
func.func @dag(%r: tensor<64xf64>, %f: tensor<64xf64>) -> (tensor<64xf64>, tensor<64xf64>, tensor<64xf64>) {
  %e = tensor.empty() : tensor<64xf64>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%r : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    %l = math.log %in : f64
    %n = arith.negf %l : f64
    linalg.yield %n : f64
  } -> tensor<64xf64>
  %qs = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%q, %r : tensor<64xf64>, tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %m = arith.mulf %a, %b : f64
    linalg.yield %m : f64
  } -> tensor<64xf64>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%qs, %f : tensor<64xf64>, tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %c = math.cos %b : f64
    %m = arith.mulf %a, %c : f64
    linalg.yield %m : f64
  } -> tensor<64xf64>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%qs, %f : tensor<64xf64>, tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %s = math.sin %b : f64
    %m = arith.mulf %a, %s : f64
    linalg.yield %m : f64
  } -> tensor<64xf64>
  %z = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%q, %q : tensor<64xf64>, tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%a: f64, %b: f64, %out: f64):
    %m = arith.mulf %a, %b : f64
    linalg.yield %m : f64
  } -> tensor<64xf64>
  return %x, %y, %z : tensor<64xf64>, tensor<64xf64>, tensor<64xf64>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A producer with a use before its consumer is not fused: the fused op,
// built at the consumer, could not replace it there, and fusing anyway
// would compute it twice.
// CHECK-LABEL: func.func @use_before_consumer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: call @keep(%[[P]])
// CHECK: linalg.generic {{.*}} ins(%[[P]]
func.func private @keep(tensor<64xf64>)
func.func @use_before_consumer(%a: tensor<64xf64>) -> tensor<64xf64> {
  %e = tensor.empty() : tensor<64xf64>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    %l = math.exp %in : f64
    linalg.yield %l : f64
  } -> tensor<64xf64>
  func.call @keep(%p) : (tensor<64xf64>) -> ()
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    %m = arith.mulf %in, %in : f64
    linalg.yield %m : f64
  } -> tensor<64xf64>
  return %c : tensor<64xf64>
}

// -----

#id = affine_map<(d0) -> (d0)>

// A producer used in a loop and after it is not moved into the loop (it
// would be computed in every iteration).
// CHECK-LABEL: func.func @loop_invariant_producer
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: scf.for
// CHECK: linalg.generic {{.*}} ins(%[[P]]
// CHECK-NOT: math.exp
// CHECK: scf.yield
func.func @loop_invariant_producer(%a: tensor<64xf64>, %n: index) -> (tensor<64xf64>, tensor<64xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<64xf64>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<64xf64>) outs(%e : tensor<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    %x = math.exp %in : f64
    linalg.yield %x : f64
  } -> tensor<64xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<64xf64> {
    %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p, %acc : tensor<64xf64>, tensor<64xf64>) outs(%e : tensor<64xf64>) {
    ^bb0(%x: f64, %y: f64, %out: f64):
      %m = arith.addf %x, %y : f64
      linalg.yield %m : f64
    } -> tensor<64xf64>
    scf.yield %c : tensor<64xf64>
  }
  return %r, %p : tensor<64xf64>, tensor<64xf64>
}
