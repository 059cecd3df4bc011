"""Runs dist/ under mpirun with 1-4 ranks (each rank checks against
numpy)."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
MPIEXEC = os.environ.get("IMEX_MPIEXEC") or "mpirun"


@pytest.mark.parametrize("nprocs", [1, 2, 3, 4])
def test_distributed_frontend(nprocs):
    proc = subprocess.run(
        [MPIEXEC, "-n", str(nprocs), sys.executable, "-m", "pytest", "-q",
         "-x", "-p", "no:cacheprovider", os.path.join(HERE, "dist")],
        capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    assert "failed" not in proc.stdout


FAILING_RANK = """
import sys
sys.path.insert(0, {path!r})
import numpy as np
import imex as xp
xp.init()
if xp.rank() == 1:
    raise ValueError("rank 1 gives up")
a = xp.asarray(np.ones((8, 2)), split=0)
print(float(xp.sum(a[1:] + a[:-1])))  # rank 0 would wait for rank 1 here
"""


def test_an_error_on_one_rank_ends_all_ranks():
    import conftest
    proc = subprocess.run(
        [MPIEXEC, "-n", "2", sys.executable, "-c",
         FAILING_RANK.format(path=conftest.PYTHON_DIR)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "rank 1 gives up" in proc.stderr
