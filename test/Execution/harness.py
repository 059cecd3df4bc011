"""Builds ndarray programs around numpy inputs, runs them with imex-runner
and returns the printed arrays, so tests can compare against numpy.

Inputs are embedded exactly (floats as bit patterns) in writable
memref.globals and wrapped with ndarray.from_memref; results are printed by
imexPrint<T> from libimex_runner_utils.
"""

import functools
import os
import re
import signal
import subprocess
import tempfile

import numpy as np

RUNNER = os.environ.get("IMEX_RUNNER", "imex-runner")
# imex-opt next to imex-runner unless given; mpirun for distributed runs.
OPT = os.environ.get("IMEX_OPT") or (
    os.path.join(os.path.dirname(RUNNER), "imex-opt")
    if os.path.dirname(RUNNER) else "imex-opt")
MPIEXEC = os.environ.get("IMEX_MPIEXEC", "mpirun")

NUMPY_OF = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8,
    "ui64": np.uint64, "ui32": np.uint32, "ui16": np.uint16, "ui8": np.uint8,
    "i1": np.bool_, "index": np.int64,
    # numpy has no bfloat16: expected values are float32 (tests use values
    # exact in bfloat16; inputs are cast from f32 in the program).
    "bf16": np.float32,
    "complex<f64>": np.complex128, "complex<f32>": np.complex64,
}
MLIR_OF = {np.dtype(v): k for k, v in NUMPY_OF.items()
           if k not in ("index", "bf16")}

# How a printed array comes back: (print function, printed type) per dtype.
PRINTED_AS = {
    "f64": ("F64", "f64"), "f32": ("F32", "f32"), "f16": ("F32", "f32"),
    "bf16": ("F32", "f32"),
    "i64": ("I64", "i64"), "i32": ("I32", "i32"), "i16": ("I16", "i16"),
    "i8": ("I8", "i8"), "i1": ("I1", "i1"), "index": ("Index", "index"),
    "ui64": ("I64", "i64"), "ui32": ("I64", "i64"), "ui16": ("I64", "i64"),
    "ui8": ("I64", "i64"),
    # Complex arrays print as two arrays: the real, then the imaginary parts.
    "complex<f64>": ("F64", "f64"), "complex<f32>": ("F32", "f32"),
}


def mlir_dtype(dtype):
    return MLIR_OF[np.dtype(dtype)]


def storage_dtype(dtype):
    """Signless storage of an ndarray element type (ui8 -> i8)."""
    return dtype[1:] if dtype.startswith("ui") else dtype


def array_type(shape, dtype):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"!ndarray.ndarray<{dims}{dtype}>"


def tensor_type(shape, dtype):
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{dtype}>"


def _element(value, dtype):
    if dtype == "i1":
        return "true" if value else "false"
    if dtype.startswith("complex"):
        value = np.array(value, NUMPY_OF[dtype])[()]
        component = dtype[8:-1]
        return (f"({_element(value.real, component)}, "
                f"{_element(value.imag, component)})")
    if dtype.startswith("f"):
        bits = {"f64": np.uint64, "f32": np.uint32, "f16": np.uint16}[dtype]
        width = np.dtype(bits).itemsize * 2
        return "0x%0*X" % (width,
                           int(np.array(value, NUMPY_OF[dtype]).view(bits)))
    return str(int(value))


def _dense(array, dtype):
    if array.ndim == 0:
        return _element(array[()], dtype)
    if array.shape[0] == 0:
        return "[]"
    return "[" + ", ".join(_dense(a, dtype) for a in array) + "]"



def with_option(pipeline, option):
    """`pipeline` (a registered pipeline, possibly with options in braces)
    with `option` added."""
    if pipeline.endswith("}"):
        return f"{pipeline[:-1]} {option}}}"
    return f"{pipeline}{{{option}}}"

class Program:
    """An ndarray program under construction: `main` in MLIR text."""

    def __init__(self):
        self.globals = []
        self.body = []
        self.outputs = []
        self.count = 0

    def fresh(self, prefix="v"):
        self.count += 1
        return f"%{prefix}{self.count}"

    def line(self, text):
        self.body.append("  " + text)

    def input(self, array, dtype=None, dynamic=False):
        """An ndarray holding `array`; returns (ssa name, ndarray type)."""
        array = np.asarray(array)
        dtype = dtype or mlir_dtype(array.dtype)
        if array.size == 0:  # no data: an uninitialised array of the shape
            value = self.op(f"ndarray.create : "
                            f"{array_type(list(array.shape), dtype)}")
            return self._maybe_dynamic(value, list(array.shape), dtype,
                                       dynamic)
        storage = storage_dtype(dtype)
        data = array.astype(NUMPY_OF[storage]) if storage != dtype else array
        name = f"@input{len(self.globals)}"
        shape = list(array.shape)
        memref = f"memref<{''.join(str(d) + 'x' for d in shape)}{storage}>"
        self.globals.append(
            f'memref.global "private" {name} : {memref} = '
            f"dense<{_dense(data, storage)}>")
        m = self.fresh("m")
        self.line(f"{m} = memref.get_global {name} : {memref}")
        value = self.fresh()
        self.line(f"{value} = ndarray.from_memref {m} : {memref} -> "
                  f"{array_type(shape, storage)}")
        if storage != dtype:
            value = self.op(f"ndarray.cast_elemtype {value} : "
                            f"{array_type(shape, storage)} to "
                            f"{array_type(shape, dtype)}")
        return self._maybe_dynamic(value, shape, dtype, dynamic)

    def _maybe_dynamic(self, value, shape, dtype, dynamic):
        if dynamic:
            dyn = [None] * len(shape)
            value = self.op(f"ndarray.cast {value} : "
                            f"{array_type(shape, dtype)} to "
                            f"{array_type(dyn, dtype)}")
            shape = dyn
        return value, array_type(shape, dtype)

    def op(self, text):
        """Adds `%new = text`; returns %new."""
        result = self.fresh()
        self.line(f"{result} = {text}")
        return result

    def constant(self, value, dtype):
        if dtype == "index":
            return self.op(f"arith.constant {int(value)} : index")
        if dtype == "i1":
            return self.op(f"arith.constant {_element(value, dtype)}")
        return self.op(f"arith.constant {_element(value, dtype)} : {dtype}")

    def output(self, value, shape, dtype):
        """Prints ndarray `value` of the given static/dynamic shape."""
        function, printed = PRINTED_AS[dtype]
        if dtype.startswith("complex"):
            for part in ("real", "imag"):
                self.output(self.op(f"ndarray.ewuny {part} {value} : "
                                    f"{array_type(shape, dtype)} -> "
                                    f"{array_type(shape, printed)}"),
                            shape, printed)
            self.outputs[-2:] = [dtype]
            return
        if printed != dtype:
            value = self.op(f"ndarray.cast_elemtype {value} : "
                            f"{array_type(shape, dtype)} to "
                            f"{array_type(shape, printed)}")
        tensor = self.op(f"ndarray.to_tensor {value} : "
                         f"{array_type(shape, printed)} -> "
                         f"{tensor_type(shape, printed)}")
        unranked = self.op(f"tensor.cast {tensor} : "
                           f"{tensor_type(shape, printed)} to "
                           f"tensor<*x{printed}>")
        self.line(f"func.call @imexPrint{function}({unranked}) : "
                  f"(tensor<*x{printed}>) -> ()")
        self.outputs.append(dtype)

    def text(self):
        printers = sorted({PRINTED_AS[d] for d in self.outputs})
        decls = [f"func.func private @imexPrint{f}(tensor<*x{t}> "
                 f'{{bufferization.access = "read"}})' for f, t in printers]
        return "\n".join(self.globals + decls + ["func.func @main() {"] +
                         self.body + ["  return", "}", ""])

    def run(self, extra_args=(), pipeline="imex-cpu-pipeline",
            count_allocations=True):
        """Runs the program; returns the printed arrays as numpy arrays.
        Every buffer the program allocates must be freed exactly once
        (checked where `count_allocations`: host buffers)."""
        source = self.text()
        env = dict(os.environ, IMEX_ALLOCATION_STATS="1")
        if count_allocations:
            pipeline = with_option(pipeline, "count-allocations=1")
        proc = subprocess.run(
            [RUNNER, "-", f"--pipeline={pipeline}", *extra_args], input=source,
            capture_output=True, text=True, timeout=120, env=env)
        if proc.returncode != 0:
            raise AssertionError(
                f"imex-runner failed ({proc.returncode}):\n{proc.stdout}\n"
                f"{proc.stderr}\n"
                f"--- program ---\n{source}")
        stats = ALLOCATIONS.search(proc.stderr)
        if count_allocations and (not stats or stats.group(1) != stats.group(2)):
            raise AssertionError(f"leak or double free: {proc.stderr}\n"
                                 f"--- program ---\n{source}")
        arrays = parse_output(proc.stdout)
        if len(arrays) != self.printed_arrays():
            raise AssertionError(f"expected {len(self.outputs)} arrays, got "
                                 f"{proc.stdout}\n--- program ---\n{source}")
        return self.restore_all(arrays)

    def printed_arrays(self):
        return sum(2 if d.startswith("complex") else 1 for d in self.outputs)

    def restore_all(self, arrays):
        """The outputs from the printed arrays (complex ones from two)."""
        arrays, results = list(arrays), []
        for dtype in self.outputs:
            if dtype.startswith("complex"):
                re, im = arrays.pop(0), arrays.pop(0)
                z = np.empty(re.shape, NUMPY_OF[dtype])
                z.real, z.imag = re, im
                results.append(z)
            else:
                results.append(restore(arrays.pop(0), dtype))
        return results

    def run_mpi(self, nprocs, pipeline="imex-dist-cpu-pipeline",
                extra_args=(), env=None, all_ranks=True, timeout=300):
        """Runs the program on `nprocs` MPI ranks (mpirun); returns the
        printed arrays of every rank (rank 0 only unless `all_ranks`, which
        sets IMEX_PRINT_ALL_RANKS=1). Every rank must exit with 0, print
        every output and free every buffer it allocates exactly once."""
        source = self.text()
        env = dict(env or {}, IMEX_ALLOCATION_STATS="1")
        if all_ranks:
            env["IMEX_PRINT_ALL_RANKS"] = "1"
        args = [f"--pipeline={with_option(pipeline, 'count-allocations=1')}",
                *extra_args]
        rc, ranks, launcher = mpi_run(source, nprocs, args, env, timeout)
        where = f"on {nprocs} rank(s)"
        if rc != 0:
            shown, text = set(), ""
            for r, (o, e) in enumerate(ranks):  # identical outputs once
                if (o, e) not in shown:
                    shown.add((o, e))
                    text += (f"--- rank {r} stdout ---\n{o}\n"
                             f"--- rank {r} stderr ---\n{e}\n")
            launcher = "\n".join(
                line for line in launcher.splitlines()
                if line.strip("-") and not _MPI_BOILERPLATE.search(line))
            raise AssertionError(f"mpirun {where} failed ({rc}):\n"
                                 f"{launcher}\n{text}--- program ---\n"
                                 f"{source}")
        results = []
        for r, (out, err) in enumerate(ranks):
            stats = ALLOCATIONS.findall(err)
            if len(stats) != 1 or stats[0][0] != stats[0][1]:
                raise AssertionError(
                    f"rank {r} {where}: leak or double free (or no "
                    f"allocation statistics): {err}\n--- program ---\n"
                    f"{source}")
            if r > 0 and not all_ranks:
                continue
            arrays = parse_output(out)
            if len(arrays) != self.printed_arrays():
                raise AssertionError(
                    f"rank {r} {where}: expected {len(self.outputs)} arrays, "
                    f"got {len(arrays)}:\n{out}\n--- program ---\n{source}")
            results.append(self.restore_all(arrays))
        return results


ALLOCATIONS = re.compile(r"IMEX_ALLOCATIONS allocated=(\d+) freed=(\d+)")
LINE = re.compile(r"^IMEX_ARRAY (\w+) \[([\d,]*)\](.*)$")


def parse_output(stdout):
    arrays = []
    for line in stdout.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        printed, dims, values = match.groups()
        shape = [int(d) for d in dims.split(",") if d]
        dtype = NUMPY_OF[printed]
        if dtype == np.bool_:
            data = np.array([int(v) for v in values.split()], dtype=np.bool_)
        elif np.issubdtype(dtype, np.floating):
            data = np.array([float(v) for v in values.split()], dtype=dtype)
        else:
            data = np.array([int(v) for v in values.split()], dtype=dtype)
        arrays.append(data.reshape(shape))
    return arrays


def restore(array, dtype):
    """The printed array as the numpy array of ndarray type `dtype`."""
    if dtype.startswith("ui"):
        return array.astype(np.int64).view(np.uint64).astype(NUMPY_OF[dtype])
    return array.astype(NUMPY_OF[dtype])


def assert_matches(result, expected, dtype):
    """Integers and booleans exactly; floats to a few ulps, NaNs equal."""
    expected = np.asarray(expected)
    assert result.shape == expected.shape, (result.shape, expected.shape)
    if dtype.startswith("complex"):
        rtol = {"complex<f64>": 1e-13, "complex<f32>": 2e-6}[dtype]
        np.testing.assert_allclose(result.astype(np.complex128),
                                   expected.astype(np.complex128), rtol=rtol,
                                   atol=rtol, equal_nan=True)
    elif dtype.startswith("f") or dtype == "bf16":
        rtol = {"f64": 1e-13, "f32": 2e-6, "f16": 2e-3, "bf16": 1e-2}[dtype]
        np.testing.assert_allclose(result.astype(np.float64),
                                   expected.astype(np.float64), rtol=rtol,
                                   atol=rtol, equal_nan=True)
    else:
        np.testing.assert_array_equal(result, expected.astype(result.dtype))


# ---- Random numbers (ndarray.random) ------------------------------------

def philox4x32(counter, key):
    """Philox4x32-10 (Random123) on arrays of uint64 words holding 32-bit
    values: four counter words, two key words."""
    mask = np.uint64(0xFFFFFFFF)
    c = [np.asarray(w, dtype=np.uint64) & mask for w in counter]
    k = [np.uint64(w) & mask for w in key]
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c[0]
        p1 = np.uint64(0xCD9E8D57) * c[2]
        hi0, lo0 = p0 >> np.uint64(32), p0 & mask
        hi1, lo1 = p1 >> np.uint64(32), p1 & mask
        c = [hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0]
        k = [(k[0] + np.uint64(0x9E3779B9)) & mask,
             (k[1] + np.uint64(0xBB67AE85)) & mask]
    return c


def random_numbers(distribution, shape, seed, stream, dtype):
    """What `ndarray.random` computes (its documentation is the spec)."""
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.uint64)
    s, t = np.uint64(seed % 2**64), np.uint64(stream % 2**64)
    x = philox4x32([i, i >> np.uint64(32), t, t >> np.uint64(32)],
                   [s, s >> np.uint64(32)])

    def top53(hi, lo):
        return ((hi << np.uint64(32) | lo) >> np.uint64(11)).astype(
            np.float64)
    if distribution == "uniform":
        if dtype == "f32":
            values = ((x[0] >> np.uint64(8)).astype(np.float32) *
                      np.float32(2.0 ** -24))
        else:
            values = top53(x[0], x[1]) * 2.0 ** -53
    else:
        u1 = (top53(x[0], x[1]) + 0.5) * 2.0 ** -53
        u2 = top53(x[2], x[3]) * 2.0 ** -53
        values = np.sqrt(-2.0 * np.log(u1)) * np.cos(2 * np.pi * u2)
    return values.astype(NUMPY_OF[dtype]).reshape(shape)


# ---- Running under MPI ---------------------------------------------------

@functools.lru_cache(maxsize=None)
def pipeline_registered(name):
    """Whether imex-opt knows the pass pipeline `name` (e.g.
    imex-dist-cpu-pipeline, which is registered once it is implemented)."""
    try:
        out = subprocess.run([OPT, "--help"], capture_output=True, text=True,
                             timeout=60).stdout
    except OSError:
        return False
    return re.search(rf"--{re.escape(name)}\b", out) is not None


@functools.lru_cache(maxsize=None)
def _mpiexec_flags():
    """Open MPI must be allowed to oversubscribe the cores (up to 4 ranks on
    a 2-core machine); ranks are not bound to cores so the OS can share
    them."""
    try:
        version = subprocess.run([MPIEXEC, "--version"], capture_output=True,
                                 text=True, timeout=60)
    except OSError:
        return ()
    if re.search("Open MPI|OpenRTE", version.stdout + version.stderr):
        return ("--oversubscribe", "--bind-to", "none")
    return ()


# Open MPI's explanation that a rank failed (the ranks' output says why).
_MPI_BOILERPLATE = re.compile(
    r"Primary job +terminated normally|a non-zero exit code\. Per user|"
    r"mpirun detected that one or more|the job to be terminated\. The first|"
    r"^\s*Process name:|^\s*Exit code:")


# Each rank writes its own stdout/stderr files, so lines of different ranks
# never interleave.
_RANK_WRAPPER = ('r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}; '
                 'exec "$@" >"$IMEX_RANK_OUTPUT/out.$r" '
                 '2>"$IMEX_RANK_OUTPUT/err.$r"')


def _kill_session(sid):
    """SIGKILL every process of session `sid` (Linux /proc)."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:  # state ppid pgrp session ...
                os.kill(int(entry), signal.SIGKILL)
        except (OSError, IndexError, ValueError):
            pass


def mpi_run(source, nprocs, args=(), env=None, timeout=300):
    """Runs `imex-runner <source> args` on `nprocs` ranks. Returns
    (exit status, [(stdout, stderr) per rank], mpirun's own output)."""
    with tempfile.TemporaryDirectory(prefix="imex-mpi-") as tmp:
        path = os.path.join(tmp, "program.mlir")
        with open(path, "w") as f:
            f.write(source)
        full_env = dict(os.environ, **(env or {}))
        full_env.update(IMEX_RANK_OUTPUT=tmp, OMPI_ALLOW_RUN_AS_ROOT="1",
                        OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                        OMPI_MCA_rmaps_base_oversubscribe="1")
        # Shared memory only, without probing network transports (as
        # scripts/env.sh; 0.2 s less per launch).
        full_env.setdefault("OMPI_MCA_pml", "ob1")
        full_env.setdefault("OMPI_MCA_btl", "self,vader")
        cmd = [MPIEXEC, "-n", str(nprocs), *_mpiexec_flags(), "sh", "-c",
               _RANK_WRAPPER, "sh", RUNNER, path, *args]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True,
                                env=full_env, start_new_session=True)
        try:
            launcher, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.terminate()  # mpirun passes SIGTERM on to the ranks
            try:
                launcher, _ = proc.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                launcher = ""
            # Open MPI puts every rank in a process group of its own, but
            # they stay in mpirun's session: end whatever is left of it.
            _kill_session(proc.pid)
            proc.wait()
            launcher = (launcher or "") + f"\n(killed after {timeout} s)"
            proc.returncode = proc.returncode or -9
        ranks = []
        for r in range(nprocs):
            texts = []
            for kind in ("out", "err"):
                try:
                    with open(os.path.join(tmp, f"{kind}.{r}")) as f:
                        texts.append(f.read())
                except OSError:
                    texts.append("(no output file)")
            ranks.append(tuple(texts))
        return proc.returncode, ranks, launcher
