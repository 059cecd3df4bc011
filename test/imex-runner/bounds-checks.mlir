// Run-time bounds checks (ndarray-bounds-checks, on by default): an
// out-of-bounds index or slice whose bounds are only known at run time
// stops the program with exit code 1 and a message naming the op's source
// location, the dimension, the index or slice and the size.
//
// RUN: not imex-runner %s -e load 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not imex-runner %s -e view 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: not imex-runner %s -e insert 2>&1 | FileCheck %s --check-prefix=INSERT
// RUN: not imex-runner %s -e stride 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: imex-runner %s -e in_bounds | FileCheck %s --check-prefix=OK
// RUN: imex-runner %s -e in_bounds --pipeline='imex-cpu-pipeline{bounds-checks=0}' | FileCheck %s --check-prefix=OK

// LOAD: bounds-checks.mlir:[[# @LINE + 8]]:8: error: ndarray.load: index 9 is out of bounds for dimension 0 of size 8{{$}}
// LOAD-NOT: {{[0-9]}}
func.func @load() {
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %one = arith.constant 1.0 : f64
  %n = func.call @runtime_index(%c8) : (index) -> index
  %a = ndarray.create(%n) value %one : !ndarray.ndarray<?xf64>
  %x = ndarray.load %a[%c9] : !ndarray.ndarray<?xf64>
  vector.print %x : f64
  return
}

// VIEW: bounds-checks.mlir:[[# @LINE + 7]]:8: error: ndarray.subview: slice with offset 3, size 9 and stride 1 (last index 11) is out of bounds for dimension 1 of size 8{{$}}
func.func @view() {
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %one = arith.constant 1.0 : f64
  %k = func.call @runtime_index(%c9) : (index) -> index
  %a = ndarray.create(%c8) value %one : !ndarray.ndarray<4x?xf64>
  %v = ndarray.subview %a[0, 3] [4, %k] [1, 1] : !ndarray.ndarray<4x?xf64> to !ndarray.ndarray<4x?xf64>
  %s = ndarray.reduction sum %v : !ndarray.ndarray<4x?xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  vector.print %x : f64
  return
}

// INSERT: bounds-checks.mlir:[[# @LINE + 7]]:3: error: ndarray.insert_slice: slice with offset 7, size 2 and stride 1 (last index 8) is out of bounds for dimension 0 of size 8{{$}}
func.func @insert() {
  %c7 = arith.constant 7 : index
  %one = arith.constant 1.0 : f64
  %o = func.call @runtime_index(%c7) : (index) -> index
  %a = ndarray.create value %one : !ndarray.ndarray<8xf64>
  %b = ndarray.create value %one : !ndarray.ndarray<2xf64>
  ndarray.insert_slice %b into %a[%o] [2] [1] : !ndarray.ndarray<2xf64> into !ndarray.ndarray<8xf64>
  %s = ndarray.reduction sum %a : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  vector.print %x : f64
  return
}

// STRIDE: bounds-checks.mlir:[[# @LINE + 6]]:8: error: ndarray.extract_slice: slice with offset 0, size 2 and stride 0 is out of bounds for dimension 0 of size 8{{$}}
func.func @stride() {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %z = func.call @runtime_index(%c0) : (index) -> index
  %a = ndarray.create value %one : !ndarray.ndarray<8xf64>
  %v = ndarray.extract_slice %a[0] [2] [%z] : !ndarray.ndarray<8xf64> to !ndarray.ndarray<2xf64>
  %s = ndarray.reduction sum %v : !ndarray.ndarray<2xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  vector.print %x : f64
  return
}

// Empty slices may start at the end of a dimension (numpy's a[n:]); the
// last element is in bounds.
// OK: 0
// OK-NEXT: 7
func.func @in_bounds() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f0 = arith.constant 0.0 : f64
  %f7 = arith.constant 7.0 : f64
  %n = func.call @runtime_index(%c8) : (index) -> index
  %a = ndarray.linspace %f0, %f7, %n endpoint : f64 -> !ndarray.ndarray<?xf64>
  %empty = ndarray.subview %a[%n] [%c0] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  %s = ndarray.reduction sum %empty : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %x = ndarray.load %s[] : !ndarray.ndarray<f64>
  vector.print %x : f64
  %last = arith.subi %n, %c1 : index
  %y = ndarray.load %a[%last] : !ndarray.ndarray<?xf64>
  vector.print %y : f64
  return
}

// An index the compiler cannot see through.
func.func private @runtime_index(%i: index) -> index attributes {no_inline} {
  return %i : index
}
