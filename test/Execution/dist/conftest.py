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
    if os.environ.get("IMEX_DIST_SUBSET") == "1":
        _keep_one_variant_per_test(config, items)
    if EMULATE or pipeline_registered(DIST_PIPELINE):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if str(item.fspath).startswith(HERE + os.sep):
            item.add_marker(skip)


def _keep_one_variant_per_test(config, items):
    """IMEX_DIST_SUBSET=1 (scripts/scale-test.sh, the many-rank runs): the
    first parametrization of each test function, so that every op family
    and distribution still runs, once."""
    seen, kept, dropped = set(), [], []
    for item in items:
        function = item.nodeid.split("[", 1)[0]
        (dropped if function in seen else kept).append(item)
        seen.add(function)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
