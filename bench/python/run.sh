#!/usr/bin/env bash
# Builds the Python frontend and the C++ references (bench/cpu/reference.cpp,
# bench/dist/jacobi_mpi.cpp; -O3 -march=native), then runs bench/python/run.py
# (options are passed through), e.g.
#   bench/python/run.sh
#   bench/python/run.sh --only dispatch,chain,compile
#   bench/python/run.sh --n 1024 --ranks 1,2
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh >/dev/null
cmake --build "$BUILD_DIR" --target imex-python
clang++-22 -O3 -march=native -o "$BUILD_DIR/bench-cpu-reference" \
  bench/cpu/reference.cpp
mkdir -p "$BUILD_DIR/bench-dist"
# (No fused multiply-adds by default: the reference then does the
# floating-point operations ours and numpy do, with the same rounding;
# REFERENCE_FLAGS= compares with clang's default contraction instead.)
OMPI_CXX=${CXX:-clang++-22} mpicxx -O3 -march=native \
  ${REFERENCE_FLAGS--ffp-contract=off} -DOMPI_SKIP_MPICXX \
  -o "$BUILD_DIR/bench-dist/jacobi_mpi" bench/dist/jacobi_mpi.cpp
exec /usr/bin/python3 bench/python/run.py --python "$BUILD_DIR/python" \
  --cpp "$BUILD_DIR/bench-cpu-reference" \
  --mpi-reference "$BUILD_DIR/bench-dist/jacobi_mpi" "$@"
