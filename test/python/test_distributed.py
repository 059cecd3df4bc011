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
