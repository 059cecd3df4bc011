"""numpy twin of examples/jacobi2d_dist.mlir: the same program as
examples/jacobi2d.py (distribution does not change the result); prints the
same checksum (python3 examples/jacobi2d_dist.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from jacobi2d import jacobi  # noqa: E402

if __name__ == "__main__":
    print(repr(jacobi(64, 200)))
