//===- FakeCudaDriver.cpp - a CUDA driver on the host, for tests ----------===//
//
// Built as libcuda.so.1 in a test directory: the CUDA driver API functions
// libimex_cuda_runtime uses, on host memory. Modules are not loaded: a
// module's "functions" are the kernels of the table below, run for every
// thread of the grid. Tests check that the runtime forwards arguments,
// grids and transfers correctly and reports the driver's errors
// (test/Execution/test_gpu_runtime.py). FAKE_CUDA_DEVICES sets the number
// of devices (default 1).
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct Thread {
  unsigned block[3], thread[3], gridDim[3], blockDim[3];
};

using Kernel = void (*)(void **params, const Thread &thread);

/// fill_iota(int64_t *data, int64_t n): data[i] = i for the thread's global
/// x index i < n.
void fillIota(void **params, const Thread &t) {
  int64_t *data = *static_cast<int64_t **>(params[0]);
  int64_t n = *static_cast<int64_t *>(params[1]);
  int64_t i = int64_t(t.block[0]) * t.blockDim[0] + t.thread[0];
  if (i < n)
    data[i] = i;
}

struct {
  const char *name;
  Kernel kernel;
} kernels[] = {{"fill_iota", fillIota}};

int launches = 0;
int lastDevice = -1;
int lastJitOptLevel = -1;
int contextsRetained = 0;
} // namespace

/// Kernels run, and the optimization level of the last PTX JIT load.
FAKE_EXPORT int fakeCudaLaunchCount() { return launches; }
FAKE_EXPORT int fakeCudaLastJitOptLevel() { return lastJitOptLevel; }
/// The device whose context was retained last.
FAKE_EXPORT int fakeCudaLastDevice() { return lastDevice; }

FAKE_EXPORT CUresult cuInit(unsigned) { return CUDA_SUCCESS; }

FAKE_EXPORT CUresult cuDeviceGetCount(int *count) {
  const char *env = std::getenv("FAKE_CUDA_DEVICES");
  *count = env ? std::atoi(env) : 1;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  lastDevice = ordinal;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  static int token;
  *context = reinterpret_cast<CUcontext>(&token);
  ++contextsRetained;
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }

/// The errors the fake returns, with the driver's names and messages.
const struct {
  CUresult error;
  const char *name, *text;
} errors[] = {
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_INVALID_PTX, "CUDA_ERROR_INVALID_PTX",
     "a PTX JIT compilation failed"},
};

FAKE_EXPORT CUresult cuGetErrorName(CUresult error, const char **name) {
  for (auto &entry : errors)
    if (entry.error == error) {
      *name = entry.name;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuGetErrorString(CUresult error, const char **text) {
  for (auto &entry : errors)
    if (entry.error == error) {
      *text = entry.text;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_VALUE;
}

FAKE_EXPORT CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  *module = reinterpret_cast<CUmodule>(const_cast<void *>(image));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                                        unsigned count, CUjit_option *options,
                                        void **values) {
  char *log = nullptr;
  size_t logSize = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (options[i] == CU_JIT_OPTIMIZATION_LEVEL)
      lastJitOptLevel = int(reinterpret_cast<intptr_t>(values[i]));
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER)
      log = static_cast<char *>(values[i]);
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      logSize = size_t(reinterpret_cast<uintptr_t>(values[i]));
  }
  // PTX that does not start with a version directive is rejected, with a
  // message in the log.
  if (std::strncmp(static_cast<const char *>(image), ".version", 8) != 0) {
    if (log && logSize)
      std::snprintf(log, logSize, "ptxas fatal: no .version directive");
    return CUDA_ERROR_INVALID_PTX;
  }
  *module = reinterpret_cast<CUmodule>(const_cast<void *>(image));
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }

FAKE_EXPORT CUresult cuModuleGetFunction(CUfunction *function, CUmodule,
                                         const char *name) {
  for (auto &entry : kernels)
    if (std::strcmp(entry.name, name) == 0) {
      *function = reinterpret_cast<CUfunction>(entry.kernel);
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

FAKE_EXPORT CUresult cuLaunchKernel(CUfunction function, unsigned gx,
                                    unsigned gy, unsigned gz, unsigned bx,
                                    unsigned by, unsigned bz, unsigned,
                                    CUstream, void **params, void **) {
  auto kernel = reinterpret_cast<Kernel>(function);
  ++launches;
  Thread t = {{0, 0, 0}, {0, 0, 0}, {gx, gy, gz}, {bx, by, bz}};
  for (t.block[2] = 0; t.block[2] < gz; ++t.block[2])
    for (t.block[1] = 0; t.block[1] < gy; ++t.block[1])
      for (t.block[0] = 0; t.block[0] < gx; ++t.block[0])
        for (t.thread[2] = 0; t.thread[2] < bz; ++t.thread[2])
          for (t.thread[1] = 0; t.thread[1] < by; ++t.thread[1])
            for (t.thread[0] = 0; t.thread[0] < bx; ++t.thread[0])
              kernel(params, t);
  return CUDA_SUCCESS;
}

FAKE_EXPORT CUresult cuStreamCreate(CUstream *stream, unsigned) {
  static int token;
  *stream = reinterpret_cast<CUstream>(&token);
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
FAKE_EXPORT CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
FAKE_EXPORT CUresult cuStreamWaitEvent(CUstream, CUevent, unsigned) {
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuEventCreate(CUevent *event, unsigned) {
  static int token;
  *event = reinterpret_cast<CUevent>(&token);
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuEventDestroy_v2(CUevent) { return CUDA_SUCCESS; }
FAKE_EXPORT CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
FAKE_EXPORT CUresult cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }

/// Allocations above 1 TiB fail as out of memory.
FAKE_EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *pointer, size_t bytes) {
  if (bytes > (size_t(1) << 40))
    return CUDA_ERROR_OUT_OF_MEMORY;
  *pointer = reinterpret_cast<CUdeviceptr>(std::malloc(bytes));
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes,
                                       unsigned) {
  return cuMemAlloc_v2(pointer, bytes);
}
FAKE_EXPORT CUresult cuMemFree_v2(CUdeviceptr pointer) {
  std::free(reinterpret_cast<void *>(pointer));
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemcpyAsync(CUdeviceptr destination, CUdeviceptr source,
                                   size_t bytes, CUstream) {
  std::memcpy(reinterpret_cast<void *>(destination),
              reinterpret_cast<void *>(source), bytes);
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemsetD32Async(CUdeviceptr destination, unsigned value,
                                      size_t count, CUstream) {
  auto *words = reinterpret_cast<unsigned *>(destination);
  for (size_t i = 0; i < count; ++i)
    words[i] = value;
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemsetD16Async(CUdeviceptr destination,
                                      unsigned short value, size_t count,
                                      CUstream) {
  auto *halves = reinterpret_cast<unsigned short *>(destination);
  for (size_t i = 0; i < count; ++i)
    halves[i] = value;
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemHostRegister_v2(void *, size_t, unsigned) {
  return CUDA_SUCCESS;
}
FAKE_EXPORT CUresult cuMemHostUnregister(void *) { return CUDA_SUCCESS; }
