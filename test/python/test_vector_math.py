"""Vector math in the frontend: libm functions on arrays call glibc's vector
variants (within 4 ulps); IMEX_VECTOR_MATH=0 gives the C library's results
bit for bit."""

import ctypes
import ctypes.util
import os
import subprocess
import sys

import conftest
import numpy as np

LIBM = ctypes.CDLL(ctypes.util.find_library("m"))

PROGRAM = """
import sys
sys.path.insert(0, {path!r})
import numpy as np
import imex as xp
x = np.linspace(-4.0, 4.0, 1001)
a = xp.asarray(x)
for f in (xp.exp, xp.erf, xp.sin, xp.log1p):
    print(" ".join(v.hex() for v in f(a).to_numpy().tolist()))
"""


def run(env_vector_math):
    env = dict(os.environ, IMEX_CACHE_DIR="off")
    if env_vector_math is not None:
        env["IMEX_VECTOR_MATH"] = env_vector_math
    proc = subprocess.run([sys.executable, "-c",
                           PROGRAM.format(path=conftest.PYTHON_DIR)],
                          env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return [np.array([float.fromhex(v) for v in line.split()])
            for line in proc.stdout.splitlines()]


def glibc(name, x):
    function = getattr(LIBM, name)
    function.restype, function.argtypes = ctypes.c_double, [ctypes.c_double]
    return np.array([function(v) for v in x])


def test_vector_math_and_scalar_libm():
    x = np.linspace(-4.0, 4.0, 1001)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = [glibc(name, x) for name in ("exp", "erf", "sin", "log1p")]
    for result, reference in zip(run(None), expected):
        finite = np.isfinite(reference)
        np.testing.assert_array_equal(np.isnan(result), np.isnan(reference))
        ulps = np.abs(result[finite] - reference[finite]) / np.spacing(
            np.abs(reference[finite]))
        assert ulps.max() <= 4
    for result, reference in zip(run("0"), expected):
        np.testing.assert_array_equal(result, reference)
