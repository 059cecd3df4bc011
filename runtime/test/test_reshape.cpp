// _idtr_copy_reshape_<T>: row-major reshape of a distributed array into the
// default partition (and other partitions) of the new shape.
#include "test_util.hpp"

using namespace idtest;

template <class D> class Reshape : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Reshape, MovedTypes, TypeNames);

namespace {

template <class D>
void run_reshape(const Vec &gi, const Vec &go, PartKind pin, PartKind pout,
                 Layout li, Layout lo, int64_t key, int iters) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  Part a = make_part(gi[0], p, pin), b = make_part(go[0], p, pout);
  Vec ls = gi, os = go;
  ls[0] = a.size[me];
  os[0] = b.size[me];
  Arr<T> in(ls, li), out(os, lo, T(3));
  Vec lofi(gi.size(), 0), lofo(go.size(), 0);
  lofi[0] = a.off[me];
  lofo[0] = b.off[me];
  auto vgi = iv(gi), vli = iv(lofi), vgo = iv(go), vlo = iv(lofo);
  auto what = [&] { // built only when a check fails
    return std::string() + str(gi) + " -> " + str(go) + " " + part_name(pin) +
           " -> " + part_name(pout) + " " + layout_name(li) + "/" +
           layout_name(lo) + " key " + std::to_string(key);
  };
  for (int it = 0; it < iters; ++it) {
    fill_block<D>(in, gi, a.off[me], it);
    _idtr_reset_stats();
    int64_t h = D::reshape(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vgi.get(), 1,
                           vli.get(), 1, vgo.get(), 1, vlo.get(), out.rank(),
                           out.d(), key);
    _idtr_wait(h);
    int bad = 0;
    for_each_index(out.sizes, [&](const Vec &i) {
      // reshape keeps the row-major linear index
      if (!(out.at(i) == val<D>(lin0(go, i, b.off[me]), it)) && bad++ < 3)
        ADD_FAILURE() << what() << ": element " << str(i)
                      << " of the block wrong (iteration " << it << ")";
    });
    EXPECT_TRUE(out.gaps_intact()) << what();
    if (key >= 0 && it > 0)
      EXPECT_EQ(stat(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES), 0) << what();
    // Bytes received = elements of my output block that I did not own.
    int64_t ri = numel(gi) / std::max<int64_t>(gi[0], 1),
            ro = numel(go) / std::max<int64_t>(go[0], 1);
    int64_t mine_lo = std::max(a.off[me] * ri, b.off[me] * ro),
            mine_hi = std::min((a.off[me] + a.size[me]) * ri,
                               (b.off[me] + b.size[me]) * ro);
    int64_t self = std::max<int64_t>(0, mine_hi - mine_lo);
    EXPECT_EQ(stat(IDTR_STAT_RESHAPE, IDTR_CNT_BYTES_RECV),
              static_cast<int64_t>(sizeof(T)) * (numel(os) - self))
        << what();
  }
}

} // namespace

TYPED_TEST(Reshape, ShapesPartitionsLayouts) {
  const std::vector<std::pair<Vec, Vec>> cases = {
      {{12}, {3, 4}},      {{3, 4}, {12}},      {{4, 6}, {8, 3}},
      {{2, 3, 4}, {6, 4}}, {{6, 4}, {2, 3, 4}}, {{5, 7}, {7, 5}},
      {{7}, {7, 1}},       {{1}, {1}},          {{0, 3}, {3, 0}},
      {{9, 2}, {3, 6}},    {{2, 10}, {20}},     {{13}, {13}}};
  int idx = 0;
  for (auto &[gi, go] : cases) {
    for (PartKind pin : all_parts()) {
      for (PartKind pout : {PartKind::Default, PartKind::Skewed}) {
        Layout li = static_cast<Layout>(idx % 3),
               lo = static_cast<Layout>((idx / 3) % 3);
        bool cached = idx % 2 == 0;
        if (sampled<TypeParam>(idx))
          run_reshape<TypeParam>(gi, go, pin, pout, li, lo,
                                 cached ? 500 + idx : -1, cached ? 2 : 1);
        ++idx;
      }
    }
  }
}
