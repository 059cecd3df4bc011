#!/usr/bin/env bash
# Builds imex-bench (with the project) and the C++ reference
# (clang++-22 -O3 -march=native), then runs bench/cpu/run.py.
#   bench/cpu/run.sh [--quick] [--kernels triad,stencil]
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh >/dev/null
cmake --build "$BUILD_DIR" --target imex-bench
clang++-22 -O3 -march=native -o "$BUILD_DIR/bench-cpu-reference" bench/cpu/reference.cpp
exec /usr/bin/python3 bench/cpu/run.py --build "$BUILD_DIR" \
  --reference "$BUILD_DIR/bench-cpu-reference" "$@"
