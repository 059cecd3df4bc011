// RUN: imex-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(convert-region-to-gpu,canonicalize))" -verify-diagnostics | FileCheck %s

// A 2-D elementwise op: a device allocation, a kernel over 32 x 8 thread
// blocks (the innermost dimension on x, a guard for partial tiles), the
// copy to the host a transfer, the free a device free; no region is left.
// CHECK-LABEL: func @elementwise
// CHECK-SAME: (%[[IN:.*]]: memref<?x?xf32>, %[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[DEV:.*]] = gpu.alloc (%[[N]], %[[M]]) : memref<?x?xf32>
// CHECK: gpu.memcpy %[[DEV]], %[[IN]]
// CHECK: %[[OUT:.*]] = gpu.alloc (%[[N]], %[[M]]) : memref<?x?xf32>
// CHECK: %[[GY:.*]] = affine.apply #{{.*}}()[%[[N]]]
// CHECK: %[[GX:.*]] = affine.apply #{{.*}}()[%[[M]]]
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[GX]], {{.*}} = %[[GY]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C32]], {{.*}} = %[[C8]], {{.*}})
// CHECK: scf.if
// CHECK: memref.load %[[DEV]]
// CHECK: math.sqrt
// CHECK: memref.store {{.*}}, %[[OUT]]
// CHECK: gpu.terminator
// CHECK: %[[HOST:.*]] = memref.alloc
// CHECK: gpu.memcpy %[[HOST]], %[[OUT]]
// CHECK-DAG: gpu.dealloc %[[DEV]]
// CHECK-DAG: gpu.dealloc %[[OUT]]
// CHECK-NOT: region.env_region
// CHECK: return %[[HOST]]
func.func @elementwise(%in: memref<?x?xf32>, %n: index, %m: index) -> memref<?x?xf32> {
  %r:2 = region.env_region #region.gpu_env<device = "cuda:0"> -> memref<?x?xf32>, memref<?x?xf32> {
    %dev = memref.alloc(%n, %m) : memref<?x?xf32>
    memref.copy %in, %dev : memref<?x?xf32> to memref<?x?xf32>
    %out = memref.alloc(%n, %m) : memref<?x?xf32>
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%dev : memref<?x?xf32>) outs(%out : memref<?x?xf32>) {
    ^bb0(%x: f32, %y: f32):
      %s = math.sqrt %x : f32
      linalg.yield %s : f32
    }
    region.env_region_yield %dev, %out : memref<?x?xf32>, memref<?x?xf32>
  }
  %host = memref.alloc(%n, %m) : memref<?x?xf32>
  memref.copy %r#1, %host : memref<?x?xf32> to memref<?x?xf32>
  memref.dealloc %r#0 : memref<?x?xf32>
  memref.dealloc %r#1 : memref<?x?xf32>
  return %host : memref<?x?xf32>
}

// -----

// 1-D: blocks of 256 threads.
// CHECK-LABEL: func @one_dimensional
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C4]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]], {{.*}})
func.func @one_dimensional(%x: f64) {
  region.env_region #region.gpu_env<device = "cuda:0"> {
    %a = memref.alloc() : memref<1000xf64>
    linalg.fill ins(%x : f64) outs(%a : memref<1000xf64>)
    memref.dealloc %a : memref<1000xf64>
  }
  return
}

// -----

// A full reduction runs in two steps: up to 16384 threads each fold a
// strided share of the elements, starting from the value the output was
// filled with, into a partial result (a kernel over blocks of threads); one
// thread folds the partial results into the output.
// CHECK-LABEL: func @reduction
// CHECK-DAG: %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[IN:.*]] = gpu.alloc () : memref<100xf64>
// CHECK: %[[ACC:.*]] = gpu.alloc () : memref<f64>
// CHECK: gpu.launch
// CHECK: memref.store %[[ZERO]], %[[ACC]][]
// CHECK: %[[PARTIALS:.*]] = gpu.alloc (%[[C100]]) : memref<?xf64>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %{{.*}}, {{.*}}, {{.*}})
// CHECK: scf.for %{{.*}} = %[[T:.*]] to %[[C100]] step %[[C100]] iter_args(%[[A:.*]] = %[[ZERO]])
// CHECK: memref.load %[[IN]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}} = %[[ONE:.*]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]]) threads({{.*}}) in ({{.*}} = %[[ONE]], {{.*}} = %[[ONE]], {{.*}} = %[[ONE]])
// CHECK-NEXT: scf.for
// CHECK: memref.load %[[PARTIALS]]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[ACC]][]
// CHECK: gpu.dealloc %[[PARTIALS]]
// CHECK: gpu.memcpy
func.func @reduction(%a: memref<100xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %r = region.env_region #region.gpu_env<device = "cuda:0"> -> memref<f64> {
    %dev = memref.alloc() : memref<100xf64>
    memref.copy %a, %dev : memref<100xf64> to memref<100xf64>
    %acc = memref.alloc() : memref<f64>
    linalg.fill ins(%zero : f64) outs(%acc : memref<f64>)
    linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>], iterator_types = ["reduction"]} ins(%dev : memref<100xf64>) outs(%acc : memref<f64>) {
    ^bb0(%x: f64, %y: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    }
    memref.dealloc %dev : memref<100xf64>
    region.env_region_yield %acc : memref<f64>
  }
  %host = memref.alloc() : memref<f64>
  memref.copy %r, %host : memref<f64> to memref<f64>
  %v = memref.load %host[] : memref<f64>
  return %v : f64
}

// -----

// A time loop stays on the host and launches a kernel per step; a copy
// between device buffers is a kernel too.
// CHECK-LABEL: func @time_loop
// CHECK: gpu.alloc
// CHECK: scf.for
// CHECK-NEXT: gpu.launch
// CHECK: memref.store
// CHECK: gpu.launch
// CHECK: memref.load
// CHECK: memref.store
func.func @time_loop(%steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  region.env_region #region.gpu_env<device = "cuda:0"> {
    %a = memref.alloc() : memref<64xf32>
    %b = memref.alloc() : memref<64xf32>
    scf.for %i = %c0 to %steps step %c1 {
      linalg.fill ins(%one : f32) outs(%a : memref<64xf32>)
      memref.copy %a, %b : memref<64xf32> to memref<64xf32>
    }
    memref.dealloc %a : memref<64xf32>
    memref.dealloc %b : memref<64xf32>
  }
  return
}

// -----

func.func @strided_transfer(%a: memref<8x8xf32>) {
  region.env_region #region.gpu_env<device = "cuda:0"> {
    %dev = memref.alloc() : memref<8x8xf32>
    %v = memref.subview %a[0, 0] [8, 4] [1, 2] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 2]>>
    %w = memref.subview %dev[0, 0] [8, 4] [1, 1] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 1]>>
    // expected-error @below {{'memref.copy' op copies a strided view between host and device memory; copy a contiguous array}}
    memref.copy %v, %w : memref<8x4xf32, strided<[8, 2]>> to memref<8x4xf32, strided<[8, 1]>>
  }
  return
}

// -----

func.func @scalar_to_host() -> f32 {
  %r = region.env_region #region.gpu_env<device = "cuda:0"> -> f32 {
    %dev = memref.alloc() : memref<4xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%dev : memref<4xf32>)
    %c0 = arith.constant 0 : index
    // expected-error @below {{'memref.load' op computes on the device a value that the host uses}}
    %x = memref.load %dev[%c0] : memref<4xf32>
    region.env_region_yield %x : f32
  }
  return %r : f32
}

// -----

// A reduction over the middle axis: the loops of the outer and inner
// parallel dimensions enclose the sequential one; the outermost is mapped to
// the grid, the inner runs sequentially in each thread (no nested launch).
// A GPU region nested in another is part of it.
// CHECK-LABEL: func @middle_axis
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK-NEXT: scf.parallel
// CHECK-NOT: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: region.env_region
func.func @middle_axis(%a: memref<6x35x9xf64>, %out: memref<6x9xf64>) {
  region.env_region #region.gpu_env<device = "cuda:0"> {
    region.env_region #region.gpu_env<device = "cuda:0"> {
      linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, k)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%a : memref<6x35x9xf64>) outs(%out : memref<6x9xf64>) {
      ^bb0(%x: f64, %y: f64):
        %m = arith.maximumf %x, %y : f64
        linalg.yield %m : f64
      }
    }
  }
  return
}

// -----

func.func private @helper(memref<?xi1>)

// Buffers that are only stored to, loaded from and passed to calls (the
// ownership flags of buffer deallocation) are the host's: no device
// allocation, no kernel.
// CHECK-LABEL: func @bookkeeping
// CHECK: memref.alloc() : memref<4xi1>
// CHECK-NOT: gpu.
// CHECK: return
func.func @bookkeeping(%b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  region.env_region #region.gpu_env<device = "cuda:0"> {
    %flags = memref.alloc() : memref<4xi1>
    memref.store %true, %flags[%c0] : memref<4xi1>
    %cast = memref.cast %flags : memref<4xi1> to memref<?xi1>
    func.call @helper(%cast) : (memref<?xi1>) -> ()
    %f = memref.load %flags[%c0] : memref<4xi1>
    scf.if %f {
      memref.dealloc %b : memref<8xf32>
    }
    memref.dealloc %flags : memref<4xi1>
  }
  return
}

// -----

func.func @before_bufferization(%t: tensor<4xf32>, %x: f32) -> tensor<4xf32> {
  %r = region.env_region #region.gpu_env<device = "cuda:0"> -> tensor<4xf32> {
    // expected-error @below {{'linalg.fill' op is on tensors: convert-region-to-gpu runs after bufferization}}
    %f = linalg.fill ins(%x : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
    region.env_region_yield %f : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
