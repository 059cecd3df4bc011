#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the whole test suite:
# the lit suite (check-imex), every CTest test (runtime tests under mpirun
# with 1-5 ranks), the runtime tests again under AddressSanitizer and
# LeakSanitizer, and the checked compiler (ASan + UBSan + assertions): the
# lit suite, a subset of the execution tests and the fuzzer's seeds
# (docs/testing.md).
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

echo "== checked compiler (ASan + UBSan + assertions, build-san)"
SAN_DIR="$BUILD_DIR-san"
scripts/build-san.sh "$SAN_DIR"
lit -q "$SAN_DIR/test"
(
  cd test/Execution
  export IMEX_RUNNER="$OLDPWD/$SAN_DIR/bin/imex-runner"
  export IMEX_OPT="$OLDPWD/$SAN_DIR/bin/imex-opt"
  export IMEX_CACHE_DIR="$OLDPWD/$SAN_DIR/test/jit-cache"
  export IMEX_MPIEXEC=$(command -v mpiexec)
  /usr/bin/python3 -m pytest -q -p no:cacheprovider test_manipulation.py \
    test_indexing.py test_examples.py
  # Open MPI's own allocations are not freed at exit.
  ASAN_OPTIONS=detect_leaks=0 /usr/bin/python3 -m pytest -q \
    -p no:cacheprovider dist/test_dist_views.py
)
SAN_BUILD_DIR="$SAN_DIR" FUZZ_DIR="$SAN_DIR/fuzz" scripts/fuzz.sh --replay 0 \
  imex-cpu-pipeline imex-dist-cpu-pipeline each-pass
