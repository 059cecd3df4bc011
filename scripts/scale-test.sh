#!/usr/bin/env bash
# The distributed tests at many ranks, oversubscribed (issue 46; CI runs the
# 8-rank part through CTest, imex.execution.dist.8ranks and the frontend's
# test_distributed.py):
#   * test/Execution/dist, one variant of each test (IMEX_DIST_SUBSET=1:
#     every op family and distribution), on 1 and each of --ranks, every rank
#     count bit for bit equal to 1 rank where the harness promises it;
#   * test/python/dist under mpirun with each of --python-ranks;
#   * the examples on --example-ranks.
# Usage: scripts/scale-test.sh [--ranks 8,16,32] [--python-ranks 8,16]
#                              [--example-ranks 64]
# Needs a build (scripts/setup.sh). Logs: $SCALE_DIR (default /tmp/imex-scale).
set -euo pipefail
cd "$(dirname "$0")/.."
RANKS=8,16,32
PYTHON_RANKS=8,16
EXAMPLE_RANKS=64
while (($#)); do
  case "$1" in
  --ranks) RANKS=$2; shift 2 ;;
  --python-ranks) PYTHON_RANKS=$2; shift 2 ;;
  --example-ranks) EXAMPLE_RANKS=$2; shift 2 ;;
  *) echo "usage: $0 [--ranks L] [--python-ranks L] [--example-ranks L]" >&2
     exit 2 ;;
  esac
done
source scripts/env.sh
ROOT=$PWD
BUILD_DIR=$ROOT/${BUILD_DIR:-build}
SCALE_DIR=${SCALE_DIR:-/tmp/imex-scale}
mkdir -p "$SCALE_DIR"
export IMEX_RUNNER=$BUILD_DIR/bin/imex-runner IMEX_OPT=$BUILD_DIR/bin/imex-opt
export IMEX_MPIEXEC=$(command -v mpiexec) IMEX_CACHE_DIR=$SCALE_DIR/cache
export IMEX_PYTHON_DIR=$BUILD_DIR/python
status=0

run() { # label, log, command...
  local label=$1 log=$2
  shift 2
  local start=$SECONDS
  if "$@" >"$log" 2>&1; then
    echo "PASS $label ($((SECONDS - start)) s)"
  else
    echo "FAIL $label ($((SECONDS - start)) s): $log"
    tail -n 30 "$log"
    status=1
  fi
}

cd "$ROOT/test/Execution"
run "execution tests on 1,$RANKS ranks" "$SCALE_DIR/execution.log" \
  env IMEX_DIST_SUBSET=1 IMEX_DIST_RANKS="1,$RANKS" /usr/bin/python3 -m \
  pytest -q -rs -p no:cacheprovider dist --deselect dist/test_dist_examples.py
for n in ${EXAMPLE_RANKS//,/ }; do
  run "examples on 1,$n ranks" "$SCALE_DIR/examples-$n.log" \
    env IMEX_DIST_RANKS="1,$n" /usr/bin/python3 -m pytest -q \
    -p no:cacheprovider dist/test_dist_examples.py
done
cd "$ROOT/test/python"
for n in ${PYTHON_RANKS//,/ }; do
  run "frontend tests on $n ranks" "$SCALE_DIR/python-$n.log" \
    mpiexec -n "$n" /usr/bin/python3 -m pytest -q -p no:cacheprovider dist
done
exit $status
