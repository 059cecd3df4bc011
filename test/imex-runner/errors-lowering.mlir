// RUN: not imex-runner %s 2>&1 | FileCheck %s

// CHECK: error: 'func.call' op passes arrays to 'callee', which must be inlined first
// CHECK: imex-runner: lowering with 'imex-cpu-pipeline' failed

func.func private @callee(!ndarray.ndarray<4xf64>) attributes {no_inline}

func.func @main() {
  %a = ndarray.create : !ndarray.ndarray<4xf64>
  func.call @callee(%a) : (!ndarray.ndarray<4xf64>) -> ()
  return
}
