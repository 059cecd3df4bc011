/* The BLACS and ScaLAPACK tool routines the ScaLAPACK references of
 * bench/linalg use (pdgemm_reference.c, pdgesv_reference.c,
 * pdgeqrf_reference.c): Debian's libscalapack-openmpi ships no header. */
#ifndef BENCH_LINALG_BLACS_H
#define BENCH_LINALG_BLACS_H

void Cblacs_pinfo(int *rank, int *size);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int rows, int cols);
void Cblacs_gridinfo(int context, int *rows, int *cols, int *row, int *col);
void Cblacs_gridexit(int context);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc,
            const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb,
               const int *nb, const int *irsrc, const int *icsrc,
               const int *context, const int *lld, int *info);

#endif
