// RUN: imex-opt %s -split-input-file | imex-opt -split-input-file | FileCheck %s
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | imex-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @creation
func.func @creation(%n: index, %f: f64, %i: i64) {
  // CHECK: ndarray.create : !ndarray.ndarray<8xi32>
  %0 = ndarray.create : !ndarray.ndarray<8xi32>
  // CHECK: ndarray.create(%{{.*}}) value %{{.*}} : !ndarray.ndarray<?x4xf64>
  %1 = ndarray.create(%n) value %f : !ndarray.ndarray<?x4xf64>
  // CHECK: ndarray.create value %{{.*}} : !ndarray.ndarray<i64>
  %2 = ndarray.create value %i : !ndarray.ndarray<i64>
  // CHECK: ndarray.linspace %{{.*}}, %{{.*}}, %{{.*}} endpoint : f64 -> !ndarray.ndarray<?xf64>
  %3 = ndarray.linspace %f, %f, %n endpoint : f64 -> !ndarray.ndarray<?xf64>
  // CHECK: ndarray.linspace %{{.*}}, %{{.*}}, %{{.*}} : i64 -> !ndarray.ndarray<?xi32>
  %4 = ndarray.linspace %i, %i, %n : i64 -> !ndarray.ndarray<?xi32>
  // CHECK: ndarray.create : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  %5 = ndarray.create : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  // CHECK: ndarray.random uniform %{{.*}}, %{{.*}}(%{{.*}}) : !ndarray.ndarray<?x3xf64>
  %6 = ndarray.random uniform %i, %i (%n) : !ndarray.ndarray<?x3xf64>
  // CHECK: ndarray.random normal %{{.*}}, %{{.*}} : !ndarray.ndarray<f32>
  %7 = ndarray.random normal %i, %i : !ndarray.ndarray<f32>
  // CHECK: ndarray.tri %{{.*}}(%{{.*}}) : !ndarray.ndarray<?x5xi1>
  %8 = ndarray.tri %n (%n) : !ndarray.ndarray<?x5xi1>
  // CHECK: ndarray.tri %{{.*}} : !ndarray.ndarray<3x4xui8>
  %9 = ndarray.tri %n : !ndarray.ndarray<3x4xui8>
  return
}

// -----

// CHECK-LABEL: func @memory
func.func @memory(%a: !ndarray.ndarray<4xf32>, %m: memref<?x3xi64>, %u: memref<*xf32>) -> tensor<4xf32> {
  // CHECK: ndarray.copy %{{.*}} : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  %0 = ndarray.copy %a : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  // CHECK: ndarray.from_memref %{{.*}} : memref<?x3xi64> -> !ndarray.ndarray<?x3xi64>
  %1 = ndarray.from_memref %m : memref<?x3xi64> -> !ndarray.ndarray<?x3xi64>
  // CHECK: ndarray.from_memref %{{.*}} : memref<*xf32> -> !ndarray.ndarray<?x?xf32>
  %2 = ndarray.from_memref %u : memref<*xf32> -> !ndarray.ndarray<?x?xf32>
  // CHECK: ndarray.to_tensor %{{.*}} : !ndarray.ndarray<4xf32> -> tensor<4xf32>
  %3 = ndarray.to_tensor %a : !ndarray.ndarray<4xf32> -> tensor<4xf32>
  // CHECK: ndarray.delete %{{.*}} : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  ndarray.delete %0 : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
  return %3 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func @types_and_shapes
func.func @types_and_shapes(%a: !ndarray.ndarray<3x4xf64>, %b: !ndarray.ndarray<?xf64>, %n: index, %c: !ndarray.ndarray<1x4x1xi8>) {
  // CHECK: ndarray.cast %{{.*}} : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<?x4xf64>
  %0 = ndarray.cast %a : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<?x4xf64>
  // CHECK: ndarray.cast_elemtype %{{.*}} : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xi32>
  %1 = ndarray.cast_elemtype %a : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xi32>
  // CHECK: ndarray.cast_elemtype %{{.*}} copy : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xf64>
  %2 = ndarray.cast_elemtype %a copy : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xf64>
  // CHECK: ndarray.dim %{{.*}}, %{{.*}} : !ndarray.ndarray<?xf64>
  %3 = ndarray.dim %b, %n : !ndarray.ndarray<?xf64>
  // CHECK: ndarray.reshape %{{.*}} : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<12xf64>
  %4 = ndarray.reshape %a : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<12xf64>
  // CHECK: ndarray.reshape %{{.*}}(%{{.*}}) copy : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?x2xf64>
  %5 = ndarray.reshape %b(%n) copy : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?x2xf64>
  // CHECK: ndarray.broadcast_to %{{.*}}(%{{.*}}) : !ndarray.ndarray<1x4x1xi8> -> !ndarray.ndarray<2x?x4x3xi8>
  %6 = ndarray.broadcast_to %c(%n) : !ndarray.ndarray<1x4x1xi8> -> !ndarray.ndarray<2x?x4x3xi8>
  // CHECK: ndarray.permute_dims %{{.*}} [1, 0] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<4x3xf64>
  %7 = ndarray.permute_dims %a [1, 0] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<4x3xf64>
  // CHECK: ndarray.expand_dims %{{.*}} [0, 2] : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<1x?x1xf64>
  %8 = ndarray.expand_dims %b [0, 2] : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<1x?x1xf64>
  // CHECK: ndarray.squeeze %{{.*}} [0, 2] : !ndarray.ndarray<1x4x1xi8> -> !ndarray.ndarray<4xi8>
  %9 = ndarray.squeeze %c [0, 2] : !ndarray.ndarray<1x4x1xi8> -> !ndarray.ndarray<4xi8>
  return
}

// -----

// CHECK-LABEL: func @indexing
func.func @indexing(%a: !ndarray.ndarray<10x?xf64>, %v: !ndarray.ndarray<4x2xf64>, %s: !ndarray.ndarray<f64>, %o: index, %n: index) -> f64 {
  // CHECK: ndarray.subview %{{.*}}[1, %{{.*}}] [4, 2] [2, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<4x2xf64>
  %0 = ndarray.subview %a[1, %o] [4, 2] [2, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<4x2xf64>
  // Rank-reducing view: a[3, :].
  // CHECK: ndarray.subview %{{.*}}[3, 0] [1, %{{.*}}] [1, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<?xf64>
  %1 = ndarray.subview %a[3, 0] [1, %n] [1, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<?xf64>
  // CHECK: ndarray.extract_slice %{{.*}}[0, 0] [3, %{{.*}}] [3, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<3x?xf64>
  %2 = ndarray.extract_slice %a[0, 0] [3, %n] [3, 1] : !ndarray.ndarray<10x?xf64> to !ndarray.ndarray<3x?xf64>
  // CHECK: ndarray.insert_slice %{{.*}} into %{{.*}}[2, 0] [4, 2] [1, 1] : !ndarray.ndarray<4x2xf64> into !ndarray.ndarray<10x?xf64>
  ndarray.insert_slice %v into %a[2, 0] [4, 2] [1, 1] : !ndarray.ndarray<4x2xf64> into !ndarray.ndarray<10x?xf64>
  // A 0-d source is broadcast (a[::2, 0:2] = s).
  // CHECK: ndarray.insert_slice %{{.*}} into %{{.*}}[0, 0] [5, 2] [2, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<10x?xf64>
  ndarray.insert_slice %s into %a[0, 0] [5, 2] [2, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<10x?xf64>
  // CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [4, 2] [1, 1] : !ndarray.ndarray<4x2xf64> into !ndarray.ndarray<10x?xf64>
  %3 = ndarray.immutable_insert_slice %v into %a[%o, 0] [4, 2] [1, 1] : !ndarray.ndarray<4x2xf64> into !ndarray.ndarray<10x?xf64>
  // CHECK: ndarray.load %{{.*}}[%{{.*}}, %{{.*}}] : !ndarray.ndarray<10x?xf64>
  %4 = ndarray.load %a[%o, %n] : !ndarray.ndarray<10x?xf64>
  return %4 : f64
}

// -----

// CHECK-LABEL: func @elementwise
func.func @elementwise(%a: !ndarray.ndarray<3x1xf64>, %b: !ndarray.ndarray<4xf32>, %i: !ndarray.ndarray<?xi32>, %c: !ndarray.ndarray<4xi1>) {
  // CHECK: ndarray.ewbin add %{{.*}}, %{{.*}} : (!ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
  // CHECK: ndarray.ewbin less %{{.*}}, %{{.*}} : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<4xi1>
  %1 = ndarray.ewbin less %i, %b : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<4xi1>
  // CHECK: ndarray.ewbin bitwise_left_shift %{{.*}}, %{{.*}} : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?xi32>
  %2 = ndarray.ewbin bitwise_left_shift %i, %i : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?xi32>
  // CHECK: ndarray.ewbin divide %{{.*}}, %{{.*}} : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?xf64>
  %3 = ndarray.ewbin divide %i, %i : (!ndarray.ndarray<?xi32>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?xf64>
  // CHECK: ndarray.ewuny sqrt %{{.*}} : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xf32>
  %4 = ndarray.ewuny sqrt %b : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xf32>
  // CHECK: ndarray.ewuny isnan %{{.*}} : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xi1>
  %5 = ndarray.ewuny isnan %b : !ndarray.ndarray<4xf32> -> !ndarray.ndarray<4xi1>
  // CHECK: ndarray.ewuny exp %{{.*}} : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xf64>
  %6 = ndarray.ewuny exp %i : !ndarray.ndarray<?xi32> -> !ndarray.ndarray<?xf64>
  // CHECK: ndarray.where %{{.*}}, %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
  %7 = ndarray.where %c, %a, %b : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
  return
}

// -----

// CHECK-LABEL: func @all_kinds
func.func @all_kinds(%f: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<4xi64>, %b: !ndarray.ndarray<4xi1>) {
  // CHECK-COUNT-4: ndarray.ewbin {{add|subtract|multiply|divide}}
  %0 = ndarray.ewbin add %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %1 = ndarray.ewbin subtract %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %2 = ndarray.ewbin multiply %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %3 = ndarray.ewbin divide %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  // CHECK-COUNT-9: ndarray.ewbin {{floor_divide|remainder|pow|atan2|hypot|copysign|logaddexp|maximum|minimum}}
  %4 = ndarray.ewbin floor_divide %i, %i : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  %5 = ndarray.ewbin remainder %i, %i : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  %6 = ndarray.ewbin pow %f, %i : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xf64>
  %7 = ndarray.ewbin atan2 %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %8 = ndarray.ewbin hypot %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %9 = ndarray.ewbin copysign %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %10 = ndarray.ewbin logaddexp %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %11 = ndarray.ewbin maximum %b, %b : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xi1>) -> !ndarray.ndarray<4xi1>
  %12 = ndarray.ewbin minimum %i, %f : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  // CHECK-COUNT-6: ndarray.ewbin {{equal|not_equal|less|less_equal|greater|greater_equal}}
  %13 = ndarray.ewbin equal %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %14 = ndarray.ewbin not_equal %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %15 = ndarray.ewbin less %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %16 = ndarray.ewbin less_equal %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %17 = ndarray.ewbin greater %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %18 = ndarray.ewbin greater_equal %f, %f : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  // CHECK-COUNT-8: ndarray.ewbin {{logical_and|logical_or|logical_xor|bitwise_and|bitwise_or|bitwise_xor|bitwise_left_shift|bitwise_right_shift}}
  %19 = ndarray.ewbin logical_and %b, %f : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi1>
  %20 = ndarray.ewbin logical_or %b, %b : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xi1>) -> !ndarray.ndarray<4xi1>
  %21 = ndarray.ewbin logical_xor %b, %b : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xi1>) -> !ndarray.ndarray<4xi1>
  %22 = ndarray.ewbin bitwise_and %b, %b : (!ndarray.ndarray<4xi1>, !ndarray.ndarray<4xi1>) -> !ndarray.ndarray<4xi1>
  %23 = ndarray.ewbin bitwise_or %i, %b : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi1>) -> !ndarray.ndarray<4xi64>
  %24 = ndarray.ewbin bitwise_xor %i, %i : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  %25 = ndarray.ewbin bitwise_left_shift %i, %i : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  %26 = ndarray.ewbin bitwise_right_shift %i, %i : (!ndarray.ndarray<4xi64>, !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<4xi64>
  // CHECK-COUNT-20: ndarray.ewuny {{acos|acosh|asin|asinh|atan|atanh|cos|cosh|erf|exp|expm1|log|log1p|log2|log10|sin|sinh|sqrt|tan|tanh}}
  %u0 = ndarray.ewuny acos %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u1 = ndarray.ewuny acosh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u2 = ndarray.ewuny asin %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u3 = ndarray.ewuny asinh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u4 = ndarray.ewuny atan %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u5 = ndarray.ewuny atanh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u6 = ndarray.ewuny cos %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u7 = ndarray.ewuny cosh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u8 = ndarray.ewuny erf %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u9 = ndarray.ewuny exp %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u10 = ndarray.ewuny expm1 %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u11 = ndarray.ewuny log %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u12 = ndarray.ewuny log1p %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u13 = ndarray.ewuny log2 %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u14 = ndarray.ewuny log10 %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u15 = ndarray.ewuny sin %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u16 = ndarray.ewuny sinh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u17 = ndarray.ewuny sqrt %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u18 = ndarray.ewuny tan %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %u19 = ndarray.ewuny tanh %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  // CHECK-COUNT-10: ndarray.ewuny {{abs|negative|positive|sign|square|ceil|floor|round|trunc|bitwise_invert}}
  %v0 = ndarray.ewuny abs %i : !ndarray.ndarray<4xi64> -> !ndarray.ndarray<4xi64>
  %v1 = ndarray.ewuny negative %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v2 = ndarray.ewuny positive %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v3 = ndarray.ewuny sign %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v4 = ndarray.ewuny square %i : !ndarray.ndarray<4xi64> -> !ndarray.ndarray<4xi64>
  %v5 = ndarray.ewuny ceil %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v6 = ndarray.ewuny floor %i : !ndarray.ndarray<4xi64> -> !ndarray.ndarray<4xi64>
  %v7 = ndarray.ewuny round %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v8 = ndarray.ewuny trunc %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  %v9 = ndarray.ewuny bitwise_invert %b : !ndarray.ndarray<4xi1> -> !ndarray.ndarray<4xi1>
  // CHECK-COUNT-5: ndarray.ewuny {{isfinite|isinf|isnan|signbit|logical_not}}
  %w0 = ndarray.ewuny isfinite %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xi1>
  %w1 = ndarray.ewuny isinf %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xi1>
  %w2 = ndarray.ewuny isnan %i : !ndarray.ndarray<4xi64> -> !ndarray.ndarray<4xi1>
  %w3 = ndarray.ewuny signbit %f : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xi1>
  %w4 = ndarray.ewuny logical_not %i : !ndarray.ndarray<4xi64> -> !ndarray.ndarray<4xi1>
  return
}

// -----

// CHECK-LABEL: func @reductions
func.func @reductions(%a: !ndarray.ndarray<3x?xi32>, %f: !ndarray.ndarray<?xf32>, %u: !ndarray.ndarray<5xui8>) {
  // CHECK: ndarray.reduction sum %{{.*}} : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<i64>
  %0 = ndarray.reduction sum %a : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<i64>
  // CHECK: ndarray.reduction prod %{{.*}} axes [1] : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<3xi64>
  %1 = ndarray.reduction prod %a axes [1] : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<3xi64>
  // CHECK: ndarray.reduction max %{{.*}} axes [0] keepdims : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<1x?xi32>
  %2 = ndarray.reduction max %a axes [0] keepdims : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<1x?xi32>
  // CHECK: ndarray.reduction min %{{.*}} keepdims : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<1x1xi32>
  %3 = ndarray.reduction min %a keepdims : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<1x1xi32>
  // CHECK: ndarray.reduction mean %{{.*}} : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<f64>
  %4 = ndarray.reduction mean %a : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<f64>
  // CHECK: ndarray.reduction var %{{.*}} correction 1.000000e+00 : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<f32>
  %5 = ndarray.reduction var %f correction 1.0 : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<f32>
  // CHECK: ndarray.reduction std %{{.*}} axes [0] : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<f32>
  %6 = ndarray.reduction std %f axes [0] : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<f32>
  // CHECK: ndarray.reduction any %{{.*}} : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<i1>
  %7 = ndarray.reduction any %f : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<i1>
  // CHECK: ndarray.reduction all %{{.*}} axes [1] : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<3xi1>
  %8 = ndarray.reduction all %a axes [1] : !ndarray.ndarray<3x?xi32> -> !ndarray.ndarray<3xi1>
  // CHECK: ndarray.reduction sum %{{.*}} : !ndarray.ndarray<5xui8> -> !ndarray.ndarray<ui64>
  %9 = ndarray.reduction sum %u : !ndarray.ndarray<5xui8> -> !ndarray.ndarray<ui64>
  return
}

// -----

// CHECK-LABEL: func @linalg_and_join
func.func @linalg_and_join(%a: !ndarray.ndarray<3x4xf64>, %b: !ndarray.ndarray<4x5xf32>, %v: !ndarray.ndarray<4xf64>, %batch: !ndarray.ndarray<2x1x3x4xf64>, %c: !ndarray.ndarray<?x4xf64>) {
  // CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<4x5xf32>) -> !ndarray.ndarray<3x5xf64>
  %0 = ndarray.matmul %a, %b : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<4x5xf32>) -> !ndarray.ndarray<3x5xf64>
  // CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<3xf64>
  %1 = ndarray.matmul %a, %v : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<3xf64>
  // CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<f64>
  %2 = ndarray.matmul %v, %v : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<f64>
  // CHECK: ndarray.matmul %{{.*}}, %{{.*}} : (!ndarray.ndarray<2x1x3x4xf64>, !ndarray.ndarray<4x5xf32>) -> !ndarray.ndarray<2x1x3x5xf64>
  %3 = ndarray.matmul %batch, %b : (!ndarray.ndarray<2x1x3x4xf64>, !ndarray.ndarray<4x5xf32>) -> !ndarray.ndarray<2x1x3x5xf64>
  // CHECK: ndarray.concat %{{.*}}, %{{.*}} axis 0 : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<?x4xf64>) -> !ndarray.ndarray<?x4xf64>
  %4 = ndarray.concat %a, %c axis 0 : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<?x4xf64>) -> !ndarray.ndarray<?x4xf64>
  // CHECK: ndarray.concat %{{.*}}, %{{.*}}, %{{.*}} axis 1 : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>) -> !ndarray.ndarray<3x12xf64>
  %5 = ndarray.concat %a, %a, %a axis 1 : (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>) -> !ndarray.ndarray<3x12xf64>
  return
}

// -----

// Arrays in compatible environments; results may be less static than
// inferred.
// CHECK-LABEL: func @environments_and_dynamic_results
func.func @environments_and_dynamic_results(%a: !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>) {
  // CHECK: ndarray.ewbin multiply %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>, !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>) -> !ndarray.ndarray<?xf32, #region.gpu_env<device = "gpu">>
  %0 = ndarray.ewbin multiply %a, %a : (!ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>, !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>) -> !ndarray.ndarray<?xf32, #region.gpu_env<device = "gpu">>
  return
}

// -----

// CHECK-LABEL: func @sort
func.func @sort(%a: !ndarray.ndarray<3x?xf64>) {
  // CHECK: ndarray.sort %{{.*}} axis 1 : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
  %0 = ndarray.sort %a axis 1 : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
  // CHECK: ndarray.argsort %{{.*}} axis 0 descending : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xi64>
  %1 = ndarray.argsort %a axis 0 descending : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xi64>
  return
}

// -----

// CHECK-LABEL: func @searchsorted
func.func @searchsorted(%s: !ndarray.ndarray<?xf64>, %v: !ndarray.ndarray<3x4xf64>) {
  // CHECK: ndarray.searchsorted %{{.*}}, %{{.*}} right : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<3x4xf64>) -> !ndarray.ndarray<3x4xi64>
  %0 = ndarray.searchsorted %s, %v right : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<3x4xf64>) -> !ndarray.ndarray<3x4xi64>
  return
}

// -----

// CHECK-LABEL: func @take
func.func @take(%a: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi32>) {
  // CHECK: ndarray.take %{{.*}}[%{{.*}}] axis 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x?xf64>
  %0 = ndarray.take %a[%i] axis 1 : (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func @put
func.func @put(%a: !ndarray.ndarray<?x4xf64>, %i: !ndarray.ndarray<?xi32>, %v: !ndarray.ndarray<?x?xf64>) {
  // CHECK: ndarray.put %{{.*}} into %{{.*}}[%{{.*}}] axis 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x4xf64>
  %0 = ndarray.put %v into %a[%i] axis 1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x4xf64>
  return
}

// -----

// CHECK-LABEL: func @flip
func.func @flip(%a: !ndarray.ndarray<3x?xf64>) {
  // CHECK: ndarray.flip %{{.*}} [0, 1] : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
  %0 = ndarray.flip %a [0, 1] : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
  return
}

// -----

// CHECK-LABEL: func @masked_select
func.func @masked_select(%a: !ndarray.ndarray<3x4xf64>, %m: !ndarray.ndarray<3x4xi1>, %r: !ndarray.ndarray<?xi1>) {
  // CHECK: ndarray.masked_select %{{.*}}[%{{.*}}] : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xi1> -> !ndarray.ndarray<?xf64>
  %0 = ndarray.masked_select %a[%m] : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xi1> -> !ndarray.ndarray<?xf64>
  // CHECK: ndarray.masked_select %{{.*}}[%{{.*}}] : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<?xi1> -> !ndarray.ndarray<?x4xf64>
  %1 = ndarray.masked_select %a[%r] : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<?xi1> -> !ndarray.ndarray<?x4xf64>
  return
}

// -----

// CHECK-LABEL: func @argreduce
func.func @argreduce(%a: !ndarray.ndarray<3x4xf64>, %b: !ndarray.ndarray<?x?xui8>) {
  // CHECK: ndarray.argreduce max %{{.*}} axis 1 : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3xi64>
  %0 = ndarray.argreduce max %a axis 1 : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3xi64>
  // CHECK: ndarray.argreduce min %{{.*}} : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<i64>
  %1 = ndarray.argreduce min %a : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<i64>
  // CHECK: ndarray.argreduce min %{{.*}} keepdims : !ndarray.ndarray<?x?xui8> -> !ndarray.ndarray<1x1xi64>
  %2 = ndarray.argreduce min %b keepdims : !ndarray.ndarray<?x?xui8> -> !ndarray.ndarray<1x1xi64>
  // CHECK: ndarray.argreduce max %{{.*}} axis 0 keepdims : !ndarray.ndarray<?x?xui8> -> !ndarray.ndarray<1x?xi64>
  %3 = ndarray.argreduce max %b axis 0 keepdims : !ndarray.ndarray<?x?xui8> -> !ndarray.ndarray<1x?xi64>
  return
}

// -----

// CHECK-LABEL: func @cumulative
func.func @cumulative(%a: !ndarray.ndarray<3x4xi32>, %b: !ndarray.ndarray<?xf64>) {
  // CHECK: ndarray.cumulative sum %{{.*}} axis 1 : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3x4xi64>
  %0 = ndarray.cumulative sum %a axis 1 : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3x4xi64>
  // CHECK: ndarray.cumulative prod %{{.*}} axis 0 include_initial : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<4x4xi64>
  %1 = ndarray.cumulative prod %a axis 0 include_initial : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<4x4xi64>
  // CHECK: ndarray.cumulative sum %{{.*}} axis 0 include_initial : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %2 = ndarray.cumulative sum %b axis 0 include_initial : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

// Complex elements: component-typed abs/real/imag, promotion with reals,
// complex fills.
// CHECK-LABEL: func @complex
func.func @complex(%z: !ndarray.ndarray<4xcomplex<f32>>, %f: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<4xi32>, %c: complex<f64>) {
  // CHECK: ndarray.ewbin multiply %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xcomplex<f32>>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xcomplex<f64>>
  %0 = ndarray.ewbin multiply %z, %f : (!ndarray.ndarray<4xcomplex<f32>>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xcomplex<f64>>
  // CHECK: ndarray.ewbin divide %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xi32>, !ndarray.ndarray<4xcomplex<f32>>) -> !ndarray.ndarray<4xcomplex<f64>>
  %1 = ndarray.ewbin divide %i, %z : (!ndarray.ndarray<4xi32>, !ndarray.ndarray<4xcomplex<f32>>) -> !ndarray.ndarray<4xcomplex<f64>>
  // CHECK: ndarray.ewbin equal %{{.*}}, %{{.*}} : (!ndarray.ndarray<4xcomplex<f32>>, !ndarray.ndarray<4xcomplex<f32>>) -> !ndarray.ndarray<4xi1>
  %2 = ndarray.ewbin equal %z, %z : (!ndarray.ndarray<4xcomplex<f32>>, !ndarray.ndarray<4xcomplex<f32>>) -> !ndarray.ndarray<4xi1>
  // CHECK: ndarray.ewuny abs %{{.*}} : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xf32>
  %3 = ndarray.ewuny abs %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xf32>
  // CHECK: ndarray.ewuny imag %{{.*}} : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xf32>
  %4 = ndarray.ewuny imag %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xf32>
  // CHECK: ndarray.ewuny conj %{{.*}} : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  %5 = ndarray.ewuny conj %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  // On real arrays: real and conj keep the type, imag is zero of it.
  // CHECK: ndarray.ewuny imag %{{.*}} : !ndarray.ndarray<4xi32> -> !ndarray.ndarray<4xi32>
  %6 = ndarray.ewuny imag %i : !ndarray.ndarray<4xi32> -> !ndarray.ndarray<4xi32>
  // CHECK: ndarray.ewuny exp %{{.*}} : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  %7 = ndarray.ewuny exp %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  // CHECK: ndarray.reduction mean %{{.*}} : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<complex<f32>>
  %8 = ndarray.reduction mean %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<complex<f32>>
  // CHECK: ndarray.create value %{{.*}} : !ndarray.ndarray<2x2xcomplex<f64>>
  %9 = ndarray.create value %c : !ndarray.ndarray<2x2xcomplex<f64>>
  return
}

// -----

// ndarray.linalg: one op per routine, the status last.
// CHECK-LABEL: func @lapack_routines
// CHECK: ndarray.linalg solve %{{.*}}, %{{.*}} : (!ndarray.ndarray<2x3x3xf64>, !ndarray.ndarray<2x3x4xf64>) -> (!ndarray.ndarray<2x3x4xf64>, !ndarray.ndarray<i64>)
// CHECK: ndarray.linalg svd %{{.*}} flag : (!ndarray.ndarray<?x5xcomplex<f32>>) -> (!ndarray.ndarray<?x?xcomplex<f32>>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<5x5xcomplex<f32>>, !ndarray.ndarray<i64>)
// CHECK: ndarray.linalg slogdet %{{.*}} : (!ndarray.ndarray<2x3x3xf64>) -> (!ndarray.ndarray<2xf64>, !ndarray.ndarray<2xf64>, !ndarray.ndarray<i64>)
func.func @lapack_routines(%a: !ndarray.ndarray<2x3x3xf64>, %b: !ndarray.ndarray<2x3x4xf64>, %c: !ndarray.ndarray<?x5xcomplex<f32>>) {
  %x:2 = ndarray.linalg solve %a, %b : (!ndarray.ndarray<2x3x3xf64>, !ndarray.ndarray<2x3x4xf64>) -> (!ndarray.ndarray<2x3x4xf64>, !ndarray.ndarray<i64>)
  %s:4 = ndarray.linalg svd %c flag : (!ndarray.ndarray<?x5xcomplex<f32>>) -> (!ndarray.ndarray<?x?xcomplex<f32>>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<5x5xcomplex<f32>>, !ndarray.ndarray<i64>)
  %d:3 = ndarray.linalg slogdet %a : (!ndarray.ndarray<2x3x3xf64>) -> (!ndarray.ndarray<2xf64>, !ndarray.ndarray<2xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

// ndarray.fft: complex to complex, real to half the complex lane plus one,
// back to a real lane of the given length; over several axes, the last one
// halved.
// CHECK-LABEL: func @fourier_transforms
// CHECK: ndarray.fft forward %{{.*}} axes [0] : !ndarray.ndarray<4x6xcomplex<f32>> -> !ndarray.ndarray<4x6xcomplex<f32>>
// CHECK: ndarray.fft r2c %{{.*}} axes [1] : !ndarray.ndarray<4x7xf64> -> !ndarray.ndarray<4x4xcomplex<f64>>
// CHECK: ndarray.fft c2r %{{.*}} axes [1] length 7 : !ndarray.ndarray<4x4xcomplex<f64>> -> !ndarray.ndarray<4x7xf64>
// CHECK: ndarray.fft r2c %{{.*}} axes [1, 0] : !ndarray.ndarray<4x7xf64> -> !ndarray.ndarray<3x7xcomplex<f64>>
// CHECK: ndarray.fft backward %{{.*}} axes [0, 1] : !ndarray.ndarray<4x6xcomplex<f32>> -> !ndarray.ndarray<4x6xcomplex<f32>>
func.func @fourier_transforms(%c: !ndarray.ndarray<4x6xcomplex<f32>>, %r: !ndarray.ndarray<4x7xf64>) {
  %0 = ndarray.fft forward %c axes [0] : !ndarray.ndarray<4x6xcomplex<f32>> -> !ndarray.ndarray<4x6xcomplex<f32>>
  %1 = ndarray.fft r2c %r axes [1] : !ndarray.ndarray<4x7xf64> -> !ndarray.ndarray<4x4xcomplex<f64>>
  %2 = ndarray.fft c2r %1 axes [1] length 7 : !ndarray.ndarray<4x4xcomplex<f64>> -> !ndarray.ndarray<4x7xf64>
  %3 = ndarray.fft r2c %r axes [1, 0] : !ndarray.ndarray<4x7xf64> -> !ndarray.ndarray<3x7xcomplex<f64>>
  %4 = ndarray.fft backward %c axes [0, 1] : !ndarray.ndarray<4x6xcomplex<f32>> -> !ndarray.ndarray<4x6xcomplex<f32>>
  return
}
