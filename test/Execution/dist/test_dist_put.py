"""put (a[idx] = values along an axis) with the destination, the indices
and the values each split or replicated, along axis 0 and other axes:
repeated indices across ranks (numpy's last write wins), negative indices,
fewer rows than ranks, empty index arrays, index dtypes; and the bytes moved
by a[idx] = v are the written rows and their indices (IDTR counters)."""

import itertools

import numpy as np
import pytest

from dist_harness import RANKS_TO_5, TEAM, data, named, run_cases
from harness import Program, array_type

ROWS, COLS = 1000, 64


def combinations(d, dynamic):
    # Repeated indices (7 three times, 0 twice, -1 == 10) in different
    # blocks of the indices' default partition: the last write must win.
    idx = np.array([7, 0, 10, -1, 5, 7, 3, -11, 7, 2], dtype=np.int32)
    values = data((10, 3), "f64", 100, 200)
    for (a_dist, i_dist, v_dist) in itertools.product([True, False],
                                                      repeat=3):
        a = d.array(data((11, 3)), dist=a_dist, dynamic=dynamic)
        i = d.array(idx, dist=i_dist, dynamic=dynamic)
        v = d.array(values, dist=v_dist, dynamic=dynamic)
        d.check(d.put(a, i, v, 0),
                f"a{a_dist:d}[idx{i_dist:d}] = v{v_dist:d}")
    cols = np.array([2, 0, -1, 2], dtype=np.int64)
    cvalues = data((11, 4), "f64", 100, 200)
    for (a_dist, i_dist, v_dist) in itertools.product([True, False],
                                                      repeat=3):
        a = d.array(data((11, 3)), dist=a_dist, dynamic=dynamic)
        d.check(d.put(a, d.array(cols, dist=i_dist),
                      d.array(cvalues, dist=v_dist), 1),
                f"a{a_dist:d}[:, idx{i_dist:d}] = v{v_dist:d}")


def edge_cases(d, rows):
    a = d.array(data((rows, 2), "i64", -9, 9), via="create")
    tail = np.array([rows - 1] * 5 + [-1])  # all on the last rank's rows
    d.check(d.put(a, d.array(tail), d.array(data((6, 2), "i64", 10, 99)), 0),
            f"a[last rows] = v of {rows} rows")
    d.check(d.put(a, d.array(np.zeros(0, np.int64)),
                  d.array(np.zeros((0, 2), np.int64)), 0), "a[empty] = v")


def volume(d, dynamic):
    # Integers: their sum needs no rows moved for a fixed blocking.
    a = d.array(data((ROWS, COLS), "i64"), dynamic=dynamic)
    idx = np.array([999, 0, 500, 3, 998, 250])
    v = d.array(data((6, COLS), "i64", 10, 99))
    d.check(d.reduce("sum", d.put(a, d.array(idx), v, 0)),
            "sum(a[6 rows] = v)")


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_put(dynamic):
    run_cases([named("combinations", combinations, dynamic),
               named("edge_cases_1", edge_cases, 1),
               named("edge_cases_5", edge_cases, 5)],
              ranks=RANKS_TO_5)


def test_put_volume():
    # The 6 (index, row) pairs at most, plus the metadata and the checked
    # sum: far below one rank's block (~128 KiB).
    run_cases([named("volume", volume, True)], ranks=RANKS_TO_5,
              max_bytes=6 * 8 + 6 * COLS * 8 + 4096)


@pytest.mark.parametrize("op", ["take", "put"])
def test_out_of_range_index_names_index_and_rank(op):
    """An index out of range in a distributed take or put ends every rank
    with IDTR's message naming the index and the rank that holds it."""
    p = Program()
    x, xt = p.input(np.zeros((11, 3)), "f64")
    a = p.op(f"ndarray.copy {x}{TEAM} : {xt} -> {xt}")
    i, it = p.input(np.array([0, 3, -12, 1]), "i64")
    si = p.op(f"ndarray.copy {i}{TEAM} : {it} -> {it}")
    rt = array_type([4, 3], "f64")
    if op == "take":
        r = p.op(f"ndarray.take {a}[{si}] axis 0 : ({xt}, {it}) -> {rt}")
    else:
        v, vt = p.input(np.ones((4, 3)), "f64")
        r = p.op(f"ndarray.put {v} into {a}[{si}] axis 0 : ({vt}, {xt}, "
                 f"{it}) -> {xt}")
    p.output(r, [4, 3] if op == "take" else [11, 3], "f64")
    with pytest.raises(AssertionError,
                       match=rf"idtr error in _idtr_{op}_f64 on rank 1 "
                             rf"\(of 2\): index -12 is out of bounds for "
                             rf"axis 0 with size 11"):
        p.run_mpi(2, timeout=60)
