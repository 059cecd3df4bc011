"""take (integer-array indexing) with the source and the indices each split
or replicated, along axis 0 and other axes (seed 000's table: the result is
split like the indices along axis 0, like the source along other axes):
repeated, reversed and negative indices, all indices on one rank's rows,
fewer rows than ranks, index dtypes; and the bytes moved by a[idx] are the
requested rows and the indices (IDTR counters)."""

import numpy as np
import pytest

from dist_harness import RANKS_TO_5, data, named, run_cases

ROWS, COLS = 1000, 64


def combinations(d, dynamic):
    a = d.array(data((11, 3)), dynamic=dynamic)
    r = d.array(data((11, 3)), dist=False)
    idx = np.array([10, 0, 0, -1, 5, 3, -11, 7, 7, 2])
    for name, i in (("split", d.array(idx, dynamic=dynamic)),
                    ("replicated", d.array(idx, dist=False))):
        d.check(d.take(a, i, 0), f"split a[{name} idx]")
        d.check(d.take(r, i, 0), f"replicated a[{name} idx]")
    cols = np.array([2, 0, -1, 2], dtype=np.int32)
    d.check(d.take(a, d.array(cols, dist=False), 1), "split a[:, idx]")
    d.check(d.take(a, d.array(cols), 1), "split a[:, split idx]")
    d.check(d.take(r, d.array(cols), 1), "replicated a[:, split idx]")


def edge_cases(d, rows):
    a = d.array(data((rows, 2), "i64", -9, 9), via="create")
    tail = np.array([rows - 1] * 5 + [-1])  # all on the last rank's rows
    d.check(d.take(a, d.array(tail), 0), f"a[last rows] of {rows} rows")
    d.check(d.take(a, d.array(np.zeros(0, np.int64)), 0), "a[empty]")


def volume(d, dynamic):
    a = d.array(data((ROWS, COLS)), dynamic=dynamic)
    idx = np.array([999, 0, 500, 3, 998, 250])
    d.check(d.reduce("sum", d.take(a, d.array(idx, dist=False), 0)),
            "sum(a[6 rows])")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_take(dynamic):
    run_cases([named("combinations", combinations, dynamic),
               named("edge_cases_1", edge_cases, 1),
               named("edge_cases_5", edge_cases, 5)],
              ranks=RANKS_TO_5)


def test_take_volume():
    # Requests (6 indices) and their rows (6 x 64 f64) at most, plus the
    # metadata and the checked sum: far below one rank's block (~128 KiB).
    run_cases([named("volume", volume, True)], ranks=RANKS_TO_5,
              max_bytes=6 * 8 + 6 * COLS * 8 + 4096)
