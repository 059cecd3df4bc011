// RUN: imex-opt %s -split-input-file -verify-diagnostics

func.func @create_sizes(%n: index) {
  // expected-error @+1 {{expects one size operand per dynamic dimension of the result (2), but got 1}}
  %0 = ndarray.create(%n) : !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @random_element_type(%s: i64) {
  // expected-error @+1 {{random numbers are f32 or f64, not 'i32'}}
  %0 = ndarray.random uniform %s, %s : !ndarray.ndarray<4xi32>
  return
}

// -----

func.func @random_sizes(%s: i64, %n: index) {
  // expected-error @+1 {{expects one size operand per dynamic dimension of the result (2), but got 1}}
  %0 = ndarray.random normal %s, %s (%n) : !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @tri_rank(%k: index) {
  // expected-error @+1 {{result must be 2-d, got '!ndarray.ndarray<4xf64>'}}
  %0 = ndarray.tri %k : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @tri_sizes(%k: index) {
  // expected-error @+1 {{expects one size operand per dynamic dimension of the result (1), but got 0}}
  %0 = ndarray.tri %k : !ndarray.ndarray<?x4xi1>
  return
}

// -----

func.func @random_distribution(%s: i64) {
  // expected-error @+2 {{expected one of [uniform, normal] for distribution of ndarray.random, got: poisson}}
  // expected-error @+1 {{failed to parse NDArray_RandomDistributionAttr}}
  %0 = ndarray.random poisson %s, %s : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @create_value_type(%v: f32) {
  // expected-error @+1 {{fill value type matches the element type}}
  %0 = "ndarray.create"(%v) <{operandSegmentSizes = array<i32: 0, 1>}> : (f32) -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @linspace_rank(%f: f64, %n: index) {
  // expected-error @+1 {{result must be 1-d}}
  %0 = ndarray.linspace %f, %f, %n : f64 -> !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @linspace_count(%f: f64) {
  %n = arith.constant 5 : index
  // expected-error @+1 {{result has 4 elements but num is 5}}
  %0 = ndarray.linspace %f, %f, %n : f64 -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @linspace_negative(%f: f64) {
  %n = arith.constant -1 : index
  // expected-error @+1 {{number of elements must be non-negative, got -1}}
  %0 = ndarray.linspace %f, %f, %n : f64 -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @copy_shape(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{must have the shape and element type of the source}}
  %0 = ndarray.copy %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<5xf64>
  return
}

// -----

func.func @from_memref_element(%m: memref<4xf32>) {
  // expected-error @+1 {{element types of the memref and the array differ: 'f32' vs 'f64'}}
  %0 = ndarray.from_memref %m : memref<4xf32> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @from_memref_shape(%m: memref<4xf32>) {
  // expected-error @+1 {{shapes of the memref and the array differ: [4] vs [?]}}
  %0 = ndarray.from_memref %m : memref<4xf32> -> !ndarray.ndarray<?xf32>
  return
}

// -----

func.func @to_tensor(%a: !ndarray.ndarray<4xf32>) {
  // expected-error @+1 {{result must be 'tensor<4xf32>'}}
  %0 = ndarray.to_tensor %a : !ndarray.ndarray<4xf32> -> tensor<?xf32>
  return
}

// -----

func.func @cast_incompatible(%a: !ndarray.ndarray<4xf32>) {
  // expected-error @+1 {{are cast incompatible}}
  %0 = ndarray.cast %a : !ndarray.ndarray<4xf32> to !ndarray.ndarray<5xf32>
  return
}

// -----

func.func @cast_environment(%a: !ndarray.ndarray<4xf32>) {
  // expected-error @+1 {{are cast incompatible}}
  %0 = ndarray.cast %a : !ndarray.ndarray<4xf32> to !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>
  return
}

// -----

func.func @cast_elemtype_shape(%a: !ndarray.ndarray<4xf32>) {
  // expected-error @+1 {{result shape [3] does not match the source shape [4]}}
  %0 = ndarray.cast_elemtype %a : !ndarray.ndarray<4xf32> to !ndarray.ndarray<3xi32>
  return
}

// -----

func.func @dim_0d(%a: !ndarray.ndarray<f32>, %i: index) {
  // expected-error @+1 {{cannot take a dimension of a 0-d array}}
  %0 = ndarray.dim %a, %i : !ndarray.ndarray<f32>
  return
}

// -----

func.func @dim_range(%a: !ndarray.ndarray<?xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{dimension index 1 is out of range for an array of rank 1}}
  %0 = ndarray.dim %a, %c1 : !ndarray.ndarray<?xf32>
  return
}

// -----

func.func @reshape_count(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+1 {{cannot reshape 12 elements [3, 4] into 10 elements [2, 5]}}
  %0 = ndarray.reshape %a : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<2x5xf32>
  return
}

// -----

func.func @reshape_element(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+1 {{reshape cannot change the element type}}
  %0 = ndarray.reshape %a : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<12xf64>
  return
}

// -----

func.func @reshape_sizes(%a: !ndarray.ndarray<?xf32>) {
  // expected-error @+1 {{expects one size operand per dynamic dimension of the result (1), but got 0}}
  %0 = ndarray.reshape %a : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<?x2xf32>
  return
}

// -----

func.func @broadcast_incompatible(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+1 {{cannot broadcast shape [3] to [3, 4]}}
  %0 = ndarray.broadcast_to %a : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<3x4xf32>
  return
}

// -----

func.func @broadcast_rank(%a: !ndarray.ndarray<1x3xf32>) {
  // expected-error @+1 {{cannot broadcast shape [1, 3] to [3]}}
  %0 = ndarray.broadcast_to %a : !ndarray.ndarray<1x3xf32> -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @permute_length(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{permutation [0] must have one entry per dimension (2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.permute_dims %a [0] : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @permute_repeat(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{[0, 0] is not a permutation of the dimensions}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.permute_dims %a [0, 0] : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3x3xf32>
  return
}

// -----

func.func @permute_result(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<4x3xf32>' are incompatible with return type(s) of operation '!ndarray.ndarray<3x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.permute_dims %a [1, 0] : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3x4xf32>
  return
}

// -----

func.func @expand_dims_range(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{expand_dims axis 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.expand_dims %a [2] : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<3x1xf32>
  return
}

// -----

func.func @expand_dims_order(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{expand_dims axes must be sorted and unique, got [2, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.expand_dims %a [2, 0] : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<1x3x1xf32>
  return
}

// -----

func.func @squeeze_non_unit(%a: !ndarray.ndarray<3x1xf32>) {
  // expected-error @+2 {{cannot squeeze dimension 0 of size 3 (it must be 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.squeeze %a [0] : !ndarray.ndarray<3x1xf32> -> !ndarray.ndarray<1xf32>
  return
}

// -----

func.func @subview_stride(%a: !ndarray.ndarray<10xf32>) {
  // expected-error @+1 {{strides must be positive, got 0}}
  %0 = ndarray.subview %a[0] [2] [0] : !ndarray.ndarray<10xf32> to !ndarray.ndarray<2xf32>
  return
}

// -----

func.func @subview_bounds(%a: !ndarray.ndarray<10xf32>) {
  // expected-error @+1 {{slice is out of bounds}}
  %0 = ndarray.subview %a[4] [4] [2] : !ndarray.ndarray<10xf32> to !ndarray.ndarray<4xf32>
  return
}

// -----

func.func @subview_result(%a: !ndarray.ndarray<10x10xf32>) {
  // expected-error @+1 {{result shape [3] is not the slice shape [2, 3] or a version of it with unit dimensions dropped}}
  %0 = ndarray.subview %a[0, 0] [2, 3] [1, 1] : !ndarray.ndarray<10x10xf32> to !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @subview_element(%a: !ndarray.ndarray<10xf32>) {
  // expected-error @+1 {{result element type 'f64' differs from the source's 'f32'}}
  %0 = ndarray.subview %a[0] [2] [1] : !ndarray.ndarray<10xf32> to !ndarray.ndarray<2xf64>
  return
}

// -----

func.func @subview_rank(%a: !ndarray.ndarray<10xf32>) {
  // expected-error @+1 {{expected 1 offset values}}
  %0 = ndarray.subview %a[0, 0] [2, 1] [1, 1] : !ndarray.ndarray<10xf32> to !ndarray.ndarray<2xf32>
  return
}

// -----

func.func @extract_slice_result(%a: !ndarray.ndarray<10xf32>, %n: index) {
  // expected-error @+1 {{result shape [4] is not the slice shape [?]}}
  %0 = ndarray.extract_slice %a[0] [%n] [1] : !ndarray.ndarray<10xf32> to !ndarray.ndarray<4xf32>
  return
}

// -----

func.func @insert_broadcast(%a: !ndarray.ndarray<10xf32>, %v: !ndarray.ndarray<3xf32>) {
  // expected-error @+1 {{source shape [3] cannot be broadcast to the slice shape [4]}}
  ndarray.insert_slice %v into %a[0] [4] [1] : !ndarray.ndarray<3xf32> into !ndarray.ndarray<10xf32>
  return
}

// -----

func.func @insert_bounds(%a: !ndarray.ndarray<10xf32>, %v: !ndarray.ndarray<4xf32>) {
  // expected-error @+1 {{slice is out of bounds}}
  ndarray.insert_slice %v into %a[8] [4] [1] : !ndarray.ndarray<4xf32> into !ndarray.ndarray<10xf32>
  return
}

// -----

func.func @immutable_insert_broadcast(%a: !ndarray.ndarray<10xf32>, %v: !ndarray.ndarray<2x4xf32>) {
  // expected-error @+1 {{source shape [2, 4] cannot be broadcast to the slice shape [4]}}
  %0 = ndarray.immutable_insert_slice %v into %a[0] [4] [1] : !ndarray.ndarray<2x4xf32> into !ndarray.ndarray<10xf32>
  return
}

// -----

func.func @load_count(%a: !ndarray.ndarray<4x4xf32>, %i: index) {
  // expected-error @+1 {{expects 2 indices, one per dimension, but got 1}}
  %0 = ndarray.load %a[%i] : !ndarray.ndarray<4x4xf32>
  return
}

// -----

func.func @load_bounds(%a: !ndarray.ndarray<4xf32>) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{index 4 is out of bounds for dimension 0 of size 4}}
  %0 = ndarray.load %a[%c4] : !ndarray.ndarray<4xf32>
  return
}

// -----

func.func @ewbin_broadcast(%a: !ndarray.ndarray<3xf32>, %b: !ndarray.ndarray<4xf32>) {
  // expected-error @+2 {{shapes are not broadcast-compatible: size 3 vs 4 in dimension -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3xf32>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<4xf32>
  return
}

// -----

// Broadcasting aligns trailing dimensions: 3x1 with 3 gives 3x3, not 3x1.
func.func @ewbin_trailing(%a: !ndarray.ndarray<3x1xf32>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3x3xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3x1xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3x1xf32>
  return
}

// -----

func.func @ewbin_bool_arith(%a: !ndarray.ndarray<3xi1>) {
  // expected-error @+2 {{'subtract' requires numeric operands, got i1 and i1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin subtract %a, %a : (!ndarray.ndarray<3xi1>, !ndarray.ndarray<3xi1>) -> !ndarray.ndarray<3xi1>
  return
}

// -----

func.func @ewbin_float_shift(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{'bitwise_left_shift' requires integer operands}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin bitwise_left_shift %a, %a : (!ndarray.ndarray<3xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @ewbin_float_bitwise(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{'bitwise_and' requires integer or bool operands}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin bitwise_and %a, %a : (!ndarray.ndarray<3xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

// Promotion: i32 + f32 computes in f64 (numpy), not f32.
func.func @ewbin_promotion(%a: !ndarray.ndarray<3xi32>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3xf64>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3xi32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @ewbin_comparison(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3xi1>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin less %a, %a : (!ndarray.ndarray<3xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @ewbin_environments(%a: !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>, %b: !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:1">>) {
  // expected-error @+1 {{requires arrays in compatible environments}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>, !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:1">>) -> !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>
  return
}

// -----

// A host array cannot meet a device array.
func.func @ewbin_host_device(%a: !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+1 {{requires arrays in compatible environments}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32, #region.gpu_env<device = "gpu:0">>
  return
}

// -----

func.func @ewuny_bool_negative(%a: !ndarray.ndarray<3xi1>) {
  // expected-error @+2 {{'negative' requires a numeric operand, got i1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny negative %a : !ndarray.ndarray<3xi1> -> !ndarray.ndarray<3xi1>
  return
}

// -----

func.func @ewuny_float_invert(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{'bitwise_invert' requires an integer or bool operand, got f32}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny bitwise_invert %a : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<3xf32>
  return
}

// -----

// sqrt of int16 computes in f32, as numpy does.
func.func @ewuny_float_for_int(%a: !ndarray.ndarray<3xi16>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3xf32>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny sqrt %a : !ndarray.ndarray<3xi16> -> !ndarray.ndarray<3xf64>
  return
}

// -----

func.func @where_condition(%c: !ndarray.ndarray<3xi32>, %a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{condition must have element type i1, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.where %c, %a, %a : (!ndarray.ndarray<3xi32>, !ndarray.ndarray<3xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @reduction_axis(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{reduction axis 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction sum %a axes [2] : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3x4xf32>
  return
}

// -----

func.func @reduction_duplicate_axes(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{reduction axes must be sorted and unique, got [1, 1]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction sum %a axes [1, 1] : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @reduction_correction_kind(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{correction is only valid for var and std, not sum}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction sum %a correction 1.0 : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<f32>
  return
}

// -----

func.func @reduction_correction_negative(%a: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{correction must be non-negative}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction var %a correction -1.0 : !ndarray.ndarray<3xf32> -> !ndarray.ndarray<f32>
  return
}

// -----

// The sum of int32 values is accumulated in int64.
func.func @reduction_result_type(%a: !ndarray.ndarray<3xi32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<i64>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction sum %a : !ndarray.ndarray<3xi32> -> !ndarray.ndarray<i32>
  return
}

// -----

func.func @matmul_0d(%a: !ndarray.ndarray<f32>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{matmul operands must have rank >= 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.matmul %a, %b : (!ndarray.ndarray<f32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xf32>
  return
}

// -----

func.func @matmul_contraction(%a: !ndarray.ndarray<2x3xf32>, %b: !ndarray.ndarray<4x5xf32>) {
  // expected-error @+2 {{matmul contraction sizes differ: 3 vs 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.matmul %a, %b : (!ndarray.ndarray<2x3xf32>, !ndarray.ndarray<4x5xf32>) -> !ndarray.ndarray<2x5xf32>
  return
}

// -----

func.func @matmul_batch(%a: !ndarray.ndarray<2x2x3xf32>, %b: !ndarray.ndarray<3x3x5xf32>) {
  // expected-error @+2 {{matmul batch dimensions: shapes are not broadcast-compatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.matmul %a, %b : (!ndarray.ndarray<2x2x3xf32>, !ndarray.ndarray<3x3x5xf32>) -> !ndarray.ndarray<2x2x5xf32>
  return
}

// -----

func.func @concat_rank(%a: !ndarray.ndarray<2x3xf32>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{concat inputs must have the same rank, got 2 and 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.concat %a, %b axis 0 : (!ndarray.ndarray<2x3xf32>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<5x3xf32>
  return
}

// -----

func.func @concat_dims(%a: !ndarray.ndarray<2x3xf32>, %b: !ndarray.ndarray<2x4xf32>) {
  // expected-error @+2 {{concat inputs differ in dimension 1: 3 vs 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.concat %a, %b axis 0 : (!ndarray.ndarray<2x3xf32>, !ndarray.ndarray<2x4xf32>) -> !ndarray.ndarray<4x3xf32>
  return
}

// -----

func.func @concat_axis(%a: !ndarray.ndarray<2x3xf32>) {
  // expected-error @+2 {{concat axis 2 is out of range for arrays of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.concat %a, %a axis 2 : (!ndarray.ndarray<2x3xf32>, !ndarray.ndarray<2x3xf32>) -> !ndarray.ndarray<2x3xf32>
  return
}

// -----

func.func @concat_0d(%a: !ndarray.ndarray<f32>) {
  // expected-error @+2 {{cannot concatenate 0-d arrays}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.concat %a, %a axis 0 : (!ndarray.ndarray<f32>, !ndarray.ndarray<f32>) -> !ndarray.ndarray<2xf32>
  return
}

// -----

// (found by imex-fuzz: the last index overflowed int64)
func.func @slice_last_index_overflows(%a: !ndarray.ndarray<?x4xf64>) {
  // expected-error @+1 {{slice is out of bounds: its last index overflows in dimension 1 of size 4}}
  %0 = ndarray.subview %a[0, 0] [2, 3] [1, 9223372036854775807] : !ndarray.ndarray<?x4xf64> to !ndarray.ndarray<2x3xf64>
  return
}

// -----

// (found by imex-fuzz: broadcasting static sizes from different operands
// gave a shape without a valid type)
func.func @broadcast_too_many_elements(%a: !ndarray.ndarray<?x4611686018427387904xf64>, %b: !ndarray.ndarray<4x?xf64>) {
  // expected-error @+2 {{the result would have more than 2^63 - 1 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x4611686018427387904xf64>, !ndarray.ndarray<4x?xf64>) -> !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @cumulative_kind(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{cumulative max is not supported: sum or prod}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.cumulative max %a axis 0 : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @cumulative_axis(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{cumulative axis 1 is out of range [0, 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.cumulative sum %a axis 1 : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @cumulative_type(%a: !ndarray.ndarray<4xi32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<4xi64>' are incompatible with return type(s) of operation '!ndarray.ndarray<4xi32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.cumulative sum %a axis 0 : !ndarray.ndarray<4xi32> -> !ndarray.ndarray<4xi32>
  return
}

// -----

func.func @argreduce_kind(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{argreduce sum is not supported: max or min}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argreduce sum %a : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<i64>
  return
}

// -----

func.func @argreduce_axis(%a: !ndarray.ndarray<4x2xf64>) {
  // expected-error @+2 {{argreduce axis 2 is out of range [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argreduce max %a axis 2 : !ndarray.ndarray<4x2xf64> -> !ndarray.ndarray<4xi64>
  return
}

// -----

func.func @argreduce_empty(%a: !ndarray.ndarray<0x3xi32>) {
  // expected-error @+2 {{attempt to get argmin of an empty sequence}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argreduce min %a axis 0 : !ndarray.ndarray<0x3xi32> -> !ndarray.ndarray<3xi64>
  return
}

// -----

func.func @argreduce_type(%a: !ndarray.ndarray<3x4xf32>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3x1xi64>' are incompatible with return type(s) of operation '!ndarray.ndarray<3x1xi32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argreduce max %a axis 1 keepdims : !ndarray.ndarray<3x4xf32> -> !ndarray.ndarray<3x1xi32>
  return
}

// -----

func.func @masked_select_element(%a: !ndarray.ndarray<4xf64>, %m: !ndarray.ndarray<4xi8>) {
  // expected-error @+2 {{the mask must have i1 elements, got 'i8'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.masked_select %a[%m] : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4xi8> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @masked_select_rank(%a: !ndarray.ndarray<4xf64>, %m: !ndarray.ndarray<4x1xi1>) {
  // expected-error @+2 {{the mask must have rank 1 to 1 (the array's rank), got 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.masked_select %a[%m] : !ndarray.ndarray<4xf64>, !ndarray.ndarray<4x1xi1> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @masked_select_shape(%a: !ndarray.ndarray<4x3xf64>, %m: !ndarray.ndarray<4x2xi1>) {
  // expected-error @+2 {{the mask of shape [4, 2] does not match the leading dimensions [4, 3] of the array}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.masked_select %a[%m] : !ndarray.ndarray<4x3xf64>, !ndarray.ndarray<4x2xi1> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @flip_axes(%a: !ndarray.ndarray<4x2xf64>) {
  // expected-error @+2 {{flip axes must be sorted and unique, got [1, 0]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.flip %a [1, 0] : !ndarray.ndarray<4x2xf64> -> !ndarray.ndarray<4x2xf64>
  return
}

// -----

func.func @flip_axis_range(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{flip axis 1 is out of range [0, 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.flip %a [1] : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @sort_0d(%a: !ndarray.ndarray<f64>) {
  // expected-error @+2 {{cannot sort a 0-d array}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.sort %a axis 0 : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64>
  return
}

// -----

func.func @argsort_axis(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{sort axis 1 is out of range [0, 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argsort %a axis 1 : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xi64>
  return
}

// -----

func.func @argsort_type(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<4xi64>' are incompatible with return type(s) of operation '!ndarray.ndarray<4xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argsort %a axis 0 : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @searchsorted_rank(%s: !ndarray.ndarray<2x2xf64>, %v: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{the sorted array must be 1-d, got rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.searchsorted %s, %v : (!ndarray.ndarray<2x2xf64>, !ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xi64>
  return
}

// -----

func.func @searchsorted_types(%s: !ndarray.ndarray<4xf64>, %v: !ndarray.ndarray<4xf32>) {
  // expected-error @+2 {{the sorted array ('f64') and the values ('f32') must have the same element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.searchsorted %s, %v : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<4xf32>) -> !ndarray.ndarray<4xi64>
  return
}

// -----

func.func @take_indices(%a: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<2xf64>) {
  // expected-error @+2 {{the indices must be a 1-d integer array, got '!ndarray.ndarray<2xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.take %a[%i] axis 0 : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<2xf64>) -> !ndarray.ndarray<2xf64>
  return
}

// -----

func.func @take_axis(%a: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<2xi64>) {
  // expected-error @+2 {{take axis 1 is out of range [0, 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.take %a[%i] axis 1 : (!ndarray.ndarray<4xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<2xf64>
  return
}

// -----

func.func @put_indices(%a: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<2xi1>, %v: !ndarray.ndarray<2xf64>) {
  // expected-error @+2 {{the indices must be a 1-d integer array, got '!ndarray.ndarray<2xi1>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.put %v into %a[%i] axis 0 : (!ndarray.ndarray<2xf64>, !ndarray.ndarray<4xf64>, !ndarray.ndarray<2xi1>) -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @put_axis(%a: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<2xi64>, %v: !ndarray.ndarray<2xf64>) {
  // expected-error @+2 {{put axis -1 is out of range [0, 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.put %v into %a[%i] axis -1 : (!ndarray.ndarray<2xf64>, !ndarray.ndarray<4xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @put_values_shape(%a: !ndarray.ndarray<4x3xf64>, %i: !ndarray.ndarray<2xi64>, %v: !ndarray.ndarray<2x4xf64>) {
  // expected-error @+2 {{the values must have the shape [2, 3] and element type 'f64' (one element per index along axis 0), got '!ndarray.ndarray<2x4xf64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.put %v into %a[%i] axis 0 : (!ndarray.ndarray<2x4xf64>, !ndarray.ndarray<4x3xf64>, !ndarray.ndarray<2xi64>) -> !ndarray.ndarray<4x3xf64>
  return
}

// -----

func.func @put_values_type(%a: !ndarray.ndarray<4xf64>, %i: !ndarray.ndarray<?xi64>, %v: !ndarray.ndarray<?xf32>) {
  // expected-error @+2 {{the values must have the shape [?] and element type 'f64' (one element per index along axis 0), got '!ndarray.ndarray<?xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.put %v into %a[%i] axis 0 : (!ndarray.ndarray<?xf32>, !ndarray.ndarray<4xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<4xf64>
  return
}

// -----

// Complex numbers have no order.
func.func @complex_less(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{'less' requires real operands, got complex<f64> and complex<f64>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin less %a, %a : (!ndarray.ndarray<3xcomplex<f64>>, !ndarray.ndarray<3xcomplex<f64>>) -> !ndarray.ndarray<3xi1>
  return
}

// -----

func.func @complex_maximum(%a: !ndarray.ndarray<3xcomplex<f32>>, %b: !ndarray.ndarray<3xf32>) {
  // expected-error @+2 {{'maximum' requires real operands, got complex<f32> and f32}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin maximum %a, %b : (!ndarray.ndarray<3xcomplex<f32>>, !ndarray.ndarray<3xf32>) -> !ndarray.ndarray<3xcomplex<f32>>
  return
}

// -----

func.func @complex_floor_divide(%a: !ndarray.ndarray<3xcomplex<f32>>) {
  // expected-error @+2 {{'floor_divide' requires real numeric operands}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin floor_divide %a, %a : (!ndarray.ndarray<3xcomplex<f32>>, !ndarray.ndarray<3xcomplex<f32>>) -> !ndarray.ndarray<3xcomplex<f32>>
  return
}

// -----

func.func @complex_floor(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{'floor' requires a real numeric operand, got complex<f64>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny floor %a : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<3xcomplex<f64>>
  return
}

// -----

func.func @complex_erf(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{'erf' requires a real operand, got complex<f64>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny erf %a : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<3xcomplex<f64>>
  return
}

// -----

func.func @complex_nextafter(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{'nextafter' requires real operands}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewbin nextafter %a, %a : (!ndarray.ndarray<3xcomplex<f64>>, !ndarray.ndarray<3xcomplex<f64>>) -> !ndarray.ndarray<3xcomplex<f64>>
  return
}

// -----

func.func @complex_abs_type(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{inferred type(s) '!ndarray.ndarray<3xf64>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.ewuny abs %a : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<3xcomplex<f64>>
  return
}

// -----

func.func @complex_max(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{reduction 'max' requires a real element type, got complex<f64>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction max %a : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<complex<f64>>
  return
}

// -----

func.func @complex_var(%a: !ndarray.ndarray<3xcomplex<f32>>) {
  // expected-error @+2 {{reduction 'var' requires a real element type, got complex<f32>}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.reduction var %a : !ndarray.ndarray<3xcomplex<f32>> -> !ndarray.ndarray<f32>
  return
}

// -----

func.func @complex_sort(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{cannot sort complex numbers ('complex<f64>'): they have no order}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.sort %a axis 0 : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<3xcomplex<f64>>
  return
}

// -----

func.func @complex_argmax(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{argreduce of complex numbers ('complex<f64>'): they have no order}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.argreduce max %a : !ndarray.ndarray<3xcomplex<f64>> -> !ndarray.ndarray<i64>
  return
}

// -----

func.func @complex_searchsorted(%a: !ndarray.ndarray<3xcomplex<f64>>) {
  // expected-error @+2 {{searchsorted of complex numbers ('complex<f64>'): they have no order}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = ndarray.searchsorted %a, %a : (!ndarray.ndarray<3xcomplex<f64>>, !ndarray.ndarray<3xcomplex<f64>>) -> !ndarray.ndarray<3xi64>
  return
}

// -----

func.func @complex_linspace(%s: complex<f64>, %n: index) {
  // expected-error @+1 {{complex endpoints or elements are not supported}}
  %0 = ndarray.linspace %s, %s, %n : complex<f64> -> !ndarray.ndarray<?xcomplex<f64>>
  return
}

// -----

func.func @linalg_not_square(%a: !ndarray.ndarray<3x4xf64>) {
  // expected-error @+1 {{'inv' needs square matrices, not 3 x 4}}
  %0:2 = ndarray.linalg inv %a : (!ndarray.ndarray<3x4xf64>) -> (!ndarray.ndarray<3x4xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @linalg_integers(%a: !ndarray.ndarray<3x3xi64>) {
  // expected-error @+1 {{element type must be f32, f64, complex<f32> or complex<f64>, not 'i64'}}
  %0:2 = ndarray.linalg det %a : (!ndarray.ndarray<3x3xi64>) -> (!ndarray.ndarray<i64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @linalg_real_eigenvalues(%a: !ndarray.ndarray<3x3xcomplex<f64>>) {
  // expected-error @+1 {{result #0 must have shape (3) and element type 'f64'}}
  %0:2 = ndarray.linalg eigvalsh %a : (!ndarray.ndarray<3x3xcomplex<f64>>) -> (!ndarray.ndarray<3xcomplex<f64>>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @linalg_rhs(%a: !ndarray.ndarray<3x3xf64>, %b: !ndarray.ndarray<4x2xf64>) {
  // expected-error @+1 {{the right-hand sides must be a stack (3, ?) of the coefficient matrices' element type}}
  %0:2 = ndarray.linalg solve %a, %b : (!ndarray.ndarray<3x3xf64>, !ndarray.ndarray<4x2xf64>) -> (!ndarray.ndarray<3x2xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @linalg_status(%a: !ndarray.ndarray<3x3xf64>) {
  // expected-error @+1 {{'qr' has 3 results (the last the status)}}
  %0:2 = ndarray.linalg qr %a : (!ndarray.ndarray<3x3xf64>) -> (!ndarray.ndarray<3x3xf64>, !ndarray.ndarray<3x3xf64>)
  return
}

// -----

func.func @linalg_flag(%a: !ndarray.ndarray<3x3xf64>) {
  // expected-error @+1 {{'flag' is only meaningful for cholesky (upper), qr (complete) and svd (full matrices)}}
  %0:2 = ndarray.linalg det %a flag : (!ndarray.ndarray<3x3xf64>) -> (!ndarray.ndarray<f64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @fft_real_to_complex_kind(%r: !ndarray.ndarray<8xf64>) {
  // expected-error @+1 {{'forward' transforms complex to complex elements}}
  %0 = ndarray.fft forward %r axes [0] : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xcomplex<f64>>
  return
}

// -----

func.func @fft_r2c_size(%r: !ndarray.ndarray<8xf64>) {
  // expected-error @+1 {{result dimension 0 must be 5, not 8}}
  %0 = ndarray.fft r2c %r axes [0] : !ndarray.ndarray<8xf64> -> !ndarray.ndarray<8xcomplex<f64>>
  return
}

// -----

func.func @fft_c2r_length(%c: !ndarray.ndarray<4xcomplex<f32>>) {
  // expected-error @+1 {{c2r of length 8 takes 5 elements along the axis, not 4}}
  %0 = ndarray.fft c2r %c axes [0] length 8 : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<8xf32>
  return
}

// -----

func.func @fft_no_axes(%c: !ndarray.ndarray<4xcomplex<f32>>) {
  // expected-error @+1 {{transforms over at least one axis}}
  %0 = ndarray.fft forward %c axes [] : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f32>>
  return
}

// -----

func.func @fft_repeated_axis(%c: !ndarray.ndarray<4x4xcomplex<f32>>) {
  // expected-error @+1 {{axis 1 is repeated}}
  %0 = ndarray.fft forward %c axes [1, 1] : !ndarray.ndarray<4x4xcomplex<f32>> -> !ndarray.ndarray<4x4xcomplex<f32>>
  return
}

// -----

func.func @fft_axis_range(%c: !ndarray.ndarray<4x4xcomplex<f32>>) {
  // expected-error @+1 {{axis 2 is out of range [0, 2)}}
  %0 = ndarray.fft forward %c axes [0, 2] : !ndarray.ndarray<4x4xcomplex<f32>> -> !ndarray.ndarray<4x4xcomplex<f32>>
  return
}

// -----

func.func @fft_r2c_halves_last_axis(%r: !ndarray.ndarray<8x8xf64>) {
  // expected-error @+1 {{result dimension 0 must be 5, not 8}}
  %0 = ndarray.fft r2c %r axes [1, 0] : !ndarray.ndarray<8x8xf64> -> !ndarray.ndarray<8x5xcomplex<f64>>
  return
}

// -----

func.func @fft_precision(%c: !ndarray.ndarray<4xcomplex<f32>>) {
  // expected-error @+1 {{source and result must be f32/complex<f32> or f64/complex<f64>}}
  %0 = ndarray.fft forward %c axes [0] : !ndarray.ndarray<4xcomplex<f32>> -> !ndarray.ndarray<4xcomplex<f64>>
  return
}
