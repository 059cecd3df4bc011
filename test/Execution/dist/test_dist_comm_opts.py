"""The communication optimizations of imex-dist-cpu-pipeline (dist-coalesce,
overlap-comm-and-compute, add-comm-cache-keys)
change how arrays are exchanged and computed, never the results: stencil
programs print bitwise the same arrays with every optimization on (the
default), with each one off and with all off, on 1-4 ranks (uneven sizes,
a rank owning no rows), also with the runtime's asynchronous progress
thread (IDTR_ASYNC_PROGRESS=1) testing the messages while the core
computes, with one buffer per updated grid (double-buffer-loops=0) and
with the interior of each update computed before the halos arrive
(split-interior=1), with k steps per halo exchange of k halo widths, the
overlap recomputed (ghost-zone-depth=2, 4, 6: rows and a grid of ranks), and
match their numpy twins. With dist-coalesce a stencil step exchanges each
array once; with ghost-zone-depth=2 every second step exchanges nothing."""

import os
import sys

import numpy as np
import pytest

from dist_harness import DIST_PIPELINE, EMULATE, RANKS
from harness import mpi_run, parse_output

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "..",
                        "examples")
sys.path.insert(0, EXAMPLES)

OPTIONS = ["dist-coalesce", "overlap-comm-and-compute",
           "add-comm-cache-keys"]
# (ghost-zone-depth=-1: one halo exchange per step.)
ALL_OFF = " ".join(f"{o}=0" for o in OPTIONS) + " ghost-zone-depth=-1"
# Steps per exchange forced (dist-expand-ghost-zones), on every rank count:
# blocks of 2 and 4 steps plus the remaining steps, and a depth the blocks
# of the smaller rank counts cannot hold (limited at run time).
DEPTHS = [2, 4, 6]
# Each optimization alone off is checked on three ranks (a middle rank with
# neighbours on both sides, uneven blocks).
SINGLE_OFF_RANKS = [n for n in RANKS if n == 3] or list(RANKS[-1:])
ASYNC_PROGRESS = {"IDTR_ASYNC_PROGRESS": "1"}

PRINT = """
func.func private @imexPrintF64(tensor<*xf64> {bufferization.access = "read"})
func.func private @_idtr_stats(i64, i64) -> i64
func.func @print(%a: !ndarray.ndarray<?x?xf64>) {
  %t = ndarray.to_tensor %a : !ndarray.ndarray<?x?xf64> -> tensor<?x?xf64>
  %u = tensor.cast %t : tensor<?x?xf64> to tensor<*xf64>
  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()
  return
}
func.func @print_halo_calls() {
  %c0 = arith.constant 0 : i64
  %calls = func.call @_idtr_stats(%c0, %c0) : (i64, i64) -> i64
  %f = arith.sitofp %calls : i64 to f64
  %a = ndarray.create value %f : !ndarray.ndarray<f64>
  %t = ndarray.to_tensor %a : !ndarray.ndarray<f64> -> tensor<f64>
  %u = tensor.cast %t : tensor<f64> to tensor<*xf64>
  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()
  return
}
"""

# Two fields updated from shifted views of each other (a shallow-water-like
# step): two arrays exchanged per step, chains of elementwise ops, two
# inserts.
SHALLOW = PRINT + """
func.func @main() {
  %n = arith.constant 23 : index
  %steps = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f0 = arith.constant 0.0 : f64
  %f1 = arith.constant 1.0 : f64
  %f2 = arith.constant 2.0 : f64
  %fh = arith.constant 0.5 : f64
  %fc = arith.constant 0.125 : f64
  %h = ndarray.create(%n, %n) value %f1 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %u = ndarray.create(%n, %n) value %f0 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %two = ndarray.create value %f2 : !ndarray.ndarray<f64>
  %half = ndarray.create value %fh : !ndarray.ndarray<f64>
  %c = ndarray.create value %fc : !ndarray.ndarray<f64>
  ndarray.insert_slice %two into %h[5, 5] [4, 7] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  ndarray.insert_slice %half into %u[0, 3] [%n, 1] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %m = arith.subi %n, %c2 : index
  scf.for %it = %c0 to %steps step %c1 {
    %hs = ndarray.subview %h[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hn = ndarray.subview %h[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hw = ndarray.subview %h[1, 0] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %he = ndarray.subview %h[1, 2] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hc = ndarray.subview %h[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %us = ndarray.subview %u[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %un = ndarray.subview %u[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %uw = ndarray.subview %u[1, 0] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %ue = ndarray.subview %u[1, 2] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %uc = ndarray.subview %u[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %dun = ndarray.ewbin subtract %un, %us : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %due = ndarray.ewbin subtract %ue, %uw : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %du = ndarray.ewbin add %dun, %due : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %dhn = ndarray.ewbin subtract %hn, %hs : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %dhe = ndarray.ewbin subtract %he, %hw : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %dh = ndarray.ewbin add %dhn, %dhe : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %cdu = ndarray.ewbin multiply %c, %du : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %hnew = ndarray.ewbin subtract %hc, %cdu : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %cdh = ndarray.ewbin multiply %c, %dh : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %unew = ndarray.ewbin subtract %uc, %cdh : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %hnew into %h[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %unew into %u[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  func.call @print_halo_calls() : () -> ()
  func.call @print(%h) : (!ndarray.ndarray<?x?xf64>) -> ()
  func.call @print(%u) : (!ndarray.ndarray<?x?xf64>) -> ()
  return
}
"""


def shallow():
    n, steps, c = 23, 4, 0.125
    h = np.ones((n, n))
    u = np.zeros((n, n))
    h[5:9, 5:12] = 2.0
    u[:, 3:4] = 0.5
    for _ in range(steps):
        du = (u[2:, 1:-1] - u[:-2, 1:-1]) + (u[1:-1, 2:] - u[1:-1, :-2])
        dh = (h[2:, 1:-1] - h[:-2, 1:-1]) + (h[1:-1, 2:] - h[1:-1, :-2])
        hnew = h[1:-1, 1:-1] - c * du
        unew = u[1:-1, 1:-1] - c * dh
        h[1:-1, 1:-1] = hnew
        u[1:-1, 1:-1] = unew
    return [h, u]


# Three rows (a rank of four owns none): an intermediate read by an
# elementwise op and a reduction, and a row broadcast along dimension 0.
SHIFTED = PRINT + """
func.func @main() {
  %n = arith.constant 3 : index
  %k = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f15 = arith.constant 1.5 : f64
  %f2 = arith.constant 2.0 : f64
  %a = ndarray.create(%n, %k) value %f15 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %two = ndarray.create value %f2 : !ndarray.ndarray<f64>
  ndarray.insert_slice %two into %a[0, 1] [1, 3] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %m = arith.subi %n, %c1 : index
  scf.for %it = %c0 to %c2 step %c1 {
    %lo = ndarray.subview %a[0, 0] [%m, %k] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hi = ndarray.subview %a[1, 0] [%m, %k] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %row = ndarray.subview %a[0, 0] [1, %k] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<1x?xf64>
    %e = ndarray.ewbin multiply %hi, %lo : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %s = ndarray.reduction max %e : !ndarray.ndarray<?x?xf64> -> !ndarray.ndarray<f64>
    %es = ndarray.ewbin divide %e, %s : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<f64>) -> !ndarray.ndarray<?x?xf64>
    %f = ndarray.ewbin add %es, %row : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<1x?xf64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %f into %a[1, 0] [%m, %k] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  func.call @print_halo_calls() : () -> ()
  func.call @print(%a) : (!ndarray.ndarray<?x?xf64>) -> ()
  return
}
"""


def shifted():
    a = np.full((3, 5), 1.5)
    a[0, 1:4] = 2.0
    for _ in range(2):
        e = a[1:] * a[:-1]
        f = e / e.max() + a[0:1]
        a[1:] = f
    return [a]


# Two stages per step: u is updated from the h of this step (a
# forward-backward scheme): the second update reads the first one's result,
# each step needs two halo widths of the previous step's arrays.
STAGED = PRINT + """
func.func @main() {
  %n = arith.constant 19 : index
  %steps = arith.constant 7 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f0 = arith.constant 0.0 : f64
  %f1 = arith.constant 1.0 : f64
  %f2 = arith.constant 2.0 : f64
  %fc = arith.constant 0.25 : f64
  %h = ndarray.create(%n, %n) value %f1 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %u = ndarray.create(%n, %n) value %f0 {dist.team = 1 : i64} : !ndarray.ndarray<?x?xf64>
  %two = ndarray.create value %f2 : !ndarray.ndarray<f64>
  %c = ndarray.create value %fc : !ndarray.ndarray<f64>
  ndarray.insert_slice %two into %h[7, 3] [3, 5] [1, 1] : !ndarray.ndarray<f64> into !ndarray.ndarray<?x?xf64>
  %m = arith.subi %n, %c2 : index
  scf.for %it = %c0 to %steps step %c1 {
    %us = ndarray.subview %u[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %un = ndarray.subview %u[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hc = ndarray.subview %h[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %du = ndarray.ewbin subtract %un, %us : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %cdu = ndarray.ewbin multiply %c, %du : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %hnew = ndarray.ewbin subtract %hc, %cdu : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %hnew into %h[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
    %hs = ndarray.subview %h[0, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hn = ndarray.subview %h[2, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %hw = ndarray.subview %h[1, 0] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %uc = ndarray.subview %u[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> to !ndarray.ndarray<?x?xf64>
    %dh = ndarray.ewbin subtract %hn, %hs : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %dhw = ndarray.ewbin add %dh, %hw : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %cdh = ndarray.ewbin multiply %c, %dhw : (!ndarray.ndarray<f64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    %unew = ndarray.ewbin subtract %uc, %cdh : (!ndarray.ndarray<?x?xf64>, !ndarray.ndarray<?x?xf64>) -> !ndarray.ndarray<?x?xf64>
    ndarray.insert_slice %unew into %u[1, 1] [%m, %m] [1, 1] : !ndarray.ndarray<?x?xf64> into !ndarray.ndarray<?x?xf64>
  }
  func.call @print_halo_calls() : () -> ()
  func.call @print(%h) : (!ndarray.ndarray<?x?xf64>) -> ()
  func.call @print(%u) : (!ndarray.ndarray<?x?xf64>) -> ()
  return
}
"""


def staged():
    n, steps, c = 19, 7, 0.25
    h = np.ones((n, n))
    u = np.zeros((n, n))
    h[7:10, 3:8] = 2.0
    for _ in range(steps):
        h[1:-1, 1:-1] = h[1:-1, 1:-1] - c * (u[2:, 1:-1] - u[:-2, 1:-1])
        u[1:-1, 1:-1] = u[1:-1, 1:-1] - c * (
            (h[2:, 1:-1] - h[:-2, 1:-1]) + h[1:-1, :-2])
    return [h, u]


def jacobi_source():
    with open(os.path.join(EXAMPLES, "jacobi2d_dist.mlir")) as f:
        source = f.read()
    # 12 steps on a 21 x 21 grid; the halo calls printed first.
    source = source.replace("%iters = arith.constant 200", "%iters = "
                            "arith.constant 12")
    source = source.replace("%n = arith.constant 64", "%n = arith.constant 21")
    source = source.replace(
        "func.func @main() {",
        "func.func private @_idtr_stats(i64, i64) -> i64\n"
        "func.func @main() {")
    source = source.replace(
        "  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()\n  return",
        "  %z = arith.constant 0 : i64\n"
        "  %calls = func.call @_idtr_stats(%z, %z) : (i64, i64) -> i64\n"
        "  %cf = arith.sitofp %calls : i64 to f64\n"
        "  %ca = ndarray.create value %cf : !ndarray.ndarray<f64>\n"
        "  %ct = ndarray.to_tensor %ca : !ndarray.ndarray<f64> -> tensor<f64>\n"
        "  %cu = tensor.cast %ct : tensor<f64> to tensor<*xf64>\n"
        "  func.call @imexPrintF64(%cu) : (tensor<*xf64>) -> ()\n"
        "  func.call @imexPrintF64(%u) : (tensor<*xf64>) -> ()\n  return")
    return source


def jacobi():
    u = np.zeros((21, 21))
    u[0, :] = 1.0
    for _ in range(12):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                + u[1:-1, 2:])
    return [np.array(u.sum())]


def jacobi_grid_source():
    # The same on a 2-D grid of ranks (faces, edges and corners exchanged
    # through _idtr_fetch_boxes, not counted as halo calls).
    return jacobi_source().replace(
        "{dist.team = 1 : i64}",
        "{dist.team = 1 : i64, dist.split = array<i64: 0, 1>}")


PROGRAMS = {
    # name: (source, numpy results, steps, exchanged arrays per step)
    "shallow": (lambda: SHALLOW, shallow, 4, 2),
    "shifted": (lambda: SHIFTED, shifted, 2, None),
    "staged": (lambda: STAGED, staged, 7, 2),
    "jacobi": (jacobi_source, jacobi, 12, 1),
    "jacobi_grid": (jacobi_grid_source, jacobi, 12, None),
}


def run(source, nprocs, options, env=None):
    pipeline = DIST_PIPELINE + (f"{{{options}}}" if options else "")
    rc, ranks, launcher = mpi_run(source, nprocs, [f"--pipeline={pipeline}"],
                                  {"IMEX_PRINT_ALL_RANKS": "1", **(env or {})})
    assert rc == 0, (f"{pipeline} on {nprocs} ranks failed ({rc}):\n"
                     f"{launcher}\n" + "\n".join(
                         f"--- rank {r}:\n{o}\n{e}"
                         for r, (o, e) in enumerate(ranks)))
    outputs = [parse_output(out) for out, _ in ranks]
    # The halo call count (first) is per rank; the arrays agree.
    for r, out in enumerate(outputs):
        assert len(out) == len(outputs[0])
        for x, y in zip(out[1:], outputs[0][1:]):
            assert np.array_equal(x, y), \
                f"{pipeline}: rank {r} of {nprocs} differs from rank 0"
    return int(max(o[0] for o in outputs)), outputs[0][1:]


@pytest.mark.skipif(EMULATE, reason="needs the distributed pipeline")
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_results_do_not_depend_on_optimizations(name):
    make_source, numpy_twin, steps, exchanged = PROGRAMS[name]
    source, want = make_source(), numpy_twin()
    # (ranks, pipeline options, label, environment)
    variants = [(n, "", "default", None) for n in RANKS]
    variants += [(n, ALL_OFF, ALL_OFF, None) for n in RANKS]
    variants += [(n, f"{o}=0", f"{o}=0", None) for o in OPTIONS
                 for n in SINGLE_OFF_RANKS]
    variants += [(n, "", "IDTR_ASYNC_PROGRESS=1", ASYNC_PROGRESS)
                 for n in SINGLE_OFF_RANKS]
    # imex-double-buffer-loops (on by default) keeps two buffers per grid;
    # also with one buffer and a temporary.
    variants += [(n, "double-buffer-loops=0", "double-buffer-loops=0", None)
                 for n in SINGLE_OFF_RANKS]
    # The interior of each update computed while its halos are in flight
    # (overlap-comm-and-compute{split-interior}), also with a temporary per
    # update and with the progress thread delivering messages meanwhile.
    variants += [(n, "split-interior=1", "split-interior=1", None)
                 for n in RANKS]
    variants += [(n, "split-interior=1 double-buffer-loops=0",
                  "split-interior=1 double-buffer-loops=0", None)
                 for n in SINGLE_OFF_RANKS]
    variants += [(n, "split-interior=1", "split-interior=1 async progress",
                  ASYNC_PROGRESS) for n in SINGLE_OFF_RANKS]
    # k steps per exchange of k halo widths, the overlap recomputed.
    variants += [(n, f"ghost-zone-depth={k}", f"ghost-zone-depth={k}", None)
                 for k in [-1] + DEPTHS for n in RANKS]
    variants += [(n, "ghost-zone-depth=4 split-interior=1",
                  "ghost-zone-depth=4 split-interior=1", None)
                 for n in SINGLE_OFF_RANKS]
    results = {}
    for nprocs, options, label, env in variants:
        calls, arrays = run(source, nprocs, options, env)
        results[(nprocs, label)] = (calls, arrays)
        assert len(arrays) == len(want)
        for got, expected in zip(arrays, want):
            np.testing.assert_allclose(
                got, expected, rtol=1e-12, atol=1e-14,
                err_msg=f"{name} on {nprocs} ranks ({label}) vs numpy")
    for (nprocs, label), (calls, arrays) in results.items():
        reference = results[(nprocs, ALL_OFF)][1]
        for got, ref in zip(arrays, reference):
            assert np.array_equal(got, ref), \
                (f"{name} on {nprocs} ranks: {label} differs from all "
                 "optimizations off")
    if exchanged is not None:
        for nprocs in RANKS:
            if nprocs == 1:
                continue
            calls = results[(nprocs, "default")][0]
            # One exchange per array and step (plus the gathers printing).
            assert calls <= exchanged * steps + 4, \
                f"{name} on {nprocs} ranks: {calls} halo exchanges"
            off = results[(nprocs, ALL_OFF)][0]
            assert calls < off, (f"{name} on {nprocs} ranks: dist-coalesce "
                                 f"did not reduce exchanges ({calls} vs {off})")
            # Blocks of 2 steps halve the exchanges of the steps they run
            # (each array once per block).
            blocked = results[(nprocs, "ghost-zone-depth=2")][0]
            plain = results[(nprocs, "ghost-zone-depth=-1")][0]
            assert blocked == plain - exchanged * (steps // 2), \
                (f"{name} on {nprocs} ranks: {blocked} halo exchanges with "
                 f"ghost-zone-depth=2, {plain} with one per step")
