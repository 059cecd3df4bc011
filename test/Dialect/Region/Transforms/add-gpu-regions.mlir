// RUN: imex-opt %s -split-input-file -add-gpu-regions -verify-diagnostics | FileCheck %s

!g = !ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">>
!h = !ndarray.ndarray<16xf32>

// Ops on GPU arrays form one region (the constant between them moves out);
// the copy in is inside, the copy back to the host outside.
// CHECK-LABEL: func @group
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<16xf32>)
// CHECK: arith.constant
// CHECK: %[[R:.*]] = region.env_region #region.gpu_env<device = "cuda:0"> -> !ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">> {
// CHECK-NEXT: %[[D:.*]] = ndarray.copy %[[A]]
// CHECK-NEXT: %[[S:.*]] = ndarray.ewuny sqrt %[[D]]
// CHECK-NEXT: %[[M:.*]] = ndarray.ewbin multiply %[[S]], %[[D]]
// CHECK-NEXT: region.env_region_yield %[[M]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[H:.*]] = ndarray.copy %[[R]] : {{.*}} -> !ndarray.ndarray<16xf32>
// CHECK-NEXT: return %[[H]]
func.func @group(%a: !h) -> !h {
  %d = ndarray.copy %a : !h -> !g
  %s = ndarray.ewuny sqrt %d : !g -> !g
  %c = arith.constant 2.0 : f32
  %m = ndarray.ewbin multiply %s, %d : (!g, !g) -> !g
  %h = ndarray.copy %m : !g -> !h
  return %h : !h
}

// -----

!g = !ndarray.ndarray<?xf64, #region.gpu_env<device = "cuda:0">>

// A loop with only device work and scalar computations moves to the device
// as a whole (the buffers it carries are then device buffers).
// CHECK-LABEL: func @whole_loop
// CHECK: region.env_region #region.gpu_env<device = "cuda:0">
// CHECK-NEXT: ndarray.create
// CHECK-NEXT: scf.for
// CHECK: ndarray.ewbin add
// CHECK: ndarray.insert_slice
// CHECK: }
// CHECK-NEXT: ndarray.reduction sum
// CHECK-NEXT: region.env_region_yield
// CHECK-NOT: region.env_region
func.func @whole_loop(%n: index) -> !ndarray.ndarray<f64, #region.gpu_env<device = "cuda:0">> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f64
  %u = ndarray.create(%n) value %zero : !g
  scf.for %i = %c0 to %c10 step %c1 {
    %m = arith.subi %n, %c1 : index
    %v = ndarray.subview %u[1] [%m] [1] : !g to !g
    %w = ndarray.subview %u[0] [%m] [1] : !g to !g
    %s = ndarray.ewbin add %v, %w : (!g, !g) -> !g
    ndarray.insert_slice %s into %u[0] [%m] [1] : !g into !g
  }
  %t = ndarray.reduction sum %u : !g -> !ndarray.ndarray<f64, #region.gpu_env<device = "cuda:0">>
  return %t : !ndarray.ndarray<f64, #region.gpu_env<device = "cuda:0">>
}

// -----

!g = !ndarray.ndarray<8xf32, #region.gpu_env<device = "cuda:0">>
!h = !ndarray.ndarray<8xf32>

func.func private @log(index)

// A loop doing host work (a call) is not moved; its device ops get regions
// of their own, and host arrays stay outside.
// CHECK-LABEL: func @host_loop
// CHECK: scf.for
// CHECK-NEXT: func.call @log
// CHECK-NEXT: region.env_region #region.gpu_env<device = "cuda:0"> {
// CHECK-NEXT: ndarray.ewuny negative
// CHECK-NEXT: ndarray.insert_slice
// CHECK-NEXT: }
// CHECK-NEXT: ndarray.ewuny negative %{{.*}} : !ndarray.ndarray<8xf32> ->
func.func @host_loop(%a: !g, %b: !h) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @log(%i) : (index) -> ()
    %n = ndarray.ewuny negative %a : !g -> !g
    ndarray.insert_slice %n into %a[0] [8] [1] : !g into !g
    %m = ndarray.ewuny negative %b : !h -> !h
    ndarray.insert_slice %m into %b[0] [8] [1] : !h into !h
  }
  return
}

// -----

!g0 = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
!g1 = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:1">>

// Two devices: two regions.
// CHECK-LABEL: func @two_devices
// CHECK: region.env_region #region.gpu_env<device = "cuda:0">
// CHECK: region.env_region #region.gpu_env<device = "cuda:1">
// CHECK-NEXT: ndarray.copy
// CHECK-NEXT: ndarray.ewuny sqrt
func.func @two_devices(%a: !g0) -> !g1 {
  %s = ndarray.ewuny sqrt %a : !g0 -> !g0
  %b = ndarray.copy %s : !g0 -> !g1
  %t = ndarray.ewuny sqrt %b : !g1 -> !g1
  return %t : !g1
}

// -----

!g = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>

func.func @load_on_host(%a: !g) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{'ndarray.load' op reads an array in #region.gpu_env<device = "cuda:0"> on the host; copy it to the host first (ndarray.copy)}}
  %x = ndarray.load %a[%c0] : !g
  return %x : f32
}

// -----

!g = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>

func.func @to_tensor_on_host(%a: !g) -> tensor<4xf32> {
  // expected-error @below {{'ndarray.to_tensor' op reads an array in #region.gpu_env<device = "cuda:0"> on the host}}
  %t = ndarray.to_tensor %a : !g -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

!g = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
!h = !ndarray.ndarray<4xf32>

// Mixing host and device arrays without a copy is rejected by the ops'
// verifiers.
func.func @mixed(%a: !g, %b: !h) {
  // expected-error @below {{requires arrays in compatible environments}}
  %s = ndarray.ewbin add %a, %b : (!g, !h) -> !g
  return
}

// -----

!g = !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>

func.func @sort_on_device(%a: !g) -> !g {
  // expected-error @below {{'ndarray.sort' op sorts an array in #region.gpu_env<device = "cuda:0">, which IDTR does on the host; copy it to the host first (ndarray.copy)}}
  %s = ndarray.sort %a axis 0 : !g -> !g
  return %s : !g
}
