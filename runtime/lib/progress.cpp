// libidtr asynchronous progress.
//
// MPI implementations move messages only inside MPI calls: the rendezvous
// handshake of a message above the eager limit, the receiver's copy and the
// acknowledgement that completes the sender's request all need the peer to
// enter MPI. Between starting an exchange and waiting for it the compiled
// code computes and makes no MPI call, so without help the transfer happens
// inside the waits of both ranks and a rank that arrives early waits for its
// peer to arrive too. While operations have requests in flight, a progress
// thread tests them every interval, so messages complete during the
// computation and the waits find them done; once all have completed it
// sleeps until the next operation starts.
#include "internal.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace idtr::detail {
namespace {

struct Progress {
  std::mutex mu;
  std::condition_variable cv;
  bool wake = false; // an operation started since the thread last looked
  bool stop = false;
  bool started = false;
  std::thread thread;
};

// Never destroyed: the thread may still run when static destructors do (a
// process exiting without MPI_Finalize).
Progress &progress() {
  static Progress *p = new Progress;
  return *p;
}

/// IDTR_ASYNC_PROGRESS: a thread is started if set and not "0". Off by
/// default: on a machine whose cores all compute, its wake-ups and copies
/// take the same time from the computation (see docs/runtime.md).
bool thread_requested() {
  const char *e = std::getenv("IDTR_ASYNC_PROGRESS");
  return e && *e && *e != '0';
}

/// IDTR_ASYNC_PROGRESS_INTERVAL_US: microseconds between two tests.
std::chrono::microseconds interval() {
  static const std::chrono::microseconds us = [] {
    const char *e = std::getenv("IDTR_ASYNC_PROGRESS_INTERVAL_US");
    long v = e && *e ? std::strtol(e, nullptr, 10) : 0;
    return std::chrono::microseconds(v > 0 ? v : kDefaultProgressIntervalUs);
  }();
  return us;
}

void run(Progress &p) {
  std::unique_lock<std::mutex> lk(p.mu);
  for (;;) {
    p.cv.wait(lk, [&] { return p.stop || p.wake; });
    p.wake = false;
    while (!p.stop) {
      lk.unlock();
      bool in_flight = test_outstanding_ops();
      lk.lock();
      if (!in_flight)
        break;
      p.cv.wait_for(lk, interval(), [&] { return p.stop; });
    }
    if (p.stop)
      return;
  }
}

/// Starts the thread on first use if requested and MPI allows calls from
/// several threads. Called with p.mu held.
void start(Progress &p) {
  p.started = true;
  if (!thread_requested())
    return;
  int level = MPI_THREAD_SINGLE;
  IDTR_MPI(MPI_Query_thread(&level));
  if (level != MPI_THREAD_MULTIPLE) {
    std::fprintf(stderr, "idtr warning: IDTR_ASYNC_PROGRESS is set but MPI "
                         "was initialised without MPI_THREAD_MULTIPLE; no "
                         "progress thread\n");
    return;
  }
  p.thread = std::thread(run, std::ref(p));
}

} // namespace

void progress_begin() {
  Progress &p = progress();
  std::lock_guard<std::mutex> lk(p.mu);
  if (!p.started)
    start(p);
  p.wake = true;
  p.cv.notify_one();
}

void progress_shutdown() {
  Progress &p = progress();
  std::thread t;
  {
    std::lock_guard<std::mutex> lk(p.mu);
    p.stop = true;
    t = std::move(p.thread);
  }
  p.cv.notify_one();
  if (t.joinable())
    t.join();
  std::lock_guard<std::mutex> lk(p.mu);
  // MPI cannot be initialised again; reset for a consistent state anyway.
  p.stop = p.wake = p.started = false;
}

} // namespace idtr::detail
