"""Distributed arrays on GPUs (imex-dist-gpu-pipeline, docs/gpu.md): the
distributed elementwise, view (halo) and reduction tests, and a Jacobi loop,
with every array in a GPU environment, run under mpirun on 1-4 ranks with
the kernels emulated on the host (imex-dist-gpu-emulation-pipeline) and
checked against numpy and across rank counts as the CPU tests are; and the
same programs compiled for the device down to CUDA binaries."""

import subprocess

import numpy as np
import pytest

import dist_harness
import test_dist_elementwise
import test_dist_reductions
import test_dist_views
from dist_harness import build, data, named, run_cases
from harness import OPT

GPU = '#region.gpu_env<device = "cuda:0">'


@pytest.fixture(autouse=True)
def on_gpu(monkeypatch):
    monkeypatch.setattr(dist_harness, "GPU_ENV", GPU)


def jacobi(d, shape, steps):
    """u[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
    u[1:-1, 2:]) / 4, `steps` times."""
    u = d.array(data(shape))
    quarter = d.scalar(0.25)

    def step(d):
        north = d.view(u, (slice(None, -2), slice(1, -1)))
        south = d.view(u, (slice(2, None), slice(1, -1)))
        west = d.view(u, (slice(1, -1), slice(None, -2)))
        east = d.view(u, (slice(1, -1), slice(2, None)))
        new = d.mul(d.add(d.add(north, south), d.add(west, east)), quarter)
        d.setitem(u, (slice(1, -1), slice(1, -1)), new)

    d.loop(steps, step)
    d.check(u, f"jacobi {shape} x{steps}")
    d.check(d.reduce("sum", u), "sum")


def cases():
    return ([named("jacobi_10x7", jacobi, (10, 7), 5),
             named("jacobi_3x6", jacobi, (3, 6), 2)] +
            test_dist_elementwise.cases(False) +
            test_dist_reductions.cases(False))


def test_elementwise_reductions_stencils():
    run_cases(cases(), expect_halo=True)


def test_views():
    run_cases(test_dist_views.cases(False), expect_halo=True)


def test_dynamic_shapes():
    run_cases(test_dist_elementwise.cases(True) +
              test_dist_reductions.cases(True))


def test_compiles_for_the_device():
    """The stencil, elementwise and view programs through
    imex-dist-gpu-pipeline: kernels in CUDA binaries, buffers in host-shared
    memory, halos through IDTR. (Not the reductions: their 2700 kernels,
    each a module that ptxas assembles, take half a minute; test_gpu.py
    compiles the reduction kernels of every kind for the device.)"""
    stencils_elementwise = [named("jacobi_10x7", jacobi, (10, 7), 5),
                            named("jacobi_3x6", jacobi, (3, 6), 2)]
    source = build(stencils_elementwise + test_dist_elementwise.cases(False) +
                   test_dist_views.cases(False)).p.text()
    proc = subprocess.run([OPT, "-", "-imex-dist-gpu-pipeline",
                           "-mlir-print-ir-after=convert-region-to-gpu"],
                          input=source, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.count("gpu.binary") > 10
    assert "llvm.call @_idtr_update_halo_f64" in out
    assert "memref." not in out and "ndarray." not in out
    # Every buffer is shared by host and device, and none is left to the
    # host's allocator.
    after = proc.stderr
    allocs = [line for line in after.splitlines() if "gpu.alloc" in line]
    assert allocs and all("host_shared" in a for a in allocs)
    assert "memref.alloc(" not in after and "memref.alloc()" not in after
