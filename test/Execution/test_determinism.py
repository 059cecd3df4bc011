"""Compilation is deterministic: the same module lowered twice, in two
processes whose heaps lie differently (pointer-keyed containers iterate in
another order), gives the same IR after every pass. Inputs: the examples
with their pipelines, every lit test input (each `// -----` split) that the
CPU or distributed pipeline lowers, and the kernels of the frontend's
generated-program tests. Ranks of one job that compiled a kernel
differently could disagree on its communication and hang."""

import glob
import hashlib
import os
import subprocess

import pytest

from harness import OPT

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

EXAMPLES = {
    "jacobi2d.mlir": "imex-cpu-pipeline",
    "wave1d.mlir": "imex-cpu-pipeline",
    "jacobi2d_dist.mlir": "imex-dist-cpu-pipeline",
    "jacobi2d_grid.mlir": "imex-dist-cpu-pipeline",
    "jacobi2d_gpu.mlir": "imex-gpu-emulation-pipeline",
}


def _lower(text, pipeline, padding, after_all=False):
    """The lowered module (and with `after_all` the IR after every pass) of
    `text`, or None if the pipeline rejects it. `padding` bytes of
    environment move the process's heap."""
    env = dict(os.environ, IMEX_HEAP_PADDING="x" * padding)
    command = [OPT, f"--pass-pipeline=builtin.module({pipeline})",
               "-mlir-disable-threading"]
    if after_all:
        command.append("-mlir-print-ir-after-all")
    proc = subprocess.run(command + ["-"], input=text, capture_output=True,
                          text=True, env=env, timeout=300)
    if proc.returncode != 0:
        return None
    return proc.stdout + (proc.stderr if after_all else "")


def _first_difference(text, pipeline):
    """The first pass after which two runs' IR differ (for the report)."""
    runs = [_lower(text, pipeline, p, after_all=True) for p in (1, 40000)]
    marker = "// -----// IR Dump After "
    dumps = [r.split(marker) if r else [] for r in runs]
    for a, b in zip(*dumps):
        if a != b:
            return a.split("\n", 1)[0]
    return "(the final IR)"


def check_deterministic(text, pipeline, name):
    first = _lower(text, pipeline, 1)
    if first is None:
        return False
    digests = {hashlib.sha256(first.encode()).hexdigest()}
    for padding in (3000, 70000):
        again = _lower(text, pipeline, padding)
        assert again is not None, f"{name}: lowered once, failed once"
        digests.add(hashlib.sha256(again.encode()).hexdigest())
    assert len(digests) == 1, (f"{name} ({pipeline}): runs differ, first "
                               f"after {_first_difference(text, pipeline)}")
    return True


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_examples(example):
    with open(os.path.join(ROOT, "examples", example)) as f:
        assert check_deterministic(f.read(), EXAMPLES[example], example)


def _lit_inputs():
    """(name, text) of each split of the lit tests' inputs."""
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"),
                                 recursive=True)):
        with open(path) as f:
            text = f.read()
        if "expected-error" in text:
            continue
        for k, part in enumerate(text.split("// -----")):
            if "func.func" in part:
                yield f"{os.path.relpath(path, ROOT)}#{k}", part


LIT_INPUTS = list(_lit_inputs())


@pytest.mark.parametrize("chunk", range(8))
def test_lit_inputs(chunk):
    """Every lit input either pipeline lowers (an eighth per test)."""
    lowered = 0
    for name, text in LIT_INPUTS[chunk::8]:
        pipeline = ("imex-dist-cpu-pipeline" if "dist." in text
                    else "imex-cpu-pipeline")
        lowered += check_deterministic(text, pipeline, name)
    assert lowered > 0
