"""Run on every rank of an MPI job (test_distributed.py starts it): a test
that fails on one rank ends the whole job, so that the other ranks do not
wait in a collective for it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
import conftest  # noqa: E402,F401 (sets up the import path)
import imex  # noqa: E402


def pytest_runtest_logreport(report):
    if report.failed:
        sys.stderr.write(f"rank {imex.rank()}: {report.nodeid} failed:\n"
                         f"{report.longreprtext}\n")
        sys.stderr.flush()
        imex._core.ext().abort(1)
