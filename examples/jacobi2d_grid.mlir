// examples/jacobi2d_dist.mlir on a 2-D grid of ranks: the only change is
// `dist.split = array<i64: 0, 1>` beside `dist.team = 1` on the creation of
// u, which splits both dimensions in blocks over a grid of ranks factored
// from the rank count at run time (as MPI_Dims_create: 2x2 on 4 ranks, 3x1
// on 3). The shifted views and the update stay on the grid; each step sends
// only block boundaries. The final sum goes through rows (reductions of
// arrays split over a grid redistribute them), so it prints the same bits
// as examples/jacobi2d_dist.mlir on every rank count.
//
//   mpirun -n 4 build/bin/imex-runner examples/jacobi2d_grid.mlir --pipeline=imex-dist-cpu-pipeline
//
// prints 472.53775709353835 (up to the last digits: numpy adds in another
// order; python3 examples/jacobi2d_dist.py).

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

  %u = ndarray.create(%n, %n) value %zero {dist.team = 1 : i64, dist.split = array<i64: 0, 1>} : !ndarray.ndarray<?x?xf64>
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
