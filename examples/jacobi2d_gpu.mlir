// examples/jacobi2d.mlir with the grid on a GPU: the arrays live in the
// environment #region.gpu_env<device = "cuda:0">, the checksum is copied
// back to the host (ndarray.copy) and printed there. Run it with
//
//   build/bin/imex-runner examples/jacobi2d_gpu.mlir
//
// which lowers it with imex-gpu-pipeline (kernels compiled to a cubin by
// ptxas), and on a machine with a CUDA device prints 472.53775709353835
// as the CPU version does; without one it says so in one line and exits
// with status 77. docs/gpu.md describes the lowering.

!grid = !ndarray.ndarray<?x?xf64, #region.gpu_env<device = "cuda:0">>
!scalar = !ndarray.ndarray<f64, #region.gpu_env<device = "cuda:0">>

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

  %u = ndarray.create(%n, %n) value %zero : !grid
  %top = ndarray.create value %one : !scalar
  ndarray.insert_slice %top into %u[0, 0] [1, %n] [1, 1] : !scalar into !grid
  %q = ndarray.create value %quarter : !scalar

  %m = arith.subi %n, %c2 : index
  scf.for %it = %c0 to %iters step %c1 {
    %north = ndarray.subview %u[0, 1] [%m, %m] [1, 1] : !grid to !grid
    %south = ndarray.subview %u[2, 1] [%m, %m] [1, 1] : !grid to !grid
    %west = ndarray.subview %u[1, 0] [%m, %m] [1, 1] : !grid to !grid
    %east = ndarray.subview %u[1, 2] [%m, %m] [1, 1] : !grid to !grid
    %ns = ndarray.ewbin add %north, %south : (!grid, !grid) -> !grid
    %we = ndarray.ewbin add %west, %east : (!grid, !grid) -> !grid
    %sum = ndarray.ewbin add %ns, %we : (!grid, !grid) -> !grid
    %new = ndarray.ewbin multiply %sum, %q : (!grid, !scalar) -> !grid
    ndarray.insert_slice %new into %u[1, 1] [%m, %m] [1, 1] : !grid into !grid
  }
  %total = ndarray.reduction sum %u : !grid -> !scalar
  %host = ndarray.copy %total : !scalar -> !ndarray.ndarray<f64>
  ndarray.delete %u : !grid
  return %host : !ndarray.ndarray<f64>
}
