//===- CudaRuntimeWrappers.cpp - GPU runtime of lowered programs ----------===//
//
// The `mgpu*` C ABI that upstream's gpu-to-llvm lowering and the gpu.binary
// embedding call (module load, launches, streams, events, device memory),
// implemented on the CUDA driver API. The driver (libcuda.so.1) is loaded
// at first use, not linked: the library builds and loads on machines
// without a GPU, and programs there fail with one clear message instead of
// a loader error. Every CUDA error ends the process with the call, the
// error's name and message: results are never silently wrong.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <string>

#define IMEX_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
// cuda.h maps the API names to their current versions (cuMemAlloc to
// cuMemAlloc_v2, ...): look up the expanded names.
#define IMEX_STRINGIFY(name) #name
#define IMEX_SYMBOL_NAME(name) IMEX_STRINGIFY(name)

#define IMEX_CUDA_FUNCTIONS(X)                                                 \
  X(cuInit)                                                                    \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxSetCurrent)                                                           \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventSynchronize)                                                        \
  X(cuEventRecord)                                                             \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpyAsync)                                                             \
  X(cuMemsetD32Async)                                                          \
  X(cuMemsetD16Async)                                                          \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)

struct Driver {
#define IMEX_DECLARE(name) decltype(&name) name = nullptr;
  IMEX_CUDA_FUNCTIONS(IMEX_DECLARE)
#undef IMEX_DECLARE
  CUcontext context = nullptr;
  /// Empty when a device is usable; else why not.
  std::string unavailable;
};

/// IMEX_CUDA_DEVICE, else -1: the node-local MPI rank modulo the number of
/// devices (the ranks of a node spread over its GPUs), else 0.
int defaultDevice = [] {
  const char *env = std::getenv("IMEX_CUDA_DEVICE");
  return env ? std::atoi(env) : -1;
}();

/// The node-local rank that MPI launchers export, if any.
int getLocalRank() {
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                           "MV2_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID"})
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return 0;
}

std::string describe(const Driver &driver, CUresult result) {
  // (The stub library of the toolkit answers every call with this, and
  // cannot name it.)
  if (result == CUDA_ERROR_STUB_LIBRARY)
    return "CUDA_ERROR_STUB_LIBRARY: libcuda.so.1 is the CUDA toolkit's stub, "
           "not a driver";
  const char *name = nullptr, *text = nullptr;
  if (driver.cuGetErrorName)
    driver.cuGetErrorName(result, &name);
  if (driver.cuGetErrorString)
    driver.cuGetErrorString(result, &text);
  if (!name)
    return "CUDA error " + std::to_string(result);
  return std::string(name) + ": " + (text ? text : "no description");
}

/// Loads the driver and retains the default device's primary context.
Driver loadDriver() {
  Driver driver;
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    driver.unavailable = "the CUDA driver library libcuda.so.1 cannot be "
                         "loaded (no NVIDIA driver installed?)";
    return driver;
  }
#define IMEX_LOAD(name)                                                        \
  driver.name = reinterpret_cast<decltype(&name)>(                             \
      dlsym(handle, IMEX_SYMBOL_NAME(name)));                                  \
  if (!driver.name) {                                                          \
    driver.unavailable = std::string("libcuda.so.1 lacks ") +                  \
                         IMEX_SYMBOL_NAME(name) + " (driver too old?)";        \
    return driver;                                                             \
  }
  IMEX_CUDA_FUNCTIONS(IMEX_LOAD)
#undef IMEX_LOAD
  if (CUresult result = driver.cuInit(0)) {
    driver.unavailable = "cuInit failed: " + describe(driver, result);
    return driver;
  }
  int count = 0;
  if (CUresult result = driver.cuDeviceGetCount(&count)) {
    driver.unavailable = "cuDeviceGetCount failed: " + describe(driver, result);
    return driver;
  }
  if (count == 0) {
    driver.unavailable = "no CUDA device found";
    return driver;
  }
  if (defaultDevice < 0 && !std::getenv("IMEX_CUDA_DEVICE"))
    defaultDevice = getLocalRank() % count;
  if (defaultDevice < 0 || defaultDevice >= count) {
    driver.unavailable = "IMEX_CUDA_DEVICE=" + std::to_string(defaultDevice) +
                         " but there are " + std::to_string(count) +
                         " CUDA device(s)";
    return driver;
  }
  CUdevice device;
  if (CUresult result = driver.cuDeviceGet(&device, defaultDevice)) {
    driver.unavailable = "cuDeviceGet failed: " + describe(driver, result);
    return driver;
  }
  if (CUresult result =
          driver.cuDevicePrimaryCtxRetain(&driver.context, device)) {
    driver.unavailable =
        "cuDevicePrimaryCtxRetain failed: " + describe(driver, result);
    return driver;
  }
  return driver;
}

Driver &getDriver() {
  static Driver driver = loadDriver();
  return driver;
}

[[noreturn]] void die(const std::string &message) {
  std::string line = "imex_cuda_runtime: " + message + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  std::exit(1);
}

/// The driver with the context current on this thread; ends the process
/// if no device is usable.
Driver &getReadyDriver() {
  Driver &driver = getDriver();
  if (!driver.unavailable.empty())
    die("this program needs a CUDA device: " + driver.unavailable);
  // The primary context is shared; making it current is cheap.
  driver.cuCtxSetCurrent(driver.context);
  return driver;
}

void check(CUresult result, const char *call) {
  if (result != CUDA_SUCCESS)
    die(std::string(call) + " failed: " + describe(getDriver(), result));
}

#define IMEX_CUDA_CHECK(driver, call, ...)                                     \
  check(driver.call(__VA_ARGS__), #call)
} // namespace

/// Null when a CUDA device can run programs, else why not (for tools that
/// report it before running anything).
IMEX_EXPORT const char *imexCudaUnavailableReason() {
  Driver &driver = getDriver();
  return driver.unavailable.empty() ? nullptr : driver.unavailable.c_str();
}

IMEX_EXPORT void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice = device;
}

IMEX_EXPORT CUmodule mgpuModuleLoad(void *data, size_t /*size*/) {
  Driver &driver = getReadyDriver();
  CUmodule module = nullptr;
  IMEX_CUDA_CHECK(driver, cuModuleLoadData, &module, data);
  return module;
}

/// PTX, compiled by the driver at load time.
IMEX_EXPORT CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  Driver &driver = getReadyDriver();
  CUmodule module = nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(static_cast<intptr_t>(optLevel)),
                    log, reinterpret_cast<void *>(sizeof(log))};
  CUresult result =
      driver.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    die(std::string("cuModuleLoadDataEx (PTX JIT) failed: ") +
        describe(driver, result) + ": " + log);
  return module;
}

IMEX_EXPORT void mgpuModuleUnload(CUmodule module) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuModuleUnload, module);
}

IMEX_EXPORT CUfunction mgpuModuleGetFunction(CUmodule module,
                                             const char *name) {
  Driver &driver = getReadyDriver();
  CUfunction function = nullptr;
  IMEX_CUDA_CHECK(driver, cuModuleGetFunction, &function, module, name);
  return function;
}

IMEX_EXPORT void mgpuLaunchKernel(CUfunction function, intptr_t gridX,
                                  intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY,
                                  intptr_t blockZ, int32_t sharedMemoryBytes,
                                  CUstream stream, void **params, void **extra,
                                  size_t /*paramsCount*/) {
  Driver &driver = getReadyDriver();
  // An empty grid (an empty array) launches nothing.
  if (gridX == 0 || gridY == 0 || gridZ == 0)
    return;
  IMEX_CUDA_CHECK(driver, cuLaunchKernel, function, gridX, gridY, gridZ, blockX,
                  blockY, blockZ, sharedMemoryBytes, stream, params, extra);
}

IMEX_EXPORT CUstream mgpuStreamCreate() {
  Driver &driver = getReadyDriver();
  CUstream stream = nullptr;
  IMEX_CUDA_CHECK(driver, cuStreamCreate, &stream, CU_STREAM_NON_BLOCKING);
  return stream;
}

IMEX_EXPORT void mgpuStreamDestroy(CUstream stream) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuStreamDestroy, stream);
}

IMEX_EXPORT void mgpuStreamSynchronize(CUstream stream) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuStreamSynchronize, stream);
}

IMEX_EXPORT void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuStreamWaitEvent, stream, event, 0);
}

IMEX_EXPORT CUevent mgpuEventCreate() {
  Driver &driver = getReadyDriver();
  CUevent event = nullptr;
  IMEX_CUDA_CHECK(driver, cuEventCreate, &event, CU_EVENT_DISABLE_TIMING);
  return event;
}

IMEX_EXPORT void mgpuEventDestroy(CUevent event) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuEventDestroy, event);
}

IMEX_EXPORT void mgpuEventSynchronize(CUevent event) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuEventSynchronize, event);
}

IMEX_EXPORT void mgpuEventRecord(CUevent event, CUstream stream) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuEventRecord, event, stream);
}

IMEX_EXPORT void *mgpuMemAlloc(uint64_t bytes, CUstream /*stream*/,
                               bool isHostShared) {
  Driver &driver = getReadyDriver();
  CUdeviceptr pointer = 0;
  if (bytes == 0)
    return nullptr;
  if (isHostShared)
    IMEX_CUDA_CHECK(driver, cuMemAllocManaged, &pointer, bytes,
                    CU_MEM_ATTACH_GLOBAL);
  else
    IMEX_CUDA_CHECK(driver, cuMemAlloc, &pointer, bytes);
  return reinterpret_cast<void *>(pointer);
}

IMEX_EXPORT void mgpuMemFree(void *pointer, CUstream /*stream*/) {
  if (!pointer)
    return;
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemFree, reinterpret_cast<CUdeviceptr>(pointer));
}

IMEX_EXPORT void mgpuMemcpy(void *destination, void *source, size_t bytes,
                            CUstream stream) {
  if (bytes == 0)
    return;
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemcpyAsync,
                  reinterpret_cast<CUdeviceptr>(destination),
                  reinterpret_cast<CUdeviceptr>(source), bytes, stream);
}

IMEX_EXPORT void mgpuMemset32(void *destination, unsigned int value,
                              size_t count, CUstream stream) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemsetD32Async,
                  reinterpret_cast<CUdeviceptr>(destination), value, count,
                  stream);
}

IMEX_EXPORT void mgpuMemset16(void *destination, unsigned short value,
                              size_t count, CUstream stream) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemsetD16Async,
                  reinterpret_cast<CUdeviceptr>(destination), value, count,
                  stream);
}

IMEX_EXPORT void mgpuMemHostRegister(void *pointer, uint64_t bytes) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemHostRegister, pointer, bytes, 0);
}

IMEX_EXPORT void mgpuMemHostUnregister(void *pointer) {
  Driver &driver = getReadyDriver();
  IMEX_CUDA_CHECK(driver, cuMemHostUnregister, pointer);
}
