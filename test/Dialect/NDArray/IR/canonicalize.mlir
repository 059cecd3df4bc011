// RUN: imex-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: func @dim_static
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: return %[[C4]]
func.func @dim_static(%a: !ndarray.ndarray<?x4xf64>) -> index {
  %c1 = arith.constant 1 : index
  %0 = ndarray.dim %a, %c1 : !ndarray.ndarray<?x4xf64>
  return %0 : index
}

// -----

// CHECK-LABEL: func @dim_of_create
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK-NOT: ndarray.dim
// CHECK: return %[[M]]
func.func @dim_of_create(%n: index, %m: index) -> index {
  %c2 = arith.constant 2 : index
  %a = ndarray.create(%n, %m) : !ndarray.ndarray<?x3x?xf64>
  %0 = ndarray.dim %a, %c2 : !ndarray.ndarray<?x3x?xf64>
  return %0 : index
}

// -----

// CHECK-LABEL: func @dim_of_cast
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: return %[[C5]]
func.func @dim_of_cast(%a: !ndarray.ndarray<5xf64>) -> index {
  %c0 = arith.constant 0 : index
  %0 = ndarray.cast %a : !ndarray.ndarray<5xf64> to !ndarray.ndarray<?xf64>
  %1 = ndarray.dim %0, %c0 : !ndarray.ndarray<?xf64>
  return %1 : index
}

// -----

// CHECK-LABEL: func @cast_chain
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<5xf64>)
// CHECK-NEXT: return %[[A]]
func.func @cast_chain(%a: !ndarray.ndarray<5xf64>) -> !ndarray.ndarray<5xf64> {
  %0 = ndarray.cast %a : !ndarray.ndarray<5xf64> to !ndarray.ndarray<?xf64>
  %1 = ndarray.cast %0 : !ndarray.ndarray<?xf64> to !ndarray.ndarray<5xf64>
  return %1 : !ndarray.ndarray<5xf64>
}

// -----

// CHECK-LABEL: func @cast_chain_partial
// CHECK: %[[C:.*]] = ndarray.cast %{{.*}} : !ndarray.ndarray<5x6xf64> to !ndarray.ndarray<?x?xf64>
// CHECK-NEXT: return %[[C]]
func.func @cast_chain_partial(%a: !ndarray.ndarray<5x6xf64>) -> !ndarray.ndarray<?x?xf64> {
  %0 = ndarray.cast %a : !ndarray.ndarray<5x6xf64> to !ndarray.ndarray<?x6xf64>
  %1 = ndarray.cast %0 : !ndarray.ndarray<?x6xf64> to !ndarray.ndarray<?x?xf64>
  return %1 : !ndarray.ndarray<?x?xf64>
}

// -----

// CHECK-LABEL: func @create_constant_sizes
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[A:.*]] = ndarray.create(%[[N]]) : !ndarray.ndarray<4x?xf64>
// CHECK: %[[C:.*]] = ndarray.cast %[[A]] : !ndarray.ndarray<4x?xf64> to !ndarray.ndarray<?x?xf64>
// CHECK: return %[[C]]
func.func @create_constant_sizes(%n: index) -> !ndarray.ndarray<?x?xf64> {
  %c4 = arith.constant 4 : index
  %0 = ndarray.create(%c4, %n) : !ndarray.ndarray<?x?xf64>
  return %0 : !ndarray.ndarray<?x?xf64>
}

// -----

// CHECK-LABEL: func @random_constant_sizes
// CHECK: %[[R:.*]] = ndarray.random uniform %{{.*}}, %{{.*}}(%{{.*}}) : !ndarray.ndarray<?x5xf64>
// CHECK: ndarray.cast %[[R]] : !ndarray.ndarray<?x5xf64> to !ndarray.ndarray<?x?xf64>
func.func @random_constant_sizes(%s: i64, %n: index) -> !ndarray.ndarray<?x?xf64> {
  %c5 = arith.constant 5 : index
  %0 = ndarray.random uniform %s, %s (%n, %c5) : !ndarray.ndarray<?x?xf64>
  return %0 : !ndarray.ndarray<?x?xf64>
}

// -----

// CHECK-LABEL: func @tri_constant_sizes
// CHECK: %[[T:.*]] = ndarray.tri %{{.*}} : !ndarray.ndarray<3x5xi1>
// CHECK: ndarray.cast %[[T]] : !ndarray.ndarray<3x5xi1> to !ndarray.ndarray<?x?xi1>
func.func @tri_constant_sizes(%k: index) -> !ndarray.ndarray<?x?xi1> {
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %0 = ndarray.tri %k (%c3, %c5) : !ndarray.ndarray<?x?xi1>
  return %0 : !ndarray.ndarray<?x?xi1>
}

// -----

// CHECK-LABEL: func @linspace_constant_num
// CHECK: %[[L:.*]] = ndarray.linspace %{{.*}}, %{{.*}}, %{{.*}} endpoint : f64 -> !ndarray.ndarray<7xf64>
// CHECK: ndarray.cast %[[L]] : !ndarray.ndarray<7xf64> to !ndarray.ndarray<?xf64>
func.func @linspace_constant_num(%s: f64, %e: f64) -> !ndarray.ndarray<?xf64> {
  %c7 = arith.constant 7 : index
  %0 = ndarray.linspace %s, %e, %c7 endpoint : f64 -> !ndarray.ndarray<?xf64>
  return %0 : !ndarray.ndarray<?xf64>
}

// -----

// CHECK-LABEL: func @subview_constant_arguments
// CHECK: %[[V:.*]] = ndarray.subview %{{.*}}[1, 2] [3, 4] [1, 2] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<3x4xf64>
// CHECK: ndarray.cast %[[V]] : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<?x?xf64>
func.func @subview_constant_arguments(%a: !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %0 = ndarray.subview %a[%c1, %c2] [%c3, %c4] [%c1, %c2] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  return %0 : !ndarray.ndarray<?x?xf64>
}

// -----

// Rank-reducing views keep their dropped unit dimensions dropped.
// CHECK-LABEL: func @subview_rank_reduced
// CHECK: %[[V:.*]] = ndarray.subview %{{.*}}[2, 0] [1, 6] [1, 1] : !ndarray.ndarray<8x?xf64> to !ndarray.ndarray<6xf64>
// CHECK: ndarray.cast %[[V]] : !ndarray.ndarray<6xf64> to !ndarray.ndarray<?xf64>
func.func @subview_rank_reduced(%a: !ndarray.ndarray<8x?xf64>, %i: index) -> !ndarray.ndarray<?xf64> {
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %0 = ndarray.subview %a[%c2, 0] [1, %c6] [1, 1] : !ndarray.ndarray<8x?xf64> to !ndarray.ndarray<?xf64>
  return %0 : !ndarray.ndarray<?xf64>
}

// -----

// CHECK-LABEL: func @extract_slice_constant_arguments
// CHECK: %[[S:.*]] = ndarray.extract_slice %{{.*}}[2] [3] [2] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<3xi64>
// CHECK: ndarray.cast %[[S]] : !ndarray.ndarray<3xi64> to !ndarray.ndarray<?xi64>
func.func @extract_slice_constant_arguments(%a: !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?xi64> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = ndarray.extract_slice %a[%c2] [%c3] [%c2] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<?xi64>
  return %0 : !ndarray.ndarray<?xi64>
}

// -----

// CHECK-LABEL: func @insert_slice_constant_arguments
// CHECK: ndarray.insert_slice %{{.*}} into %{{.*}}[2] [%{{.*}}] [1] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[2] [%{{.*}}] [1] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
func.func @insert_slice_constant_arguments(%a: !ndarray.ndarray<?xi64>, %v: !ndarray.ndarray<?xi64>, %n: index) -> !ndarray.ndarray<?xi64> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  ndarray.insert_slice %v into %a[%c2] [%n] [%c1] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
  %0 = ndarray.immutable_insert_slice %v into %a[%c2] [%n] [%c1] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
  return %0 : !ndarray.ndarray<?xi64>
}

// -----

// CHECK-LABEL: func @noop_views
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<3x4xf64>)
// CHECK-NEXT: return %[[A]], %[[A]], %[[A]], %[[A]], %[[A]], %[[A]]
func.func @noop_views(%a: !ndarray.ndarray<3x4xf64>) -> (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>) {
  %0 = ndarray.reshape %a : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %1 = ndarray.broadcast_to %a : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %2 = ndarray.permute_dims %a [0, 1] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %3 = ndarray.expand_dims %a [] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %4 = ndarray.squeeze %a [] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %5 = ndarray.cast_elemtype %a : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xf64>
  return %0, %1, %2, %3, %4, %5 : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>
}

// -----

// A view of all of an array whose sizes are the operands that gave the
// array its dynamic sizes is the array.
// CHECK-LABEL: func @whole_view_by_size_operands
// CHECK-SAME: (%[[A:[^:]*]]: !ndarray.ndarray<?x1xf64>, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index)
// CHECK-NEXT: %[[B:.*]] = ndarray.broadcast_to %[[A]](%[[N]], %[[M]])
// CHECK-NEXT: return %[[B]]
func.func @whole_view_by_size_operands(%a: !ndarray.ndarray<?x1xf64>, %n: index, %m: index) -> !ndarray.ndarray<?x?xf64> {
  %b = ndarray.broadcast_to %a(%n, %m) : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<?x?xf64>
  %v = ndarray.subview %b[0, 0] [%n, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  return %v : !ndarray.ndarray<?x?xf64>
}

// -----

// A broadcast to the source's own sizes (its ndarray.dim) is the source; a
// size that is only another value may broadcast a dimension of size 1.
// CHECK-LABEL: func @broadcast_to_own_sizes
// CHECK-SAME: (%[[A:[^:]*]]: !ndarray.ndarray<?x?xf64>, %[[N:[^:]*]]: index)
// CHECK: %[[B:.*]] = ndarray.broadcast_to %[[A]](%{{.*}}, %[[N]])
// CHECK-NEXT: return %[[A]], %[[B]]
func.func @broadcast_to_own_sizes(%a: !ndarray.ndarray<?x?xf64>, %n: index) -> (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = ndarray.dim %a, %c0 : !ndarray.ndarray<?x?xf64>
  %d1 = ndarray.dim %a, %c1 : !ndarray.ndarray<?x?xf64>
  %same = ndarray.broadcast_to %a(%d0, %d1) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %other = ndarray.broadcast_to %a(%d0, %n) : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  return %same, %other : !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
}

// -----

// A requested copy is never folded away.
// CHECK-LABEL: func @copies_stay
// CHECK: ndarray.reshape %{{.*}} copy
// CHECK: ndarray.cast_elemtype %{{.*}} copy
func.func @copies_stay(%a: !ndarray.ndarray<3x4xf64>) -> (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>) {
  %0 = ndarray.reshape %a copy : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
  %1 = ndarray.cast_elemtype %a copy : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<3x4xf64>
  return %0, %1 : !ndarray.ndarray<3x4xf64>, !ndarray.ndarray<3x4xf64>
}

// -----

// CHECK-LABEL: func @permute_twice
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<2x3x4xf64>)
// CHECK: %[[P:.*]] = ndarray.permute_dims %[[A]] [2, 0, 1] : !ndarray.ndarray<2x3x4xf64> -> !ndarray.ndarray<4x2x3xf64>
// CHECK: return %[[P]], %[[A]]
func.func @permute_twice(%a: !ndarray.ndarray<2x3x4xf64>) -> (!ndarray.ndarray<4x2x3xf64>, !ndarray.ndarray<2x3x4xf64>) {
  %0 = ndarray.permute_dims %a [1, 0, 2] : !ndarray.ndarray<2x3x4xf64> -> !ndarray.ndarray<3x2x4xf64>
  %1 = ndarray.permute_dims %0 [2, 1, 0] : !ndarray.ndarray<3x2x4xf64> -> !ndarray.ndarray<4x2x3xf64>
  %2 = ndarray.permute_dims %0 [1, 0, 2] : !ndarray.ndarray<3x2x4xf64> -> !ndarray.ndarray<2x3x4xf64>
  return %1, %2 : !ndarray.ndarray<4x2x3xf64>, !ndarray.ndarray<2x3x4xf64>
}

// -----

// CHECK-LABEL: func @reshape_twice
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<12xf64>)
// CHECK: %[[R:.*]] = ndarray.reshape %[[A]] : !ndarray.ndarray<12xf64> -> !ndarray.ndarray<2x6xf64>
// CHECK: return %[[R]]
func.func @reshape_twice(%a: !ndarray.ndarray<12xf64>) -> !ndarray.ndarray<2x6xf64> {
  %0 = ndarray.reshape %a : !ndarray.ndarray<12xf64> -> !ndarray.ndarray<3x4xf64>
  %1 = ndarray.reshape %0 : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<2x6xf64>
  return %1 : !ndarray.ndarray<2x6xf64>
}

// -----

// CHECK-LABEL: func @broadcast_constant_sizes
// CHECK: %[[B:.*]] = ndarray.broadcast_to %{{.*}} : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<3x4xf64>
// CHECK: ndarray.cast %[[B]] : !ndarray.ndarray<3x4xf64> to !ndarray.ndarray<?x4xf64>
func.func @broadcast_constant_sizes(%a: !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<?x4xf64> {
  %c3 = arith.constant 3 : index
  %0 = ndarray.broadcast_to %a(%c3) : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<?x4xf64>
  return %0 : !ndarray.ndarray<?x4xf64>
}

// -----

// Static shapes hidden behind casts propagate through elementwise chains:
// every op gets its static result and only the final value is cast back.
// CHECK-LABEL: func @refine_through_chain
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<4xf64>, %[[B:.*]]: !ndarray.ndarray<3x1xf64>)
// CHECK: %[[S:.*]] = ndarray.ewbin add %[[A]], %[[B]] : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<3x1xf64>) -> !ndarray.ndarray<3x4xf64>
// CHECK: %[[E:.*]] = ndarray.ewuny exp %[[S]] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3x4xf64>
// CHECK: %[[R:.*]] = ndarray.reduction sum %[[E]] axes [1] : !ndarray.ndarray<3x4xf64> -> !ndarray.ndarray<3xf64>
// CHECK: %[[C:.*]] = ndarray.cast %[[R]] : !ndarray.ndarray<3xf64> to !ndarray.ndarray<?xf64>
// CHECK: return %[[C]]
func.func @refine_through_chain(%a: !ndarray.ndarray<4xf64>, %b: !ndarray.ndarray<3x1xf64>) -> !ndarray.ndarray<?xf64> {
  %0 = ndarray.cast %a : !ndarray.ndarray<4xf64> to !ndarray.ndarray<?xf64>
  %1 = ndarray.ewbin add %0, %b : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<3x1xf64>) -> !ndarray.ndarray<3x?xf64>
  %2 = ndarray.ewuny exp %1 : !ndarray.ndarray<3x?xf64> -> !ndarray.ndarray<?x?xf64>
  %3 = ndarray.reduction sum %2 axes [1] : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?xf64>
  return %3 : !ndarray.ndarray<?xf64>
}

// -----

// CHECK-LABEL: func @insert_static_source
// CHECK-SAME: (%[[A:.*]]: !ndarray.ndarray<8xf64>, %[[V:.*]]: !ndarray.ndarray<4xf64>)
// CHECK: ndarray.insert_slice %[[V]] into %[[A]][2] [4] [1] : !ndarray.ndarray<4xf64> into !ndarray.ndarray<8xf64>
func.func @insert_static_source(%a: !ndarray.ndarray<8xf64>, %v: !ndarray.ndarray<4xf64>) {
  %0 = ndarray.cast %v : !ndarray.ndarray<4xf64> to !ndarray.ndarray<?xf64>
  ndarray.insert_slice %0 into %a[2] [4] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<8xf64>
  return
}

// -----

// The size of a slice is its size operand; an insert has the shape of its
// destination.
// CHECK-LABEL: func.func @dim_of_slice_and_insert
// CHECK-SAME: (%[[A:[^:]*]]: !ndarray.ndarray<?x?xf64>, %[[B:[^:]*]]: !ndarray.ndarray<?x?xf64>, %[[N:[^:]*]]: index)
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[D:.*]] = ndarray.dim %[[A]], %[[C0]]
// CHECK: return %[[N]], %[[D]]
func.func @dim_of_slice_and_insert(%a: !ndarray.ndarray<?x?xf64>, %b: !ndarray.ndarray<?x?xf64>, %n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %s = ndarray.subview %a[1, 0] [%n, 2] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x2xf64>
  %d0 = ndarray.dim %s, %c0 : !ndarray.ndarray<?x2xf64>
  %i = ndarray.immutable_insert_slice %b into %a[0, 0] [%n, 2] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  %d1 = ndarray.dim %i, %c0 : !ndarray.ndarray<?x?xf64>
  return %d0, %d1 : index, index
}

// -----

// Complementary comparisons (from broadcasting checks whose sizes turned
// out equal) fold: a canonicalization of the ndarray dialect (loaded here by
// the array argument).
// CHECK-LABEL: func.func @complementary_comparisons
// CHECK-DAG: %[[F:.*]] = arith.constant false
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: return %[[F]], %[[T]]
func.func @complementary_comparisons(%x: index, %unused: !ndarray.ndarray<f64>) -> (i1, i1) {
  %c1 = arith.constant 1 : index
  %eq = arith.cmpi eq, %x, %c1 : index
  %ne = arith.cmpi ne, %x, %c1 : index
  %and = arith.andi %eq, %ne : i1
  %or = arith.ori %eq, %ne : i1
  return %and, %or : i1, i1
}

// -----

// The sizes of a wrapped memref that was given its sizes.
// CHECK-LABEL: func @dim_of_sized_memref
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf64>, %[[N:.*]]: index, %[[K:.*]]: index)
// CHECK-NOT: ndarray.dim
// CHECK: return %[[N]], %[[K]]
func.func @dim_of_sized_memref(%m: memref<?x?xf64>, %n: index, %k: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%n, %k], strides: [%k, 1] : memref<?x?xf64> to memref<?x?xf64>
  %a = ndarray.from_memref %r : memref<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  %0 = ndarray.dim %a, %c0 : !ndarray.ndarray<?x?xf64>
  %1 = ndarray.dim %a, %c1 : !ndarray.ndarray<?x?xf64>
  return %0, %1 : index, index
}

// -----

// Constants that cannot be static offsets, sizes or strides stay operands:
// the minimum index is ShapedType::kDynamic itself, negative offsets and sizes
// and non-positive strides would make invalid ops (the code may be dead).
// CHECK-LABEL: func @slices_keep_unfoldable_constants
// CHECK-DAG: %[[MIN:.*]] = arith.constant -9223372036854775808 : index
// CHECK-DAG: %[[NEG:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: ndarray.subview %{{.*}}[%[[MIN]]] [%{{.*}}] [%[[MIN]]]
// CHECK: ndarray.extract_slice %{{.*}}[%[[NEG]]] [%[[MIN]]] [%[[ZERO]]]
// CHECK: ndarray.insert_slice %{{.*}} into %{{.*}}[%[[MIN]]] [%{{.*}}] [%[[MIN]]]
// CHECK: ndarray.immutable_insert_slice %{{.*}} into %{{.*}}[%[[MIN]]] [%[[NEG]]] [%[[ZERO]]]
func.func @slices_keep_unfoldable_constants(%a: !ndarray.ndarray<?xi64>, %v: !ndarray.ndarray<?xi64>, %n: index) -> (!ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>) {
  %min = arith.constant -9223372036854775808 : index
  %neg = arith.constant -1 : index
  %zero = arith.constant 0 : index
  %0 = ndarray.subview %a[%min] [%n] [%min] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<?xi64>
  %1 = ndarray.extract_slice %a[%neg] [%min] [%zero] : !ndarray.ndarray<?xi64> to !ndarray.ndarray<?xi64>
  ndarray.insert_slice %v into %a[%min] [%n] [%min] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
  %2 = ndarray.immutable_insert_slice %v into %a[%min] [%neg] [%zero] : !ndarray.ndarray<?xi64> into !ndarray.ndarray<?xi64>
  return %0, %1, %2 : !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>, !ndarray.ndarray<?xi64>
}

// -----

// A statically out-of-bounds slice is not folded (it may be dead code).
// CHECK-LABEL: func @slice_out_of_bounds_not_folded
// CHECK: ndarray.subview %{{.*}}[%{{.*}}] [%{{.*}}] [1] : !ndarray.ndarray<4xi64> to !ndarray.ndarray<?xi64>
func.func @slice_out_of_bounds_not_folded(%a: !ndarray.ndarray<4xi64>) -> !ndarray.ndarray<?xi64> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = ndarray.subview %a[%c3] [%c2] [1] : !ndarray.ndarray<4xi64> to !ndarray.ndarray<?xi64>
  return %0 : !ndarray.ndarray<?xi64>
}

// -----

// Result types of distributed arrays are refined like others (the dist env
// says nothing about sizes), behind a cast to the old type.
// CHECK-LABEL: func @refine_keeps_valid_types
// CHECK: %[[X:.*]] = ndarray.expand_dims %{{.*}} [2] : !ndarray.ndarray<0x?xf64, {{.*}}> -> !ndarray.ndarray<0x?x1xf64, #dist.dist_env<team = 1>>
// CHECK: ndarray.cast %[[X]] : !ndarray.ndarray<0x?x1xf64, #dist.dist_env<team = 1>> to !ndarray.ndarray<?x?x1xf64, #dist.dist_env<team = 1>>
func.func @refine_keeps_valid_types(%d: !ndarray.ndarray<0x?xf64, #dist.dist_env<team = 1>>) -> !ndarray.ndarray<?x?x1xf64, #dist.dist_env<team = 1>> {
  %x = ndarray.expand_dims %d [2] : !ndarray.ndarray<0x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?x1xf64, #dist.dist_env<team = 1>>
  return %x : !ndarray.ndarray<?x?x1xf64, #dist.dist_env<team = 1>>
}
