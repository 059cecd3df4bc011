#!/usr/bin/env bash
# Builds imex-dist-bench (with the project, in $BUILD_DIR, default ./build,
# Release) and the hand-written C++/MPI reference (mpicxx with clang++-22
# -O3 -march=native), then runs bench/dist/run.py, which prints the table
# (options are passed through), e.g.
#   bench/dist/run.sh                                  # jacobi + wave2d, 1/2/4 ranks
#   bench/dist/run.sh --kernels wave2d --sizes 1024 --ablate auto
#   bench/dist/run.sh --variant nocoal='imex-dist-cpu-pipeline{dist-coalesce=0}'
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=${BUILD_DIR:-build}
export BUILD_DIR
scripts/setup.sh >/dev/null
if ! grep -q "^CMAKE_BUILD_TYPE:STRING=Release" "$BUILD_DIR/CMakeCache.txt"; then
  echo "warning: $BUILD_DIR is not a Release build (libidtr is not optimized)" >&2
fi
cmake --build "$BUILD_DIR" --target imex-dist-bench imex-opt
mkdir -p "$BUILD_DIR/bench-dist"
# (No fused multiply-adds by default: the reference then does the
# floating-point operations ours and numpy do, with the same rounding;
# REFERENCE_FLAGS= compares with clang's default contraction instead.)
OMPI_CXX=${CXX:-clang++-22} mpicxx -O3 -march=native \
  ${REFERENCE_FLAGS--ffp-contract=off} -DOMPI_SKIP_MPICXX \
  -o "$BUILD_DIR/bench-dist/jacobi_mpi" bench/dist/jacobi_mpi.cpp
exec /usr/bin/python3 bench/dist/run.py --build "$BUILD_DIR" \
  --reference "$BUILD_DIR/bench-dist/jacobi_mpi" "$@"
