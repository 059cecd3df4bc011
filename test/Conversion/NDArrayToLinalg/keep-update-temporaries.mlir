// RUN: imex-opt %s -split-input-file -imex-keep-update-temporaries | FileCheck %s

#map = affine_map<(d0) -> (d0)>

// A stencil update reads views of the tensor it overwrites: its values go
// to an explicit temporary (which eliminate-empty-tensors leaves alone).
// CHECK-LABEL: func.func @stencil
// CHECK: %[[TMP:.*]] = bufferization.alloc_tensor(%{{.*}}) : tensor<?xf64>
// CHECK: linalg.generic {{.*}} outs(%[[TMP]] : tensor<?xf64>)
func.func @stencil(%d: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %a = tensor.extract_slice %d[0] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %b = tensor.extract_slice %d[2] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf64>, tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %y: f64, %z: f64):
    %s = arith.addf %x, %y : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %d[1] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}

// -----

#map = affine_map<(d0) -> (d0)>

// Views of a version made by ghost writes into the tensor (a halo exchange)
// count as views of it; so do views of views.
// CHECK-LABEL: func.func @through_ghost_writes
// CHECK: bufferization.alloc_tensor
// CHECK: linalg.generic
func.func @through_ghost_writes(%d: tensor<?xf64>, %h: tensor<1xf64>, %n: index) -> tensor<?xf64> {
  %g = tensor.insert_slice %h into %d[0] [1] [1] : tensor<1xf64> into tensor<?xf64>
  %v = tensor.extract_slice %g[0] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %a = tensor.extract_slice %v[0] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %z: f64):
    %s = arith.mulf %x, %x : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %g[1] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}

// -----

#map = affine_map<(d0) -> (d0)>

// Reading a slice proven disjoint from the written one, or another tensor:
// the update may be computed in place, nothing changes.
// CHECK-LABEL: func.func @disjoint
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: tensor.empty
// CHECK-LABEL: func.func @other_tensor
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: tensor.empty
func.func @disjoint(%d: tensor<16xf64>) -> tensor<16xf64> {
  %a = tensor.extract_slice %d[8] [8] [1] : tensor<16xf64> to tensor<8xf64>
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf64>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %z: f64):
    %s = arith.mulf %x, %x : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  %i = tensor.insert_slice %r into %d[0] [8] [1] : tensor<8xf64> into tensor<16xf64>
  return %i : tensor<16xf64>
}
func.func @other_tensor(%d: tensor<?xf64>, %o: tensor<?xf64>, %n: index) -> tensor<?xf64> {
  %a = tensor.extract_slice %o[0] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %z: f64):
    %s = arith.mulf %x, %x : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %d[1] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}
