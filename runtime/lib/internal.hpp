// Internal interfaces of libidtr (not installed).
#pragma once

#include "idtr/idtr.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#define IDTR_EXPORT extern "C" IDTR_API

namespace idtr::detail {

/// Largest supported array rank (fixed-size records in metadata exchange).
constexpr int kMaxRank = 16;

/// Fixed-capacity int64 vector: index vectors and metadata records live on
/// the stack, so a call with a cached plan does not allocate for them.
template <int N> struct SmallVec {
  int64_t v[N] = {};
  int n = 0;
  SmallVec() = default;
  explicit SmallVec(int size) : n(size) {}
  int64_t &operator[](int i) { return v[i]; }
  const int64_t &operator[](int i) const { return v[i]; }
  int size() const { return n; }
  int64_t *data() { return v; }
  const int64_t *data() const { return v; }
  const int64_t *begin() const { return v; }
  const int64_t *end() const { return v + n; }
  bool operator==(const SmallVec &o) const {
    if (n != o.n)
      return false;
    for (int i = 0; i < n; ++i)
      if (v[i] != o.v[i])
        return false;
    return true;
  }
  bool operator!=(const SmallVec &o) const { return !(*this == o); }
};
using Idx = SmallVec<kMaxRank>; // index vector of an array rank
using Rec = SmallVec<96>;       // per-rank metadata record of a plan

// ---------------------------------------------------------------- errors ---

/// Sets the name of the entry point used in diagnostics for this thread.
class EntryScope {
public:
  explicit EntryScope(const char *name);
  ~EntryScope();
  EntryScope(const EntryScope &) = delete;
  EntryScope &operator=(const EntryScope &) = delete;

private:
  const char *prev_;
};
const char *current_entry();

/// Report an invalid-argument error of the current entry point and abort the
/// whole job (MPI_Abort if MPI is up, otherwise exit(1)). Never returns.
[[noreturn]] void fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/// Like fail() for errors every rank of a team detects identically (after a
/// metadata exchange): only team rank 0 prints; the others abort quietly.
[[noreturn]] void fail_collective(int team_rank, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/// Like fail() for a blocking wait that exceeded IDTR_TIMEOUT: reports
/// "idtr timeout in <entry> ..." and aborts the whole job. Never returns.
[[noreturn]] void fail_timeout(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
/// Check the return code of an MPI call (in case errors are returned).
void check_mpi(int rc, const char *call);
#define IDTR_MPI(call) ::idtr::detail::check_mpi((call), #call)

std::string fmt_vec(const int64_t *v, int64_t n);
inline std::string fmt_vec(const std::vector<int64_t> &v) {
  return fmt_vec(v.data(), static_cast<int64_t>(v.size()));
}
template <int N> std::string fmt_vec(const SmallVec<N> &v) {
  return fmt_vec(v.data(), v.size());
}

// ----------------------------------------------------------------- teams ---

struct Team {
  int64_t id = 0;
  MPI_Comm parent = MPI_COMM_NULL; // not owned
  MPI_Comm comm = MPI_COMM_NULL;   // owned duplicate; lazily made for world
  int size = 1;
  int rank = 0;
  std::atomic<uint32_t> seq{0};     // operation counter -> message tags
  std::atomic<uint64_t> checked{0}; // calls checked by IDTR_CHECK_COLLECTIVES
  // Cartesian communicators by grid extents (_idtr_grid_comm), owned.
  std::mutex grid_mu;
  std::map<std::vector<int>, MPI_Comm> grid_comms;
  // Objects other libraries built over the team's communicator (a BLACS
  // grid), kept between calls by name; their deleters free them with the
  // Cartesian communicators. Guarded by grid_mu.
  std::map<std::string, std::shared_ptr<void>> resources;
  bool is_local() const { return id == 0; }
};

/// Frees the team's cached resources and Cartesian communicators
/// (collective over the team).
void free_grid_comms(Team &t);

/// Look up a team (error if unknown). Initialises MPI for id >= 1. If
/// `collective` the caller is a collective entry point and the team's private
/// communicator is created if needed.
std::shared_ptr<Team> get_team(int64_t id, bool collective = true);

/// Next operation sequence number of the team, used to build message tags so
/// that concurrently outstanding operations never match each other's messages.
inline uint32_t next_seq(Team &t) { return t.seq.fetch_add(1); }
inline int make_tag(uint32_t seq, int sub) {
  return static_cast<int>(((seq & 0x7ffu) << 3) | static_cast<uint32_t>(sub));
}

// -------------------------------------------------------- hang detection ---

/// Default of IDTR_TIMEOUT (seconds).
constexpr double kDefaultTimeoutS = 300;
/// IDTR_TIMEOUT in nanoseconds: how long a blocking wait inside the runtime
/// (collective, request completion, communicator duplication) may last before
/// the job is aborted with a diagnostic; 0 (IDTR_TIMEOUT=0): unbounded.
int64_t timeout_ns();
/// IDTR_CHECK_COLLECTIVES set and not "0": every collective entry point first
/// checks that all ranks of the team entered the same entry point with the
/// same key and metadata (one small allreduce, see ops.cpp).
bool check_collectives();

/// Marks the calling thread as blocked in the collective MPI call `what` on
/// team `t` from construction to destruction. A blocking collective cannot be
/// interrupted, and its non-blocking variant is several times slower in Open
/// MPI, so while IDTR_TIMEOUT is set a watchdog thread (watchdog.cpp) checks
/// the blocked threads and aborts the job with a diagnostic naming the entry
/// point, the rank, `what` and the time waited once one has been blocked for
/// longer than the timeout. Costs a few stores (no clock read).
class BlockingScope {
public:
  BlockingScope(const Team &t, const char *what);
  ~BlockingScope();
  BlockingScope(const BlockingScope &) = delete;
  BlockingScope &operator=(const BlockingScope &) = delete;

private:
  struct WatchSlot *slot_ = nullptr;
};
/// Stops the watchdog thread; before MPI is finalized.
void watchdog_shutdown();

/// Runs the blocking collective `blocking()` (returns an MPI error code),
/// described by `what` (e.g. "MPI_Allgather (plan metadata exchange)"), on
/// `t` under a BlockingScope.
template <class Blocking>
void run_collective(const Team &t, const char *what, Blocking &&blocking) {
  BlockingScope scope(t, what);
  check_mpi(blocking(), what);
}

/// A byte count or displacement of an MPI call as `int`; beyond MPI's int
/// limit an error naming `what`.
int to_int(int64_t v, const char *what);

/// MPI allgather of fixed-length int64 records (local copy for size 1).
void allgather_i64(Team &t, const int64_t *mine, int n,
                   std::vector<int64_t> &all);

/// MPI all-to-all of `n` int64 per peer (`send` holds p * n entries, peer
/// q's at q * n); `recv` receives p * n (local copy for size 1).
void alltoall_i64(Team &t, const int64_t *send, int n,
                  std::vector<int64_t> &recv);

/// Hook for tests: makes an invalid MPI call on the team's communicator so the
/// runtime's MPI error handler fires.
IDTR_EXPORT void _idtr_test_trigger_mpi_error(int64_t team);

/// What the ranks of a team must agree on when they enter a collective call:
/// the entry point (which includes the element type), for reductions the
/// element count and op, otherwise the plan cache key (or root) and the
/// metadata that is the same on every rank (global shapes, permutation).
/// Checked by the fused allreduce of every reduction (unless IDTR_NO_CHECKS;
/// the entry point, key and metadata only with IDTR_CHECK_COLLECTIVES) and,
/// with IDTR_CHECK_COLLECTIVES, by check_call at the start of every other
/// collective entry point (see "reductions" below).
struct CallSig {
  const char *entry = "";
  bool reduction = false;
  int64_t count = 0, op = 0, type = 0, eop = 0; // reductions
  const char *key_name = nullptr;               // "key", "root" or none
  int64_t key = 0;
  int nmeta = 0;
  const char *meta_names[2] = {};
  const Idx *meta[2] = {}; // the caller's, alive during the check
};

/// The signature of a plan-based call: its key and one or two metadata
/// vectors.
inline CallSig plan_sig(const char *entry, const char *key_name, int64_t key,
                        const char *name0, const Idx &meta0,
                        const char *name1 = nullptr,
                        const Idx *meta1 = nullptr) {
  CallSig s;
  s.entry = entry;
  s.key_name = key_name;
  s.key = key;
  s.nmeta = meta1 ? 2 : 1;
  s.meta_names[0] = name0;
  s.meta[0] = &meta0;
  if (meta1) {
    s.meta_names[1] = name1;
    s.meta[1] = meta1;
  }
  return s;
}

/// With IDTR_CHECK_COLLECTIVES, checks that every rank of the team entered
/// the same collective call (one fused allreduce, bounded by IDTR_TIMEOUT);
/// on a mismatch the job ends with a report of the first diverging rank.
void check_call(Team &t, const CallSig &sig);

/// Release the MPI objects of the fused reduction (called before finalize).
void free_reduce_objects();

// ----------------------------------------------------------------- stats ---

void stat_add(int kind, int counter, int64_t v);

/// Adds the wall-clock nanoseconds (steady_clock) from its construction to its
/// destruction to counter `counter` of statistics kind `kind` (nothing while
/// the kind is negative). Entry points create one for IDTR_CNT_CALL_NS right
/// at entry, so every path to the return (plan building, metadata exchange,
/// posting, synchronous completion) is counted.
class StatTimer {
public:
  StatTimer(int kind, int counter)
      : kind_(kind), counter_(counter),
        start_(std::chrono::steady_clock::now()) {}
  ~StatTimer() {
    if (kind_ >= 0)
      stat_add(kind_, counter_,
               std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now() - start_)
                   .count());
  }
  StatTimer(const StatTimer &) = delete;
  StatTimer &operator=(const StatTimer &) = delete;
  void set_kind(int kind) { kind_ = kind; }

private:
  int kind_, counter_;
  std::chrono::steady_clock::time_point start_;
};

// ------------------------------------------------------------ async ops ---

/// The bytes [lo, hi) an array argument spans (empty: lo == hi).
struct Span {
  const std::byte *lo = nullptr, *hi = nullptr;
  bool empty() const { return lo == hi; }
  bool contains(const Span &o) const { return lo <= o.lo && o.hi <= hi; }
};

/// The span of an array with element size `es`, first element at `base`.
Span span_of(const void *base, int64_t es, int rank, const int64_t *sizes,
             const int64_t *strides);

/// Most arrays an operation uses (update_halo: data, lhalo, rhalo).
constexpr int kMaxOpArrays = 3;

/// Peer, tag and size of a point-to-point request (timeout diagnostics).
struct ReqInfo {
  int peer = 0;
  int tag = 0; // kBcastTag: a broadcast rooted at peer
  bool send = false;
  int64_t bytes = 0;
};
constexpr int kBcastTag = -1;

/// A staging buffer of an asynchronous operation, taken from and returned to
/// a pool of completed operations' buffers (lib/staging.cpp).
class Staging {
public:
  explicit Staging(size_t bytes);
  ~Staging();
  Staging(Staging &&other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  Staging &operator=(Staging &&) = delete;
  std::byte *data() const { return data_; }

private:
  std::byte *data_ = nullptr;
  size_t capacity_ = 0;
};

/// Frees the pooled staging buffers (_idtr_clear_cache).
void staging_clear();
/// Bytes of staging buffers held (in use and pooled), and their peak.
int64_t staging_bytes();
int64_t staging_peak();

struct AsyncOp {
  std::shared_ptr<Team> team; // keeps the communicator alive
  const char *entry = "";
  int64_t handle = 0; // set by register_op
  int stat_kind = -1; // IDTR_STAT_* its wait time is attributed to
  std::vector<MPI_Request> reqs;
  std::vector<ReqInfo> req_info; // parallel to reqs
  bool transferred = false; // reqs completed (tested by the progress thread)
  std::vector<Staging> buffers;
  std::vector<std::function<void()>> finish; // run after all requests complete
  // The arrays the operation reads and writes (input first), validated by
  // _idtr_wait_buffers.
  int64_t elem_size = 0;
  int narrays = 0;
  Span arrays[kMaxOpArrays];
  const char *array_names[kMaxOpArrays] = {};
};

/// Whether argument checks that cost extra work are on (IDTR_NO_CHECKS unset
/// or "0"): the fused reduction header, buffer validation on wait.
bool checks_enabled();

/// Store an op and return its handle (never 0).
int64_t register_op(std::unique_ptr<AsyncOp> op);
/// Complete the requests of the op like MPI_Waitall, by polling them with
/// MPI_Testall (as fast as MPI_Waitall); after timeout_ns() the job is aborted
/// with a diagnostic naming the current entry point, the op (handle, entry
/// point, team) and the peers and tags of its pending requests.
void wait_requests(AsyncOp &op);
/// Complete the op (wait_requests + finishers).
void complete_op(AsyncOp &op);

// -------------------------------------------------------------- progress ---

/// Default of IDTR_ASYNC_PROGRESS_INTERVAL_US.
constexpr long kDefaultProgressIntervalUs = 50;
/// An operation with requests was registered: wakes the progress thread
/// (progress.cpp; started on first use if IDTR_ASYNC_PROGRESS is set).
void progress_begin();
/// Stops the progress thread; before MPI is finalized.
void progress_shutdown();
/// Tests the requests of the registered operations not known complete (for
/// the progress thread); whether any is still in flight.
bool test_outstanding_ops();

// ---------------------------------------------------------------- plans ---

/// A region of a local array: either a box (start/extent per dimension,
/// traversed in the dimension order `order`, outermost first) or a flat range
/// [fstart, fstart+count) of the array's row-major element order.
struct Region {
  int8_t rank = 0;
  bool flat = false;
  int8_t order[kMaxRank] = {};
  int64_t start[kMaxRank] = {};
  int64_t extent[kMaxRank] = {};
  int64_t fstart = 0;
  int64_t count = 0;
};

/// One transfer. For sends `src` is a region of the input, for receives `dst`
/// is a region of output `out`; local transfers use both.
struct Xfer {
  int peer = 0;
  int sub = 0; // tag sub-channel
  int out = 0; // index of the destination output
  Region src, dst;
};

struct Plan {
  Rec meta; // this rank's metadata record (cache validation)
  std::vector<Xfer> sends, recvs, locals;
  // Parts that every other rank receives, one MPI_Ibcast each, rooted at
  // `peer`, in the same order on every rank: the root's has `src` set,
  // the others' `dst` and `out`.
  std::vector<Xfer> bcasts;
};

enum PlanKind {
  kPlanHalo = 0,
  kPlanReshape = 1,
  kPlanPermute = 2,
  kPlanRepart = 3,
  kPlanGhost = 4,
  kPlanBoxes = 5
};

std::shared_ptr<const Plan> cache_lookup(int kind, int64_t team, int64_t key);
void cache_insert(int kind, int64_t team, int64_t key,
                  std::shared_ptr<const Plan> p);
void cache_drop_team(int64_t team);
/// Drop the plans of every kind cached under (team, key).
void cache_forget(int64_t team, int64_t key);
/// Drop every cached plan.
void cache_clear();
/// The number of cached plans and the bytes they hold.
std::pair<int64_t, int64_t> cache_memory();

/// Build or fetch (key >= 0) a plan. `meta` is this rank's record; `build`
/// performs the metadata exchange and computes the plan.
std::shared_ptr<const Plan>
get_plan(int kind, Team &t, int64_t key, int stat_kind, const Rec &meta,
         const std::function<std::shared_ptr<Plan>(const Rec &)> &build);

// Plan builders (element-type independent). Records are built by the
// corresponding make_*_meta function.
/// Owned blocks are boxes of the global index space (offsets and sizes per
/// dimension); the blocks of a team's ranks tile the array.
Rec make_box_meta(int d, const int64_t *gshape, const int64_t *own_off,
                  const int64_t *own_size, const int64_t *box_off,
                  const int64_t *box_size);
std::shared_ptr<Plan> build_halo_plan(Team &t, int split, const Rec &meta);
std::shared_ptr<Plan> build_repart_plan(Team &t, int split, const Rec &meta);
/// Ghost-cell exchange in one buffer whose element 0 is global element
/// `buf_off`: `boxes` (nboxes x (offsets, sizes)) are the global regions
/// this rank reads; each owner sends the bounding box of their parts in its
/// block. Sends and receives are regions of the buffer.
Rec make_ghost_meta(int d, const int64_t *gshape, const int64_t *own_off,
                    const int64_t *own_size, const int64_t *buf_off,
                    const std::vector<int64_t> &boxes);
std::shared_ptr<Plan> build_ghost_plan(Team &t, const Rec &meta,
                                       const std::vector<int64_t> &boxes);
/// Several boxes of an array (nboxes x (offsets, sizes), the same count on
/// every rank; record as make_ghost_meta's with `buf_off` 0) into one
/// output each: from each owner one message per box it holds part of.
std::shared_ptr<Plan> build_boxes_plan(Team &t, const Rec &meta,
                                       const std::vector<int64_t> &boxes);

Rec make_reshape_meta(int din, const int64_t *gin, int dout,
                      const int64_t *gout, int64_t in_off, int64_t in_rows,
                      int64_t out_off, int64_t out_rows);
std::shared_ptr<Plan> build_reshape_plan(Team &t, const Rec &meta);

Rec make_permute_meta(int d, const int64_t *gin, const int64_t *perm,
                      int64_t in_off, int64_t in_rows, int64_t out_rows);
std::shared_ptr<Plan> build_permute_plan(Team &t, const Rec &meta);

// ------------------------------------------------------------- scratch ---

/// Slots of the scratch storage: one block each per thread.
enum ScratchSlot : int {
  kScratchMatrix,  // the working copy of the matrix
  kScratchSecond,  // right-hand sides, eigenvalues or vectors, factors
  kScratchThird,   // pivots, factors
  kScratchFourth,  // factors
  kScratchSend,    // an exchange's send buffer
  kScratchReceive, // an exchange's receive buffer
  kScratchSlots
};

/// Uninitialized storage of at least `bytes` bytes (at least 1) in `slot`,
/// grown as needed and kept between calls, so that large working copies
/// do not take fresh pages (zeroed by the kernel on first touch) at every
/// call: on a small or medium matrix that costs as much as the routine.
/// Valid until the next request of the slot on this thread.
void *scratch_bytes(ScratchSlot slot, size_t bytes);
template <class T> T *scratch(ScratchSlot slot, int64_t count) {
  return static_cast<T *>(scratch_bytes(
      slot, sizeof(T) * static_cast<size_t>(count > 1 ? count : 1)));
}
/// Frees the blocks of this thread larger than a bound (256 MiB): called
/// after each routine, so that a very large matrix is not held.
void trim_scratch();

/// Validate that the (offset, rows) pairs of all ranks tile [0, n) in rank
/// order (empty blocks may have any offset). Returns an error text or "".
std::string check_tiling(const std::vector<int64_t> &offs,
                         const std::vector<int64_t> &rows, int64_t n);

} // namespace idtr::detail
