"""Arrays created with a team (ndarray.create, ndarray.linspace,
ndarray.random and ndarray.tri with `dist.team = 1`), static and dynamic sizes, sizes below
the rank count (random numbers: the same on every rank count);
scf.for loops updating distributed arrays in place (1-D heat equation,
2-D Jacobi, a conditional update, stencils with halo widths 1-3 and
asymmetric shifts over odd numbers of steps, a leapfrog step keeping the
previous value in a second array), the time loops also with the interior
of each update computed while its halos are in flight (split-interior=1)."""

import numpy as np
import pytest

from dist_harness import data, iota, named, run_cases


def creates(d, dynamic):
    d.check(d.create((7, 3), 2.5, dynamic=dynamic), "create 7x3 value 2.5")
    d.check(d.create((2,), 1, "i64", dynamic=dynamic), "create 2 (i64)")
    d.check(d.create((5,), True, "i1", dynamic=dynamic), "create 5 (i1)")
    z = d.create((10,), 0.0, dynamic=dynamic)
    d.setitem(z, slice(2, 5), d.scalar(1.0))
    d.setitem(z, slice(7, None), d.array(data((3,)), dist=False))
    d.check(z, "create then fill slices")
    e = d.create((0, 3), 1.0, dynamic=dynamic)
    d.check(e, "create 0x3")


def linspaces(d, dynamic):
    d.check(d.linspace(0.0, 1.0, 11, dynamic=dynamic), "linspace(0, 1, 11)")
    d.check(d.linspace(-2.0, 3.0, 7, endpoint=False, dynamic=dynamic),
            "linspace(-2, 3, 7, endpoint=False)")
    d.check(d.linspace(3.0, 23.0, 5, endpoint=False, dtype="i64",
                       dynamic=dynamic), "arange(3, 23, 4) via linspace")
    d.check(d.linspace(1.0, 2.0, 3, dynamic=dynamic), "linspace num 3")
    d.check(d.linspace(5.0, 5.0, 1, dynamic=dynamic), "linspace num 1")
    x = d.linspace(0.0, 1.0, 9, dynamic=dynamic)
    y = d.array(data((9,)))
    d.check(d.add(d.mul(x, x), y), "x*x + copied y")
    d.check(d.add(d.view(x, slice(1, None)), d.view(x, slice(None, -1))),
            "x[1:] + x[:-1]")
    d.check(d.reduce("sum", x), "sum(linspace)")


def randoms(d, dynamic):
    d.check(d.random("uniform", (13, 3), 42, 0, dynamic=dynamic),
            "uniform 13x3")
    d.check(d.random("uniform", (2,), 42, 1, "f32", dynamic=dynamic),
            "uniform 2 (f32): fewer rows than ranks")
    z = d.random("normal", (11,), 7, 3, dynamic=dynamic)
    d.check(z, "normal 11")
    d.check(d.reduce("sum", d.mul(z, z)), "sum of squares")
    u = d.random("uniform", (9, 4), 5, 0, dynamic=dynamic)
    d.check(d.add(d.view(u, (slice(1, None), slice(None))),
                  d.view(u, (slice(None, -1), slice(None)))),
            "u[1:] + u[:-1]")


def heat_1d(d, n, steps, dynamic):
    # u[1:-1] = u[1:-1] + 0.2 * (u[:-2] - 2 u[1:-1] + u[2:])
    u = d.array(data((n,), "f64", 0, 1), dynamic=dynamic)
    k, two = d.scalar(0.2), d.scalar(2.0)

    def step(d):
        lap = d.add(d.sub(d.view(u, slice(None, -2)),
                          d.mul(two, d.view(u, slice(1, -1)))),
                    d.view(u, slice(2, None)))
        d.setitem(u, slice(1, -1), d.add(d.view(u, slice(1, -1)),
                                         d.mul(k, lap)))
    d.loop(steps, step, dynamic=dynamic)
    d.check(u, f"heat {n} points {steps} steps")


def jacobi_2d(d, shape, steps, dynamic):
    u = d.create(shape, 0.0, dynamic=dynamic)
    d.setitem(u, (0, slice(None)), d.scalar(1.0))
    q = d.scalar(0.25)

    def step(d):
        s = d.add(d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                        d.view(u, (slice(2, None), slice(1, -1)))),
                  d.add(d.view(u, (slice(1, -1), slice(None, -2))),
                        d.view(u, (slice(1, -1), slice(2, None)))))
        d.setitem(u, (slice(1, -1), slice(1, -1)), d.mul(q, s))
    d.loop(steps, step, dynamic=dynamic)
    d.check(u, f"jacobi {shape} {steps} steps")
    d.check(d.reduce("sum", u), "checksum")


def two_arrays_swapped_roles(d, dynamic):
    # b[1:-1] = a[:-2] + a[2:]; a[...] = b * 0.5  (two distributed arrays)
    a = d.array(iota((8,)), dynamic=dynamic)
    b = d.array(np.zeros(8), dynamic=dynamic)
    half = d.scalar(0.5)

    def step(d):
        d.setitem(b, slice(1, -1), d.add(d.view(a, slice(None, -2)),
                                         d.view(a, slice(2, None))))
        d.setitem(a, slice(None), d.mul(b, half))
    d.loop(3, step)
    d.check(a, "a after 3 steps")
    d.check(b, "b after 3 steps")


def stencil_widths(d, n, left, right, steps, created, dynamic):
    # u[left:-right] = 0.5 * (u[:-(left+right)] + u[left+right:]) + 0.25 * u[left:-right]:
    # views shifted by `left` rows back and `right` rows forward from the
    # written slice, so the exchange needs halos of those widths (ghost
    # cells allocated with u, written in place each step).
    if created:
        u = d.create((n, 3), 0.0, dynamic=dynamic)
        d.setitem(u, (slice(0, 2), slice(None)), d.scalar(1.0))
        d.setitem(u, (slice(n - 1, None), slice(None)), d.scalar(-2.0))
    else:
        u = d.array(data((n, 3), "f64", 0, 1), dynamic=dynamic)
    half, quarter = d.scalar(0.5), d.scalar(0.25)
    width = left + right

    def step(d):
        inner = (slice(left, n - right), slice(None))
        back = d.view(u, (slice(0, n - width), slice(None)))
        ahead = d.view(u, (slice(width, None), slice(None)))
        d.setitem(u, inner, d.add(d.mul(half, d.add(back, ahead)),
                                  d.mul(quarter, d.view(u, inner))))
    d.loop(steps, step, dynamic=dynamic)
    d.check(u, f"halo {left}/{right}, {n} rows, {steps} steps")


def leapfrog_shifted_previous(d, n, steps, dynamic):
    # As leapfrog, but the new values also read p shifted (p[c] = u[c];
    # u[c] = u[c] + 0.5 * (p[c - 1] + p[c + 1])): computing them in p's
    # buffer in place would overwrite elements still to be read, so
    # bufferization must keep a copy.
    u = d.array(data((n, 2), "f64", 0, 1), dynamic=dynamic)
    p = d.array(data((n, 2), "f64", 0, 2), dynamic=dynamic)
    half = d.scalar(0.5)
    c = (slice(1, -1), slice(None))

    def step(d):
        new = d.add(d.view(u, c),
                    d.mul(half, d.add(d.view(p, (slice(None, -2), slice(None))),
                                      d.view(p, (slice(2, None), slice(None))))))
        d.setitem(p, c, d.view(u, c))
        d.setitem(u, c, new)
    d.loop(steps, step, dynamic=dynamic)
    d.check(u, f"leapfrog shifted u {n} {steps} steps")
    d.check(p, f"leapfrog shifted p {n} {steps} steps")


def leapfrog(d, shape, steps, dynamic, same_start=False, check_p=True):
    # A time step that keeps the previous value, as a wave equation does:
    #   new = 2 u[c] - p[c] + 0.1 * lap(u);  p[c] = u[c];  u[c] = new
    # (c = 1:-1 in both dimensions). imex-double-buffer-loops rotates the
    # buffers of u and p instead of copying u into p every step.
    # same_start: u and p are initialized alike (one value after CSE, which
    # the loop must split into two buffers); check_p=False: p is not used
    # after the loop (the odd last step computes u only).
    u = d.create(shape, 0.0, dynamic=dynamic)
    p = d.create(shape, 0.0, dynamic=dynamic)
    d.setitem(u, (slice(1, 3), slice(1, 3)), d.scalar(1.0))
    if same_start:
        d.setitem(p, (slice(1, 3), slice(1, 3)), d.scalar(1.0))
    else:
        d.setitem(p, (slice(1, 2), slice(1, 3)), d.scalar(0.5))
        d.setitem(u, (slice(0, 1), slice(None)), d.scalar(-1.0))
    two, k, four = d.scalar(2.0), d.scalar(0.1), d.scalar(4.0)
    c = (slice(1, -1), slice(1, -1))

    def step(d):
        lap = d.sub(d.add(d.add(d.view(u, (slice(None, -2), slice(1, -1))),
                                d.view(u, (slice(2, None), slice(1, -1)))),
                          d.add(d.view(u, (slice(1, -1), slice(None, -2))),
                                d.view(u, (slice(1, -1), slice(2, None))))),
                    d.mul(four, d.view(u, c)))
        new = d.add(d.sub(d.mul(two, d.view(u, c)), d.view(p, c)),
                    d.mul(k, lap))
        d.setitem(p, c, d.view(u, c))
        d.setitem(u, c, new)
    d.loop(steps, step, dynamic=dynamic)
    d.check(u, f"leapfrog u {shape} {steps} steps")
    if check_p:
        d.check(p, f"leapfrog p {shape} {steps} steps")


def tris(d, dynamic):
    """ndarray.tri with a team, and eye/tril/triu built from it as the
    frontend builds them."""
    d.check(d.tri((9, 5), 0, dynamic=dynamic), "tri(9, 5)")
    d.check(d.tri((4, 7), -2, "i32", dynamic=dynamic), "tri(4, 7, -2)")
    d.check(d.tri((2, 3), 1, "i1", dynamic=dynamic), "tri(2, 3, 1) bool")
    eye = d.ewbin("logical_and", d.tri((6, 6), 1, "i1", dynamic=dynamic),
                  d.ewuny("logical_not",
                          d.tri((6, 6), 0, "i1", dynamic=dynamic)))
    d.check(d.astype(eye, "f64"), "eye(6, k=1)")
    a = d.array(data((7, 4)), dynamic=dynamic)
    zero = d.scalar(0.0)
    d.check(d.where(d.tri((7, 4), 0, "i1", dynamic=dynamic), a, zero),
            "tril(a)")
    d.check(d.where(d.tri((7, 4), -1, "i1", dynamic=dynamic), zero, a),
            "triu(a)")


def cases(dynamic):
    return [named("creates", creates, dynamic),
            named("tris", tris, dynamic),
            named("linspaces", linspaces, dynamic),
            named("randoms", randoms, dynamic),
            named("heat_1d_13", heat_1d, 13, 5, dynamic),
            named("heat_1d_4", heat_1d, 4, 3, dynamic),
            named("jacobi_2d_8x6", jacobi_2d, (8, 6), 4, dynamic),
            named("two_arrays", two_arrays_swapped_roles, dynamic),
            named("leapfrog_9x5", leapfrog, (9, 5), 5, dynamic),
            named("leapfrog_3x4", leapfrog, (3, 4), 3, dynamic),
            named("leapfrog_same_start", leapfrog, (9, 5), 5, dynamic,
                  same_start=True, check_p=False),
            named("leapfrog_same_start_p", leapfrog, (6, 4), 4, dynamic,
                  same_start=True),
            named("leapfrog_shifted", leapfrog_shifted_previous, 9, 3,
                  dynamic),
            named("halo_1", stencil_widths, 11, 1, 1, 3, True, dynamic),
            named("halo_2", stencil_widths, 13, 2, 2, 3, True, dynamic),
            named("halo_3", stencil_widths, 9, 3, 3, 5, False, dynamic),
            named("halo_1_3", stencil_widths, 10, 1, 3, 3, True, dynamic),
            named("halo_2_0", stencil_widths, 7, 2, 0, 1, False, dynamic)]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_creation_and_loops(dynamic):
    run_cases(cases(dynamic), expect_halo=True)


def test_stencils_split_interior():
    """The time loops again with the interior of each update computed while
    its halos are in flight (overlap-comm-and-compute{split-interior})."""
    stencils = [c for c in cases(True)
                if c.case_name.startswith(("heat", "jacobi", "two_arrays",
                                           "leapfrog", "halo"))]
    run_cases(stencils, expect_halo=True, options="split-interior=1")
