// RUN: imex-opt %s -split-input-file -cse -canonicalize | FileCheck %s

// Ops producing fresh arrays are allocations: two identical ones stay two
// arrays (an in-place write into one must not show in the other).
// CHECK-LABEL: func @fresh_arrays_not_merged
// CHECK-COUNT-2: ndarray.ewbin add
func.func @fresh_arrays_not_merged(%a: !ndarray.ndarray<4xf64>) -> (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) {
  %0 = ndarray.ewbin add %a, %a : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  %1 = ndarray.ewbin add %a, %a : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  return %0, %1 : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>
}

// -----

// Views are pure: identical views are the same view.
// CHECK-LABEL: func @views_merged
// CHECK-COUNT-1: ndarray.subview
// CHECK-NOT: ndarray.subview
func.func @views_merged(%a: !ndarray.ndarray<8xf64>) -> (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) {
  %0 = ndarray.subview %a[2] [4] [1] : !ndarray.ndarray<8xf64> to !ndarray.ndarray<4xf64>
  %1 = ndarray.subview %a[2] [4] [1] : !ndarray.ndarray<8xf64> to !ndarray.ndarray<4xf64>
  return %0, %1 : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>
}

// -----

// A read before an in-place write and the same read after it are different
// values.
// CHECK-LABEL: func @no_merge_across_write
// CHECK: ndarray.ewuny sqrt
// CHECK: ndarray.insert_slice
// CHECK: ndarray.ewuny sqrt
func.func @no_merge_across_write(%a: !ndarray.ndarray<8xf64>, %v: !ndarray.ndarray<f64>) -> (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) {
  %0 = ndarray.ewuny sqrt %a : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  ndarray.insert_slice %v into %a[0] [8] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  %1 = ndarray.ewuny sqrt %a : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xf64>
  return %0, %1 : !ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>
}

// -----

// Unused computations are dead; in-place writes and deletes are not.
// CHECK-LABEL: func @dead_code
// CHECK-NOT: ndarray.ewbin
// CHECK: ndarray.insert_slice
// CHECK: ndarray.delete
func.func @dead_code(%a: !ndarray.ndarray<8xf64>, %v: !ndarray.ndarray<f64>) {
  %0 = ndarray.ewbin multiply %a, %a : (!ndarray.ndarray<8xf64>, !ndarray.ndarray<8xf64>) -> !ndarray.ndarray<8xf64>
  ndarray.insert_slice %v into %a[0] [8] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  ndarray.delete %a : !ndarray.ndarray<8xf64>
  return
}
