//===- ImexRunnerUtils.cpp - printing for JIT-run ndarray programs --------===//
//
// `imexPrint<T>(memref<*xT>)` prints a strided array on one line, exactly
// (integers) or with 17 significant digits (floats), in a format tests can
// parse:
//
//   IMEX_ARRAY f64 [2,3] 1 2 3 4 5 6
//
// Under mpirun only rank 0 prints arrays (the rank is read from the
// launcher's environment: OMPI_COMM_WORLD_RANK, PMIX_RANK or PMI_RANK; this
// library does not use MPI), unless IMEX_PRINT_ALL_RANKS=1.
//
// With imex-cpu-pipeline{count-allocations=1}, the lowered code allocates
// through the _mlir_memref_to_llvm_* functions below, which count; with
// IMEX_ALLOCATION_STATS=1 the counts are printed to stderr at exit, by every
// rank:
//
//   IMEX_ALLOCATIONS allocated=12 freed=12
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

template <typename T> struct Descriptor {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
};

void printElement(double v) { std::printf(" %.17g", v); }
void printElement(float v) { std::printf(" %.9g", static_cast<double>(v)); }
void printElement(int64_t v) { std::printf(" %" PRId64, v); }
void printElement(int32_t v) { std::printf(" %" PRId32, v); }
void printElement(int16_t v) { std::printf(" %d", static_cast<int>(v)); }
void printElement(int8_t v) { std::printf(" %d", static_cast<int>(v)); }
void printElement(bool v) { std::printf(" %d", v ? 1 : 0); }

/// Whether this process prints arrays: not under a launcher, rank 0 of the
/// launcher, or IMEX_PRINT_ALL_RANKS=1.
bool printsArrays() {
  static const bool prints = [] {
    const char *all = std::getenv("IMEX_PRINT_ALL_RANKS");
    if (all && all[0] == '1')
      return true;
    for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
      const char *rank = std::getenv(name);
      if (rank && rank[0])
        return std::strtol(rank, nullptr, 10) == 0;
    }
    return true;
  }();
  return prints;
}

template <typename T>
void printArray(const char *dtype, int64_t rank, void *descriptor) {
  if (!printsArrays())
    return;
  auto *desc = static_cast<Descriptor<T> *>(descriptor);
  const int64_t *sizes = desc->sizesAndStrides;
  const int64_t *strides = desc->sizesAndStrides + rank;
  std::printf("IMEX_ARRAY %s [", dtype);
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d) {
    std::printf(d ? ",%" PRId64 : "%" PRId64, sizes[d]);
    count *= sizes[d];
  }
  std::printf("]");
  // Row-major walk over the (possibly strided) elements.
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t offset = desc->offset;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    printElement(desc->aligned[offset]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  std::printf("\n");
  std::fflush(stdout);
}

} // namespace

#define IMEX_DEFINE_PRINT(SUFFIX, TYPE, NAME)                                  \
  extern "C" void imexPrint##SUFFIX(int64_t rank, void *descriptor) {          \
    printArray<TYPE>(NAME, rank, descriptor);                                  \
  }

IMEX_DEFINE_PRINT(F64, double, "f64")
IMEX_DEFINE_PRINT(F32, float, "f32")
IMEX_DEFINE_PRINT(I64, int64_t, "i64")
IMEX_DEFINE_PRINT(I32, int32_t, "i32")
IMEX_DEFINE_PRINT(I16, int16_t, "i16")
IMEX_DEFINE_PRINT(I8, int8_t, "i8")
IMEX_DEFINE_PRINT(I1, bool, "i1")
IMEX_DEFINE_PRINT(Index, int64_t, "index")

namespace {
std::atomic<int64_t> allocated{0}, freed{0};

struct AllocationStats {
  ~AllocationStats() {
    const char *enabled = std::getenv("IMEX_ALLOCATION_STATS");
    if (enabled && enabled[0] == '1')
      std::fprintf(stderr,
                   "IMEX_ALLOCATIONS allocated=%" PRId64 " freed=%" PRId64 "\n",
                   allocated.load(), freed.load());
  }
} allocationStats;
} // namespace

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  ++allocated;
  return std::malloc(size);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  ++allocated;
  // aligned_alloc needs a size that is a multiple of the alignment.
  size_t rounded = (size + alignment - 1) / alignment * alignment;
  return std::aligned_alloc(alignment, rounded ? rounded : alignment);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (ptr)
    ++freed;
  std::free(ptr);
}
