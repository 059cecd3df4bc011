# -*- Python -*-
import ctypes.util
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "IMEX"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.imex_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", config.python_executable))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.imex_tools_dir, config.llvm_tools_dir]
tools = ["imex-opt", "imex-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Python test sources (pytest) live beside the lit tests.
config.excludes.append("Execution")

# Lowered distruntime code run under MPI: `%mpiexec` (with the flags Open MPI
# needs as root and on small machines) and the feature `idtr`, when the IDTR
# runtime is built and an MPI launcher is found.
import shutil
import subprocess

_mpiexec = shutil.which("mpiexec") or shutil.which("mpirun")
_libidtr = os.path.join(config.imex_obj_root, "runtime", "lib", "libidtr.so")
if _mpiexec and os.path.exists(_libidtr):
    try:
        _version = subprocess.run([_mpiexec, "--version"], capture_output=True,
                                  text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        _version = ""
    _flags = ["--allow-run-as-root", "--oversubscribe"] if (
        "Open MPI" in _version or "OpenRTE" in _version) else []
    config.substitutions.append(("%mpiexec", " ".join([_mpiexec] + _flags)))
    config.available_features.add("idtr")

# glibc's vector math library, which the JIT's vectorized loops call.
if ctypes.util.find_library("mvec"):
    config.available_features.add("libmvec")

# imex-runner's object cache: one in the build tree, not the user's.
config.environment["IMEX_CACHE_DIR"] = os.path.join(config.imex_obj_root,
                                                    "jit-cache")

# Sanitized tools (IMEX_ENABLE_SANITIZERS, docs/testing.md): leaks are
# errors, UBSan reports come with stacks. Not leaks under MPI: Open MPI's
# own are only told apart by unwinding fully on malloc, which deadlocks in
# the JIT's registration of unwind tables (the runtime's tests check IDTR's
# leaks under MPI).
if config.imex_sanitizers:
    config.available_features.add("asan")
    for name, value in {"ASAN_OPTIONS": "detect_leaks=1",
                        "UBSAN_OPTIONS": "print_stacktrace=1"}.items():
        config.environment[name] = os.environ.get(name, value)
    config.substitutions = [
        (key, f"env ASAN_OPTIONS=detect_leaks=0 {value}"
         if key == "%mpiexec" else value)
        for key, value in config.substitutions]

# GPU (docs/gpu.md): `ptxas` when the CUDA toolkit's assembler is found (the
# kernels are then compiled to cubins), `cuda-runtime` when
# libimex_cuda_runtime is built, `cuda-device` when it finds a usable device
# (tests that run kernels require it).
import sys

sys.path.insert(0, os.path.join(config.test_source_root, "GPU"))
from check_binaries import find_cuda_tool  # noqa: E402

if find_cuda_tool("ptxas"):
    config.available_features.add("ptxas")
_libcuda_runtime = os.path.join(config.imex_lib_dir, "libimex_cuda_runtime.so")
if os.path.exists(_libcuda_runtime):
    config.available_features.add("cuda-runtime")
    import ctypes
    _probe = ctypes.CDLL(_libcuda_runtime).imexCudaUnavailableReason
    _probe.restype = ctypes.c_char_p
    _reason = _probe()
    if _reason is None:
        config.available_features.add("cuda-device")
    else:
        lit_config.note("GPU execution tests skipped: " + _reason.decode())
