"""The distributed examples (examples/wave1d.mlir, examples/jacobi2d_dist.mlir,
examples/jacobi2d_grid.mlir, with fewer time steps) on 1-4 ranks: every rank prints the checksums of
the numpy twin (up to
rounding: partial sums are combined in a partition-dependent order), every
rank count agrees, and every rank frees what it allocates."""

import os
import re
import sys

import numpy as np
import pytest

from dist_harness import DIST_PIPELINE, EMULATE, RANKS
from harness import ALLOCATIONS, mpi_run, parse_output

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "..",
                        "examples")
sys.path.insert(0, EXAMPLES)


def run_example(name, nprocs, steps):
    """Runs the example with `steps` time steps instead of its own count
    (time steps cost communication on every rank; oversubscribed ranks
    wait long for each other)."""
    with open(os.path.join(EXAMPLES, name)) as f:
        source = f.read()
    source, count = re.subn(r"(%(?:steps|iters) = arith\.constant )\d+",
                            rf"\g<1>{steps}", source)
    assert count == 1, f"{name}: no step count to replace"
    pipeline = DIST_PIPELINE
    if EMULATE:
        source = re.sub(r" \{dist\.team = 1 : i64[^}]*\}", "", source)
        pipeline = "imex-cpu-pipeline"
    rc, ranks, launcher = mpi_run(
        source, nprocs, [f"--pipeline={pipeline}{{count-allocations=1}}"],
        {"IMEX_ALLOCATION_STATS": "1", "IMEX_PRINT_ALL_RANKS": "1"})
    assert rc == 0, (f"{name} on {nprocs} ranks failed ({rc}):\n{launcher}\n"
                     + "\n".join(f"--- rank {r}:\n{o}\n{e}"
                                 for r, (o, e) in enumerate(ranks)))
    outputs = []
    for r, (out, err) in enumerate(ranks):
        stats = ALLOCATIONS.findall(err)
        assert len(stats) == 1 and stats[0][0] == stats[0][1], \
            f"{name}, rank {r} of {nprocs}: leak or double free: {err}"
        outputs.append([float(a) for a in parse_output(out)])
    for r, out in enumerate(outputs):
        assert out == outputs[0], \
            f"{name} on {nprocs} ranks: rank {r} prints {out}, rank 0 " \
            f"{outputs[0]}"
    return outputs[0]


STEPS = 60


@pytest.mark.parametrize("name,expected", [
    ("wave1d.mlir", lambda: __import__("wave1d").wave(1000, STEPS)),
    ("jacobi2d_dist.mlir",
     lambda: [__import__("jacobi2d").jacobi(64, STEPS)]),
    ("jacobi2d_grid.mlir",
     lambda: [__import__("jacobi2d").jacobi(64, STEPS)]),
], ids=["wave1d", "jacobi2d_dist", "jacobi2d_grid"])
def test_example(name, expected):
    want = [float(x) for x in expected()]
    got = {n: run_example(name, n, STEPS) for n in RANKS}
    for n, checksums in got.items():
        assert len(checksums) == len(want), (n, checksums)
        np.testing.assert_allclose(checksums, want, rtol=1e-12,
                                   err_msg=f"{name} on {n} ranks vs numpy")
        np.testing.assert_allclose(
            checksums, got[RANKS[0]], rtol=1e-12,
            err_msg=f"{name}: {n} ranks vs {RANKS[0]} ranks")
