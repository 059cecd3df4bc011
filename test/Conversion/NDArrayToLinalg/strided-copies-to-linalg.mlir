// RUN: imex-opt %s -imex-strided-copies-to-linalg -split-input-file | FileCheck %s

// Copies involving views with strides become linalg.copy (loops after
// convert-linalg-to-loops); copies between identity layouts stay memcpys.
// CHECK-LABEL: func.func @copies
// CHECK-SAME: (%[[A:.*]]: memref<?x8xf64>, %[[B:.*]]: memref<?x8xf64>, %[[V:.*]]: memref<?x4xf64, strided<[8, 1], offset: ?>>, %[[T:.*]]: memref<?x4xf64>)
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: linalg.copy ins(%[[V]] : memref<?x4xf64, strided<[8, 1], offset: ?>>) outs(%[[T]] : memref<?x4xf64>)
// CHECK-NEXT: linalg.copy ins(%[[T]] : memref<?x4xf64>) outs(%[[V]] : memref<?x4xf64, strided<[8, 1], offset: ?>>)
func.func @copies(%a: memref<?x8xf64>, %b: memref<?x8xf64>, %v: memref<?x4xf64, strided<[8, 1], offset: ?>>, %t: memref<?x4xf64>) {
  memref.copy %a, %b : memref<?x8xf64> to memref<?x8xf64>
  memref.copy %v, %t : memref<?x4xf64, strided<[8, 1], offset: ?>> to memref<?x4xf64>
  memref.copy %t, %v : memref<?x4xf64> to memref<?x4xf64, strided<[8, 1], offset: ?>>
  return
}
