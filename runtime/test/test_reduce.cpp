// _idtr_reduce_all_<T> and _idtr_exscan_<T>: every op, every dtype, 0-d to
// 2-d, strided data.
#include "test_util.hpp"

#include <cstdlib>
#include <limits>
#include <type_traits>

using namespace idtest;

template <class D> class Reduce : public ::testing::Test {};
TYPED_TEST_SUITE(Reduce, AllTypes, TypeNames);

template <class D> typename D::T reduce_input(int64_t op, int r, int64_t i) {
  using T = typename D::T;
  constexpr bool sgn = std::is_signed_v<T>;
  if constexpr (D::is_bool)
    return static_cast<T>((r * 5 + i * 3 + r * i) % 3 != 0);
  switch (op) {
  case IDTR_OP_SUM: {
    int64_t k = (r * 7 + i * 3) % 7;
    if constexpr (D::is_float)
      return static_cast<T>((k - 3) * 0.5);
    return static_cast<T>(sgn ? k - 3 : k % 4);
  }
  case IDTR_OP_PROD: {
    int64_t k = (r + i) % 3;
    return static_cast<T>(k == 0 ? (sgn ? -1 : 1) : k);
  }
  case IDTR_OP_MIN:
  case IDTR_OP_MAX:
    return static_cast<T>((r * 13 + i * 5) % 11 - (sgn ? 5 : 0));
  default: // logical: zero for some (rank, element) pairs; never for i == 0
    return static_cast<T>((r * i) % 4 == 3 ? 0 : (D::is_float ? 2.5 : 2));
  }
}

/// The identity of `op` on D (what an exclusive scan gives the first rank).
template <class D> typename D::T identity(int64_t op) {
  using T = typename D::T;
  using L = std::numeric_limits<T>;
  bool is_and = op == IDTR_OP_LAND || op == IDTR_OP_PROD || op == IDTR_OP_MIN;
  if (D::is_bool || op == IDTR_OP_LAND || op == IDTR_OP_LOR)
    return static_cast<T>(is_and);
  if (op == IDTR_OP_SUM || op == IDTR_OP_PROD)
    return static_cast<T>(op == IDTR_OP_PROD);
  if constexpr (D::is_float) // (numeric_limits has no 16-bit floats)
    return static_cast<T>(op == IDTR_OP_MIN
                              ? std::numeric_limits<float>::infinity()
                              : -std::numeric_limits<float>::infinity());
  if constexpr (L::has_infinity)
    return op == IDTR_OP_MIN ? L::infinity() : -L::infinity();
  return op == IDTR_OP_MIN ? L::max() : L::lowest();
}

/// The reduction with `op` of the inputs of ranks 0..p-1 at element `i`.
template <class D> typename D::T reduce_expect(int64_t op, int p, int64_t i) {
  using T = typename D::T;
  if (p == 0)
    return identity<D>(op);
  bool land = true, lor = false;
  for (int r = 0; r < p; ++r) {
    bool b = reduce_input<D>(op, r, i) != T(0);
    land = land && b;
    lor = lor || b;
  }
  if (D::is_bool) {
    bool any = op == IDTR_OP_SUM || op == IDTR_OP_MAX || op == IDTR_OP_LOR;
    return static_cast<T>(any ? lor : land);
  }
  if (op == IDTR_OP_LAND)
    return static_cast<T>(land);
  if (op == IDTR_OP_LOR)
    return static_cast<T>(lor);
  T acc = reduce_input<D>(op, 0, i);
  for (int r = 1; r < p; ++r) {
    T v = reduce_input<D>(op, r, i);
    if (op == IDTR_OP_SUM)
      acc = static_cast<T>(acc + v);
    else if (op == IDTR_OP_PROD)
      acc = static_cast<T>(acc * v);
    else if (op == IDTR_OP_MIN)
      acc = std::min(acc, v);
    else
      acc = std::max(acc, v);
  }
  return acc;
}

TYPED_TEST(Reduce, AllOpsShapesLayouts) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  for (int64_t op = IDTR_OP_SUM; op <= IDTR_OP_LOR; ++op) {
    // 0-d, small, empty, and larger than the 32 elements reduced together
    // with the cross-rank consistency header.
    for (const Vec &shape :
         {Vec{}, Vec{5}, Vec{2, 3}, Vec{0, 4}, Vec{7, 9}, Vec{33}}) {
      for (Layout l : {Layout::Dense, Layout::Strided, Layout::Reversed}) {
        Arr<T> a(shape, l, T(99));
        for_each_index(shape, [&](const Vec &i) {
          a.at(i) = reduce_input<D>(op, me, lin(shape, i));
        });
        D::reduce(IDTR_TEAM_WORLD, a.rank(), a.d(), op);
        for_each_index(shape, [&](const Vec &i) {
          EXPECT_EQ(a.at(i), reduce_expect<D>(op, p, lin(shape, i)))
              << "op " << op << " shape " << str(shape) << " " << layout_name(l)
              << " index " << str(i);
        });
        EXPECT_TRUE(a.gaps_intact()) << "wrote outside the view";
      }
    }
  }
}

TYPED_TEST(Reduce, ExclusiveScanAllOpsShapesLayouts) {
  using D = TypeParam;
  using T = typename D::T;
  const int me = rank();
  for (int64_t op = IDTR_OP_SUM; op <= IDTR_OP_LOR; ++op) {
    for (const Vec &shape : {Vec{}, Vec{5}, Vec{2, 3}, Vec{0, 4}, Vec{33}}) {
      for (Layout l : {Layout::Dense, Layout::Strided, Layout::Reversed}) {
        Arr<T> a(shape, l, T(99));
        for_each_index(shape, [&](const Vec &i) {
          a.at(i) = reduce_input<D>(op, me, lin(shape, i));
        });
        D::exscan(IDTR_TEAM_WORLD, a.rank(), a.d(), op);
        for_each_index(shape, [&](const Vec &i) {
          EXPECT_EQ(a.at(i), reduce_expect<D>(op, me, lin(shape, i)))
              << "op " << op << " shape " << str(shape) << " " << layout_name(l)
              << " index " << str(i);
        });
        EXPECT_TRUE(a.gaps_intact()) << "wrote outside the view";
      }
    }
  }
}

TYPED_TEST(Reduce, ExclusiveScanTeamNoneGivesIdentity) {
  using D = TypeParam;
  Arr<typename D::T> a({3});
  for (int64_t op = IDTR_OP_SUM; op <= IDTR_OP_LOR; ++op) {
    for (int64_t i = 0; i < 3; ++i)
      a.at({i}) = reduce_input<D>(op, rank(), i);
    D::exscan(IDTR_TEAM_NONE, 1, a.d(), op);
    for (int64_t i = 0; i < 3; ++i)
      EXPECT_EQ(a.at({i}), identity<D>(op)) << "op " << op;
  }
}

TYPED_TEST(Reduce, TeamNoneKeepsLocalValues) {
  using D = TypeParam;
  using T = typename D::T;
  Arr<T> a({4});
  for (int64_t i = 0; i < 4; ++i)
    a.at({i}) = reduce_input<D>(IDTR_OP_MAX, rank(), i);
  D::reduce(IDTR_TEAM_NONE, 1, a.d(), IDTR_OP_MAX);
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(a.at({i}), reduce_input<D>(IDTR_OP_MAX, rank(), i));
}

// The cross-rank consistency check travels with the data: a reduction of up
// to 32 elements is a single MPI collective, larger ones add the rest.
TYPED_TEST(Reduce, CheckCostsNoExtraCollective) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs();
  const char *nc = std::getenv("IDTR_NO_CHECKS");
  const bool checks = !(nc && *nc && *nc != '0');
  for (int64_t n : {1, 32, 33, 100}) {
    Arr<T> a({n});
    for (int64_t i = 0; i < n; ++i)
      a.at({i}) = static_cast<T>(1);
    _idtr_reset_stats();
    D::reduce(IDTR_TEAM_WORLD, 1, a.d(), IDTR_OP_MAX);
    EXPECT_EQ(stat(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES),
              p == 1 ? 0 : (checks && n > 32 ? 2 : 1))
        << n;
    for (int64_t i = 0; i < n; ++i)
      EXPECT_EQ(a.at({i}), static_cast<T>(1));
  }
}

// Complex numbers: sums, products and logical reductions (no min/max: they
// have no order; rejected, see the error cases). Inputs are small Gaussian
// integers, so results are exact in any order.
template <class D> class ReduceComplex : public ::testing::Test {};
using ComplexTypes = ::testing::Types<D_c64, D_c128>;
TYPED_TEST_SUITE(ReduceComplex, ComplexTypes, TypeNames);

template <class T> T complex_input(int64_t op, int r, int64_t i) {
  if (op == IDTR_OP_SUM)
    return T((r * 7 + i * 3) % 7 - 3, (r + 2 * i) % 5 - 2);
  if (op == IDTR_OP_PROD)
    return T((r + i) % 3 == 0 ? 1 : (r + i) % 3, (r * i) % 2);
  return T((r * i) % 4 == 3 ? 0 : 1, 0); // logical: some zeros
}

/// Ranks 0..p-1 combined in rank order; the identity for p == 0.
template <class T> T complex_expect(int64_t op, int p, int64_t i) {
  T acc = op == IDTR_OP_SUM || op == IDTR_OP_LOR ? T(0) : T(1);
  for (int r = 0; r < p; ++r) {
    T v = complex_input<T>(op, r, i);
    if (op == IDTR_OP_SUM)
      acc += v;
    else if (op == IDTR_OP_PROD)
      acc *= v;
    else if (op == IDTR_OP_LAND)
      acc = T(acc != T(0) && v != T(0));
    else
      acc = T(acc != T(0) || v != T(0));
  }
  return acc;
}

TYPED_TEST(ReduceComplex, SumProdLogicalAndExclusiveScans) {
  using D = TypeParam;
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  for (int64_t op : {IDTR_OP_SUM, IDTR_OP_PROD, IDTR_OP_LAND, IDTR_OP_LOR}) {
    // Around the fused buffer's capacity (16 complex<f64>, 32 complex<f32>).
    for (const Vec &shape :
         {Vec{}, Vec{2, 3}, Vec{0, 4}, Vec{16}, Vec{17}, Vec{33}}) {
      for (Layout l : {Layout::Dense, Layout::Reversed}) {
        for (bool scan : {false, true}) {
          Arr<T> a(shape, l, T(99));
          for_each_index(shape, [&](const Vec &i) {
            a.at(i) = complex_input<T>(op, me, lin(shape, i));
          });
          (scan ? D::exscan : D::reduce)(IDTR_TEAM_WORLD, a.rank(), a.d(), op);
          for_each_index(shape, [&](const Vec &i) {
            EXPECT_EQ(a.at(i),
                      complex_expect<T>(op, scan ? me : p, lin(shape, i)))
                << (scan ? "exscan" : "reduce") << " op " << op << " shape "
                << str(shape) << " " << layout_name(l) << " index " << str(i);
          });
          EXPECT_TRUE(a.gaps_intact()) << "wrote outside the view";
        }
      }
    }
  }
}
