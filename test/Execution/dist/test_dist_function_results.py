"""Distributed function arguments and results (the calling convention of
docs/distribution.md): a result marked `dist.team` returns this rank's
block of the default partition (its rows) as a local array; an argument
marked `dist.split` is this rank's block of that distribution. The kernels
are called without inlining from a `main` that is not distributed and
prints what each rank got (an argument updated in place is written back
into the caller's block: lit tests; value semantics requires callers in
MLIR to inline such kernels); the rows of the ranks, in rank order, must be
the whole array (numpy), whether the returned value was split on rows, over
a grid (redistributed to rows at the return) or replicated (each rank
returns its rows of it), on 1-4 ranks with 7 rows (ranks that own none). A
result marked `dist.split` returns this rank's block of that distribution
(the grid's own block; a redistributed or distributed value), checked
against the block of the array at the rank's grid position."""

import numpy as np
import pytest

from dist_harness import RANKS
from harness import ALLOCATIONS, mpi_run, parse_output

ROWS, COLS = 7, 3
RESULT = f"!ndarray.ndarray<?x{COLS}xf64>"
FULL = f"!ndarray.ndarray<{ROWS}x{COLS}xf64>"
BLOCK = "!ndarray.ndarray<?x?xf64>"
MEMREF = f"memref<{ROWS}x{COLS}xf64>"


def program():
    values = np.arange(ROWS * COLS, dtype=np.float64).reshape(ROWS, COLS)
    dense = "[" + ", ".join(
        "[" + ", ".join(f"{v:.1f}" for v in row) + "]" for row in values) + "]"
    results = ", ".join([f"{RESULT} {{dist.team = 1 : i64}}"] * 3)
    def printed(value, i):
        return (f"  %t{i} = ndarray.to_tensor {value} : {RESULT} -> "
                f"tensor<?x{COLS}xf64>\n"
                f"  %u{i} = tensor.cast %t{i} : tensor<?x{COLS}xf64> to "
                f"tensor<*xf64>\n"
                f"  func.call @imexPrintF64(%u{i}) : (tensor<*xf64>) -> ()")
    prints = "\n".join(printed(f"%r#{i}", i) for i in range(3))
    grid_prints = "\n".join(printed(f"%g#{i}", 3 + i) for i in range(2))
    def printed_block(value, i):
        return (f"  %t{i} = ndarray.to_tensor {value} : {BLOCK} -> "
                f"tensor<?x?xf64>\n"
                f"  %u{i} = tensor.cast %t{i} : tensor<?x?xf64> to "
                f"tensor<*xf64>\n"
                f"  func.call @imexPrintF64(%u{i}) : (tensor<*xf64>) -> ()")
    grid_prints += "\n" + "\n".join(
        printed_block(f"%g#{2 + i}", 5 + i) for i in range(3))
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
func.func @grid_kernel(%n: index, %k: index, %u: {BLOCK} {{dist.team = 1 : i64, dist.shape = array<i64: 0, 1>, dist.split = array<i64: 0, 1>}}) -> ({RESULT} {{dist.team = 1 : i64}}, {RESULT} {{dist.team = 1 : i64}}, {BLOCK} {{dist.team = 1 : i64, dist.split = array<i64: 0, 1>}}, {BLOCK} {{dist.team = 1 : i64, dist.split = array<i64: 1>}}, {BLOCK} {{dist.team = 1 : i64, dist.split = array<i64: 0, 1>}}) {{
  %three = arith.constant 3.0 : f64
  %t = ndarray.create value %three : !ndarray.ndarray<f64>
  %s = ndarray.ewbin add %u, %u : ({BLOCK}, {BLOCK}) -> {BLOCK}
  %v = ndarray.ewbin multiply %u, %t : ({BLOCK}, !ndarray.ndarray<f64>) -> {BLOCK}
  %rs = ndarray.cast %s : {BLOCK} to {RESULT}
  %rv = ndarray.cast %v : {BLOCK} to {RESULT}
  %m = memref.get_global @input : {MEMREF}
  %a = ndarray.from_memref %m : {MEMREF} -> {FULL}
  %ra = ndarray.cast %a : {FULL} to {BLOCK}
  return %rs, %rv, %s, %v, %ra : {RESULT}, {RESULT}, {BLOCK}, {BLOCK}, {BLOCK}
}}
func.func @main() {{
  %m = memref.get_global @input : {MEMREF}
  %r:3 = func.call @kernel(%m) {{no_inline}} : ({MEMREF}) -> ({RESULT}, {RESULT}, {RESULT})
{prints}
  // This rank's block of the grid the kernel's argument is split over.
  %n = arith.constant {ROWS} : index
  %k = arith.constant {COLS} : index
  %p0 = distruntime.grid_dim team = 1 ndims = 2 dim = 0
  %p1 = distruntime.grid_dim team = 1 ndims = 2 dim = 1
  %me = distruntime.team_member team = 1
  %off:2, %size:2 = dist.grid_partition %me grid(%p0, %p1) shape(%n, %k) split [0, 1]
  %a = ndarray.from_memref %m : {MEMREF} -> {FULL}
  %b = ndarray.subview %a[%off#0, %off#1] [%size#0, %size#1] [1, 1] : {FULL} to {BLOCK}
  %c = ndarray.copy %b : {BLOCK} -> {BLOCK}
  %g:5 = func.call @grid_kernel(%n, %k, %c) {{no_inline}} : (index, index, {BLOCK}) -> ({RESULT}, {RESULT}, {BLOCK}, {BLOCK}, {BLOCK})
{grid_prints}
  return
}}
"""
    return source, [values + values, values * values, values,
                    values + values, 3 * values], [
                        (values + values, [0, 1]), (3 * values, [1]),
                        (values, [0, 1])]


def _partition(n, p):
    """The default partition of n elements over p ranks (IDTR's)."""
    sizes = [n // p + (r >= p - n % p) for r in range(p)]
    return [slice(sum(sizes[:r]), sum(sizes[:r + 1])) for r in range(p)]


def _dims_create(nprocs, ndims):
    """MPI_Dims_create's grid (Open MPI's: the prime factors, largest
    first, each multiplying the dimension with the smallest product;
    dimensions in non-increasing order)."""
    primes, n, f = [], nprocs, 2
    while n > 1:
        while n % f == 0:
            primes.append(f)
            n //= f
        f += 1
    dims = [1] * ndims
    for prime in sorted(primes, reverse=True):
        dims[dims.index(min(dims))] *= prime
    return sorted(dims, reverse=True)


def _grid_block(whole, split, rank, nprocs):
    """Rank `rank`'s block of `whole` split on the axes `split` over the
    grid MPI_Dims_create gives (row-major rank order)."""
    dims = _dims_create(nprocs, len(split))
    index = [slice(None)] * whole.ndim
    coords, r = [], rank
    for extent in reversed(dims):
        coords.insert(0, r % extent)
        r //= extent
    for axis, extent, c in zip(split, dims, coords):
        index[axis] = _partition(whole.shape[axis], extent)[c]
    return whole[tuple(index)]


@pytest.mark.parametrize("nprocs", RANKS)
def test_arguments_and_results(nprocs):
    source, expected, grid_results = program()
    rc, ranks, launcher = mpi_run(
        source, nprocs,
        ["--pipeline=imex-dist-cpu-pipeline{count-allocations=1}"],
        {"IMEX_PRINT_ALL_RANKS": "1", "IMEX_ALLOCATION_STATS": "1"})
    assert rc == 0, f"{launcher}\n{ranks}\n{source}"
    per_rank = [parse_output(out) for out, _ in ranks]
    for r, (arrays, (_, err)) in enumerate(zip(per_rank, ranks)):
        assert len(arrays) == len(expected) + len(grid_results), \
            f"rank {r} printed {arrays}: {ranks[r]}"
        for k, (whole, split) in enumerate(grid_results):
            np.testing.assert_array_equal(
                arrays[len(expected) + k],
                _grid_block(whole, split, r, nprocs),
                err_msg=f"rank {r}: block result {k} (split {split})")
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


def test_wrong_block_is_reported():
    # The whole array passed where this rank's block of the 2-D grid is
    # expected: every rank stops with the argument's name, not garbage.
    if 2 not in RANKS:
        pytest.skip("needs 2 ranks")
    source, _, _ = program()
    wrong = source.replace(
        "func.call @grid_kernel(%n, %k, %c)",
        "func.call @grid_kernel(%n, %k, %whole)").replace(
        "  %c = ndarray.copy %b",
        f"  %whole = ndarray.cast %a : {FULL} to {BLOCK}\n"
        "  %c = ndarray.copy %b")
    assert wrong != source
    rc, ranks, launcher = mpi_run(wrong, 2,
                                  ["--pipeline=imex-dist-cpu-pipeline"])
    assert rc != 0, f"{launcher}\n{ranks}"
    message = ("argument #2 of @grid_kernel is not this rank's block of its "
               "array in #dist.dist_env<team = 1, split = [0, 1]>")
    assert all(message in out + err for out, err in ranks), \
        f"{launcher}\n{ranks}"
