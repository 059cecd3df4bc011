#!/usr/bin/env bash
# Runs the libFuzzer target imex-fuzz (tools/imex-fuzz) on the passes and
# pipelines, seeded with the lit tests (each `// -----` split is one input).
#
#   scripts/fuzz.sh [minutes per pipeline] [pipeline ...]
#   scripts/fuzz.sh --replay    # every seed once through each pipeline (CI)
#
# Default: 10 minutes each for imex-cpu-pipeline, imex-dist-cpu-pipeline and
# each-pass (every IMEX pass alone). Builds build-san (ASan + UBSan +
# assertions + coverage) on first use. Findings (crash-*, timeout-*, oom-*,
# leak-*) land in fuzz/<pipeline>/findings with the command that reproduces
# them; the corpus grows in fuzz/<pipeline>/corpus. A summary per pipeline
# (executions, coverage, findings) is printed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
REPLAY=0
if [ "${1:-}" = --replay ]; then
  REPLAY=1
  shift
fi
MINUTES=${1:-10}
shift || true
PIPELINES=("$@")
[ ${#PIPELINES[@]} -gt 0 ] || PIPELINES=(imex-cpu-pipeline imex-dist-cpu-pipeline each-pass)
BUILD_DIR=${SAN_BUILD_DIR:-build-san}
FUZZ_DIR=${FUZZ_DIR:-fuzz}

scripts/build-san.sh "$BUILD_DIR"

# The seeds: lit test inputs, one file per split, RUN/CHECK comments dropped.
SEEDS="$FUZZ_DIR/seeds"
rm -rf "$SEEDS" && mkdir -p "$SEEDS"
/usr/bin/python3 - "$SEEDS" <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
n = 0
for path in sorted(pathlib.Path("test").rglob("*.mlir")):
    for i, part in enumerate(path.read_text().split("// -----")):
        text = "\n".join(l for l in part.splitlines()
                         if not re.match(r"\s*//", l)).strip()
        if text:
            (out / f"{path.stem}-{i}.mlir").write_text(text + "\n")
            n += 1
print(f"{n} seeds from the lit tests")
PY

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
if [ $REPLAY = 1 ]; then
  # Regression check: no seed (lit test split, findings turned into tests)
  # may crash any pipeline.
  for pipeline in "${PIPELINES[@]}"; do
    echo "== replaying the seeds through $pipeline"
    log="$FUZZ_DIR/replay.log"
    if ! IMEX_FUZZ_PIPELINE=$pipeline "$BUILD_DIR/bin/imex-fuzz" -runs=0 \
        -timeout=120 "$SEEDS" > "$log" 2>&1; then
      tail -60 "$log" >&2
      echo "imex-fuzz: a seed crashes with $pipeline" >&2
      exit 1
    fi
    grep -E "DONE" "$log" || true
  done
  exit 0
fi
declare -a SUMMARY
for pipeline in "${PIPELINES[@]}"; do
  name=${pipeline//[^A-Za-z0-9_-]/_}
  corpus="$FUZZ_DIR/$name/corpus"
  findings="$FUZZ_DIR/$name/findings"
  mkdir -p "$corpus" "$findings"
  log="$FUZZ_DIR/$name/fuzz.log"
  echo "== fuzzing $pipeline for $MINUTES minutes (log: $log)"
  # -fork: a finding does not end the run; -ignore_crashes keeps going.
  set +e
  IMEX_FUZZ_PIPELINE=$pipeline "$BUILD_DIR/bin/imex-fuzz" "$corpus" "$SEEDS" \
    -max_total_time=$((MINUTES * 60)) -timeout=60 -rss_limit_mb=4096 \
    -max_len=16384 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -artifact_prefix="$findings/" -print_final_stats=1 \
    > "$log" 2>&1
  set -e
  # (-fork prints "#<executions>: cov: ..." lines.)
  execs=$(grep -Eo "^#[0-9]+" "$log" | tail -1 | tr -d '#' || true)
  cov=$(grep -Eo "cov: [0-9]+" "$log" | tail -1 || true)
  found=$(find "$findings" -type f | wc -l)
  for f in "$findings"/*; do
    [ -f "$f" ] || continue
    echo "  reproduce: IMEX_FUZZ_PIPELINE='$pipeline' $BUILD_DIR/bin/imex-fuzz $f"
  done
  SUMMARY+=("$pipeline: ${execs:-?} executions, ${cov:-cov: ?}, $found findings")
done
echo "== summary ($MINUTES min each)"
printf '%s\n' "${SUMMARY[@]}"
