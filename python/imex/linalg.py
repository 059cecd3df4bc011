"""The array API's linear algebra extension (`xp.linalg`): the functions
it shares with the main namespace. Decompositions and solvers (`inv`,
`svd`, `cholesky`, ...) are not provided."""

from . import matmul, matrix_transpose, outer, tensordot, vecdot  # noqa: F401

__all__ = ["matmul", "matrix_transpose", "outer", "tensordot", "vecdot"]
