// RUN: imex-opt %s -imex-double-buffer-loops -split-input-file | FileCheck %s

// A Jacobi-like step: the interior is written from shifted reads of the
// previous version. The loop is unrolled by two; the first copy writes into
// the spare (second iter_arg, initialised like the first), the second copy
// reads that and writes back into the first iter_arg; an epilogue loop runs
// an odd last iteration, computing into the spare (carried along) and
// copying the written elements back (no new temporary). The spare starts as a new tensor with the
// initial value's frame (the elements the loop never writes: rows 0 and 15,
// columns 0 and 15), not a copy of all of it.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @stencil(
//  CHECK-SAME:   %[[INIT:.*]]: tensor<16x16xf64>, %[[N:.*]]: index)
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<16x16xf64>
//       CHECK:   %[[TOP:.*]] = tensor.extract_slice %[[INIT]][0, 0] [1, 16] [1, 1]
//       CHECK:   %[[F0:.*]] = tensor.insert_slice %[[TOP]] into %[[E]][0, 0] [1, 16] [1, 1]
//       CHECK:   %[[F1:.*]] = tensor.insert_slice %{{.*}} into %[[F0]][15, 0] [1, 16] [1, 1]
//       CHECK:   %[[F2:.*]] = tensor.insert_slice %{{.*}} into %[[F1]][1, 0] [14, 1] [1, 1]
//       CHECK:   %[[F3:.*]] = tensor.insert_slice %{{.*}} into %[[F2]][1, 15] [14, 1] [1, 1]
//       CHECK:   %[[MAIN:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[U:.*]] = %[[INIT]], %[[S:.*]] = %[[F3]])
//       CHECK:     %[[A:.*]] = tensor.extract_slice %[[U]][0, 1] [14, 14]
//       CHECK:     %[[F:.*]] = linalg.generic {{.*}} ins(%[[A]]
//       CHECK:     %[[FIRST:.*]] = tensor.insert_slice %[[F]] into %[[S]][1, 1] [14, 14] [1, 1]
//       CHECK:     %[[B:.*]] = tensor.extract_slice %[[FIRST]][0, 1] [14, 14]
//       CHECK:     %[[G:.*]] = linalg.generic {{.*}} ins(%[[B]]
//       CHECK:     %[[SECOND:.*]] = tensor.insert_slice %[[G]] into %[[U]][1, 1] [14, 14] [1, 1]
//       CHECK:     scf.yield %[[SECOND]], %[[FIRST]]
//       CHECK:   %[[LAST:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[V:.*]] = %[[MAIN]]#0, %[[W:.*]] = %[[MAIN]]#1)
//       CHECK:     %[[OUT:.*]] = tensor.extract_slice %[[W]][1, 1] [14, 14]
//       CHECK:     %[[H:.*]] = linalg.generic {{.*}} outs(%[[OUT]] :
//       CHECK:     %[[INTO:.*]] = tensor.insert_slice %[[H]] into %[[W]][1, 1]
//       CHECK:     %[[BACK:.*]] = tensor.extract_slice %[[INTO]][1, 1] [14, 14]
//       CHECK:     %[[LASTV:.*]] = tensor.insert_slice %[[BACK]] into %[[V]][1, 1]
//       CHECK:     scf.yield %[[LASTV]], %[[INTO]]
//       CHECK:   return %[[LAST]]#0
func.func @stencil(%init: tensor<16x16xf64>, %n: index) -> tensor<16x16xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<16x16xf64>) {
    %a = tensor.extract_slice %u[0, 1] [14, 14] [1, 1] : tensor<16x16xf64> to tensor<14x14xf64>
    %b = tensor.extract_slice %u[2, 1] [14, 14] [1, 1] : tensor<16x16xf64> to tensor<14x14xf64>
    %e = tensor.empty() : tensor<14x14xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<14x14xf64>, tensor<14x14xf64>) outs(%e : tensor<14x14xf64>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %z = arith.addf %x, %y : f64
      linalg.yield %z : f64
    } -> tensor<14x14xf64>
    %w = tensor.insert_slice %f into %u[1, 1] [14, 14] [1, 1] : tensor<14x14xf64> into tensor<16x16xf64>
    scf.yield %w : tensor<16x16xf64>
  }
  return %r : tensor<16x16xf64>
}

// -----

// A chain of writes (pieces of the rows, a piece computed in place into a
// slice of the previous write) and an argument that is only passed through:
// both copies of the chain are re-rooted, the other argument is untouched.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @chain(
//       CHECK:   scf.for {{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[K:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}}) -> (tensor<8xf64>, index, tensor<8xf64>)
//       CHECK:     %[[A1:.*]] = tensor.insert_slice %{{.*}} into %[[S]][2] [3] [1]
//       CHECK:     %[[A2:.*]] = tensor.insert_slice %{{.*}} into %[[A1]][5] [1] [1]
//       CHECK:     %[[A3:.*]] = tensor.extract_slice %[[A2]][1] [1] [1]
//       CHECK:     %[[A4:.*]] = linalg.generic {{.*}} outs(%[[A3]]
//       CHECK:     %[[A5:.*]] = tensor.insert_slice %[[A4]] into %[[A2]][1] [1] [1]
//       CHECK:     %[[B1:.*]] = tensor.insert_slice %{{.*}} into %[[U]][2] [3] [1]
//       CHECK:     %[[B5:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[1] [1] [1]
//       CHECK:     scf.yield %[[B5]], %{{.*}}, %[[A5]]
func.func @chain(%init: tensor<8xf64>, %n: index, %k: index) -> (tensor<8xf64>, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init, %kk = %k) -> (tensor<8xf64>, index) {
    %a = tensor.extract_slice %u[3] [3] [1] : tensor<8xf64> to tensor<3xf64>
    %b = tensor.extract_slice %u[0] [1] [1] : tensor<8xf64> to tensor<1xf64>
    %w1 = tensor.insert_slice %a into %u[2] [3] [1] : tensor<3xf64> into tensor<8xf64>
    %w2 = tensor.insert_slice %b into %w1[5] [1] [1] : tensor<1xf64> into tensor<8xf64>
    %d = tensor.extract_slice %w2[1] [1] [1] : tensor<8xf64> to tensor<1xf64>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%b : tensor<1xf64>) outs(%d : tensor<1xf64>) {
    ^bb0(%x: f64, %o: f64):
      %z = arith.mulf %x, %x : f64
      linalg.yield %z : f64
    } -> tensor<1xf64>
    %w3 = tensor.insert_slice %g into %w2[1] [1] [1] : tensor<1xf64> into tensor<8xf64>
    scf.yield %w3, %kk : tensor<8xf64>, index
  }
  return %r#0, %r#1 : tensor<8xf64>, index
}

// -----

// Not changed: the position of the write depends on the iteration (the
// written region differs between iterations).
// CHECK-LABEL: func.func @moving_write(
//   CHECK-NOT:   step %c2
//       CHECK:   iter_args(%{{.*}} = %{{.*}}) -> (tensor<8xf64>)
func.func @moving_write(%init: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<8xf64>) {
    %a = tensor.extract_slice %u[0] [1] [1] : tensor<8xf64> to tensor<1xf64>
    %w = tensor.insert_slice %a into %u[%i] [1] [1] : tensor<1xf64> into tensor<8xf64>
    scf.yield %w : tensor<8xf64>
  }
  return %r : tensor<8xf64>
}

// -----

// Not changed: the new values do not read the previous version (it is
// already updated in place), and an accumulation reads its init.
#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @no_gain(
//   CHECK-NOT:   step %c2
//       CHECK:   return
func.func @no_gain(%init: tensor<8xf64>, %src: tensor<2xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<8xf64>) {
    %w = tensor.insert_slice %src into %u[1] [2] [1] : tensor<2xf64> into tensor<8xf64>
    scf.yield %w : tensor<8xf64>
  }
  return %r : tensor<8xf64>
}
// CHECK-LABEL: func.func @accumulate(
//   CHECK-NOT:   step %c2
//       CHECK:   return
func.func @accumulate(%init: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<8xf64>) {
    %a = tensor.extract_slice %u[0] [8] [1] : tensor<8xf64> to tensor<8xf64>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf64>) outs(%u : tensor<8xf64>) {
    ^bb0(%x: f64, %o: f64):
      %z = arith.addf %x, %o : f64
      linalg.yield %z : f64
    } -> tensor<8xf64>
    scf.yield %g : tensor<8xf64>
  }
  return %r : tensor<8xf64>
}

// -----

// Not changed: an intermediate version is read where the chain writes
// later in the iteration (the spare would hold a value two iterations old).
// CHECK-LABEL: func.func @read_between_writes(
//   CHECK-NOT:   step %c2
//       CHECK:   return
func.func @read_between_writes(%init: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<8xf64>) {
    %a = tensor.extract_slice %u[0] [2] [1] : tensor<8xf64> to tensor<2xf64>
    %w1 = tensor.insert_slice %a into %u[2] [2] [1] : tensor<2xf64> into tensor<8xf64>
    %b = tensor.extract_slice %w1[4] [2] [1] : tensor<8xf64> to tensor<2xf64>
    %w2 = tensor.insert_slice %b into %w1[6] [2] [1] : tensor<2xf64> into tensor<8xf64>
    %w3 = tensor.insert_slice %a into %w2[4] [2] [1] : tensor<2xf64> into tensor<8xf64>
    scf.yield %w3 : tensor<8xf64>
  }
  return %r : tensor<8xf64>
}

// -----

// A distributed stencil step: halos are written into the ghost rows of the
// buffer (ghost writes), the interior is computed from the result and
// written back. The ghost writes stay on the buffer each copy reads; only
// the update moves to the other buffer: the first copy updates the spare,
// the second copy writes its halos into the spare and updates the version
// of the argument the first copy read. The spare yields its last version.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @ghost_writes(
//  CHECK-SAME:   %[[INIT:.*]]: tensor<18x16xf64>, %[[H:.*]]: tensor<1x16xf64>, %[[N:.*]]: index)
//       CHECK:   scf.for %{{.*}} iter_args(%[[U:.*]] = %[[INIT]], %[[S:.*]] = %{{.*}})
//       CHECK:     %[[L1:.*]] = tensor.insert_slice %[[H]] into %[[U]][0, 0] {{.*}} {ndarray.ghost_write}
//       CHECK:     %[[R1:.*]] = tensor.insert_slice %[[H]] into %[[L1]][17, 0] {{.*}} {ndarray.ghost_write}
//       CHECK:     tensor.extract_slice %[[R1]][0, 1]
//       CHECK:     %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %[[S]][1, 1]
//       CHECK:     %[[L2:.*]] = tensor.insert_slice %[[H]] into %[[FIRST]][0, 0] {{.*}} {ndarray.ghost_write}
//       CHECK:     %[[R2:.*]] = tensor.insert_slice %[[H]] into %[[L2]][17, 0] {{.*}} {ndarray.ghost_write}
//       CHECK:     tensor.extract_slice %[[R2]][0, 1]
//       CHECK:     %[[SECOND:.*]] = tensor.insert_slice %{{.*}} into %[[R1]][1, 1]
//       CHECK:     scf.yield %[[SECOND]], %[[R2]]
func.func @ghost_writes(%init: tensor<18x16xf64>, %halo: tensor<1x16xf64>, %n: index) -> tensor<18x16xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<18x16xf64>) {
    %l = tensor.insert_slice %halo into %u[0, 0] [1, 16] [1, 1] {ndarray.ghost_write} : tensor<1x16xf64> into tensor<18x16xf64>
    %g = tensor.insert_slice %halo into %l[17, 0] [1, 16] [1, 1] {ndarray.ghost_write} : tensor<1x16xf64> into tensor<18x16xf64>
    %a = tensor.extract_slice %g[0, 1] [16, 14] [1, 1] : tensor<18x16xf64> to tensor<16x14xf64>
    %b = tensor.extract_slice %g[2, 1] [16, 14] [1, 1] : tensor<18x16xf64> to tensor<16x14xf64>
    %e = tensor.empty() : tensor<16x14xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x14xf64>, tensor<16x14xf64>) outs(%e : tensor<16x14xf64>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %z = arith.addf %x, %y : f64
      linalg.yield %z : f64
    } -> tensor<16x14xf64>
    %w = tensor.insert_slice %f into %g[1, 1] [16, 14] [1, 1] : tensor<16x14xf64> into tensor<18x16xf64>
    scf.yield %w : tensor<18x16xf64>
  }
  return %r : tensor<18x16xf64>
}

// -----

// Received halos are marked on the arrays (canonicalization rebuilds the
// inserts without their marks): inserting them is a ghost write too.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @ghost_sources(
//       CHECK:   scf.for %{{.*}} iter_args(%[[U:.*]] = %{{.*}}, %[[S:.*]] = %{{.*}})
//       CHECK:     %[[G:.*]] = tensor.insert_slice %{{.*}} into %[[U]][0, 0]
//       CHECK:     %[[FIRST:.*]] = tensor.insert_slice %{{.*}} into %[[S]][1, 1]
//       CHECK:     tensor.insert_slice %{{.*}} into %[[FIRST]][0, 0]
//       CHECK:     tensor.insert_slice %{{.*}} into %[[G]][1, 1]
func.func @ghost_sources(%init: tensor<18x16xf64>, %m: memref<1x16xf64>, %n: index) -> tensor<18x16xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%u = %init) -> (tensor<18x16xf64>) {
    %halo = bufferization.to_tensor %m restrict {ndarray.ghost_write} : memref<1x16xf64> to tensor<1x16xf64>
    %g = tensor.insert_slice %halo into %u[0, 0] [1, 16] [1, 1] : tensor<1x16xf64> into tensor<18x16xf64>
    %a = tensor.extract_slice %g[0, 1] [16, 14] [1, 1] : tensor<18x16xf64> to tensor<16x14xf64>
    %e = tensor.empty() : tensor<16x14xf64>
    %f = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x14xf64>) outs(%e : tensor<16x14xf64>) {
    ^bb0(%x: f64, %o: f64):
      linalg.yield %x : f64
    } -> tensor<16x14xf64>
    %w = tensor.insert_slice %f into %g[1, 1] [16, 14] [1, 1] : tensor<16x14xf64> into tensor<18x16xf64>
    scf.yield %w : tensor<18x16xf64>
  }
  return %r : tensor<18x16xf64>
}

// -----

// Not changed: a loop that already alternates two arrays (v from u, then u
// from the new v). u's update reads only v, which holds u's old values
// materialized: both updates can be computed in place, nothing to save.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @already_double_buffered(
//       CHECK:   scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8xf64>, tensor<8xf64>)
//   CHECK-NOT:   scf.for
func.func @already_double_buffered(%u0: tensor<8xf64>, %v0: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %v = %v0) -> (tensor<8xf64>, tensor<8xf64>) {
    %a = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %o: f64):
      linalg.yield %x : f64
    } -> tensor<6xf64>
    %v2 = tensor.insert_slice %f into %v[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    %b = tensor.extract_slice %v2[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %g = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%b : tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %o: f64):
      linalg.yield %x : f64
    } -> tensor<6xf64>
    %u2 = tensor.insert_slice %g into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    scf.yield %u2, %v2 : tensor<8xf64>, tensor<8xf64>
  }
  return %r#0 : tensor<8xf64>
}

// -----

// A leapfrog step keeps the previous value: `p[1:7] = u[1:7]` and
// `u[1:7] = f(u shifted, p)`. The buffers rotate: the new values are computed
// into p's buffer (elementwise in p: the generic reads and writes the same
// view of p) with u's frame around them (the elements outside [1, 7)), and
// u's buffer becomes p with p's frame, copied at the start of the iteration
// (bufferization.alloc_tensor). The loop is unrolled by two, so that each
// array is back in its own buffer at the yield; no iter_arg is added. An odd
// last iteration runs the original body (rotated, it would yield each array
// in the other's buffer, which bufferization copies into new buffers).

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @leapfrog(
//       CHECK:   scf.for {{.*}} iter_args(%[[U:[^ ]*]] = %{{[^,]*}}, %[[P:[^ ]*]] = %{{[^)]*}}) -> (tensor<8xf64>, tensor<8xf64>)
//       CHECK:     %[[PF0:.*]] = tensor.extract_slice %[[P]][0] [1] [1]
//       CHECK:     %[[PF0C:.*]] = bufferization.alloc_tensor() copy(%[[PF0]])
//       CHECK:     %[[PF7:.*]] = tensor.extract_slice %[[P]][7] [1] [1]
//       CHECK:     %[[PF7C:.*]] = bufferization.alloc_tensor() copy(%[[PF7]])
//       CHECK:     %[[PV:.*]] = tensor.extract_slice %[[P]][1] [6] [1]
//       CHECK:     %[[F:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %[[PV]] : {{.*}}) outs(%[[PV]] : tensor<6xf64>)
//       CHECK:     %[[NEW:.*]] = tensor.insert_slice %[[F]] into %[[P]][1] [6] [1]
//       CHECK:     %[[UF0:.*]] = tensor.extract_slice %[[U]][0] [1] [1]
//       CHECK:     %[[NEW0:.*]] = tensor.insert_slice %[[UF0]] into %[[NEW]][0] [1] [1]
//       CHECK:     %[[UF7:.*]] = tensor.extract_slice %[[U]][7] [1] [1]
//       CHECK:     %[[NEW1:.*]] = tensor.insert_slice %[[UF7]] into %[[NEW0]][7] [1] [1]
//       CHECK:     %[[OLD0:.*]] = tensor.insert_slice %[[PF0C]] into %[[U]][0] [1] [1]
//       CHECK:     %[[OLD1:.*]] = tensor.insert_slice %[[PF7C]] into %[[OLD0]][7] [1] [1]
//       CHECK:     linalg.generic {{.*}} outs(%{{.*}} : tensor<6xf64>)
//       CHECK:     %[[NEXT:.*]] = tensor.insert_slice %{{.*}} into %[[OLD1]][1] [6] [1]
//       CHECK:     scf.yield %{{.*}}, %{{.*}} : tensor<8xf64>, tensor<8xf64>
//       CHECK:   scf.for {{.*}} iter_args(%[[LU:[^ ]*]] = %{{[^,]*}}, %[[LP:[^ ]*]] = %{{[^)]*}})
//   CHECK-NOT:     bufferization.alloc_tensor
//       CHECK:     %[[LF:.*]] = linalg.generic
//       CHECK:     %[[LC:.*]] = tensor.extract_slice %[[LU]][1] [6] [1]
//       CHECK:     %[[LP1:.*]] = tensor.insert_slice %[[LC]] into %[[LP]][1] [6] [1]
//       CHECK:     %[[LU1:.*]] = tensor.insert_slice %[[LF]] into %[[LU]][1] [6] [1]
//       CHECK:     scf.yield %[[LU1]], %[[LP1]]
//       CHECK:   return
func.func @leapfrog(%u0: tensor<8xf64>, %p0: tensor<8xf64>, %n: index) -> (tensor<8xf64>, tensor<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %p0) -> (tensor<8xf64>, tensor<8xf64>) {
    %l = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %r = tensor.extract_slice %u[2] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %q = tensor.extract_slice %p[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%l, %r, %q : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %y: f64, %z: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      %t = arith.subf %s, %z : f64
      linalg.yield %t : f64
    } -> tensor<6xf64>
    %c = tensor.extract_slice %u[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %p1 = tensor.insert_slice %c into %p[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    scf.yield %u1, %p1 : tensor<8xf64>, tensor<8xf64>
  }
  return %r#0, %r#1 : tensor<8xf64>, tensor<8xf64>
}

// -----

// The leapfrog step with both arrays starting from one value (p0 = u0, as
// after CSE of two equal initializations). Both are updated in place, so
// each needs a buffer of its own: p starts from a copy
// (bufferization.alloc_tensor), u from the value itself (one copy, where
// bufferization would copy each). Their frames (outside [1, 7)) start equal
// and are never written, so the rotation copies none.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @leapfrog_same_start(
//  CHECK-SAME:   %[[INIT:[^:]*]]: tensor<8xf64>
//       CHECK:   %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[INIT]]) : tensor<8xf64>
//       CHECK:   %[[MAIN:.*]]:2 = scf.for {{.*}} iter_args(%{{[^ ]*}} = %[[INIT]], %{{[^ ]*}} = %[[COPY]]) -> (tensor<8xf64>, tensor<8xf64>)
//   CHECK-NOT:     bufferization.alloc_tensor
//       CHECK:     linalg.generic
//   CHECK-NOT:     bufferization.alloc_tensor
//       CHECK:     linalg.generic
//   CHECK-NOT:     bufferization.alloc_tensor
//       CHECK:     scf.yield
//       CHECK:   scf.for {{.*}} iter_args(%{{[^ ]*}} = %[[MAIN]]#0, %{{[^ ]*}} = %[[MAIN]]#1) -> (tensor<8xf64>, tensor<8xf64>)
func.func @leapfrog_same_start(%u0: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %u0) -> (tensor<8xf64>, tensor<8xf64>) {
    %l = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %r = tensor.extract_slice %u[2] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %q = tensor.extract_slice %p[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel"]} ins(%l, %r, %q : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %y: f64, %z: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      %t = arith.subf %s, %z : f64
      linalg.yield %t : f64
    } -> tensor<6xf64>
    %c = tensor.extract_slice %u[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %p1 = tensor.insert_slice %c into %p[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    scf.yield %u1, %p1 : tensor<8xf64>, tensor<8xf64>
  }
  return %r#0 : tensor<8xf64>
}

// -----

// The same with the common start computed in the loop's block and an op
// between it and the loop (a timer start, say): p's copy is made where the
// value is computed, not at the loop. A start computed outside an
// enclosing loop is copied at the inner loop (each outer iteration needs
// its own copy).

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @leapfrog_same_start_computed(
//       CHECK:   %[[INIT:.*]] = linalg.generic
//       CHECK:   } -> tensor<8xf64>
//  CHECK-NEXT:   %[[COPY:.*]] = bufferization.alloc_tensor() copy(%[[INIT]]) : tensor<8xf64>
//       CHECK:   call @timer_start()
//       CHECK:   scf.for {{.*}} iter_args(%{{[^ ]*}} = %[[INIT]], %{{[^ ]*}} = %[[COPY]]) -> (tensor<8xf64>, tensor<8xf64>)
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
//       CHECK:     %[[INNER:.*]] = bufferization.alloc_tensor() copy(%[[INIT]]) : tensor<8xf64>
//       CHECK:     scf.for {{.*}} iter_args(%{{[^ ]*}} = %[[INIT]], %{{[^ ]*}} = %[[INNER]])
func.func private @timer_start()
func.func @leapfrog_same_start_computed(%a: tensor<8xf64>, %n: index) -> tensor<8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e0 = tensor.empty() : tensor<8xf64>
  %u0 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%a : tensor<8xf64>) outs(%e0 : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.mulf %x, %x : f64
    linalg.yield %y : f64
  } -> tensor<8xf64>
  func.call @timer_start() : () -> ()
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %u0) -> (tensor<8xf64>, tensor<8xf64>) {
    %l = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %q = tensor.extract_slice %p[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%l, %q : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %z: f64, %o: f64):
      %t = arith.subf %x, %z : f64
      linalg.yield %t : f64
    } -> tensor<6xf64>
    %c = tensor.extract_slice %u[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %p1 = tensor.insert_slice %c into %p[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    scf.yield %u1, %p1 : tensor<8xf64>, tensor<8xf64>
  }
  scf.for %j = %c0 to %n step %c1 {
    %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %u0) -> (tensor<8xf64>, tensor<8xf64>) {
      %l = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
      %q = tensor.extract_slice %p[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
      %e = tensor.empty() : tensor<6xf64>
      %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%l, %q : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
      ^bb0(%x: f64, %z: f64, %o: f64):
        %t = arith.subf %x, %z : f64
        linalg.yield %t : f64
      } -> tensor<6xf64>
      %c = tensor.extract_slice %u[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
      %p1 = tensor.insert_slice %c into %p[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
      %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
      scf.yield %u1, %p1 : tensor<8xf64>, tensor<8xf64>
    }
    func.call @timer_start() : () -> ()
  }
  return %r#0 : tensor<8xf64>
}

// -----

// Not rotated: p keeps u's values at other positions than u is updated at
// (p[0:6] = u[1:7]); u alone is double buffered.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @copy_elsewhere(
//   CHECK-NOT:   bufferization.alloc_tensor
//       CHECK:   scf.for {{.*}} -> (tensor<8xf64>, tensor<8xf64>, tensor<8xf64>)
func.func @copy_elsewhere(%u0: tensor<8xf64>, %p0: tensor<8xf64>, %n: index) -> (tensor<8xf64>, tensor<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %p0) -> (tensor<8xf64>, tensor<8xf64>) {
    %l = tensor.extract_slice %u[0] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %r = tensor.extract_slice %u[2] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%l, %r : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<6xf64>
    %c = tensor.extract_slice %u[1] [6] [1] : tensor<8xf64> to tensor<6xf64>
    %p1 = tensor.insert_slice %c into %p[0] [6] [1] : tensor<6xf64> into tensor<8xf64>
    %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<8xf64>
    scf.yield %u1, %p1 : tensor<8xf64>, tensor<8xf64>
  }
  return %r#0, %r#1 : tensor<8xf64>, tensor<8xf64>
}

// -----

// Not rotated: u and p may have different sizes (the buffers could not
// swap); u alone is double buffered.

#map = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @sizes_may_differ(
//   CHECK-NOT:   bufferization.alloc_tensor
//       CHECK:   scf.for {{.*}} -> (tensor<?xf64>, tensor<?xf64>, tensor<?xf64>)
func.func @sizes_may_differ(%u0: tensor<?xf64>, %p0: tensor<?xf64>, %n: index) -> (tensor<?xf64>, tensor<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%u = %u0, %p = %p0) -> (tensor<?xf64>, tensor<?xf64>) {
    %l = tensor.extract_slice %u[0] [6] [1] : tensor<?xf64> to tensor<6xf64>
    %r = tensor.extract_slice %u[2] [6] [1] : tensor<?xf64> to tensor<6xf64>
    %e = tensor.empty() : tensor<6xf64>
    %f = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]} ins(%l, %r : tensor<6xf64>, tensor<6xf64>) outs(%e : tensor<6xf64>) {
    ^bb0(%x: f64, %y: f64, %o: f64):
      %s = arith.addf %x, %y : f64
      linalg.yield %s : f64
    } -> tensor<6xf64>
    %c = tensor.extract_slice %u[1] [6] [1] : tensor<?xf64> to tensor<6xf64>
    %p1 = tensor.insert_slice %c into %p[1] [6] [1] : tensor<6xf64> into tensor<?xf64>
    %u1 = tensor.insert_slice %f into %u[1] [6] [1] : tensor<6xf64> into tensor<?xf64>
    scf.yield %u1, %p1 : tensor<?xf64>, tensor<?xf64>
  }
  return %r#0, %r#1 : tensor<?xf64>, tensor<?xf64>
}
