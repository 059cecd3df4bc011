//===- DLPack.cpp - DLPack capsules of numpy arrays, every dtype ----------===//
//
// numpy (before 2) exports and imports no booleans through DLPack; the array
// API asks for every dtype. This file makes and reads the unversioned
// "dltensor" capsules of the DLPack ABI for host memory, keeping the numpy
// array (or the producer's capsule) alive for as long as the data is used.
//
//===----------------------------------------------------------------------===//

#include "DLPack.h"

#include <pybind11/numpy.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace py = pybind11;

namespace {

// The DLPack ABI (dlpack.h, version 0.8 layout; the data-exchange standard).
enum DLDeviceType : int32_t { kDLCPU = 1 };
enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLComplex = 5,
  kDLBool = 6
};
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

/// What an exported tensor owns: the numpy array and the shape and strides.
struct Export {
  DLManagedTensor managed;
  PyObject *array;
  std::vector<int64_t> shape, strides;
};

void deleteExport(DLManagedTensor *self) {
  auto *owner = static_cast<Export *>(self->manager_ctx);
  {
    py::gil_scoped_acquire gil;
    Py_XDECREF(owner->array);
  }
  delete owner;
}

DLDataType toDLPack(const py::dtype &dtype) {
  uint8_t bits = static_cast<uint8_t>(dtype.itemsize() * 8);
  switch (dtype.kind()) {
  case 'b':
    return {kDLBool, bits, 1};
  case 'i':
    return {kDLInt, bits, 1};
  case 'u':
    return {kDLUInt, bits, 1};
  case 'f':
    return {kDLFloat, bits, 1};
  case 'c':
    return {kDLComplex, bits, 1};
  default:
    throw py::buffer_error("DLPack: no DLPack type for dtype " +
                           py::str(dtype).cast<std::string>());
  }
}

py::dtype fromDLPack(DLDataType type) {
  if (type.lanes != 1)
    throw py::buffer_error("DLPack: vector element types are not supported");
  const char *kind = nullptr;
  switch (type.code) {
  case kDLBool:
    if (type.bits == 8)
      return py::dtype("bool");
    break;
  case kDLInt:
    kind = "int";
    break;
  case kDLUInt:
    kind = "uint";
    break;
  case kDLFloat:
    kind = "float";
    break;
  case kDLComplex:
    kind = "complex";
    break;
  }
  if (!kind)
    throw py::buffer_error("DLPack: unsupported element type (code " +
                           std::to_string(type.code) + ", " +
                           std::to_string(type.bits) + " bits)");
  return py::dtype(std::string(kind) + std::to_string(type.bits));
}

void destroyUnconsumedCapsule(PyObject *capsule) {
  // A capsule nobody imported still owns its tensor.
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  auto *managed =
      static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed && managed->deleter)
    managed->deleter(managed);
}

} // namespace

void populateDLPack(py::module &m) {
  m.def(
      "to_dlpack",
      [](py::array array) {
        auto *owner = new Export();
        int ndim = static_cast<int>(array.ndim());
        ssize_t itemsize = array.itemsize();
        for (int d = 0; d < ndim; ++d) {
          owner->shape.push_back(array.shape(d));
          if (array.strides(d) % itemsize != 0) {
            delete owner;
            throw py::buffer_error("DLPack: strides must be whole elements");
          }
          owner->strides.push_back(array.strides(d) / itemsize);
        }
        DLTensor &tensor = owner->managed.dl_tensor;
        tensor.data = const_cast<void *>(array.data());
        tensor.device = {kDLCPU, 0};
        tensor.ndim = ndim;
        try {
          tensor.dtype = toDLPack(array.dtype());
        } catch (...) {
          delete owner;
          throw;
        }
        tensor.shape = owner->shape.data();
        tensor.strides = owner->strides.data();
        tensor.byte_offset = 0;
        owner->array = array.release().ptr();
        owner->managed.manager_ctx = owner;
        owner->managed.deleter = deleteExport;
        return py::capsule(&owner->managed, "dltensor",
                           destroyUnconsumedCapsule);
      },
      py::arg("array"),
      "A DLPack capsule of the host numpy array (which it keeps alive).");

  m.def(
      "from_dlpack",
      [](py::capsule capsule) {
        if (std::string(capsule.name()) != "dltensor")
          throw py::buffer_error("DLPack: expected an unconsumed 'dltensor' "
                                 "capsule");
        auto *managed = capsule.get_pointer<DLManagedTensor>();
        const DLTensor &tensor = managed->dl_tensor;
        if (tensor.device.device_type != kDLCPU)
          throw py::buffer_error("DLPack: only host (CPU) memory is "
                                 "supported");
        py::dtype dtype = fromDLPack(tensor.dtype);
        std::vector<ssize_t> shape(tensor.shape, tensor.shape + tensor.ndim);
        std::vector<ssize_t> strides(tensor.ndim);
        ssize_t step = dtype.itemsize();
        for (int d = tensor.ndim - 1; d >= 0; --d) {
          strides[d] =
              tensor.strides ? tensor.strides[d] * dtype.itemsize() : step;
          step *= shape[d];
        }
        // The array's base owns the tensor from now on.
        PyCapsule_SetName(capsule.ptr(), "used_dltensor");
        py::capsule base(managed, [](void *pointer) {
          auto *owned = static_cast<DLManagedTensor *>(pointer);
          if (owned->deleter)
            owned->deleter(owned);
        });
        auto *data = static_cast<char *>(tensor.data) + tensor.byte_offset;
        return py::array(dtype, shape, strides, data, base);
      },
      py::arg("capsule"),
      "A numpy array on the data of a DLPack capsule (consumed).");
}
