// Distributed benchmark kernels in ndarray IR, written for any size n.
// bench/dist/run.py appends `@bench_main(%iters: index) -> f64`, which calls
// one kernel with constant sizes (the pipeline inlines it, so every shape is
// static, as a JIT specializing on sizes would see it), and imex-dist-bench
// runs it on every rank. The grids are created with `dist.team = 1`: rows
// (dimension 0) are split in blocks over the MPI ranks.
//
// @imex_bench_start/@imex_bench_stop are provided by imex-dist-bench: a
// barrier, then the wall clock (MPI_Wtime) and the IDTR counters; they
// bracket the time-step loop only (creation, initialisation and the final
// checksum are not timed). Each kernel returns sum(u) as its checksum.

func.func private @imex_bench_start()
func.func private @imex_bench_stop()

// 2-D 5-point Jacobi (halo of one row) on a rows x cols grid:
//   u = zeros((rows, cols)); u[0, :] = 1
//   for _ in range(iters):
//       u[1:-1, 1:-1] = ((u[:-2, 1:-1] + u[2:, 1:-1]) + (u[1:-1, :-2] + u[1:-1, 2:])) * 0.25
func.func private @jacobi(%rows: index, %cols: index, %iters: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %quarter = arith.constant 0.25 : f64
  %u = ndarray.create(%rows, %cols) value %zero {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %top = ndarray.create value %one : !ndarray.ndarray<f64>
  ndarray.insert_slice %top into %u[0, 0] [1, %cols] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %q = ndarray.create value %quarter : !ndarray.ndarray<f64>
  %m = arith.subi %rows, %c2 : index
  %mc = arith.subi %cols, %c2 : index
  func.call @imex_bench_start() : () -> ()
  scf.for %it = %c0 to %iters step %c1 {
    %north = ndarray.subview %u[0, 1] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %south = ndarray.subview %u[2, 1] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %west = ndarray.subview %u[1, 0] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %east = ndarray.subview %u[1, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %ns = ndarray.ewbin add %north, %south : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %we = ndarray.ewbin add %west, %east : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %sum = ndarray.ewbin add %ns, %we : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %new = ndarray.ewbin multiply %sum, %q : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %new into %u[1, 1] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  func.call @imex_bench_stop() : () -> ()
  %total = ndarray.reduction sum %u : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  %r = ndarray.load %total[] : !ndarray.ndarray<f64>
  return %r : f64
}

// 2-D wave equation, leapfrog with a 4th-order Laplacian: ten shifted reads
// of u per step, four of them shifted along the distributed dimension (a
// halo of two rows on each side), plus one of uprev. The outer two rows and
// columns stay 0; u = uprev = 1 on a rectangle initially.
//   for _ in range(iters):
//       lap = (-u[:-4, c] + 16 u[1:-3, c] - 30 u[c, c] + 16 u[3:-1, c] - u[4:, c]
//              - u[c, :-4] + 16 u[c, 1:-3] - 30 u[c, c] + 16 u[c, 3:-1] - u[c, 4:]) / 12
//       new = (2 u[c, c] - uprev[c, c]) + 0.25 * lap          (c = 2:-2)
//       uprev[c, c] = u[c, c]; u[c, c] = new
func.func private @wave2d(%rows: index, %cols: index, %iters: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c3i = arith.constant 3 : index
  %f0 = arith.constant 0.0 : f64
  %f1 = arith.constant 1.0 : f64
  %f2 = arith.constant 2.0 : f64
  %f12 = arith.constant 12.0 : f64
  %f16 = arith.constant 16.0 : f64
  %f30 = arith.constant 30.0 : f64
  %fc2 = arith.constant 0.25 : f64
  %one = ndarray.create value %f1 : !ndarray.ndarray<f64>
  %two = ndarray.create value %f2 : !ndarray.ndarray<f64>
  %twelve = ndarray.create value %f12 : !ndarray.ndarray<f64>
  %sixteen = ndarray.create value %f16 : !ndarray.ndarray<f64>
  %thirty = ndarray.create value %f30 : !ndarray.ndarray<f64>
  %c2f = ndarray.create value %fc2 : !ndarray.ndarray<f64>
  %u = ndarray.create(%rows, %cols) value %f0 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %uprev = ndarray.create(%rows, %cols) value %f0 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  // the rectangle [rows/4, rows/4 + rows/8) x [cols/3, cols/3 + cols/8)
  %r0 = arith.divui %rows, %c4 : index
  %q0 = arith.divui %cols, %c3i : index
  %wr = arith.divui %rows, %c8 : index
  %wc = arith.divui %cols, %c8 : index
  ndarray.insert_slice %one into %u[%r0, %q0] [%wr, %wc] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %one into %uprev[%r0, %q0] [%wr, %wc] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %m = arith.subi %rows, %c4 : index
  %mc = arith.subi %cols, %c4 : index
  func.call @imex_bench_start() : () -> ()
  scf.for %it = %c0 to %iters step %c1 {
    %rm2 = ndarray.subview %u[0, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %rm1 = ndarray.subview %u[1, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %ctr = ndarray.subview %u[2, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %rp1 = ndarray.subview %u[3, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %rp2 = ndarray.subview %u[4, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %cm2 = ndarray.subview %u[2, 0] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %cm1 = ndarray.subview %u[2, 1] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %cp1 = ndarray.subview %u[2, 3] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %cp2 = ndarray.subview %u[2, 4] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %prev = ndarray.subview %uprev[2, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %a0 = ndarray.ewuny negative %rm2 : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<?x?xf64>
    %b1 = ndarray.ewbin multiply %sixteen, %rm1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a1 = ndarray.ewbin add %a0, %b1 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %b2 = ndarray.ewbin multiply %thirty, %ctr : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a2 = ndarray.ewbin subtract %a1, %b2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %b3 = ndarray.ewbin multiply %sixteen, %rp1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a3 = ndarray.ewbin add %a2, %b3 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a4 = ndarray.ewbin subtract %a3, %rp2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a5 = ndarray.ewbin subtract %a4, %cm2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %b6 = ndarray.ewbin multiply %sixteen, %cm1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a6 = ndarray.ewbin add %a5, %b6 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a7 = ndarray.ewbin subtract %a6, %b2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %b8 = ndarray.ewbin multiply %sixteen, %cp1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a8 = ndarray.ewbin add %a7, %b8 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %a9 = ndarray.ewbin subtract %a8, %cp2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %lap = ndarray.ewbin divide %a9, %twelve : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
    %t0 = ndarray.ewbin multiply %two, %ctr : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %t1 = ndarray.ewbin subtract %t0, %prev : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %t2 = ndarray.ewbin multiply %c2f, %lap : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %new = ndarray.ewbin add %t1, %t2 : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %ctr into %uprev[2, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %new into %u[2, 2] [%m, %mc] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  func.call @imex_bench_stop() : () -> ()
  %total = ndarray.reduction sum %u : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
  %r = ndarray.load %total[] : !ndarray.ndarray<f64>
  return %r : f64
}
