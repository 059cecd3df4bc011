// The README's example stays valid, and canonicalization makes the fixed-size
// stencil step fully static, with no casts left.
// RUN: imex-opt -canonicalize %S/../../examples/jacobi2d.mlir | FileCheck %s
// Each example converts in one step (the README's single-pass command),
// without canonicalization first.
// RUN: imex-opt -convert-ndarray-to-linalg %S/../../examples/jacobi2d.mlir -o /dev/null
// RUN: imex-opt -convert-ndarray-to-linalg %S/../../examples/wave1d.mlir -o /dev/null
// RUN: imex-opt -convert-ndarray-to-linalg %S/../../examples/jacobi2d_dist.mlir -o /dev/null 2>/dev/null

// CHECK-LABEL: func.func @jacobi(
// CHECK: scf.for
// CHECK-COUNT-4: ndarray.subview %{{.*}} : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
// CHECK: ndarray.insert_slice
// CHECK: ndarray.reduction sum

// CHECK-LABEL: func.func @jacobi_step_16(
// CHECK-COUNT-4: ndarray.subview %{{.*}} : !ndarray.ndarray<16x16xf64> to !ndarray.ndarray<14x14xf64>
// CHECK-COUNT-3: ndarray.ewbin add {{.*}} -> !ndarray.ndarray<14x14xf64>
// CHECK: %[[NEW:.*]] = ndarray.ewbin multiply {{.*}} -> !ndarray.ndarray<14x14xf64>
// CHECK-NOT: ndarray.cast
// CHECK: ndarray.insert_slice %[[NEW]] into %{{.*}}[1, 1] [14, 14] [1, 1] : !ndarray.ndarray<14x14xf64> into !ndarray.ndarray<16x16xf64>
