// Hand-written C++ references for bench/cpu: the same kernels as the ndarray
// programs, compiled with clang++ -O3 -march=native.
//
//   reference <kernel> <n> <reps>     kernel: triad | blackscholes | rambo |
//   stencil
//
// Prints the seconds per repetition (best of the timed repetitions are not
// used: like the ndarray programs, the mean over <reps>) and a checksum.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using Clock = std::chrono::steady_clock;

static double seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// a = b + s * c
static void triad(long n, int reps) {
  std::vector<double> a(n, 1.0), b(n), c(n);
  for (long i = 0; i < n; ++i) {
    b[i] = 1.0 + double(i) / n;
    c[i] = 2.0 + double(i) / n;
  }
  const double s = 3.0;
  auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    double *__restrict pa = a.data();
    const double *__restrict pb = b.data();
    const double *__restrict pc = c.data();
    for (long i = 0; i < n; ++i)
      pa[i] = pb[i] + s * pc[i];
  }
  auto t1 = Clock::now();
  std::printf("%.9g %.17g\n", seconds(t0, t1) / reps, a[n / 2]);
}

// European call and put prices.
static void blackscholes(long n, int reps) {
  std::vector<double> price(n), strike(n), t(n), call(n), put(n);
  for (long i = 0; i < n; ++i) {
    double x = double(i) / n;
    price[i] = 10.0 + 40.0 * x;
    strike[i] = 20.0 + 10.0 * x;
    t[i] = 0.5 + 1.5 * x;
  }
  const double rate = 0.02, vol = 0.3;
  auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    for (long i = 0; i < n; ++i) {
      double sqrtT = std::sqrt(t[i]);
      double d1 =
          (std::log(price[i] / strike[i]) + (rate + 0.5 * vol * vol) * t[i]) /
          (vol * sqrtT);
      double d2 = d1 - vol * sqrtT;
      double n1 = 0.5 + 0.5 * std::erf(d1 / std::sqrt(2.0));
      double n2 = 0.5 + 0.5 * std::erf(d2 / std::sqrt(2.0));
      double discounted = strike[i] * std::exp(-rate * t[i]);
      call[i] = price[i] * n1 - discounted * n2;
      put[i] = discounted - price[i] + call[i];
    }
  }
  auto t1 = Clock::now();
  std::printf("%.9g %.17g\n", seconds(t0, t1) / reps, call[n / 2] + put[n / 3]);
}

// RAMBO-style momenta with a Gaussian weight (see kernels.mlir).
static void rambo(long n, int reps) {
  std::vector<double> r1(n), r2(n), r3(n), r4(n), px(n), py(n), pz(n), w(n);
  for (long i = 0; i < n; ++i) {
    double x = (double(i) + 0.5) / n;
    r1[i] = x;
    r2[i] = 1.0 - x;
    r3[i] = 0.25 + 0.5 * x;
    r4[i] = 0.75 - 0.5 * x;
  }
  const double twoPi = 6.283185307179586;
  auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    for (long i = 0; i < n; ++i) {
      double c = 2.0 * r1[i] - 1.0;
      double s = std::sqrt(1.0 - c * c);
      double f = twoPi * r2[i];
      double q = -std::log(r3[i] * r4[i]);
      double qs = q * s;
      px[i] = qs * std::cos(f);
      py[i] = qs * std::sin(f);
      pz[i] = q * c;
      w[i] = std::exp(-0.5 * (q * q));
    }
  }
  auto t1 = Clock::now();
  std::printf("%.9g %.17g\n", seconds(t0, t1) / reps,
              px[n / 3] + py[n / 5] + pz[n / 2] + w[n / 7]);
}

// 2-D 5-point Jacobi on an n x n grid, two buffers swapped.
static void stencil(long n, int reps) {
  std::vector<double> u(n * n, 0.0), v(n * n, 0.0);
  for (long j = 0; j < n; ++j)
    u[j] = v[j] = 1.0;
  auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    const double *__restrict src = u.data();
    double *__restrict dst = v.data();
    for (long i = 1; i < n - 1; ++i)
      for (long j = 1; j < n - 1; ++j)
        dst[i * n + j] = 0.25 * (src[(i - 1) * n + j] + src[(i + 1) * n + j] +
                                 src[i * n + j - 1] + src[i * n + j + 1]);
    std::swap(u, v);
  }
  auto t1 = Clock::now();
  double sum = 0;
  for (double x : u)
    sum += x;
  std::printf("%.9g %.17g\n", seconds(t0, t1) / reps, sum);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s triad|blackscholes|rambo|stencil n reps\n",
                 argv[0]);
    return 2;
  }
  long n = std::atol(argv[2]);
  int reps = std::atoi(argv[3]);
  if (!std::strcmp(argv[1], "triad"))
    triad(n, reps);
  else if (!std::strcmp(argv[1], "blackscholes"))
    blackscholes(n, reps);
  else if (!std::strcmp(argv[1], "rambo"))
    rambo(n, reps);
  else if (!std::strcmp(argv[1], "stencil"))
    stencil(n, reps);
  else {
    std::fprintf(stderr, "unknown kernel %s\n", argv[1]);
    return 2;
  }
  return 0;
}
