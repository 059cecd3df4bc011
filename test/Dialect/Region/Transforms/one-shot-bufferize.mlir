// RUN: imex-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s

// An env_region's results are the buffers its body yields: the allocation
// of a new value stays inside the region (where convert-region-to-gpu
// makes it a device allocation), and nothing is copied at the boundary.
// CHECK-LABEL: func @fill
// CHECK: %[[R:.*]] = region.env_region #region.gpu_env<device = "cuda:0"> -> memref<4xf32> {
// CHECK-NEXT: %[[A:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT: region.env_region_yield %[[A]] : memref<4xf32>
// CHECK-NEXT: }
// CHECK-NOT: memref.copy
// CHECK: return %[[R]]
func.func @fill(%x: f32) -> tensor<4xf32> {
  %r = region.env_region #region.gpu_env<device = "cuda:0"> -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%x : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    region.env_region_yield %f : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A value defined before the region and updated in it is updated in place.
// CHECK-LABEL: func @update
// CHECK-SAME: (%[[ARG:.*]]: memref<4xf32>
// CHECK: region.env_region #region.gpu_env<device = "cuda:0"> -> memref<4xf32> {
// CHECK-NOT: memref.alloc
// CHECK: linalg.fill {{.*}} outs(%[[ARG]] : memref<4xf32>)
// CHECK-NEXT: region.env_region_yield %[[ARG]]
func.func @update(%t: tensor<4xf32> {bufferization.writable = true}, %x: f32) -> tensor<4xf32> {
  %r = region.env_region #region.gpu_env<device = "cuda:0"> -> tensor<4xf32> {
    %f = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    region.env_region_yield %f : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Scalars pass through; a yielded view keeps its layout.
// CHECK-LABEL: func @view_and_scalar
// CHECK: region.env_region #region.gpu_env<device = "cuda:0"> -> memref<2xf32, strided<[1], offset: 1>>, index {
// CHECK: memref.subview
func.func @view_and_scalar(%t: tensor<4xf32>, %i: index) -> (f32, index) {
  %r:2 = region.env_region #region.gpu_env<device = "cuda:0"> -> tensor<2xf32>, index {
    %s = tensor.extract_slice %t[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
    region.env_region_yield %s, %i : tensor<2xf32>, index
  }
  %c0 = arith.constant 0 : index
  %e = tensor.extract %r#0[%c0] : tensor<2xf32>
  return %e, %r#1 : f32, index
}
