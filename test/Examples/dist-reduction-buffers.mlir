// Float sums of distributed arguments (kernels as the Python frontend emits
// them) read the block where it stands: rows: the pairwise tree's blocks of
// 64 read the argument (only the partial block at the end of a row gets a
// buffer of its own, which the tree's loop writes); grids: the tiles along
// the split axis are a view of the block (expand_shape), not a copy of it
// (a general reshape needs an identity layout).
// RUN: imex-opt %s -split-input-file --imex-dist-cpu-pipeline -mlir-print-ir-before=convert-linalg-to-loops -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @sum_rows(
// CHECK-NOT: copy
// CHECK: scf.for {{.*}} -> (vector<64xf64>)
func.func @sum_rows(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>}, %a2: !ndarray.ndarray<f64>) {
  %1 = ndarray.reduction sum %a1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  ndarray.insert_slice %1 into %a2[] [] [] : !ndarray.ndarray<f64> into !ndarray.ndarray<f64>
  return
}

// -----

// CHECK-LABEL: func.func @sum_grid(
// CHECK-NOT: memref.reshape
// CHECK: %[[TILES:.*]] = memref.expand_shape %{{.*}} {{\[}}[0], [1, 2]]
// CHECK: scf.for {{.*}} -> (vector<64xf64>)
// CHECK: memref.load %[[TILES]]
func.func @sum_grid(%a0: index, %a1: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0, 0>, dist.ghost = array<i64: 2, 2>, dist.split = array<i64: 0, 1>}, %a2: !ndarray.ndarray<f64>) {
  %1 = ndarray.reduction sum %a1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  ndarray.insert_slice %1 into %a2[] [] [] : !ndarray.ndarray<f64> into !ndarray.ndarray<f64>
  return
}
