#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job: the 2-D
# 5-point Jacobi example, written in ndarray IR, lowered with
# imex-cpu-pipeline and JIT-run by imex-runner; numpy runs the same program
# for comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
echo "== imex-runner examples/jacobi2d.mlir  (64 x 64 grid, 200 iterations)"
"$BUILD_DIR/bin/imex-runner" examples/jacobi2d.mlir
echo "== numpy reference: python3 examples/jacobi2d.py"
/usr/bin/python3 examples/jacobi2d.py
