// RUN: imex-opt %s -imex-expand-divisions -split-input-file | FileCheck %s --implicit-check-not=arith.ceildiv --implicit-check-not=arith.floordiv

// Ceil and floor divisions, which convert-arith-to-llvm cannot lower, are
// expanded into divisions, comparisons and selects.
// CHECK-LABEL: func.func @divisions
// CHECK-DAG: arith.divsi
// CHECK-DAG: arith.divui
// CHECK-DAG: arith.select
// CHECK: return
func.func @divisions(%a: index, %b: index, %c: i32, %d: i32) -> (index, index, i32) {
  %0 = arith.ceildivsi %a, %b : index
  %1 = arith.floordivsi %a, %b : index
  %2 = arith.ceildivui %c, %d : i32
  return %0, %1, %2 : index, index, i32
}

// -----

// Minimum and maximum stay (each is one LLVM intrinsic), unlike in
// arith-expand.
// CHECK-LABEL: func.func @min_max
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: arith.maxui
// CHECK: arith.minimumf
// CHECK: arith.maxnumf
// CHECK-NOT: arith.select
func.func @min_max(%a: index, %b: index, %x: f64, %y: f64) -> (index, index, index, f64, f64) {
  %0 = arith.minsi %a, %b : index
  %1 = arith.maxsi %a, %b : index
  %2 = arith.maxui %a, %b : index
  %3 = arith.minimumf %x, %y : f64
  %4 = arith.maxnumf %x, %y : f64
  return %0, %1, %2, %3, %4 : index, index, index, f64, f64
}
