// The 2-D 5-point Jacobi iteration of examples/jacobi2d.mlir on a grid
// distributed over the MPI ranks: the only change is `dist.team = 1` on the
// creation of u, which distributes its rows in blocks (dimension 0); every
// array computed from u is distributed the same way, the shifted views
// u[:-2, 1:-1] and u[2:, 1:-1] read one halo row from each neighbouring
// rank, and the final sum combines the ranks' partial sums.
//
//   u = zeros((n, n)); u[0, :] = 1.0
//   for _ in range(iters):
//       u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
//   return sum(u)
//
// Run it with
//
//   mpirun -n 3 build/bin/imex-runner examples/jacobi2d_dist.mlir --pipeline=imex-dist-cpu-pipeline
//
// which prints the checksum sum(u) after 200 iterations on a 64 x 64 grid
// (numpy gives 472.53775709353835: python3 examples/jacobi2d_dist.py, which
// adds in another order); every rank count prints the same bits (the sum is
// reduced in fixed blocks of rows, see docs/distribution.md).

func.func private @imexPrintF64(tensor<*xf64> {bufferization.access = "read"})

func.func @main() {
  %n = arith.constant 64 : index
  %iters = arith.constant 200 : index
  %total = func.call @jacobi(%n, %iters) : (index, index) -> !ndarray.ndarray<f64>
  %t = ndarray.to_tensor %total : !ndarray.ndarray<f64> -> tensor<f64>
  %u = tensor.cast %t : tensor<f64> to tensor<*xf64>
  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()
  return
}

func.func @jacobi(%n: index, %iters: index) -> !ndarray.ndarray<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64

  %u = ndarray.create(%n, %n) value %zero {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %top = ndarray.create value %one : !ndarray.ndarray<f64>
  ndarray.insert_slice %top into %u[0, 0] [1, %n] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %q = ndarray.create value %quarter : !ndarray.ndarray<f64>

  %m = arith.subi %n, %c2 : index
  scf.for %it = %c0 to %iters step %c1 {
    %north = ndarray.subview %u[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %south = ndarray.subview %u[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %west = ndarray.subview %u[1, 0] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %east = ndarray.subview %u[1, 2] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %ns = ndarray.ewbin add %north, %south : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %we = ndarray.ewbin add %west, %east : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %sum = ndarray.ewbin add %ns, %we : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %new = ndarray.ewbin multiply %sum, %q : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %new into %u[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  %total = ndarray.reduction sum %u : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  ndarray.delete %u : !ndarray.ndarray<?x?xf64>
  return %total : !ndarray.ndarray<f64>
}
