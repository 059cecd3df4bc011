#!/usr/bin/env bash
# Differential testing soak (docs/testing.md, "Differential testing"):
# random numpy-style programs run by numpy and by the imex frontend under
# mpirun with each rank count, until the time is up; prints a summary and
# writes reduced reproducers to the output directory.
#
#   scripts/difftest.sh --minutes 30 [--seed S] [--ranks 1,2,3,4]
#                       [--out DIR] [--chunk N] [--timeout T]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=env.sh
source "$ROOT/scripts/env.sh"
MINUTES=10
SEED=$(( $(date +%s) % 1000000 * 1000 ))
RANKS=1,2,3,4
OUT=""
CHUNK=25
TIMEOUT=60
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) MINUTES=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --ranks) RANKS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --chunk) CHUNK=$2; shift 2 ;;
    --timeout) TIMEOUT=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
OUT=${OUT:-$(mktemp -d /tmp/difftest-soak-XXXXXX)}
mkdir -p "$OUT"
PY=${PYTHON:-/usr/bin/python3}
export IMEX_PYTHON_DIR=${IMEX_PYTHON_DIR:-$ROOT/build/python}
export IMEX_CACHE_DIR=${IMEX_CACHE_DIR:-$OUT/jit-cache}
END=$(( $(date +%s) + MINUTES * 60 ))
n=0
while [ "$(date +%s)" -lt "$END" ]; do
  s=$(( SEED + n * CHUNK ))
  "$PY" "$ROOT/test/difftest/run.py" --seed "$s" --count "$CHUNK" \
    --ranks "$RANKS" --timeout "$TIMEOUT" --out "$OUT/chunk-$s" \
    --json "$OUT/chunk-$s.json" --reduce-minutes 1 || true
  n=$(( n + 1 ))
done
"$PY" - "$OUT" <<'PY'
import collections, glob, json, os, sys
out = sys.argv[1]
tot = collections.Counter()
groups = collections.OrderedDict()
for fn in sorted(glob.glob(os.path.join(out, "chunk-*.json"))):
    s = json.load(open(fn))
    for k in ("programs", "runs", "unsupported", "launches"):
        tot[k] += s[k]
    for g in s["groups"]:
        key = (g["class"], g["op"])
        e = groups.setdefault(key, {"count": 0, "reproducers": [], "ids": []})
        e["count"] += g["count"]
        e["ids"] += g["ids"]
        if g["reproducer"]:
            e["reproducers"].append(g["reproducer"])
print(f"\n=== difftest soak: {tot['programs']} programs, {tot['runs']} runs,"
      f" {tot['unsupported']} unsupported, {tot['launches']} launches")
by_class = collections.Counter()
for (c, o), e in groups.items():
    by_class[c] += e["count"]
print("findings by class:", dict(by_class) or "none")
for (c, o), e in sorted(groups.items()):
    print(f"  {c:22s} {o:16s} x{e['count']:<4d} "
          f"{(e['reproducers'] or [''])[0]}")
json.dump({"totals": tot, "groups": [dict(cls=c, op=o, **e) for (c, o), e
                                     in groups.items()]},
          open(os.path.join(out, "summary.json"), "w"), indent=1)
print(f"results in {out}")
PY
