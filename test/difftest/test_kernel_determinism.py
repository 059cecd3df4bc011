"""The kernels of generated programs compile deterministically: the
programs of a few seeds run under `mpirun -n 2` with IMEX_PRINT_KERNELS=1
(so both the single-process and the distributed pipeline are used), and
every kernel they compiled is lowered again in two processes whose heaps
lie differently; the IR must be the same (docs/testing.md, "Deterministic
compilation")."""

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen  # noqa: E402
import run  # noqa: E402

SEED = 3000
PROGRAMS = 24


def _imex_opt(python_dir):
    return os.environ.get("IMEX_OPT") or os.path.join(
        os.path.dirname(python_dir), "bin", "imex-opt")


def _kernels(stderr):
    """(pipeline, text) of each kernel IMEX_PRINT_KERNELS printed."""
    found = {}
    for match in re.finditer(r"// imex kernel \(([^)]*)\)\n(.*?\n}\n)",
                             stderr, re.S):
        found[match.group(2)] = match.group(1)
    return [(pipeline, text) for text, pipeline in found.items()]


def _lower(opt, pipeline, text, padding):
    env = dict(os.environ, IMEX_HEAP_PADDING="x" * padding)
    proc = subprocess.run(
        [opt, f"--pass-pipeline=builtin.module({pipeline})",
         "-mlir-disable-threading", "-"],
        input=text, capture_output=True, text=True, env=env, timeout=300)
    return proc.returncode, proc.stdout


def test_generated_kernels_compile_deterministically():
    work = tempfile.mkdtemp(prefix="difftest-determinism-")
    runner = run.Runner(work, timeout=120)
    batch = os.path.join(work, "batch.json")
    with open(batch, "w") as f:
        json.dump({"programs": [gen.generate(s) for s in
                                range(SEED, SEED + PROGRAMS)]}, f)
    env = dict(runner.env, IMEX_PRINT_KERNELS="1", IMEX_CACHE_DIR="off")
    proc = subprocess.run(
        [runner.mpirun, "-n", "2", "--output-filename",
         os.path.join(work, "out"), runner.python,
         os.path.join(HERE, "worker.py"), batch, os.path.join(work, "L")],
        capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    stderr = ""
    for root, _, files in os.walk(os.path.join(work, "out")):
        if "rank.0" in root and "stderr" in files:
            with open(os.path.join(root, "stderr")) as f:
                stderr = f.read()
    kernels = _kernels(stderr)
    assert any("dist" in p for p, _ in kernels), "no distributed kernel"
    opt = _imex_opt(env["PYTHONPATH"].split(":")[0])
    for pipeline, text in kernels:
        first = _lower(opt, pipeline, text, 1)
        second = _lower(opt, pipeline, text, 50000)
        assert first == second, f"{pipeline} lowers differently:\n{text}"
