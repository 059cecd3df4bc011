"""The values the distributed test programs compute with (dist_harness.py):
ndarray SSA values paired with their numpy twins, the checks of results, and
the numpy functions of the ndarray ops."""

import numpy as np

from harness import array_type

NUMPY_BINARY = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply,
    "divide": np.true_divide, "floor_divide": np.floor_divide,
    "remainder": np.remainder, "pow": np.power, "maximum": np.maximum,
    "minimum": np.minimum, "atan2": np.arctan2, "hypot": np.hypot,
    "equal": np.equal, "not_equal": np.not_equal, "less": np.less,
    "less_equal": np.less_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor,
    "bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
}
NUMPY_UNARY = {
    "abs": np.abs, "negative": np.negative, "sign": np.sign,
    "square": np.square, "ceil": np.ceil, "floor": np.floor,
    "round": np.round, "trunc": np.trunc, "exp": np.exp, "log": np.log,
    "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    "isnan": np.isnan, "isfinite": np.isfinite, "signbit": np.signbit,
    "logical_not": np.logical_not, "bitwise_invert": np.invert,
    "real": np.real, "imag": np.imag, "conj": np.conj,
}
NUMPY_REDUCE = {"sum": np.sum, "prod": np.prod, "min": np.min, "max": np.max,
                "mean": np.mean, "var": np.var, "std": np.std, "any": np.any,
                "all": np.all}


def is_float(dtype):
    return dtype.startswith("f") or dtype == "bf16"


def is_complex(dtype):
    return dtype.startswith("complex")


def reduction_dtype(kind, dtype):
    if kind in ("any", "all"):
        return "i1"
    if kind in ("sum", "prod"):
        if dtype.startswith("ui"):
            return "ui64"
        return dtype if is_float(dtype) or is_complex(dtype) else "i64"
    if kind in ("mean", "var", "std"):
        return dtype if is_float(dtype) or is_complex(dtype) else "f64"
    return dtype


class Val:
    """An ndarray SSA value with its declared dims (None = dynamic), its
    ndarray dtype and its numpy twin (a view where the ndarray is one)."""

    def __init__(self, name, dims, dtype, value, exact=True, base=None):
        self.name, self.dims, self.dtype = name, list(dims), dtype
        self.base = base  # the Val this one is a view of
        self.value = value if isinstance(value, np.ndarray) else \
            np.asarray(value)
        self.exact = exact  # bitwise equal at every rank count
        assert self.value.ndim == len(self.dims), (self.value.shape, dims)
        for d, n in zip(self.dims, self.value.shape):
            assert d is None or d == n, (dims, self.value.shape)

    @property
    def shape(self):
        return self.value.shape

    @property
    def ndim(self):
        return self.value.ndim

    @property
    def type(self):
        return array_type(self.dims, self.dtype)


class Check:
    def __init__(self, label, expected, dtype, exact):
        self.label, self.expected, self.dtype, self.exact = (label, expected,
                                                             dtype, exact)
