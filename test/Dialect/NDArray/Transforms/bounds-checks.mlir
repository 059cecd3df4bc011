// RUN: imex-opt %s -split-input-file -ndarray-bounds-checks | FileCheck %s

// A load with a dynamic index is checked against the size of each
// dimension; the report gets the location and op name as a constant string.
// CHECK-DAG: memref.global "private" constant @__imex_bounds_message{{.*}} : memref<{{[0-9]+}}xi8> = dense<
// CHECK-DAG: func.func private @imexIndexOutOfBounds(index, index, index, index)
// CHECK-LABEL: func @load
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<?x4xf64>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[N:.*]] = ndarray.dim %[[A]], %{{.*}}
// CHECK: %[[GE:.*]] = arith.cmpi sge, %[[I]], %{{.*}}
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %[[N]]
// CHECK: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]]
// CHECK: %[[BAD:.*]] = arith.xori %[[OK]], %{{.*}}
// CHECK: scf.if %[[BAD]] {
// CHECK:   func.call @imexIndexOutOfBounds(%{{.*}}, %{{.*}}, %[[I]], %[[N]])
// CHECK: }
// CHECK: arith.cmpi slt, %[[J]], %{{.*}}
// CHECK: func.call @imexIndexOutOfBounds
// CHECK: ndarray.load %[[A]][%[[I]], %[[J]]]
func.func @load(%a: !ndarray.ndarray<?x4xf64>, %i: index, %j: index) -> f64 {
  %0 = ndarray.load %a[%i, %j] : !ndarray.ndarray<?x4xf64>
  return %0 : f64
}

// -----

// Slices: offset, size and stride checked per dimension; static dimensions
// (static offset, size, stride and array size) get no check.
// CHECK-DAG: func.func private @imexSliceOutOfBounds(index, index, index, index, index, index)
// CHECK-LABEL: func @slices
// CHECK-COUNT-5: func.call @imexSliceOutOfBounds
// CHECK-NOT: func.call
// CHECK: return
func.func @slices(%a: !ndarray.ndarray<?x8xf64>, %v: !ndarray.ndarray<2x2xf64>, %o: index, %n: index) -> (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x?xf64>) {
  // dimension 0 (dynamic size) and dimension 1 (dynamic offset)
  %0 = ndarray.subview %a[1, %o] [%n, 2] [1, 1] : !ndarray.ndarray<?x8xf64> to !ndarray.ndarray<?x2xf64>
  // both dimensions (the size of dimension 1 is dynamic)
  %1 = ndarray.extract_slice %a[%o, 0] [%n, %n] [1, 4] : !ndarray.ndarray<?x8xf64> to !ndarray.ndarray<?x?xf64>
  // dimension 0 only
  ndarray.insert_slice %v into %a[%o, 0] [2, 2] [1, 1] : !ndarray.ndarray<2x2xf64> into !ndarray.ndarray<?x8xf64>
  return %0, %1 : !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x?xf64>
}

// -----

// Fully static slices and indices are verified at compile time.
// CHECK-LABEL: func @static
// CHECK-NOT: scf.if
// CHECK-NOT: func.call
func.func @static(%a: !ndarray.ndarray<4x8xf64>) -> (!ndarray.ndarray<2x2xf64>, f64) {
  %c1 = arith.constant 1 : index
  %0 = ndarray.subview %a[1, 2] [2, 2] [1, 3] : !ndarray.ndarray<4x8xf64> to !ndarray.ndarray<2x2xf64>
  %1 = ndarray.load %a[%c1, %c1] : !ndarray.ndarray<4x8xf64>
  return %0, %1 : !ndarray.ndarray<2x2xf64>, f64
}
