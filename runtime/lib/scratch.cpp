// Reusable scratch storage of the library wrappers (LAPACK's working
// copies, ScaLAPACK's block-cyclic arrays and exchange buffers).

#include "internal.hpp"

#include <memory>

namespace idtr::detail {
namespace {

struct ScratchBlock {
  std::unique_ptr<char[]> data;
  size_t bytes = 0;
};
/// Blocks larger than this are freed by trim_scratch.
constexpr size_t kKeptScratch = size_t(256) << 20;
thread_local ScratchBlock scratchBlocks[kScratchSlots];

} // namespace

void *scratch_bytes(ScratchSlot slot, size_t bytes) {
  ScratchBlock &b = scratchBlocks[slot];
  if (b.bytes < bytes) {
    b.data.reset(); // (before the new block: not both at once)
    b.data.reset(new char[bytes]);
    b.bytes = bytes;
  }
  return b.data.get();
}

void trim_scratch() {
  for (ScratchBlock &b : scratchBlocks)
    if (b.bytes > kKeptScratch) {
      b.data.reset();
      b.bytes = 0;
    }
}

} // namespace idtr::detail
