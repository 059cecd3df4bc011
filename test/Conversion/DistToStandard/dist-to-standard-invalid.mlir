// RUN: imex-opt %s -convert-dist-to-standard -split-input-file -verify-diagnostics

// (found by imex-fuzz: a reduction keeping dimension 0 with a replicated
// result crashed)
!dist = !ndarray.ndarray<?x4xi64, #dist.dist_env<team = 1>>
!local = !ndarray.ndarray<2x4xi64>

func.func @reduce_other_axis_replicated(%o: !local, %off: index, %n: index) -> !ndarray.ndarray<4xi64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %d = dist.init_dist_array %o offsets(%off, %c0) shape(%n, %c4) : !local -> !dist
  // expected-error @+2 {{'ndarray.reduction' op keeps the rows of a distributed array, so its result must be distributed too, got '!ndarray.ndarray<4xi64>'}}
  // expected-error @+1 {{failed to legalize operation 'ndarray.reduction'}}
  %s = ndarray.reduction sum %d axes [1] : !dist -> !ndarray.ndarray<4xi64>
  return %s : !ndarray.ndarray<4xi64>
}

// -----

// Ops without a lowering for arrays split over a grid (a scan here; see
// docs/distribution.md) get their operands redistributed to rows by
// ndarray-dist.
!grid = !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
func.func @grid_scan(%a: !ndarray.ndarray<?x?xf64>, %o: index, %n: index) {
  %d = dist.init_dist_array %a offsets(%o, %o) shape(%n, %n) : !ndarray.ndarray<?x?xf64> -> !grid
  // expected-error @+1 {{'ndarray.cumulative' op on an array split on other axes than rows or over a grid of ranks is not supported by convert-dist-to-standard; ndarray-dist redistributes its operands (dist.redistribute)}}
  %s = ndarray.cumulative sum %d axis 1 : !grid -> !grid
  return
}
