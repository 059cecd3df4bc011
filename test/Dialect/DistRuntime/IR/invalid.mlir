// RUN: imex-opt %s -split-input-file -verify-diagnostics

func.func @team_zero() -> index {
  // expected-error @+1 {{attribute 'team' failed to satisfy constraint: 64-bit signless integer attribute whose minimum value is 1}}
  %n = distruntime.team_size team = 0
  return %n : index
}

// -----

func.func @grid_dim_out_of_range() -> index {
  // expected-error @+1 {{'distruntime.grid_dim' op dim 2 is out of range for a grid of 2 dimension(s)}}
  %p = distruntime.grid_dim team = 1 ndims = 2 dim = 2
  return %p : index
}

// -----

func.func @grid_dim_zero_dims() -> index {
  // expected-error @+1 {{attribute 'ndims' failed to satisfy constraint}}
  %p = distruntime.grid_dim team = 1 ndims = 0 dim = 0
  return %p : index
}

// -----

func.func @team_negative() -> index {
  // expected-error @+1 {{attribute 'team' failed to satisfy constraint}}
  %r = "distruntime.team_member"() <{team = -1 : i64}> : () -> index
  return %r : index
}

// -----

func.func @team_result_type() -> i64 {
  // expected-error @+1 {{result #0 must be index}}
  %r = "distruntime.team_member"() <{team = 1 : i64}> : () -> i64
  return %r : i64
}

// -----

func.func @allreduce_dist(%a: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'input' must be a local array (without a dist environment)}}
  %0 = distruntime.allreduce sum %a team = 1 : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @exscan_dist(%a: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'input' must be a local array (without a dist environment)}}
  %0 = distruntime.exscan sum %a team = 1 : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @exscan_team(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{attribute 'team' failed to satisfy constraint}}
  %0 = distruntime.exscan sum %a team = 0 : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @allreduce_result_type(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{failed to verify that all of {input, result} have same type}}
  %0 = "distruntime.allreduce"(%a) <{kind = #distruntime<reduction sum>, team = 1 : i64}> : (!ndarray.ndarray<4xf64>) -> !ndarray.ndarray<4xf32>
  return
}

// -----

func.func @allreduce_not_array(%a: tensor<4xf64>) {
  // expected-error @+1 {{operand #0 must be local array}}
  %0 = "distruntime.allreduce"(%a) <{kind = #distruntime<reduction sum>, team = 1 : i64}> : (tensor<4xf64>) -> tensor<4xf64>
  return
}

// -----

func.func @allreduce_bad_kind(%a: !ndarray.ndarray<4xf64>) {
  // expected-error @+2 {{expected one of [sum, prod, min, max, land, lor] for element-wise reduction over the ranks of a team (IDTR_OP_*), got: mean}}
  // expected-error @+1 {{failed to parse DistRuntime_ReductionKindAttr parameter 'value'}}
  %0 = distruntime.allreduce mean %a team = 1 : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @halo_rank0(%a: !ndarray.ndarray<f64>) {
  // expected-error @+1 {{'data' must have rank >= 1 (distributed arrays are split on dimension 0)}}
  %h, %l, %r = distruntime.get_halo %a global_shape[] local_offsets[] bb_offsets[] bb_sizes[] team = 1 : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64>, !ndarray.ndarray<f64>
  return
}

// -----

func.func @halo_list_size(%a: !ndarray.ndarray<?x4xf64>, %i: index) {
  // expected-error @+1 {{expects 2 value(s) in 'bb_offsets' (the rank of 'data'), got 1}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i, %i] local_offsets[%i, %i] bb_offsets[%i] bb_sizes[%i, %i] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>
  return
}

// -----

func.func @halo_rank(%a: !ndarray.ndarray<?x4xf64>, %i: index) {
  // expected-error @+1 {{'rhalo' must have the rank of 'data' (2), got 1}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i, %i] local_offsets[%i, %i] bb_offsets[%i, %i] bb_sizes[%i, %i] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @halo_element_type(%a: !ndarray.ndarray<?x4xf64>, %i: index) {
  // expected-error @+1 {{element type of 'lhalo' ('f32') differs from 'data' ('f64')}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i, %i] local_offsets[%i, %i] bb_offsets[%i, %i] bb_sizes[%i, %i] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf32>, !ndarray.ndarray<?x4xf64>
  return
}

// -----

func.func @halo_columns(%a: !ndarray.ndarray<?x4xf64>, %i: index) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'lhalo' has size 4 in dimension 1 but bb_sizes[1] is 3}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i, %i] local_offsets[%i, %i] bb_offsets[%i, %i] bb_sizes[%i, %c3] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x3xf64>
  return
}

// -----

// Owned rows [4, 8), box rows [2, 9): 2 rows before, 1 after.
func.func @halo_rows(%a: !ndarray.ndarray<4xf64>, %i: index) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  // expected-error @+1 {{'rhalo' has size 2 in dimension 0 but the number of bounding-box rows after the owned rows is 1}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i] local_offsets[%c4] bb_offsets[%c2] bb_sizes[%c7] team = 1 : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<2xf64>, !ndarray.ndarray<2xf64>
  return
}

// -----

func.func @halo_dist_result(%a: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{'rhalo' must be a local array (without a dist environment)}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i] local_offsets[%i] bb_offsets[%i] bb_sizes[%i] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @halo_key(%a: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{expected attribute value}}
  %h, %l, %r = distruntime.get_halo %a global_shape[%i] local_offsets[%i] bb_offsets[%i] bb_sizes[%i] team = 1 key = x : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @reshape_count(%a: !ndarray.ndarray<?x3xi8>, %i: index) {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  // expected-error @+1 {{cannot reshape a global array of 12 elements into one of 10 elements}}
  %h, %o = distruntime.copy_reshape %a global_shape_in[%c4, %c3] local_offsets_in[%i, %i] global_shape_out[%c10] local_offsets_out[%i] local_shape_out[%i] team = 1 : !ndarray.ndarray<?x3xi8> -> !ndarray.ndarray<?xi8>
  return
}

// -----

func.func @reshape_list(%a: !ndarray.ndarray<?x3xi8>, %i: index) {
  // expected-error @+1 {{expects 1 value(s) in 'local_shape_out' (the rank of 'output'), got 2}}
  %h, %o = distruntime.copy_reshape %a global_shape_in[%i, %i] local_offsets_in[%i, %i] global_shape_out[%i] local_offsets_out[%i] local_shape_out[%i, %i] team = 1 : !ndarray.ndarray<?x3xi8> -> !ndarray.ndarray<?xi8>
  return
}

// -----

func.func @reshape_static_size(%a: !ndarray.ndarray<?x3xi8>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'output' has size 6 in dimension 0 but local_shape_out[0] is 5}}
  %h, %o = distruntime.copy_reshape %a global_shape_in[%i, %i] local_offsets_in[%i, %i] global_shape_out[%i] local_offsets_out[%i] local_shape_out[%c5] team = 1 : !ndarray.ndarray<?x3xi8> -> !ndarray.ndarray<6xi8>
  return
}

// -----

func.func @reshape_element_type(%a: !ndarray.ndarray<?x3xi8>, %i: index) {
  // expected-error @+1 {{element type of 'output' ('ui8') differs from 'input' ('i8')}}
  %h, %o = distruntime.copy_reshape %a global_shape_in[%i, %i] local_offsets_in[%i, %i] global_shape_out[%i] local_offsets_out[%i] local_shape_out[%i] team = 1 : !ndarray.ndarray<?x3xi8> -> !ndarray.ndarray<?xui8>
  return
}

// -----

func.func @permute_not_permutation(%a: !ndarray.ndarray<?x?xf64>, %i: index) {
  // expected-error @+1 {{'permutation' [0, 0] is not a permutation of 0..1}}
  %h, %t = distruntime.copy_permute %a permutation = [0, 0] global_shape_in[%i, %i] local_offsets_in[%i, %i] local_offsets_out[%i, %i] local_shape_out[%i, %i] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @permute_length(%a: !ndarray.ndarray<?x?xf64>, %i: index) {
  // expected-error @+1 {{'permutation' [2, 0, 1] is not a permutation of 0..1}}
  %h, %t = distruntime.copy_permute %a permutation = [2, 0, 1] global_shape_in[%i, %i] local_offsets_in[%i, %i] local_offsets_out[%i, %i] local_shape_out[%i, %i] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @permute_rank(%a: !ndarray.ndarray<?x?xf64>, %i: index) {
  // expected-error @+1 {{'output' must have the rank of 'input' (2), got 1}}
  %h, %t = distruntime.copy_permute %a permutation = [1, 0] global_shape_in[%i, %i] local_offsets_in[%i, %i] local_offsets_out[%i, %i] local_shape_out[%i, %i] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @permute_full_dims(%a: !ndarray.ndarray<?x?xf64>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'output' has size 4 in dimension 1 but global_shape_in[0] is 5}}
  %h, %t = distruntime.copy_permute %a permutation = [1, 0] global_shape_in[%c5, %i] local_offsets_in[%i, %i] local_offsets_out[%i, %i] local_shape_out[%i, %i] team = 1 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x4xf64>
  return
}

// -----

func.func @wait_missing_output(%a: !ndarray.ndarray<?xf64>, %i: index) {
  %h, %l, %r = distruntime.get_halo %a global_shape[%i] local_offsets[%i] bb_offsets[%i] bb_sizes[%i] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  // expected-error @+1 {{expects the 3 arrays of the 'distruntime.get_halo' that produced the handle (its input, then its outputs), got 2}}
  %w:2 = distruntime.wait %h, %a, %l : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @wait_order(%a: !ndarray.ndarray<?xf64>, %i: index) {
  %h, %l, %r = distruntime.get_halo %a global_shape[%i] local_offsets[%i] bb_offsets[%i] bb_sizes[%i] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  // expected-error @+1 {{array #1 must be the output #0 of the 'distruntime.get_halo' that produced the handle}}
  %w:3 = distruntime.wait %h, %a, %r, %l : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @wait_other_input(%a: !ndarray.ndarray<?xf64>, %b: !ndarray.ndarray<?xf64>, %i: index) {
  %h, %o = distruntime.copy_reshape %a global_shape_in[%i] local_offsets_in[%i] global_shape_out[%i] local_offsets_out[%i] local_shape_out[%i] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  // expected-error @+1 {{array #0 must be the input of the 'distruntime.copy_reshape' that produced the handle}}
  %w:2 = distruntime.wait %h, %b, %o : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @wait_result_types(%a: !ndarray.ndarray<?xf64>, %i: index) {
  %h, %o = distruntime.copy_reshape %a global_shape_in[%i] local_offsets_in[%i] global_shape_out[%i] local_offsets_out[%i] local_shape_out[%i] team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  // expected-error @+2 {{'distruntime.wait' op failed to infer returned types}}
  // expected-error @+1 {{'distruntime.wait' op inferred type(s) '!ndarray.ndarray<?xf64>', '!ndarray.ndarray<?xf64>' are incompatible with return type(s) of operation '!ndarray.ndarray<?xf64>', '!ndarray.ndarray<4xf64>'}}
  %w:2 = "distruntime.wait"(%h, %a, %o) : (!distruntime.asynchandle, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> (!ndarray.ndarray<?xf64>, !ndarray.ndarray<4xf64>)
  return
}

// -----

func.func @wait_bad_producer(%a: !ndarray.ndarray<?xf64>) {
  %h = builtin.unrealized_conversion_cast to !distruntime.asynchandle
  // expected-error @+1 {{handle must be produced by distruntime.get_halo, distruntime.copy_reshape, distruntime.copy_permute, distruntime.repartition or distruntime.fetch_boxes (or be a block argument), not by 'builtin.unrealized_conversion_cast'}}
  %w = distruntime.wait %h, %a : !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @wait_too_many(%h: !distruntime.asynchandle, %a: !ndarray.ndarray<?xf64>) {
  // expected-error @+1 {{expects 1 to 3 arrays (the input and the outputs of the exchange), got 4}}
  %w:4 = distruntime.wait %h, %a, %a, %a, %a : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @wait_none(%h: !distruntime.asynchandle) {
  // expected-error @+1 {{expects 1 to 3 arrays (the input and the outputs of the exchange), got 0}}
  distruntime.wait %h
  return
}

// -----

func.func @forget_plan_negative_key() {
  // expected-error @+1 {{'distruntime.forget_plan' op attribute 'key' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  distruntime.forget_plan team = 1 key = -1
  return
}

// -----

func.func @ordered_reduce_kind(%a: !ndarray.ndarray<?x4xf64>, %o: index, %n: index) {
  // expected-error @+1 {{reduces with sum or prod, got 'max'}}
  %0 = distruntime.ordered_reduce max %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<1x4xf64>
  return
}

// -----

func.func @ordered_reduce_integers(%a: !ndarray.ndarray<?x4xi64>, %o: index, %n: index) {
  // expected-error @+1 {{reduces floating point or complex arrays (whose sums depend on the order), got 'i64'}}
  %0 = distruntime.ordered_reduce sum %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xi64> -> !ndarray.ndarray<1x4xi64>
  return
}

// -----

func.func @ordered_reduce_rows(%a: !ndarray.ndarray<?x4xf64>, %o: index, %n: index) {
  // expected-error @+1 {{result must be one row of the shape and element type of 'input' ('!ndarray.ndarray<?x4xf64>'), got '!ndarray.ndarray<2x4xf64>'}}
  %0 = distruntime.ordered_reduce sum %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<2x4xf64>
  return
}

// -----

func.func @ordered_reduce_shape(%a: !ndarray.ndarray<?x4xf32>, %o: index, %n: index) {
  // expected-error @+1 {{result must be one row of the shape and element type of 'input' ('!ndarray.ndarray<?x4xf32>'), got '!ndarray.ndarray<1x3xf32>'}}
  %0 = distruntime.ordered_reduce sum %a offset %o rows %n team = 1 : !ndarray.ndarray<?x4xf32> -> !ndarray.ndarray<1x3xf32>
  return
}

// -----

func.func @sample_sort_rank(%a: !ndarray.ndarray<?x2xf64>, %o: index, %n: index) {
  // expected-error @+1 {{sorts 1-d blocks, got 'input' of rank 2 and a result of rank 2}}
  %0 = distruntime.sample_sort %a offset %o rows %n team = 1 : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @sample_sort_indices(%a: !ndarray.ndarray<?xf64>, %o: index, %n: index) {
  // expected-error @+1 {{result element type must be 'i64' (indices), got 'f64'}}
  %0 = distruntime.sample_sort %a offset %o rows %n indices team = 1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @take_indices(%a: !ndarray.ndarray<?x2xf64>, %i: !ndarray.ndarray<?xi32>, %o: index, %n: index) {
  // expected-error @+1 {{'indices' must be a 1-d i64 array}}
  %0 = distruntime.take %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @take_result(%a: !ndarray.ndarray<?x2xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) {
  // expected-error @+1 {{the result must be rows of 'input'}}
  %0 = distruntime.take %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x3xf64>
  return
}

// -----

func.func @ragged_alltoall_rows(%s: !ndarray.ndarray<?x2xf64>, %t: !ndarray.ndarray<?xindex>, %o: !ndarray.ndarray<?x3xf64>) {
  // expected-error @+1 {{'send' ('!ndarray.ndarray<?x2xf64>') and 'output' ('!ndarray.ndarray<?x3xf64>') must be arrays of rows of the same shape and element type}}
  %0 = distruntime.ragged_alltoall %s send_offsets %t send_sizes %t into %o output_offsets %t recv_sizes %t team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>) -> !ndarray.ndarray<?x3xf64>
  return
}

// -----

func.func @ragged_alltoall_table(%s: !ndarray.ndarray<?x2xf64>, %t: !ndarray.ndarray<?xindex>, %u: !ndarray.ndarray<?xi64>, %o: !ndarray.ndarray<?x2xf64>) {
  // expected-error @+1 {{'recv_sizes' must be a 1-d index array, got '!ndarray.ndarray<?xi64>'}}
  %0 = distruntime.ragged_alltoall %s send_offsets %t send_sizes %t into %o output_offsets %t recv_sizes %u team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xindex>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @put_indices(%a: !ndarray.ndarray<?x2xf64>, %i: !ndarray.ndarray<?xi32>, %o: index, %n: index) {
  // expected-error @+1 {{'indices' must be a 1-d i64 array, got '!ndarray.ndarray<?xi32>'}}
  %0 = distruntime.put %a into %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi32>) -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @put_values(%a: !ndarray.ndarray<?x2xf64>, %v: !ndarray.ndarray<?x3xf64>, %i: !ndarray.ndarray<?xi64>, %o: index, %n: index) {
  // expected-error @+1 {{'values' must be rows of 'data' ('!ndarray.ndarray<?x2xf64>'), got '!ndarray.ndarray<?x3xf64>'}}
  %0 = distruntime.put %v into %a offset %o rows %n indices %i team = 1 : (!ndarray.ndarray<?x3xf64>, !ndarray.ndarray<?x2xf64>, !ndarray.ndarray<?xi64>) -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @gather_root_static(%a: !ndarray.ndarray<?x2xf64>, %o: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{gathers to one rank, so the output has no rows on the others: its dimension 0 must be dynamic, got '!ndarray.ndarray<8x2xf64>'}}
  %0 = distruntime.gather %a global_shape[%c0, %c2] local_offsets[%o, %c0] root = 0 team = 1 : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<8x2xf64>
  return
}

// -----

func.func @gather_shape(%a: !ndarray.ndarray<?x2xf64>, %o: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'output' has size 3 in dimension 1 but global_shape[1] is 2}}
  %0 = distruntime.gather %a global_shape[%c0, %c2] local_offsets[%o, %c0] team = 1 : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x3xf64>
  return
}

// -----

func.func @gather_list(%a: !ndarray.ndarray<?x2xf64>, %o: index) {
  // expected-error @+1 {{expects 2 value(s) in 'local_offsets' (the rank of 'input'), got 1}}
  %0 = distruntime.gather %a global_shape[%o, %o] local_offsets[%o] team = 1 : !ndarray.ndarray<?x2xf64> -> !ndarray.ndarray<?x2xf64>
  return
}

// -----

func.func @repartition_size(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'output' has size 3 in dimension 1 but target_sizes[1] is 2}}
  %h, %b = distruntime.repartition %a global_shape[%o, %c2] local_offsets[%o, %c0] target_offsets[%c0, %c0] target_sizes[%o, %c2] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x3xf64>
  return
}

// -----

func.func @repartition_rank(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  // expected-error @+1 {{the output ('!ndarray.ndarray<?xf64>') must have the rank of the input ('!ndarray.ndarray<?x4xf64>')}}
  %h, %b = distruntime.repartition %a global_shape[%o, %o] local_offsets[%o, %o] target_offsets[%o] target_sizes[%o] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @allreduce_complex_max(%a: !ndarray.ndarray<4xcomplex<f64>>) {
  // expected-error @+1 {{reduction 'max' of complex numbers ('complex<f64>'): they have no order}}
  %0 = distruntime.allreduce max %a team = 1 : !ndarray.ndarray<4xcomplex<f64>>
  return
}

// -----

func.func @exscan_complex_min(%a: !ndarray.ndarray<4xcomplex<f32>>) {
  // expected-error @+1 {{reduction 'min' of complex numbers ('complex<f32>'): they have no order}}
  %0 = distruntime.exscan min %a team = 1 : !ndarray.ndarray<4xcomplex<f32>>
  return
}

// -----

func.func @fetch_boxes_count(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  // expected-error @+1 {{expects 4 box_offsets and box_sizes (2 per output), got 2 and 4}}
  %h, %b, %c = distruntime.fetch_boxes %a global_shape[%o, %o] local_offsets[%o, %o] box_offsets[%o, %o] box_sizes[%o, %o, %o, %o] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>
  return
}

// -----

func.func @fetch_boxes_size(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'output' has size 4 in dimension 1 but box_sizes of output #1[1] is 2}}
  %h, %b, %c = distruntime.fetch_boxes %a global_shape[%o, %o] local_offsets[%o, %o] box_offsets[%o, %o, %o, %o] box_sizes[%o, %o, %o, %c2] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>
  return
}

// -----

func.func @fetch_boxes_wait(%a: !ndarray.ndarray<?x4xf64>, %o: index) {
  %h, %b, %c = distruntime.fetch_boxes %a global_shape[%o, %o] local_offsets[%o, %o] box_offsets[%o, %o, %o, %o] box_sizes[%o, %o, %o, %o] team = 1 : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>
  // expected-error @+1 {{expects the 3 arrays of the 'distruntime.fetch_boxes' that produced the handle (its input, then its outputs), got 2}}
  %0:2 = distruntime.wait %h, %a, %b : !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @matrix_linalg_arity(%a: !ndarray.ndarray<?x4xf64>) {
  // expected-error @+1 {{'solve' takes 2 input(s) and returns 2 result(s) (the last the status), got 1 and 2}}
  %x, %s = distruntime.matrix_linalg solve %a team = 1 : (!ndarray.ndarray<?x4xf64>) -> (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_qr_rows(%a: !ndarray.ndarray<?x4xf64>) {
  // expected-error @+1 {{'qr' takes 1 'rows' operand(s), got 0}}
  %q:3 = distruntime.matrix_linalg qr %a team = 1 : (!ndarray.ndarray<?x4xf64>) -> (!ndarray.ndarray<?x4xf64>, !ndarray.ndarray<?x4xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_singular_values(%a: !ndarray.ndarray<?x4xcomplex<f64>>) {
  // expected-error @+1 {{result #0 must be a vector of 'f64', got '!ndarray.ndarray<?xcomplex<f64>>'}}
  %s:2 = distruntime.matrix_linalg svdvals %a team = 1 : (!ndarray.ndarray<?x4xcomplex<f64>>) -> (!ndarray.ndarray<?xcomplex<f64>>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_integer(%a: !ndarray.ndarray<?x4xi64>) {
  // expected-error @+1 {{matrices must be f32, f64, complex<f32> or complex<f64>, not 'i64'}}
  %x, %s = distruntime.matrix_linalg inv %a team = 1 : (!ndarray.ndarray<?x4xi64>) -> (!ndarray.ndarray<?x4xi64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_logabsdet(%a: !ndarray.ndarray<?x4xcomplex<f32>>) {
  // expected-error @+1 {{result #1 must be a 0-d array of 'f32', got '!ndarray.ndarray<complex<f32>>'}}
  %d:3 = distruntime.matrix_linalg slogdet %a team = 1 : (!ndarray.ndarray<?x4xcomplex<f32>>) -> (!ndarray.ndarray<complex<f32>>, !ndarray.ndarray<complex<f32>>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_stack(%a: !ndarray.ndarray<?x4x4xf64>) {
  // expected-error @+1 {{'a' must be this rank's rows of a matrix (rank 2), got '!ndarray.ndarray<?x4x4xf64>'}}
  %x, %s = distruntime.matrix_linalg inv %a team = 1 : (!ndarray.ndarray<?x4x4xf64>) -> (!ndarray.ndarray<?x4x4xf64>, !ndarray.ndarray<i64>)
  return
}

// -----

func.func @matrix_linalg_eigenvalues(%a: !ndarray.ndarray<?x4xcomplex<f64>>) {
  // expected-error @+1 {{result #0 must be a vector of 'f64', got '!ndarray.ndarray<4xcomplex<f64>>'}}
  %w, %s = distruntime.matrix_linalg eigvalsh %a team = 1 : (!ndarray.ndarray<?x4xcomplex<f64>>) -> (!ndarray.ndarray<4xcomplex<f64>>, !ndarray.ndarray<i64>)
  return
}
