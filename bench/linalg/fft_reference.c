/* The FFTW reference of bench/linalg: the forward complex128 DFT of an
 * n^rank array (rank 2 or 3) with FFTW3 called directly: a plan
 * (FFTW_ESTIMATE, as the runtime's) and its execution, both timed, as a
 * program transforming one array does. Prints the best time of `reps`
 * transforms in seconds and a checksum (the sum of the real parts).
 *
 *   fft_reference rank n reps
 *
 * The input is x[i] = (i % 7 - 3) + (i % 5 - 2) j.
 */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s rank n reps\n", argv[0]);
    return 2;
  }
  const int rank = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
  if (rank < 1 || rank > 3)
    return 2;
  int dims[3] = {n, n, n};
  long total = 1;
  for (int k = 0; k < rank; ++k)
    total *= n;
  fftw_complex *in = fftw_malloc(sizeof(fftw_complex) * total),
               *out = fftw_malloc(sizeof(fftw_complex) * total);
  for (long i = 0; i < total; ++i) {
    in[i][0] = (double)(i % 7) - 3.0;
    in[i][1] = (double)(i % 5) - 2.0;
  }
  double best = 1e300, checksum = 0;
  for (int rep = 0; rep < reps; ++rep) {
    double t0 = now();
    fftw_plan p =
        fftw_plan_dft(rank, dims, in, out, FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    double t = now() - t0;
    best = t < best ? t : best;
  }
  for (long i = 0; i < total; ++i)
    checksum += out[i][0];
  printf("%.9f %.17g\n", best, checksum);
  fftw_free(in);
  fftw_free(out);
  return 0;
}
