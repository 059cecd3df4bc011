// RUN: imex-opt %s -split-input-file -imex-math-to-libm | FileCheck %s
// RUN: imex-opt %s -split-input-file -imex-math-to-libm=vector-math=0 | FileCheck %s --check-prefix=SCALAR

// Transcendental functions become libm calls; what LLVM lowers well (sqrt,
// floor, absf, fma) stays for convert-math-to-llvm.
// CHECK-DAG: func.func private @exp(f64) -> f64 attributes {llvm.readnone}
// CHECK-DAG: func.func private @powf(f32, f32) -> f32 attributes {llvm.readnone}
// CHECK-LABEL: func.func @transcendental
// CHECK-SAME: (%[[X:.*]]: f64, %[[Y:.*]]: f32)
// CHECK: call @exp(%[[X]]) : (f64) -> f64
// CHECK: call @expm1(%[[X]])
// CHECK: call @log1p(%[[X]])
// CHECK: call @erf(%[[X]])
// CHECK: call @tanhf(%[[Y]]) : (f32) -> f32
// CHECK: call @atan2(%[[X]], %[[X]]) : (f64, f64) -> f64
// CHECK: call @powf(%[[Y]], %[[Y]]) : (f32, f32) -> f32
// CHECK: math.sqrt %[[X]]
// CHECK: math.floor %[[X]]
// CHECK: math.absf %[[Y]]
// With vector-math=0, LLVM must keep the calls (declared nobuiltin).
// SCALAR: func.func private @powf(f32, f32) -> f32 attributes {llvm.readnone, passthrough = ["nobuiltin"]}
// SCALAR: func.func private @exp(f64) -> f64 attributes {llvm.readnone, passthrough = ["nobuiltin"]}
// SCALAR-LABEL: func.func @transcendental
func.func @transcendental(%x: f64, %y: f32) -> (f64, f64, f64, f64, f32, f64, f32, f64, f64, f32) {
  %0 = math.exp %x : f64
  %1 = math.expm1 %x : f64
  %2 = math.log1p %x : f64
  %3 = math.erf %x : f64
  %4 = math.tanh %y : f32
  %5 = math.atan2 %x, %x : f64
  %6 = math.powf %y, %y : f32
  %7 = math.sqrt %x : f64
  %8 = math.floor %x : f64
  %9 = math.absf %y : f32
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : f64, f64, f64, f64, f32, f64, f32, f64, f64, f32
}

// -----

// Types libm has no functions for are left to other passes (the pipeline
// extends f16 to f32 before).
// CHECK-LABEL: func.func @other_types
// CHECK: math.exp %{{.*}} : f16
// CHECK-NEXT: return
func.func @other_types(%x: f16) -> f16 {
  %0 = math.exp %x : f16
  return %0 : f16
}

// -----

// A declaration the module had before is the user's: it is not marked.
// SCALAR: func.func private @sin(f64) -> f64{{$}}
// SCALAR-LABEL: func.func @user_declaration
// SCALAR: call @sin
// SCALAR: call @sin
func.func private @sin(f64) -> f64
func.func @user_declaration(%x: f64) -> (f64, f64) {
  %0 = func.call @sin(%x) : (f64) -> f64
  %1 = math.sin %x : f64
  return %0, %1 : f64, f64
}
