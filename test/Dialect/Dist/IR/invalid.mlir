// RUN: imex-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// #dist.dist_env and the array type
//===----------------------------------------------------------------------===//

// expected-error @+1 {{dist_env team must be >= 1, got 0}}
func.func @team(%a: !ndarray.ndarray<f64, #dist.dist_env<team = 0>>)

// -----

// The partition is not part of the type (it is known at run time only).
// expected-error @+1 {{expected '>'}}
func.func @partition_in_type(%a: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1 loffs = ? lparts = 0,?,0>>)

// -----

// expected-error @+1 {{'ndarray.create' op attribute 'dist.team' must be a positive signless integer or index, got 0 : i64}}
%0 = ndarray.create {dist.team = 0 : i64} : !ndarray.ndarray<4xf64>

// -----

// expected-error @+1 {{'ndarray.create' op attribute 'dist.team' must be a positive signless integer or index, got "world"}}
%0 = ndarray.create {dist.team = "world"} : !ndarray.ndarray<4xf64>

// -----

// expected-error @+1 {{'ndarray.create' op attribute 'dist.team' must be a positive signless integer or index, got 1 : ui64}}
%0 = ndarray.create {dist.team = 1 : ui64} : !ndarray.ndarray<4xf64>

// -----

// Arrays of different teams do not mix.
func.func @teams_mix(%a: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %b: !ndarray.ndarray<?xf64, #dist.dist_env<team = 2>>) {
  // expected-error @+1 {{'ndarray.ewbin' op requires arrays in compatible environments}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<?xf64, #dist.dist_env<team = 2>>) -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

//===----------------------------------------------------------------------===//
// dist.init_dist_array
//===----------------------------------------------------------------------===//

// -----

func.func @init_old_parts(%p: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{expected SSA operand}}
  %0 = dist.init_dist_array parts(%p, %p, %p) offsets(%i) shape(%i) : !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_num_offsets(%p: !ndarray.ndarray<?x4xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op expects one offset per dimension (2), got 1}}
  %0 = dist.init_dist_array %p offsets(%i) shape(%i, %i) : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_num_sizes(%p: !ndarray.ndarray<?x4xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op expects one global size per dimension (2), got 3}}
  %0 = dist.init_dist_array %p offsets(%i, %i) shape(%i, %i, %i) : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_dist_part(%p: !ndarray.ndarray<f64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.init_dist_array' op operand #0 must be local ndarray (without a #dist.dist_env)}}
  %0 = dist.init_dist_array %p : !ndarray.ndarray<f64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_local_result(%p: !ndarray.ndarray<f64>) {
  // expected-error @+1 {{'dist.init_dist_array' op result #0 must be distributed ndarray (with a #dist.dist_env)}}
  %0 = dist.init_dist_array %p : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64>
  return
}

// -----

func.func @init_block_element_type(%p: !ndarray.ndarray<?xf64>, %q: !ndarray.ndarray<?xf32>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op the block has type '!ndarray.ndarray<?xf32>', which is not a local array of type '!ndarray.ndarray<?xf64>' (the array's block)}}
  %0 = dist.init_dist_array %q offsets(%i) shape(%i) : !ndarray.ndarray<?xf32> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_block_rank(%p: !ndarray.ndarray<?xf64>, %q: !ndarray.ndarray<?x1xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op the block has type '!ndarray.ndarray<?x1xf64>', which is not a local array of type '!ndarray.ndarray<?xf64>' (the array's block)}}
  %0 = dist.init_dist_array %q offsets(%i) shape(%i) : !ndarray.ndarray<?x1xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_block_environment(%p: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op the block has type '!ndarray.ndarray<?xf64>', which is not a local array of type '!ndarray.ndarray<?xf64, #region.gpu_env<device = "g">>' (the array's block)}}
  %0 = dist.init_dist_array %p offsets(%i) shape(%i) : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>, #region.gpu_env<device = "g">>
  return
}

// -----

func.func @init_block_columns(%p: !ndarray.ndarray<?x8xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op the block has type '!ndarray.ndarray<?x8xf64>', which is not a local array of type '!ndarray.ndarray<?x16xf64>' (the array's block)}}
  %0 = dist.init_dist_array %p offsets(%i, %i) shape(%i, %i) : !ndarray.ndarray<?x8xf64> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_global_size(%p: !ndarray.ndarray<?xf64>, %i: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'dist.init_dist_array' op global size 5 of dimension 0 differs from the static size 4 of the result}}
  %0 = dist.init_dist_array %p offsets(%i) shape(%c5) : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_offset_dim1(%p: !ndarray.ndarray<?x4xf64>, %i: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'dist.init_dist_array' op offset of dimension 1 must be 0 (it is not split: every rank holds all of it), got 1}}
  %0 = dist.init_dist_array %p offsets(%i, %c1) shape(%i, %i) : !ndarray.ndarray<?x4xf64> -> !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @owned_block_0d(%d: !ndarray.ndarray<i32, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.owned_block_of' op result has type '!ndarray.ndarray<i64>', which is not a local array of type '!ndarray.ndarray<i32>' (the array's block)}}
  %0 = dist.owned_block_of %d : !ndarray.ndarray<i32, #dist.dist_env<team = 1>> -> !ndarray.ndarray<i64>
  return
}

// -----

func.func @owned_block_rank(%d: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.owned_block_of' op result has type '!ndarray.ndarray<?xf64>', which is not a local array of type '!ndarray.ndarray<?x4xf64>' (the array's block)}}
  %0 = dist.owned_block_of %d : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @held_block_columns(%d: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.held_block_of' op result has type '!ndarray.ndarray<?x5xf64>', which is not a local array of type '!ndarray.ndarray<?x4xf64>' (the array's block)}}
  %0 = dist.held_block_of %d : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x5xf64>
  return
}

// -----

func.func @held_block_local(%a: !ndarray.ndarray<?xf64>) {
  // expected-error @+1 {{'dist.held_block_of' op operand #0 must be distributed ndarray (with a #dist.dist_env), but got '!ndarray.ndarray<?xf64>'}}
  %0 = dist.held_block_of %a : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @local_offsets_local(%a: !ndarray.ndarray<?xf64>) {
  // expected-error @+1 {{'dist.local_offsets_of' op operand #0 must be distributed ndarray (with a #dist.dist_env), but got '!ndarray.ndarray<?xf64>'}}
  %0 = dist.local_offsets_of %a : !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @local_offsets_count(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+2 {{'dist.local_offsets_of' op inferred type(s) 'index' are incompatible with return type(s) of operation 'index', 'index'}}
  // expected-error @+1 {{'dist.local_offsets_of' op failed to infer returned types}}
  %0:2 = "dist.local_offsets_of"(%d) : (!ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) -> (index, index)
  return
}

//===----------------------------------------------------------------------===//
// dist.default_partition
//===----------------------------------------------------------------------===//

// -----

func.func @partition_rank0(%i: index) {
  // expected-error @+1 {{'dist.default_partition' op expects a global shape of rank >= 1}}
  dist.default_partition %i, %i shape()
  return
}

// -----

func.func @partition_nprocs(%i: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dist.default_partition' op number of ranks must be positive, got 0}}
  %0:2 = dist.default_partition %c0, %i shape(%i)
  return
}

// -----

func.func @partition_negative_rank(%i: index) {
  %c-1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.default_partition' op rank must be non-negative, got -1}}
  %0:2 = dist.default_partition %i, %c-1 shape(%i)
  return
}

// -----

func.func @partition_rank_range(%i: index) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'dist.default_partition' op rank 4 is out of range for 4 rank(s)}}
  %0:2 = dist.default_partition %c4, %c4 shape(%i)
  return
}

// -----

func.func @partition_size(%i: index) {
  %c-3 = arith.constant -3 : index
  // expected-error @+1 {{'dist.default_partition' op global size of dimension 1 must be non-negative, got -3}}
  %0:4 = dist.default_partition %i, %i shape(%i, %c-3)
  return
}

// -----

func.func @partition_results(%i: index) {
  // expected-error @+2 {{'dist.default_partition' op inferred type(s) 'index', 'index' are incompatible with return type(s) of operation 'index', 'index', 'index'}}
  // expected-error @+1 {{'dist.default_partition' op failed to infer returned types}}
  %0:3 = "dist.default_partition"(%i, %i, %i) : (index, index, index) -> (index, index, index)
  return
}

//===----------------------------------------------------------------------===//
// dist.local_target_of_slice
//===----------------------------------------------------------------------===//

// -----

func.func @target_0d(%d: !ndarray.ndarray<f64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.local_target_of_slice' op expects a distributed array of rank >= 1}}
  dist.local_target_of_slice %d[] [] [] : !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_stride(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.local_target_of_slice' op strides must be positive, got 0}}
  %0:2 = dist.local_target_of_slice %d[0] [4] [0] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_bounds(%d: !ndarray.ndarray<10xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.local_target_of_slice' op slice is out of bounds}}
  %0:2 = dist.local_target_of_slice %d[8] [4] [1] : !ndarray.ndarray<10xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_num_offsets(%d: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2)}}
  %0:4 = dist.local_target_of_slice %d[0] [1, 4] [1, 1] : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_num_entries(%d: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{expected 2 offset values, got 1}}
  %0:4 = dist.local_target_of_slice %d[0] [1] [1] : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_local(%a: !ndarray.ndarray<?xf64>) {
  // expected-error @+1 {{'dist.local_target_of_slice' op operand #0 must be distributed ndarray (with a #dist.dist_env), but got '!ndarray.ndarray<?xf64>'}}
  %0:2 = dist.local_target_of_slice %a[0] [4] [1] : !ndarray.ndarray<?xf64>
  return
}

//===----------------------------------------------------------------------===//
// dist.local_bounding_box
//===----------------------------------------------------------------------===//

// -----

func.func @bb_rank0() {
  // expected-error @+1 {{'dist.local_bounding_box' op expects at least one dimension}}
  dist.local_bounding_box view[] [] [] target[] []
  return
}

// -----

func.func @bb_view_sizes(%i: index) {
  // expected-error @+1 {{'dist.local_bounding_box' op expects one view size per dimension (1), got 2}}
  %0:2 = dist.local_bounding_box view[%i] [%i, %i] [%i] target[%i] [%i]
  return
}

// -----

func.func @bb_view_strides(%i: index) {
  // expected-error @+1 {{'dist.local_bounding_box' op expects one view stride per dimension (2), got 1}}
  %0:4 = dist.local_bounding_box view[%i, %i] [%i, %i] [%i] target[%i, %i] [%i, %i]
  return
}

// -----

func.func @bb_target_offsets(%i: index) {
  // expected-error @+1 {{'dist.local_bounding_box' op expects one target offset per dimension (1), got 0}}
  %0:2 = dist.local_bounding_box view[%i] [%i] [%i] target[] [%i]
  return
}

// -----

func.func @bb_target_sizes(%i: index) {
  // expected-error @+1 {{'dist.local_bounding_box' op expects one target size per dimension (1), got 2}}
  %0:2 = dist.local_bounding_box view[%i] [%i] [%i] target[%i] [%i, %i]
  return
}

// -----

func.func @bb_incoming(%i: index) {
  // expected-error @+1 {{'dist.local_bounding_box' op expects the incoming bounding box to have one offset and one size per dimension (1), got 1 offset(s) and 2 size(s)}}
  %0:2 = dist.local_bounding_box view[%i] [%i] [%i] target[%i] [%i] bb[%i] [%i, %i]
  return
}

// -----

func.func @bb_stride(%i: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dist.local_bounding_box' op view strides must be positive, got 0}}
  %0:2 = dist.local_bounding_box view[%i] [%i] [%c0] target[%i] [%i]
  return
}

//===----------------------------------------------------------------------===//
// dist.local_core
//===----------------------------------------------------------------------===//

// -----

func.func @core_0d(%d: !ndarray.ndarray<f64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.local_core' op expects a distributed array of rank >= 1}}
  dist.local_core %d target[] [] view[] [] [] : !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_target_offsets(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects one target offset per dimension (1), got 2}}
  %0:2 = dist.local_core %d target[%i, %i] [%i] view[%i] [%i] [%i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_target_sizes(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects one target size per dimension (1), got 0}}
  %0:2 = dist.local_core %d target[%i] [] view[%i] [%i] [%i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_view_offsets(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects one view offset per dimension (1), got 2}}
  %0:2 = dist.local_core %d target[%i] [%i] view[%i, %i] [%i] [%i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_view_sizes(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects one view size per dimension (1), got 0}}
  %0:2 = dist.local_core %d target[%i] [%i] view[%i] [] [%i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_view_strides(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects one view stride per dimension (1), got 2}}
  %0:2 = dist.local_core %d target[%i] [%i] view[%i] [%i] [%i, %i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_incoming(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_core' op expects the incoming core to have one offset and one size per dimension (1), got 2 offset(s) and 1 size(s)}}
  %0:2 = dist.local_core %d target[%i] [%i] view[%i] [%i] [%i] core[%i, %i] [%i] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @core_stride(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  %c-2 = arith.constant -2 : index
  // expected-error @+1 {{'dist.local_core' op view strides must be positive, got -2}}
  %0:2 = dist.local_core %d target[%i] [%i] view[%i] [%i] [%c-2] : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

//===----------------------------------------------------------------------===//
// dist.repartition
//===----------------------------------------------------------------------===//

// -----

func.func @repartition_team(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op source and result must be distributed over the same team, got teams 1 and 2}}
  %0 = dist.repartition %d offset %i size %i : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 2>>
  return
}

// -----

func.func @repartition_element_type(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op result element type 'f32' differs from the source's 'f64'}}
  %0 = dist.repartition %d offset %i size %i : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf32, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_0d(%d: !ndarray.ndarray<f64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op expects arrays of rank >= 1 (0-d arrays are replicated)}}
  %0 = dist.repartition %d offset %i size %i : !ndarray.ndarray<f64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_shape(%d: !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op result shape [?, 5] is incompatible with the source shape [?, 4]}}
  %0 = dist.repartition %d offset %i size %i : !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x5xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_environments(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op source and result must have the same environments besides #dist.dist_env}}
  %0 = dist.repartition %d offset %i size %i : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>, #region.gpu_env<device = "g">>
  return
}

// -----

func.func @repartition_local(%a: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op operand #0 must be distributed ndarray (with a #dist.dist_env), but got '!ndarray.ndarray<?xf64>'}}
  %0 = dist.repartition %a offset %i size %i : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_offset(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  %c-1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.repartition' op offset must be non-negative, got -1}}
  %0 = dist.repartition %d offset %c-1 size %i : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_size(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  %c-1 = arith.constant -1 : index
  // expected-error @+1 {{'dist.repartition' op size must be non-negative, got -1}}
  %0 = dist.repartition %d offset %i size %c-1 : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @repartition_rows(%d: !ndarray.ndarray<10xf64, #dist.dist_env<team = 1>>) {
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  // expected-error @+1 {{'dist.repartition' op rows [7, 7 + 4) exceed the 10 rows of the array}}
  %0 = dist.repartition %d offset %c7 size %c4 : !ndarray.ndarray<10xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<10xf64, #dist.dist_env<team = 1>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dist.local_repartition
//===----------------------------------------------------------------------===//

func.func @local_repartition_team(%d: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>, %i: index) {
  // expected-error @+1 {{'dist.local_repartition' op source and result must be distributed over the same team, got teams 1 and 2}}
  %0 = dist.local_repartition %d offset %i size %i : !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 2>>
  return
}

// -----

func.func @local_repartition_rows(%d: !ndarray.ndarray<8xf64, #dist.dist_env<team = 1>>) {
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'dist.local_repartition' op rows [4, 4 + 5) exceed the 8 rows of the array}}
  %0 = dist.local_repartition %d offset %c4 size %c5 : !ndarray.ndarray<8xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<8xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @spare_rows_without_view(%p: !ndarray.ndarray<?xf64>, %i: index) {
  // expected-error @+1 {{'dist.init_dist_array' op spare_rows needs the block to be an ndarray.subview of the buffer holding them}}
  %0 = dist.init_dist_array %p offsets(%i) shape(%i) spare_rows [1, 1] : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @spare_rows_negative(%p: !ndarray.ndarray<?xf64>, %i: index) {
  %v = ndarray.subview %p[1] [%i] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
  // expected-error @+1 {{'dist.init_dist_array' op spare_rows must be two non-negative row counts (before, after the block), got array<i64: 1, -2>}}
  %0 = dist.init_dist_array %v offsets(%i) shape(%i) spare_rows [1, -2] : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

// expected-error @+1 {{dist_env split axes must be non-negative and strictly increasing, got [1, 0]}}
func.func private @split_order(!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1, 0]>>)

// -----

// expected-error @+1 {{dist_env split must name at least one axis}}
func.func private @split_empty(!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = []>>)

// -----

// expected-error @+1 {{dist_env splits axis 2 of an array of rank 2}}
func.func private @split_beyond_rank(!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 2]>>)

// -----

// expected-error @+1 {{dist_env grid must have one entry per split axis (2), got 1}}
func.func private @grid_length(!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [4]>>)

// -----

// expected-error @+1 {{dist_env grid sizes must be >= 1, got [2, 0]}}
func.func private @grid_size(!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 0]>>)

// -----

// expected-error @+1 {{a 0-d distributed array is replicated: its dist_env cannot split axes or name a grid}}
func.func private @zero_d(!ndarray.ndarray<f64, #dist.dist_env<team = 1, split = [0], grid = [2]>>)

// -----

// Arrays in different distributions never meet in one op (dist.redistribute
// first); 0-d arrays are replicated and meet any.
func.func @mismatched(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>,
                      %b: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>,
                      %s: !ndarray.ndarray<f64, #dist.dist_env<team = 1>>) {
  %ok = ndarray.ewbin multiply %a, %s : (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<f64, #dist.dist_env<team = 1>>) -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  // expected-error @+1 {{'ndarray.ewbin' op requires arrays in compatible environments}}
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>, !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>) -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  return
}

// -----

// A reduction's result is distributed as the reduction derives it: the split
// axes renumbered past the dropped reduced axes.
func.func @reduction_distribution(%a: !ndarray.ndarray<4x?x?xf64, #dist.dist_env<team = 1, split = [0, 2]>>) {
  %ok = ndarray.reduction sum %a axes [1] : !ndarray.ndarray<4x?x?xf64, #dist.dist_env<team = 1, split = [0, 2]>> -> !ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  %kept = ndarray.reduction sum %a axes [1] keepdims : !ndarray.ndarray<4x?x?xf64, #dist.dist_env<team = 1, split = [0, 2]>> -> !ndarray.ndarray<4x1x?xf64, #dist.dist_env<team = 1, split = [0, 2]>>
  // expected-error @+2 {{'ndarray.reduction' op inferred type(s) '!ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>' are incompatible with return type(s) of operation '!ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1>>'}}
  // expected-error @+1 {{'ndarray.reduction' op failed to infer returned types}}
  %0 = ndarray.reduction sum %a axes [1] : !ndarray.ndarray<4x?x?xf64, #dist.dist_env<team = 1, split = [0, 2]>> -> !ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

// A view dropping axes is distributed like its source without them: split
// axes renumbered (or rows, where a split axis is dropped); another
// distribution is an error.
func.func @dropping_view_distribution(%a: !ndarray.ndarray<?x?x4xf64, #dist.dist_env<team = 1, split = [0, 2]>>, %i: index, %n: index, %m: index) {
  %ok = ndarray.subview %a[0, %i, 0] [%n, 1, 4] [1, 1, 1] : !ndarray.ndarray<?x?x4xf64, #dist.dist_env<team = 1, split = [0, 2]>> to !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  %rows = ndarray.subview %a[0, 0, %i] [%n, %m, 1] [1, 1, 1] : !ndarray.ndarray<?x?x4xf64, #dist.dist_env<team = 1, split = [0, 2]>> to !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
  // expected-error @+1 {{'ndarray.subview' op requires arrays in compatible environments}}
  %0 = ndarray.subview %a[0, %i, 0] [%n, 1, 4] [1, 1, 1] : !ndarray.ndarray<?x?x4xf64, #dist.dist_env<team = 1, split = [0, 2]>> to !ndarray.ndarray<?x4xf64, #dist.dist_env<team = 1, split = [1]>>
  return
}

// -----

func.func @cast_distribution(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>) {
  // expected-error @+1 {{'ndarray.cast' op operand type}}
  %0 = ndarray.cast %a : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>> to !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @init_columns_row_offset(%block: !ndarray.ndarray<8x?xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  // expected-error @+1 {{'dist.init_dist_array' op offset of dimension 0 must be 0 (it is not split: every rank holds all of it), got 1}}
  %d = dist.init_dist_array %block offsets(%c1, %c1) shape(%c8, %n) : !ndarray.ndarray<8x?xf64> -> !ndarray.ndarray<8x?xf64, #dist.dist_env<team = 1, split = [1]>>
  return
}

// -----

func.func @init_columns_block_type(%block: !ndarray.ndarray<7x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dist.init_dist_array' op the block has type '!ndarray.ndarray<7x?xf64>', which is not a local array of type '!ndarray.ndarray<8x?xf64>' (the array's block)}}
  %d = dist.init_dist_array %block offsets(%c0, %c0) shape(%n, %n) : !ndarray.ndarray<7x?xf64> -> !ndarray.ndarray<8x?xf64, #dist.dist_env<team = 1, split = [1]>>
  return
}

// -----

func.func @grid_partition_split(%r: index, %p: index, %n: index) {
  // expected-error @+1 {{'dist.grid_partition' op split axes must be strictly increasing and below the rank 2, got [2]}}
  %g:4 = dist.grid_partition %r grid(%p) shape(%n, %n) split [2]
  return
}

// -----

func.func @grid_partition_grid(%r: index, %p: index, %n: index) {
  // expected-error @+1 {{'dist.grid_partition' op expects one grid size per split axis (2), got 1}}
  %g:4 = dist.grid_partition %r grid(%p) shape(%n, %n) split [0, 1]
  return
}

// -----

func.func @grid_partition_size(%r: index, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'dist.grid_partition' op grid sizes must be positive, got 0}}
  %g:2 = dist.grid_partition %r grid(%c0) shape(%n) split [0]
  return
}

// -----

func.func @redistribute_team(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.redistribute' op source and result must be distributed over the same team, got teams 1 and 2}}
  %b = dist.redistribute %a : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 2, split = [1]>>
  return
}

// -----

func.func @redistribute_shape(%a: !ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1>>) {
  // expected-error @+1 {{'dist.redistribute' op result shape}}
  %b = dist.redistribute %a : !ndarray.ndarray<4x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<5x?xf64, #dist.dist_env<team = 1, split = [1]>>
  return
}

// -----

func.func @repartition_columns(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>, %i: index) {
  // expected-error @+1 {{'dist.repartition' op expects a result split on rows (the default distribution), got #dist.dist_env<team = 1, split = [1]> and #dist.dist_env<team = 1, split = [1]>}}
  %b = dist.repartition %a offset %i size %i : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
  return
}

// -----

// (Only dist.repartition fetches rows from another distribution.)
func.func @local_repartition_columns(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>, %i: index) {
  // expected-error @+1 {{'dist.local_repartition' op expects arrays split on rows (the default distribution), got #dist.dist_env<team = 1, split = [1]> and #dist.dist_env<team = 1>}}
  %b = dist.local_repartition %a offset %i size %i : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>
  return
}

// -----

func.func @target_of_slice_on_grid(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>) {
  // expected-error @+1 {{'dist.local_target_of_slice' op expects an array split on rows (the default distribution), got #dist.dist_env<team = 1, split = [0, 1]>}}
  %t:4 = dist.local_target_of_slice %a[0, 0] [2, 2] [1, 1] : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
  return
}
