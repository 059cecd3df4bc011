#!/usr/bin/env bash
# Builds the frontend and the hand-written C++/MPI loops (mpicxx with
# clang++-22 -O3 -march=native -ffp-contract=off, as bench/dist), then runs
# bench/statements/run.py (options are passed through), e.g.
#   bench/statements/run.sh                       # 4096², 1/2/4 ranks, rows and grid
#   bench/statements/run.sh --only iadd_rows,update_rows --ranks 2
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh >/dev/null
cmake --build "$BUILD_DIR" --target imex-python
mkdir -p "$BUILD_DIR/bench-statements"
OMPI_CXX=${CXX:-clang++-22} mpicxx -O3 -march=native -ffp-contract=off \
  -DOMPI_SKIP_MPICXX -o "$BUILD_DIR/bench-statements/statements_mpi" \
  bench/statements/statements_mpi.cpp
exec /usr/bin/python3 bench/statements/run.py \
  --python-dir "$BUILD_DIR/python" \
  --reference "$BUILD_DIR/bench-statements/statements_mpi" "$@"
