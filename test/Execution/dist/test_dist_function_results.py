"""Distributed function results (the calling convention of
docs/distribution.md): a result marked `dist.team` returns this rank's
block of the default partition (its rows) as a local array. The kernel is
called without inlining from a `main` that is not distributed and prints
what each rank got; the rows of the ranks, in rank order, must be the whole
array (numpy), whether the returned value was split on rows, over a grid
(redistributed to rows at the return) or replicated (each rank returns its
rows of it), on 1-4 ranks with 7 rows (ranks that own none)."""

import numpy as np
import pytest

from dist_harness import RANKS
from harness import ALLOCATIONS, mpi_run, parse_output

ROWS, COLS = 7, 3
RESULT = f"!ndarray.ndarray<?x{COLS}xf64>"
FULL = f"!ndarray.ndarray<{ROWS}x{COLS}xf64>"
MEMREF = f"memref<{ROWS}x{COLS}xf64>"


def program():
    values = np.arange(ROWS * COLS, dtype=np.float64).reshape(ROWS, COLS)
    dense = "[" + ", ".join(
        "[" + ", ".join(f"{v:.1f}" for v in row) + "]" for row in values) + "]"
    results = ", ".join([f"{RESULT} {{dist.team = 1 : i64}}"] * 3)
    prints = "\n".join(
        f"  %t{i} = ndarray.to_tensor %r#{i} : {RESULT} -> tensor<?x{COLS}xf64>\n"
        f"  %u{i} = tensor.cast %t{i} : tensor<?x{COLS}xf64> to tensor<*xf64>\n"
        f"  func.call @imexPrintF64(%u{i}) : (tensor<*xf64>) -> ()"
        for i in range(3))
    source = f"""
memref.global "private" @input : {MEMREF} = dense<{dense}>
func.func private @imexPrintF64(tensor<*xf64> {{bufferization.access = "read"}})
func.func @kernel(%m: {MEMREF}) -> ({results}) {{
  %a = ndarray.from_memref %m : {MEMREF} -> {FULL}
  %d = ndarray.copy %a {{dist.team = 1 : i64}} : {FULL} -> {FULL}
  %g = ndarray.copy %a {{dist.team = 1 : i64, dist.split = array<i64: 0, 1>}} : {FULL} -> {FULL}
  %s = ndarray.ewbin add %d, %d : ({FULL}, {FULL}) -> {FULL}
  %q = ndarray.ewbin multiply %g, %g : ({FULL}, {FULL}) -> {FULL}
  %rs = ndarray.cast %s : {FULL} to {RESULT}
  %rq = ndarray.cast %q : {FULL} to {RESULT}
  %ra = ndarray.cast %a : {FULL} to {RESULT}
  return %rs, %rq, %ra : {RESULT}, {RESULT}, {RESULT}
}}
func.func @main() {{
  %m = memref.get_global @input : {MEMREF}
  %r:3 = func.call @kernel(%m) {{no_inline}} : ({MEMREF}) -> ({RESULT}, {RESULT}, {RESULT})
{prints}
  return
}}
"""
    return source, [values + values, values * values, values]


@pytest.mark.parametrize("nprocs", RANKS)
def test_results_are_the_rows_of_each_rank(nprocs):
    source, expected = program()
    rc, ranks, launcher = mpi_run(
        source, nprocs,
        ["--pipeline=imex-dist-cpu-pipeline{count-allocations=1}"],
        {"IMEX_PRINT_ALL_RANKS": "1", "IMEX_ALLOCATION_STATS": "1"})
    assert rc == 0, f"{launcher}\n{ranks}\n{source}"
    per_rank = [parse_output(out) for out, _ in ranks]
    for r, (arrays, (_, err)) in enumerate(zip(per_rank, ranks)):
        assert len(arrays) == 3, f"rank {r} printed {arrays}: {ranks[r]}"
        # the caller frees the returned blocks: no leak, no double free
        stats = ALLOCATIONS.findall(err)
        assert len(stats) == 1 and stats[0][0] == stats[0][1], \
            f"rank {r}: allocations {stats}: {err}"
    # The default partition: 7 // p rows, the last 7 % p ranks one more.
    sizes = [ROWS // nprocs + (r >= nprocs - ROWS % nprocs)
             for r in range(nprocs)]
    for k, whole in enumerate(expected):
        blocks = [arrays[k] for arrays in per_rank]
        assert [b.shape[0] for b in blocks] == sizes, \
            f"result {k}: rows per rank {[b.shape for b in blocks]}"
        np.testing.assert_array_equal(np.concatenate(blocks), whole,
                                      err_msg=f"result {k}")
