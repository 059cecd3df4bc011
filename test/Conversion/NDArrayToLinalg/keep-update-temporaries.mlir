// RUN: imex-opt %s -split-input-file -imex-keep-update-temporaries="block-bytes=0" | FileCheck %s

// One temporary the size of the result per update (`block-bytes=0`;
// keep-update-temporaries-row-blocks.mlir has the ring of row blocks the
// default gives where an update can be computed by rows).

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

// -----

#map = affine_map<(d0) -> (d0)>

// An elementwise op reading exactly the slice it writes (`d[s] = d[s] + x`,
// equal offsets as one SSA value) reads each element before writing it:
// no temporary.
// CHECK-LABEL: func.func @same_slice
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: tensor.empty
func.func @same_slice(%d: tensor<?xf64>, %o: index, %n: index) -> tensor<?xf64> {
  %a = tensor.extract_slice %d[%o] [%n] [1] : tensor<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %z: f64):
    %s = arith.mulf %x, %x : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %d[%o] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  return %i : tensor<?xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// The same slice read transposed is not read where it is written: a
// temporary.
// CHECK-LABEL: func.func @same_slice_transposed
// CHECK: bufferization.alloc_tensor
func.func @same_slice_transposed(%d: tensor<?x?xf64>, %n: index) -> tensor<?x?xf64> {
  %a = tensor.extract_slice %d[0, 0] [%n, %n] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %e = tensor.empty(%n, %n) : tensor<?x?xf64>
  %r = linalg.generic {indexing_maps = [#transposed, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%x: f64, %z: f64):
    linalg.yield %x : f64
  } -> tensor<?x?xf64>
  %i = tensor.insert_slice %r into %d[0, 0] [%n, %n] [1, 1] : tensor<?x?xf64> into tensor<?x?xf64>
  return %i : tensor<?x?xf64>
}

// -----

#map = affine_map<(d0) -> (d0)>

// An elementwise op reading the whole destination its result overwrites
// (`d[...] = d * 2`, the sizes those the kernel argument was given) reads
// it as the slice written (which eliminate-empty-tensors then makes its
// init, CSE one value): no temporary.
// CHECK-LABEL: func.func @whole_destination
// CHECK: %[[D:.*]] = bufferization.to_tensor
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: %[[S:.*]] = tensor.extract_slice %[[D]][0] [%{{.*}}] [1]
// CHECK: linalg.generic {{.*}} ins(%[[S]] : tensor<?xf64>)
func.func @whole_destination(%m: memref<?xf64>, %n: index) {
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [%n], strides: [1] : memref<?xf64> to memref<?xf64>
  %d = bufferization.to_tensor %v restrict writable : memref<?xf64> to tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%d : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%x: f64, %z: f64):
    %s = arith.mulf %x, %x : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %i = tensor.insert_slice %r into %d[0] [%n] [1] : tensor<?xf64> into tensor<?xf64>
  bufferization.materialize_in_destination %i in writable %v : (tensor<?xf64>, memref<?xf64>) -> ()
  return
}


// -----

// A block written back whole after an update in place (the write-back of
// a distributed argument): the whole slices fold to their tensors (sizes
// equal by value bounds), so the write-back reads nothing overwritten.
// CHECK-LABEL: func.func @whole_write_back
// CHECK-SAME: (%[[ARG:.*]]: tensor<?x?xf64>, %[[N:.*]]: index, %[[M:.*]]: index
// CHECK: %[[BLOCK:.*]] = tensor.extract_slice %[[ARG]][0, 0] [%[[N]], %[[M]]] [1, 1]
// CHECK: %[[UPDATED:.*]] = tensor.insert_slice %{{.*}} into %[[BLOCK]]
// CHECK-NEXT: %[[BACK:.*]] = tensor.insert_slice %[[UPDATED]] into %[[ARG]][0, 0] [%[[N]], %[[M]]] [1, 1]
// CHECK-NEXT: return %[[BACK]]
func.func @whole_write_back(%arg: tensor<?x?xf64>, %n: index, %m: index, %x: tensor<2x2xf64>) -> tensor<?x?xf64> {
  %block = tensor.extract_slice %arg[0, 0] [%n, %m] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %updated = tensor.insert_slice %x into %block[1, 1] [2, 2] [1, 1] : tensor<2x2xf64> into tensor<?x?xf64>
  %whole = tensor.extract_slice %updated[0, 0] [%n, %m] [1, 1] : tensor<?x?xf64> to tensor<?x?xf64>
  %again = tensor.insert_slice %whole into %block[0, 0] [%n, %m] [1, 1] : tensor<?x?xf64> into tensor<?x?xf64>
  %back = tensor.insert_slice %again into %arg[0, 0] [%n, %m] [1, 1] : tensor<?x?xf64> into tensor<?x?xf64>
  return %back : tensor<?x?xf64>
}
