// Helpers for the libidtr tests: element-type descriptors for typed tests,
// strided local arrays behind real MLIR-style descriptors, partitions and the
// reference formula every rank uses to compute the global array.
#pragma once

#include "idtr/idtr.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace idtest {

using Vec = std::vector<int64_t>;

inline int rank() {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int nprocs() {
  int n;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

// ------------------------------------------------------- element types ---

// Entry points of every element type; complex ones (no order) have no sorts.
#define IDTEST_ENTRIES(S)                                                      \
  static constexpr const char *name = #S;                                      \
  static constexpr auto reduce = &_idtr_reduce_all_##S;                        \
  static constexpr auto exscan = &_idtr_exscan_##S;                            \
  static constexpr auto halo = &_idtr_update_halo_##S;                         \
  static constexpr auto reshape = &_idtr_copy_reshape_##S;                     \
  static constexpr auto permute = &_idtr_copy_permute_##S;                     \
  static constexpr auto repartition = &_idtr_repartition_##S;                  \
  static constexpr auto exchange_ghosts = &_idtr_exchange_ghosts_##S;          \
  static constexpr auto fetch_boxes = &_idtr_fetch_boxes_##S;                  \
  static constexpr auto gather = &_idtr_gather_##S;                            \
  static constexpr auto alltoall = &_idtr_ragged_alltoall_##S;                 \
  static constexpr auto take = &_idtr_take_##S;                                \
  static constexpr auto put = &_idtr_put_##S;
#define IDTEST_DTYPE(S, CT, ISBOOL, ISFLOAT, ORDER)                            \
  struct D_##S {                                                               \
    using T = CT;                                                              \
    static constexpr int order = ORDER;                                        \
    static constexpr bool is_bool = ISBOOL;                                    \
    static constexpr bool is_float = ISFLOAT;                                  \
    static constexpr bool is_complex = false;                                  \
    IDTEST_ENTRIES(S)                                                          \
    static constexpr auto sort = &_idtr_sort_##S;                              \
    static constexpr auto argsort = &_idtr_argsort_##S;                        \
    static constexpr auto sample_sort = &_idtr_sample_sort_##S;                \
  };
#define IDTEST_COMPLEX_DTYPE(S, CT, ORDER)                                     \
  struct D_##S {                                                               \
    using T = std::complex<CT>;                                                \
    static constexpr int order = ORDER;                                        \
    static constexpr bool is_bool = false;                                     \
    static constexpr bool is_float = true;                                     \
    static constexpr bool is_complex = true;                                   \
    IDTEST_ENTRIES(S)                                                          \
  };
IDTEST_DTYPE(f64, double, false, true, 0)
IDTEST_DTYPE(f32, float, false, true, 1)
IDTEST_DTYPE(i64, int64_t, false, false, 2)
IDTEST_DTYPE(i32, int32_t, false, false, 3)
IDTEST_DTYPE(i16, int16_t, false, false, 4)
IDTEST_DTYPE(i8, int8_t, false, false, 5)
IDTEST_DTYPE(i1, uint8_t, true, false, 6)
IDTEST_DTYPE(ui64, uint64_t, false, false, 7)
IDTEST_DTYPE(ui32, uint32_t, false, false, 8)
IDTEST_DTYPE(ui16, uint16_t, false, false, 9)
IDTEST_DTYPE(ui8, uint8_t, false, false, 10)
IDTEST_DTYPE(index, int64_t, false, false, 11)
IDTEST_DTYPE(f16, _Float16, false, true, 12)
IDTEST_DTYPE(bf16, idtr::bfloat16, false, true, 13)
IDTEST_COMPLEX_DTYPE(c64, float, 14)
IDTEST_COMPLEX_DTYPE(c128, double, 15)
#undef IDTEST_DTYPE
#undef IDTEST_COMPLEX_DTYPE
#undef IDTEST_ENTRIES

/// The configuration sweeps run completely for f64 and i1 (the 8-byte and
/// the 1-byte boolean extremes; plans are type-independent and kernels only
/// depend on the element size) and on a type-specific 1/7 of the
/// configurations for the other types. 7 is coprime with the 2- and 3-cycles
/// that pick layouts and cached/uncached plans, so every type still sees all
/// of those, and the union over the types covers every configuration.
template <class D> bool sampled(int config_index) {
  constexpr bool full = std::is_same_v<D, D_f64> || std::is_same_v<D, D_i1>;
  return full || (config_index + D::order) % 7 == 0;
}

/// Types with an order (sorts, min/max reductions).
using AllTypes =
    ::testing::Types<D_f64, D_f32, D_i64, D_i32, D_i16, D_i8, D_i1, D_ui64,
                     D_ui32, D_ui16, D_ui8, D_index, D_f16, D_bf16>;
/// Every type IDTR moves: also complex<f32>, complex<f64>.
using MovedTypes = ::testing::Types<D_f64, D_f32, D_i64, D_i32, D_i16, D_i8,
                                    D_i1, D_ui64, D_ui32, D_ui16, D_ui8,
                                    D_index, D_f16, D_bf16, D_c64, D_c128>;
struct TypeNames {
  template <class D> static std::string GetName(int) { return D::name; }
};

inline uint64_t mix(uint64_t x) { // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// Reference value of global linear element `i` (salt varies per iteration).
template <class D> typename D::T val(int64_t i, int64_t salt = 0) {
  using T = typename D::T;
  uint64_t h = mix(static_cast<uint64_t>(i) * 1315423911ull +
                   static_cast<uint64_t>(salt));
  if constexpr (D::is_bool)
    return static_cast<T>(h & 1);
  else if constexpr (D::is_complex)
    return T(static_cast<double>(h % 2001) * 0.25 - 250.0,
             static_cast<double>((h >> 20) % 2001) * 0.25 - 250.0);
  else if constexpr (D::is_float)
    return static_cast<T>(static_cast<double>(h % 2001) * 0.25 - 250.0);
  else
    return static_cast<T>(h % 251 + (h >> 40) % 7 * 1000); // distinct-ish
}

/// NaN test for every element type (std::isnan takes no 16-bit floats).
template <class T> bool isNaN(T v) {
  if constexpr (std::is_integral_v<T>)
    return false;
  else
    return v != v;
}

// ------------------------------------------------------------- indexing ---

inline int64_t numel(const Vec &s) {
  int64_t n = 1;
  for (auto v : s)
    n *= v;
  return n;
}

// (The tests avoid per-element heap allocations: under the sanitizers every
// malloc is unwound with the slow unwinder.)
inline int64_t lin(const Vec &shape, const Vec &idx) {
  int64_t l = 0;
  for (size_t k = 0; k < shape.size(); ++k)
    l = l * shape[k] + idx[k];
  return l;
}
inline int64_t lin(const Vec &shape, std::initializer_list<int64_t> idx) {
  int64_t l = 0;
  auto it = idx.begin();
  for (size_t k = 0; k < shape.size(); ++k)
    l = l * shape[k] + it[k];
  return l;
}
/// Linear index of idx + (off0, 0, ..., 0).
inline int64_t lin0(const Vec &shape, const Vec &idx, int64_t off0) {
  int64_t l = 0;
  for (size_t k = 0; k < shape.size(); ++k)
    l = l * shape[k] + idx[k] + (k == 0 ? off0 : 0);
  return l;
}

/// Call f(idx) for every multi-index of `sizes` in row-major order.
inline void for_each_index(const Vec &sizes,
                           const std::function<void(const Vec &)> &f) {
  if (numel(sizes) == 0)
    return;
  Vec idx(sizes.size(), 0);
  for (;;) {
    f(idx);
    int k = static_cast<int>(sizes.size()) - 1;
    for (; k >= 0; --k) {
      if (++idx[k] < sizes[k])
        break;
      idx[k] = 0;
    }
    if (k < 0)
      return;
  }
}

// --------------------------------------------------------------- arrays ---

enum class Layout { Dense, Strided, Reversed };
inline const char *layout_name(Layout l) {
  return l == Layout::Dense     ? "dense"
         : l == Layout::Strided ? "strided"
                                : "reversed";
}

/// A local array in its own buffer, exposed through an MLIR ranked descriptor
/// with the given layout (Strided: gaps between elements and rows and a
/// non-zero offset; Reversed: column-major). Gaps hold a sentinel.
template <class T> struct Arr {
  Vec sizes, strides;
  int64_t offset = 0;
  std::vector<T> buf;
  idtr::Descriptor<T> desc;
  T sentinel{};

  explicit Arr(Vec sz = {}, Layout l = Layout::Dense, T fill = T(0))
      : sizes(std::move(sz)), sentinel(fill) {
    const size_t r = sizes.size();
    strides.assign(r, 1);
    if (l == Layout::Dense) {
      strides = idtr::Descriptor<T>::row_major(sizes);
    } else if (l == Layout::Strided) {
      int64_t s = 2;
      for (size_t k = r; k-- > 0;) {
        strides[k] = s;
        s = s * std::max<int64_t>(sizes[k], 1) + 3;
      }
      offset = 5;
    } else {
      int64_t s = 1;
      for (size_t k = 0; k < r; ++k) {
        strides[k] = s;
        s *= std::max<int64_t>(sizes[k], 1);
      }
    }
    int64_t extent = offset + 1;
    for (size_t k = 0; k < r; ++k)
      if (sizes[k] > 0)
        extent += (sizes[k] - 1) * strides[k];
    buf.assign(static_cast<size_t>(extent) + 2, fill);
    desc = idtr::Descriptor<T>(buf.data(), buf.data(), offset, sizes, strides);
  }
  Arr(const Arr &) = delete;
  Arr &operator=(const Arr &) = delete;

  int64_t rank() const { return static_cast<int64_t>(sizes.size()); }
  void *d() { return desc.get(); }
  T &at(const Vec &idx) {
    int64_t o = offset;
    for (size_t k = 0; k < idx.size(); ++k)
      o += idx[k] * strides[k];
    return buf[static_cast<size_t>(o)];
  }
  T &at(std::initializer_list<int64_t> idx) {
    int64_t o = offset;
    size_t k = 0;
    for (int64_t v : idx)
      o += v * strides[k++];
    return buf[static_cast<size_t>(o)];
  }
  /// Every buffer element outside the view still holds the sentinel?
  bool gaps_intact() {
    std::vector<char> in(buf.size(), 0);
    for_each_index(sizes, [&](const Vec &i) {
      int64_t o = offset;
      for (size_t k = 0; k < i.size(); ++k)
        o += i[k] * strides[k];
      in[static_cast<size_t>(o)] = 1;
    });
    for (size_t i = 0; i < buf.size(); ++i)
      if (!in[i] && !(buf[i] == sentinel))
        return false;
    return true;
  }
};

// ----------------------------------------------------------- partitions ---

struct Part {
  Vec off, size;
};

inline Part default_part(int64_t n, int p) {
  Part r{Vec(p), Vec(p)};
  for (int i = 0; i < p; ++i)
    _idtr_default_partition(n, p, i, &r.off[i], &r.size[i]);
  return r;
}

enum class PartKind { Default, Skewed, FirstEmpty, LastEmpty, OneOwner };
inline const char *part_name(PartKind k) {
  switch (k) {
  case PartKind::Default:
    return "default";
  case PartKind::Skewed:
    return "skewed";
  case PartKind::FirstEmpty:
    return "first-empty";
  case PartKind::LastEmpty:
    return "last-empty";
  case PartKind::OneOwner:
    return "one-owner";
  }
  return "?";
}
inline const std::vector<PartKind> &all_parts() {
  static const std::vector<PartKind> v = {
      PartKind::Default, PartKind::Skewed, PartKind::FirstEmpty,
      PartKind::LastEmpty, PartKind::OneOwner};
  return v;
}

/// Partition of n rows over p ranks (rank-ordered contiguous tiling).
inline Part make_part(int64_t n, int p, PartKind kind) {
  Part r{Vec(p, 0), Vec(p, 0)};
  switch (kind) {
  case PartKind::Default:
    return default_part(n, p);
  case PartKind::Skewed: { // weights (r+1)^2, rank 1 empty when p > 2
    Vec w(p);
    for (int i = 0; i < p; ++i)
      w[i] = (p > 2 && i == 1) ? 0 : (i + 1) * (i + 1);
    int64_t tot = std::accumulate(w.begin(), w.end(), int64_t(0)), acc = 0,
            prev = 0;
    for (int i = 0; i < p; ++i) {
      acc += w[i];
      int64_t end = n * acc / tot;
      r.size[i] = end - prev;
      prev = end;
    }
    break;
  }
  case PartKind::FirstEmpty:
  case PartKind::LastEmpty: {
    if (p == 1)
      return default_part(n, 1);
    Part d = default_part(n, p - 1);
    for (int i = 0; i < p - 1; ++i)
      r.size[kind == PartKind::FirstEmpty ? i + 1 : i] = d.size[i];
    break;
  }
  case PartKind::OneOwner:
    r.size[p / 2] = n;
    break;
  }
  int64_t o = 0;
  for (int i = 0; i < p; ++i) {
    r.off[i] = o;
    o += r.size[i];
  }
  return r;
}

/// Fill a local block (rows [off, off+rows) along dim 0 of `gshape`) from the
/// reference formula.
template <class D>
void fill_block(Arr<typename D::T> &a, const Vec &gshape, int64_t off,
                int64_t salt = 0) {
  for_each_index(a.sizes, [&](const Vec &i) {
    a.at(i) = val<D>(lin0(gshape, i, off), salt);
  });
}

inline idtr::IndexVec iv(const Vec &v) { return idtr::IndexVec(v); }

inline std::string str(const Vec &v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + ")";
}

inline int64_t stat(int kind, int counter) {
  return _idtr_stats(kind, counter);
}

/// Sum of an int64 over all ranks.
inline int64_t allsum(int64_t v) {
  int64_t s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

} // namespace idtest
