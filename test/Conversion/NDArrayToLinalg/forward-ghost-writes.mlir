// RUN: imex-opt %s -imex-forward-ghost-writes -split-input-file | FileCheck %s

// A loop reading the halos of one grid (exchanged into %v) and writing the
// other yields the exchanged version: the version before the exchange is
// not live past the exchange (which bufferization would have to copy).
// CHECK-LABEL: func.func @yield_after_exchange
// CHECK: scf.for {{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[V:.*]] = %{{.*}})
// CHECK: %[[G1:.*]] = tensor.insert_slice %{{.*}} into %[[V]][0, 0] [1, 8] [1, 1] {ndarray.ghost_write}
// CHECK: %[[G2:.*]] = tensor.insert_slice %{{.*}} into %[[G1]][9, 0] [1, 8] [1, 1] {ndarray.ghost_write}
// CHECK: %[[NEW:.*]] = tensor.insert_slice %{{.*}} into %[[U]]
// CHECK: scf.yield %[[G2]], %[[NEW]]
func.func @yield_after_exchange(%u0: tensor<10x8xf64>, %v0: tensor<10x8xf64>, %left: tensor<1x8xf64>, %right: tensor<1x8xf64>, %n: index) -> (tensor<10x8xf64>, tensor<10x8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %v = %v0) -> (tensor<10x8xf64>, tensor<10x8xf64>) {
    %g1 = tensor.insert_slice %left into %v[0, 0] [1, 8] [1, 1] {ndarray.ghost_write} : tensor<1x8xf64> into tensor<10x8xf64>
    %g2 = tensor.insert_slice %right into %g1[9, 0] [1, 8] [1, 1] {ndarray.ghost_write} : tensor<1x8xf64> into tensor<10x8xf64>
    %rows = tensor.extract_slice %g2[0, 0] [8, 8] [1, 1] : tensor<10x8xf64> to tensor<8x8xf64>
    %new = tensor.insert_slice %rows into %u[1, 0] [8, 8] [1, 1] : tensor<8x8xf64> into tensor<10x8xf64>
    scf.yield %v, %new : tensor<10x8xf64>, tensor<10x8xf64>
  }
  return %r#0, %r#1 : tensor<10x8xf64>, tensor<10x8xf64>
}

// -----

// Uses before the exchange (the rows it sends) keep the old version; later
// ones, an update included, use the exchanged one. A write that is not a
// ghost write forwards nothing (%after reads %g, not the update).
// CHECK-LABEL: func.func @uses_before_stay
// CHECK-SAME: (%[[V:.*]]: tensor<10x8xf64>, %[[H:.*]]: tensor<1x8xf64>)
// CHECK: %[[SEND:.*]] = tensor.extract_slice %[[V]][1, 0]
// CHECK: call @send(%[[SEND]])
// CHECK: %[[G:.*]] = tensor.insert_slice %[[H]] into %[[V]][0, 0] [1, 8] [1, 1] {ndarray.ghost_write}
// CHECK: %[[W:.*]] = tensor.insert_slice %[[H]] into %[[G]][4, 0]
// CHECK: %[[AFTER:.*]] = tensor.extract_slice %[[G]][1, 0]
// CHECK: return %[[AFTER]], %[[W]]
func.func private @send(tensor<1x8xf64>)
func.func @uses_before_stay(%v: tensor<10x8xf64>, %h: tensor<1x8xf64>) -> (tensor<1x8xf64>, tensor<10x8xf64>) {
  %send = tensor.extract_slice %v[1, 0] [1, 8] [1, 1] : tensor<10x8xf64> to tensor<1x8xf64>
  func.call @send(%send) : (tensor<1x8xf64>) -> ()
  %g = tensor.insert_slice %h into %v[0, 0] [1, 8] [1, 1] {ndarray.ghost_write} : tensor<1x8xf64> into tensor<10x8xf64>
  %w = tensor.insert_slice %h into %v[4, 0] [1, 8] [1, 1] : tensor<1x8xf64> into tensor<10x8xf64>
  %after = tensor.extract_slice %v[1, 0] [1, 8] [1, 1] : tensor<10x8xf64> to tensor<1x8xf64>
  return %after, %w : tensor<1x8xf64>, tensor<10x8xf64>
}

// -----

// Views taken before the exchange but read only after it (through other
// views) move behind it and view the exchanged version: the old version is
// not read after the in-place write.
// CHECK-LABEL: func.func @early_views_follow
// CHECK-SAME: (%[[V:.*]]: tensor<10x8xf64>, %[[H:.*]]: tensor<1x8xf64>)
// CHECK-NEXT: %[[G:.*]] = tensor.insert_slice %[[H]] into %[[V]][0, 0] [1, 8] [1, 1] {ndarray.ghost_write}
// CHECK-NEXT: %[[CORE:.*]] = tensor.extract_slice %[[G]][1, 0] [8, 8]
// CHECK-NEXT: %[[ROWS:.*]] = tensor.extract_slice %[[CORE]][0, 0] [4, 8]
// CHECK-NEXT: return %[[ROWS]]
func.func @early_views_follow(%v: tensor<10x8xf64>, %h: tensor<1x8xf64>) -> tensor<4x8xf64> {
  %core = tensor.extract_slice %v[1, 0] [8, 8] [1, 1] : tensor<10x8xf64> to tensor<8x8xf64>
  %rows = tensor.extract_slice %core[0, 0] [4, 8] [1, 1] : tensor<8x8xf64> to tensor<4x8xf64>
  %g = tensor.insert_slice %h into %v[0, 0] [1, 8] [1, 1] {ndarray.ghost_write} : tensor<1x8xf64> into tensor<10x8xf64>
  return %rows : tensor<4x8xf64>
}
