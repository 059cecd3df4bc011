// _idtr_repartition_<T>: move a distributed array to arbitrary target blocks
// (rebalancing, empty ranks, replication, column subsets, split on dim 1),
// strided and broadcast (stride 0) inputs; minimal bytes moved.
#include "test_util.hpp"

using namespace idtest;

template <class D> class Repartition : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Repartition, MovedTypes, TypeNames);

namespace {

enum class Target { Rows, Replicated, Columns, SplitDim1, Shifted, RootOnly };
const char *target_name(Target t) {
  switch (t) {
  case Target::Rows:
    return "rows";
  case Target::Replicated:
    return "replicated";
  case Target::Columns:
    return "columns";
  case Target::SplitDim1:
    return "split-dim1";
  case Target::Shifted:
    return "shifted";
  case Target::RootOnly:
    return "root-only";
  }
  return "?";
}

void target_box(const Vec &g, Target t, PartKind pk, int p, int me, Vec &to,
                Vec &ts) {
  const int d = static_cast<int>(g.size());
  to.assign(d, 0);
  ts = g;
  switch (t) {
  case Target::Rows: {
    Part q = make_part(g[0], p, pk);
    to[0] = q.off[me];
    ts[0] = q.size[me];
    break;
  }
  case Target::Replicated:
    break;
  case Target::Columns: {
    Part q = default_part(g[0], p);
    to[0] = q.off[me];
    ts[0] = q.size[me];
    if (d >= 2) {
      to[d - 1] = g[d - 1] > 2 ? 1 : 0;
      ts[d - 1] = g[d - 1] - 2 * to[d - 1];
    }
    break;
  }
  case Target::SplitDim1: {
    int k = d >= 2 ? 1 : 0;
    Part q = default_part(g[k], p);
    to[k] = q.off[me];
    ts[k] = q.size[me];
    break;
  }
  case Target::Shifted: {
    Part q = default_part(g[0], p);
    int64_t lo = std::min(g[0], q.off[me] + 1),
            hi = std::min(g[0], q.off[me] + q.size[me] + 1);
    to[0] = lo;
    ts[0] = hi - lo;
    break;
  }
  case Target::RootOnly:
    if (me != 0)
      ts[0] = 0;
    break;
  }
}

template <class D>
void run_repart(const Vec &g, PartKind pin, Target tk, PartKind pk, Layout li,
                Layout lo, int64_t key, int iters) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int d = static_cast<int>(g.size());
  Part a = make_part(g[0], p, pin);
  Vec ls = g;
  ls[0] = a.size[me];
  Vec to, ts;
  target_box(g, tk, pk, p, me, to, ts);
  Arr<T> in(ls, li), out(ts, lo, T(5));
  Vec lofi(d, 0);
  lofi[0] = a.off[me];
  auto vg = iv(g), vli = iv(lofi), vto = iv(to), vts = iv(ts);
  auto what = [&] { // built only when a check fails
    return std::string() + str(g) + " " + part_name(pin) + " -> " +
           target_name(tk) + "/" + part_name(pk) + " " + layout_name(li) + "/" +
           layout_name(lo);
  };
  for (int it = 0; it < iters; ++it) {
    fill_block<D>(in, g, a.off[me], it);
    _idtr_reset_stats();
    int64_t h = D::repartition(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vg.get(),
                               1, vli.get(), 1, vto.get(), 1, vts.get(),
                               out.rank(), out.d(), key);
    _idtr_wait(h);
    int bad = 0;
    Vec gj(d);
    for_each_index(out.sizes, [&](const Vec &j) {
      gj = j;
      for (int k = 0; k < d; ++k)
        gj[k] += to[k];
      if (!(out.at(j) == val<D>(lin(g, gj), it)) && bad++ < 3)
        ADD_FAILURE() << what() << ": element " << str(gj)
                      << " wrong (iteration " << it << ")";
    });
    EXPECT_TRUE(out.gaps_intact()) << what();
    // Only the part of the target not owned locally is received: point to
    // point, or, when every rank asks for the same non-empty box (and there
    // are more than two ranks), through one broadcast per owner.
    int64_t own_lo = std::max(to[0], a.off[me]),
            own_hi = std::min(to[0] + ts[0], a.off[me] + a.size[me]);
    int64_t self = std::max<int64_t>(0, own_hi - own_lo) *
                   (numel(ts) / std::max<int64_t>(ts[0], 1));
    bool common = p > 2 && numel(ts) > 0;
    int64_t owners = 0;
    for (int r = 0; r < p && common; ++r) {
      Vec ro, rs;
      target_box(g, tk, pk, p, r, ro, rs);
      common = ro == to && rs == ts;
      owners += std::max(to[0], a.off[r]) <
                std::min(to[0] + ts[0], a.off[r] + a.size[r]);
    }
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_BYTES_RECV),
              common ? 0 : static_cast<int64_t>(sizeof(T)) * (numel(ts) - self))
        << what();
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_COLLECTIVES),
              common ? owners : 0)
        << what();
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_COLL_BYTES),
              common ? static_cast<int64_t>(sizeof(T)) * self : 0)
        << what();
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_LOCAL_BYTES),
              static_cast<int64_t>(sizeof(T)) * self)
        << what();
  }
}

} // namespace

TYPED_TEST(Repartition, TargetsPartitionsLayouts) {
  const std::vector<Vec> shapes = {{9}, {7, 4}, {0, 3}, {5, 3, 2}};
  int idx = 0;
  for (const Vec &g : shapes) {
    for (PartKind pin : all_parts()) {
      for (Target tk : {Target::Rows, Target::Replicated, Target::Columns,
                        Target::SplitDim1, Target::Shifted, Target::RootOnly}) {
        std::vector<PartKind> pks = {PartKind::Default};
        if (tk == Target::Rows)
          pks = all_parts();
        for (PartKind pk : pks) {
          Layout li = static_cast<Layout>(idx % 3),
                 lo = static_cast<Layout>((idx / 3) % 3);
          bool cached = idx % 2 == 0;
          if (sampled<TypeParam>(idx))
            run_repart<TypeParam>(g, pin, tk, pk, li, lo,
                                  cached ? 2000 + idx : -1, cached ? 2 : 1);
          ++idx;
        }
      }
    }
  }
}

// Broadcast input (stride 0 on dimension 1, as MLIR produces for expanded
// views): values depend on the row only. Redistribute onto dimension 1.
TYPED_TEST(Repartition, BroadcastInput) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const Vec g{8, 6};
  Part a = make_part(g[0], p, PartKind::Skewed);
  std::vector<T> rows(std::max<int64_t>(a.size[me], 1));
  for (int64_t i = 0; i < a.size[me]; ++i)
    rows[i] = val<D>(a.off[me] + i);
  idtr::Descriptor<T> in(rows.data(), rows.data(), 0, {a.size[me], g[1]},
                         {1, 0});
  Part c = default_part(g[1], p);
  Arr<T> out({g[0], c.size[me]}, Layout::Strided, T(5));
  auto vg = iv(g), vli = iv({a.off[me], 0}), vto = iv({0, c.off[me]}),
       vts = iv({g[0], c.size[me]});
  _idtr_wait(D::repartition(1, 2, in.get(), 1, vg.get(), 1, vli.get(), 1,
                            vto.get(), 1, vts.get(), 2, out.d(), -1));
  for_each_index(out.sizes,
                 [&](const Vec &j) { EXPECT_EQ(out.at(j), val<D>(j[0])); });
  EXPECT_TRUE(out.gaps_intact());
}

// Blocks of an empty array split on columns: every rank holds all 3 rows
// and none of the 0 columns, at offset (0, 0). Empty blocks own nothing and
// may lie anywhere (they were taken for overlapping row blocks: "invalid
// partition"); a non-empty block of an empty array is still an error.
TEST(RepartitionEmpty, ArrayWithoutColumns) {
  for (const Vec &g : {Vec{3, 0}, Vec{0, 4}, Vec{0, 0}}) {
    _idtr_clear_cache();
    Vec lo{0, 0}, block = g;
    Arr<double> in(block), out(block);
    auto vg = iv(g), vlo = iv(lo), vto = iv(lo), vts = iv(block);
    int64_t h = _idtr_repartition_f64(IDTR_TEAM_WORLD, in.rank(), in.d(), 1,
                                      vg.get(), 1, vlo.get(), 1, vto.get(), 1,
                                      vts.get(), out.rank(), out.d(), 0);
    _idtr_wait(h);
    EXPECT_EQ(numel(out.sizes), 0) << str(g);
  }
}
