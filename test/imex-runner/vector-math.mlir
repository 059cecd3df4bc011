// Loops calling libm functions call their vector variants from glibc's
// libmvec (at the widest width the host has); vector-math=0 keeps the
// scalar calls. Both compute sum(exp(erf(x))) over 1001 points of [-3, 3]
// (pairwise: 1396.7072488725919 is numpy's sum and the correctly rounded one,
// math.fsum, of the same values).
// REQUIRES: libmvec
// RUN: imex-runner %s --no-cache --entry-point-result=f64 -print-after=loop-vectorize -filter-print-funcs=main 2>&1 | FileCheck %s
// RUN: imex-runner %s --no-cache --entry-point-result=f64 --pipeline="imex-cpu-pipeline{vector-math=0}" -print-after=loop-vectorize -filter-print-funcs=main 2>&1 | FileCheck %s --check-prefix=SCALAR

// CHECK: call <[[N:[0-9]+]] x double> @_ZGV{{[bde]}}N[[N]]v_erf(<[[N]] x double>
// CHECK: call <[[N]] x double> @_ZGV{{[bde]}}N[[N]]v_exp(<[[N]] x double>
// CHECK: 1396.70724887259

// SCALAR-NOT: _ZGV
// SCALAR: call double @erf(
// SCALAR: call double @exp(
// SCALAR-NOT: _ZGV
// SCALAR: 1396.7072488725919
func.func @main() -> f64 {
  %lo = arith.constant -3.0 : f64
  %hi = arith.constant 3.0 : f64
  %n = arith.constant 1001 : index
  %x = ndarray.linspace %lo, %hi, %n endpoint : f64 -> !ndarray.ndarray<?xf64>
  %y = ndarray.ewuny erf %x : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %e = ndarray.ewuny exp %y : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %s = ndarray.reduction sum %e : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %r = ndarray.load %s[] : !ndarray.ndarray<f64>
  return %r : f64
}
