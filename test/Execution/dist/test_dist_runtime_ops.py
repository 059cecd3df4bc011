"""distruntime ops written by hand (not produced by ndarray-dist) under
mpirun, lowered to IDTR: ragged_alltoall with one row from every rank to
every rank and a ragged pattern (rank r sends r + 1 rows to each rank);
gather to every rank and to one; repartition into boxes of other rows and
columns."""

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


ROWS = 7  # uneven on 2-4 ranks; with 4 ranks one block has 1 row


def block_of(r, n):
    """Rows [first, first + count) of rank r: (r * ROWS) // n splits."""
    first = r * ROWS // n
    return first, (r + 1) * ROWS // n - first


@pytest.mark.parametrize("nprocs", RANKS)
def test_gather_and_repartition(nprocs):
    p = Program()
    c0 = p.op("arith.constant 0 : index")
    c1 = p.op("arith.constant 1 : index")
    c2 = p.op("arith.constant 2 : index")
    c3 = p.op("arith.constant 3 : index")
    cr = p.op(f"arith.constant {ROWS} : index")
    n = p.op("distruntime.team_size team = 1")
    me = p.op("distruntime.team_member team = 1")
    first = p.op(f"arith.divui {p.op(f'arith.muli {me}, {cr} : index')}, "
                 f"{n} : index")
    after = p.op(f"arith.addi {me}, {c1} : index")
    end = p.op(f"arith.divui {p.op(f'arith.muli {after}, {cr} : index')}, "
               f"{n} : index")
    count = p.op(f"arith.subi {end}, {first} : index")
    f0 = p.op("arith.constant 0.0 : f64")
    fn = p.op(f"arith.constant {ROWS * 3}.0 : f64")
    flat_t, g_t = array_type([ROWS * 3], "f64"), array_type([ROWS, 3], "f64")
    c21 = p.op(f"arith.constant {ROWS * 3} : index")
    flat = p.op(f"ndarray.linspace {f0}, {fn}, {c21} : f64 -> {flat_t}")
    g = p.op(f"ndarray.reshape {flat} : {flat_t} -> {g_t}")
    t = array_type([None, 3], "f64")
    block = p.op(f"ndarray.subview {g}[{first}, 0] [{count}, 3] [1, 1] : "
                 f"{g_t} to {t}")
    where = f"global_shape[{cr}, {c3}] local_offsets[{first}, {c0}]"
    everyone = p.op(f"distruntime.gather {block} {where} team = 1 : {t} -> "
                    f"{g_t}")
    root = p.op(f"distruntime.gather {block} {where} root = 0 team = 1 : "
                f"{t} -> {t}")
    mirror = p.op(f"arith.subi {p.op(f'arith.subi {cr}, {first} : index')}, "
                  f"{count} : index")
    t2 = array_type([None, 2], "f64")
    h, box = p.fresh("h"), p.fresh("v")
    p.line(f"{h}, {box} = distruntime.repartition {block} {where} "
           f"target_offsets[{mirror}, {c1}] target_sizes[{count}, {c2}] "
           f"team = 1 : {t} -> {t2}")
    done = p.fresh("v")
    p.line(f"{done}:2 = distruntime.wait {h}, {block}, {box} : {t}, {t2}")
    p.output(everyone, [ROWS, 3], "f64")
    p.output(root, [None, 3], "f64")
    p.output(f"{done}#1", [None, 2], "f64")
    per_rank = p.run_mpi(nprocs)
    g = np.arange(ROWS * 3, dtype=np.float64).reshape(ROWS, 3)
    for r, (got_all, got_root, got_box) in enumerate(per_rank):
        np.testing.assert_array_equal(got_all, g, err_msg=f"rank {r}")
        np.testing.assert_array_equal(got_root, g if r == 0 else g[:0],
                                      err_msg=f"rank {r}")
        first, count = block_of(r, nprocs)
        mirror = ROWS - first - count
        np.testing.assert_array_equal(got_box, g[mirror:mirror + count, 1:],
                                      err_msg=f"rank {r}")
