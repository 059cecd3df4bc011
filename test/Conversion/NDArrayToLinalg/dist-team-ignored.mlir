// RUN: imex-opt %s -convert-ndarray-to-linalg -verify-diagnostics

// Without ndarray-dist, a team on a creation op is ignored: a warning says
// so (once per module).
func.func @ignored(%n: index) -> !ndarray.ndarray<?xf64> {
  %v = arith.constant 1.0 : f64
  // expected-warning @+1 {{'dist.team' is ignored: the array is computed whole on every rank (run ndarray-dist first, e.g. with imex-dist-cpu-pipeline)}}
  %a = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %b = ndarray.create(%n) value %v {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  %c = ndarray.ewbin add %a, %b : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  return %c : !ndarray.ndarray<?xf64>
}
