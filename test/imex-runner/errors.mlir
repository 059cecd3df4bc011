// RUN: not imex-runner %s -e missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not imex-runner %s -e main --pipeline=no-such-pass 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not imex-runner %s -e takes_args 2>&1 | FileCheck %s --check-prefix=SIGNATURE

// MISSING: imex-runner: entry function 'missing' not found
// PIPELINE: imex-runner: invalid --pipeline 'no-such-pass'
// SIGNATURE: JIT can't invoke a main function expecting arguments

func.func @main() {
  return
}

func.func @takes_args(%x: i64) {
  return
}
