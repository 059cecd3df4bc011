// RUN: imex-opt %s -split-input-file | FileCheck %s
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | imex-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func{{.*}} @shapes
// CHECK-SAME: !ndarray.ndarray<f64>
// CHECK-SAME: !ndarray.ndarray<4x?x0xi32>
// CHECK-SAME: !ndarray.ndarray<?xindex>
func.func private @shapes(!ndarray.ndarray<f64>, !ndarray.ndarray<4x?x0xi32>, !ndarray.ndarray<?xindex>)

// -----

// CHECK-LABEL: func{{.*}} @element_types
// CHECK-SAME: !ndarray.ndarray<2xi1>, !ndarray.ndarray<2xi8>, !ndarray.ndarray<2xi16>, !ndarray.ndarray<2xi32>, !ndarray.ndarray<2xi64>
// CHECK-SAME: !ndarray.ndarray<2xui8>, !ndarray.ndarray<2xui16>, !ndarray.ndarray<2xui32>, !ndarray.ndarray<2xui64>
// CHECK-SAME: !ndarray.ndarray<2xf16>, !ndarray.ndarray<2xbf16>, !ndarray.ndarray<2xf32>, !ndarray.ndarray<2xf64>
func.func private @element_types(
  !ndarray.ndarray<2xi1>, !ndarray.ndarray<2xi8>, !ndarray.ndarray<2xi16>, !ndarray.ndarray<2xi32>, !ndarray.ndarray<2xi64>,
  !ndarray.ndarray<2xui8>, !ndarray.ndarray<2xui16>, !ndarray.ndarray<2xui32>, !ndarray.ndarray<2xui64>,
  !ndarray.ndarray<2xf16>, !ndarray.ndarray<2xbf16>, !ndarray.ndarray<2xf32>, !ndarray.ndarray<2xf64>)

// -----

// CHECK-LABEL: func{{.*}} @environments
// CHECK-SAME: !ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">>
// CHECK-SAME: !ndarray.ndarray<f32, #region.gpu_env<device = "opencl:gpu:0">>
func.func private @environments(!ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">>,
                                !ndarray.ndarray<f32, #region.gpu_env<device = "opencl:gpu:0">>)

// -----

// Environments print in a canonical order (by attribute name), whatever the
// order they were written in, so both spellings are the same type.
// CHECK-LABEL: func{{.*}} @canonical_order
// CHECK-SAME: (!ndarray.ndarray<4xf64, "any attribute", #region.gpu_env<device = "gpu">>, !ndarray.ndarray<4xf64, "any attribute", #region.gpu_env<device = "gpu">>)
func.func private @canonical_order(!ndarray.ndarray<4xf64, #region.gpu_env<device = "gpu">, "any attribute">,
                                   !ndarray.ndarray<4xf64, "any attribute", #region.gpu_env<device = "gpu">>)
