"""Data type and library inspection (no compilation): the array API's
`__array_namespace_info__`, `finfo`, `iinfo`, `result_type`, `can_cast` and
`isdtype`.

Part of the imex namespace (imex/__init__.py re-exports every name).
"""

import builtins
import collections

import numpy as np

from . import _core, _dtypes
from ._array import ndarray

# The devices arrays live on: the host's memory (GPU arrays are not exposed
# to Python yet).
DEVICES = ("cpu",)

_KINDS = {"bool": "b", "signed integer": "i", "unsigned integer": "u",
          "integral": "iu", "real floating": "f", "complex floating": "c",
          "numeric": "iufc"}

_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
           "uint32", "uint64", "float32", "float64", "complex64",
           "complex128"]


def _dtype_of(x):
    return x.dtype if isinstance(x, ndarray) else _dtypes.canonical(x)


def _kind_chars(kind):
    kinds = kind if isinstance(kind, tuple) else (kind,)
    chars = ""
    for k in kinds:
        if k not in _KINDS:
            raise ValueError(f"unknown data type kind {k!r} (one of "
                             f"{', '.join(map(repr, _KINDS))})")
        chars += _KINDS[k]
    return chars


def _check_device(device):
    if device is not None and device not in DEVICES:
        raise ValueError(f"unknown device {device!r} (devices: "
                         f"{', '.join(map(repr, DEVICES))})")


class _Info:
    """The namespace `__array_namespace_info__()` returns."""

    __slots__ = ()

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": None}

    def default_device(self):
        return DEVICES[0]

    def default_dtypes(self, *, device=None):
        _check_device(device)
        return {"real floating": np.dtype("float64"),
                "complex floating": np.dtype("complex128"),
                "integral": np.dtype("int64"),
                "indexing": np.dtype("int64")}

    def dtypes(self, *, device=None, kind=None):
        _check_device(device)
        chars = "biufc" if kind is None else _kind_chars(kind)
        return {name: np.dtype(name) for name in _DTYPES
                if np.dtype(name).kind in chars}

    def devices(self):
        return list(DEVICES)


def __array_namespace_info__():
    """The array API's inspection namespace: capabilities, the default
    device and data types, the devices and the data types."""
    return _Info()


def result_type(*arrays_and_dtypes):
    """The dtype of an operation on these arrays, dtypes and Python scalars
    (the dialect's promotion rules, which follow numpy's; a Python scalar
    takes the dtype of the arrays it meets, as in operators)."""
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype needed")
    scalars = [a for a in arrays_and_dtypes
               if isinstance(a, (builtins.bool, int, float, complex))]
    dtypes = [_dtype_of(a) for a in arrays_and_dtypes
              if not isinstance(a, (builtins.bool, int, float, complex))]
    if not dtypes:
        raise ValueError("result_type: at least one array or dtype needed "
                         "besides Python scalars")
    result = dtypes[0]
    for dtype in dtypes[1:]:
        result = _dtypes.from_mlir(_core.ext().promote(
            _dtypes.to_mlir(result), _dtypes.to_mlir(dtype)))
    for scalar in scalars:
        result = _scalar_promotion(result, scalar)
    return result


def _scalar_promotion(dtype, scalar):
    """The dtype of an operation between an array of `dtype` and a Python
    scalar: the array's, but a float scalar makes integers and bools the
    default float, a complex one makes any real type complex, an int one
    makes bools the default integer."""
    if isinstance(scalar, builtins.bool):
        return dtype
    if isinstance(scalar, int):
        return np.dtype("int64") if dtype.kind == "b" else dtype
    if isinstance(scalar, float):
        return dtype if dtype.kind in "fc" else np.dtype("float64")
    if dtype.kind == "c":
        return dtype
    return np.dtype("complex64") if dtype == np.float32 else \
        np.dtype("complex128")


finfo_object = collections.namedtuple(
    "finfo_object", "bits eps max min smallest_normal dtype")
iinfo_object = collections.namedtuple("iinfo_object", "bits max min dtype")


def finfo(type, /):
    """Machine limits of a floating dtype: Python floats (for a complex
    dtype, those of its real and imaginary parts) and the real dtype."""
    dtype = _dtype_of(type)
    if dtype.kind not in "fc":
        raise ValueError(f"finfo: {dtype} is not a floating dtype")
    real = np.dtype(f"f{dtype.itemsize // 2}") if dtype.kind == "c" else \
        dtype
    info = np.finfo(real)
    return finfo_object(builtins.int(info.bits), float(info.eps),
                        float(info.max), float(info.min),
                        float(info.smallest_normal), real)


def iinfo(type, /):
    """Machine limits of an integer dtype, as Python ints."""
    dtype = _dtype_of(type)
    if dtype.kind not in "iu":
        raise ValueError(f"iinfo: {dtype} is not an integer dtype")
    info = np.iinfo(dtype)
    return iinfo_object(builtins.int(info.bits), builtins.int(info.max),
                        builtins.int(info.min), dtype)


def can_cast(from_, to, /):
    """Whether promotion turns `from_` (an array or dtype) into `to`."""
    to = _dtypes.canonical(to)
    return result_type(from_, to) == to


def isdtype(dtype, kind):
    """Whether `dtype` is `kind`: a dtype, a kind name of the array API, or
    a tuple of those."""
    dtype = _dtypes.canonical(dtype)
    if isinstance(kind, tuple):
        return builtins.any(isdtype(dtype, k) for k in kind)
    if isinstance(kind, str):
        return dtype.kind in _kind_chars(kind)
    return dtype == _dtypes.canonical(kind)
