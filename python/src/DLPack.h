//===- DLPack.h - DLPack capsules of numpy arrays, every dtype --*- C++ -*-===//

#ifndef IMEX_PYTHON_DLPACK_H
#define IMEX_PYTHON_DLPACK_H

#include <pybind11/pybind11.h>

/// Adds to_dlpack(array) and from_dlpack(capsule) to the module.
void populateDLPack(pybind11::module &m);

#endif // IMEX_PYTHON_DLPACK_H
