// RUN: imex-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(imex-gpu-to-host))" -verify-diagnostics | FileCheck %s

// A launch is a parallel loop over blocks and threads; the body reads the
// loop's indices for the ids and the launch's operands for the sizes.
// Device memory is host memory.
// CHECK-LABEL: func @launch
// CHECK-SAME: (%[[N:.*]]: index,
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[M:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: scf.parallel (%[[BX:.*]], %{{.*}}, %{{.*}}, %[[TX:.*]], %{{.*}}, %{{.*}}) = (%[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C0]], %[[C0]]) to (%[[N]], %[[C1]], %[[C1]], %[[C4]], %[[C1]], %[[C1]])
// CHECK: %[[I:.*]] = affine.apply #{{.*}}()[%[[BX]], %[[C4]], %[[TX]]]
// CHECK: memref.store %{{.*}}, %[[M]][%[[I]]]
// CHECK: memref.copy %[[M]], %{{.*}}
// CHECK: memref.dealloc %[[M]]
// CHECK-NOT: gpu.
func.func @launch(%n: index, %host: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = arith.constant 1.0 : f32
  %m = gpu.alloc (%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %i = affine.apply affine_map<()[s0, s1, s2] -> (s0 * s1 + s2)>()[%bx, %sx, %tx]
    memref.store %x, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  gpu.memcpy %host, %m : memref<?xf32>, memref<?xf32>
  gpu.dealloc %m : memref<?xf32>
  return
}

// -----

func.func @asynchronous(%n: index) {
  // expected-error @below {{'gpu.wait' op is asynchronous: imex-gpu-to-host runs before gpu-async-region}}
  %t = gpu.wait async
  %m, %t1 = gpu.alloc async [%t] (%n) : memref<?xf32>
  return
}
