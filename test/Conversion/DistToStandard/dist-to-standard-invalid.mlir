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
