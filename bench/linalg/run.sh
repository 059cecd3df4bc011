#!/usr/bin/env bash
# Builds the Python frontend and the C references (gemm_reference.c with
# OpenBLAS, lapack_reference.c with LAPACKE, fft_reference.c with FFTW3,
# pdgemm_reference.c, pdgesv_reference.c and pdgeqrf_reference.c with ScaLAPACK,
# fftw_mpi_reference.c with FFTW-MPI),
# then runs bench/linalg/run.py with every BLAS on the same thread count
# (options are passed through), e.g.
#   bench/linalg/run.sh
#   bench/linalg/run.sh --sizes 1024 --threads 2 --lapack-sizes 1024
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh >/dev/null
cmake --build "$BUILD_DIR" --target imex-python
clang-22 -O2 -I/usr/include/x86_64-linux-gnu/openblas-pthread \
  -o "$BUILD_DIR/bench-gemm-reference" bench/linalg/gemm_reference.c -lopenblas
clang-22 -O2 -I/usr/include/x86_64-linux-gnu/openblas-pthread \
  -o "$BUILD_DIR/bench-lapack-reference" bench/linalg/lapack_reference.c \
  -llapacke -lopenblas -lm
clang-22 -O2 -o "$BUILD_DIR/bench-fft-reference" bench/linalg/fft_reference.c \
  -lfftw3
mpicc -O2 -o "$BUILD_DIR/bench-pdgemm-reference" \
  bench/linalg/pdgemm_reference.c -lscalapack-openmpi -lopenblas -lm
mpicc -O2 -o "$BUILD_DIR/bench-pdgesv-reference" \
  bench/linalg/pdgesv_reference.c -lscalapack-openmpi -lopenblas -lm
mpicc -O2 -o "$BUILD_DIR/bench-pdgeqrf-reference" \
  bench/linalg/pdgeqrf_reference.c -lscalapack-openmpi -lopenblas -lm
mpicc -O2 -o "$BUILD_DIR/bench-fftw-mpi-reference" \
  bench/linalg/fftw_mpi_reference.c -lfftw3_mpi -lfftw3
threads=1
for ((i = 1; i <= $#; ++i)); do
  [ "${!i}" = "--threads" ] && { j=$((i + 1)); threads=${!j}; }
done
# (numpy's BLAS and ours read the thread count from the environment.)
export OPENBLAS_NUM_THREADS=$threads IMEX_BLAS_THREADS=$threads
exec /usr/bin/python3 bench/linalg/run.py --python "$BUILD_DIR/python" \
  --reference "$BUILD_DIR/bench-gemm-reference" \
  --lapack-reference "$BUILD_DIR/bench-lapack-reference" \
  --fft-reference "$BUILD_DIR/bench-fft-reference" \
  --pdgemm-reference "$BUILD_DIR/bench-pdgemm-reference" \
  --pdgesv-reference "$BUILD_DIR/bench-pdgesv-reference" \
  --pdgeqrf-reference "$BUILD_DIR/bench-pdgeqrf-reference" \
  --fftw-mpi-reference "$BUILD_DIR/bench-fftw-mpi-reference" "$@"
