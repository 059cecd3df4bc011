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
// With imex-cpu-pipeline{count-allocations=1} (the default), the lowered
// code allocates through the _mlir_memref_to_llvm_* functions below, which
// count, ask for huge pages for large blocks and keep freed large blocks
// for the next allocations (BlockCache below); with
// IMEX_ALLOCATION_STATS=1 the counts are printed to stderr at exit, by every
// rank:
//
//   IMEX_ALLOCATIONS allocated=12 freed=12
//
// The run-time checks of ndarray-bounds-checks report through
// imexIndexOutOfBounds / imexSliceOutOfBounds: one line on stderr, then the
// process ends with exit code 1 (without running exit handlers, which could
// wait for other MPI ranks).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <unistd.h>
#include <unordered_map>
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

/// The rank and job size the MPI launcher gives this process, if any.
struct LauncherRank {
  int64_t rank = -1, size = 0;
};
LauncherRank getLauncherRank() {
  auto read = [](std::initializer_list<const char *> names) -> int64_t {
    for (const char *name : names) {
      const char *value = std::getenv(name);
      if (value && value[0])
        return std::strtoll(value, nullptr, 10);
    }
    return -1;
  };
  return {read({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}),
          read({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})};
}

/// Whether this process prints arrays: not under a launcher, rank 0 of the
/// launcher, or IMEX_PRINT_ALL_RANKS=1.
bool printsArrays() {
  static const bool prints = [] {
    const char *all = std::getenv("IMEX_PRINT_ALL_RANKS");
    if (all && all[0] == '1')
      return true;
    int64_t rank = getLauncherRank().rank;
    return rank <= 0;
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
/// Writes `<where>: error: ndarray.<op>: <what>` (`where` and the op name
/// come from the message: "<file:line:col>: <op>" or "<op>") with the rank
/// under MPI, in one piece, and ends the process.
[[noreturn]] void reportOutOfBounds(const char *message,
                                    const std::string &what) {
  std::string text(message);
  std::string where, op = text;
  if (size_t split = text.rfind(": "); split != std::string::npos) {
    where = text.substr(0, split) + ": ";
    op = text.substr(split + 2);
  }
  std::string line = where + "error: " + op + ": " + what;
  LauncherRank rank = getLauncherRank();
  if (rank.rank >= 0)
    line += " (rank " + std::to_string(rank.rank) +
            (rank.size > 0 ? " of " + std::to_string(rank.size) : "") + ")";
  line += "\n";
  std::fflush(stdout);
  [[maybe_unused]] ssize_t written =
      write(STDERR_FILENO, line.data(), line.size());
  _exit(1);
}
} // namespace

// The message is the address of a NUL-terminated string.
extern "C" void imexIndexOutOfBounds(const char *message, int64_t dim,
                                     int64_t index, int64_t size) {
  reportOutOfBounds(message, "index " + std::to_string(index) +
                                 " is out of bounds for dimension " +
                                 std::to_string(dim) + " of size " +
                                 std::to_string(size));
}

extern "C" void imexSliceOutOfBounds(const char *message, int64_t dim,
                                     int64_t start, int64_t count,
                                     int64_t stride, int64_t size) {
  std::string slice = "slice with offset " + std::to_string(start) + ", size " +
                      std::to_string(count) + " and stride " +
                      std::to_string(stride);
  if (count > 0 && stride > 0)
    slice +=
        " (last index " + std::to_string(start + (count - 1) * stride) + ")";
  reportOutOfBounds(message, slice + " is out of bounds for dimension " +
                                 std::to_string(dim) + " of size " +
                                 std::to_string(size));
}

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

namespace {
constexpr size_t kHugePageBlock = size_t(4) << 20;
constexpr size_t kCachedBlock = size_t(64) << 10;
constexpr size_t kCacheAlignment = 64;

/// Asks for transparent huge pages for a block of at least 4 MiB, as
/// numpy does for its arrays: a fresh block's first touch then faults once
/// per 2 MiB instead of once per 4 KiB page, which costs as much as a
/// library routine on the array (an FFT, a solve) where faults are slow.
void *hugePages(void *block, size_t size) {
#ifdef MADV_HUGEPAGE
  constexpr size_t kPage = 4096;
  if (block && size >= kHugePageBlock) {
    uintptr_t start =
        (reinterpret_cast<uintptr_t>(block) + kPage - 1) & ~(kPage - 1);
    uintptr_t end = reinterpret_cast<uintptr_t>(block) + size;
    madvise(reinterpret_cast<void *>(start), end - start, MADV_HUGEPAGE);
  }
#endif
  return block;
}

/// Blocks of at least 64 KiB freed by lowered code, kept for the next
/// allocations of about their size (up to IMEX_BLOCK_CACHE_MB in all,
/// default 512). A kernel's temporaries are fresh blocks on every call, and
/// the first touch of a fresh block's pages costs more than the loops that
/// fill it (glibc maps a block again on every call: freeing a mapped block
/// raises its mapping threshold to the block's size, which the next
/// request of that size still reaches).
class BlockCache {
public:
  /// A block of `size` bytes aligned to `alignment` (a power of two; cached
  /// blocks are aligned to kCacheAlignment).
  void *allocate(size_t size, size_t alignment) {
    if (size >= kCachedBlock && alignment <= kCacheAlignment) {
      std::lock_guard<std::mutex> lock(mutex);
      // The most recently freed block that fits without wasting a quarter.
      for (size_t i = cached.size(); i-- > 0;) {
        auto [block, capacity] = cached[i];
        if (capacity < size || capacity - size > size / 4)
          continue;
        cached.erase(cached.begin() + i);
        cachedBytes -= capacity;
        live[block] = capacity;
        return block;
      }
    }
    if (size >= kCachedBlock)
      alignment = std::max(alignment, kCacheAlignment);
    // aligned_alloc needs a size that is a multiple of the alignment.
    size_t rounded = (size + alignment - 1) / alignment * alignment;
    if (rounded == 0)
      rounded = alignment;
    void *block = hugePages(alignment <= alignof(std::max_align_t)
                                ? std::malloc(rounded)
                                : std::aligned_alloc(alignment, rounded),
                            rounded);
    if (block && size >= kCachedBlock) {
      // (Assigned: an entry of a block freed elsewhere than release() must
      // not outlive it.)
      std::lock_guard<std::mutex> lock(mutex);
      live[block] = rounded;
    }
    return block;
  }

  void release(void *block) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = live.find(block);
      if (it != live.end()) {
        size_t capacity = it->second;
        live.erase(it);
        if (capacity <= limit()) {
          cached.emplace_back(block, capacity);
          cachedBytes += capacity;
          block = nullptr;
          while (cachedBytes > limit()) {
            std::free(cached.front().first);
            cachedBytes -= cached.front().second;
            cached.erase(cached.begin());
          }
        }
      }
    }
    std::free(block);
  }

private:
  static size_t limit() {
    static const size_t bytes = [] {
      const char *text = std::getenv("IMEX_BLOCK_CACHE_MB");
      return size_t(text ? std::strtoull(text, nullptr, 10) : 512) << 20;
    }();
    return bytes;
  }

  std::mutex mutex;
  std::unordered_map<void *, size_t> live;
  std::vector<std::pair<void *, size_t>> cached;
  size_t cachedBytes = 0;
};

BlockCache &blockCache() {
  // Never destroyed: lowered code may free blocks during exit.
  static BlockCache *cache = new BlockCache;
  return *cache;
}
} // namespace

extern "C" void *_mlir_memref_to_llvm_alloc(size_t size) {
  ++allocated;
  return blockCache().allocate(size, alignof(std::max_align_t));
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment,
                                                    size_t size) {
  ++allocated;
  return blockCache().allocate(size, alignment);
}

extern "C" void _mlir_memref_to_llvm_free(void *ptr) {
  if (ptr)
    ++freed;
  blockCache().release(ptr);
}
