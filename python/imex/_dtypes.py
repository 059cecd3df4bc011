"""Data types: numpy dtype objects, named as in the array API, with their
ndarray (MLIR) element types."""

import numpy as np

bool = np.dtype(np.bool_)  # noqa: A001 (the array API's name)
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
uint8 = np.dtype(np.uint8)
uint16 = np.dtype(np.uint16)
uint32 = np.dtype(np.uint32)
uint64 = np.dtype(np.uint64)
float16 = np.dtype(np.float16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)
complex64 = np.dtype(np.complex64)
complex128 = np.dtype(np.complex128)

_TO_MLIR = {
    bool: "i1", int8: "i8", int16: "i16", int32: "i32", int64: "i64",
    uint8: "ui8", uint16: "ui16", uint32: "ui32", uint64: "ui64",
    float16: "f16", float32: "f32", float64: "f64",
    complex64: "complex<f32>", complex128: "complex<f64>",
}
_FROM_MLIR = {v: k for k, v in _TO_MLIR.items()}

ALL = tuple(_TO_MLIR)


def to_mlir(dtype):
    try:
        return _TO_MLIR[np.dtype(dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"unsupported dtype: {dtype!r} (supported: "
                        f"{', '.join(str(d) for d in ALL)})") from None


def from_mlir(name):
    return _FROM_MLIR[name]


def canonical(dtype):
    """`dtype` as one of the supported numpy dtypes; TypeError otherwise."""
    dtype = np.dtype(dtype)
    to_mlir(dtype)
    return dtype


def is_integer(dtype):
    return dtype.kind in "iu"


def complex_of(dtype):
    """The complex dtype with components of at least real dtype `dtype`'s
    precision (complex64 for float32 and narrower)."""
    return complex128 if dtype == float64 else complex64
