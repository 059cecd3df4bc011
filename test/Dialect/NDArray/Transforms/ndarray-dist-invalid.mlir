// RUN: imex-opt %s -ndarray-dist -split-input-file -verify-diagnostics

func.func @bad_team() {
  %v = arith.constant 1.0 : f64
  // expected-error @+1 {{attribute 'dist.team' must be a positive signless integer or index}}
  %a = ndarray.create value %v {dist.team = 0 : i64} : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @unsupported_op(%x: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{'dist.team' is supported on ndarray.create, ndarray.linspace, ndarray.random, ndarray.tri and ndarray.copy only}}
  %a = ndarray.ewuny negative %x {dist.team = 1 : i64} : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @escapes() -> !ndarray.ndarray<4xf64> {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create value %v {dist.team = 1 : i64} : !ndarray.ndarray<4xf64>
  // expected-error @+1 {{passes a distributed array across a function boundary; inline the callee first (a function returns this rank's rows of a result marked 'dist.team')}}
  return %a : !ndarray.ndarray<4xf64>
}

// -----

// A distributed result is this rank's rows: a dynamic dimension 0.
// expected-error @+1 {{result #0: dimension 0 is split (each rank returns its block), so it must be dynamic, got '!ndarray.ndarray<4xf64>'}}
func.func @static_result_rows() -> (!ndarray.ndarray<4xf64> {dist.team = 1 : i64}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create value %v {dist.team = 1 : i64} : !ndarray.ndarray<4xf64>
  return %a : !ndarray.ndarray<4xf64>
}

// -----

// This rank's block of a grid: every split dimension is dynamic.
// expected-error @+1 {{result #0: dimension 1 is split (each rank returns its block), so it must be dynamic, got '!ndarray.ndarray<?x4xf64>'}}
func.func @static_result_grid(%n: index) -> (!ndarray.ndarray<?x4xf64> {dist.team = 1 : i64, dist.split = array<i64: 0, 1>}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v : !ndarray.ndarray<?x4xf64>
  return %a : !ndarray.ndarray<?x4xf64>
}

// -----

// expected-error @+1 {{result #0: invalid distribution: }}
func.func @bad_result_split(%n: index) -> (!ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.split = array<i64: 1, 0>}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n, %n) value %v : !ndarray.ndarray<?x?xf64>
  return %a : !ndarray.ndarray<?x?xf64>
}

// -----

// expected-error @+1 {{result #1: 'dist.team' must be an integer team id >= 1}}
func.func @bad_result_team(%n: index) -> (index, !ndarray.ndarray<?xf64> {dist.team = 0 : i64}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v : !ndarray.ndarray<?xf64>
  return %n, %a : index, !ndarray.ndarray<?xf64>
}

// -----

func.func @result_of_another_team(%n: index) -> (!ndarray.ndarray<?xf64> {dist.team = 2 : i64}) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  // expected-error @+1 {{'func.return' op returns an array distributed over team 1 as result #0 of team 2}}
  return %a : !ndarray.ndarray<?xf64>
}

// -----

// expected-error @+1 {{argument #0: a distributed argument needs 'dist.shape = array<i64: k0, ...>', one index argument (its global size) per dimension}}
func.func @missing_shape(%a: !ndarray.ndarray<?xf64> {dist.team = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{argument #1: a distributed argument needs 'dist.shape}}
func.func @shape_not_index(%n: f64, %a: !ndarray.ndarray<?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0>}) {
  return
}

// -----

// expected-error @+1 {{argument #1: a distributed argument needs 'dist.shape}}
func.func @shape_of_wrong_rank(%n: index, %a: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0>}) {
  return
}

// -----

// expected-error @+1 {{argument #0: 'dist.team' needs a local array of rank >= 1}}
func.func @scalar_argument(%a: !ndarray.ndarray<f64> {dist.team = 1 : i64, dist.shape = array<i64: 1>}, %n: index) {
  return
}

// -----

// expected-error @+1 {{argument #0: 'dist.shape' without 'dist.team'}}
func.func @shape_without_team(%a: !ndarray.ndarray<?xf64> {dist.shape = array<i64: 1>}, %n: index) {
  return
}

// -----

func.func @copy_to_other_team(%n: index) {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  // expected-error @+1 {{copies an array distributed over team 1 to team 2: redistribution to another team is not supported}}
  %b = ndarray.copy %a {dist.team = 2 : i64} : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  return
}

// -----

// expected-error @+1 {{argument #1: 'dist.ghost' must be array<i64: before, after> (non-negative spare rows around the block)}}
func.func @bad_ghost(%n: index, %a: !ndarray.ndarray<?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 0>, dist.ghost = array<i64: 1, -1>}) {
  return
}

// -----

// expected-error @+1 {{argument #1: 'dist.ghost' without 'dist.team'}}
func.func @ghost_without_team(%n: index, %a: !ndarray.ndarray<?xf64> {dist.ghost = array<i64: 1, 1>}) {
  return
}

// -----

func.func @split_beyond_rank(%n: index) {
  %v = arith.constant 1.0 : f64
  // expected-error @+1 {{'ndarray.create' op dist_env splits axis 1 of an array of rank 1}}
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64, dist.split = array<i64: 1>} : !ndarray.ndarray<?xf64>
  return
}

// -----

func.func @bad_grid(%n: index) {
  %v = arith.constant 1.0 : f64
  // expected-error @+1 {{'ndarray.create' op invalid distribution: dist_env grid must have one entry per split axis (1), got 2}}
  %a = ndarray.create(%n, %n) value %v {dist.team = 1 : i64, dist.grid = array<i64: 2, 2>} : !ndarray.ndarray<?x?xf64>
  return
}

// -----

func.func @split_0d() {
  %v = arith.constant 1.0 : f64
  // expected-error @+1 {{'ndarray.create' op a 0-d array is replicated: it cannot be split (#dist.dist_env<team = 1, split = [0], grid = [2]>)}}
  %a = ndarray.create value %v {dist.team = 1 : i64, dist.grid = array<i64: 2>} : !ndarray.ndarray<f64>
  return
}

// -----

// expected-error @+1 {{argument #0: dist_env splits axis 2 of an array of rank 2}}
func.func @split_beyond_rank(%a: !ndarray.ndarray<?x?xf64> {dist.team = 1 : i64, dist.shape = array<i64: 1, 2>, dist.split = array<i64: 2>}, %n: index, %m: index) {
  return
}

// -----

// expected-error @+1 {{argument #0: 'dist.split' without 'dist.team'}}
func.func @split_without_team(%a: !ndarray.ndarray<?x?xf64> {dist.split = array<i64: 1>}) {
  return
}
