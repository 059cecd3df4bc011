// libidtr core: MPI lifetime, teams, diagnostics, async handles and
// statistics (the plan cache: plan_cache.cpp; partitions and process grids:
// partition.cpp).
#include "internal.hpp"

#include <cctype>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <unordered_map>

namespace idtr::detail {
namespace {

struct State {
  std::mutex mu; // MPI lifetime + teams
  std::vector<std::shared_ptr<Team>> teams;
  bool we_initialized = false;
  bool atexit_registered = false;
  MPI_Errhandler errhandler = MPI_ERRHANDLER_NULL;
  int self_keyval = MPI_KEYVAL_INVALID;
  // Private duplicate of MPI_COMM_WORLD, made with the world team's, used
  // only for the barrier at finalize (see cleanup_mpi).
  MPI_Comm finalize_comm = MPI_COMM_NULL;

  std::mutex hmu; // handles
  std::unordered_map<int64_t, std::unique_ptr<AsyncOp>> ops;
  uint64_t next_handle = 1;
};

State &st() {
  static State s;
  return s;
}

std::atomic<bool> g_mpi_ready{false};
std::atomic<int64_t> g_stats[IDTR_STAT_NKINDS][IDTR_NCOUNTERS];
thread_local const char *t_entry = nullptr;

constexpr uint64_t kHandleMagic = 0x1d70ull << 48;
constexpr uint64_t kHandleMagicMask = 0xffffull << 48;

std::shared_ptr<Team> &local_team() {
  static std::shared_ptr<Team> t = [] {
    auto p = std::make_shared<Team>();
    p->id = 0;
    p->size = 1;
    p->rank = 0;
    return p;
  }();
  return t;
}

bool mpi_usable() {
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  return init && !fin;
}

[[noreturn]] void abort_job() {
  std::fflush(stderr);
  if (mpi_usable())
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

// Rank from the launcher's environment, for messages when MPI is not usable.
const char *launcher_rank() {
  for (const char *v : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char *e = std::getenv(v))
      return e;
  return "0";
}

void report(const char *kind, const char *msg) {
  int wr = 0, ws = 1;
  bool up = mpi_usable();
  if (up) {
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &ws);
  }
  char line[4096];
  int fin = 0;
  MPI_Finalized(&fin);
  if (up)
    std::snprintf(line, sizeof line, "idtr %s in %s on rank %d (of %d): %s\n",
                  kind, current_entry(), wr, ws, msg);
  else
    std::snprintf(line, sizeof line, "idtr %s in %s on rank %s (%s): %s\n",
                  kind, current_entry(), launcher_rank(),
                  fin ? "MPI finalized" : "MPI not initialized", msg);
  std::fputs(line, stderr);
  std::fflush(stderr);
}

void errhandler_fn(MPI_Comm *, int *code, ...) {
  char s[MPI_MAX_ERROR_STRING + 1] = {};
  int len = 0;
  MPI_Error_string(*code, s, &len);
  char msg[MPI_MAX_ERROR_STRING + 64];
  std::snprintf(msg, sizeof msg, "MPI error %d: %s", *code, s);
  report("MPI error", msg);
  abort_job();
}

void cleanup_mpi();
void make_private_comm(State &s, Team &t, bool published);

int self_delete_fn(MPI_Comm, int, void *, void *) {
  cleanup_mpi();
  return MPI_SUCCESS;
}

void at_exit_fn() {
  // Finalise MPI only if we initialised it. If the application initialised
  // it, cleanup runs from the MPI_COMM_SELF attribute callback when the
  // application calls MPI_Finalize.
  if (st().we_initialized && mpi_usable())
    MPI_Finalize();
  cache_clear();
}

void ensure_mpi() {
  if (g_mpi_ready.load(std::memory_order_acquire))
    return;
  State &s = st();
  std::lock_guard<std::mutex> lk(s.mu);
  if (g_mpi_ready.load(std::memory_order_relaxed))
    return;
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (fin)
    fail("MPI has already been finalized; distributed teams are unavailable");
  if (!init) {
    int provided = 0;
    IDTR_MPI(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided));
    s.we_initialized = true;
  }
  timeout_ns(); // reports an invalid IDTR_TIMEOUT at once
  IDTR_MPI(MPI_Comm_create_errhandler(errhandler_fn, &s.errhandler));
  IDTR_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete_fn,
                                  &s.self_keyval, nullptr));
  IDTR_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, s.self_keyval, nullptr));
  if (s.teams.size() < 2)
    s.teams.resize(2);
  auto w = std::make_shared<Team>();
  w->id = 1;
  w->parent = MPI_COMM_WORLD;
  IDTR_MPI(MPI_Comm_size(MPI_COMM_WORLD, &w->size));
  IDTR_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &w->rank));
  // Right after MPI_Init every rank is at the same point: make the world
  // team's communicators now, so that even a rank that never makes a
  // collective call waits at finalize (see cleanup_mpi).
  if (s.we_initialized)
    make_private_comm(s, *w, /*published=*/true);
  s.teams[1] = w;
  if (!s.atexit_registered) {
    s.atexit_registered = true;
    std::atexit(at_exit_fn);
  }
  g_mpi_ready.store(true, std::memory_order_release);
}

void cleanup_mpi() {
  progress_shutdown();
  watchdog_shutdown();
  State &s = st();
  std::unordered_map<int64_t, std::unique_ptr<AsyncOp>> pending;
  {
    std::lock_guard<std::mutex> lk(s.hmu);
    pending.swap(s.ops);
  }
  if (!pending.empty()) {
    std::fprintf(
        stderr,
        "idtr warning: %zu asynchronous operation(s) were never passed "
        "to _idtr_wait; completing them at MPI_Finalize\n",
        pending.size());
    EntryScope es("MPI_Finalize");
    for (auto &kv : pending)
      wait_requests(*kv.second);
    pending.clear();
  }
  // Every rank waits for the others to finish. A rank that skipped a
  // collective or left a loop early thus stays alive until the ranks still
  // waiting for it time out and abort the job: Open MPI's mpirun can crash
  // or hang when a rank aborts after another one has finalized and exited.
  // Not bounded by IDTR_TIMEOUT: a rank may legitimately finish long before
  // the others. A communicator of its own, so that it cannot match the
  // collectives other ranks still wait in.
  if (s.finalize_comm != MPI_COMM_NULL) {
    MPI_Barrier(s.finalize_comm);
    MPI_Comm_free(&s.finalize_comm);
  }
  cache_clear();
  free_reduce_objects();
  std::lock_guard<std::mutex> lk(s.mu);
  for (size_t i = 1; i < s.teams.size(); ++i) {
    if (!s.teams[i])
      continue;
    free_grid_comms(*s.teams[i]);
    if (s.teams[i]->comm != MPI_COMM_NULL)
      MPI_Comm_free(&s.teams[i]->comm);
  }
  s.teams.clear();
  if (s.errhandler != MPI_ERRHANDLER_NULL)
    MPI_Errhandler_free(&s.errhandler);
  if (s.self_keyval != MPI_KEYVAL_INVALID)
    MPI_Comm_free_keyval(&s.self_keyval);
  g_mpi_ready.store(false, std::memory_order_release);
}

// Creates the team's private duplicate communicator (collective over the
// parent, bounded by IDTR_TIMEOUT). `published`: the team is already visible
// to other threads (world team), whose size and rank were set at
// initialisation and are read without the lock, so they are not rewritten.
void make_private_comm(State &s, Team &t, bool published) {
  if (!published) {
    IDTR_MPI(MPI_Comm_size(t.parent, &t.size));
    IDTR_MPI(MPI_Comm_rank(t.parent, &t.rank));
  }
  run_collective(t,
                 "MPI_Comm_dup (the runtime's private duplicate of the team's "
                 "communicator)",
                 [&] { return MPI_Comm_dup(t.parent, &t.comm); });
  IDTR_MPI(MPI_Comm_set_errhandler(t.comm, s.errhandler));
  if (t.id == 1 && s.finalize_comm == MPI_COMM_NULL) {
    run_collective(t, "MPI_Comm_dup (the runtime's communicator for finalize)",
                   [&] { return MPI_Comm_dup(t.parent, &s.finalize_comm); });
    IDTR_MPI(MPI_Comm_set_errhandler(s.finalize_comm, s.errhandler));
  }
}

// ---------------------------------------------------------- bounded waits ---

using Clock = std::chrono::steady_clock;

/// Tests between two clock reads while a wait is not complete. A clock read
/// (vDSO) costs a fraction of an MPI_Testall, so this only keeps the polling
/// loop lean; the timeout is checked within microseconds.
constexpr unsigned kPollsPerClockRead = 16;
/// Pending requests listed in a timeout diagnostic.
constexpr int kMaxListedRequests = 8;

/// Tests the n requests until all have completed (true), or until `limit`
/// ns have passed since the first unsuccessful test (false; the time waited
/// in *waited_ns). Operations that complete at once cost one MPI_Testall and
/// no clock read.
bool poll_requests(int n, MPI_Request *reqs, int64_t limit,
                   int64_t *waited_ns) {
  int done = 0;
  IDTR_MPI(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE));
  if (done)
    return true;
  const Clock::time_point start = Clock::now();
  for (unsigned i = 1;; ++i) {
    IDTR_MPI(MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE));
    if (done)
      return true;
    if (i % kPollsPerClockRead == 0) {
      int64_t w = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      Clock::now() - start)
                      .count();
      if (w >= limit) {
        *waited_ns = w;
        return false;
      }
    }
  }
}

double timeout_seconds() { return static_cast<double>(timeout_ns()) / 1e9; }

} // namespace

// ---------------------------------------------------------------- errors ---

EntryScope::EntryScope(const char *name) : prev_(t_entry) { t_entry = name; }
EntryScope::~EntryScope() { t_entry = prev_; }
const char *current_entry() { return t_entry ? t_entry : "libidtr"; }

void fail(const char *fmt, ...) {
  char msg[3072];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  report("error", msg);
  abort_job();
}

void fail_collective(int team_rank, const char *fmt, ...) {
  if (team_rank == 0) {
    char msg[3072];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    report("error", msg);
    abort_job();
  }
  // Every rank detected the same problem; let team rank 0 report it. Abort
  // ourselves shortly afterwards in case its abort does not reach us.
  std::this_thread::sleep_for(std::chrono::seconds(3));
  abort_job();
}

void fail_timeout(const char *fmt, ...) {
  char msg[3072];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  report("timeout", msg);
  abort_job();
}

void check_mpi(int rc, const char *call) {
  if (rc == MPI_SUCCESS)
    return;
  char s[MPI_MAX_ERROR_STRING + 1] = {};
  int len = 0;
  MPI_Error_string(rc, s, &len);
  fail("MPI call %s failed: %s", call, s);
}

std::string fmt_vec(const int64_t *v, int64_t n) {
  std::string r = "(";
  for (int64_t i = 0; i < n; ++i) {
    if (i)
      r += ", ";
    r += std::to_string(v[i]);
  }
  return r + ")";
}

// ----------------------------------------------------------------- teams ---

std::shared_ptr<Team> get_team(int64_t id, bool collective) {
  if (id == 0)
    return local_team();
  if (id < 0)
    fail("invalid team id %" PRId64
         " (0 = not distributed, 1 = MPI_COMM_WORLD, >= 2 = registered)",
         id);
  ensure_mpi();
  State &s = st();
  std::lock_guard<std::mutex> lk(s.mu);
  if (static_cast<uint64_t>(id) >= s.teams.size() || !s.teams[id])
    fail("unknown team id %" PRId64
         " (0 = not distributed, 1 = MPI_COMM_WORLD, >= 2 = registered with "
         "_idtr_register_team)",
         id);
  auto t = s.teams[id];
  if (collective && t->comm == MPI_COMM_NULL)
    make_private_comm(s, *t, /*published=*/true);
  return t;
}

int to_int(int64_t v, const char *what) {
  if (v > INT_MAX)
    fail("%s: %" PRId64 " bytes exceed one MPI message (2^31 - 1)", what, v);
  return static_cast<int>(v);
}

void allgather_i64(Team &t, const int64_t *mine, int n,
                   std::vector<int64_t> &all) {
  all.resize(static_cast<size_t>(n) * t.size);
  if (t.size == 1) {
    std::memcpy(all.data(), mine, sizeof(int64_t) * n);
    return;
  }
  run_collective(t, "MPI_Allgather (plan metadata exchange)", [&] {
    return MPI_Allgather(mine, n, MPI_INT64_T, all.data(), n, MPI_INT64_T,
                         t.comm);
  });
  stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES, 1);
  stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLL_BYTES, 8 * n);
}

void alltoall_i64(Team &t, const int64_t *send, int n,
                  std::vector<int64_t> &recv) {
  recv.resize(static_cast<size_t>(n) * t.size);
  if (t.size == 1) {
    std::memcpy(recv.data(), send, sizeof(int64_t) * n);
    return;
  }
  run_collective(t, "MPI_Alltoall (plan metadata exchange)", [&] {
    return MPI_Alltoall(send, n, MPI_INT64_T, recv.data(), n, MPI_INT64_T,
                        t.comm);
  });
  stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES, 1);
  stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLL_BYTES, 8 * n * t.size);
}

// ----------------------------------------------------------------- stats ---

void stat_add(int kind, int counter, int64_t v) {
  g_stats[kind][counter].fetch_add(v, std::memory_order_relaxed);
}

// ------------------------------------------------------------ async ops ---

int64_t register_op(std::unique_ptr<AsyncOp> op) {
  State &s = st();
  bool in_flight = !op->reqs.empty();
  int64_t h;
  {
    std::lock_guard<std::mutex> lk(s.hmu);
    uint64_t n = s.next_handle++;
    if (n >= (1ull << 47))
      fail("handle space exhausted");
    h = static_cast<int64_t>(kHandleMagic | n);
    op->handle = h;
    s.ops.emplace(h, std::move(op));
  }
  if (in_flight)
    progress_begin();
  return h;
}

// The progress thread only touches operations in the table, under hmu; a
// wait takes its operation out of the table first, so the requests of an
// operation are never used by two threads at once.
bool test_outstanding_ops() {
  State &s = st();
  std::lock_guard<std::mutex> lk(s.hmu);
  bool in_flight = false;
  for (auto &kv : s.ops) {
    AsyncOp &op = *kv.second;
    if (op.transferred || op.reqs.empty())
      continue;
    int done = 0;
    IDTR_MPI(MPI_Testall(static_cast<int>(op.reqs.size()), op.reqs.data(),
                         &done, MPI_STATUSES_IGNORE));
    op.transferred = done != 0;
    in_flight |= !op.transferred;
  }
  return in_flight;
}

void complete_op(AsyncOp &op) {
  wait_requests(op);
  for (auto &f : op.finish)
    f();
}

// ------------------------------------------------------ hang detection ---

int64_t timeout_ns() {
  static const int64_t ns = [] {
    const char *e = std::getenv("IDTR_TIMEOUT");
    if (!e || !*e)
      return static_cast<int64_t>(kDefaultTimeoutS * 1e9);
    char *end = nullptr;
    double sec = std::strtod(e, &end);
    while (end && std::isspace(static_cast<unsigned char>(*end)))
      ++end;
    if (end == e || *end || !(sec >= 0) || sec > 1e9)
      fail("invalid IDTR_TIMEOUT='%s': expected a number of seconds >= 0 "
           "(0 disables the timeout)",
           e);
    return sec > 0 ? std::max<int64_t>(1, static_cast<int64_t>(sec * 1e9)) : 0;
  }();
  return ns;
}

bool check_collectives() {
  static const bool on = [] {
    const char *e = std::getenv("IDTR_CHECK_COLLECTIVES");
    return e && *e && *e != '0';
  }();
  return on;
}

void wait_requests(AsyncOp &op) {
  if (op.reqs.empty())
    return;
  const int n = static_cast<int>(op.reqs.size());
  const int64_t limit = timeout_ns();
  if (limit == 0) {
    IDTR_MPI(MPI_Waitall(n, op.reqs.data(), MPI_STATUSES_IGNORE));
    return;
  }
  int64_t waited = 0;
  if (poll_requests(n, op.reqs.data(), limit, &waited))
    return;
  // Which requests are still pending (the completed ones are released).
  std::string list;
  int pending = 0;
  for (int i = 0; i < n; ++i) {
    int flag = 0;
    IDTR_MPI(MPI_Test(&op.reqs[i], &flag, MPI_STATUS_IGNORE));
    if (flag)
      continue;
    if (++pending > kMaxListedRequests)
      continue;
    char item[128];
    ReqInfo r;
    if (static_cast<size_t>(i) < op.req_info.size())
      r = op.req_info[i];
    if (r.tag == kBcastTag)
      std::snprintf(
          item, sizeof item, "%sbroadcast %s rank %d (%" PRId64 " bytes)",
          list.empty() ? "" : ", ", r.send ? "as" : "from", r.peer, r.bytes);
    else
      std::snprintf(
          item, sizeof item, "%s%s rank %d (tag %d, %" PRId64 " bytes)",
          list.empty() ? "" : ", ", r.send ? "send to" : "receive from", r.peer,
          r.tag, r.bytes);
    list += item;
  }
  if (pending == 0)
    return; // completed since the last test
  if (pending > kMaxListedRequests)
    list += ", and " + std::to_string(pending - kMaxListedRequests) + " more";
  const Team &t = *op.team;
  char what[128];
  if (op.handle)
    std::snprintf(what, sizeof what, "handle 0x%" PRIx64 " (%s)",
                  static_cast<uint64_t>(op.handle), op.entry);
  else
    std::snprintf(what, sizeof what, "the point-to-point messages of %s",
                  op.entry);
  fail_timeout(
      "%s on team %" PRId64 " (rank %d of %d) has not completed after %.1f s "
      "(IDTR_TIMEOUT=%g): %d of %d requests pending: %s; the peers have not "
      "posted the matching messages: a rank skipped this operation, called "
      "the operations of the team in a different order, or is stuck",
      what, t.id, t.rank, t.size, static_cast<double>(waited) / 1e9,
      timeout_seconds(), pending, n, list.c_str());
}

bool checks_enabled() {
  static const bool on = [] {
    const char *e = std::getenv("IDTR_NO_CHECKS");
    return !(e && *e && *e != '0');
  }();
  return on;
}

Span span_of(const void *base, int64_t es, int rank, const int64_t *sizes,
             const int64_t *strides) {
  int64_t lo = 0, hi = 0;
  for (int k = 0; k < rank; ++k) {
    if (sizes[k] == 0)
      return {};
    int64_t extent = (sizes[k] - 1) * strides[k];
    (extent < 0 ? lo : hi) += extent;
  }
  auto *p = static_cast<const std::byte *>(base);
  return {p + lo * es, p + (hi + 1) * es};
}

// Test hook: an MPI call with an invalid destination rank.
void _idtr_test_trigger_mpi_error(int64_t team) {
  EntryScope es("_idtr_test_trigger_mpi_error");
  auto t = get_team(team);
  if (t->is_local())
    fail("team 0 has no communicator");
  int dummy = 0;
  MPI_Send(&dummy, 1, MPI_INT, t->size + 5, 0, t->comm);
}

} // namespace idtr::detail

using namespace idtr::detail;

// ------------------------------------------------------------- C entries ---

IDTR_EXPORT int64_t _idtr_nprocs(int64_t team) {
  EntryScope es("_idtr_nprocs");
  return get_team(team, /*collective=*/false)->size;
}

IDTR_EXPORT int64_t _idtr_prank(int64_t team) {
  EntryScope es("_idtr_prank");
  return get_team(team, /*collective=*/false)->rank;
}

IDTR_EXPORT int64_t _idtr_register_team(int64_t fcomm) {
  EntryScope es("_idtr_register_team");
  ensure_mpi();
  if (fcomm < INT32_MIN || fcomm > INT32_MAX)
    fail("invalid Fortran communicator handle %" PRId64, fcomm);
  MPI_Comm c = MPI_Comm_f2c(static_cast<MPI_Fint>(fcomm));
  // Open MPI returns a null pointer for unknown handles, hence MPI_Comm{}.
  if (c == MPI_COMM_NULL || c == MPI_Comm{})
    fail("Fortran communicator handle %" PRId64
         " does not denote a valid communicator (MPI_COMM_NULL)",
         fcomm);
  int inter = 0;
  IDTR_MPI(MPI_Comm_test_inter(c, &inter));
  if (inter)
    fail("intercommunicators are not supported as teams");
  State &s = st();
  auto t = std::make_shared<Team>();
  t->parent = c;
  std::lock_guard<std::mutex> lk(s.mu);
  t->id = static_cast<int64_t>(s.teams.size());
  make_private_comm(s, *t, /*published=*/false);
  s.teams.push_back(t);
  return t->id;
}

IDTR_EXPORT void _idtr_unregister_team(int64_t team) {
  EntryScope es("_idtr_unregister_team");
  if (team < 2)
    fail("team %" PRId64 " cannot be unregistered (only teams >= 2 from "
         "_idtr_register_team)",
         team);
  auto t = get_team(team, /*collective=*/false);
  cache_drop_team(team);
  State &s = st();
  std::lock_guard<std::mutex> lk(s.mu);
  free_grid_comms(*t);
  if (t->comm != MPI_COMM_NULL)
    run_collective(*t, "MPI_Comm_free (the team's private communicator)",
                   [&] { return MPI_Comm_free(&t->comm); });
  s.teams[team].reset();
}

namespace {
/// Removes the op of a non-zero handle from the table (error if unknown).
std::unique_ptr<AsyncOp> take_op(int64_t handle) {
  State &s = st();
  std::unique_ptr<AsyncOp> op;
  {
    std::lock_guard<std::mutex> lk(s.hmu);
    auto it = s.ops.find(handle);
    if (it == s.ops.end()) {
      uint64_t u = static_cast<uint64_t>(handle);
      if ((u & kHandleMagicMask) == kHandleMagic &&
          (u & ~kHandleMagicMask) < s.next_handle)
        fail("bad handle 0x%" PRIx64
             ": this handle was already waited for (each handle must be "
             "waited exactly once)",
             u);
      fail("bad handle 0x%" PRIx64
           ": not a handle returned by an idtr operation",
           u);
    }
    op = std::move(it->second);
    s.ops.erase(it);
  }
  return op;
}

/// The span of the memref argument `name` (elements of `es` bytes).
Span argument_span(const char *name, int64_t rank, void *desc, int64_t es) {
  if (!desc)
    fail("argument '%s': null memref descriptor", name);
  if (rank < 0 || rank > kMaxRank)
    fail("argument '%s': memref rank %" PRId64 " not supported (0..%d)", name,
         rank, kMaxRank);
  idtr::MemRef<std::byte> m(rank, desc);
  int64_t sizes[kMaxRank], strides[kMaxRank];
  for (int k = 0; k < rank; ++k) {
    sizes[k] = m.size(k);
    strides[k] = m.stride(k);
    if (sizes[k] < 0)
      fail("argument '%s': negative size %" PRId64 " in dimension %d", name,
           sizes[k], k);
  }
  return span_of(m.aligned() + m.offset() * es, es, static_cast<int>(rank),
                 sizes, strides);
}

/// The buffers passed to _idtr_wait_buffers are exactly the arrays of `op`:
/// each lies in one of them, and each non-empty array of the op is passed.
void check_wait_buffers(const AsyncOp &op, const Span *given,
                        const char *const *names, int ngiven) {
  bool passed[kMaxOpArrays] = {};
  for (int g = 0; g < ngiven; ++g) {
    if (given[g].empty())
      continue;
    bool found = false;
    for (int a = 0; a < op.narrays; ++a) {
      if (op.arrays[a].empty() || !op.arrays[a].contains(given[g]))
        continue;
      found = passed[a] = true;
    }
    if (!found)
      fail("argument '%s' (bytes [%p, %p)) is not one of the arrays of the "
           "%s operation this handle belongs to: pass the input and the "
           "outputs the operation was started with",
           names[g], static_cast<const void *>(given[g].lo),
           static_cast<const void *>(given[g].hi), op.entry);
  }
  for (int a = 0; a < op.narrays; ++a)
    if (!op.arrays[a].empty() && !passed[a])
      fail("the %s '%s' of the %s operation this handle belongs to (bytes "
           "[%p, %p)) was not passed: the buffers of every input and output "
           "must be kept alive until the wait and passed to it",
           a == 0 ? "input" : "output", op.array_names[a], op.entry,
           static_cast<const void *>(op.arrays[a].lo),
           static_cast<const void *>(op.arrays[a].hi));
}
} // namespace

IDTR_EXPORT void _idtr_wait(int64_t handle) {
  EntryScope es("_idtr_wait");
  if (handle == 0)
    return;
  // Declared before the op: its destruction (buffer release) is counted too.
  StatTimer timer(-1, IDTR_CNT_WAIT_NS);
  std::unique_ptr<AsyncOp> op = take_op(handle);
  timer.set_kind(op->stat_kind);
  complete_op(*op);
}

IDTR_EXPORT void _idtr_wait_buffers(int64_t handle, IDTR_MEMREF(a),
                                    IDTR_MEMREF(b), IDTR_MEMREF(c)) {
  EntryScope es("_idtr_wait_buffers");
  if (handle == 0)
    return;
  StatTimer timer(-1, IDTR_CNT_WAIT_NS);
  std::unique_ptr<AsyncOp> op = take_op(handle);
  timer.set_kind(op->stat_kind);
  if (checks_enabled()) {
    const char *names[3] = {"a", "b", "c"};
    Span given[3] = {argument_span("a", a_rank, a_desc, op->elem_size),
                     argument_span("b", b_rank, b_desc, op->elem_size),
                     argument_span("c", c_rank, c_desc, op->elem_size)};
    check_wait_buffers(*op, given, names, 3);
  }
  complete_op(*op);
}

IDTR_EXPORT int64_t _idtr_stats(int64_t kind, int64_t counter) {
  EntryScope es("_idtr_stats");
  if (kind < 0 || kind > IDTR_STAT_ALL || counter < 0 ||
      counter >= IDTR_NCOUNTERS)
    fail("invalid statistics kind %" PRId64 " / counter %" PRId64, kind,
         counter);
  if (kind == IDTR_STAT_ALL) {
    int64_t s = 0;
    for (int k = 0; k < IDTR_STAT_NKINDS; ++k)
      s += g_stats[k][counter].load(std::memory_order_relaxed);
    return s;
  }
  return g_stats[kind][counter].load(std::memory_order_relaxed);
}

IDTR_EXPORT void _idtr_reset_stats(void) {
  for (auto &row : g_stats)
    for (auto &c : row)
      c.store(0, std::memory_order_relaxed);
}
