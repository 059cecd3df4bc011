// _idtr_ordered_reduce_*: sums and products over dimension 0 of a split
// array along the pairwise tree of its global rows, the same bits on every
// rank count and partition (checked against the tree computed level by level
// on the whole array by every rank), moving less than a block of rows per
// rank boundary.
#include "test_util.hpp"

#include <cstring>

using namespace idtest;

template <class D> class OrderedReduce : public ::testing::Test {};
#define IDTEST_ORDERED(S)                                                      \
  struct O_##S : D_##S {                                                       \
    static constexpr auto ordered_reduce = &_idtr_ordered_reduce_##S;          \
  };
IDTEST_ORDERED(f64)
IDTEST_ORDERED(f32)
IDTEST_ORDERED(f16)
IDTEST_ORDERED(bf16)
IDTEST_ORDERED(c64)
IDTEST_ORDERED(c128)
#undef IDTEST_ORDERED
using InexactTypes =
    ::testing::Types<O_f64, O_f32, O_f16, O_bf16, O_c64, O_c128>;
TYPED_TEST_SUITE(OrderedReduce, InexactTypes, TypeNames);

/// Element `i` of the global array: sums round at every step; factors near
/// 1 keep products finite.
template <class D> typename D::T input(int64_t op, int64_t i) {
  using T = typename D::T;
  const double x = static_cast<double>(mix(static_cast<uint64_t>(i)) % 1000);
  if constexpr (D::is_complex) {
    if (op == IDTR_OP_SUM)
      return T(x / 7.0 - 70.0, x / 13.0);
    return T(0.9 + x / 5000.0, x / 20000.0);
  } else {
    return static_cast<T>(op == IDTR_OP_SUM ? x / 7.0 - 70.0
                                            : 0.9 + x / 5000.0);
  }
}

/// `a` op `b` rounded to T (16-bit floats through float, as IDTR computes).
template <class D>
typename D::T combine(typename D::T a, typename D::T b, int64_t op) {
  using T = typename D::T;
  if constexpr (!D::is_complex) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    if constexpr (sizeof(T) == 2)
      return static_cast<T>(op == IDTR_OP_SUM ? x + y : x * y);
  }
  return op == IDTR_OP_SUM ? a + b : a * b;
}

TYPED_TEST(OrderedReduce, SameBitsOnEveryPartition) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int64_t B = IDTR_ORDERED_BLOCK;
  int config = 0;
  for (int64_t op : {IDTR_OP_SUM, IDTR_OP_PROD})
    for (int64_t rows : {int64_t(0), int64_t(1), int64_t(2), int64_t(5), B - 1,
                         B, B + 1, 3 * B + 7, 5 * B + 3})
      for (const Vec &trailing : {Vec{}, Vec{3}, Vec{2, 2}})
        for (PartKind kind : all_parts())
          for (Layout layout : {Layout::Dense, Layout::Strided}) {
            if (!sampled<D>(config++))
              continue;
            const int64_t R = numel(trailing);
            // The reference: the pairwise tree of the global rows, level by
            // level (rows 2i and 2i+1 combined, an odd last one passed up),
            // on the whole array, then combined with the identity.
            const T identity = static_cast<T>(op == IDTR_OP_SUM ? 0.0 : 1.0);
            std::vector<std::vector<T>> level;
            for (int64_t g = 0; g < rows; ++g) {
              level.emplace_back();
              for (int64_t c = 0; c < R; ++c)
                level.back().push_back(input<D>(op, g * R + c));
            }
            while (level.size() > 1) {
              std::vector<std::vector<T>> next;
              for (size_t i = 0; i + 1 < level.size(); i += 2) {
                next.push_back(level[i]);
                for (int64_t c = 0; c < R; ++c)
                  next.back()[c] = combine<D>(level[i][c], level[i + 1][c], op);
              }
              if (level.size() % 2)
                next.push_back(level.back());
              level = std::move(next);
            }
            std::vector<T> expect(static_cast<size_t>(R), identity);
            for (int64_t c = 0; c < R && !level.empty(); ++c)
              expect[c] = combine<D>(identity, level[0][c], op);
            Part part = make_part(rows, p, kind);
            Vec shape{part.size[me]};
            shape.insert(shape.end(), trailing.begin(), trailing.end());
            Arr<T> in(shape, layout, T(99));
            int64_t i = 0;
            for_each_index(shape, [&](const Vec &idx) {
              in.at(idx) = input<D>(op, part.off[me] * R + i++);
            });
            Vec outShape{1};
            outShape.insert(outShape.end(), trailing.begin(), trailing.end());
            Arr<T> out(outShape, layout, T(77));
            _idtr_reset_stats();
            D::ordered_reduce(IDTR_TEAM_WORLD, in.rank(), in.d(), part.off[me],
                              rows, op, out.rank(), out.d());
            const std::string what =
                std::string(op == IDTR_OP_SUM ? "sum" : "prod") + " of " +
                std::to_string(rows) + " rows of shape " + str(trailing) +
                ", " + part_name(kind) + " partition, " + layout_name(layout);
            i = 0;
            for_each_index(outShape, [&](const Vec &idx) {
              T got = out.at(idx), want = expect[static_cast<size_t>(i++)];
              EXPECT_EQ(std::memcmp(&got, &want, sizeof(T)), 0)
                  << what << ", element " << str(idx);
            });
            EXPECT_TRUE(out.gaps_intact()) << what << ": wrote outside";
            // Less than a block of rows moves to the previous rank.
            EXPECT_LT(_idtr_stats(IDTR_STAT_REDUCE, IDTR_CNT_BYTES_SENT),
                      B * R * int64_t(sizeof(T)) + 1)
                << what;
          }
}
