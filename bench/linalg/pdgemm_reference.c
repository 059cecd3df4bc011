/* The distributed reference of bench/linalg: C = A B of n x n float64
 * matrices with ScaLAPACK's pdgemm on a p x q process grid (the most square
 * grid of the ranks, as the frontend's split=(0, 1)), block-cyclic blocks of
 * nb x nb. Prints, on rank 0, the best time of `reps` calls (between
 * barriers) in seconds and the checksum sum(C).
 *
 *   mpirun -n 4 pdgemm_reference n reps [nb]
 *
 * A[i][j] = (i * n + j) % 7 - 3, B[i][j] = (i * n + j) % 5 - 2 (as
 * gemm_reference.c).
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "blacs.h"

void pdgemm_(const char *transa, const char *transb, const int *m,
             const int *n, const int *k, const double *alpha, const double *a,
             const int *ia, const int *ja, const int *desca, const double *b,
             const int *ib, const int *jb, const int *descb,
             const double *beta, double *c, const int *ic, const int *jc,
             const int *descc);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 3) {
    fprintf(stderr, "usage: %s n reps [nb]\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int n = atoi(argv[1]), reps = atoi(argv[2]);
  const int nb = argc > 3 ? atoi(argv[3]) : 128;
  int rank, size;
  Cblacs_pinfo(&rank, &size);
  int p = (int)sqrt((double)size);
  while (size % p)
    --p;
  const int q = size / p;
  int context, prow, pcol, rows, cols;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", p, q);
  Cblacs_gridinfo(context, &rows, &cols, &prow, &pcol);
  const int zero = 0, one = 1;
  const int mloc = numroc_(&n, &nb, &prow, &zero, &p);
  const int nloc = numroc_(&n, &nb, &pcol, &zero, &q);
  const int lld = mloc > 1 ? mloc : 1;
  int desc[9], info;
  descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &context, &lld, &info);
  double *a = malloc(sizeof(double) * lld * (nloc ? nloc : 1));
  double *b = malloc(sizeof(double) * lld * (nloc ? nloc : 1));
  double *c = malloc(sizeof(double) * lld * (nloc ? nloc : 1));
  /* Local (li, lj) (column-major) is global row (li / nb * p + prow) * nb +
   * li % nb, and likewise for columns. */
  for (int lj = 0; lj < nloc; ++lj) {
    long j = (long)(lj / nb * q + pcol) * nb + lj % nb;
    for (int li = 0; li < mloc; ++li) {
      long i = (long)(li / nb * p + prow) * nb + li % nb;
      a[li + (long)lj * lld] = (double)((i * n + j) % 7) - 3.0;
      b[li + (long)lj * lld] = (double)((i * n + j) % 5) - 2.0;
    }
  }
  /* pdgemm computes in column-major terms: C = A B of the column-major
   * matrices above, which are the row-major A and B of the frontend. */
  const double alpha = 1.0, beta = 0.0;
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one,
            desc, &beta, c, &one, &one, desc);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    best = t < best ? t : best;
  }
  double local = 0, sum = 0;
  for (int lj = 0; lj < nloc; ++lj)
    for (int li = 0; li < mloc; ++li)
      local += c[li + (long)lj * lld];
  MPI_Reduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%.9f %.17g\n", best, sum);
  free(a);
  free(b);
  free(c);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
