// RUN: imex-opt %s -split-input-file | imex-opt -split-input-file | FileCheck %s
// RUN: imex-opt %s -split-input-file -mlir-print-op-generic | imex-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @env_types
// CHECK-SAME: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
// CHECK-SAME: !ndarray.ndarray<10xi64, #dist.dist_env<team = 2>>
// CHECK-SAME: !ndarray.ndarray<f32, #dist.dist_env<team = 1>>
// CHECK-SAME: !ndarray.ndarray<?x?x3xi32, #dist.dist_env<team = 7>>
// CHECK-SAME: !ndarray.ndarray<4xf32, #dist.dist_env<team = 1>, #region.gpu_env<device = "cuda:0">>
func.func @env_types(
    %a: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>,
    %b: !ndarray.ndarray<10xi64, #dist.dist_env<team = 2>>,
    %c: !ndarray.ndarray<f32, #dist.dist_env<team = 1>>,
    %d: !ndarray.ndarray<?x?x3xi32, #dist.dist_env<team = 7>>,
    %e: !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">, #dist.dist_env<team = 1>>) {
  return
}

// -----

// The dist env mixes with replicated operands; inferred results get a
// dynamic dist env of the result's shape.
// CHECK-LABEL: func @env_mixing
func.func @env_mixing(%a: !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>, %b: !ndarray.ndarray<16xf64>) -> !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>> {
  // CHECK: ndarray.ewbin add %{{.*}}, %{{.*}} : (!ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<16xf64>) -> !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>
  %0 = ndarray.ewbin add %a, %b : (!ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>, !ndarray.ndarray<16xf64>) -> !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>
  // CHECK: ndarray.reduction sum %{{.*}} : !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  %1 = ndarray.reduction sum %0 : !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return %0 : !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>
}

// -----

// CHECK-LABEL: func @team_attr
func.func @team_attr(%n: index, %f: f64) {
  // CHECK: ndarray.create(%{{.*}}) value %{{.*}} {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %0 = ndarray.create(%n) value %f {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  // CHECK: ndarray.create {dist.team = 3 : index} : !ndarray.ndarray<2xf64>
  %1 = ndarray.create {dist.team = 3 : index} : !ndarray.ndarray<2xf64>
  return
}

// -----

// CHECK-LABEL: func @init_and_blocks
func.func @init_and_blocks(%o: !ndarray.ndarray<?x16xf64>, %off: index, %n: index, %v: !ndarray.ndarray<f64>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  // CHECK: %[[D:.*]] = dist.init_dist_array %{{.*}} offsets(%{{.*}}, %{{.*}}) shape(%{{.*}}, %{{.*}}) : !ndarray.ndarray<?x16xf64> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c16) : !ndarray.ndarray<?x16xf64> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: %[[S:.*]] = dist.init_dist_array %{{.*}} : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  %s = dist.init_dist_array %v : !ndarray.ndarray<f64> -> !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  // CHECK: dist.owned_block_of %[[D]] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64>
  %p = dist.owned_block_of %d : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64>
  // A more static block type is accepted.
  // CHECK: dist.held_block_of %[[D]] : {{.*}} -> !ndarray.ndarray<2x16xf64>
  %q = dist.held_block_of %d : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<2x16xf64>
  // CHECK: dist.owned_block_of %[[S]] : !ndarray.ndarray<f64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64>
  %t = dist.owned_block_of %s : !ndarray.ndarray<f64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<f64>
  // CHECK: dist.local_offsets_of %[[D]] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %lo:2 = dist.local_offsets_of %d : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: dist.local_offsets_of %[[S]] : !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  dist.local_offsets_of %s : !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
  return
}

// -----

// The block keeps the environments other than the dist env.
// CHECK-LABEL: func @gpu_block
func.func @gpu_block(%o: !ndarray.ndarray<2xf32, #region.gpu_env<device = "g">>, %off: index, %n: index) {
  // CHECK: dist.init_dist_array %{{.*}} offsets(%{{.*}}) shape(%{{.*}}) : !ndarray.ndarray<2xf32, #region.gpu_env<device = "g">> -> !ndarray.ndarray<?xf32, #dist.dist_env<team = 1>, #region.gpu_env<device = "g">>
  %d = dist.init_dist_array %o offsets(%off) shape(%n) : !ndarray.ndarray<2xf32, #region.gpu_env<device = "g">> -> !ndarray.ndarray<?xf32, #dist.dist_env<team = 1>, #region.gpu_env<device = "g">>
  return
}

// -----

// CHECK-LABEL: func @index_ops
func.func @index_ops(%d: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>, %np: index, %rank: index, %n: index, %f: index, %m: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // CHECK: dist.default_partition %{{.*}}, %{{.*}} shape(%{{.*}}, %{{.*}})
  %p:4 = dist.default_partition %np, %rank shape(%n, %c16)
  // CHECK: dist.default_partition %{{.*}}, %{{.*}} shape(%{{.*}})
  %q:2 = dist.default_partition %np, %rank shape(%n)
  // CHECK: dist.local_target_of_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, 16] [2, 1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %t:4 = dist.local_target_of_slice %d[%f, 0] [%m, 16] [2, 1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: dist.local_target_of_slice %{{.*}}[1, %{{.*}}] [%{{.*}}, 4] [%{{.*}}, %{{.*}}] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %u:4 = dist.local_target_of_slice %d[1, %f] [%m, 4] [%s, %s] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: dist.local_bounding_box view[%{{.*}}] [%{{.*}}] [%{{.*}}] target[%{{.*}}] [%{{.*}}]{{$}}
  %b:2 = dist.local_bounding_box view[%f] [%m] [%s] target[%t#0] [%t#2]
  // CHECK: dist.local_bounding_box view[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] target[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] bb[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}]{{$}}
  %bb:4 = dist.local_bounding_box view[%f, %c0] [%m, %c16] [%s, %c1] target[%t#0, %t#1] [%t#2, %t#3] bb[%b#0, %c0] [%b#1, %c16]
  // CHECK: dist.local_core %{{.*}} target[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] view[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %c:4 = dist.local_core %d target[%t#0, %t#1] [%t#2, %t#3] view[%f, %c0] [%m, %c16] [%s, %c1] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: dist.local_core %{{.*}} target[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] view[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] core[%{{.*}}, %{{.*}}] [%{{.*}}, %{{.*}}] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %e:4 = dist.local_core %d target[%t#0, %t#1] [%t#2, %t#3] view[%f, %c0] [%m, %c16] [%s, %c1] core[%c#0, %c#1] [%c#2, %c#3] : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  return
}

// -----

// CHECK-LABEL: func @repartition
func.func @repartition(%d: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>, %off: index, %n: index) {
  // CHECK: dist.repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %r = dist.repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  // CHECK: dist.repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>
  %s = dist.repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<8x16xf64, #dist.dist_env<team = 1>>
  return
}

// CHECK-LABEL: func @repartition_from_grid
func.func @repartition_from_grid(%d: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1, split = [0, 1]>>, %off: index, %n: index) {
  // CHECK: dist.repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1, split = [0, 1]>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %r = dist.repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1, split = [0, 1]>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  return
}

// -----

// CHECK-LABEL: func @local_repartition
func.func @local_repartition(%d: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>, %off: index, %n: index) {
  // CHECK: dist.local_repartition %{{.*}} offset %{{.*}} size %{{.*}} : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  %r = dist.local_repartition %d offset %off size %n : !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
  return
}


// -----

// The default distribution prints without split and grid.
// CHECK-LABEL: func @distributions
// CHECK-SAME: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
// CHECK-SAME: !ndarray.ndarray<16x?xf64, #dist.dist_env<team = 1, split = [1]>>
// CHECK-SAME: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 2, split = [0, 1]>>
// CHECK-SAME: !ndarray.ndarray<?x?x4xf32, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 3]>>
// CHECK-SAME: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1, split = [0], grid = [4]>>
func.func @distributions(
    %a: !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1, split = [0]>>,
    %b: !ndarray.ndarray<16x?xf64, #dist.dist_env<team = 1, split = [1]>>,
    %c: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 2, split = [0, 1]>>,
    %d: !ndarray.ndarray<?x?x4xf32, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 3]>>,
    %e: !ndarray.ndarray<?xf64, #dist.dist_env<team = 1, split = [0], grid = [4]>>) {
  return
}

// -----

// CHECK-LABEL: func @grid_partition
func.func @grid_partition(%r: index, %p: index, %q: index, %n: index, %m: index) -> index {
  // CHECK: dist.grid_partition %{{.*}} grid(%{{.*}}, %{{.*}}) shape(%{{.*}}, %{{.*}}) split [0, 1]
  %g:4 = dist.grid_partition %r grid(%p, %q) shape(%n, %m) split [0, 1]
  // CHECK: dist.grid_partition %{{.*}} grid(%{{.*}}) shape(%{{.*}}, %{{.*}}) split [1]
  %h:4 = dist.grid_partition %r grid(%p) shape(%n, %m) split [1]
  return %g#3 : index
}

// -----

// CHECK-LABEL: func @redistribute
func.func @redistribute(%a: !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>>) -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 2]>> {
  // CHECK: dist.redistribute %{{.*}} : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
  %b = dist.redistribute %a : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>>
  // CHECK: dist.redistribute %{{.*}} : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 2]>>
  %c = dist.redistribute %b : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 2]>>
  return %c : !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 2]>>
}

// -----

// A block of an array split on columns: offsets on dimension 1, the rows whole.
// CHECK-LABEL: func @init_columns
func.func @init_columns(%block: !ndarray.ndarray<8x?xf64>, %off: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  // CHECK: dist.init_dist_array %{{.*}} offsets(%{{.*}}, %{{.*}}) shape(%{{.*}}, %{{.*}}) : !ndarray.ndarray<8x?xf64> -> !ndarray.ndarray<8x?xf64, #dist.dist_env<team = 1, split = [1]>>
  %d = dist.init_dist_array %block offsets(%c0, %off) shape(%c8, %n) : !ndarray.ndarray<8x?xf64> -> !ndarray.ndarray<8x?xf64, #dist.dist_env<team = 1, split = [1]>>
  // CHECK: dist.owned_block_of %{{.*}} -> !ndarray.ndarray<8x?xf64>
  %b = dist.owned_block_of %d : !ndarray.ndarray<8x?xf64, #dist.dist_env<team = 1, split = [1]>> -> !ndarray.ndarray<8x?xf64>
  return
}
