"""distruntime ops written by hand (not produced by ndarray-dist) under
mpirun: ragged_alltoall with one row from every rank to every rank and a
ragged pattern (rank r sends r + 1 rows to each rank), lowered to IDTR."""

import numpy as np
import pytest

from dist_harness import RANKS
from harness import Program, array_type


def program(ragged):
    """Every rank receives, at output row offsets of rank i, the rows rank
    i sends it: one row holding i (or, ragged, i + 1 rows holding i)."""
    p = Program()
    c0 = p.op("arith.constant 0 : index")
    c1 = p.op("arith.constant 1 : index")
    c2 = p.op("arith.constant 2 : index")
    f0 = p.op("arith.constant 0.0 : f64")
    n = p.op("distruntime.team_size team = 1")
    me = p.op("distruntime.team_member team = 1")
    nf = p.op(f"arith.uitofp {p.op(f'arith.index_cast {n} : index to i64')}"
              " : i64 to f64")
    mef = p.op(f"arith.uitofp {p.op(f'arith.index_cast {me} : index to i64')}"
               " : i64 to f64")
    idx = array_type([None], "index")
    iota_f = p.op(f"ndarray.linspace {f0}, {nf}, {n} : f64 -> "
                  f"{array_type([None], 'f64')}")
    iota = p.op(f"ndarray.cast_elemtype {iota_f} : "
                f"{array_type([None], 'f64')} to {idx}")
    if ragged:
        # Rank r sends r + 1 rows to every rank: send rows r+1 per peer,
        # the receiver stores rank i's rows after those of ranks < i.
        k = p.op(f"arith.addi {me}, {c1} : index")
        sizes = p.op(f"ndarray.create({n}) value {k} : {idx}")
        kk = p.op(f"ndarray.create({n}) value {k} : {idx}")
        send_offsets = p.op(f"ndarray.ewbin multiply {iota}, {kk} : ({idx}, "
                            f"{idx}) -> {idx}")
        # Rows before mine on every receiver: 1 + 2 + ... + me.
        before = p.op(f"arith.muli {me}, {k} : index")
        half = p.op(f"arith.divui {before}, {c2} : index")
        output_offsets = p.op(f"ndarray.create({n}) value {half} : {idx}")
        recv_sizes = p.op(f"ndarray.ewbin add {iota}, "
                          f"{p.op(f'ndarray.create({n}) value {c1} : {idx}')}"
                          f" : ({idx}, {idx}) -> {idx}")
        rows = p.op(f"arith.muli {n}, {k} : index")
        total = p.op(f"arith.muli {n}, "
                     f"{p.op(f'arith.addi {n}, {c1} : index')} : index")
        out_rows = p.op(f"arith.divui {total}, {c2} : index")
    else:
        sizes = p.op(f"ndarray.create({n}) value {c1} : {idx}")
        send_offsets = iota
        # My row lands at row `me` of every receiver.
        output_offsets = p.op(f"ndarray.create({n}) value {me} : {idx}")
        recv_sizes = sizes
        rows = out_rows = n
    t = array_type([None, 2], "f64")
    send = p.op(f"ndarray.create({rows}) value {mef} : {t}")
    minus = p.op("arith.constant -1.0 : f64")
    out = p.op(f"ndarray.create({out_rows}) value {minus} : {t}")
    r = p.op(f"distruntime.ragged_alltoall {send} send_offsets {send_offsets} "
             f"send_sizes {sizes} into {out} output_offsets {output_offsets} "
             f"recv_sizes {recv_sizes} team = 1 : ({t}, {idx}, {idx}, {idx}, "
             f"{idx}) -> {t}")
    p.output(r, [None, 2], "f64")
    return p


@pytest.mark.parametrize("ragged", [False, True], ids=["uniform", "ragged"])
@pytest.mark.parametrize("nprocs", RANKS)
def test_ragged_alltoall(ragged, nprocs):
    per_rank = program(ragged).run_mpi(nprocs)
    rows = [i for i in range(nprocs) for _ in range(i + 1 if ragged else 1)]
    expected = np.repeat(np.array(rows, np.float64)[:, None], 2, axis=1)
    for r, (got,) in enumerate(per_rank):
        np.testing.assert_array_equal(got, expected, err_msg=f"rank {r}")
