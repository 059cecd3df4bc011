/* The distributed FFT reference of bench/linalg: the forward complex128 DFT
 * of an n^rank array (rank 2 or 3) split on its first axis with FFTW-MPI
 * called directly (its slab decomposition, output in the input's layout,
 * not transposed, as the frontend returns it): a plan (FFTW_ESTIMATE, as
 * the runtime's local plans) and its execution, both timed between
 * barriers. Prints, on rank 0, the best time of `reps` transforms in
 * seconds and a checksum (the sum of the real parts).
 *
 *   mpirun -n 4 fftw_mpi_reference rank n reps
 *
 * The input is x[i] = (i % 7 - 3) + (i % 5 - 2) j (as fft_reference.c).
 */
#include <fftw3-mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fftw_mpi_init();
  if (argc != 4) {
    fprintf(stderr, "usage: %s rank n reps\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int rank = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
  if (rank < 2 || rank > 3)
    MPI_Abort(MPI_COMM_WORLD, 2);
  ptrdiff_t dims[3] = {n, n, n}, localRows, firstRow;
  ptrdiff_t alloc = fftw_mpi_local_size(rank, dims, MPI_COMM_WORLD, &localRows,
                                        &firstRow);
  long rowSize = rank == 2 ? n : (long)n * n;
  fftw_complex *in = fftw_alloc_complex(alloc ? alloc : 1),
               *out = fftw_alloc_complex(alloc ? alloc : 1);
  for (long k = 0; k < localRows * rowSize; ++k) {
    long i = firstRow * rowSize + k;
    in[k][0] = (double)(i % 7) - 3.0;
    in[k][1] = (double)(i % 5) - 2.0;
  }
  double best = 1e300;
  for (int rep = 0; rep < reps; ++rep) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    fftw_plan p = fftw_mpi_plan_dft(rank, dims, in, out, MPI_COMM_WORLD,
                                    FFTW_FORWARD, FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    best = t < best ? t : best;
  }
  double local = 0, checksum = 0;
  for (long k = 0; k < localRows * rowSize; ++k)
    local += out[k][0];
  MPI_Reduce(&local, &checksum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0)
    printf("%.9f %.17g\n", best, checksum);
  fftw_free(in);
  fftw_free(out);
  fftw_mpi_cleanup();
  MPI_Finalize();
  return 0;
}
