// RUN: imex-opt %s -imex-slice-elementwise-producers -split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>

// A slice of the only use of an index-based elementwise op (linspace): the
// op computes the slice, its indices offset by the slice's position.
// CHECK-DAG: #[[SHIFT:.*]] = affine_map<()[s0, s1] -> (s0 + s1)>
// CHECK-LABEL: func.func @index_based
// CHECK-SAME: (%[[O:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[INIT:.*]] = tensor.extract_slice %{{.*}}[%[[O]]] [%[[N]]] [1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} outs(%[[INIT]] : tensor<?xf64>)
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: affine.apply #[[SHIFT]]()[%[[I]], %[[O]]]
// CHECK: return %[[R]]
func.func @index_based(%o: index, %n: index) -> tensor<?xf64> {
  %e = tensor.empty() : tensor<100xf64>
  %g = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<100xf64>) {
  ^bb0(%out: f64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %f = arith.sitofp %c : i64 to f64
    linalg.yield %f : f64
  } -> tensor<100xf64>
  %s = tensor.extract_slice %g[%o] [%n] [1] : tensor<100xf64> to tensor<?xf64>
  return %s : tensor<?xf64>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// Operands are sliced too: (a + b)[2:5, :] adds 3 rows.
// CHECK-LABEL: func.func @operands
// CHECK-SAME: (%[[A:.*]]: tensor<8x4xf64>, %[[B:.*]]: tensor<8x4xf64>)
// CHECK-DAG: %[[SA:.*]] = tensor.extract_slice %[[A]][2, 0] [3, 4] [1, 1]
// CHECK-DAG: %[[SB:.*]] = tensor.extract_slice %[[B]][2, 0] [3, 4] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[SA]], %[[SB]] : tensor<3x4xf64>, tensor<3x4xf64>)
func.func @operands(%a: tensor<8x4xf64>, %b: tensor<8x4xf64>) -> tensor<3x4xf64> {
  %e = tensor.empty() : tensor<8x4xf64>
  %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<8x4xf64>, tensor<8x4xf64>) outs(%e : tensor<8x4xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<8x4xf64>
  %s = tensor.extract_slice %g[2, 0] [3, 4] [1, 1] : tensor<8x4xf64> to tensor<3x4xf64>
  return %s : tensor<3x4xf64>
}

// -----

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_map<(d0, d1) -> (d0)>

// Left alone: a producer with another use (computing the slice too would
// compute it twice), a strided slice, a reduction (row sums).
// CHECK-LABEL: func.func @not_sliced
// CHECK-COUNT-2: linalg.generic {{.*}} outs(%{{.*}} : tensor<100xf64>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8xf64>)
// CHECK-NOT: linalg.generic
func.func @not_sliced(%a: tensor<100xf64>, %m: tensor<8x4xf64>, %o: index) -> (tensor<100xf64>, tensor<10xf64>, tensor<10xf64>, tensor<3xf64>) {
  %e = tensor.empty() : tensor<100xf64>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<100xf64>) outs(%e : tensor<100xf64>) {
  ^bb0(%x: f64, %out: f64):
    %n = arith.negf %x : f64
    linalg.yield %n : f64
  } -> tensor<100xf64>
  %s1 = tensor.extract_slice %g[%o] [10] [1] : tensor<100xf64> to tensor<10xf64>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<100xf64>) outs(%e : tensor<100xf64>) {
  ^bb0(%x: f64, %out: f64):
    %n = arith.negf %x : f64
    linalg.yield %n : f64
  } -> tensor<100xf64>
  %s2 = tensor.extract_slice %h[0] [10] [3] : tensor<100xf64> to tensor<10xf64>
  %z = tensor.empty() : tensor<8xf64>
  %r = linalg.generic {indexing_maps = [#id2, #rows], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<8x4xf64>) outs(%z : tensor<8xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %s = arith.addf %x, %acc : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  %s3 = tensor.extract_slice %r[2] [3] [1] : tensor<8xf64> to tensor<3xf64>
  return %g, %s1, %s2, %s3 : tensor<100xf64>, tensor<10xf64>, tensor<10xf64>, tensor<3xf64>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @rank_reducing
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x4xf64>)
// CHECK: tensor.extract_slice %{{.*}}[3, 0] [1, 4] [1, 1] : tensor<8x4xf64> to tensor<4xf64>
func.func @rank_reducing(%a: tensor<8x4xf64>) -> tensor<4xf64> {
  %e = tensor.empty() : tensor<8x4xf64>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x4xf64>) outs(%e : tensor<8x4xf64>) {
  ^bb0(%x: f64, %out: f64):
    %n = arith.negf %x : f64
    linalg.yield %n : f64
  } -> tensor<8x4xf64>
  %s = tensor.extract_slice %g[3, 0] [1, 4] [1, 1] : tensor<8x4xf64> to tensor<4xf64>
  return %s : tensor<4xf64>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Several uses that take the same slice (a value read twice by a chain):
// the op computes the slice once, at the first of them, for all.
// CHECK-LABEL: func.func @same_slices
// CHECK-SAME: (%[[A:.*]]: tensor<100xf64>, %[[O:.*]]: index)
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[A]][%[[O]]] [10] [1]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[IN]] : tensor<10xf64>)
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]], %[[R]]
func.func @same_slices(%a: tensor<100xf64>, %o: index) -> (tensor<10xf64>, tensor<10xf64>) {
  %e = tensor.empty() : tensor<100xf64>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<100xf64>) outs(%e : tensor<100xf64>) {
  ^bb0(%x: f64, %out: f64):
    %n = arith.negf %x : f64
    linalg.yield %n : f64
  } -> tensor<100xf64>
  %s1 = tensor.extract_slice %g[%o] [10] [1] : tensor<100xf64> to tensor<10xf64>
  %s2 = tensor.extract_slice %g[%o] [10] [1] : tensor<100xf64> to tensor<10xf64>
  return %s1, %s2 : tensor<10xf64>, tensor<10xf64>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>

// The operands of a producer sliced by all of its result are the operands:
// when such an operand is a slice, the whole slice of it is that slice
// (canonicalization does not fold it: the sizes are dynamic).
// CHECK-LABEL: func.func @whole_slice_of_slice
// CHECK-SAME: (%[[A:.*]]: tensor<?x4xf64>, %[[R:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[V:.*]] = tensor.extract_slice %[[A]][%[[R]], 0] [%[[N]], 4] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[V]] : tensor<?x4xf64>)
func.func @whole_slice_of_slice(%a: tensor<?x4xf64>, %r: index, %n: index) -> tensor<?x4xf64> {
  %one = arith.constant 1.0 : f64
  %v = tensor.extract_slice %a[%r, 0] [%n, 4] [1, 1] : tensor<?x4xf64> to tensor<?x4xf64>
  %e = tensor.empty(%n) : tensor<?x4xf64>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<?x4xf64>) outs(%e : tensor<?x4xf64>) {
  ^bb0(%x: f64, %out: f64):
    %s = arith.addf %x, %one : f64
    linalg.yield %s : f64
  } -> tensor<?x4xf64>
  %s = tensor.extract_slice %g[0, 0] [%n, 4] [1, 1] : tensor<?x4xf64> to tensor<?x4xf64>
  return %s : tensor<?x4xf64>
}
