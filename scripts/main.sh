#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job: the 2-D
# Jacobi example, parsed, verified and canonicalized by imex-opt.
# (Execution and distribution arrive with the lowering and runtime issues.)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
echo "== imex-opt -canonicalize examples/jacobi2d.mlir"
"$BUILD_DIR/bin/imex-opt" -canonicalize examples/jacobi2d.mlir
