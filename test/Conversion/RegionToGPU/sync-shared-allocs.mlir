// RUN: imex-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(imex-gpu-sync-shared-allocs))" | FileCheck %s

// An asynchronous host-shared allocation waits for its dependencies,
// allocates synchronously and gives its users a fresh token; other
// allocations are left alone.
// CHECK-LABEL: func @shared
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: gpu.wait [%[[T0]]]
// CHECK-NEXT: %[[M:.*]] = gpu.alloc host_shared (%{{.*}}) : memref<?xf32>
// CHECK-NEXT: %[[T1:.*]] = gpu.wait async
// CHECK-NEXT: %[[D:.*]] = gpu.dealloc async [%[[T1]]] %[[M]]
// CHECK: %{{.*}}, %{{.*}} = gpu.alloc async [%[[D]]] (%{{.*}}) : memref<?xf32>
func.func @shared(%n: index) {
  %t0 = gpu.wait async
  %m, %t1 = gpu.alloc async [%t0] host_shared (%n) : memref<?xf32>
  %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
  %d, %t3 = gpu.alloc async [%t2] (%n) : memref<?xf32>
  %t4 = gpu.dealloc async [%t3] %d : memref<?xf32>
  gpu.wait [%t4]
  return
}
