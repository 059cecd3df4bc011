"""The distributed execution tests (see dist_harness.py) need
imex-dist-cpu-pipeline; until imex-opt registers it they are skipped (or
run with IMEX_DIST_EMULATE=1 through imex-cpu-pipeline without teams)."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.dirname(HERE)]

from dist_harness import DIST_PIPELINE, EMULATE  # noqa: E402
from harness import pipeline_registered  # noqa: E402

SKIP_REASON = (f"{DIST_PIPELINE} is not registered in imex-opt: the "
               "distributed pipeline is not built yet")


def pytest_collection_modifyitems(config, items):
    if EMULATE or pipeline_registered(DIST_PIPELINE):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if str(item.fspath).startswith(HERE + os.sep):
            item.add_marker(skip)
