"""Kernel caching: a Python loop compiles once; a second process finds the
kernels in the disk cache; temporaries are fused away."""

import os
import subprocess
import sys

import conftest
import numpy as np

import imex as xp
from helpers import check

HERE = os.path.dirname(os.path.abspath(__file__))


def test_a_loop_compiles_once():
    x = np.linspace(0.0, 1.0, 50)
    u = xp.asarray(x)
    compiles = xp.stats()["compiles"]
    for _ in range(20):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
        x[1:-1] = 0.5 * (x[:-2] + x[2:])
    check(u, x)
    # The loop body is one kernel; reading u back may need a second.
    assert xp.stats()["compiles"] - compiles <= 2


def test_sizes_are_run_time_arguments():
    compiles = None
    for n in (10, 17, 33):
        a = xp.asarray(np.arange(n, dtype=np.float64))
        b = (a[1:] * 2.0 + a[:-1]).to_numpy()
        np.testing.assert_array_equal(b, np.arange(1.0, n) * 2.0 +
                                      np.arange(n - 1.0))
        if compiles is None:
            compiles = xp.stats()["compiles"]
    assert xp.stats()["compiles"] == compiles


def test_scalars_are_run_time_arguments():
    a = xp.asarray(np.ones(4))
    (a * 1.0).to_numpy()
    compiles = xp.stats()["compiles"]
    for k in range(5):
        check(a * float(k), np.full(4, float(k)))
    assert xp.stats()["compiles"] == compiles


def test_integer_indices_are_run_time_arguments():
    x = np.linspace(0.0, 1.0, 100)
    x[37] = np.nan
    a = xp.asarray(x)
    compiles = xp.stats()["compiles"]
    found = [i for i in range(100) if bool(xp.isnan(a[i]))]
    assert found == [37]
    assert xp.stats()["compiles"] - compiles == 1


def test_slice_bounds_are_run_time_arguments():
    rng = np.random.default_rng(1)
    x = rng.random((12, 10))
    a = xp.asarray(x)
    compiles = xp.stats()["compiles"]
    for i in range(2, 9):
        # start, stop, negative indices and bounds relative to the end
        check(a[i:i + 3, 1:-i] * 2.0, x[i:i + 3, 1:-i] * 2.0)
        check(a[-i] + a[i], x[-i] + x[i])
        check(a[i:, i - 1] - 1.0, x[i:, i - 1] - 1.0)
        b = xp.asarray(x)
        b[i - 2:i, 3:6] = -1.0
        y = x.copy()
        y[i - 2:i, 3:6] = -1.0
        check(b, y)
    # (Sizes 1 stay static and which sizes are equal is part of a kernel:
    # a few variants besides the four statements, not 28 kernels.)
    assert xp.stats()["compiles"] - compiles <= 8


def test_temporaries_are_not_materialized():
    a = xp.asarray(np.arange(8.0))
    b = a + 1.0
    c = b * 2.0
    del b  # only c is needed: one kernel computes it without storing b
    dispatches = xp.stats()["dispatches"]
    check(c, (np.arange(8.0) + 1.0) * 2.0)
    assert xp.stats()["dispatches"] == dispatches + 1


PROGRAM = """
import sys
sys.path.insert(0, {path!r})
import numpy as np
import imex as xp
a = xp.asarray(np.arange(5.0))
print(float(xp.sum(xp.exp(a) * 3.25 - a)), xp.stats())
"""


def test_a_second_process_hits_the_disk_cache(tmp_path):
    env = dict(os.environ, IMEX_CACHE_DIR=str(tmp_path / "cache"))
    program = PROGRAM.format(path=conftest.PYTHON_DIR)
    outputs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", program], env=env,
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outputs.append(proc.stdout)
    assert "'disk_hits': 0" in outputs[0]
    assert "'disk_hits': 1" in outputs[1]
    assert outputs[0].split()[0] == outputs[1].split()[0]


def test_the_disk_cache_can_be_turned_off(tmp_path):
    env = dict(os.environ, IMEX_CACHE_DIR="off")
    proc = subprocess.run([sys.executable, "-c",
                           PROGRAM.format(path=conftest.PYTHON_DIR)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "'disk_hits': 0" in proc.stdout
