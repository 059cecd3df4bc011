// RUN: imex-opt %s -convert-ndarray-to-linalg -split-input-file | FileCheck %s

// Philox4x32-10 of the row-major position i = i0 * n1 + i1, keyed by the
// seed, with the stream in the upper counter words: ten rounds of two
// 32x32->64 multiplications, the round keys computed once outside the loop.
// CHECK-LABEL: func.func @uniform_f64
// CHECK-SAME: (%[[SEED:.*]]: i64, %[[STREAM:.*]]: i64, %[[N:.*]]: index)
// CHECK: %[[K0:.*]] = arith.trunci %[[SEED]] : i64 to i32
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<?x3xf64>)
// CHECK: %[[I0:.*]] = linalg.index 0
// CHECK: linalg.index 1
// CHECK-COUNT-20: arith.muli
// CHECK: arith.uitofp %{{.*}} : i64 to f64
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK: linalg.yield
func.func @uniform_f64(%seed: i64, %stream: i64, %n: index) -> tensor<?x3xf64> {
  %0 = ndarray.random uniform %seed, %stream (%n) : !ndarray.ndarray<?x3xf64>
  %1 = ndarray.to_tensor %0 : !ndarray.ndarray<?x3xf64> -> tensor<?x3xf64>
  return %1 : tensor<?x3xf64>
}

// -----

// Normal numbers by Box-Muller, computed in f64.
// CHECK-LABEL: func.func @normal_f32
// CHECK: linalg.generic
// CHECK: math.log %{{.*}} : f64
// CHECK: math.sqrt %{{.*}} : f64
// CHECK: math.cos %{{.*}} : f64
// CHECK: arith.truncf %{{.*}} : f64 to f32
func.func @normal_f32(%seed: i64) -> tensor<8xf32> {
  %0 = ndarray.random normal %seed, %seed : !ndarray.ndarray<8xf32>
  %1 = ndarray.to_tensor %0 : !ndarray.ndarray<8xf32> -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
