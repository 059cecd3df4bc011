// The distributed Jacobi step fuses into one loop nest, as the
// single-process one does: the shifted views' row counts fold to one value,
// so no run-time broadcast (an scf.if yielding a repeated tensor) separates
// its elementwise ops.
// RUN: imex-opt %S/../../examples/jacobi2d_dist.mlir --imex-dist-cpu-pipeline -mlir-print-ir-after=imex-fuse-elementwise -o /dev/null 2>&1 | FileCheck %s

// CHECK-LABEL: func.func @jacobi(
// CHECK: scf.for {{.*}} -> (tensor<?x?xf64>) {
// CHECK-NOT: -> (tensor<
// CHECK-NOT: linalg.generic
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>, tensor<?x?xf64>)
// CHECK-NOT: linalg.generic
// CHECK: scf.yield
