// RUN: imex-opt %s -split-input-file -imex-complex-to-libm | FileCheck %s

// The transcendental functions call the C library's double functions
// (C99 Annex G special cases); complex<f32> goes through them.
// CHECK-DAG: func.func private @cexp(complex<f64>) -> complex<f64>
// CHECK-DAG: func.func private @csqrt(complex<f64>) -> complex<f64>
// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[X:.*]]: complex<f64>, %[[Y:.*]]: complex<f32>)
// CHECK: call @cexp(%[[X]]) : (complex<f64>) -> complex<f64>
// CHECK: call @clog(%[[X]])
// CHECK: call @ctanh(%[[X]])
// CHECK: %[[RE:.*]] = complex.re %[[Y]] : complex<f32>
// CHECK: arith.extf %[[RE]] : f32 to f64
// CHECK: %[[R:.*]] = call @csqrt(
// CHECK: complex.re %[[R]] : complex<f64>
// CHECK: arith.truncf {{.*}} : f64 to f32
// CHECK-NOT: complex.exp
// CHECK-NOT: complex.sqrt
func.func @calls(%x: complex<f64>, %y: complex<f32>) -> (complex<f64>, complex<f64>, complex<f64>, complex<f32>) {
  %0 = complex.exp %x : complex<f64>
  %1 = complex.log %x : complex<f64>
  %2 = complex.tanh %x : complex<f64>
  %3 = complex.sqrt %y : complex<f32>
  return %0, %1, %2, %3 : complex<f64>, complex<f64>, complex<f64>, complex<f32>
}

// -----

// expm1 and log1p keep their formulas where those hold (finite arguments,
// log1p away from -1) and take cexp(z) - 1 and clog(1 + z) elsewhere.
// CHECK-LABEL: func.func @guarded
// CHECK-SAME: (%[[X:.*]]: complex<f64>)
// CHECK: %[[E:.*]] = complex.expm1 %[[X]] : complex<f64>
// CHECK: %[[C:.*]] = call @cexp(%[[X]])
// CHECK: %[[F:.*]] = complex.sub %[[C]]
// CHECK: %[[ERE:.*]] = complex.re %[[E]]
// CHECK: %[[FRE:.*]] = complex.re %[[F]]
// CHECK: arith.select %{{.*}}, %[[ERE]], %[[FRE]] : f64
// CHECK: %[[L:.*]] = complex.log1p %[[X]] : complex<f64>
// CHECK: %[[SUM:.*]] = complex.add %[[X]]
// CHECK: call @clog(%[[SUM]])
// CHECK: return %{{.*}}, %{{.*}} : complex<f64>, complex<f64>
func.func @guarded(%x: complex<f64>) -> (complex<f64>, complex<f64>) {
  %0 = complex.expm1 %x : complex<f64>
  %1 = complex.log1p %x : complex<f64>
  return %0, %1 : complex<f64>, complex<f64>
}
