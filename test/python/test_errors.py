"""Errors are Python exceptions raised before anything compiles; compiler
diagnostics become CompileError with MLIR's message and location."""

import numpy as np
import pytest

import imex as xp


def no_compile(function):
    before = xp.stats()["compiles"]
    function()
    assert xp.stats()["compiles"] == before


def test_broadcast_errors():
    with pytest.raises(ValueError, match="broadcast"):
        xp.ones((2, 3)) + xp.ones((4,))
    with pytest.raises(ValueError, match="broadcast"):
        xp.where(xp.ones((2,)) > 0, xp.ones((3,)), 0.0)


def test_dtype_errors():
    with pytest.raises(TypeError, match="bitwise_and"):
        xp.ones(3) & xp.ones(3)
    with pytest.raises(TypeError, match="unsupported operand"):
        xp.add(xp.ones(3), "a")
    with pytest.raises(TypeError):
        xp.ones(3) + object()


def test_shape_errors():
    with pytest.raises(ValueError, match="negative dimensions"):
        xp.zeros((2, -1))
    with pytest.raises(ValueError, match="cannot reshape"):
        xp.reshape(xp.ones(6), (4, 2))
    with pytest.raises(ValueError, match="core dimension"):
        xp.matmul(xp.ones((2, 2)), xp.ones((3,)))


def test_errors_compile_nothing():
    def attempts():
        for bad in (lambda: xp.ones((2, 3)) + xp.ones((4,)),
                    lambda: xp.ones(3) & xp.ones(3),
                    lambda: xp.ones((2, 2))[5]):
            with pytest.raises((ValueError, TypeError, IndexError)):
                bad()
    no_compile(attempts)


def test_invalid_split_names_the_argument():
    with pytest.raises(ValueError, match=r"split=\(1, 0\)"):
        xp.zeros((2, 2), split=(1, 0))
    with pytest.raises(ValueError, match="split=2"):
        xp.zeros((2, 2), split=2)


def test_compiler_diagnostics_become_compile_error():
    ext = xp._core.ext()
    with pytest.raises(xp.CompileError, match=r"kernel.*2:.*unknown|"
                       r"custom op 'ndarray.bogus' is unknown"):
        ext.compile("func.func @kernel() {\n  ndarray.bogus\n  return\n}\n",
                    "kernel", "imex-cpu-pipeline")
    bad = ("func.func @kernel(%a: !ndarray.ndarray<?xf64>) {\n"
           "  %0 = ndarray.ewbin add %a, %a : (!ndarray.ndarray<?xf64>, "
           "!ndarray.ndarray<?xf64>) -> !ndarray.ndarray<?xi32>\n"
           "  return\n}\n")
    with pytest.raises(xp.CompileError, match="kernel\":2:"):
        ext.compile(bad, "kernel", "imex-cpu-pipeline")


def test_integer_division_by_zero_does_not_crash():
    a = xp.asarray(np.array([1, 2, 3]))
    b = xp.asarray(np.array([0, 1, 0]))
    (a // b).to_numpy()
    (a % b).to_numpy()


def test_shapes_are_checked_before_dtypes():
    # numpy's order: mismatched shapes are a ValueError even where the
    # dtypes are wrong too (bool is not numeric for +).
    with pytest.raises(ValueError, match="broadcast"):
        xp.asarray([True, False]) + xp.asarray([True, False, True])
    with pytest.raises(TypeError, match="numeric"):
        xp.asarray([True, False]) + xp.asarray([True, False])
