/* The distributed QR reference of bench/linalg: Q, R = qr(A) (reduced) of
 * an n x n float64 matrix with ScaLAPACK's pdgeqrf + pdorgqr on a p x q
 * process grid (MPI_Dims_create's, as the frontend's runtime uses),
 * block-cyclic blocks of nb x nb (64, as the runtime's default). Each call
 * factors a fresh copy of A (copied before the timer starts). Prints, on
 * rank 0, the best time of `reps` calls (between barriers) in seconds and
 * the checksum sum(|R|) (R: the upper triangle after pdgeqrf).
 *
 *   mpirun -n 4 pdgeqrf_reference n reps [nb]
 *
 * A[i][j] = (i == j ? 2 n : 0) + ((i * n + j) % 7 - 3) / 4 (as dist_qr.py).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"

void pdgeqrf_(const int *m, const int *n, double *a, const int *ia,
              const int *ja, const int *desca, double *tau, double *work,
              const int *lwork, int *info);
void pdorgqr_(const int *m, const int *n, const int *k, double *a,
              const int *ia, const int *ja, const int *desca,
              const double *tau, double *work, const int *lwork, int *info);

/* Runs pdgeqrf, then pdorgqr unless `r_only`, each after a workspace
 * query (as the runtime calls them). */
static void qr(int n, double *a, const int *desca, double *tau, int r_only) {
  const int one = 1, query = -1;
  double size;
  int info, lwork;
  pdgeqrf_(&n, &n, a, &one, &one, desca, tau, &size, &query, &info);
  lwork = (int)size > 1 ? (int)size : 1;
  double *work = malloc(sizeof(double) * lwork);
  pdgeqrf_(&n, &n, a, &one, &one, desca, tau, work, &lwork, &info);
  free(work);
  if (r_only)
    return;
  pdorgqr_(&n, &n, &n, a, &one, &one, desca, tau, &size, &query, &info);
  lwork = (int)size > 1 ? (int)size : 1;
  work = malloc(sizeof(double) * lwork);
  pdorgqr_(&n, &n, &n, a, &one, &one, desca, tau, work, &lwork, &info);
  free(work);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 3) {
    fprintf(stderr, "usage: %s n reps [nb]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]);
  const int nb = argc > 3 ? atoi(argv[3]) : 64;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int p = dims[0], q = dims[1];
  int context, prow, pcol, rows, cols;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", p, q);
  Cblacs_gridinfo(context, &rows, &cols, &prow, &pcol);
  const int zero = 0;
  const int mloc = numroc_(&n, &nb, &prow, &zero, &p);
  const int nloc = numroc_(&n, &nb, &pcol, &zero, &q);
  const int lld = mloc > 1 ? mloc : 1;
  int desca[9], info;
  descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &context, &lld, &info);
  size_t asize = (size_t)lld * (nloc ? nloc : 1);
  double *a0 = malloc(sizeof(double) * asize), *a = malloc(sizeof(double) * asize);
  double *tau = malloc(sizeof(double) * (nloc + nb));
  /* Local (li, lj) (column-major) is global row (li / nb * p + prow) * nb +
   * li % nb, and likewise for columns. */
  for (int lj = 0; lj < nloc; ++lj) {
    long j = (long)(lj / nb * q + pcol) * nb + lj % nb;
    for (int li = 0; li < mloc; ++li) {
      long i = (long)(li / nb * p + prow) * nb + li % nb;
      a0[li + (long)lj * lld] =
          (i == j ? 2.0 * n : 0.0) + ((i * n + j) % 7 - 3) / 4.0;
    }
  }
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    memcpy(a, a0, sizeof(double) * asize);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    qr(n, a, desca, tau, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    best = t < best ? t : best;
  }
  memcpy(a, a0, sizeof(double) * asize);
  qr(n, a, desca, tau, 1);
  double local = 0, sum = 0;
  for (int lj = 0; lj < nloc; ++lj) {
    long j = (long)(lj / nb * q + pcol) * nb + lj % nb;
    for (int li = 0; li < mloc; ++li) {
      long i = (long)(li / nb * p + prow) * nb + li % nb;
      if (i <= j)
        local += fabs(a[li + (long)lj * lld]);
    }
  }
  MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.9f %.17g\n", best, sum);
  free(a0);
  free(a);
  free(tau);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
