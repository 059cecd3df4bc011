// _idtr_sort_<T>, _idtr_argsort_<T> (local, any axis and layout) and
// _idtr_sample_sort_<T> (distributed 1-d, any input and output partitions)
// against a stable sort of the whole array, every element type.
#include "test_util.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace idtest;

template <class D> class Sort : public ::testing::Test {};
TYPED_TEST_SUITE(Sort, AllTypes, TypeNames);

namespace {

/// numpy's order (NaNs last), reversed for descending (NaNs first).
template <class T> bool before(T a, T b, bool descending) {
  if (descending)
    std::swap(a, b);
  if constexpr (!std::is_integral_v<T>) {
    if (isNaN(a) || isNaN(b))
      return !isNaN(a) && isNaN(b);
  }
  return a < b;
}

/// Element i of the test array: few distinct values (ties), NaNs in floats.
template <class D> typename D::T element(int64_t i, int salt) {
  using T = typename D::T;
  if constexpr (D::is_float)
    if ((i + salt) % 7 == 3)
      return static_cast<T>(std::numeric_limits<float>::quiet_NaN());
  return val<D>(i % 11, salt);
}

/// The stable order of `n` elements: positions sorted by value.
template <class D>
std::vector<int64_t> stable_order(int64_t n, int salt, bool descending) {
  std::vector<int64_t> pos(n);
  std::iota(pos.begin(), pos.end(), 0);
  std::sort(pos.begin(), pos.end(), [&](int64_t i, int64_t j) {
    const auto x = element<D>(i, salt), y = element<D>(j, salt);
    return before(x, y, descending) || (!before(y, x, descending) && i < j);
  });
  return pos;
}

template <class T> bool same(T a, T b) {
  if constexpr (!std::is_integral_v<T>)
    if (isNaN(a) && isNaN(b))
      return true;
  return a == b;
}

/// Block sizes of n rows on p ranks: uneven, with empty ranks when n < p,
/// `shift` moving rows between neighbours.
Vec blocks(int64_t n, int p, int shift) {
  Vec sizes(p, 0);
  for (int64_t i = 0; i < n; ++i)
    ++sizes[(i * (p + shift) / std::max<int64_t>(n, 1)) % p];
  return sizes;
}

} // namespace

TYPED_TEST(Sort, LocalAlongEveryAxisAndLayout) {
  using D = TypeParam;
  using T = typename D::T;
  const Vec shape{4, 7, 3};
  for (int axis = 0; axis < 3; ++axis)
    for (bool descending : {false, true})
      for (Layout l : {Layout::Dense, Layout::Strided, Layout::Reversed}) {
        Arr<T> a(shape, l), in(shape, l);
        Arr<int64_t> idx(shape, l);
        for_each_index(shape, [&](const Vec &i) {
          a.at(i) = in.at(i) = element<D>(lin(shape, i), axis);
        });
        D::sort(a.rank(), a.d(), axis, descending);
        D::argsort(in.rank(), in.d(), idx.rank(), idx.d(), axis, descending);
        for_each_index(shape, [&](const Vec &i) {
          // The lane of i along `axis`, sorted stably.
          Vec j = i;
          std::vector<int64_t> pos(shape[axis]);
          std::iota(pos.begin(), pos.end(), 0);
          std::sort(pos.begin(), pos.end(), [&](int64_t x, int64_t y) {
            Vec jx = i, jy = i;
            jx[axis] = x;
            jy[axis] = y;
            const T u = in.at(jx), v = in.at(jy);
            return before(u, v, descending) ||
                   (!before(v, u, descending) && x < y);
          });
          j[axis] = pos[i[axis]];
          EXPECT_TRUE(same(a.at(i), in.at(j)))
              << "axis " << axis << " " << layout_name(l) << " at " << str(i);
          EXPECT_EQ(idx.at(i), pos[i[axis]]) << "argsort axis " << axis;
        });
        EXPECT_TRUE(a.gaps_intact());
      }
}

TYPED_TEST(Sort, SampleSortAnyPartition) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  // Every rank's P - 1 samples (P <= 64 here), and one sample per rank (the
  // splitters of many ranks, where each offers fewer than P - 1).
  for (const char *samples : {"", "1"}) {
    if (*samples)
      setenv("IDTR_SORT_SAMPLES", samples, 1);
    for (int64_t n : {0, 1, 5, 37, 400})
      for (int shift : {0, 1})
        for (bool descending : {false, true}) {
          const int salt = static_cast<int>(n) + shift;
          Vec in = blocks(n, p, shift), out = blocks(n, p, shift + 1);
          int64_t offset = 0, outOffset = 0;
          for (int r = 0; r < me; ++r) {
            offset += in[r];
            outOffset += out[r];
          }
          Arr<T> block({in[me]}, Layout::Strided);
          for (int64_t i = 0; i < in[me]; ++i)
            block.at({i}) = element<D>(offset + i, salt);
          Arr<T> values({out[me]}, Layout::Reversed);
          Arr<int64_t> positions({out[me]});
          D::sample_sort(IDTR_TEAM_WORLD, block.rank(), block.d(), offset,
                         values.rank(), values.d(), positions.rank(),
                         positions.d(), descending);
          std::vector<int64_t> order = stable_order<D>(n, salt, descending);
          for (int64_t i = 0; i < out[me]; ++i) {
            EXPECT_EQ(positions.at({i}), order[outOffset + i])
                << "n " << n << " shift " << shift << " descending "
                << descending << " element " << i;
            EXPECT_TRUE(
                same(values.at({i}), element<D>(order[outOffset + i], salt)));
          }
          // Values only (no positions).
          Arr<T> only({out[me]});
          D::sample_sort(IDTR_TEAM_WORLD, block.rank(), block.d(), offset,
                         only.rank(), only.d(), 0, nullptr, descending);
          for (int64_t i = 0; i < out[me]; ++i)
            EXPECT_TRUE(same(only.at({i}), values.at({i})));
        }
    unsetenv("IDTR_SORT_SAMPLES");
  }
}

TYPED_TEST(Sort, SampleSortAllKeysOnOneRank) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int64_t n = 50;
  // All input rows on the last rank; all equal values.
  Arr<T> block({me == p - 1 ? n : 0});
  for (int64_t i = 0; i < block.sizes[0]; ++i)
    block.at({i}) = T(1);
  Vec out = blocks(n, p, 0);
  Arr<int64_t> positions({out[me]});
  D::sample_sort(IDTR_TEAM_WORLD, block.rank(), block.d(), 0, 0, nullptr,
                 positions.rank(), positions.d(), 0);
  int64_t outOffset = 0;
  for (int r = 0; r < me; ++r)
    outOffset += out[r];
  for (int64_t i = 0; i < out[me]; ++i)
    EXPECT_EQ(positions.at({i}), outOffset + i); // stable: input order
}

/// The indices rank `r` writes in the put tests: repeated (also across
/// ranks), reversed, negative.
static Vec putIndices(int64_t n, int r) {
  Vec indices;
  for (int64_t k = 0; k < n + 2 * r; ++k)
    indices.push_back((k * 3 + r * 2) % n - (k % 4 == 1 ? n : 0));
  return indices;
}

TYPED_TEST(Sort, PutRowsAtGlobalIndicesLastWriteWins) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  for (int64_t n : {1, 7, 30})
    for (int shift : {0, 1})
      for (int64_t replicated : {0, 1}) {
        Vec in = blocks(n, p, shift);
        int64_t offset = 0;
        for (int r = 0; r < me; ++r)
          offset += in[r];
        const Vec shape{in[me], 3};
        Arr<T> block(shape, Layout::Strided);
        for_each_index(shape, [&](const Vec &i) { block.at(i) = val<D>(-1); });
        // Expected: the writes of ranks 0..p-1 in order, each in index
        // order (numpy's last write wins).
        std::vector<int64_t> writer(n, -1);
        for (int r = 0; r < p; ++r) {
          Vec indices = putIndices(n, r);
          for (size_t k = 0; k < indices.size(); ++k)
            writer[indices[k] < 0 ? indices[k] + n : indices[k]] =
                r * 1000 + int64_t(k);
        }
        // Replicated: every rank passes everything (the concatenation).
        Vec indices;
        std::vector<int64_t> ids;
        for (int r = 0; r < p; ++r) {
          if (!replicated && r != me)
            continue;
          Vec mine = putIndices(n, r);
          for (size_t k = 0; k < mine.size(); ++k) {
            indices.push_back(mine[k]);
            ids.push_back(r * 1000 + int64_t(k));
          }
        }
        const int64_t m = static_cast<int64_t>(indices.size());
        Arr<int64_t> idx({m});
        Arr<T> values({m, 3}, Layout::Reversed);
        for (int64_t k = 0; k < m; ++k) {
          idx.at({k}) = indices[k];
          for (int64_t c = 0; c < 3; ++c)
            values.at({k, c}) = val<D>(ids[k] * 3 + c, 5);
        }
        D::put(IDTR_TEAM_WORLD, block.rank(), block.d(), offset, n, idx.rank(),
               idx.d(), values.rank(), values.d(), replicated);
        for (int64_t i = 0; i < in[me]; ++i)
          for (int64_t c = 0; c < 3; ++c) {
            const int64_t w = writer[offset + i];
            EXPECT_EQ(block.at({i, c}),
                      w < 0 ? val<D>(-1) : val<D>(w * 3 + c, 5))
                << "n " << n << " row " << offset + i << " replicated "
                << replicated;
          }
        EXPECT_TRUE(block.gaps_intact());
      }
}

TYPED_TEST(Sort, TakeRowsAtGlobalIndices) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  for (int64_t n : {1, 7, 30})
    for (int shift : {0, 1}) {
      Vec in = blocks(n, p, shift);
      int64_t offset = 0;
      for (int r = 0; r < me; ++r)
        offset += in[r];
      const Vec shape{in[me], 3};
      Arr<T> block(shape, Layout::Strided);
      for_each_index(shape, [&](const Vec &i) {
        block.at(i) = val<D>((offset + i[0]) * 3 + i[1], 7);
      });
      // Each rank asks for its own indices: repeated, reversed, negative,
      // all of them on one rank.
      Vec indices;
      for (int64_t k = 0; k < 2 * n + me; ++k)
        indices.push_back((k * 5 + me) % n - (k % 3 == 0 ? n : 0));
      Arr<int64_t> idx({static_cast<int64_t>(indices.size())});
      for (size_t k = 0; k < indices.size(); ++k)
        idx.at({static_cast<int64_t>(k)}) = indices[k];
      Arr<T> out({static_cast<int64_t>(indices.size()), 3}, Layout::Reversed);
      D::take(IDTR_TEAM_WORLD, block.rank(), block.d(), offset, n, idx.rank(),
              idx.d(), out.rank(), out.d());
      for (size_t k = 0; k < indices.size(); ++k) {
        const int64_t g = indices[k] < 0 ? indices[k] + n : indices[k];
        for (int64_t c = 0; c < 3; ++c)
          EXPECT_EQ(out.at({static_cast<int64_t>(k), c}), val<D>(g * 3 + c, 7))
              << "n " << n << " index " << indices[k];
      }
      EXPECT_TRUE(out.gaps_intact());
    }
}
