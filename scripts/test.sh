#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite:
# the lit suite (check-imex), every CTest test (runtime tests under mpirun
# with 1-5 ranks), and the runtime tests again under AddressSanitizer and
# LeakSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}

echo "== ctest (lit suite + runtime tests)"
ctest --test-dir "$BUILD_DIR" --output-on-failure --timeout 600

if [ -f runtime/CMakeLists.txt ]; then
  echo "== runtime under AddressSanitizer/LeakSanitizer"
  ASAN_DIR="$BUILD_DIR-runtime-asan"
  if [ ! -f "$ASAN_DIR/build.ninja" ]; then
    cmake -G Ninja -S runtime -B "$ASAN_DIR" \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
      -DIDTR_ENABLE_SANITIZERS=ON
  fi
  cmake --build "$ASAN_DIR"
  ctest --test-dir "$ASAN_DIR" --output-on-failure --timeout 600
fi
