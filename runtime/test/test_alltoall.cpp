// _idtr_ragged_alltoall_<T>: jax.lax.ragged_all_to_all semantics (input
// offsets, send sizes, output offsets on the receiver, receive sizes).
#include "test_util.hpp"

using namespace idtest;

template <class D> class Alltoall : public ::testing::Test {};
TYPED_TEST_SUITE(Alltoall, MovedTypes, TypeNames);

namespace {
int64_t cnt(int i, int j, int salt) { return (i * 3 + j * 5 + 1 + salt) % 4; }
int64_t enc(int64_t i, int64_t j, int64_t r, int64_t col) {
  return ((i * 16 + j) * 16 + r) * 8 + col;
}
} // namespace

TYPED_TEST(Alltoall, RaggedPattern) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  int idx = 0;
  for (int64_t width : {0, 1, 3}) { // 0: 1-D buffers, otherwise rows of `width`
    for (int salt : {0, 1, 2}) {
      for (bool reversed : {false, true}) {
        Layout ls = static_cast<Layout>(idx % 3),
               lr = static_cast<Layout>((idx / 3) % 3);
        ++idx;
        // Sender layout: one padding row between segments, optionally in
        // reverse peer order.
        Vec so(p), ss(p), oo(p), rs(p);
        int64_t pos = 0;
        for (int k = 0; k < p; ++k) {
          int j = reversed ? p - 1 - k : k;
          so[j] = pos;
          ss[j] = cnt(me, j, salt);
          pos += ss[j] + 1;
        }
        const int64_t send_rows = pos;
        for (int j = 0; j < p; ++j) { // where my rows land on receiver j
          int64_t o = 1;
          for (int i = 0; i < me; ++i)
            o += cnt(i, j, salt) + 1;
          oo[j] = o;
        }
        int64_t recv_rows = 1;
        Vec from_off(p);
        for (int i = 0; i < p; ++i) {
          rs[i] = cnt(i, me, salt);
          from_off[i] = recv_rows;
          recv_rows += rs[i] + 1;
        }
        auto shape = [&](int64_t rows) {
          return width ? Vec{rows, width} : Vec{rows};
        };
        Arr<T> send(shape(send_rows), ls), recv(shape(recv_rows), lr, T(4));
        const int64_t W = std::max<int64_t>(width, 1);
        Vec at(width ? 2 : 1); // element index, reused (no allocations)
        auto row = [&](int64_t r, int64_t c) -> const Vec & {
          at[0] = r;
          if (width)
            at[1] = c;
          return at;
        };
        for (int j = 0; j < p; ++j)
          for (int64_t r = 0; r < ss[j]; ++r)
            for (int64_t c = 0; c < W; ++c) {
              send.at(row(so[j] + r, c)) = val<D>(enc(me, j, r, c), salt);
            }
        auto vso = iv(so), vss = iv(ss), voo = iv(oo), vrs = iv(rs);
        _idtr_reset_stats();
        D::alltoall(IDTR_TEAM_WORLD, send.rank(), send.d(), 1, vso.get(), 1,
                    vss.get(), recv.rank(), recv.d(), 1, voo.get(), 1,
                    vrs.get());
        int bad = 0;
        std::vector<char> written(recv_rows, 0);
        for (int i = 0; i < p; ++i)
          for (int64_t r = 0; r < rs[i]; ++r) {
            written[from_off[i] + r] = 1;
            for (int64_t c = 0; c < W; ++c) {
              if (!(recv.at(row(from_off[i] + r, c)) ==
                    val<D>(enc(i, me, r, c), salt)) &&
                  bad++ < 3)
                ADD_FAILURE()
                    << "width " << width << " salt " << salt << ": row " << r
                    << " from rank " << i << " wrong";
            }
          }
        for (int64_t r = 0; r < recv_rows; ++r)
          for (int64_t c = 0; c < W && !written[r]; ++c) {
            EXPECT_EQ(recv.at(row(r, c)), T(4))
                << "padding row " << r << " overwritten";
          }
        EXPECT_TRUE(recv.gaps_intact());
        // One message per peer with a non-empty slice, nothing else.
        int64_t msgs = 0;
        for (int j = 0; j < p; ++j)
          msgs += j != me && ss[j] > 0;
        EXPECT_EQ(stat(IDTR_STAT_ALLTOALL, IDTR_CNT_MSGS_SENT), msgs);
      }
    }
  }
}

// The example from the jax.lax.ragged_all_to_all documentation.
TYPED_TEST(Alltoall, JaxDocumentationExample) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  if (p != 2) {
    // Keep every rank participating in the same collective calls.
    GTEST_SKIP() << "needs exactly 2 ranks";
  }
  auto t = [](std::initializer_list<int> v) {
    std::vector<T> r;
    for (int x : v)
      r.push_back(static_cast<T>(D::is_bool ? x % 2 : x));
    return r;
  };
  std::vector<T> operand = me == 0 ? t({1, 2, 2}) : t({3, 4, 0});
  std::vector<T> output = t({0, 0, 0, 0});
  Vec so = {0, 1}, ss = me == 0 ? Vec{1, 2} : Vec{1, 1},
      oo = me == 0 ? Vec{0, 0} : Vec{1, 2},
      rs = me == 0 ? Vec{1, 1} : Vec{2, 1};
  idtr::Descriptor<T> dop(operand.data(), {3}), dout(output.data(), {4});
  auto vso = iv(so), vss = iv(ss), voo = iv(oo), vrs = iv(rs);
  D::alltoall(IDTR_TEAM_WORLD, 1, dop.get(), 1, vso.get(), 1, vss.get(), 1,
              dout.get(), 1, voo.get(), 1, vrs.get());
  EXPECT_EQ(output, me == 0 ? t({1, 3, 0, 0}) : t({2, 2, 4, 0}));
}

TYPED_TEST(Alltoall, NothingToSend) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs();
  Arr<T> send({2, 2}), recv({3, 2}, Layout::Dense, T(1));
  Vec z(p, 0);
  auto a = iv(z), b = iv(z), c = iv(z), e = iv(z);
  D::alltoall(IDTR_TEAM_WORLD, 2, send.d(), 1, a.get(), 1, b.get(), 2, recv.d(),
              1, c.get(), 1, e.get());
  for_each_index(recv.sizes,
                 [&](const Vec &i) { EXPECT_EQ(recv.at(i), T(1)); });
}
