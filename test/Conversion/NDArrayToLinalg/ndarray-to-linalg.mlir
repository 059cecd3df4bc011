// RUN: imex-opt %s -split-input-file -convert-ndarray-to-linalg -verify-diagnostics | FileCheck %s

// Array arguments are memrefs read through to_tensor restrict; results are
// tensors.
// CHECK-LABEL: func @boundary
// CHECK-SAME: (%[[A:.*]]: memref<?x4xf32>) -> tensor<?x4xf32>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]] restrict : memref<?x4xf32> to tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[T]] : tensor<?x4xf32>)
// CHECK: math.sqrt
func.func @boundary(%a: !ndarray.ndarray<?x4xf32>) -> !ndarray.ndarray<?x4xf32> {
  %0 = ndarray.ewuny sqrt %a : !ndarray.ndarray<?x4xf32> -> !ndarray.ndarray<?x4xf32>
  return %0 : !ndarray.ndarray<?x4xf32>
}

// -----

// An argument updated in place is writable and its final version is
// written back.
// CHECK-LABEL: func @update_argument
// CHECK-SAME: (%[[A:.*]]: memref<8xf64>, %[[S:.*]]: f64)
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]] restrict writable
// CHECK: linalg.fill ins(%[[S]] : f64)
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: %[[V:.*]] = tensor.insert_slice %[[B]] into %[[T]][2] [3] [1]
// CHECK: bufferization.materialize_in_destination %[[V]] in writable %[[A]]
func.func @update_argument(%a: !ndarray.ndarray<8xf64>, %s: f64) {
  %v = ndarray.create value %s : !ndarray.ndarray<f64>
  ndarray.insert_slice %v into %a[2] [3] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<8xf64>
  return
}

// -----

// Sizes given by constant operands are static in the tensor ops: the source
// computed for them has a static type (without canonicalization first).
// CHECK-LABEL: func @insert_constant_operand_sizes
// CHECK: } -> tensor<2x3xf64>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 1] [2, 3] [1, 1] : tensor<2x3xf64> into tensor<4x5xf64>
// A static source of a slice with sizes known at run time only.
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf64> into tensor<4x5xf64>
func.func @insert_constant_operand_sizes(%a: !ndarray.ndarray<4x5xf64>, %v: !ndarray.ndarray<2x3xf64>, %s: f64, %n: index, %m: index) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f = ndarray.create value %s : !ndarray.ndarray<f64>
  ndarray.insert_slice %f into %a[%c1, %c1] [%c2, %c3] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<4x5xf64>
  ndarray.insert_slice %v into %a[0, %n] [%n, %m] [1, 1] : !ndarray.ndarray<2x3xf64> into !ndarray.ndarray<4x5xf64>
  return
}

// -----

// Broadcasting aligns trailing dimensions: static unit dimensions broadcast
// through constant indexing-map results.
// CHECK-DAG: #[[LHS:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[RHS:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[LHS]], #[[RHS]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK:   arith.extf
// CHECK:   arith.addf
func.func @broadcast(%a: !ndarray.ndarray<3x1xf64>, %b: !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64> {
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3x1xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<3x4xf64>
  return %0 : !ndarray.ndarray<3x4xf64>
}

// -----

// Dynamic sizes that could be 1 are repeated at run time, and incompatible
// sizes abort. The result size is 0 if either is 0, else max(a, b): not a
// select between the sizes (chains of those make bufferization's
// value-bounds analysis exponential), and `a` again when both are `a`.
// CHECK-LABEL: func @dynamic_broadcast
// CHECK: cf.assert {{.*}} "operands could not be broadcast together"
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[EMPTY:.*]] = arith.ori
// CHECK: %[[MAX:.*]] = arith.maxsi %[[A:.*]], %[[B:.*]] : index
// CHECK: arith.select %[[EMPTY]], %[[C0]], %[[MAX]] : index
// CHECK: scf.if
// CHECK: linalg.generic
func.func @dynamic_broadcast(%a: !ndarray.ndarray<?xf64>, %b: !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64> {
  %0 = ndarray.ewbin multiply %a, %b : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  return %0 : !ndarray.ndarray<?xf64>
}

// -----

// Reductions start from the identity of their operation, not from 0.
// CHECK-LABEL: func @reduce_max
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK: linalg.fill ins(%[[MIN]] : i32)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   arith.maxsi
func.func @reduce_max(%a: !ndarray.ndarray<3x4xi32>) -> !ndarray.ndarray<3xi32> {
  %0 = ndarray.reduction max %a axes [1] : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3xi32>
  return %0 : !ndarray.ndarray<3xi32>
}

// -----

// argmax carries the best value and its (flattened) index in one
// reduction; a NaN wins, ties go to the lower index.
// CHECK-LABEL: func @argmax
// CHECK-NOT: cf.assert
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NINF]] : f32)
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: linalg.fill ins(%[[ZERO]] : i64)
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK:   linalg.index 0
// CHECK:   linalg.index 1
// CHECK:   arith.cmpf ogt
// CHECK:   arith.cmpf uno
// CHECK:   arith.cmpi slt
// CHECK:   linalg.yield
// CHECK: tensor.expand_shape %[[R]]#1 [] output_shape [1, 1] : tensor<i64> into tensor<1x1xi64>
func.func @argmax(%a: !ndarray.ndarray<3x4xf32>) -> !ndarray.ndarray<1x1xi64> {
  %0 = ndarray.argreduce max %a keepdims : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<1x1xi64>
  return %0 : !ndarray.ndarray<1x1xi64>
}

// -----

// argmin along an axis of unsigned integers: unsigned compares, and a
// run-time check that the axis is not empty.
// CHECK-LABEL: func @argmin_unsigned
// CHECK: cf.assert {{.*}} "attempt to get argmin of an empty sequence"
// CHECK: %[[MAX:.*]] = arith.constant -1 : i16
// CHECK: linalg.fill ins(%[[MAX]] : i16)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:   arith.cmpi ult
// CHECK-NOT: arith.cmpf
// CHECK: linalg.yield
func.func @argmin_unsigned(%a: !ndarray.ndarray<3x?xui16>) -> !ndarray.ndarray<3xi64> {
  %0 = ndarray.argreduce min %a axis 1 : !ndarray.ndarray<3x?xui16> -> !ndarray.ndarray<3xi64>
  return %0 : !ndarray.ndarray<3xi64>
}

// -----

// take: every index checked (a reduction, then one assert), then a
// parallel loop reading the indexed element (negative from the end).
// CHECK-LABEL: func @take
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: cf.assert {{.*}} "take: an index is out of bounds for axis 1"
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:   %[[J:.*]] = linalg.index 1
// CHECK:   %[[K:.*]] = tensor.extract %{{.*}}[%[[J]]] : tensor<2xi32>
// CHECK:   arith.index_cast %[[K]]
// CHECK:   arith.select
// CHECK:   tensor.extract
func.func @take(%a: !ndarray.ndarray<3x?xf64>, %i: !ndarray.ndarray<2xi32>) -> !ndarray.ndarray<3x2xf64> {
  %0 = ndarray.take %a[%i] axis 1 : (!ndarray.ndarray<3x?xf64>, !ndarray.ndarray<2xi32>) -> !ndarray.ndarray<3x2xf64>
  return %0 : !ndarray.ndarray<3x2xf64>
}

// -----

// put: every index checked, then a loop over the indices in order (the last
// of repeated indices wins) inserting the slice of the values.
// CHECK-LABEL: func @put
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK: cf.assert {{.*}} "put: an index is out of bounds for axis 1"
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[D:.*]] = %{{.*}}) -> (tensor<3x?xf64>)
// CHECK:   %[[K:.*]] = tensor.extract %{{.*}}[%[[J]]] : tensor<2xi32>
// CHECK:   %[[I:.*]] = arith.select
// CHECK:   %[[S:.*]] = tensor.extract_slice %{{.*}}[0, %[[J]]] [3, 1] [1, 1] : tensor<3x2xf64> to tensor<3x1xf64>
// CHECK:   %[[U:.*]] = tensor.insert_slice %[[S]] into %[[D]][0, %[[I]]] [3, 1] [1, 1]
// CHECK:   scf.yield %[[U]]
func.func @put(%a: !ndarray.ndarray<3x?xf64>, %i: !ndarray.ndarray<2xi32>, %v: !ndarray.ndarray<3x2xf64>) -> !ndarray.ndarray<3x?xf64> {
  %0 = ndarray.put %v into %a[%i] axis 1 : (!ndarray.ndarray<3x2xf64>, !ndarray.ndarray<3x?xf64>, !ndarray.ndarray<2xi32>) -> !ndarray.ndarray<3x?xf64>
  return %0 : !ndarray.ndarray<3x?xf64>
}

// -----

// searchsorted: a binary search per value (NaNs ordered last).
// CHECK-LABEL: func @searchsorted
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK:   scf.while
// CHECK:     arith.cmpi ult
// CHECK:     scf.condition
// CHECK:     tensor.extract
// CHECK:     arith.cmpf olt
// CHECK:     arith.cmpf uno
// CHECK:   arith.index_cast {{.*}} : index to i64
func.func @searchsorted(%s: !ndarray.ndarray<?xf64>, %v: !ndarray.ndarray<5xf64>) -> !ndarray.ndarray<5xi64> {
  %0 = ndarray.searchsorted %s, %v : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<5xf64>) -> !ndarray.ndarray<5xi64>
  return %0 : !ndarray.ndarray<5xi64>
}

// -----

// flip: a parallel loop reading the mirrored element (n - 1 - i).
// CHECK-LABEL: func @flip
// CHECK: %[[N:.*]] = tensor.dim %[[A:.*]], %c1
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %c1
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:   %[[I:.*]] = linalg.index 0
// CHECK:   %[[J:.*]] = linalg.index 1
// CHECK:   %[[K:.*]] = arith.subi %[[LAST]], %[[J]]
// CHECK:   tensor.extract %[[A]][%[[I]], %[[K]]]
func.func @flip(%a: !ndarray.ndarray<3x?xf64>) -> !ndarray.ndarray<3x?xf64> {
  %0 = ndarray.flip %a [1] : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<3x?xf64>
  return %0 : !ndarray.ndarray<3x?xf64>
}

// -----

// Boolean indexing: the leading dimensions are flattened, the selected
// elements counted, then one loop appends the selected rows.
// CHECK-LABEL: func @masked_select
// CHECK: cf.assert {{.*}} "boolean index does not match the indexed array along dimension 1"
// CHECK: %[[A:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<3x?x4xf32> into tensor<?x4xf32>
// CHECK: %[[M:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x?xi1> into tensor<?xi1>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]
// CHECK:   arith.extui
// CHECK: %[[N:.*]] = arith.index_cast
// CHECK: %[[R:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[R]], %{{.*}} = %{{.*}}) -> (tensor<?x4xf32>, index)
// CHECK:   tensor.extract %[[M]]
// CHECK:   scf.if
// CHECK:     tensor.extract_slice %[[A]]
// CHECK:     tensor.insert_slice
func.func @masked_select(%a: !ndarray.ndarray<3x?x4xf32>, %m: !ndarray.ndarray<3x?xi1>) -> !ndarray.ndarray<?x4xf32> {
  %0 = ndarray.masked_select %a[%m] : !ndarray.ndarray<3x?x4xf32>, !ndarray.ndarray<3x?xi1> -> !ndarray.ndarray<?x4xf32>
  return %0 : !ndarray.ndarray<?x4xf32>
}

// -----

// CHECK-LABEL: func @reduce_prod_keepdims
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: linalg.fill ins(%[[ONE]] : i64)
// CHECK:   arith.extsi {{.*}} : i8 to i64
// CHECK:   arith.muli
// CHECK: tensor.expand_shape {{.*}} {{\[\[}}0, 1]] output_shape [1, 4] : tensor<4xi64> into tensor<1x4xi64>
func.func @reduce_prod_keepdims(%a: !ndarray.ndarray<3x4xi8>) -> !ndarray.ndarray<1x4xi64> {
  %0 = ndarray.reduction prod %a axes [0] keepdims : !ndarray.ndarray<3x4xi8> -> !ndarray.ndarray<1x4xi64>
  return %0 : !ndarray.ndarray<1x4xi64>
}

// -----

// Unsigned arrays are stored as signless tensors and use unsigned ops.
// CHECK-LABEL: func @unsigned
// CHECK-SAME: (%{{.*}}: memref<4xi32>, %{{.*}}: memref<4xi32>) -> tensor<4xi32>
// CHECK: arith.divui
func.func @unsigned(%a: !ndarray.ndarray<4xui32>, %b: !ndarray.ndarray<4xui32>) -> !ndarray.ndarray<4xui32> {
  %0 = ndarray.ewbin floor_divide %a, %b : (!ndarray.ndarray<4xui32>, !ndarray.ndarray<4xui32>) -> !ndarray.ndarray<4xui32>
  return %0 : !ndarray.ndarray<4xui32>
}

// -----

// CHECK-LABEL: func @views_and_shapes
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 4] [2, 1]
// CHECK: linalg.transpose {{.*}} permutation = [1, 0]
// CHECK: tensor.reshape
// CHECK: tensor.collapse_shape
func.func @views_and_shapes(%a: !ndarray.ndarray<6x4xf32>) -> (!ndarray.ndarray<4x2xf32>, !ndarray.ndarray<24xf32>, !ndarray.ndarray<4xf32>) {
  %0 = ndarray.subview %a[1, 0] [2, 4] [2, 1] : !ndarray.ndarray<6x4xf32> to !ndarray.ndarray<2x4xf32>
  %1 = ndarray.permute_dims %0 [1, 0] : !ndarray.ndarray<2x4xf32> -> !ndarray.ndarray<4x2xf32>
  %2 = ndarray.reshape %a : !ndarray.ndarray<6x4xf32> -> !ndarray.ndarray<24xf32>
  %3 = ndarray.subview %a[0, 0] [1, 4] [1, 1] : !ndarray.ndarray<6x4xf32> to !ndarray.ndarray<1x4xf32>
  %4 = ndarray.squeeze %3 [0] : !ndarray.ndarray<1x4xf32> -> !ndarray.ndarray<4xf32>
  return %1, %2, %4 : !ndarray.ndarray<4x2xf32>, !ndarray.ndarray<24xf32>, !ndarray.ndarray<4xf32>
}

// -----

// A reshape that splits one dimension, the others equal (static, or the
// sizes of the view it reshapes), with at most one dynamic size among the
// split ones, is an expand_shape (a view of any strided source); other
// reshapes are tensor.reshape (an identity layout: bufferization copies a
// strided source).
// CHECK-LABEL: func @split_one_dimension
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf64>, %[[N:.*]]: index, %[[K:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[V:.*]] = tensor.extract_slice %{{.*}}[0, %[[C]]] [%[[N]], %{{.*}}] [1, 1]
// CHECK: tensor.expand_shape %[[V]] {{\[}}[0], [1, 2]] output_shape [%[[N]], %[[K]], 64]
// CHECK: tensor.reshape
// CHECK: tensor.reshape
func.func @split_one_dimension(%a: !ndarray.ndarray<?x?xf64>, %n: index, %k: index, %c: index) -> (!ndarray.ndarray<?x?x64xf64>, !ndarray.ndarray<?x?x?xf64>, !ndarray.ndarray<?x?xf64>) {
  %c64 = arith.constant 64 : index
  %m = arith.muli %k, %c64 : index
  %v = ndarray.subview %a[0, %c] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %tiles = ndarray.reshape %v(%n, %k) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?x64xf64>
  %two = ndarray.reshape %v(%n, %k, %c64) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?x?xf64>
  %other = ndarray.reshape %v(%k, %n) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  return %tiles, %two, %other : !ndarray.ndarray<?x?x64xf64>, !ndarray.ndarray<?x?x?xf64>, !ndarray.ndarray<?x?xf64>
}

// -----

func.func private @callee(!ndarray.ndarray<4xf64>)

func.func @call_needs_inlining(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{passes arrays to 'callee', which must be inlined first}}
  func.call @callee(%a) : (!ndarray.ndarray<4xf64>) -> ()
  return
}

// -----

// A callee that may write into its array arguments must be inlined first
// (its in-place updates would not reach the caller's value semantics); one
// that only reads them is called.
func.func @updates(%a: !ndarray.ndarray<4xf64>) {
  %v = arith.constant 1.0 : f64
  %c = ndarray.create value %v : !ndarray.ndarray<f64>
  %w = ndarray.subview %a[1] [2] [1] : !ndarray.ndarray<4xf64> to !ndarray.ndarray<2xf64>
  ndarray.insert_slice %c into %w[0] [2] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<2xf64>
  return
}

func.func @call_updating(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{passes arrays to 'updates', which must be inlined first}}
  func.call @updates(%a) : (!ndarray.ndarray<4xf64>) -> ()
  return
}

// -----

func.func @reads(%a: !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64> {
  %b = ndarray.ewbin add %a, %a : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  return %b : !ndarray.ndarray<4xf64>
}

// CHECK-LABEL: func.func @call_reading
// CHECK-SAME: (%[[A:.*]]: memref<4xf64>)
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[A]]
// CHECK: %[[B:.*]] = bufferization.to_buffer %[[T]] read_only
// CHECK: call @reads(%[[B]])
func.func @call_reading(%a: !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64> {
  %b = func.call @reads(%a) : (!ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf64>
  return %b : !ndarray.ndarray<4xf64>
}

// -----

func.func @static_mismatch(%a: !ndarray.ndarray<3xf64>, %b: !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<?xf64> {
  %0 = ndarray.cast %a : !ndarray.ndarray<3xf64> to !ndarray.ndarray<?xf64>
  %1 = ndarray.cast %b : !ndarray.ndarray<4xf64> to !ndarray.ndarray<?xf64>
  // expected-error @+2 {{operands could not be broadcast together: shapes are not broadcast-compatible: size 3 vs 4}}
  // expected-error @+1 {{failed to legalize operation 'ndarray.ewbin'}}
  %2 = ndarray.ewbin add %0, %1 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  return %2 : !ndarray.ndarray<?xf64>
}

// -----

// tri: one loop over positions, 1 where j - i <= k.
// CHECK-LABEL: func @tri
// CHECK-SAME: (%[[K:.*]]: index, %[[N:.*]]: index)
// CHECK: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x4xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<?x4xf32>)
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[D:.*]] = arith.subi %[[J]], %[[I]]
// CHECK: %[[B:.*]] = arith.cmpi sle, %[[D]], %[[K]]
// CHECK: arith.select %[[B]], %{{.*}}, %{{.*}} : f32
func.func @tri(%k: index, %n: index) -> !ndarray.ndarray<?x4xf32> {
  %0 = ndarray.tri %k (%n) : !ndarray.ndarray<?x4xf32>
  return %0 : !ndarray.ndarray<?x4xf32>
}

// -----

// cumulative: a loop along the axis carrying the running row; each step is
// one elementwise op on a row, inserted into the result.
// CHECK-LABEL: func @cumulative
// CHECK: %[[ROW:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<4xi64>)
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[R:.*]] = %{{.*}}, %[[ACC:.*]] = %[[ROW]]) -> (tensor<3x4xi64>, tensor<4xi64>)
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[I]], 0] [1, 4] [1, 1] : tensor<3x4xi32> to tensor<4xi32>
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[ACC]] : tensor<4xi32>, tensor<4xi64>)
// CHECK: arith.extsi
// CHECK: arith.addi
// CHECK: %[[U:.*]] = tensor.insert_slice %[[N]] into %[[R]][%{{.*}}, 0] [1, 4] [1, 1]
// CHECK: scf.yield %[[U]], %[[N]]
func.func @cumulative(%a: !ndarray.ndarray<3x4xi32>) -> !ndarray.ndarray<3x4xi64> {
  %0 = ndarray.cumulative sum %a axis 0 : !ndarray.ndarray<3x4xi32> -> !ndarray.ndarray<3x4xi64>
  return %0 : !ndarray.ndarray<3x4xi64>
}

// -----

// Complex elements compute with the complex dialect: a real operand becomes
// complex (imaginary part 0), abs gives the component type, products start
// from complex 1.
// CHECK-LABEL: func @complex
// CHECK: ^bb0(%[[Z:.*]]: complex<f32>, %[[F:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK: %[[FZ:.*]] = complex.create %[[F]], %{{.*}} : complex<f32>
// CHECK-NEXT: complex.mul %[[Z]], %[[FZ]] : complex<f32>
// CHECK: complex.abs %{{.*}} : complex<f32>
// CHECK-NEXT: linalg.yield %{{.*}} : f32
// CHECK: complex.constant [1.000000e+00 : f32, 0.000000e+00 : f32] : complex<f32>
// CHECK: complex.mul %{{.*}}, %{{.*}} : complex<f32>
// CHECK: linalg.fill ins(%{{.*}} : complex<f32>)
func.func @complex(%a: !ndarray.ndarray<?xcomplex<f32>>, %f: !ndarray.ndarray<?xf32>) -> (!ndarray.ndarray<?xcomplex<f32>>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<complex<f32>>) {
  %0 = ndarray.ewbin multiply %a, %f : (!ndarray.ndarray<?xcomplex<f32>>, !ndarray.ndarray<?xf32>) -> !ndarray.ndarray<?xcomplex<f32>>
  %1 = ndarray.ewuny abs %a : !ndarray.ndarray<?xcomplex<f32>> -> !ndarray.ndarray<?xf32>
  %2 = ndarray.reduction prod %a : !ndarray.ndarray<?xcomplex<f32>> -> !ndarray.ndarray<complex<f32>>
  return %0, %1, %2 : !ndarray.ndarray<?xcomplex<f32>>, !ndarray.ndarray<?xf32>, !ndarray.ndarray<complex<f32>>
}

// -----

// Halos exchanged into the ghost cells of an argument (dist.ghost: spare
// rows of the caller) write its buffer: it is read through a writable
// to_tensor, so that bufferization writes them in place instead of copying
// the argument.
// CHECK-LABEL: func @ghost_written_argument
// CHECK: bufferization.to_tensor %{{.*}} restrict writable
func.func @ghost_written_argument(%a: !ndarray.ndarray<?x4xf64>, %h: !ndarray.ndarray<1x4xf64>) -> !ndarray.ndarray<f64> {
  %0 = ndarray.immutable_insert_slice %h into %a[0, 0] [1, 4] [1, 1] {ndarray.ghost_write} : !ndarray.ndarray<1x4xf64> into !ndarray.ndarray<?x4xf64>
  %1 = ndarray.reduction sum %0 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<f64>
  return %1 : !ndarray.ndarray<f64>
}

// -----

// nextafter steps the bit pattern; complex acos calls the C library's
// double function (declared here), complex<f32> through it.
// CHECK-DAG: func.func private @cacos(complex<f64>) -> complex<f64>
// CHECK-LABEL: func @next_and_complex_acos
// CHECK: linalg.generic
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.addi
// CHECK: arith.subi
// CHECK: math.copysign
// CHECK: linalg.generic
// CHECK: arith.extf
// CHECK: call @cacos(%{{.*}}) : (complex<f64>) -> complex<f64>
// CHECK: arith.truncf
func.func @next_and_complex_acos(%a: !ndarray.ndarray<4xf32>, %z: !ndarray.ndarray<4xcomplex<f32>>) -> (!ndarray.ndarray<4xf32>, !ndarray.ndarray<4xcomplex<f32>>) {
  %0 = ndarray.ewbin nextafter %a, %a : (!ndarray.ndarray<4xf32>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<4xf32>
  %1 = ndarray.ewuny acos %z : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  return %0, %1 : !ndarray.ndarray<4xf32>, !ndarray.ndarray<4xcomplex<f32>>
}

// -----

// An integer index among several unit axes: the whole slice, then exactly
// the indexed axis collapsed away (a rank-reducing extract_slice would be
// read as dropping the first unit axis).
// CHECK-LABEL: func @drop_a_middle_unit_axis
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}} [1, 5, 1, 2, 1] [1, 1, 1, 1, 1] : tensor<1x5x1x2x1xi16> to tensor<1x5x1x2x1xi16>
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0], [1], [2, 3], [4]] : tensor<1x5x1x2x1xi16> into tensor<1x5x2x1xi16>
func.func @drop_a_middle_unit_axis(%a: !ndarray.ndarray<1x5x1x2x1xi16>) -> !ndarray.ndarray<1x5x2x1xi16> {
  %c0 = arith.constant 0 : index
  %0 = ndarray.subview %a[%c0, %c0, %c0, %c0, %c0] [1, 5, 1, 2, 1] [1, 1, 1, 1, 1] : !ndarray.ndarray<1x5x1x2x1xi16> to !ndarray.ndarray<1x5x2x1xi16>
  return %0 : !ndarray.ndarray<1x5x2x1xi16>
}

// -----

// Also where the first unit axis is the one dropped: after bufferization a
// rank-reducing memref.subview would have to tell the two unit axes apart by
// their strides, equal here.
// CHECK-LABEL: func @drop_one_of_two_unit_axes
// CHECK: %[[S:.*]] = tensor.extract_slice %{{.*}} [%{{.*}}, 1, 1] [2, 1, 1] : tensor<?x1x1xi8> to tensor<?x1x1xi8>
// CHECK: tensor.collapse_shape %[[S]] {{\[}}[0], [1, 2]] : tensor<?x1x1xi8> into tensor<?x1xi8>
func.func @drop_one_of_two_unit_axes(%a: !ndarray.ndarray<?x1x1xi8>, %n: index) -> !ndarray.ndarray<?x1xi8> {
  %c0 = arith.constant 0 : index
  %0 = ndarray.subview %a[%c0, %c0, %c0] [%n, 1, 1] [2, 1, 1] : !ndarray.ndarray<?x1x1xi8> to !ndarray.ndarray<?x1xi8>
  return %0 : !ndarray.ndarray<?x1xi8>
}

// -----

// A choice between two arrays (canonicalization makes one of an scf.if that
// yields either) chooses between their tensors.
// CHECK-LABEL: func.func @select_arrays
// CHECK-SAME: (%[[C:.*]]: i1, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>)
// CHECK: %[[A:.*]] = bufferization.to_tensor
// CHECK: %[[B:.*]] = bufferization.to_tensor
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[A]], %[[B]] : tensor<?xf32>
// CHECK: return %[[S]]
func.func @select_arrays(%c: i1, %a: !ndarray.ndarray<?xf32>, %b: !ndarray.ndarray<?xf32>) -> !ndarray.ndarray<?xf32> {
  %s = arith.select %c, %a, %b : !ndarray.ndarray<?xf32>
  return %s : !ndarray.ndarray<?xf32>
}
