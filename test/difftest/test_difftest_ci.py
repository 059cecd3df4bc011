"""CI run of the differential tester (docs/testing.md, "Differential
testing"): a fixed set of seeds, DIFFTEST_PROGRAMS programs (default 120)
each run by numpy and by imex under mpirun with 1, 2, 3 and 4 ranks
(480 runs, about 3 minutes on the 2-core machine with a warm cache). Fails listing every finding; the reduced reproducers are
written to DIFFTEST_OUT (default: a temporary directory, named in the
failure message).

    IMEX_PYTHON_DIR=build/python python3 -m pytest -q test/difftest
"""

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import run  # noqa: E402

SEED = 1000
PROGRAMS = int(os.environ.get("DIFFTEST_PROGRAMS", "120"))
RANKS = os.environ.get("DIFFTEST_RANKS", "1,2,3,4")


def test_generated_programs_match_numpy():
    out = os.environ.get("DIFFTEST_OUT") or tempfile.mkdtemp(
        prefix="difftest-ci-")
    if "IMEX_CACHE_DIR" not in os.environ:
        os.environ["IMEX_CACHE_DIR"] = os.path.join(out, "jit-cache")
    args = argparse.Namespace(
        seed=SEED, count=PROGRAMS, ranks=RANKS, timeout=90, batch=50,
        out=out, reduce=int(os.environ.get("DIFFTEST_REDUCE", "4")),
        reduce_minutes=float(os.environ.get("DIFFTEST_REDUCE_MINUTES", "2")),
        json=None, verbose=False)
    findings = run.run_campaign(args)
    lines = [f"{f['class']} at -n {f['ranks']} in {f['id']} "
             f"(op {f['op']}): {f['detail'][:300]}" for f in findings]
    assert not findings, (f"{len(findings)} findings (reproducers in "
                          f"{out}):\n" + "\n".join(lines))


def test_generator_is_deterministic_and_valid():
    import gen
    for seed in range(SEED, SEED + 40):
        p = gen.generate(seed)
        assert p == gen.generate(seed)
        assert run.numpy_valid(p), p
