"""libimex_cuda_runtime (the mgpu* ABI of lowered GPU programs) against a
CUDA driver on the host (test/GPU/FakeCudaDriver.cpp, loaded as
libcuda.so.1): arguments, grids and transfers are forwarded, empty launches
and transfers skipped, and driver errors end the process with one message
naming the call and the error."""

import json
import os
import subprocess
import sys

import pytest

from harness import RUNNER

BUILD = os.path.dirname(os.path.dirname(os.path.abspath(RUNNER)))
RUNTIME = os.path.join(BUILD, "lib", "libimex_cuda_runtime.so")
FAKE_DRIVER = os.path.join(BUILD, "test", "fake-cuda-driver")

pytestmark = pytest.mark.skipif(
    not os.path.exists(os.path.join(FAKE_DRIVER, "libcuda.so.1")),
    reason="libimex_cuda_runtime is not built (no CUDA toolkit)")

PRELUDE = f"""
import ctypes, json
rt = ctypes.CDLL({RUNTIME!r})
P = ctypes.c_void_p
for name, res, args in [
        ("imexCudaUnavailableReason", ctypes.c_char_p, []),
        ("mgpuMemAlloc", P, [ctypes.c_uint64, P, ctypes.c_bool]),
        ("mgpuMemFree", None, [P, P]),
        ("mgpuMemcpy", None, [P, P, ctypes.c_size_t, P]),
        ("mgpuMemset32", None, [P, ctypes.c_uint, ctypes.c_size_t, P]),
        ("mgpuModuleLoad", P, [P, ctypes.c_size_t]),
        ("mgpuModuleLoadJIT", P, [P, ctypes.c_int]),
        ("mgpuModuleGetFunction", P, [P, ctypes.c_char_p]),
        ("mgpuStreamCreate", P, []),
        ("mgpuStreamSynchronize", None, [P]),
        ("mgpuStreamDestroy", None, [P]),
        ("mgpuLaunchKernel", None, [P] + [ctypes.c_ssize_t] * 6 +
         [ctypes.c_int32, P, ctypes.POINTER(P), ctypes.POINTER(P),
          ctypes.c_size_t])]:
    getattr(rt, name).restype = res
    getattr(rt, name).argtypes = args
driver = ctypes.CDLL("libcuda.so.1")
"""


def run(body, **env):
    """Runs `body` after PRELUDE in a fresh process whose libcuda.so.1 is
    the fake driver, with `env` (None: unset); returns (exit status, what it
    printed as JSON, stderr)."""
    environment = dict(os.environ, LD_LIBRARY_PATH=FAKE_DRIVER)
    for name, value in env.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    proc = subprocess.run([sys.executable, "-c", PRELUDE + body],
                          capture_output=True, text=True, env=environment,
                          timeout=60)
    out = json.loads(proc.stdout) if proc.stdout.strip() else None
    return proc.returncode, out, proc.stderr


def test_device_found():
    rc, out, err = run("print(json.dumps(rt.imexCudaUnavailableReason() "
                       "is None))")
    assert (rc, out) == (0, True), err


@pytest.mark.parametrize("env,reason", [
    ({"FAKE_CUDA_DEVICES": "0"}, "no CUDA device found"),
    ({"IMEX_CUDA_DEVICE": "3"},
     "IMEX_CUDA_DEVICE=3 but there are 1 CUDA device(s)")])
def test_no_usable_device(env, reason):
    rc, out, err = run("print(json.dumps(rt.imexCudaUnavailableReason()"
                       ".decode()))", **env)
    assert (rc, out) == (0, reason), err
    # Any call then ends the process with the reason.
    rc, out, err = run("rt.mgpuStreamCreate()", **env)
    assert rc == 1
    assert err == ("imex_cuda_runtime: this program needs a CUDA device: "
                   f"{reason}\n")


@pytest.mark.parametrize("env,device", [
    ({}, 0),
    ({"FAKE_CUDA_DEVICES": "2", "OMPI_COMM_WORLD_LOCAL_RANK": "3"}, 1),
    ({"FAKE_CUDA_DEVICES": "4", "SLURM_LOCALID": "2"}, 2),
    ({"FAKE_CUDA_DEVICES": "4", "OMPI_COMM_WORLD_LOCAL_RANK": "3",
      "IMEX_CUDA_DEVICE": "1"}, 1)])
def test_device_choice(env, device):
    """IMEX_CUDA_DEVICE, else the node-local MPI rank modulo the devices."""
    clean = {k: None for k in ("OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                               "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID",
                               "IMEX_CUDA_DEVICE")
             if k not in env}
    rc, out, err = run("""
assert rt.imexCudaUnavailableReason() is None
driver.fakeCudaLastDevice.restype = ctypes.c_int
print(json.dumps(driver.fakeCudaLastDevice()))
""", **clean, **env)
    assert (rc, out) == (0, device), err


def test_transfers():
    rc, out, err = run("""
host = (ctypes.c_int64 * 100)(*range(100, 200))
back = (ctypes.c_int64 * 100)()
s = rt.mgpuStreamCreate()
dev = rt.mgpuMemAlloc(800, s, False)
rt.mgpuMemcpy(dev, ctypes.addressof(host), 800, s)
rt.mgpuMemset32(dev, 7, 2, s)        # the first int64 becomes 7 | 7 << 32
rt.mgpuMemcpy(ctypes.addressof(back), dev, 800, s)
rt.mgpuMemcpy(None, None, 0, s)      # nothing to copy: no driver call
rt.mgpuStreamSynchronize(s)
rt.mgpuMemFree(dev, s)
rt.mgpuMemFree(None, s)
rt.mgpuStreamDestroy(s)
print(json.dumps([list(back), rt.mgpuMemAlloc(0, None, False)]))
""")
    assert rc == 0, err
    assert out[0] == [7 | 7 << 32] + list(range(101, 200))
    assert out[1] is None  # zero bytes: no allocation


def test_launch_forwards_grid_and_arguments():
    rc, out, err = run("""
data = (ctypes.c_int64 * 20)(*([-1] * 20))
n = ctypes.c_int64(10)
pdata = ctypes.c_void_p(ctypes.addressof(data))
params = (P * 2)(ctypes.cast(ctypes.pointer(pdata), P),
                 ctypes.cast(ctypes.pointer(n), P))
module = rt.mgpuModuleLoad(b"cubin", 5)
kernel = rt.mgpuModuleGetFunction(module, b"fill_iota")
# 3 blocks of 4 threads cover 12 >= n = 10 elements.
rt.mgpuLaunchKernel(kernel, 3, 1, 1, 4, 1, 1, 0, None, params, None, 2)
# An empty grid launches nothing.
rt.mgpuLaunchKernel(kernel, 0, 1, 1, 4, 1, 1, 0, None, params, None, 2)
driver.fakeCudaLaunchCount.restype = ctypes.c_int
print(json.dumps([list(data), driver.fakeCudaLaunchCount()]))
""")
    assert rc == 0, err
    assert out == [list(range(10)) + [-1] * 10, 1]


def test_ptx_jit_level():
    rc, out, err = run("""
rt.mgpuModuleLoadJIT(b".version 8.0\\n.target sm_80\\n", 3)
driver.fakeCudaLastJitOptLevel.restype = ctypes.c_int
print(json.dumps(driver.fakeCudaLastJitOptLevel()))
""")
    assert (rc, out) == (0, 3), err


@pytest.mark.parametrize("body,message", [
    ("rt.mgpuMemAlloc(1 << 50, None, False)",
     "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY: out of memory"),
    ("rt.mgpuModuleGetFunction(rt.mgpuModuleLoad(b'x', 1), b'missing')",
     "cuModuleGetFunction failed: CUDA_ERROR_NOT_FOUND: named symbol not "
     "found"),
    ("rt.mgpuModuleLoadJIT(b'garbage', 2)",
     "cuModuleLoadDataEx (PTX JIT) failed: CUDA_ERROR_INVALID_PTX: a PTX JIT "
     "compilation failed: ptxas fatal: no .version directive"),
])
def test_driver_errors_end_the_process(body, message):
    rc, out, err = run(body + "\nprint(json.dumps('not reached'))")
    assert rc == 1 and out is None
    assert err == f"imex_cuda_runtime: {message}\n"
