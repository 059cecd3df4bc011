#!/usr/bin/env bash
# Configures and builds the checked compiler build (default: build-san):
# project code with AddressSanitizer, UndefinedBehaviorSanitizer, assertions
# and libFuzzer coverage, optimized with -O1 (docs/testing.md). The IDTR
# runtime in it is built with its own sanitizers; the Python frontend is
# left out (it would need an instrumented interpreter).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-build-san}
LLVM_PREFIX=$(llvm-config-22 --prefix)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only" \
    "-DCMAKE_C_FLAGS_RELEASE=-O1 -gline-tables-only" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DPython3_EXECUTABLE=/usr/bin/python3 \
    -DIMEX_ENABLE_FUZZER=ON -DIMEX_ENABLE_ASSERTIONS=ON \
    -DIDTR_ENABLE_SANITIZERS=ON
fi
# The tools the checks use (not the benchmarks or the runtime's tests).
cmake --build "$BUILD_DIR" --target imex-opt imex-runner imex-fuzz \
  imex_runner_utils idtr
