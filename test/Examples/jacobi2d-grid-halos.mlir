// The Jacobi step on a 2x2-style grid of ranks receives its four halo faces
// in one exchange (one fetch_boxes call and one wait per step and copy of
// the double-buffered loop body) and writes them into the ghost cells
// without run-time broadcast checks: the faces' sizes are the boxes' sizes
// (the views of the receive buffer are seen through the array casts).
// RUN: imex-opt %S/../../examples/jacobi2d_grid.mlir --imex-dist-cpu-pipeline -mlir-print-ir-after=convert-ndarray-to-linalg -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @main(
// CHECK: scf.for
// CHECK: %[[H:.*]] = func.call @_imex_idtr_fetch_boxes_f64_{{[^(]*}}(
// CHECK-NOT: could not be broadcast
// CHECK-NOT: _idtr_repartition
// CHECK: func.call @_imex_idtr_wait_{{[^(]*}}(%[[H]],
// CHECK-NOT: could not be broadcast
// CHECK: scf.yield
