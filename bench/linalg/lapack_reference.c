/* The LAPACK reference of bench/linalg: solve (dgesv) and reduced QR
 * (dgeqrf + dorgqr) of an n x n float64 matrix with LAPACKE called
 * directly on row-major data, as a C program keeping its input would: the
 * matrix is copied first (LAPACK overwrites it), and the copy is timed.
 * Prints the best time of `reps` calls in seconds and a checksum (sum of x,
 * or sum of R's diagonal magnitudes).
 *
 *   lapack_reference solve|qr n reps
 *
 * OpenBLAS runs on OPENBLAS_NUM_THREADS threads (bench/linalg/run.sh sets
 * it). The matrix is A[i][j] = ((i * n + j) * 7919 % 1000) / 1000 - 0.5, plus n
 * on the diagonal; the right-hand side of solve is b[i] = i % 3 - 1.
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "solve") && strcmp(argv[1], "qr"))) {
    fprintf(stderr, "usage: %s solve|qr n reps\n", argv[0]);
    return 2;
  }
  const int solve = !strcmp(argv[1], "solve");
  const long n = atol(argv[2]);
  const int reps = atoi(argv[3]);
  double *a = malloc(sizeof(double) * n * n),
         *w = malloc(sizeof(double) * n * n),
         *r = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n),
         *x = malloc(sizeof(double) * n), *tau = malloc(sizeof(double) * n);
  lapack_int *ipiv = malloc(sizeof(lapack_int) * n);
  for (long i = 0; i < n * n; ++i)
    a[i] = (double)(i * 7919 % 1000) / 1000.0 - 0.5;
  for (long i = 0; i < n; ++i) {
    a[i * n + i] += (double)n;
    b[i] = (double)(i % 3) - 1.0;
  }
  double best = 1e300, checksum = 0;
  for (int rep = 0; rep < reps; ++rep) {
    double t0 = now();
    memcpy(w, a, sizeof(double) * n * n);
    if (solve) {
      memcpy(x, b, sizeof(double) * n);
      if (LAPACKE_dgesv(LAPACK_ROW_MAJOR, n, 1, w, n, ipiv, x, 1))
        return 1;
    } else {
      if (LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, n, n, w, n, tau))
        return 1;
      memset(r, 0, sizeof(double) * n * n);
      for (long i = 0; i < n; ++i)
        memcpy(r + i * n + i, w + i * n + i, sizeof(double) * (n - i));
      if (LAPACKE_dorgqr(LAPACK_ROW_MAJOR, n, n, n, w, n, tau))
        return 1;
    }
    double t = now() - t0;
    best = t < best ? t : best;
  }
  for (long i = 0; i < n; ++i)
    checksum += solve ? x[i] : fabs(r[i * n + i]);
  printf("%.9f %.17g\n", best, checksum);
  return 0;
}
