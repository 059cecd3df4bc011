// RUN: not imex-runner %s -e missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not imex-runner %s -e main --pipeline=no-such-pass 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not imex-runner %s -e main --pipeline='builtin.module(canonicalize)' 2>&1 | FileCheck %s --check-prefix=INCOMPLETE
// RUN: not imex-runner %s -e takes_args 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// RUN: not imex-runner %s -e main --shared-libs=%t.no-such-lib.so 2>&1 | FileCheck %s --check-prefix=LIBRARY
// RUN: not imex-runner %s -e main --entry-point-result=i32 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not imex-runner %s -e main --entry-point-result=f16 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: imex-runner %s -e seven --entry-point-result=i32 | FileCheck %s --check-prefix=I32
// RUN: imex-runner %s -e big --entry-point-result=i64 | FileCheck %s --check-prefix=I64
// RUN: imex-runner %s -e half --entry-point-result=f32 | FileCheck %s --check-prefix=F32
// RUN: imex-runner %s -e third --entry-point-result=f64 | FileCheck %s --check-prefix=F64

// MISSING: imex-runner: entry function 'missing' not found
// PIPELINE: imex-runner: invalid --pipeline 'no-such-pass'
// INCOMPLETE: imex-runner: compilation failed: {{.*}}--pipeline 'builtin.module(canonicalize)'
// SIGNATURE: JIT can't invoke a main function expecting arguments
// LIBRARY: imex-runner: cannot load shared library '{{.*}}no-such-lib.so'
// RESULT: imex-runner: entry function 'main' does not return i32
// UNKNOWN: imex-runner: unknown --entry-point-result 'f16'
// I32: {{^}}7{{$}}
// I64: {{^}}8589934592{{$}}
// F32: {{^}}5.000000e-01{{$}}
// F64: {{^}}0.33333333333333331{{$}}

func.func @main() {
  return
}

func.func @takes_args(%x: i64) {
  return
}

func.func @seven() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}

func.func @big() -> i64 {
  %c = arith.constant 8589934592 : i64
  return %c : i64
}

func.func @half() -> f32 {
  %c = arith.constant 0.5 : f32
  return %c : f32
}

func.func @third() -> f64 {
  %c = arith.constant 0.33333333333333331 : f64
  return %c : f64
}
