// RUN: imex-opt %s -split-input-file -imex-keep-update-temporaries="block-bytes=1024" -canonicalize | FileCheck %s
// RUN: imex-opt %s -split-input-file -imex-keep-update-temporaries | FileCheck %s --check-prefix=DEFAULT

// An update reading rows of its target one above and one below the written
// ones (a stencil step) is computed in blocks of rows (1024 bytes: 2 rows
// of 64 f64) through a ring of two blocks: block b into slot b mod 2 from
// views of the loop's version of the target, then block b - 1 written
// back; the last block after the loop (the tail loop, one iteration here).
// No temporary the size of the grid.
// CHECK-LABEL: func.func @stencil
// CHECK-SAME: (%[[D:.*]]: tensor<66x64xf64>)
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[RING:.*]] = bufferization.alloc_tensor() : tensor<4x64xf64>
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[B:.*]] = %{{.*}} to %[[C32]] step %[[C1]] iter_args(%[[CUR:.*]] = %[[D]], %[[R:.*]] = %[[RING]])
// CHECK-DAG: tensor.extract_slice %[[CUR]][0, 0] [64, 64] [1, 1]
// CHECK-DAG: tensor.extract_slice %[[CUR]][2, 0] [64, 64] [1, 1]
// CHECK: %[[SLOT:.*]] = tensor.extract_slice %[[R]]
// CHECK: %[[BLOCK:.*]] = linalg.generic {{.*}} outs(%[[SLOT]] : tensor<?x64xf64>)
// CHECK: %[[NEWRING:.*]] = tensor.insert_slice %[[BLOCK]] into %[[R]]
// CHECK: %[[DUE:.*]] = arith.cmpi uge, %[[B]], %[[C1]]
// CHECK: %[[WRITTEN:.*]] = scf.if %[[DUE]]
// CHECK: %[[OLD:.*]] = tensor.extract_slice %[[NEWRING]]
// CHECK: tensor.insert_slice %[[OLD]] into %[[CUR]]
// CHECK: scf.yield %[[CUR]]
// CHECK: scf.yield %[[WRITTEN]], %[[NEWRING]]
// CHECK: %[[LAST:.*]] = tensor.extract_slice %[[LOOP]]#1[2, 0] [2, 64]
// CHECK: %[[TAIL:.*]] = tensor.insert_slice %[[LAST]] into %[[LOOP]]#0[63, 0] [2, 64]
// CHECK: return %[[TAIL]]
// DEFAULT-LABEL: func.func @stencil
// DEFAULT-NOT: tensor.empty
// DEFAULT: bufferization.alloc_tensor(%{{.*}}) : tensor<?x64xf64>
// DEFAULT: scf.for
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @stencil(%d: tensor<66x64xf64>) -> tensor<66x64xf64> {
  %up = tensor.extract_slice %d[0, 0] [64, 64] [1, 1] : tensor<66x64xf64> to tensor<64x64xf64>
  %down = tensor.extract_slice %d[2, 0] [64, 64] [1, 1] : tensor<66x64xf64> to tensor<64x64xf64>
  %e = tensor.empty() : tensor<64x64xf64>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%up, %down : tensor<64x64xf64>, tensor<64x64xf64>) outs(%e : tensor<64x64xf64>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<64x64xf64>
  %i = tensor.insert_slice %r into %d[1, 0] [64, 64] [1, 1] : tensor<64x64xf64> into tensor<66x64xf64>
  return %i : tensor<66x64xf64>
}

// -----

// Offsets known only at run time (kernel arguments): the lag is the largest
// distance the written slice's first row lies below a view's, in blocks;
// operands of other tensors are sliced by the rows of the block (a row
// broadcast along the rows is read whole in every block), and linalg.index
// counts from the block's first row.
// CHECK-LABEL: func.func @dynamic_offsets
// CHECK-SAME: (%[[D:.*]]: tensor<?x?xf64>, %[[X:.*]]: tensor<?xf64>, %[[N:.*]]: index, %[[M:.*]]: index, %[[W:.*]]: index, %[[A:.*]]: index, %[[C:.*]]: index)
// CHECK-DAG: %[[BEHIND_A:.*]] = arith.subi %[[W]], %[[A]]
// CHECK-DAG: %[[BEHIND_C:.*]] = arith.subi %[[W]], %[[C]]
// CHECK: arith.ceildivui
// CHECK: bufferization.alloc_tensor(%{{.*}}, %[[M]]) : tensor<?x?xf64>
// CHECK: scf.for %[[B:.*]] = {{.*}} iter_args(%[[CUR:.*]] = %[[D]], %{{.*}} = %{{.*}})
// CHECK: %[[ROW:.*]] = arith.muli %[[B]]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[X]] : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?xf64>)
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: affine.apply #{{.*}}(%[[ROW]])[%[[I]]]
// CHECK: scf.if
// CHECK: scf.for
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @dynamic_offsets(%d: tensor<?x?xf64>, %x: tensor<?xf64>, %n: index, %m: index, %w: index, %a: index, %c: index) -> tensor<?x?xf64> {
  %v = tensor.extract_slice %d[%a, 0] [%n, %m] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %u = tensor.extract_slice %d[%c, 1] [%n, %m] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %e = tensor.empty(%n, %m) : tensor<?x?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%v, %u, %x : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%p: f64, %q: f64, %s: f64, %z: f64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %t = arith.addf %p, %q : f64
    %t2 = arith.addf %t, %s : f64
    %t3 = arith.addf %t2, %f : f64
    linalg.yield %t3 : f64
  } -> tensor<?x?xf64>
  %i = tensor.insert_slice %r into %d[%w, 0] [%n, %m] [1, 1] : tensor<?x?xf64> into tensor<?x?xf64>
  return %i : tensor<?x?xf64>
}

// -----

// Views a blocked loop cannot read from its version of the target (a view
// of a version before a ghost write, a transposed view, a view with a row
// stride) leave one temporary the size of the result.
// CHECK-LABEL: func.func @through_ghost_write
// CHECK-NOT: scf.for
// CHECK: bufferization.alloc_tensor(%{{.*}}) : tensor<?xf64>
// CHECK-LABEL: func.func @transposed
// CHECK-NOT: scf.for
// CHECK: bufferization.alloc_tensor(%{{.*}}, %{{.*}}) : tensor<?x?xf64>
// CHECK-LABEL: func.func @row_stride
// CHECK-NOT: scf.for
// CHECK: bufferization.alloc_tensor() : tensor<4xf64>
#map = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>
func.func @through_ghost_write(%d: tensor<?xf64>, %h: tensor<1xf64>, %n: index) -> tensor<?xf64> {
  %g = tensor.insert_slice %h into %d[0] [1] [1] : tensor<1xf64> into tensor<?xf64>
  %a = tensor.extract_slice %d[0] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %g[1] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}
func.func @transposed(%d: tensor<?x?xf64>, %n: index) -> tensor<?x?xf64> {
  %a = tensor.extract_slice %d[0, 0] [%n, %n] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %e = tensor.empty(%n, %n) : tensor<?x?xf64>
  %r = linalg.generic {indexing_maps = [#transposed, #map2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  } -> tensor<?x?xf64>
  %i = tensor.insert_slice %r into %d[0, 0] [%n, %n] [1, 1] : tensor<?x?xf64> into tensor<?x?xf64>
  return %i : tensor<?x?xf64>
}
func.func @row_stride(%d: tensor<8xf64>) -> tensor<8xf64> {
  %a = tensor.extract_slice %d[0] [4] [2] : tensor<8xf64> to tensor<4xf64>
  %e = tensor.empty() : tensor<4xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<4xf64>) outs(%e : tensor<4xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  } -> tensor<4xf64>
  %i = tensor.insert_slice %r into %d[1] [4] [1] : tensor<4xf64> into tensor<8xf64>
  return %i : tensor<8xf64>
}
