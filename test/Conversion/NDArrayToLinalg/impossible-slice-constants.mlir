// RUN: imex-opt %s --pass-pipeline='builtin.module(convert-ndarray-to-linalg,canonicalize)' | FileCheck %s

// Constant offsets, sizes and strides no valid slice has (negative, a
// stride below 1, ShapedType::kDynamic itself) are replaced by 0, 0 and 1:
// the op never runs with them (the bounds checks stop the program first),
// and upstream's folders of tensor slices crashed on them (found by
// imex-fuzz).
// CHECK-LABEL: func @impossible_constants
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[0] [%{{.*}}] [1]
// CHECK: return %[[S]], %{{.*}}, %{{.*}} :
func.func @impossible_constants(%a: !ndarray.ndarray<?xi64>, %v: !ndarray.ndarray<?xi64>, %n: index) -> (!ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>) {
  %m2 = arith.constant -2 : index
  %m1 = arith.constant -1 : index
  %min = arith.constant -9223372036854775808 : index
  %0 = ndarray.extract_slice %a[%m2] [%n] [%m2] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<?xi64>
  %1 = ndarray.extract_slice %a[%m1] [%m2] [%min] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<?xi64>
  %2 = ndarray.immutable_insert_slice %v into %a[%m2] [%m1] [%min] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
  return %0, %1, %2 : !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>
}
