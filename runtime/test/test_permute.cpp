// _idtr_copy_permute_<T>: distributed transpose with any axis permutation;
// result split on its dimension 0 (default partition and others).
#include "test_util.hpp"

using namespace idtest;

template <class D> class Permute : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Permute, MovedTypes, TypeNames);

namespace {

std::vector<Vec> all_perms(int d) {
  Vec p(d);
  std::iota(p.begin(), p.end(), 0);
  std::vector<Vec> r;
  do
    r.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return r;
}

template <class D>
void run_permute(const Vec &gi, const Vec &perm, PartKind pin, PartKind pout,
                 Layout li, Layout lo, int64_t key, int iters) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int d = static_cast<int>(gi.size());
  Vec go(d);
  for (int k = 0; k < d; ++k)
    go[k] = gi[perm[k]];
  Part a = make_part(gi[0], p, pin), b = make_part(go[0], p, pout);
  Vec ls = gi, os = go;
  ls[0] = a.size[me];
  os[0] = b.size[me];
  Arr<T> in(ls, li), out(os, lo, T(3));
  Vec lofi(d, 0);
  lofi[0] = a.off[me];
  auto vgi = iv(gi), vli = iv(lofi), vp = iv(perm);
  auto what = [&] { // built only when a check fails
    return std::string() + str(gi) + " perm " + str(perm) + " " +
           part_name(pin) + " -> " + part_name(pout) + " " + layout_name(li) +
           "/" + layout_name(lo);
  };
  for (int it = 0; it < iters; ++it) {
    fill_block<D>(in, gi, a.off[me], it);
    _idtr_reset_stats();
    int64_t h = D::permute(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vgi.get(), 1,
                           vli.get(), 1, vp.get(), out.rank(), out.d(), key);
    _idtr_wait(h);
    int bad = 0;
    Vec gj(d), src(d);
    for_each_index(out.sizes, [&](const Vec &j) {
      gj = j;
      gj[0] += b.off[me];
      for (int k = 0; k < d; ++k)
        src[perm[k]] = gj[k];
      if (!(out.at(j) == val<D>(lin(gi, src), it)) && bad++ < 3)
        ADD_FAILURE() << what() << ": output element " << str(gj)
                      << " wrong (iteration " << it << ")";
    });
    EXPECT_TRUE(out.gaps_intact()) << what();
    // Work per rank is proportional to local data: what I send + copy locally
    // is exactly my input block, what I receive + copy is my output block.
    const int64_t es = sizeof(T);
    EXPECT_EQ(stat(IDTR_STAT_PERMUTE, IDTR_CNT_BYTES_SENT) +
                  stat(IDTR_STAT_PERMUTE, IDTR_CNT_LOCAL_BYTES),
              es * numel(ls))
        << what();
    EXPECT_EQ(stat(IDTR_STAT_PERMUTE, IDTR_CNT_BYTES_RECV) +
                  stat(IDTR_STAT_PERMUTE, IDTR_CNT_LOCAL_BYTES),
              es * numel(os))
        << what();
    if (key >= 0 && it > 0)
      EXPECT_EQ(stat(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES), 0) << what();
  }
}

} // namespace

TYPED_TEST(Permute, ShapesPermsPartitions) {
  std::vector<std::pair<Vec, Vec>> cases = {
      {{7}, {0}},       {{5, 3}, {1, 0}}, {{3, 5}, {1, 0}}, {{6, 1}, {1, 0}},
      {{0, 4}, {1, 0}}, {{4, 0}, {1, 0}}, {{4, 4}, {0, 1}}};
  for (const Vec &pm : all_perms(3))
    cases.push_back({{4, 3, 5}, pm});
  cases.push_back({{2, 3, 2, 3}, {3, 1, 0, 2}});
  int idx = 0;
  for (auto &[gi, perm] : cases) {
    for (PartKind pin : all_parts()) {
      for (PartKind pout : {PartKind::Default, PartKind::LastEmpty}) {
        Layout li = static_cast<Layout>(idx % 3),
               lo = static_cast<Layout>((idx / 3) % 3);
        bool cached = idx % 2 == 1;
        if (sampled<TypeParam>(idx))
          run_permute<TypeParam>(gi, perm, pin, pout, li, lo,
                                 cached ? 300 + idx : -1, cached ? 2 : 1);
        ++idx;
      }
    }
  }
}
