#!/usr/bin/env bash
# Runs bench/scale/run.py (options passed through) against the build in
# $BUILD_DIR (default ./build), e.g.
#   bench/scale/run.sh                        # P = 1, 2, 4, 8, 16, 32
#   bench/scale/run.sh --ranks 1,8,64 --only halo,replicated_read
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/env.sh
BUILD_DIR=$PWD/${BUILD_DIR:-build}
export IMEX_RUNNER=$BUILD_DIR/bin/imex-runner IMEX_OPT=$BUILD_DIR/bin/imex-opt
export IMEX_MPIEXEC=$(command -v mpiexec)
export IMEX_CACHE_DIR=${IMEX_CACHE_DIR:-$BUILD_DIR/bench-scale/cache}
exec /usr/bin/python3 bench/scale/run.py "$@"
