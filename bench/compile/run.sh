#!/usr/bin/env bash
# Compile-time benchmark: builds imex-runner (in $BUILD_DIR, default ./build)
# and runs bench/compile/run.py, which times the compilation of the
# single-process and the distributed example programs step by step
# (imex-runner --timing) and prints their ratio. Options pass through, e.g.
#   bench/compile/run.sh --repeat 5
#   bench/compile/run.sh --programs examples/wave1d.mlir:imex-dist-cpu-pipeline
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=${BUILD_DIR:-build}
scripts/setup.sh >/dev/null
cmake --build "$BUILD_DIR" --target imex-runner
exec /usr/bin/python3 bench/compile/run.py --build "$BUILD_DIR" "$@"
