// libidtr plan cache: communication plans (who sends which rows to whom)
// built once per call site (team, key) and reused while its metadata is
// unchanged.
#include "internal.hpp"

#include <cinttypes>
#include <map>
#include <mutex>
#include <tuple>

namespace idtr::detail {
namespace {

struct PlanCache {
  std::mutex mu;
  std::map<std::tuple<int, int64_t, int64_t>, std::shared_ptr<const Plan>>
      plans;
};

// Never destroyed: MPI finalization (at exit, after the destructors of
// statics constructed later than the atexit handler was registered) still
// clears it.
PlanCache &plan_cache() {
  static PlanCache *c = new PlanCache;
  return *c;
}

} // namespace

std::shared_ptr<const Plan> cache_lookup(int kind, int64_t team, int64_t key) {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  auto it = s.plans.find({kind, team, key});
  return it == s.plans.end() ? nullptr : it->second;
}

void cache_insert(int kind, int64_t team, int64_t key,
                  std::shared_ptr<const Plan> p) {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  s.plans[{kind, team, key}] = std::move(p);
}

void cache_drop_team(int64_t team) {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  for (auto it = s.plans.begin(); it != s.plans.end();) {
    if (std::get<1>(it->first) == team)
      it = s.plans.erase(it);
    else
      ++it;
  }
}

void cache_forget(int64_t team, int64_t key) {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  for (int kind : {kPlanHalo, kPlanReshape, kPlanPermute, kPlanRepart,
                   kPlanGhost, kPlanBoxes})
    s.plans.erase({kind, team, key});
}

std::pair<int64_t, int64_t> cache_memory() {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  int64_t bytes = 0;
  for (const auto &entry : s.plans) {
    const Plan &p = *entry.second;
    bytes += sizeof(Plan) + sizeof(entry);
    for (const std::vector<Xfer> *xfers :
         {&p.sends, &p.recvs, &p.locals, &p.bcasts})
      bytes += static_cast<int64_t>(xfers->capacity() * sizeof(Xfer));
  }
  return {static_cast<int64_t>(s.plans.size()), bytes};
}

std::shared_ptr<const Plan>
get_plan(int kind, Team &t, int64_t key, int stat_kind, const Rec &meta,
         const std::function<std::shared_ptr<Plan>(const Rec &)> &build) {
  if (key >= 0) {
    if (auto p = cache_lookup(kind, t.id, key)) {
      if (p->meta != meta)
        fail("plan cache key %" PRId64
             " was reused with different arguments on this rank (cached "
             "metadata %s, now %s); keys must identify one call site with "
             "fixed shapes and partitions (or be released with "
             "_idtr_forget_plan before its metadata changes)",
             key, fmt_vec(p->meta).c_str(), fmt_vec(meta).c_str());
      stat_add(stat_kind, IDTR_CNT_CACHE_HITS, 1);
      return p;
    }
    stat_add(stat_kind, IDTR_CNT_CACHE_MISSES, 1);
  }
  std::shared_ptr<Plan> p = build(meta);
  if (key >= 0)
    cache_insert(kind, t.id, key, p);
  return p;
}

void cache_clear() {
  PlanCache &s = plan_cache();
  std::lock_guard<std::mutex> lk(s.mu);
  s.plans.clear();
}

} // namespace idtr::detail

using namespace idtr::detail;

IDTR_EXPORT void _idtr_clear_cache(void) {
  cache_clear();
  staging_clear();
}

IDTR_EXPORT int64_t _idtr_memory(int64_t what) {
  EntryScope es("_idtr_memory");
  switch (what) {
  case IDTR_MEM_PLANS:
    return cache_memory().first;
  case IDTR_MEM_PLAN_BYTES:
    return cache_memory().second;
  case IDTR_MEM_STAGING_BYTES:
    return staging_bytes();
  case IDTR_MEM_STAGING_PEAK:
    return staging_peak();
  default:
    fail("argument 'what' must be one of IDTR_MEM_PLANS (0) ... "
         "IDTR_MEM_STAGING_PEAK (3), got %" PRId64,
         what);
  }
}

IDTR_EXPORT void _idtr_forget_plan(int64_t team, int64_t key) {
  EntryScope es("_idtr_forget_plan");
  get_team(team, /*collective=*/false); // error if unknown
  if (key < 0)
    fail("invalid plan cache key %" PRId64
         ": cached plans have keys >= 0 (a negative key means \"do not "
         "cache\", so there is nothing to forget)",
         key);
  cache_forget(team, key);
}
