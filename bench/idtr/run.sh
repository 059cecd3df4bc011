#!/usr/bin/env bash
# Build libidtr standalone (Release) with the benchmark and run it on 1..8
# ranks (oversubscribed if needed). Prints one table per rank count and
# writes all results to a CSV file.
#
#   bench/idtr/run.sh [max_ranks]    environment: BUILD_DIR, CSV, ITERS,
#                                    ROWS_PER_RANK, COLS, CXX, CC
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${BUILD_DIR:-$root/build-idtr-bench}"
csv="${CSV:-$build/idtr_bench.csv}"
max="${1:-8}"
cxx="${CXX:-clang++-22}"
cc="${CC:-clang-22}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

cmake -S "$root/runtime" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" "${launcher[@]}" \
  -DIDTR_BUILD_TESTS=OFF -DIDTR_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target idtr_bench

mpiexec_flags=()
if mpiexec --version 2>&1 | grep -q "Open MPI\|OpenRTE"; then
  mpiexec_flags=(--allow-run-as-root --oversubscribe)
fi
rm -f "$csv"
for np in $(seq 1 "$max"); do
  mpiexec -n "$np" "${mpiexec_flags[@]}" "$build/bench/idtr_bench" \
    --iters "${ITERS:-200}" --rows-per-rank "${ROWS_PER_RANK:-256}" \
    --cols "${COLS:-256}" --csv "$csv"
done
echo
echo "CSV written to $csv"
