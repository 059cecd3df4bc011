// The 1-D wave equation u_tt = c^2 u_xx on n points, distributed over the
// MPI ranks (`dist.team = 1` on the creation ops), written in the ndarray
// dialect numpy style (examples/wave1d.py is the numpy twin):
//
//   x = linspace(0, 1, n); d = (x - 0.3) / 0.05; u = exp(-(d * d))
//   u[:2] = 0; u[-2:] = 0; uprev = zeros(n); uprev[...] = u
//   for _ in range(steps):
//       lap = (-u[:-4] + 16 u[1:-3] - 30 u[2:-2] + 16 u[3:-1] - u[4:]) / 12
//       new = 2 u[2:-2] - uprev[2:-2] + c2 * lap
//       uprev[2:-2] = u[2:-2]
//       u[2:-2] = new
//   print(sum(u), sum(u * u))
//
// Leapfrog in time, 4th-order Laplacian in space: every step reads five
// shifted views of u (a halo of two rows on each side of every rank's
// block) and one of uprev. Run it with
//
//   mpirun -n 3 build/bin/imex-runner examples/wave1d.mlir --pipeline=imex-dist-cpu-pipeline
//
// which prints sum(u) and sum(u * u) after 500 steps on 1000 points; numpy
// gives 80.9726620097031 and 28.904124451790537 (python3 examples/wave1d.py).
// Every rank count prints the same checksums, to the bit (the sums are
// reduced in fixed blocks of rows, see docs/distribution.md).

func.func private @imexPrintF64(tensor<*xf64> {bufferization.access = "read"})

func.func @main() {
  %n = arith.constant 1000 : index
  %steps = arith.constant 500 : index
  %sums:2 = func.call @wave(%n, %steps) : (index, index) -> (!ndarray.ndarray<f64>, !ndarray.ndarray<f64>)
  %t0 = ndarray.to_tensor %sums#0 : !ndarray.ndarray<f64> -> tensor<f64>
  %u0 = tensor.cast %t0 : tensor<f64> to tensor<*xf64>
  func.call @imexPrintF64(%u0) : (tensor<*xf64>) -> ()
  %t1 = ndarray.to_tensor %sums#1 : !ndarray.ndarray<f64> -> tensor<f64>
  %u1 = tensor.cast %t1 : tensor<f64> to tensor<*xf64>
  func.call @imexPrintF64(%u1) : (tensor<*xf64>) -> ()
  return
}

func.func @wave(%n: index, %steps: index) -> (!ndarray.ndarray<f64>, !ndarray.ndarray<f64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %f0 = arith.constant 0.0 : f64
  %f1 = arith.constant 1.0 : f64
  %f_center = arith.constant 0.3 : f64
  %f_width = arith.constant 0.05 : f64
  %f2 = arith.constant 2.0 : f64
  %f12 = arith.constant 12.0 : f64
  %f16 = arith.constant 16.0 : f64
  %f30 = arith.constant 30.0 : f64
  %f_c2 = arith.constant 0.25 : f64  // (c dt / dx)^2
  %zero = ndarray.create value %f0 : !ndarray.ndarray<f64>
  %center = ndarray.create value %f_center : !ndarray.ndarray<f64>
  %width = ndarray.create value %f_width : !ndarray.ndarray<f64>
  %two = ndarray.create value %f2 : !ndarray.ndarray<f64>
  %sixteen = ndarray.create value %f16 : !ndarray.ndarray<f64>
  %thirty = ndarray.create value %f30 : !ndarray.ndarray<f64>
  %twelve = ndarray.create value %f12 : !ndarray.ndarray<f64>
  %c2f = ndarray.create value %f_c2 : !ndarray.ndarray<f64>

  // Initial state: a Gaussian pulse at rest.
  %x = ndarray.linspace %f0, %f1, %n endpoint {dist.team = 1 : i64} : f64 -> !ndarray.ndarray<?xf64>
  %xc = ndarray.ewbin subtract %x, %center : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  %d = ndarray.ewbin divide %xc, %width : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  %dd = ndarray.ewbin multiply %d, %d : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %ndd = ndarray.ewuny negative %dd : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %u = ndarray.ewuny exp %ndd : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %nm2 = arith.subi %n, %c2 : index
  ndarray.insert_slice %zero into %u[0] [2] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?xf64>
  ndarray.insert_slice %zero into %u[%nm2] [2] [1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?xf64>
  %uprev = ndarray.create(%n) value %f0 {dist.team = 1 : i64} : !ndarray.ndarray<?xf64>
  ndarray.insert_slice %u into %uprev[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>

  %m = arith.subi %n, %c4 : index
  scf.for %it = %c0 to %steps step %c1 {
    %um2 = ndarray.subview %u[0] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    %um1 = ndarray.subview %u[1] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    %u0 = ndarray.subview %u[2] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    %up1 = ndarray.subview %u[3] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    %up2 = ndarray.subview %u[4] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    %prev = ndarray.subview %uprev[2] [%m] [1] : !ndarray.ndarray<?xf64> to !ndarray.ndarray<?xf64>
    // lap = (-u[:-4] + 16 u[1:-3] - 30 u[2:-2] + 16 u[3:-1] - u[4:]) / 12
    %a0 = ndarray.ewuny negative %um2 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
    %b1 = ndarray.ewbin multiply %sixteen, %um1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %a1 = ndarray.ewbin add %a0, %b1 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %b2 = ndarray.ewbin multiply %thirty, %u0 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %a2 = ndarray.ewbin subtract %a1, %b2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %b3 = ndarray.ewbin multiply %sixteen, %up1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %a3 = ndarray.ewbin add %a2, %b3 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %a4 = ndarray.ewbin subtract %a3, %up2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %lap = ndarray.ewbin divide %a4, %twelve : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
    // new = 2 u[2:-2] - uprev[2:-2] + c2 * lap
    %t0 = ndarray.ewbin multiply %two, %u0 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %t1 = ndarray.ewbin subtract %t0, %prev : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %t2 = ndarray.ewbin multiply %c2f, %lap : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    %new = ndarray.ewbin add %t1, %t2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
    // uprev[2:-2] = u[2:-2]; u[2:-2] = new  (the two outer points are 0 in both)
    ndarray.insert_slice %u0 into %uprev[2] [%m] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
    ndarray.insert_slice %new into %u[2] [%m] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  }
  %sum = ndarray.reduction sum %u : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  %uu = ndarray.ewbin multiply %u, %u : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %sumsq = ndarray.reduction sum %uu : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<f64>
  ndarray.delete %u : !ndarray.ndarray<?xf64>
  ndarray.delete %uprev : !ndarray.ndarray<?xf64>
  return %sum, %sumsq : !ndarray.ndarray<f64>, !ndarray.ndarray<f64>
}
