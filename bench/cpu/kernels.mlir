// Benchmark kernels in ndarray IR, written for any size. bench/cpu/run.py
// appends an entry point specialized to the benchmarked size (as a JIT
// specializes on shapes) that casts its arguments and calls the kernel,
// which the pipeline inlines; imex-bench calls the entry point through the C
// interface (array arguments are memrefs with the identity layout).

// STREAM triad: a[:] = b + s * c
func.func private @triad(%a: !ndarray.ndarray<?xf64>, %b: !ndarray.ndarray<?xf64>,
                 %c: !ndarray.ndarray<?xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %n = ndarray.dim %a, %c0 : !ndarray.ndarray<?xf64>
  %sa = ndarray.create value %s : !ndarray.ndarray<f64>
  %sc = ndarray.ewbin multiply %sa, %c : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %r = ndarray.ewbin add %b, %sc : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  ndarray.insert_slice %r into %a[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  return
}

// Black-Scholes call and put prices, a chain of elementwise ops:
//   d1 = (log(S/K) + (r + v^2/2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T)
//   call = S N(d1) - K e^{-rT} N(d2),  put = K e^{-rT} - S + call
func.func private @blackscholes(%price: !ndarray.ndarray<?xf64>,
                        %strike: !ndarray.ndarray<?xf64>,
                        %t: !ndarray.ndarray<?xf64>,
                        %call: !ndarray.ndarray<?xf64>,
                        %put: !ndarray.ndarray<?xf64>, %rate: f64, %vol: f64) {
  %c0 = arith.constant 0 : index
  %n = ndarray.dim %price, %c0 : !ndarray.ndarray<?xf64>
  %half_f = arith.constant 0.5 : f64
  %sqrt2_f = arith.constant 1.4142135623730951 : f64
  %vv = arith.mulf %vol, %vol : f64
  %hvv = arith.mulf %vv, %half_f : f64
  %mu_f = arith.addf %rate, %hvv : f64
  %nrate_f = arith.negf %rate : f64
  %r = ndarray.create value %nrate_f : !ndarray.ndarray<f64>
  %v = ndarray.create value %vol : !ndarray.ndarray<f64>
  %mu = ndarray.create value %mu_f : !ndarray.ndarray<f64>
  %half = ndarray.create value %half_f : !ndarray.ndarray<f64>
  %sqrt2 = ndarray.create value %sqrt2_f : !ndarray.ndarray<f64>
  %sqrtT = ndarray.ewuny sqrt %t : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %ratio = ndarray.ewbin divide %price, %strike : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %logr = ndarray.ewuny log %ratio : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %muT = ndarray.ewbin multiply %mu, %t : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %num = ndarray.ewbin add %logr, %muT : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %vsqrtT = ndarray.ewbin multiply %v, %sqrtT : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %d1 = ndarray.ewbin divide %num, %vsqrtT : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %d2 = ndarray.ewbin subtract %d1, %vsqrtT : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %e1 = ndarray.ewbin divide %d1, %sqrt2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  %e2 = ndarray.ewbin divide %d2, %sqrt2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  %erf1 = ndarray.ewuny erf %e1 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %erf2 = ndarray.ewuny erf %e2 : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %h1 = ndarray.ewbin multiply %half, %erf1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %h2 = ndarray.ewbin multiply %half, %erf2 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %n1 = ndarray.ewbin add %half, %h1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %n2 = ndarray.ewbin add %half, %h2 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %rT = ndarray.ewbin multiply %r, %t : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %disc = ndarray.ewuny exp %rT : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %kd = ndarray.ewbin multiply %strike, %disc : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %sn1 = ndarray.ewbin multiply %price, %n1 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %kn2 = ndarray.ewbin multiply %kd, %n2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %c = ndarray.ewbin subtract %sn1, %kn2 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %ks = ndarray.ewbin subtract %kd, %price : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %p = ndarray.ewbin add %ks, %c : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  ndarray.insert_slice %c into %call[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  ndarray.insert_slice %p into %put[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  return
}

// RAMBO-style phase-space generation: massless momenta from uniform
// random numbers r1..r4 in (0, 1), with a Gaussian weight:
//   c = 2 r1 - 1, s = sqrt(1 - c^2), f = 2 pi r2, q = -log(r3 r4)
//   px = q s cos(f), py = q s sin(f), pz = q c, w = exp(-q^2 / 2)
func.func private @rambo(%r1: !ndarray.ndarray<?xf64>, %r2: !ndarray.ndarray<?xf64>, %r3: !ndarray.ndarray<?xf64>, %r4: !ndarray.ndarray<?xf64>,
                 %px: !ndarray.ndarray<?xf64>, %py: !ndarray.ndarray<?xf64>, %pz: !ndarray.ndarray<?xf64>, %w: !ndarray.ndarray<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = ndarray.dim %r1, %c0 : !ndarray.ndarray<?xf64>
  %one_f = arith.constant 1.0 : f64
  %two_f = arith.constant 2.0 : f64
  %twopi_f = arith.constant 6.283185307179586 : f64
  %mhalf_f = arith.constant -0.5 : f64
  %one = ndarray.create value %one_f : !ndarray.ndarray<f64>
  %two = ndarray.create value %two_f : !ndarray.ndarray<f64>
  %twopi = ndarray.create value %twopi_f : !ndarray.ndarray<f64>
  %mhalf = ndarray.create value %mhalf_f : !ndarray.ndarray<f64>
  %t = ndarray.ewbin multiply %two, %r1 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %c = ndarray.ewbin subtract %t, %one : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?xf64>
  %cc = ndarray.ewbin multiply %c, %c : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %ss = ndarray.ewbin subtract %one, %cc : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %s = ndarray.ewuny sqrt %ss : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %f = ndarray.ewbin multiply %twopi, %r2 : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %rr = ndarray.ewbin multiply %r3, %r4 : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %lr = ndarray.ewuny log %rr : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %q = ndarray.ewuny negative %lr : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %qs = ndarray.ewbin multiply %q, %s : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %cf = ndarray.ewuny cos %f : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %sf = ndarray.ewuny sin %f : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  %x = ndarray.ewbin multiply %qs, %cf : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %y = ndarray.ewbin multiply %qs, %sf : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %z = ndarray.ewbin multiply %q, %c : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %qq = ndarray.ewbin multiply %q, %q : (!ndarray.ndarray<?xf64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %e = ndarray.ewbin multiply %mhalf, %qq : (!ndarray.ndarray<f64>, !ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xf64>
  %g = ndarray.ewuny exp %e : !ndarray.ndarray<?xf64> -> !ndarray.ndarray<?xf64>
  ndarray.insert_slice %x into %px[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  ndarray.insert_slice %y into %py[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  ndarray.insert_slice %z into %pz[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  ndarray.insert_slice %g into %w[0] [%n] [1] : !ndarray.ndarray<?xf64> into !ndarray.ndarray<?xf64>
  return
}

// One 2-D 5-point Jacobi sweep from u into the interior of v:
//   v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
func.func private @stencil(%u: !ndarray.ndarray<?x?xf64>, %v: !ndarray.ndarray<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = ndarray.dim %u, %c0 : !ndarray.ndarray<?x?xf64>
  %m = arith.subi %n, %c2 : index
  %q_f = arith.constant 0.25 : f64
  %q = ndarray.create value %q_f : !ndarray.ndarray<f64>
  %north = ndarray.subview %u[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %south = ndarray.subview %u[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %west = ndarray.subview %u[1, 0] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %east = ndarray.subview %u[1, 2] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
  %ns = ndarray.ewbin add %north, %south : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %we = ndarray.ewbin add %west, %east : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %sum = ndarray.ewbin add %ns, %we : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
  %new = ndarray.ewbin multiply %sum, %q : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %new into %v[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  return
}
