// Communication plans (element-type independent): who sends which region of
// its local block to whom. Built from one allgather of fixed-size per-rank
// metadata records; cached by the caller under a key.
#include "internal.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <iterator>

namespace idtr::detail {
namespace {

// Box record layout (halo, repartition and ghost exchange):
//   [0] d, [1..16] gshape, [17..32] block_off, [33..48] block_size (the owned
//   block, a box of the global index space), [49..64] box_off,
//   [65..80] box_size (halo and repartition: the box this rank needs).
// The ghost exchange allgathers only the first kBlockLen entries and keeps
// its buffer offsets and a hash of its boxes in the box slots (cache check).
constexpr int kBoxD = 0, kBoxG = 1, kBoxOwnOff = 17, kBoxOwnSize = 33,
              kBoxOff = 49, kBoxSize = 65, kBoxLen = 81, kBlockLen = 49;
// Reshape record:
//   [0] din, [1..16] gin, [17] dout, [18..33] gout, [34] in_off, [35] in_rows,
//   [36] out_off, [37] out_rows
constexpr int kRsDin = 0, kRsGin = 1, kRsDout = 17, kRsGout = 18, kRsInOff = 34,
              kRsInRows = 35, kRsOutOff = 36, kRsOutRows = 37, kRsLen = 38;
// Permute record:
//   [0] d, [1..16] gin, [17..32] perm, [33] in_off, [34] in_rows, [35] out_rows
constexpr int kPmD = 0, kPmGin = 1, kPmPerm = 17, kPmInOff = 33, kPmInRows = 34,
              kPmOutRows = 35, kPmLen = 36;

struct Box {
  int64_t lo[kMaxRank];
  int64_t hi[kMaxRank];
};

bool box_empty(const Box &b, int d) {
  for (int k = 0; k < d; ++k)
    if (b.hi[k] <= b.lo[k])
      return true;
  return false;
}

int64_t box_volume(const Box &b, int d) {
  int64_t v = 1;
  for (int k = 0; k < d; ++k)
    v *= std::max<int64_t>(0, b.hi[k] - b.lo[k]);
  return v;
}

int64_t prod(const int64_t *v, int n) {
  int64_t p = 1;
  for (int i = 0; i < n; ++i)
    p *= v[i];
  return p;
}

Region box_region(int d, const int64_t *start, const int64_t *extent,
                  const int8_t *order = nullptr) {
  Region r;
  r.rank = static_cast<int8_t>(d);
  r.count = 1;
  for (int k = 0; k < d; ++k) {
    r.start[k] = start[k];
    r.extent[k] = extent[k];
    r.order[k] = order ? order[k] : static_cast<int8_t>(k);
    r.count *= extent[k];
  }
  return r;
}

Region flat_region(int64_t fstart, int64_t count) {
  Region r;
  r.flat = true;
  r.fstart = fstart;
  r.count = count;
  return r;
}

// Compare the global-shape part [from, to) of every rank's record with
// rank 0's; `show` formats that part of a record for the message.
using ShowFn = std::string (*)(const int64_t *rec);
void check_same(Team &t, const std::vector<int64_t> &all, int len, int from,
                int to, const char *what, ShowFn show) {
  const int64_t *r0 = all.data();
  for (int r = 1; r < t.size; ++r) {
    const int64_t *rr = all.data() + static_cast<size_t>(r) * len;
    if (!std::equal(r0 + from, r0 + to, rr + from))
      fail_collective(t.rank,
                      "%s differs between ranks: rank 0 passed %s but rank %d "
                      "passed %s",
                      what, show(r0).c_str(), r, show(rr).c_str());
  }
}

int64_t clamp_rank(int64_t d) {
  return std::min<int64_t>(std::max<int64_t>(d, 0), kMaxRank);
}

using BoxFn = bool (*)(const int64_t *rec, int split, int b, Box &out);

// Halo: box 0 = bounding-box rows before the owned rows, box 1 = after.
bool halo_box(const int64_t *rec, int split, int b, Box &out) {
  int d = static_cast<int>(rec[kBoxD]);
  for (int k = 0; k < d; ++k) {
    out.lo[k] = rec[kBoxOff + k];
    out.hi[k] = rec[kBoxOff + k] + rec[kBoxSize + k];
  }
  int64_t o = rec[kBoxOwnOff + split], n = rec[kBoxOwnSize + split];
  if (b == 0)
    out.hi[split] = std::min(out.hi[split], o);
  else
    out.lo[split] = std::max(out.lo[split], o + n);
  return !box_empty(out, d);
}

// Repartition: the single target box.
bool target_box(const int64_t *rec, int, int, Box &out) {
  int d = static_cast<int>(rec[kBoxD]);
  for (int k = 0; k < d; ++k) {
    out.lo[k] = rec[kBoxOff + k];
    out.hi[k] = rec[kBoxOff + k] + rec[kBoxSize + k];
  }
  return !box_empty(out, d);
}

// The owned block of `rec` (empty blocks give an empty box).
Box owned_box(const int64_t *rec) {
  Box b;
  int d = static_cast<int>(rec[kBoxD]);
  for (int k = 0; k < d; ++k) {
    b.lo[k] = rec[kBoxOwnOff + k];
    b.hi[k] = b.lo[k] + rec[kBoxOwnSize + k];
  }
  return b;
}

// The intersection of `a` and `b`; false if empty.
bool intersect(const Box &a, const Box &b, int d, Box &out) {
  for (int k = 0; k < d; ++k) {
    out.lo[k] = std::max(a.lo[k], b.lo[k]);
    out.hi[k] = std::min(a.hi[k], b.hi[k]);
  }
  return !box_empty(out, d);
}

// Regions of the global box `B` (non-empty) in a local array whose element 0
// holds global element `origin`.
Region region_in(const Box &B, const int64_t *origin, int d) {
  int64_t start[kMaxRank], ext[kMaxRank];
  for (int k = 0; k < d; ++k) {
    start[k] = B.lo[k] - origin[k];
    ext[k] = B.hi[k] - B.lo[k];
  }
  return box_region(d, start, ext);
}

// Box B of a requester intersected with the owned block of `rec_owner` ->
// (region in the owner's local block, region in the requester's output for
// B, which starts at B.lo).
bool intersect_owned(const int64_t *rec_owner, const Box &B, int d, Region &src,
                     Region &dst) {
  Box own = owned_box(rec_owner), I;
  if (!intersect(own, B, d, I))
    return false;
  src = region_in(I, own.lo, d);
  dst = region_in(I, B.lo, d);
  return true;
}

// Checks that the owned blocks of all ranks (records `all` of length `len`)
// tile the global shape; fails collectively otherwise. Blocks that span
// dimensions 1.. completely must lie in rank order along dimension 0 (the
// row partitions the compiler makes); other block distributions only need
// to be disjoint and cover the array.
void check_blocks(Team &t, const std::vector<int64_t> &all, int len,
                  const char *what) {
  const int p = t.size;
  const int64_t *r0 = all.data();
  const int d = static_cast<int>(r0[kBoxD]);
  const int64_t *g = r0 + kBoxG;
  std::vector<Box> blocks(p);
  bool rows_only = true;
  for (int r = 0; r < p; ++r) {
    const int64_t *rec = all.data() + static_cast<size_t>(r) * len;
    blocks[r] = owned_box(rec);
    for (int k = 0; k < d; ++k)
      if (rec[kBoxOwnSize + k] < 0)
        fail_collective(t.rank, "%s: rank %d has a negative block size %s",
                        what, r, fmt_vec(rec + kBoxOwnSize, d).c_str());
    // (Empty blocks, e.g. all rows and no column of an array without
    // columns, own nothing and lie anywhere.)
    for (int k = 1; k < d && !box_empty(blocks[r], d); ++k)
      rows_only &= blocks[r].lo[k] == 0 && blocks[r].hi[k] == g[k];
  }
  if (prod(g, d) == 0) {
    for (int r = 0; r < p; ++r)
      if (!box_empty(blocks[r], d))
        fail_collective(t.rank,
                        "%s: rank %d owns a non-empty block of an "
                        "empty array of shape %s",
                        what, r, fmt_vec(g, d).c_str());
    return;
  }
  if (rows_only) {
    std::vector<int64_t> offs(p), rows(p);
    for (int r = 0; r < p; ++r) {
      offs[r] = blocks[r].lo[0];
      rows[r] = box_empty(blocks[r], d) ? 0 : blocks[r].hi[0] - offs[r];
    }
    std::string err = check_tiling(offs, rows, d ? g[0] : 0);
    if (!err.empty())
      fail_collective(t.rank, "%s: %s", what, err.c_str());
    return;
  }
  // Disjoint (a sweep along dimension 0) and covering (total volume).
  std::vector<int> order;
  int64_t volume = 0;
  for (int r = 0; r < p; ++r)
    if (!box_empty(blocks[r], d)) {
      order.push_back(r);
      volume += box_volume(blocks[r], d);
    }
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return blocks[a].lo[0] < blocks[b].lo[0]; });
  Box I;
  for (size_t i = 0; i < order.size(); ++i)
    for (size_t j = i + 1;
         j < order.size() && blocks[order[j]].lo[0] < blocks[order[i]].hi[0];
         ++j)
      if (intersect(blocks[order[i]], blocks[order[j]], d, I)) {
        int a = std::min(order[i], order[j]), b = std::max(order[i], order[j]);
        fail_collective(
            t.rank,
            "%s: the blocks of rank %d (offsets %s, sizes %s) and rank "
            "%d (offsets %s, sizes %s) overlap",
            what, a,
            fmt_vec(all.data() + static_cast<size_t>(a) * len + kBoxOwnOff, d)
                .c_str(),
            fmt_vec(all.data() + static_cast<size_t>(a) * len + kBoxOwnSize, d)
                .c_str(),
            b,
            fmt_vec(all.data() + static_cast<size_t>(b) * len + kBoxOwnOff, d)
                .c_str(),
            fmt_vec(all.data() + static_cast<size_t>(b) * len + kBoxOwnSize, d)
                .c_str());
      }
  if (volume != prod(g, d))
    fail_collective(t.rank,
                    "%s: the blocks of all ranks hold %" PRId64
                    " elements but the array of shape %s has %" PRId64,
                    what, volume, fmt_vec(g, d).c_str(), prod(g, d));
}

// The first `len` entries of every rank's box record (one allgather), after
// checking that the ranks agree on the global shape and that their blocks
// tile it.
std::vector<int64_t> gather_blocks(Team &t, const Rec &meta, int len,
                                   const char *what) {
  std::vector<int64_t> all;
  allgather_i64(t, meta.data(), len, all);
  check_same(t, all, len, kBoxD, kBoxG + kMaxRank, "global shape",
             [](const int64_t *r) {
               return fmt_vec(r + kBoxG, clamp_rank(r[kBoxD]));
             });
  check_blocks(t, all, len, what);
  return all;
}

// The box every rank asks for (`rec`'s requested box), into `box`; false if
// the ranks ask for different boxes or for nothing.
bool common_box(const std::vector<int64_t> &all, int p, int d, Box &box) {
  const int64_t *r0 = all.data();
  for (int k = 0; k < d; ++k) {
    box.lo[k] = r0[kBoxOff + k];
    box.hi[k] = box.lo[k] + r0[kBoxSize + k];
  }
  if (box_empty(box, d))
    return false;
  for (int r = 1; r < p; ++r) {
    const int64_t *rec = all.data() + static_cast<size_t>(r) * kBoxLen;
    for (int k = 0; k < d; ++k)
      if (rec[kBoxOff + k] != r0[kBoxOff + k] ||
          rec[kBoxSize + k] != r0[kBoxSize + k])
        return false;
  }
  return true;
}

// Whether the halo boxes (the common box less each rank's own rows along
// `split`) give each owner's part of the common box whole to every other
// rank: the blocks span the other dimensions, and no empty block's offset
// cuts a non-empty block in two (its lower and upper halo would take one
// part each).
bool halo_parts_whole(const std::vector<int64_t> &all, int p, int d,
                      int split) {
  std::vector<std::pair<int64_t, int64_t>> rows; // non-empty, [lo, hi)
  std::vector<int64_t> cuts;                     // offsets of empty blocks
  for (int r = 0; r < p; ++r) {
    const int64_t *rec = all.data() + static_cast<size_t>(r) * kBoxLen;
    Box own = owned_box(rec);
    if (box_empty(own, d)) {
      cuts.push_back(rec[kBoxOwnOff + split]);
      continue;
    }
    for (int k = 0; k < d; ++k)
      if (k != split && (own.lo[k] != 0 || own.hi[k] != rec[kBoxG + k]))
        return false;
    rows.emplace_back(own.lo[split], own.hi[split]);
  }
  std::sort(rows.begin(), rows.end());
  for (int64_t c : cuts) {
    auto it =
        std::upper_bound(rows.begin(), rows.end(), c,
                         [](int64_t v, const std::pair<int64_t, int64_t> &b) {
                           return v < b.first;
                         });
    if (it != rows.begin() && c > std::prev(it)->first &&
        c < std::prev(it)->second)
      return false;
  }
  return true;
}

// Replaces the transfers of `plan` by broadcasts when every rank asks for
// the same box (a replicated read, `a[i]` on every rank) and each owner's
// part reaches every other rank whole: one MPI_Ibcast per owner, rooted
// there (O(log P) messages at the owner, not P - 1 sends). Every rank
// decides this from the same records, so all issue the same broadcasts in
// the same (rank) order.
void broadcast_common_parts(Plan &plan, const std::vector<int64_t> &all, int p,
                            int me, int d, const Box &box) {
  std::vector<Xfer> bcasts;
  for (int r = 0; r < p; ++r) {
    Box part;
    if (!intersect(owned_box(all.data() + static_cast<size_t>(r) * kBoxLen),
                   box, d, part))
      continue;
    if (r == me) {
      if (plan.sends.size() != static_cast<size_t>(p - 1))
        fail("internal error: rank %d broadcasts its part of a box but "
             "sends it to %zu of the %d other ranks",
             me, plan.sends.size(), p - 1);
      bcasts.push_back(plan.sends.front());
      bcasts.back().peer = me;
      continue;
    }
    auto from_r = [r](const Xfer &x) { return x.peer == r; };
    if (std::count_if(plan.recvs.begin(), plan.recvs.end(), from_r) != 1)
      fail("internal error: rank %d receives rank %d's part of a broadcast "
           "box in other than one piece",
           me, r);
    bcasts.push_back(
        *std::find_if(plan.recvs.begin(), plan.recvs.end(), from_r));
  }
  if (bcasts.size() != plan.recvs.size() + (plan.sends.empty() ? 0 : 1))
    fail("internal error: rank %d has transfers outside the broadcasts of a "
         "box every rank reads",
         me);
  plan.bcasts = std::move(bcasts);
  plan.sends.clear();
  plan.recvs.clear();
}

std::shared_ptr<Plan> build_box_plan(Team &t, int split, const Rec &meta,
                                     int nboxes, BoxFn boxfn) {
  std::vector<int64_t> all =
      gather_blocks(t, meta, kBoxLen, "invalid partition of the input");
  const int p = t.size, me = t.rank;
  auto rec = [&](int r) {
    return all.data() + static_cast<size_t>(r) * kBoxLen;
  };
  const int d = static_cast<int>(meta[kBoxD]);

  auto plan = std::make_shared<Plan>();
  plan->meta = meta;
  Box B;
  Region src, dst;
  // What I send (and copy locally).
  if (!box_empty(owned_box(rec(me)), d)) {
    for (int q = 0; q < p; ++q) {
      for (int b = 0; b < nboxes; ++b) {
        if (!boxfn(rec(q), split, b, B))
          continue;
        if (!intersect_owned(rec(me), B, d, src, dst))
          continue;
        Xfer x;
        x.peer = q;
        x.sub = b;
        x.out = b;
        x.src = src;
        x.dst = dst;
        (q == me ? plan->locals : plan->sends).push_back(x);
      }
    }
  }
  // What I receive: the owners whose blocks overlap my boxes.
  for (int b = 0; b < nboxes; ++b) {
    if (!boxfn(rec(me), split, b, B))
      continue;
    for (int r = 0; r < p; ++r) {
      if (r == me || !intersect_owned(rec(r), B, d, src, dst))
        continue;
      Xfer x;
      x.peer = r;
      x.sub = b;
      x.out = b;
      x.dst = dst;
      plan->recvs.push_back(x);
    }
  }
  // (With two ranks a broadcast is the one send.)
  Box box;
  if (p > 2 && common_box(all, p, d, box) &&
      (boxfn == target_box || halo_parts_whole(all, p, d, split)))
    broadcast_common_parts(*plan, all, p, me, d, box);
  return plan;
}

} // namespace

std::string check_tiling(const std::vector<int64_t> &offs,
                         const std::vector<int64_t> &rows, int64_t n) {
  int64_t pos = 0;
  char buf[512];
  for (size_t r = 0; r < offs.size(); ++r) {
    if (rows[r] < 0) {
      std::snprintf(buf, sizeof buf,
                    "rank %zu has a negative block size %" PRId64, r, rows[r]);
      return buf;
    }
    if (rows[r] == 0)
      continue;
    if (offs[r] != pos) {
      std::snprintf(
          buf, sizeof buf,
          "rank %zu owns rows [%" PRId64 ", %" PRId64
          ") but the blocks of the ranks before it end at row %" PRId64
          " (blocks must tile the split dimension in rank order)",
          r, offs[r], offs[r] + rows[r], pos);
      return buf;
    }
    pos += rows[r];
  }
  if (pos != n) {
    std::snprintf(buf, sizeof buf,
                  "the blocks of all ranks cover %" PRId64
                  " rows but the split dimension has %" PRId64,
                  pos, n);
    return buf;
  }
  return {};
}

Rec make_box_meta(int d, const int64_t *gshape, const int64_t *own_off,
                  const int64_t *own_size, const int64_t *box_off,
                  const int64_t *box_size) {
  Rec m(kBoxLen);
  m[kBoxD] = d;
  for (int k = 0; k < d; ++k) {
    m[kBoxG + k] = gshape[k];
    m[kBoxOwnOff + k] = own_off[k];
    m[kBoxOwnSize + k] = own_size[k];
    m[kBoxOff + k] = box_off[k];
    m[kBoxSize + k] = box_size[k];
  }
  return m;
}

std::shared_ptr<Plan> build_halo_plan(Team &t, int split, const Rec &meta) {
  return build_box_plan(t, split, meta, 2, halo_box);
}

std::shared_ptr<Plan> build_repart_plan(Team &t, int split, const Rec &meta) {
  return build_box_plan(t, split, meta, 1, target_box);
}

// ----------------------------------------------------------- ghost cells ---

Rec make_ghost_meta(int d, const int64_t *gshape, const int64_t *own_off,
                    const int64_t *own_size, const int64_t *buf_off,
                    const std::vector<int64_t> &boxes) {
  Rec m(kBoxLen);
  m[kBoxD] = d;
  for (int k = 0; k < d; ++k) {
    m[kBoxG + k] = gshape[k];
    m[kBoxOwnOff + k] = own_off[k];
    m[kBoxOwnSize + k] = own_size[k];
    m[kBoxOff + k] = buf_off[k];
  }
  // The boxes only enter the plan of this rank: a hash of them is enough to
  // recognise a cached plan reused with other boxes.
  uint64_t h = 0x9e3779b97f4a7c15ull ^ boxes.size();
  for (int64_t v : boxes) {
    h ^= static_cast<uint64_t>(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
  }
  m[kBoxSize] = static_cast<int64_t>(boxes.size());
  m[kBoxSize + 1] = static_cast<int64_t>(h);
  return m;
}

std::shared_ptr<Plan> build_ghost_plan(Team &t, const Rec &meta,
                                       const std::vector<int64_t> &boxes) {
  std::vector<int64_t> all =
      gather_blocks(t, meta, kBlockLen, "invalid block distribution");
  const int p = t.size, me = t.rank;
  const int d = static_cast<int>(meta[kBoxD]);
  auto block = [&](int r) {
    return owned_box(all.data() + static_cast<size_t>(r) * kBlockLen);
  };
  const int64_t *buf_off = meta.data() + kBoxOff;
  const size_t nboxes = boxes.size() / (2 * d);

  // From each other rank, the bounding box of the parts of my boxes in its
  // block (offsets, then sizes; all 0: nothing). For stencils this is
  // exactly what is read: a face for a face neighbour, a corner block for a
  // diagonal one only if a box reaches into it.
  std::vector<int64_t> want(static_cast<size_t>(p) * 2 * d, 0), got;
  std::vector<Box> wanted(p);
  for (int r = 0; r < p; ++r) {
    Box own = block(r), acc, I, B;
    bool any = false;
    for (size_t b = 0; r != me && b < nboxes; ++b) {
      for (int k = 0; k < d; ++k) {
        B.lo[k] = boxes[b * 2 * d + k];
        B.hi[k] = B.lo[k] + boxes[b * 2 * d + d + k];
      }
      if (!intersect(own, B, d, I))
        continue;
      for (int k = 0; k < d; ++k) {
        acc.lo[k] = any ? std::min(acc.lo[k], I.lo[k]) : I.lo[k];
        acc.hi[k] = any ? std::max(acc.hi[k], I.hi[k]) : I.hi[k];
      }
      any = true;
    }
    if (!any)
      continue;
    wanted[r] = acc;
    for (int k = 0; k < d; ++k) {
      want[static_cast<size_t>(r) * 2 * d + k] = acc.lo[k];
      want[static_cast<size_t>(r) * 2 * d + d + k] = acc.hi[k] - acc.lo[k];
    }
  }
  alltoall_i64(t, want.data(), 2 * d, got);

  auto plan = std::make_shared<Plan>();
  plan->meta = meta;
  const Box mine = block(me);
  for (int q = 0; q < p; ++q) {
    const int64_t *w = got.data() + static_cast<size_t>(q) * 2 * d;
    Box B;
    for (int k = 0; k < d; ++k) {
      B.lo[k] = w[k];
      B.hi[k] = w[k] + w[d + k];
    }
    if (q == me || box_empty(B, d))
      continue;
    Box I;
    if (!intersect(mine, B, d, I) || box_volume(I, d) != box_volume(B, d))
      fail_collective(t.rank,
                      "rank %d requested ghost cells %s+%s from rank %d, "
                      "which do not lie in its block",
                      q, fmt_vec(w, d).c_str(), fmt_vec(w + d, d).c_str(), me);
    Xfer x;
    x.peer = q;
    x.src = region_in(B, buf_off, d);
    plan->sends.push_back(x);
  }
  for (int r = 0; r < p; ++r) {
    if (box_empty(wanted[r], d))
      continue;
    Xfer x;
    x.peer = r;
    x.dst = region_in(wanted[r], buf_off, d);
    plan->recvs.push_back(x);
  }
  return plan;
}

std::shared_ptr<Plan> build_boxes_plan(Team &t, const Rec &meta,
                                       const std::vector<int64_t> &boxes) {
  std::vector<int64_t> all =
      gather_blocks(t, meta, kBlockLen, "invalid partition of the input");
  const int p = t.size, me = t.rank;
  const int d = static_cast<int>(meta[kBoxD]);
  const int64_t nboxes = static_cast<int64_t>(boxes.size()) / (2 * d);
  std::vector<int64_t> counts;
  allgather_i64(t, &nboxes, 1, counts);
  for (int r = 1; r < p; ++r)
    if (counts[r] != counts[0])
      fail_collective(t.rank,
                      "the number of boxes differs between ranks: rank 0 "
                      "passed %" PRId64 " but rank %d passed %" PRId64,
                      counts[0], r, counts[r]);
  auto block = [&](int r) {
    return owned_box(all.data() + static_cast<size_t>(r) * kBlockLen);
  };
  auto box = [&](const int64_t *entries) {
    Box B;
    for (int k = 0; k < d; ++k) {
      B.lo[k] = entries[k];
      B.hi[k] = entries[k] + entries[d + k];
    }
    return B;
  };
  // Tags: box b's messages get sub-channel b % 8; between two ranks both
  // sides post them in box order, so equal tags match in order.
  auto sub = [](int64_t b) { return static_cast<int>(b % 8); };
  const size_t stride = static_cast<size_t>(nboxes) * 2 * d;
  // What I want of each rank's block, per box (sizes 0: nothing).
  std::vector<int64_t> want(static_cast<size_t>(p) * stride, 0), got;
  auto plan = std::make_shared<Plan>();
  plan->meta = meta;
  const Box mine = block(me);
  for (int64_t b = 0; b < nboxes; ++b) {
    Box B = box(boxes.data() + b * 2 * d), I;
    for (int r = 0; r < p; ++r) {
      if (!intersect(block(r), B, d, I))
        continue;
      Xfer x;
      x.peer = r;
      x.sub = sub(b);
      x.out = static_cast<int>(b);
      x.dst = region_in(I, B.lo, d);
      if (r == me) {
        x.src = region_in(I, mine.lo, d);
        plan->locals.push_back(x);
        continue;
      }
      int64_t *w = want.data() + r * stride + b * 2 * d;
      for (int k = 0; k < d; ++k) {
        w[k] = I.lo[k];
        w[d + k] = I.hi[k] - I.lo[k];
      }
    }
  }
  alltoall_i64(t, want.data(), static_cast<int>(stride), got);
  // Receives per peer in box order (and sends below likewise).
  for (int r = 0; r < p; ++r)
    for (int64_t b = 0; b < nboxes; ++b) {
      const int64_t *w = want.data() + r * stride + b * 2 * d;
      Box I = box(w);
      if (r == me || box_empty(I, d))
        continue;
      Xfer x;
      x.peer = r;
      x.sub = sub(b);
      x.out = static_cast<int>(b);
      x.dst = region_in(I, box(boxes.data() + b * 2 * d).lo, d);
      plan->recvs.push_back(x);
    }
  for (int q = 0; q < p; ++q)
    for (int64_t b = 0; b < nboxes; ++b) {
      const int64_t *w = got.data() + q * stride + b * 2 * d;
      Box B = box(w), I;
      if (q == me || box_empty(B, d))
        continue;
      if (!intersect(mine, B, d, I) || box_volume(I, d) != box_volume(B, d))
        fail_collective(t.rank,
                        "rank %d requested %s+%s from rank %d, which does "
                        "not lie in its block",
                        q, fmt_vec(w, d).c_str(), fmt_vec(w + d, d).c_str(),
                        me);
      Xfer x;
      x.peer = q;
      x.sub = sub(b);
      x.src = region_in(B, mine.lo, d);
      plan->sends.push_back(x);
    }
  return plan;
}

// ---------------------------------------------------------------- reshape ---

Rec make_reshape_meta(int din, const int64_t *gin, int dout,
                      const int64_t *gout, int64_t in_off, int64_t in_rows,
                      int64_t out_off, int64_t out_rows) {
  Rec m(kRsLen);
  m[kRsDin] = din;
  m[kRsDout] = dout;
  std::copy(gin, gin + din, m.data() + kRsGin);
  std::copy(gout, gout + dout, m.data() + kRsGout);
  m[kRsInOff] = in_off;
  m[kRsInRows] = in_rows;
  m[kRsOutOff] = out_off;
  m[kRsOutRows] = out_rows;
  return m;
}

std::shared_ptr<Plan> build_reshape_plan(Team &t, const Rec &meta) {
  std::vector<int64_t> all;
  allgather_i64(t, meta.data(), kRsLen, all);
  check_same(t, all, kRsLen, kRsDin, kRsInOff, "input/output global shape",
             [](const int64_t *r) {
               return fmt_vec(r + kRsGin, clamp_rank(r[kRsDin])) + " -> " +
                      fmt_vec(r + kRsGout, clamp_rank(r[kRsDout]));
             });
  const int p = t.size, me = t.rank;
  auto rec = [&](int r) {
    return all.data() + static_cast<size_t>(r) * kRsLen;
  };
  const int din = static_cast<int>(meta[kRsDin]),
            dout = static_cast<int>(meta[kRsDout]);
  const int64_t *gin = meta.data() + kRsGin, *gout = meta.data() + kRsGout;
  std::vector<int64_t> io(p), ir(p), oo(p), orr(p);
  for (int r = 0; r < p; ++r) {
    io[r] = rec(r)[kRsInOff];
    ir[r] = rec(r)[kRsInRows];
    oo[r] = rec(r)[kRsOutOff];
    orr[r] = rec(r)[kRsOutRows];
  }
  std::string err = check_tiling(io, ir, gin[0]);
  if (!err.empty())
    fail_collective(t.rank, "invalid partition of the input: %s", err.c_str());
  err = check_tiling(oo, orr, gout[0]);
  if (!err.empty())
    fail_collective(t.rank, "invalid partition of the output: %s", err.c_str());

  auto plan = std::make_shared<Plan>();
  plan->meta = meta;
  const int64_t RI = prod(gin + 1, din - 1), RO = prod(gout + 1, dout - 1);
  if (RI == 0 || RO == 0)
    return plan; // no elements
  // Flat (row-major) element range of rank r's input / output block.
  auto in_rng = [&](int r, int64_t &a, int64_t &b) {
    a = io[r] * RI;
    b = a + ir[r] * RI;
  };
  auto out_rng = [&](int r, int64_t &a, int64_t &b) {
    a = oo[r] * RO;
    b = a + orr[r] * RO;
  };
  int64_t a, b, c, e;
  in_rng(me, a, b);
  if (a < b) {
    for (int q = 0; q < p; ++q) {
      out_rng(q, c, e);
      int64_t lo = std::max(a, c), hi = std::min(b, e);
      if (lo >= hi)
        continue;
      Xfer x;
      x.peer = q;
      x.src = flat_region(lo - a, hi - lo);
      x.dst = flat_region(lo - c, hi - lo);
      (q == me ? plan->locals : plan->sends).push_back(x);
    }
  }
  out_rng(me, c, e);
  if (c < e) {
    for (int r = 0; r < p; ++r) {
      if (r == me)
        continue;
      in_rng(r, a, b);
      int64_t lo = std::max(a, c), hi = std::min(b, e);
      if (lo >= hi)
        continue;
      Xfer x;
      x.peer = r;
      x.dst = flat_region(lo - c, hi - lo);
      plan->recvs.push_back(x);
    }
  }
  return plan;
}

// ---------------------------------------------------------------- permute ---

Rec make_permute_meta(int d, const int64_t *gin, const int64_t *perm,
                      int64_t in_off, int64_t in_rows, int64_t out_rows) {
  Rec m(kPmLen);
  m[kPmD] = d;
  std::copy(gin, gin + d, m.data() + kPmGin);
  std::copy(perm, perm + d, m.data() + kPmPerm);
  m[kPmInOff] = in_off;
  m[kPmInRows] = in_rows;
  m[kPmOutRows] = out_rows;
  return m;
}

std::shared_ptr<Plan> build_permute_plan(Team &t, const Rec &meta) {
  std::vector<int64_t> all;
  allgather_i64(t, meta.data(), kPmLen, all);
  check_same(t, all, kPmLen, kPmD, kPmInOff, "global shape or permutation",
             [](const int64_t *r) {
               return "shape " + fmt_vec(r + kPmGin, clamp_rank(r[kPmD])) +
                      " perm " + fmt_vec(r + kPmPerm, clamp_rank(r[kPmD]));
             });
  const int p = t.size, me = t.rank;
  auto rec = [&](int r) {
    return all.data() + static_cast<size_t>(r) * kPmLen;
  };
  const int d = static_cast<int>(meta[kPmD]);
  const int64_t *gin = meta.data() + kPmGin;
  int8_t perm[kMaxRank];
  for (int k = 0; k < d; ++k)
    perm[k] = static_cast<int8_t>(meta[kPmPerm + k]);
  const int p0 = perm[0]; // input dimension that becomes output dimension 0

  std::vector<int64_t> io(p), ir(p), oo(p), orr(p);
  int64_t pos = 0;
  for (int r = 0; r < p; ++r) {
    io[r] = rec(r)[kPmInOff];
    ir[r] = rec(r)[kPmInRows];
    orr[r] = rec(r)[kPmOutRows];
    oo[r] = pos; // output blocks tile dim 0 in rank order
    pos += orr[r];
  }
  std::string err = check_tiling(io, ir, gin[0]);
  if (!err.empty())
    fail_collective(t.rank, "invalid partition of the input: %s", err.c_str());
  err = check_tiling(oo, orr, gin[p0]);
  if (!err.empty())
    fail_collective(t.rank, "invalid partition of the output: %s", err.c_str());

  auto plan = std::make_shared<Plan>();
  plan->meta = meta;
  // Intersection of input block of r with output block of q, as a box in
  // global input coordinates.
  auto inter = [&](int r, int q, Box &B) {
    for (int k = 0; k < d; ++k) {
      B.lo[k] = 0;
      B.hi[k] = gin[k];
    }
    B.lo[0] = io[r];
    B.hi[0] = io[r] + ir[r];
    B.lo[p0] = std::max(B.lo[p0], oo[q]);
    B.hi[p0] = std::min(B.hi[p0], oo[q] + orr[q]);
    return !box_empty(B, d);
  };
  auto src_region = [&](int r, const Box &B) {
    int64_t s[kMaxRank], x[kMaxRank];
    for (int k = 0; k < d; ++k) {
      s[k] = B.lo[k] - (k == 0 ? io[r] : 0);
      x[k] = B.hi[k] - B.lo[k];
    }
    return box_region(d, s, x, perm); // traverse in output dimension order
  };
  auto dst_region = [&](int q, const Box &B) {
    int64_t s[kMaxRank], x[kMaxRank];
    for (int k = 0; k < d; ++k) {
      s[k] = B.lo[perm[k]] - (k == 0 ? oo[q] : 0);
      x[k] = B.hi[perm[k]] - B.lo[perm[k]];
    }
    return box_region(d, s, x);
  };
  Box B;
  if (ir[me] > 0) {
    for (int q = 0; q < p; ++q) {
      if (!inter(me, q, B))
        continue;
      Xfer x;
      x.peer = q;
      x.src = src_region(me, B);
      if (q == me) {
        x.dst = dst_region(q, B);
        plan->locals.push_back(x);
      } else {
        plan->sends.push_back(x);
      }
    }
  }
  if (orr[me] > 0) {
    for (int r = 0; r < p; ++r) {
      if (r == me || !inter(r, me, B))
        continue;
      Xfer x;
      x.peer = r;
      x.dst = dst_region(me, B);
      plan->recvs.push_back(x);
    }
  }
  return plan;
}

} // namespace idtr::detail
