"""Arrays in a GPU environment against numpy (issue 18, docs/gpu.md).

Each program copies numpy inputs to the device (ndarray.copy into
#region.gpu_env), computes there and copies the results back. It runs in two
modes:

- `emulation` (always): imex-gpu-emulation-pipeline, i.e. imex-gpu-pipeline
  up to the gpu dialect, with every kernel run on the host one loop
  iteration per GPU thread. Checks the decomposition into kernels (tiles,
  guards of partial tiles, single-thread kernels, transfers) and that every
  device buffer is freed exactly once.
- `binary`: imex-gpu-pipeline down to the CUDA binaries (cubins where
  ptxas is found, which then assembles every kernel): the program compiles
  for the device.
- `device`: imex-gpu-pipeline and libimex_cuda_runtime on a CUDA device;
  skipped, with the reason, where there is none.
"""

import ctypes
import os
import subprocess

import numpy as np
import pytest

from harness import (OPT, RUNNER, Program, array_type, assert_matches,
                     random_numbers)

GPU = '#region.gpu_env<device = "cuda:0">'
RNG = np.random.default_rng(18)


def _device_unavailable():
    """Why GPU programs cannot run here, or None."""
    lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
        RUNNER))), "lib", "libimex_cuda_runtime.so")
    if not os.path.exists(lib):
        return f"{lib} is not built (no CUDA toolkit at configure time)"
    probe = ctypes.CDLL(lib).imexCudaUnavailableReason
    probe.restype = ctypes.c_char_p
    reason = probe()
    return reason.decode() if reason else None


UNAVAILABLE = _device_unavailable()
MODES = [
    "emulation",
    "binary",
    pytest.param("device", marks=pytest.mark.skipif(
        UNAVAILABLE is not None, reason=f"no CUDA device: {UNAVAILABLE}")),
]


def gpu_type(shape, dtype):
    return array_type(shape, dtype)[:-1] + f", {GPU}>"


class GPUProgram(Program):
    """A Program whose inputs are copied to the device and whose outputs are
    copied back before printing."""

    def gpu_input(self, array, dtype=None):
        host, host_type = self.input(array, dtype)
        dtype = dtype or host_type.split("x")[-1].rstrip(">")
        shape = list(np.shape(array))
        return self.op(f"ndarray.copy {host} : {host_type} -> "
                       f"{gpu_type(shape, dtype)}"), shape, dtype

    def gpu_output(self, value, shape, dtype):
        host = self.op(f"ndarray.copy {value} : {gpu_type(shape, dtype)} -> "
                       f"{array_type(shape, dtype)}")
        self.output(host, shape, dtype)

    def check(self, mode, *expected):
        """Runs (or compiles) the program in `mode` and compares each output
        with numpy's `(array, dtype)`."""
        if mode == "binary":
            proc = subprocess.run([OPT, "-", "-imex-gpu-pipeline"],
                                  input=self.text(), capture_output=True,
                                  text=True, timeout=300)
            assert proc.returncode == 0, proc.stderr
            # (Empty arrays leave no kernel.)
            kernels = proc.stdout.count("gpu.binary")
            assert kernels > 0 or 0 in np.shape(expected[0][0])
            assert proc.stdout.count("#gpu.object<") == kernels
            return
        if mode == "emulation":
            results = self.run(pipeline="imex-gpu-emulation-pipeline")
        else:
            results = self.run(pipeline="imex-gpu-pipeline",
                               count_allocations=False)
        for result, (array, dtype) in zip(results, expected, strict=True):
            assert_matches(result, array, dtype)


# Shapes that fill no tile evenly (tiles are 8 x 32 threads in 2-D, 256 in
# 1-D), 3-D and 4-D (a sequential dimension), one element, and empty.
SHAPES = [(1000,), (37, 53), (5, 7, 9), (2, 3, 4, 5), (1,), (0, 4)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_elementwise_chain(mode, shape):
    a = RNG.uniform(0.5, 4, size=shape)
    b = RNG.uniform(-2, 2, size=shape)
    p = GPUProgram()
    x, _, _ = p.gpu_input(a)
    y, _, _ = p.gpu_input(b)
    t = gpu_type(list(shape), "f64")
    s = p.op(f"ndarray.ewuny sqrt {x} : {t} -> {t}")
    m = p.op(f"ndarray.ewbin multiply {s}, {y} : ({t}, {t}) -> {t}")
    e = p.op(f"ndarray.ewuny exp {m} : {t} -> {t}")
    r = p.op(f"ndarray.ewbin subtract {e}, {x} : ({t}, {t}) -> {t}")
    p.gpu_output(r, list(shape), "f64")
    p.check(mode, (np.exp(np.sqrt(a) * b) - a, "f64"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["f32", "i32", "i64"])
def test_broadcast_scalar_and_row(mode, dtype):
    np_type = {"f32": np.float32, "i32": np.int32, "i64": np.int64}[dtype]
    a = (RNG.uniform(-50, 50, size=(19, 45))).astype(np_type)
    row = (RNG.uniform(-50, 50, size=(45,))).astype(np_type)
    k = np.array(3, dtype=np_type)
    p = GPUProgram()
    x, _, _ = p.gpu_input(a, dtype)
    r_, _, _ = p.gpu_input(row, dtype)
    c, _, _ = p.gpu_input(k, dtype)
    t, rt, ct = (gpu_type([19, 45], dtype), gpu_type([45], dtype),
                 gpu_type([], dtype))
    s = p.op(f"ndarray.ewbin add {x}, {r_} : ({t}, {rt}) -> {t}")
    m = p.op(f"ndarray.ewbin multiply {s}, {c} : ({t}, {ct}) -> {t}")
    p.gpu_output(m, [19, 45], dtype)
    p.check(mode, ((a + row) * k, dtype))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind,axes", [("sum", None), ("sum", [0]),
                                       ("max", [1]), ("mean", None),
                                       ("prod", [0, 2])], ids=str)
def test_reductions(mode, kind, axes):
    a = RNG.uniform(0.9, 1.1, size=(6, 35, 9))
    p = GPUProgram()
    x, shape, _ = p.gpu_input(a)
    reduced = range(3) if axes is None else axes
    rshape = [n for d, n in enumerate(shape) if d not in reduced]
    attrs = "" if axes is None else f" axes [{', '.join(map(str, axes))}]"
    r = p.op(f"ndarray.reduction {kind} {x}{attrs} : {gpu_type(shape, 'f64')}"
             f" -> {gpu_type(rshape, 'f64')}")
    p.gpu_output(r, rshape, "f64")
    numpy = {"sum": np.sum, "max": np.max, "mean": np.mean, "prod": np.prod}
    expected = numpy[kind](a, axis=None if axes is None else tuple(axes))
    p.check(mode, (expected, "f64"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind,axis", [("max", None), ("min", 0),
                                       ("max", 1)], ids=str)
def test_argreduce(mode, kind, axis):
    """argmax/argmin: a reduction carrying value and index (whole-array in
    two steps: the step is order-independent), few values: many ties."""
    a = RNG.integers(-3, 4, size=(37, 53)).astype(np.float64)
    a[20, 7] = np.nan if kind == "min" else a[20, 7]
    p = GPUProgram()
    x, shape, _ = p.gpu_input(a)
    rshape = [] if axis is None else [n for d, n in enumerate(shape)
                                      if d != axis]
    attr = "" if axis is None else f" axis {axis}"
    r = p.op(f"ndarray.argreduce {kind} {x}{attr} : {gpu_type(shape, 'f64')}"
             f" -> {gpu_type(rshape, 'i64')}")
    p.gpu_output(r, rshape, "i64")
    f = np.argmax if kind == "max" else np.argmin
    p.check(mode, (np.asarray(f(a, axis=axis), np.int64), "i64"))


@pytest.mark.parametrize("op", ["take", "put", "masked_select", "sort"])
def test_data_dependent_ops_are_a_diagnostic_on_the_device(op):
    """take checks its indices on the host, put and masked_select are
    sequential loops, sorts run in IDTR on the host: the GPU pipelines do
    not run them on the device yet, and say so instead of crashing or
    reading device memory on the host."""
    p = GPUProgram()
    x, shape, _ = p.gpu_input(np.zeros((4, 3)))
    i, _, _ = p.gpu_input(np.array([1, 2]))
    if op == "take":
        r = p.op(f"ndarray.take {x}[{i}] axis 0 : ({gpu_type(shape, 'f64')}, "
                 f"{gpu_type([2], 'i64')}) -> {gpu_type([2, 3], 'f64')}")
        p.gpu_output(r, [2, 3], "f64")
    elif op == "masked_select":
        m, _, _ = p.gpu_input(np.array([True, False, True, True]), "i1")
        r = p.op(f"ndarray.masked_select {x}[{m}] : {gpu_type(shape, 'f64')}, "
                 f"{gpu_type([4], 'i1')} -> {gpu_type([None, 3], 'f64')}")
        p.gpu_output(r, [None, 3], "f64")
    elif op == "sort":
        r = p.op(f"ndarray.sort {x} axis 0 : {gpu_type(shape, 'f64')} -> "
                 f"{gpu_type(shape, 'f64')}")
        p.gpu_output(r, shape, "f64")
    else:
        w, _, _ = p.gpu_input(np.ones((2, 3)))
        r = p.op(f"ndarray.put {w} into {x}[{i}] axis 0 : ("
                 f"{gpu_type([2, 3], 'f64')}, {gpu_type(shape, 'f64')}, "
                 f"{gpu_type([2], 'i64')}) -> {gpu_type(shape, 'f64')}")
        p.gpu_output(r, shape, "f64")
    proc = subprocess.run([OPT, "-", "-imex-gpu-pipeline"], input=p.text(),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode != 0
    expected = ("which IDTR does on the host" if op == "sort" else
                "computes on the device a value that the host uses")
    assert expected in proc.stderr, proc.stderr


@pytest.mark.parametrize("mode", MODES)
def test_matmul(mode):
    a = RNG.uniform(-1, 1, size=(33, 17))
    b = RNG.uniform(-1, 1, size=(17, 41))
    p = GPUProgram()
    x, _, _ = p.gpu_input(a)
    y, _, _ = p.gpu_input(b)
    r = p.op(f"ndarray.matmul {x}, {y} : ({gpu_type([33, 17], 'f64')}, "
             f"{gpu_type([17, 41], 'f64')}) -> {gpu_type([33, 41], 'f64')}")
    p.gpu_output(r, [33, 41], "f64")
    p.check(mode, (a @ b, "f64"))


@pytest.mark.parametrize("mode", MODES)
def test_strided_views_and_insert(mode):
    """A strided view updated in place, a reversed read of another array."""
    a = RNG.uniform(-1, 1, size=(20, 30))
    b = RNG.uniform(-1, 1, size=(10, 15))
    p = GPUProgram()
    x, _, _ = p.gpu_input(a)
    y, _, _ = p.gpu_input(b)
    t, vt = gpu_type([20, 30], "f64"), gpu_type([10, 15], "f64")
    v = p.op(f"ndarray.subview {x}[0, 1] [10, 15] [2, 2] : {t} to {vt}")
    s = p.op(f"ndarray.ewbin add {v}, {y} : ({vt}, {vt}) -> {vt}")
    p.line(f"ndarray.insert_slice {s} into {x}[0, 1] [10, 15] [2, 2] : "
           f"{vt} into {t}")
    p.gpu_output(x, [20, 30], "f64")
    expected = a.copy()
    expected[0::2, 1::2] += b
    p.check(mode, (expected, "f64"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n,steps", [(64, 200), (37, 11)])
def test_jacobi(mode, n, steps):
    """examples/jacobi2d_gpu.mlir's stencil loop on the device."""
    p = GPUProgram()
    zero = p.constant(0.0, "f64")
    one = p.constant(1.0, "f64")
    quarter = p.constant(0.25, "f64")
    c0, c1 = p.constant(0, "index"), p.constant(1, "index")
    cs = p.constant(steps, "index")
    g, g0 = gpu_type([n, n], "f64"), gpu_type([], "f64")
    u = p.op(f"ndarray.create value {zero} : {g}")
    top = p.op(f"ndarray.create value {one} : {g0}")
    p.line(f"ndarray.insert_slice {top} into {u}[0, 0] [1, {n}] [1, 1] : "
           f"{g0} into {g}")
    q = p.op(f"ndarray.create value {quarter} : {g0}")
    m = n - 2
    v = gpu_type([m, m], "f64")
    p.line(f"scf.for %it = {c0} to {cs} step {c1} {{")
    views = [p.op(f"ndarray.subview {u}[{i}, {j}] [{m}, {m}] [1, 1] : {g} "
                  f"to {v}") for i, j in ((0, 1), (2, 1), (1, 0), (1, 2))]
    ns = p.op(f"ndarray.ewbin add {views[0]}, {views[1]} : ({v}, {v}) -> {v}")
    we = p.op(f"ndarray.ewbin add {views[2]}, {views[3]} : ({v}, {v}) -> {v}")
    s = p.op(f"ndarray.ewbin add {ns}, {we} : ({v}, {v}) -> {v}")
    new = p.op(f"ndarray.ewbin multiply {s}, {q} : ({v}, {g0}) -> {v}")
    p.line(f"ndarray.insert_slice {new} into {u}[1, 1] [{m}, {m}] [1, 1] : "
           f"{v} into {g}")
    p.line("}")
    p.gpu_output(u, [n, n], "f64")
    expected = np.zeros((n, n))
    expected[0, :] = 1.0
    for _ in range(steps):
        expected[1:-1, 1:-1] = 0.25 * (expected[:-2, 1:-1] + expected[2:, 1:-1]
                                       + expected[1:-1, :-2]
                                       + expected[1:-1, 2:])
    p.check(mode, (expected, "f64"))


@pytest.mark.parametrize("mode", MODES)
def test_more_ops(mode):
    """where, casts, integer ops, permute_dims, reshape, concat, linspace,
    tri and random numbers on the device."""
    a = RNG.uniform(-3, 3, size=(5, 6))
    i = RNG.integers(-20, 20, size=(5, 6)).astype(np.int32)
    p = GPUProgram()
    x, _, _ = p.gpu_input(a)
    y, _, _ = p.gpu_input(i, "i32")
    t, ti, tb = (gpu_type([5, 6], "f64"), gpu_type([5, 6], "i32"),
                 gpu_type([5, 6], "i1"))
    zero = p.op(f"ndarray.create value {p.constant(0.0, 'f64')} : "
                f"{gpu_type([], 'f64')}")
    positive = p.op(f"ndarray.ewbin greater {x}, {zero} : ({t}, "
                    f"{gpu_type([], 'f64')}) -> {tb}")
    w = p.op(f"ndarray.where {positive}, {x}, {zero} : ({tb}, {t}, "
             f"{gpu_type([], 'f64')}) -> {t}")
    p.gpu_output(w, [5, 6], "f64")
    m = p.op(f"ndarray.ewbin remainder {y}, {y} : ({ti}, {ti}) -> {ti}")
    t0 = gpu_type([], "i32")
    three = p.op(f"ndarray.create value {p.constant(3, 'i32')} : {t0}")
    f = p.op(f"ndarray.ewbin floor_divide {y}, {three} : ({ti}, {t0}) -> "
             f"{ti}")
    p.gpu_output(f, [5, 6], "i32")
    c = p.op(f"ndarray.cast_elemtype {y} : {ti} to {t}")
    s = p.op(f"ndarray.ewbin add {c}, {x} : ({t}, {t}) -> {t}")
    tr = p.op(f"ndarray.permute_dims {s} [1, 0] : {t} -> "
              f"{gpu_type([6, 5], 'f64')}")
    p.gpu_output(tr, [6, 5], "f64")
    r = p.op(f"ndarray.reshape {x} copy : {t} -> {gpu_type([3, 10], 'f64')}")
    p.gpu_output(r, [3, 10], "f64")
    cc = p.op(f"ndarray.concat {x}, {x} axis 1 : ({t}, {t}) -> "
              f"{gpu_type([5, 12], 'f64')}")
    p.gpu_output(cc, [5, 12], "f64")
    ls = p.op(f"ndarray.linspace {p.constant(0.0, 'f64')}, "
              f"{p.constant(1.0, 'f64')}, {p.constant(7, 'index')} endpoint :"
              f" f64 -> {gpu_type([7], 'f64')}")
    p.gpu_output(ls, [7], "f64")
    tri = p.op(f"ndarray.tri {p.constant(1, 'index')} : "
               f"{gpu_type([4, 6], 'f32')}")
    p.gpu_output(tri, [4, 6], "f32")
    p.gpu_output(m, [5, 6], "i32")
    p.check(mode, (np.where(a > 0, a, 0.0), "f64"), (i // 3, "i32"),
            ((i + a).T, "f64"), (a.reshape(3, 10), "f64"),
            (np.concatenate([a, a], axis=1), "f64"),
            (np.linspace(0, 1, 7), "f64"),
            (np.tri(4, 6, 1, dtype=np.float32), "f32"),
            (np.zeros_like(i), "i32"))


@pytest.mark.parametrize("mode", MODES)
def test_random_numbers(mode):
    """Philox in the kernels: the same numbers as on the host."""
    p = GPUProgram()
    seed, stream = p.constant(42, "i64"), p.constant(3, "i64")
    for distribution, dtype, shape in [("uniform", "f64", [33, 7]),
                                       ("normal", "f32", [300])]:
        r = p.op(f"ndarray.random {distribution} {seed}, {stream} : "
                 f"{gpu_type(shape, dtype)}")
        p.gpu_output(r, shape, dtype)
    p.check(mode, (random_numbers("uniform", (33, 7), 42, 3, "f64"), "f64"),
            (random_numbers("normal", (300,), 42, 3, "f32"), "f32"))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", [(0,), (1,), (100000,), (333, 77),
                                   (3, 0, 2)], ids=str)
def test_full_reductions(mode, shape):
    """Whole-array reductions in two steps (partial results of up to 16384
    threads, then one thread): more, fewer and no elements than threads."""
    a = np.random.default_rng(2).uniform(0.99, 1.01, size=shape)
    kinds = [("sum", np.sum), ("prod", np.prod), ("mean", np.mean)]
    if a.size:
        kinds.append(("max", np.max))
    p = GPUProgram()
    x, _, _ = p.gpu_input(a)
    expected = []
    for kind, function in kinds:
        r = p.op(f"ndarray.reduction {kind} {x} : "
                 f"{gpu_type(list(shape), 'f64')} -> {gpu_type([], 'f64')}")
        p.gpu_output(r, [], "f64")
        with np.errstate(invalid="ignore"):
            expected.append((np.asarray(function(a)), "f64"))
    p.check(mode, *expected)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["complex<f64>", "complex<f32>"])
def test_complex(mode, dtype):
    """complex arithmetic, abs, a whole-array sum and matmul on the device
    (the complex dialect lowered to component arithmetic in the kernels)."""
    np_type = np.complex128 if dtype == "complex<f64>" else np.complex64
    real = dtype[8:-1]
    a = (RNG.uniform(-1, 1, (37, 5)) + 1j * RNG.uniform(-1, 1, (37, 5))
         ).astype(np_type)
    b = (RNG.uniform(-1, 1, (5, 3)) + 1j * RNG.uniform(-1, 1, (5, 3))
         ).astype(np_type)
    p = GPUProgram()
    x, _, _ = p.gpu_input(a, dtype)
    y, _, _ = p.gpu_input(b, dtype)
    t, bt = gpu_type([37, 5], dtype), gpu_type([5, 3], dtype)
    e = p.op(f"ndarray.ewuny exp {x} : {t} -> {t}")
    m = p.op(f"ndarray.ewbin multiply {e}, {x} : ({t}, {t}) -> {t}")
    p.gpu_output(m, [37, 5], dtype)
    r = p.op(f"ndarray.ewuny abs {x} : {t} -> {gpu_type([37, 5], real)}")
    p.gpu_output(r, [37, 5], real)
    s = p.op(f"ndarray.reduction sum {x} : {t} -> {gpu_type([], dtype)}")
    p.gpu_output(s, [], dtype)
    mm = p.op(f"ndarray.matmul {x}, {y} : ({t}, {bt}) -> "
              f"{gpu_type([37, 3], dtype)}")
    p.gpu_output(mm, [37, 3], dtype)
    p.check(mode, (np.exp(a) * a, dtype), (np.abs(a), real),
            (np.sum(a), dtype), (a @ b, dtype))
