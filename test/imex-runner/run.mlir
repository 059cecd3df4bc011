// RUN: imex-runner %s | FileCheck %s
// RUN: imex-runner %s -e other | FileCheck %s --check-prefix=OTHER
// RUN: imex-runner %s --print-lowered-ir 2>&1 >/dev/null | FileCheck %s --check-prefix=LOWERED

func.func private @imexPrintI64(tensor<*xi64> {bufferization.access = "read"})

// CHECK: IMEX_ARRAY i64 [4] 0 2 4 6
func.func @main() {
  %c0 = arith.constant 0 : i64
  %c6 = arith.constant 6 : i64
  %n = arith.constant 4 : index
  %a = ndarray.linspace %c0, %c6, %n endpoint : i64 -> !ndarray.ndarray<?xi64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?xi64> -> tensor<?xi64>
  %u = tensor.cast %t : tensor<?xi64> to tensor<*xi64>
  func.call @imexPrintI64(%u) : (tensor<*xi64>) -> ()
  return
}

// OTHER: IMEX_ARRAY i64 [] 42
func.func @other() {
  %v = arith.constant 42 : i64
  %a = ndarray.create value %v : !ndarray.ndarray<i64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<i64> -> tensor<i64>
  %u = tensor.cast %t : tensor<i64> to tensor<*xi64>
  func.call @imexPrintI64(%u) : (tensor<*xi64>) -> ()
  return
}

// LOWERED: llvm.func @main()
