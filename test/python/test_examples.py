"""The Python examples (python/examples) run and check themselves against
numpy, in one process and under mpirun."""

import os
import subprocess
import sys

import pytest

import conftest

EXAMPLES = os.path.join(conftest.REPO, "python", "examples")
MPIEXEC = os.environ.get("IMEX_MPIEXEC") or "mpirun"
CASES = {
    "jacobi2d.py": ["--n", "24", "--iterations", "10"],
    "jacobi2d.py --split 0,1": ["--n", "24", "--iterations", "10",
                                "--split", "0,1"],
    "wave2d.py": ["--n", "24", "--steps", "10"],
    "shallow_water.py": ["--n", "20", "--steps", "10"],
    "black_scholes.py": ["--n", "1000"],
}


@pytest.mark.parametrize("nprocs", [1, 3])
@pytest.mark.parametrize("example", sorted(CASES))
def test_example(example, nprocs):
    env = dict(os.environ, PYTHONPATH=conftest.PYTHON_DIR)
    command = [sys.executable,
               os.path.join(EXAMPLES, example.split()[0]), *CASES[example]]
    if nprocs > 1:
        command = [MPIEXEC, "-n", str(nprocs)] + command
    proc = subprocess.run(command, capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stdout  # rank 0 prints
    assert lines[0].endswith("OK"), proc.stdout
