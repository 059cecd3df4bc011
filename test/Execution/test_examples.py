"""The programs in examples/ run and agree with their numpy versions."""

import os
import subprocess
import sys

import numpy as np

from harness import RUNNER, parse_output

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")


def test_jacobi2d():
    sys.path.insert(0, EXAMPLES)
    import jacobi2d
    out = subprocess.run([RUNNER, os.path.join(EXAMPLES, "jacobi2d.mlir")],
                         capture_output=True, text=True, check=True).stdout
    (checksum,) = parse_output(out)
    np.testing.assert_allclose(checksum, jacobi2d.jacobi(64, 200), rtol=1e-13)
