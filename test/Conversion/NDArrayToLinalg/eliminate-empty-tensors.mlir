// RUN: imex-opt %s -imex-eliminate-empty-tensors -split-input-file | FileCheck %s

#id = affine_map<(d0) -> (d0)>
#bcast = affine_map<(d0) -> (0)>

// A 1-element value reaches the insert through a cast that forgets its size
// and a run-time broadcast to the n rows of the slice: its empty tensor is
// not the slice (upstream's pass made the producer write 1 of the n rows).
// CHECK-LABEL: func.func @broadcast_after_cast
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1xf64>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<1xf64>)
func.func @broadcast_after_cast(%src: tensor<1xi32>, %dst: tensor<?xf64>, %n: index, %b: i1) -> tensor<?xf64> {
  %e = tensor.empty() : tensor<1xf64>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%src : tensor<1xi32>) outs(%e : tensor<1xf64>) {
  ^bb0(%in: i32, %out: f64):
    %f = arith.sitofp %in : i32 to f64
    linalg.yield %f : f64
  } -> tensor<1xf64>
  %c = tensor.cast %v : tensor<1xf64> to tensor<?xf64>
  %w = scf.if %b -> (tensor<?xf64>) {
    %e2 = tensor.empty(%n) : tensor<?xf64>
    %r = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel"]} ins(%c : tensor<?xf64>) outs(%e2 : tensor<?xf64>) {
    ^bb0(%in: f64, %out: f64):
      linalg.yield %in : f64
    } -> tensor<?xf64>
    scf.yield %r : tensor<?xf64>
  } else {
    scf.yield %c : tensor<?xf64>
  }
  %i = tensor.insert_slice %w into %dst[2] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}

// -----

#id = affine_map<(d0) -> (d0)>

// Sizes that are provably the slice's: the producer writes into the slice.
// CHECK-LABEL: func.func @equal_sizes
// CHECK-NOT: tensor.empty
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[2] [%{{.*}}] [1]
// CHECK: linalg.generic {{.*}} outs(%[[S]] : tensor<?xf64>)
func.func @equal_sizes(%src: tensor<?xf64>, %dst: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %e = tensor.empty(%n) : tensor<?xf64>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%src : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%in: f64, %out: f64):
    %f = arith.addf %in, %in : f64
    linalg.yield %f : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %v into %dst[2] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}
