import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def pytest_ignore_collect(collection_path, config):
    """dist/ runs programs under mpirun and is its own CTest test
    (imex.execution.dist); `pytest test/Execution` leaves it out unless it
    is named on the command line or IMEX_DIST_TESTS=1."""
    dist = os.path.join(HERE, "dist")
    if str(collection_path) != dist or os.environ.get("IMEX_DIST_TESTS"):
        return None
    named = [os.path.abspath(str(a).split("::")[0]) for a in config.args]
    if any(a == dist or a.startswith(dist + os.sep) for a in named):
        return None
    return True
