#!/usr/bin/env bash
# Sets everything up (scripts/setup.sh) and runs the main job: the 2-D
# 5-point Jacobi example written once in ndarray IR for the global grid,
# distributed over MPI ranks (examples/jacobi2d_dist.mlir), lowered with
# imex-dist-cpu-pipeline and JIT-run by imex-runner under mpirun on 1, 2 and
# 3 ranks; every run prints the same checksum; numpy runs the same program;
# then the same Jacobi iteration through the Python frontend under mpirun.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
RUNNER="$BUILD_DIR/bin/imex-runner"
checksums=()
for n in 1 2 3; do
  echo "== mpirun -n $n imex-runner examples/jacobi2d_dist.mlir" \
       "(64 x 64 grid, 200 iterations, rows split over $n ranks)"
  out=$(mpirun -n "$n" --oversubscribe "$RUNNER" examples/jacobi2d_dist.mlir \
          --pipeline=imex-dist-cpu-pipeline)
  echo "$out"
  checksums+=("$(echo "$out" | awk '/^IMEX_ARRAY/ {print $4}')")
done
echo "== numpy reference: python3 examples/jacobi2d_dist.py"
/usr/bin/python3 examples/jacobi2d_dist.py
if [ "$(printf '%s\n' "${checksums[@]}" | sort -u | wc -l)" != 1 ]; then
  echo "error: the checksums differ between rank counts: ${checksums[*]}" >&2
  exit 1
fi
echo "== same checksum on 1, 2 and 3 ranks: ${checksums[0]}"

# The same computation from Python: the imex package records the numpy-style
# program, JIT-compiles it in-process and runs it SPMD (split=0 distributes
# the rows); it checks itself against numpy on every rank.
for n in 1 3; do
  echo "== mpirun -n $n python3 python/examples/jacobi2d.py (Python frontend)"
  PYTHONPATH="$BUILD_DIR/python" mpirun -n "$n" --oversubscribe \
    /usr/bin/python3 python/examples/jacobi2d.py --n 64 --iterations 200
done
