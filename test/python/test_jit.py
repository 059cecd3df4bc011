"""@imex.jit and imex.fori_loop: whole functions, time-step loops that stay
loops, compiled once per structure."""

import numpy as np
import pytest

import imex as xp
from helpers import check, sample


def jacobi_step(m, u):
    u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] +
                            u[1:-1, 2:])
    return u


@xp.jit
def jacobi(u, iterations):
    return xp.fori_loop(0, iterations, lambda i, u: jacobi_step(xp, u), u)


def test_fori_loop_updates_in_place_and_compiles_once():
    x = sample((9, 7), np.float64, seed=60)
    u = xp.asarray(x)
    result = jacobi(u, 5)
    for _ in range(5):
        jacobi_step(np, x)
    assert result is u
    check(u, x)
    compiles = xp.stats()["compiles"]
    jacobi(u, 3)  # other trip count: same kernel
    jacobi(xp.asarray(np.ones((20, 11))), 2)  # other sizes: same kernel
    assert xp.stats()["compiles"] == compiles
    for _ in range(3):
        jacobi_step(np, x)
    check(u, x)


@xp.jit
def wave(u, u_prev, steps, c2):
    def step(i, state):
        u, u_prev = state
        u_next = xp.zeros_like(u)
        u_next[1:-1] = (2.0 * u[1:-1] - u_prev[1:-1] +
                        c2 * (u[:-2] + u[2:] - 2.0 * u[1:-1]))
        return u_next, u
    return xp.fori_loop(0, steps, step, (u, u_prev))


@pytest.mark.parametrize("steps", [0, 1, 6])
def test_fori_loop_carries_tuples(steps):
    y = np.sin(np.linspace(0.0, 3.0, 25))
    u, u_prev = wave(xp.asarray(y), xp.asarray(y), steps, 0.1)
    a, b = y.copy(), y.copy()
    for _ in range(steps):
        n = np.zeros_like(a)
        n[1:-1] = 2.0 * a[1:-1] - b[1:-1] + 0.1 * (a[:-2] + a[2:] -
                                                    2.0 * a[1:-1])
        a, b = n, a
    check(u, a)
    check(u_prev, b)


def swap_with_index(u, v, lower, upper):
    def step(i, state):
        u, v = state
        v[1:] = u[:-1] * i + (i % 3)
        return v, u
    return xp.fori_loop(lower, upper, step, (u, v))


def carry_with_index(a, lower, upper):
    return xp.fori_loop(lower, upper, lambda i, x: x + i * 0.5, a)


@pytest.mark.parametrize("bounds", [(0, 5), (2, 9), (4, 4)])
def test_the_loop_index_in_array_expressions(bounds):
    """Under jit, `i` is a 0-d int64 array with the iteration's index: in
    the blocks of a permuting loop, its remainder iterations and a loop
    carrying new arrays alike (compared with the Python loop)."""
    lower, upper = bounds
    x = sample((7,), np.float64, seed=61)
    expected = swap_with_index(xp.asarray(x), xp.zeros(7), lower, upper)
    result = xp.jit(swap_with_index)(xp.asarray(x), xp.zeros(7), lower,
                                     upper)
    for r, e in zip(result, expected):
        check(r, e.to_numpy(), exact=True)
    check(xp.jit(carry_with_index)(xp.asarray(x), lower, upper),
          x + 0.5 * sum(range(lower, upper)))


def test_fori_loop_outside_jit_runs_in_python():
    total = xp.fori_loop(0, 4, lambda i, t: t + float(i), xp.zeros(3))
    check(total, np.full(3, 6.0))


def test_nested_loops_and_reductions():
    @xp.jit
    def f(a, outer, inner):
        def body(i, a):
            return xp.fori_loop(0, inner, lambda j, b: b * 0.5 + 1.0, a)
        a = xp.fori_loop(0, outer, body, a)
        return a, xp.sum(a)

    a, s = f(xp.asarray(np.arange(4.0)), 2, 3)
    x = np.arange(4.0)
    for _ in range(6):
        x = x * 0.5 + 1.0
    check(a, x)
    assert float(s) == pytest.approx(x.sum())


def test_a_jit_function_is_one_kernel():
    @xp.jit
    def f(a, b):
        return xp.sqrt(a * a + b * b) - 1.0

    x, y = sample((50,), np.float64, seed=61), sample((50,), np.float64,
                                                        seed=62)
    dispatches = xp.stats()["dispatches"]
    check(f(xp.asarray(x), xp.asarray(y)), np.sqrt(x * x + y * y) - 1.0)
    assert xp.stats()["dispatches"] == dispatches + 1


def test_values_are_unknown_while_tracing():
    @xp.jit
    def f(a):
        return float(xp.sum(a))

    with pytest.raises(RuntimeError, match="inside an @imex.jit"):
        f(xp.ones(3))
    check(xp.ones(2) + 1.0, np.full(2, 2.0))  # state is clean afterwards


def test_loop_bodies_must_keep_shapes_and_dtypes():
    @xp.jit
    def f(a):
        return xp.fori_loop(0, 2, lambda i, a: a[1:], a)

    with pytest.raises(TypeError, match="changes from shape"):
        f(xp.ones(4))


@xp.jit
def relax(u, tol):
    def residual_too_big(u):
        return xp.max(xp.abs(u[1:-1] - 0.5 * (u[:-2] + u[2:]))) > tol

    def sweep(u):
        u[1:-1] = 0.5 * (u[:-2] + u[2:])
        return u
    return xp.while_loop(residual_too_big, sweep, u)


def relax_numpy(x, tol):
    while np.max(np.abs(x[1:-1] - 0.5 * (x[:-2] + x[2:]))) > tol:
        x[1:-1] = 0.5 * (x[:-2] + x[2:])
    return x


@pytest.mark.parametrize("tol", [1e-2, 1e-4])
def test_while_loop_in_place(tol):
    x = np.zeros(30)
    x[0] = 1.0
    u = xp.asarray(x)
    assert relax(u, tol) is u
    check(u, relax_numpy(x, tol))


def test_while_loop_carries_new_arrays():
    @xp.jit
    def halve(a, b):
        return xp.while_loop(lambda s: xp.sum(s[0]) > 1.0,
                             lambda s: (s[0] * 0.5, s[1] + 1.0), (a, b))

    a, b = halve(xp.asarray(np.full(4, 3.0)), xp.zeros(2))
    check(a, np.full(4, 0.1875))
    check(b, np.full(2, 4.0))
    # Outside jit: a Python loop.
    c = xp.while_loop(lambda a: xp.sum(a) > 1.0, lambda a: a * 0.5,
                      xp.asarray(np.full(4, 3.0)))
    check(c, np.full(4, 0.1875))


def test_while_loop_condition_must_be_a_boolean_scalar():
    @xp.jit
    def f(a):
        return xp.while_loop(lambda a: xp.sum(a), lambda a: a * 0.5, a)

    with pytest.raises(TypeError, match="0-d boolean"):
        f(xp.ones(3))
