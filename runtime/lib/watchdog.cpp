// libidtr watchdog: bounds the blocking collective calls by IDTR_TIMEOUT.
//
// A rank that skips a collective call, leaves a loop early or makes its
// collective calls in another order leaves the other ranks of its team
// blocked in an MPI collective forever. Such a call cannot be interrupted,
// and replacing it by its non-blocking variant and a polling loop costs
// 2-5x in Open MPI (its non-blocking collectives use other, slower
// algorithms). So the blocking calls stay, and a thread marks itself blocked
// in a slot of its own for their duration (BlockingScope: a few stores, no
// clock read); the watchdog thread wakes every timeout/10 (at most every
// second, at least every 10 ms), notes when it first saw each blocked call,
// and once a call has been blocked for longer than the timeout it reports
// what that thread waits for and aborts the job (so a call is reported
// between timeout and timeout + one period after it started). The watchdog
// makes no MPI call except those of the report and MPI_Abort. Waits for
// point-to-point requests (_idtr_wait) poll instead (wait_requests in
// runtime.cpp), which costs nothing and lets the report name the pending
// requests.
#include "internal.hpp"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace idtr::detail {

/// The blocking state of one thread. The owning thread writes the fields,
/// then makes `gen` odd (blocked); it makes `gen` even again when the call
/// returns. The watchdog reads them like a seqlock: the fields belong to one
/// blocked call if `gen` is odd and unchanged around the reads.
struct WatchSlot {
  std::atomic<uint64_t> gen{0};
  std::atomic<const char *> entry{nullptr}, what{nullptr};
  std::atomic<int64_t> team{0};
  std::atomic<int> team_rank{0}, team_size{0};
  std::atomic<bool> used{false}; // owned by a live thread
  // Watchdog thread only: the blocked call it last saw and when.
  uint64_t seen_gen = 0;
  std::chrono::steady_clock::time_point seen_at;
};

namespace {

struct Watchdog {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<WatchSlot *> slots; // never freed: reused by later threads
  bool started = false;
  bool stop = false;
  std::thread thread;
};

// Never destroyed, like the progress thread's state: the thread may still run
// when static destructors do (a process exiting without MPI_Finalize).
Watchdog &watchdog() {
  static Watchdog *w = new Watchdog;
  return *w;
}

/// Releases the calling thread's slot when the thread ends.
struct SlotOwner {
  WatchSlot *slot = nullptr;
  ~SlotOwner() {
    if (slot)
      slot->used.store(false, std::memory_order_release);
  }
};
thread_local SlotOwner t_owner;
// The same pointer without a destructor: reading it needs no TLS wrapper.
thread_local WatchSlot *t_slot = nullptr;

void run(Watchdog &w);

/// The calling thread's slot, on its first blocking call; starts the
/// watchdog thread on the first call of the process.
WatchSlot *acquire_slot() {
  Watchdog &w = watchdog();
  std::lock_guard<std::mutex> lk(w.mu);
  if (!w.started) {
    w.started = true;
    w.stop = false;
    w.thread = std::thread(run, std::ref(w));
  }
  WatchSlot *slot = nullptr;
  for (WatchSlot *s : w.slots)
    if (!s->used.load(std::memory_order_acquire)) {
      slot = s;
      break;
    }
  if (!slot) {
    w.slots.push_back(new WatchSlot);
    slot = w.slots.back();
  }
  slot->used.store(true, std::memory_order_release);
  t_owner.slot = slot;
  return slot;
}

std::chrono::nanoseconds period() {
  return std::chrono::nanoseconds(
      std::clamp<int64_t>(timeout_ns() / 10, 10000000, 1000000000));
}

[[noreturn]] void report_blocked(const char *entry, const char *what,
                                 int64_t team, int rank, int size,
                                 int64_t waited) {
  EntryScope es(entry); // the blocked thread's entry point
  fail_timeout(
      "%s on team %" PRId64 " (rank %d of %d) has not completed after %.1f s "
      "(IDTR_TIMEOUT=%g): not every rank of the team has entered this "
      "collective call; a rank skipped it, called the collective operations "
      "of the team in a different order or a different number of times, or "
      "is stuck%s",
      what, team, rank, size, static_cast<double>(waited) / 1e9,
      static_cast<double>(timeout_ns()) / 1e9,
      check_collectives() ? ""
                          : " (IDTR_CHECK_COLLECTIVES=1 reports calls that "
                            "differ between the ranks)");
}

void run(Watchdog &w) {
  const std::chrono::nanoseconds limit(timeout_ns());
  std::unique_lock<std::mutex> lk(w.mu);
  while (!w.stop) {
    w.cv.wait_for(lk, period(), [&] { return w.stop; });
    if (w.stop)
      return;
    const auto now = std::chrono::steady_clock::now();
    for (WatchSlot *s : w.slots) {
      uint64_t g = s->gen.load(std::memory_order_acquire);
      if (!(g & 1))
        continue;
      const char *entry = s->entry.load(std::memory_order_relaxed);
      const char *what = s->what.load(std::memory_order_relaxed);
      int64_t team = s->team.load(std::memory_order_relaxed);
      int rank = s->team_rank.load(std::memory_order_relaxed);
      int size = s->team_size.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (s->gen.load(std::memory_order_relaxed) != g)
        continue;             // the call returned meanwhile
      if (s->seen_gen != g) { // a call blocked since the last scan
        s->seen_gen = g;
        s->seen_at = now;
      } else if (now - s->seen_at >= limit) {
        report_blocked(entry, what, team, rank, size,
                       std::chrono::duration_cast<std::chrono::nanoseconds>(
                           now - s->seen_at)
                           .count());
      }
    }
  }
}

} // namespace

BlockingScope::BlockingScope(const Team &t, const char *what) {
  if (timeout_ns() == 0)
    return;
  WatchSlot *s = t_slot ? t_slot : (t_slot = acquire_slot());
  // Orders the field stores after the end of the previous call (gen even).
  std::atomic_thread_fence(std::memory_order_release);
  s->entry.store(current_entry(), std::memory_order_relaxed);
  s->what.store(what, std::memory_order_relaxed);
  s->team.store(t.id, std::memory_order_relaxed);
  s->team_rank.store(t.rank, std::memory_order_relaxed);
  s->team_size.store(t.size, std::memory_order_relaxed);
  s->gen.store(s->gen.load(std::memory_order_relaxed) + 1,
               std::memory_order_release);
  slot_ = s;
}

BlockingScope::~BlockingScope() {
  if (slot_)
    slot_->gen.store(slot_->gen.load(std::memory_order_relaxed) + 1,
                     std::memory_order_release);
}

void watchdog_shutdown() {
  Watchdog &w = watchdog();
  std::thread t;
  {
    std::lock_guard<std::mutex> lk(w.mu);
    w.stop = true;
    t = std::move(w.thread);
  }
  w.cv.notify_one();
  if (t.joinable())
    t.join();
  std::lock_guard<std::mutex> lk(w.mu);
  w.started = false;
}

} // namespace idtr::detail
