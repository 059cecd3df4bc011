// RUN: imex-opt %s -split-input-file | imex-opt -split-input-file | FileCheck %s
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | imex-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @gpu_region
// CHECK: %[[R:.*]] = region.env_region #region.gpu_env<device = "cuda:0"> %{{.*}} : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> {
// CHECK:   %[[S:.*]] = ndarray.ewuny sqrt
// CHECK:   region.env_region_yield %[[S]] : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
// CHECK: }
// CHECK: return %[[R]]
func.func @gpu_region(%a: !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>) -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> {
  %0 = region.env_region #region.gpu_env<device = "cuda:0"> %a : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> {
    %1 = ndarray.ewuny sqrt %a : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
    region.env_region_yield %1 : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  }
  return %0 : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
}

// -----

// Any attribute is an environment; no results means an implicit terminator.
// CHECK-LABEL: func @no_results
// CHECK: region.env_region "test" %{{.*}}, %{{.*}} : index, i64 {
// CHECK-NEXT: arith.addi
// CHECK-NEXT: }
func.func @no_results(%i: index, %j: i64) {
  region.env_region "test" %i, %j : index, i64 {
    %0 = arith.addi %j, %j : i64
  }
  return
}

// -----

// CHECK-LABEL: func @nested
// CHECK: region.env_region "outer" -> index, i64 {
// CHECK:   region.env_region "inner" {
// CHECK:   region.env_region_yield %{{.*}}, %{{.*}} : index, i64
func.func @nested(%i: index, %j: i64) -> (index, i64) {
  %0:2 = region.env_region "outer" -> index, i64 {
    region.env_region "inner" {
    }
    region.env_region_yield %i, %j : index, i64
  }
  return %0#0, %0#1 : index, i64
}
