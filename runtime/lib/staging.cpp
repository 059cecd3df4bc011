// Staging buffers of asynchronous operations (sends packed from strided
// regions, receives into them), kept for reuse once their operation
// completes.
//
// A fresh buffer of megabytes costs a page fault per page on its first
// touch, in the pack and in MPI's single-copy receive into it, and the
// kernel zeroes every page: redistributing an array moves most of it
// through such buffers on every call, so the faults would cost more than
// the copies. Completed operations return their buffers to a pool of at
// most IDTR_STAGING_BYTES bytes (default 256 MiB) per process.
#include "internal.hpp"

#include <cstdlib>

namespace idtr::detail {
namespace {

struct StagingPool {
  std::mutex mu;
  std::multimap<size_t, std::byte *> free; // capacity -> buffer
  size_t retained = 0;                     // bytes in `free`
  size_t held = 0, peak = 0;               // bytes in use or in `free`
};

// Never destroyed: operations may complete while static destructors run.
StagingPool &pool() {
  static StagingPool *p = new StagingPool;
  return *p;
}

size_t retain_limit() {
  static const size_t limit = [] {
    const char *e = std::getenv("IDTR_STAGING_BYTES");
    return e && *e ? static_cast<size_t>(std::strtoull(e, nullptr, 10))
                   : size_t(256) << 20;
  }();
  return limit;
}

} // namespace

Staging::Staging(size_t bytes) {
  bytes = std::max<size_t>(bytes, 1);
  {
    StagingPool &p = pool();
    std::lock_guard<std::mutex> lk(p.mu);
    // (At most twice the size: small requests do not hold large buffers.)
    auto it = p.free.lower_bound(bytes);
    if (it != p.free.end() && it->first / 2 <= bytes) {
      capacity_ = it->first;
      data_ = it->second;
      p.retained -= capacity_;
      p.free.erase(it);
      return;
    }
  }
  data_ = new std::byte[bytes];
  capacity_ = bytes;
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lk(p.mu);
  p.held += bytes;
  p.peak = std::max(p.peak, p.held);
}

Staging::~Staging() {
  if (!data_)
    return;
  {
    StagingPool &p = pool();
    std::lock_guard<std::mutex> lk(p.mu);
    if (p.retained + capacity_ <= retain_limit()) {
      p.free.emplace(capacity_, data_);
      p.retained += capacity_;
      return;
    }
    p.held -= capacity_;
  }
  delete[] data_;
}

void staging_clear() {
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lk(p.mu);
  for (auto &entry : p.free)
    delete[] entry.second;
  p.free.clear();
  p.held -= p.retained;
  p.retained = 0;
}

int64_t staging_bytes() {
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lk(p.mu);
  return static_cast<int64_t>(p.held);
}

int64_t staging_peak() {
  StagingPool &p = pool();
  std::lock_guard<std::mutex> lk(p.mu);
  return static_cast<int64_t>(p.peak);
}

} // namespace idtr::detail
