// RUN: imex-opt %s -split-input-file -convert-ndarray-to-linalg | FileCheck %s

// Floating point sums reduce an axis along the pairwise tree of its
// indices. Along a kept-contiguous layout (axis 0 here): the trees of groups
// of 8 neighbouring rows (levels 1-3), then of 8 groups (levels 4-6), one
// loop each vectorized along the kept axis; the partial last block and the
// levels above halve a tensor (elements 2i and 2i+1) until one value is
// left; the identity (+0.0) is combined with it at the end.
// CHECK-DAG: #[[G0:.*]] = affine_map<(d0, d1) -> (d0 * 8, d1)>
// CHECK-DAG: #[[G7:.*]] = affine_map<(d0, d1) -> (d0 * 8 + 7, d1)>
// CHECK-LABEL: func @rows
// CHECK: %[[GROUPS:.*]] = linalg.generic {indexing_maps = [#[[G0]], {{.*}}, #[[G7]], {{.*}}], iterator_types = ["parallel", "parallel"]}
// CHECK-COUNT-7: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[G0]], {{.*}}, #[[G7]], {{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[GROUPS]], %[[GROUPS]]
// CHECK: scf.while
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [%{{.*}}, 4] [2, 1]
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [%{{.*}}, 4] [2, 1]
// CHECK: scf.while
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32)
// CHECK: iterator_types = ["reduction", "parallel"]
func.func @rows(%a: !ndarray.ndarray<?x4xf32>) -> !ndarray.ndarray<4xf32> {
  %0 = ndarray.reduction sum %a axes [0] : !ndarray.ndarray<?x4xf32> -> !ndarray.ndarray<4xf32>
  return %0 : !ndarray.ndarray<4xf32>
}

// -----

// Along the innermost axis each block of 64 is read as one vector and its
// first three levels are shuffles of the even and the odd elements.
// CHECK-LABEL: func @innermost
// CHECK: scf.for
// CHECK: scf.for
// CHECK: tensor.extract
// CHECK: vector.insert
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, {{.*}}, 62] : vector<64xf64>, vector<64xf64>
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [1, 3, 5, {{.*}}, 63] : vector<64xf64>, vector<64xf64>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<32xf64>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<16xf64>
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf64>
// CHECK: tensor.insert
// CHECK: scf.while
func.func @innermost(%a: !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?xf64> {
  %0 = ndarray.reduction sum %a axes [1] : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?xf64>
  return %0 : !ndarray.ndarray<?xf64>
}

// -----

// The variance's second pass applies the squared deviation in its first
// loop; integer sums stay one sequential reduction (exact, or wrapping).
// CHECK-LABEL: func @moments_and_integers
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: arith.addi
// CHECK-NOT: scf.while
// CHECK: return
func.func @moments_and_integers(%a: !ndarray.ndarray<?x3xf64>, %i: !ndarray.ndarray<?xi64>) -> (!ndarray.ndarray<3xf64>, !ndarray.ndarray<i64>) {
  %0 = ndarray.reduction var %a axes [0] : !ndarray.ndarray<?x3xf64> -> !ndarray.ndarray<3xf64>
  %1 = ndarray.reduction sum %i : !ndarray.ndarray<?xi64> -> !ndarray.ndarray<i64>
  return %0, %1 : !ndarray.ndarray<3xf64>, !ndarray.ndarray<i64>
}

// -----

// An axis of static size 0 beside the reduced ones: no slice at a constant
// offset of it verifies (0 included), so the slices and inserts of the
// tree are empty tensors and no-ops; the result is the identity.
// CHECK-LABEL: func @static_empty_axis
// CHECK-NOT: tensor.extract_slice{{.*}}tensor<0x
// CHECK: return
func.func @static_empty_axis(%n: index, %v: f64) -> !ndarray.ndarray<1x1xf64> {
  %a = ndarray.create(%n) value %v : !ndarray.ndarray<0x?xf64>
  %r = ndarray.reduction prod %a axes [0, 1] keepdims : !ndarray.ndarray<0x?xf64> -> !ndarray.ndarray<1x1xf64>
  return %r : !ndarray.ndarray<1x1xf64>
}
