// Run-time bounds checks of distributed arrays are against the global
// sizes, on every rank (each names its rank), and the job ends with a
// non-zero exit on any rank count, also when ranks own no rows.
//
// REQUIRES: idtr
// RUN: not %mpiexec -n 1 imex-runner %s --pipeline=imex-dist-cpu-pipeline 2>%t.np1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=NP1 < %t.np1
// RUN: not %mpiexec -n 2 imex-runner %s --pipeline=imex-dist-cpu-pipeline 2>%t.np2 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=NPN < %t.np2
// RUN: not %mpiexec -n 3 imex-runner %s --pipeline=imex-dist-cpu-pipeline 2>%t.np3 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=NPN < %t.np3
// RUN: not %mpiexec -n 4 imex-runner %s --pipeline=imex-dist-cpu-pipeline 2>%t.np4 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=NPN < %t.np4

// The in-bounds part runs first: the sum of a[1:3] of [0, 1, 2] (stdout;
// mpirun forwards stdout and stderr in no particular order).
// OUT: 3
// NP1: bounds-checks-mpi.mlir:[[# @LINE + 14]]:10: error: ndarray.subview: slice with offset 1, size 3 and stride 1 (last index 3) is out of bounds for dimension 0 of size 3 (rank 0 of 1)
// NPN: bounds-checks-mpi.mlir:[[# @LINE + 13]]:10: error: ndarray.subview: slice with offset 1, size 3 and stride 1 (last index 3) is out of bounds for dimension 0 of size 3 (rank {{[0-3]}} of {{[1-4]}})
func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f0 = arith.constant 0.0 : f64
  %f2 = arith.constant 2.0 : f64
  %n = func.call @runtime_index(%c3) : (index) -> index
  %a = ndarray.linspace %f0, %f2, %n endpoint {dist.team = 1 : i64} : f64 -> !ndarray.ndarray<?xf64>
  %ok = ndarray.subview %a[%c1] [%c2] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %s = ndarray.reduction sum %ok : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  vector.print %x : f64
  %bad = ndarray.subview %a[%c1] [%n] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %t = ndarray.reduction sum %bad : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %y = ndarray.load %t[] : !ndarray.ndarray<f64>
  vector.print %y : f64
  return
}

func.func private @runtime_index(%i: index) -> index attributes {no_inline} {
  return %i : index
}
