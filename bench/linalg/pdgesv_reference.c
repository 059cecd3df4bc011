/* The distributed solve reference of bench/linalg: X = A^-1 B of an n x n
 * float64 matrix and n x 2 right-hand sides with ScaLAPACK's pdgesv on a
 * p x q process grid (MPI_Dims_create's, as the frontend's runtime uses),
 * block-cyclic blocks of nb x nb (64, as the runtime's default). Each call
 * factors a fresh copy of A (copied before the timer starts). Prints, on
 * rank 0, the best time of `reps` calls (between barriers) in seconds and
 * the checksum sum(X).
 *
 *   mpirun -n 4 pdgesv_reference n reps [nb]
 *
 * A[i][j] = (i == j ? 2 n : 0) + ((i * n + j) % 7 - 3) / 4, B[i][k] =
 * (i * 2 + k) % 5 - 2 (as dist_solve.py).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blacs.h"

void pdgesv_(const int *n, const int *nrhs, double *a, const int *ia,
             const int *ja, const int *desca, int *ipiv, double *b,
             const int *ib, const int *jb, const int *descb, int *info);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 3) {
    fprintf(stderr, "usage: %s n reps [nb]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]), k = 2;
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
  const int zero = 0, one = 1;
  const int mloc = numroc_(&n, &nb, &prow, &zero, &p);
  const int nloc = numroc_(&n, &nb, &pcol, &zero, &q);
  const int kloc = numroc_(&k, &nb, &pcol, &zero, &q);
  const int lld = mloc > 1 ? mloc : 1;
  int desca[9], descb[9], info;
  descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &context, &lld, &info);
  descinit_(descb, &n, &k, &nb, &nb, &zero, &zero, &context, &lld, &info);
  size_t asize = (size_t)lld * (nloc ? nloc : 1),
         bsize = (size_t)lld * (kloc ? kloc : 1);
  double *a0 = malloc(sizeof(double) * asize), *a = malloc(sizeof(double) * asize);
  double *b0 = malloc(sizeof(double) * bsize), *b = malloc(sizeof(double) * bsize);
  int *ipiv = malloc(sizeof(int) * (mloc + nb));
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
  for (int lj = 0; lj < kloc; ++lj) {
    long j = (long)(lj / nb * q + pcol) * nb + lj % nb;
    for (int li = 0; li < mloc; ++li) {
      long i = (long)(li / nb * p + prow) * nb + li % nb;
      b0[li + (long)lj * lld] = (double)((i * 2 + j) % 5) - 2.0;
    }
  }
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    memcpy(a, a0, sizeof(double) * asize);
    memcpy(b, b0, sizeof(double) * bsize);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    pdgesv_(&n, &k, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    best = t < best ? t : best;
  }
  double local = 0, sum = 0;
  for (int lj = 0; lj < kloc; ++lj)
    for (int li = 0; li < mloc; ++li)
      local += b[li + (long)lj * lld];
  MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.9f %.17g\n", best, sum);
  free(a0);
  free(a);
  free(b0);
  free(b);
  free(ipiv);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
