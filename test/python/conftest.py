"""pytest set-up for the Python frontend: imports `imex` from the build tree
(IMEX_PYTHON_DIR, default <repo>/build/python) with a compile cache in the
build tree (IMEX_CACHE_DIR, default <build>/test/jit-cache)."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PYTHON_DIR = os.environ.get("IMEX_PYTHON_DIR",
                            os.path.join(REPO, "build", "python"))
sys.path.insert(0, PYTHON_DIR)
os.environ.setdefault(
    "IMEX_CACHE_DIR",
    os.path.join(os.path.dirname(PYTHON_DIR), "test", "jit-cache"))
