// Typed data movement of libidtr: strided copy kernels, plan execution (halo
// exchange, repartition, reshape and permute copies) and their extern "C"
// entry points for every element type (gathers and the ragged all-to-all:
// gather.cpp; reductions: collectives.cpp).
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

namespace idtr::detail {
namespace {

/// Copy elements [fstart, fstart+count) of v's row-major order to/from buf.
template <class T>
void copy_flat(const View<T> &v, int64_t fstart, int64_t count, T *buf,
               bool to_buf) {
  if (count <= 0)
    return;
  if (is_dense(v)) {
    if (to_buf)
      std::memcpy(buf, v.base + fstart, sizeof(T) * count);
    else
      std::memcpy(v.base + fstart, buf, sizeof(T) * count);
    return;
  }
  const int r = v.rank; // >= 1 here (rank 0 views are dense)
  int64_t idx[kMaxRank];
  int64_t rem = fstart;
  for (int k = r - 1; k >= 0; --k) {
    idx[k] = rem % v.sizes[k];
    rem /= v.sizes[k];
  }
  const int64_t last = v.sizes[r - 1], ls = v.strides[r - 1];
  while (count > 0) {
    T *p = v.base;
    for (int k = 0; k < r; ++k)
      p += idx[k] * v.strides[k];
    int64_t run = std::min(count, last - idx[r - 1]);
    if (to_buf)
      for (int64_t i = 0; i < run; ++i)
        buf[i] = p[i * ls];
    else
      for (int64_t i = 0; i < run; ++i)
        p[i * ls] = buf[i];
    buf += run;
    count -= run;
    idx[r - 1] += run;
    for (int k = r - 1; k > 0 && idx[k] == v.sizes[k]; --k) {
      idx[k] = 0;
      ++idx[k - 1];
    }
  }
}

// --------------------------------------------------------------- execute ---

template <class T>
void local_copy(const View<T> &src, const Region &sr, const View<T> &dst,
                const Region &dr) {
  if (!sr.flat) {
    copy_view(subview(dst, dr), subview(src, sr));
    return;
  }
  if (is_dense(dst)) {
    copy_flat(src, sr.fstart, sr.count, dst.base + dr.fstart, true);
  } else if (is_dense(src)) {
    copy_flat(dst, dr.fstart, dr.count, src.base + sr.fstart, false);
  } else {
    std::unique_ptr<T[]> tmp(new T[sr.count]);
    copy_flat(src, sr.fstart, sr.count, tmp.get(), true);
    copy_flat(dst, dr.fstart, dr.count, tmp.get(), false);
  }
}

template <class T> Span view_span(const View<T> &v) {
  return detail::span_of(v.base, sizeof(T), v.rank, v.sizes, v.strides);
}

/// Region `r` of `v` where it is contiguous in memory, else null.
template <class T> T *dense_region(const View<T> &v, const Region &r) {
  if (r.flat)
    return is_dense(v) ? v.base + r.fstart : nullptr;
  View<T> sv = subview(v, r);
  return is_dense(sv) ? sv.base : nullptr;
}

/// Copies region `r` of `v` to the contiguous `buf` (`to_buf`) or back.
template <class T>
void copy_region(const View<T> &v, const Region &r, T *buf, bool to_buf) {
  if (r.flat) {
    copy_flat(v, r.fstart, r.count, buf, to_buf);
    return;
  }
  View<T> sv = subview(v, r), dense = dense_view(buf, sv.sizes, sv.rank);
  if (to_buf)
    copy_view(dense, sv);
  else
    copy_view(sv, dense);
}

/// Where a receive into region `r` of `o` lands: `o` itself where the region
/// is dense, else a buffer of `op` copied into it when the op completes.
template <class T>
T *receive_buffer(AsyncOp &op, const View<T> &o, const Region &r) {
  if (T *p = dense_region(o, r))
    return p;
  T *p = alloc_buffer<T>(op, r.count);
  op.finish.push_back([o, r, p] { copy_region(o, r, p, false); });
  return p;
}

/// The elements of region `r` of `src`, contiguous: in place where dense,
/// else packed into a buffer of `op`.
template <class T>
T *send_buffer(AsyncOp &op, const View<T> &src, const Region &r) {
  if (T *p = dense_region(src, r))
    return p;
  T *p = alloc_buffer<T>(op, r.count);
  copy_region(src, r, p, true);
  return p;
}

/// Run a plan: post receives, pack and post sends and broadcasts, do local
/// copies. Returns a handle (0 if nothing is outstanding). `names` names the
/// input and the `nouts` outputs for _idtr_wait_buffers.
template <class TR>
int64_t execute(const std::shared_ptr<Team> &team, const Plan &plan,
                uint32_t seq, const View<typename TR::T> &src,
                const View<typename TR::T> *outs, int nouts,
                const char *const *names, int kind, const char *entry,
                const View<typename TR::T> *registered = nullptr) {
  using T = typename TR::T;
  constexpr int64_t es = sizeof(T);
  for (const Xfer &x : plan.locals) {
    local_copy(src, x.src, outs[x.out], x.dst);
    stat_add(kind, IDTR_CNT_LOCAL_BYTES, es * x.src.count);
  }
  if (plan.sends.empty() && plan.recvs.empty() && plan.bcasts.empty())
    return 0;
  auto op = std::make_unique<AsyncOp>();
  op->team = team;
  op->entry = entry;
  op->stat_kind = kind;
  op->elem_size = es;
  // The arrays _idtr_wait_buffers expects: the input and the outputs, or
  // the one buffer `registered` the outputs are views of.
  const int narrays = registered ? 1 : nouts;
  op->narrays = 1 + narrays;
  op->arrays[0] = view_span(src);
  op->array_names[0] = names[0];
  for (int i = 0; i < narrays; ++i) {
    op->arrays[1 + i] = view_span(registered ? *registered : outs[i]);
    op->array_names[1 + i] = names[1 + i];
  }
  const size_t nreqs =
      plan.sends.size() + plan.recvs.size() + plan.bcasts.size();
  op->reqs.reserve(nreqs);
  op->req_info.reserve(nreqs);
  for (const Xfer &x : plan.recvs) {
    post<TR>(*op, false, receive_buffer(*op, outs[x.out], x.dst), x.dst.count,
             x.peer, make_tag(seq, x.sub), team->comm);
    stat_add(kind, IDTR_CNT_MSGS_RECV, 1);
    stat_add(kind, IDTR_CNT_BYTES_RECV, es * x.dst.count);
  }
  for (const Xfer &x : plan.sends) {
    post<TR>(*op, true, send_buffer(*op, src, x.src), x.src.count, x.peer,
             make_tag(seq, x.sub), team->comm);
    stat_add(kind, IDTR_CNT_MSGS_SENT, 1);
    stat_add(kind, IDTR_CNT_BYTES_SENT, es * x.src.count);
  }
  for (const Xfer &x : plan.bcasts) {
    const bool root = x.peer == team->rank;
    if (root)
      post_bcast<TR>(*op, send_buffer(*op, src, x.src), x.src.count, x.peer,
                     true, team->comm);
    else
      post_bcast<TR>(*op, receive_buffer(*op, outs[x.out], x.dst), x.dst.count,
                     x.peer, false, team->comm);
    stat_add(kind, IDTR_CNT_COLLECTIVES, 1);
    if (root)
      stat_add(kind, IDTR_CNT_COLL_BYTES, es * x.src.count);
  }
  return register_op(std::move(op));
}

// ------------------------------------------------------ collective checks ---

// ------------------------------------------------------------ operations ---

const char *const kInOut[] = {"in", "out"};

/// The argument 'boxes': boxes of an array of rank `d`, each its `d`
/// offsets then its `d` sizes.
std::vector<int64_t> read_boxes(int64_t xr, void *xd, int d) {
  if (!xd)
    fail("argument 'boxes': null memref descriptor");
  if (xr != 1 || MemRef<int64_t>(1, xd).size(0) % (2 * d) != 0)
    fail("argument 'boxes' must be a rank-1 memref<?xindex> of (offsets, "
         "sizes) pairs of %d entries each",
         2 * d);
  return read_index_table("boxes", xr, xd, MemRef<int64_t>(1, xd).size(0));
}

template <class TR>
int64_t update_halo(const char *entry, int64_t team, int64_t dr, void *dd,
                    int64_t gr, void *gd, int64_t lr, void *ld, int64_t bor,
                    void *bod, int64_t bsr, void *bsd, int64_t lhr, void *lhd,
                    int64_t rhr, void *rhd, int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_HALO, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_HALO, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  const int split = 0;
  View<T> data = make_view<T>("data", dr, dd, Use::In);
  const int d = data.rank;
  if (d < 1)
    fail("argument 'data': distributed arrays must have rank >= 1");
  auto g = read_index("gshape", gr, gd, d);
  auto lo = read_index("loffs", lr, ld, d);
  auto bbo = read_index("bb_offs", bor, bod, d);
  auto bbs = read_index("bb_sizes", bsr, bsd, d);
  check_block("data", data, g, lo, split);
  check_box("bounding box", bbo, bbs, g);
  View<T> halos[2] = {make_view<T>("lhalo", lhr, lhd, Use::Out),
                      make_view<T>("rhalo", rhr, rhd, Use::Out)};
  const int64_t own_lo = lo[split], own_hi = lo[split] + data.sizes[split];
  const int64_t bb_lo = bbo[split], bb_hi = bbo[split] + bbs[split];
  const int64_t rows[2] = {
      std::max<int64_t>(0, std::min(own_lo, bb_hi) - bb_lo),
      std::max<int64_t>(0, bb_hi - std::max(own_hi, bb_lo))};
  const char *names[2] = {"lhalo", "rhalo"};
  for (int h = 0; h < 2; ++h) {
    bool ok = halos[h].rank == d;
    for (int k = 0; ok && k < d; ++k)
      ok = halos[h].sizes[k] == (k == split ? rows[h] : bbs[k]);
    if (!ok) {
      Idx want = bbs;
      want[split] = rows[h];
      fail("argument '%s' has shape %s but the bounding box (offsets %s, sizes "
           "%s) and the owned rows [%" PRId64 ", %" PRId64 ") require %s",
           names[h], fmt_vec(halos[h].sizes, halos[h].rank).c_str(),
           fmt_vec(bbo).c_str(), fmt_vec(bbs).c_str(), own_lo, own_hi,
           fmt_vec(want).c_str());
    }
  }
  if (check_collectives())
    check_call(*t, plan_sig(entry, "key", key, "gshape", g));
  uint32_t seq = next_seq(*t);
  auto meta =
      make_box_meta(d, g.data(), lo.data(), data.sizes, bbo.data(), bbs.data());
  auto plan =
      get_plan(kPlanHalo, *t, key, IDTR_STAT_HALO, meta,
               [&](const Rec &m) { return build_halo_plan(*t, split, m); });
  static const char *const kHaloNames[] = {"data", "lhalo", "rhalo"};
  return execute<TR>(t, *plan, seq, data, halos, 2, kHaloNames, IDTR_STAT_HALO,
                     entry);
}

template <class TR>
int64_t repartition(const char *entry, int64_t team, int64_t ir, void *id,
                    int64_t gr, void *gd, int64_t lr, void *ld, int64_t tor,
                    void *tod, int64_t tsr, void *tsd, int64_t orr, void *od,
                    int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_REPARTITION, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_REPARTITION, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  const int d = in.rank;
  if (d < 1)
    fail("argument 'in': distributed arrays must have rank >= 1");
  auto g = read_index("gshape", gr, gd, d);
  auto lo = read_index("loffs_in", lr, ld, d);
  auto to = read_index("target_offs", tor, tod, d);
  auto ts = read_index("target_sizes", tsr, tsd, d);
  check_box_block("in", in, g, lo);
  check_box("target block", to, ts, g);
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  if (out.rank != d || !std::equal(ts.begin(), ts.end(), out.sizes))
    fail("argument 'out' has shape %s but target_sizes is %s",
         fmt_vec(out.sizes, out.rank).c_str(), fmt_vec(ts).c_str());
  if (check_collectives())
    check_call(*t, plan_sig(entry, "key", key, "gshape", g));
  uint32_t seq = next_seq(*t);
  auto meta =
      make_box_meta(d, g.data(), lo.data(), in.sizes, to.data(), ts.data());
  auto plan =
      get_plan(kPlanRepart, *t, key, IDTR_STAT_REPARTITION, meta,
               [&](const Rec &m) { return build_repart_plan(*t, 0, m); });
  return execute<TR>(t, *plan, seq, in, &out, 1, kInOut, IDTR_STAT_REPARTITION,
                     entry);
}

template <class TR>
int64_t fetch_boxes(const char *entry, int64_t team, int64_t ir, void *id,
                    int64_t gr, void *gd, int64_t lr, void *ld, int64_t xr,
                    void *xd, int64_t orr, void *od, int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_REPARTITION, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_REPARTITION, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  const int d = in.rank;
  if (d < 1)
    fail("argument 'in': distributed arrays must have rank >= 1");
  auto g = read_index("gshape", gr, gd, d);
  auto lo = read_index("loffs_in", lr, ld, d);
  check_box_block("in", in, g, lo);
  auto boxes = read_boxes(xr, xd, d);
  const size_t nboxes = boxes.size() / (2 * d);
  // Box b is stored row-major after the boxes before it.
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  std::vector<View<T>> views(nboxes);
  int64_t total = 0;
  for (size_t b = 0; b < nboxes; ++b) {
    Idx off(d), size(d);
    for (int k = 0; k < d; ++k) {
      off[k] = boxes[b * 2 * d + k];
      size[k] = boxes[b * 2 * d + d + k];
    }
    check_box("box", off, size, g);
    views[b] = dense_view(out.base + total, size.data(), d);
    int64_t n = 1;
    for (int64_t s : size)
      n *= s;
    total += n;
  }
  if (out.rank != 1 || out.sizes[0] != total ||
      (total > 1 && out.strides[0] != 1))
    fail("argument 'out' must be a contiguous rank-1 memref of the %" PRId64
         " elements of the boxes, got shape %s",
         total, fmt_vec(out.sizes, out.rank).c_str());
  if (check_collectives())
    check_call(*t, plan_sig(entry, "key", key, "gshape", g));
  uint32_t seq = next_seq(*t);
  Idx zero(d);
  auto meta =
      make_ghost_meta(d, g.data(), lo.data(), in.sizes, zero.data(), boxes);
  auto plan =
      get_plan(kPlanBoxes, *t, key, IDTR_STAT_REPARTITION, meta,
               [&](const Rec &m) { return build_boxes_plan(*t, m, boxes); });
  return execute<TR>(t, *plan, seq, in, views.data(), static_cast<int>(nboxes),
                     kInOut, IDTR_STAT_REPARTITION, entry, &out);
}

template <class TR>
int64_t exchange_ghosts(const char *entry, int64_t team, int64_t br, void *bd,
                        int64_t gr, void *gd, int64_t bor, void *bod,
                        int64_t oor, void *ood, int64_t osr, void *osd,
                        int64_t xr, void *xd, int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_HALO, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_HALO, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> buf = make_view<T>("buf", br, bd, Use::Out);
  const int d = buf.rank;
  if (d < 1)
    fail("argument 'buf': distributed arrays must have rank >= 1");
  auto g = read_index("gshape", gr, gd, d);
  auto bo = read_index("buf_offs", bor, bod, d);
  auto oo = read_index("own_offs", oor, ood, d);
  auto os = read_index("own_sizes", osr, osd, d);
  auto boxes = read_boxes(xr, xd, d);
  check_box("owned block", oo, os, g);
  // Every box, and the owned block, must lie in the buffer.
  Idx bs(d);
  for (int k = 0; k < d; ++k)
    bs[k] = buf.sizes[k];
  auto inside = [&](const int64_t *off, const int64_t *size) {
    for (int k = 0; k < d; ++k)
      if (size[k] > 0 &&
          (off[k] < bo[k] || off[k] + size[k] > bo[k] + buf.sizes[k]))
        return false;
    return true;
  };
  if (!inside(oo.data(), os.data()))
    fail("the owned block (offsets %s, sizes %s) does not lie in the buffer "
         "(offsets %s, sizes %s)",
         fmt_vec(oo).c_str(), fmt_vec(os).c_str(), fmt_vec(bo).c_str(),
         fmt_vec(bs).c_str());
  for (size_t b = 0; b < boxes.size(); b += 2 * d) {
    Idx off(d), size(d);
    for (int k = 0; k < d; ++k) {
      off[k] = boxes[b + k];
      size[k] = boxes[b + d + k];
    }
    check_box("box", off, size, g);
    if (!inside(off.data(), size.data()))
      fail("box %zu (offsets %s, sizes %s) does not lie in the buffer "
           "(offsets %s, sizes %s)",
           b / (2 * d), fmt_vec(off).c_str(), fmt_vec(size).c_str(),
           fmt_vec(bo).c_str(), fmt_vec(bs).c_str());
  }
  if (check_collectives())
    check_call(*t, plan_sig(entry, "key", key, "gshape", g));
  uint32_t seq = next_seq(*t);
  auto meta =
      make_ghost_meta(d, g.data(), oo.data(), os.data(), bo.data(), boxes);
  auto plan =
      get_plan(kPlanGhost, *t, key, IDTR_STAT_HALO, meta,
               [&](const Rec &m) { return build_ghost_plan(*t, m, boxes); });
  static const char *const kBufNames[] = {"buf", "buf"};
  return execute<TR>(t, *plan, seq, buf, &buf, 1, kBufNames, IDTR_STAT_HALO,
                     entry);
}

template <class TR>
int64_t copy_reshape(const char *entry, int64_t team, int64_t ir, void *id,
                     int64_t gir, void *gid, int64_t lir, void *lid,
                     int64_t gor, void *god, int64_t lor, void *lod,
                     int64_t orr, void *od, int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_RESHAPE, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_RESHAPE, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  if (in.rank < 1 || out.rank < 1)
    fail("distributed arrays must have rank >= 1 (in: %d, out: %d)", in.rank,
         out.rank);
  auto gi = read_index("gshape_in", gir, gid, in.rank);
  auto li = read_index("loffs_in", lir, lid, in.rank);
  auto go = read_index("gshape_out", gor, god, out.rank);
  auto lo = read_index("loffs_out", lor, lod, out.rank);
  check_block("in", in, gi, li, 0);
  check_block("out", out, go, lo, 0);
  int64_t ni = 1, no = 1;
  for (int64_t v : gi)
    if (__builtin_mul_overflow(ni, v, &ni))
      fail("gshape_in element count overflows");
  for (int64_t v : go)
    if (__builtin_mul_overflow(no, v, &no))
      fail("gshape_out element count overflows");
  if (ni != no)
    fail("cannot reshape an array of shape %s (%" PRId64
         " elements) into shape %s (%" PRId64 " elements)",
         fmt_vec(gi).c_str(), ni, fmt_vec(go).c_str(), no);
  if (check_collectives())
    check_call(*t,
               plan_sig(entry, "key", key, "gshape_in", gi, "gshape_out", &go));
  uint32_t seq = next_seq(*t);
  auto meta = make_reshape_meta(in.rank, gi.data(), out.rank, go.data(), li[0],
                                in.sizes[0], lo[0], out.sizes[0]);
  auto plan = get_plan(kPlanReshape, *t, key, IDTR_STAT_RESHAPE, meta,
                       [&](const Rec &m) { return build_reshape_plan(*t, m); });
  return execute<TR>(t, *plan, seq, in, &out, 1, kInOut, IDTR_STAT_RESHAPE,
                     entry);
}

template <class TR>
int64_t copy_permute(const char *entry, int64_t team, int64_t ir, void *id,
                     int64_t gir, void *gid, int64_t lir, void *lid, int64_t pr,
                     void *pd, int64_t orr, void *od, int64_t key) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_PERMUTE, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_PERMUTE, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  const int d = in.rank;
  if (d < 1)
    fail("argument 'in': distributed arrays must have rank >= 1");
  auto gi = read_index("gshape_in", gir, gid, d);
  auto li = read_index("loffs_in", lir, lid, d);
  auto perm = read_index("perm", pr, pd, d);
  check_block("in", in, gi, li, 0);
  {
    std::vector<bool> seen(d, false);
    for (int64_t v : perm) {
      if (v < 0 || v >= d || seen[v])
        fail("perm %s is not a permutation of 0..%d", fmt_vec(perm).c_str(),
             d - 1);
      seen[v] = true;
    }
  }
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  bool ok = out.rank == d && out.sizes[0] <= gi[perm[0]];
  for (int k = 1; ok && k < d; ++k)
    ok = out.sizes[k] == gi[perm[k]];
  if (!ok) {
    std::vector<int64_t> go(d);
    for (int k = 0; k < d; ++k)
      go[k] = gi[perm[k]];
    fail("argument 'out' has shape %s, which is not a block of dimension 0 of "
         "the permuted global shape %s",
         fmt_vec(out.sizes, out.rank).c_str(), fmt_vec(go).c_str());
  }
  if (check_collectives())
    check_call(*t, plan_sig(entry, "key", key, "gshape_in", gi, "perm", &perm));
  uint32_t seq = next_seq(*t);
  auto meta = make_permute_meta(d, gi.data(), perm.data(), li[0], in.sizes[0],
                                out.sizes[0]);
  auto plan = get_plan(kPlanPermute, *t, key, IDTR_STAT_PERMUTE, meta,
                       [&](const Rec &m) { return build_permute_plan(*t, m); });
  return execute<TR>(t, *plan, seq, in, &out, 1, kInOut, IDTR_STAT_PERMUTE,
                     entry);
}

} // namespace

} // namespace idtr::detail

// ------------------------------------------------------ C entry points ---

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE(S, TR)                                                     \
  IDTR_EXPORT int64_t _idtr_update_halo_##S(int64_t team, M(data), M(gshape),  \
                                            M(loffs), M(bbo), M(bbs), M(lh),   \
                                            M(rh), int64_t key) {              \
    return update_halo<TR>("_idtr_update_halo_" #S, team, A(data), A(gshape),  \
                           A(loffs), A(bbo), A(bbs), A(lh), A(rh), key);       \
  }                                                                            \
  IDTR_EXPORT int64_t _idtr_exchange_ghosts_##S(int64_t team, M(buf), M(g),    \
                                                M(bo), M(oo), M(os), M(boxes), \
                                                int64_t key) {                 \
    return exchange_ghosts<TR>("_idtr_exchange_ghosts_" #S, team, A(buf),      \
                               A(g), A(bo), A(oo), A(os), A(boxes), key);      \
  }                                                                            \
  IDTR_EXPORT int64_t _idtr_fetch_boxes_##S(int64_t team, M(in), M(g), M(lo),  \
                                            M(boxes), M(out), int64_t key) {   \
    return fetch_boxes<TR>("_idtr_fetch_boxes_" #S, team, A(in), A(g), A(lo),  \
                           A(boxes), A(out), key);                             \
  }                                                                            \
  IDTR_EXPORT int64_t _idtr_copy_reshape_##S(                                  \
      int64_t team, M(in), M(gi), M(li), M(go), M(lo), M(out), int64_t key) {  \
    return copy_reshape<TR>("_idtr_copy_reshape_" #S, team, A(in), A(gi),      \
                            A(li), A(go), A(lo), A(out), key);                 \
  }                                                                            \
  IDTR_EXPORT int64_t _idtr_copy_permute_##S(                                  \
      int64_t team, M(in), M(gi), M(li), M(perm), M(out), int64_t key) {       \
    return copy_permute<TR>("_idtr_copy_permute_" #S, team, A(in), A(gi),      \
                            A(li), A(perm), A(out), key);                      \
  }                                                                            \
  IDTR_EXPORT int64_t _idtr_repartition_##S(                                   \
      int64_t team, M(in), M(g), M(li), M(to), M(ts), M(out), int64_t key) {   \
    return repartition<TR>("_idtr_repartition_" #S, team, A(in), A(g), A(li),  \
                           A(to), A(ts), A(out), key);                         \
  }

IDTR_FOR_EACH_TRAIT(IDTR_DEFINE)
