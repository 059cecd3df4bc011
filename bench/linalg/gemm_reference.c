/* The reference of bench/linalg: C = A B of n x n float64 matrices with
 * OpenBLAS's cblas_dgemm called directly, on `threads` threads; prints the
 * best time of `reps` calls in seconds and the checksum sum(C).
 *
 *   gemm_reference n reps threads
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s n reps threads\n", argv[0]);
    return 2;
  }
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  openblas_set_num_threads(atoi(argv[3]));
  double *a = malloc(sizeof(double) * n * n),
         *b = malloc(sizeof(double) * n * n),
         *c = malloc(sizeof(double) * n * n);
  for (long i = 0; i < (long)n * n; ++i) {
    a[i] = (double)(i % 7) - 3.0;
    b[i] = (double)(i % 5) - 2.0;
  }
  double best = 1e300, sum = 0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n,
                b, n, 0.0, c, n);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  for (long i = 0; i < (long)n * n; ++i)
    sum += c[i];
  printf("%.9f %.17g\n", best, sum);
  free(a);
  free(b);
  free(c);
  return 0;
}
