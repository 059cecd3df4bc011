// RUN: imex-opt %s -ndarray-dist -split-input-file -verify-diagnostics

func.func @bad_team() {
  %v = arith.constant 1.0 : f64
  // expected-error @+1 {{attribute 'dist.team' must be a positive signless integer or index}}
  %a = ndarray.create value %v {dist.team = 0 : i64} : !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @unsupported_op(%x: !ndarray.ndarray<4xf64>) {
  // expected-error @+1 {{'dist.team' is supported on ndarray.create, ndarray.linspace and ndarray.copy only}}
  %a = ndarray.ewuny negative %x {dist.team = 1 : i64} : !ndarray.ndarray<4xf64> -> !ndarray.ndarray<4xf64>
  return
}

// -----

func.func @escapes() -> !ndarray.ndarray<4xf64> {
  %v = arith.constant 1.0 : f64
  %a = ndarray.create value %v {dist.team = 1 : i64} : !ndarray.ndarray<4xf64>
  // expected-error @+1 {{passes a distributed array across a function boundary; inline the callee first}}
  return %a : !ndarray.ndarray<4xf64>
}

// -----

// expected-error @+1 {{argument #0: a distributed argument needs 'dist.rows = k', k the number of an index argument (its global rows)}}
func.func @missing_rows(%a: !ndarray.ndarray<?xf64> {dist.team = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{argument #1: a distributed argument needs 'dist.rows = k'}}
func.func @rows_not_index(%n: f64, %a: !ndarray.ndarray<?xf64> {dist.team = 1 : i64, dist.rows = 0 : i64}) {
  return
}

// -----

// expected-error @+1 {{argument #0: 'dist.team' needs a local array of rank >= 1}}
func.func @scalar_argument(%a: !ndarray.ndarray<f64> {dist.team = 1 : i64, dist.rows = 1 : i64}, %n: index) {
  return
}

// -----

// expected-error @+1 {{argument #0: 'dist.rows' without 'dist.team'}}
func.func @rows_without_team(%a: !ndarray.ndarray<?xf64> {dist.rows = 1 : i64}, %n: index) {
  return
}
