// _idtr_update_halo_<T>: uneven partitions, empty ranks, widths 0/1/2/
// asymmetric/spanning several ranks, shifted bounding boxes, column subsets,
// 1-D to 3-D, strided data and halo buffers, cached and uncached plans, and
// exact message counts (only ranks whose rows overlap exchange data).
#include "test_util.hpp"

using namespace idtest;

template <class D> class Halo : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Halo, MovedTypes, TypeNames);

namespace {

struct HaloCase {
  Vec gshape;
  PartKind part;
  int64_t lw, rw; // halo widths requested around the owned rows
  int64_t shift;  // shift of the bounding box along dim 0
  bool cols;      // bounding box covers a column subset on dim 1
};

struct BB {
  Vec off, size;
};

BB bounding_box(const HaloCase &c, const Part &part, int r) {
  const Vec &g = c.gshape;
  const int64_t n = g[0];
  auto clip = [&](int64_t v) { return std::clamp<int64_t>(v, 0, n); };
  int64_t lo = clip(part.off[r] - c.lw + c.shift);
  int64_t hi = std::max(lo, clip(part.off[r] + part.size[r] + c.rw + c.shift));
  BB b{Vec(g.size(), 0), g};
  b.off[0] = lo;
  b.size[0] = hi - lo;
  if (c.cols && g.size() >= 2) {
    b.off[1] = g[1] > 1 ? 1 : 0;
    b.size[1] = g[1] - b.off[1] - (g[1] > 2 ? 1 : 0);
  }
  return b;
}

// Row ranges [lo, hi) of the left/right halo of rank r.
void halo_rows(const BB &b, int64_t o, int64_t rows, int64_t lr[2],
               int64_t rr[2]) {
  int64_t lo = b.off[0], hi = b.off[0] + b.size[0];
  lr[0] = lo;
  lr[1] = std::max(lo, std::min(o, hi));
  rr[0] = std::min(hi, std::max(o + rows, lo));
  rr[1] = hi;
}

template <class D>
void run_halo(const HaloCase &c, Layout dl, Layout hl, int64_t key, int iters) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const Vec &g = c.gshape;
  const int d = static_cast<int>(g.size());
  const Part part = make_part(g[0], p, c.part);
  const int64_t o = part.off[me], rows = part.size[me];
  Vec local = g;
  local[0] = rows;
  const BB bb = bounding_box(c, part, me);
  int64_t lr[2], rr[2];
  halo_rows(bb, o, rows, lr, rr);
  Vec lsz = bb.size, rsz = bb.size;
  lsz[0] = lr[1] - lr[0];
  rsz[0] = rr[1] - rr[0];
  int64_t cols = 1;
  for (int k = 1; k < d; ++k)
    cols *= bb.size[k];

  // Expected point-to-point traffic: one message per (owner, halo side) with
  // overlapping rows, nothing else. When every rank asks for the same box
  // (and there are more than two ranks), each owner broadcasts its part
  // instead (the partitions here tile in rank order: no empty block cuts
  // another), and nothing goes point to point.
  int64_t exp_recv = 0, exp_send = 0, exp_bcasts = 0, exp_bcast_bytes = 0;
  auto overlap = [](int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
    return std::max(a0, b0) < std::min(a1, b1);
  };
  bool common = p > 2 && cols > 0 && bb.size[0] > 0;
  for (int r = 0; r < p && common; ++r) {
    BB qb = bounding_box(c, part, r);
    common = qb.off == bb.off && qb.size == bb.size;
  }
  for (int r = 0; r < p && common; ++r) {
    int64_t lo = std::max(bb.off[0], part.off[r]);
    int64_t hi = std::min(bb.off[0] + bb.size[0], part.off[r] + part.size[r]);
    if (lo >= hi)
      continue;
    ++exp_bcasts;
    if (r == me)
      exp_bcast_bytes = static_cast<int64_t>(sizeof(T)) * (hi - lo) * cols;
  }
  for (int r = 0; r < p && !common; ++r) {
    if (r == me)
      continue;
    int64_t ro = part.off[r], rn = part.size[r];
    if (cols > 0) {
      exp_recv += overlap(lr[0], lr[1], ro, ro + rn) +
                  overlap(rr[0], rr[1], ro, ro + rn);
    }
    BB qb = bounding_box(c, part, r);
    int64_t ql[2], qr[2], qcols = 1;
    halo_rows(qb, ro, rn, ql, qr);
    for (size_t k = 1; k < g.size(); ++k)
      qcols *= qb.size[k];
    if (qcols > 0)
      exp_send += overlap(ql[0], ql[1], o, o + rows) +
                  overlap(qr[0], qr[1], o, o + rows);
  }

  Arr<T> data(local, dl), lh(lsz, hl, T(7)), rh(rsz, hl, T(7));
  auto gs = iv(g), lo = iv([&] {
                     Vec v(d, 0);
                     v[0] = o;
                     return v;
                   }()),
       bo = iv(bb.off), bs = iv(bb.size);
  auto what = [&] { // built only when a check fails
    return std::string() + "shape " + str(g) + " part " + part_name(c.part) +
           " widths " + std::to_string(c.lw) + "/" + std::to_string(c.rw) +
           " shift " + std::to_string(c.shift) + (c.cols ? " cols" : "") +
           " data " + layout_name(dl) + " halo " + layout_name(hl) + " key " +
           std::to_string(key);
  };
  for (int it = 0; it < iters; ++it) {
    fill_block<D>(data, g, o, it);
    _idtr_reset_stats();
    int64_t h = D::halo(IDTR_TEAM_WORLD, data.rank(), data.d(), 1, gs.get(), 1,
                        lo.get(), 1, bo.get(), 1, bs.get(), lh.rank(), lh.d(),
                        rh.rank(), rh.d(), key);
    _idtr_wait(h);
    int bad = 0;
    Vec gi(d);
    for (int side = 0; side < 2; ++side) {
      Arr<T> &hb = side == 0 ? lh : rh;
      int64_t row0 = side == 0 ? lr[0] : rr[0];
      for_each_index(hb.sizes, [&](const Vec &i) {
        gi = i;
        gi[0] += row0;
        for (int k = 1; k < d; ++k)
          gi[k] += bb.off[k];
        if (!(hb.at(i) == val<D>(lin(g, gi), it)) && bad++ < 3)
          ADD_FAILURE() << what() << ": " << (side ? "right" : "left")
                        << " halo element " << str(i) << " (global " << str(gi)
                        << ") wrong, iteration " << it;
      });
      EXPECT_TRUE(hb.gaps_intact())
          << what() << ": halo buffer written outside its view";
    }
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV), exp_recv) << what();
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_SENT), exp_send) << what();
    EXPECT_EQ(
        stat(IDTR_STAT_HALO, IDTR_CNT_BYTES_RECV),
        common ? 0 : static_cast<int64_t>(sizeof(T)) * (lsz[0] + rsz[0]) * cols)
        << what() << ": bytes received must equal the halo size";
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_COLLECTIVES), exp_bcasts)
        << what() << ": one broadcast per owner of a part of a common box";
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_COLL_BYTES), exp_bcast_bytes)
        << what();
    if (key >= 0 && it > 0) {
      EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_CACHE_HITS), 1) << what();
      EXPECT_EQ(stat(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES), 0)
          << what() << ": cached plan must skip the metadata exchange";
    }
  }
}

} // namespace

TYPED_TEST(Halo, AllConfigurations) {
  const std::vector<Vec> shapes = {{1},    {6},     {11},     {0, 3},
                                   {6, 3}, {11, 4}, {5, 2, 3}};
  int idx = 0;
  for (const Vec &g : shapes) {
    const int64_t n = g[0];
    const std::vector<std::pair<int64_t, int64_t>> widths = {
        {0, 0}, {1, 1}, {2, 2}, {1, 3}, {3, 0}, {0, 2}, {n, n}};
    for (PartKind pk : all_parts()) {
      for (auto [lw, rw] : widths) {
        for (int64_t shift : {0, 2, -3}) {
          if (shift != 0 && lw != 1)
            continue;
          for (bool cols : {false, true}) {
            if (cols && (g.size() < 2 || lw != rw))
              continue;
            HaloCase c{g, pk, lw, rw, shift, cols};
            Layout dl = static_cast<Layout>(idx % 3);
            Layout hl = static_cast<Layout>((idx / 3) % 3);
            bool cached = idx % 2 == 1;
            if (sampled<TypeParam>(idx))
              run_halo<TypeParam>(c, dl, hl, cached ? 1000 + idx : -1,
                                  cached ? 2 : 1);
            ++idx;
          }
        }
      }
    }
  }
}

// The requirement behind the design: with halos no wider than the
// neighbouring blocks, each rank exchanges at most 2 messages in each
// direction, independently of the number of ranks.
TYPED_TEST(Halo, MessagesDoNotGrowWithRanks) {
  using T = typename TypeParam::T;
  const int p = nprocs(), me = rank();
  for (int64_t w : {1, 2}) {
    const Vec g{10 * p + 3, 2};
    Part part = default_part(g[0], p);
    int64_t o = part.off[me], rows = part.size[me];
    int64_t lo = std::max<int64_t>(0, o - w), hi = std::min(g[0], o + rows + w);
    Arr<T> data({rows, 2}), lh({o - lo, 2}), rh({hi - o - rows, 2});
    fill_block<TypeParam>(data, g, o);
    auto gs = iv(g), lof = iv({o, 0}), bo = iv({lo, 0}), bs = iv({hi - lo, 2});
    _idtr_reset_stats();
    _idtr_wait(TypeParam::halo(1, 2, data.d(), 1, gs.get(), 1, lof.get(), 1,
                               bo.get(), 1, bs.get(), 2, lh.d(), 2, rh.d(),
                               -1));
    EXPECT_LE(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_SENT), 2);
    EXPECT_LE(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV), 2);
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV),
              (me > 0) + (me < p - 1));
    for (int64_t i = 0; i < o - lo; ++i)
      for (int64_t j = 0; j < 2; ++j)
        EXPECT_EQ(lh.at({i, j}), val<TypeParam>(lin(g, {lo + i, j})));
    for (int64_t i = 0; i < hi - o - rows; ++i)
      for (int64_t j = 0; j < 2; ++j)
        EXPECT_EQ(rh.at({i, j}), val<TypeParam>(lin(g, {o + rows + i, j})));
  }
}
