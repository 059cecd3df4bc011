// _idtr_gather_<T>: whole array on every rank or on one root.
#include "test_util.hpp"

using namespace idtest;

template <class D> class Gather : public ::testing::Test {};
TYPED_TEST_SUITE(Gather, MovedTypes, TypeNames);

TYPED_TEST(Gather, RootsPartitionsLayouts) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const std::vector<Vec> shapes = {{1}, {9}, {7, 3}, {0, 2}, {4, 2, 2}};
  int idx = 0;
  for (const Vec &g : shapes) {
    for (PartKind pk : all_parts()) {
      for (int64_t root : {int64_t(-1), int64_t(0), int64_t(p - 1)}) {
        Part a = make_part(g[0], p, pk);
        Vec ls = g;
        ls[0] = a.size[me];
        Layout li = static_cast<Layout>(idx % 3),
               lo = static_cast<Layout>((idx / 3) % 3);
        ++idx;
        Arr<T> in(ls, li);
        fill_block<D>(in, g, a.off[me], idx);
        const bool receiving = root == -1 || root == me;
        Arr<T> out(receiving ? g : Vec{0}, lo, T(9));
        Vec lof(g.size(), 0);
        lof[0] = a.off[me];
        auto vg = iv(g), vl = iv(lof);
        D::gather(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vg.get(), 1, vl.get(),
                  out.rank(), out.d(), root);
        if (!receiving)
          continue;
        int bad = 0;
        for_each_index(g, [&](const Vec &i) {
          if (!(out.at(i) == val<D>(lin(g, i), idx)) && bad++ < 3)
            ADD_FAILURE() << str(g) << " " << part_name(pk) << " root " << root
                          << " " << layout_name(li) << "/" << layout_name(lo)
                          << ": element " << str(i) << " wrong";
        });
        EXPECT_TRUE(out.gaps_intact());
      }
    }
  }
}
