// Element types, strided views of memref descriptors and the copy kernel
// shared by libidtr's typed entry points (ops.cpp, sort.cpp).
#ifndef IDTR_TYPED_HPP
#define IDTR_TYPED_HPP

#include "internal.hpp"

#include <cinttypes>
#include <complex>
#include <cstring>
#include <type_traits>
#include <vector>

namespace idtr::detail {

// ------------------------------------------------------------ type traits ---

#define IDTR_TRAIT(NAME, CT, MPIT, ISBOOL, ISHALF)                             \
  struct NAME {                                                                \
    using T = CT;                                                              \
    static MPI_Datatype mpi() { return MPIT; }                                 \
    static constexpr bool is_bool = ISBOOL;                                    \
    static constexpr bool is_half = ISHALF;                                    \
  };
IDTR_TRAIT(TF64, double, MPI_DOUBLE, false, false)
IDTR_TRAIT(TF32, float, MPI_FLOAT, false, false)
IDTR_TRAIT(TI64, int64_t, MPI_INT64_T, false, false)
IDTR_TRAIT(TI32, int32_t, MPI_INT32_T, false, false)
IDTR_TRAIT(TI16, int16_t, MPI_INT16_T, false, false)
IDTR_TRAIT(TI8, int8_t, MPI_INT8_T, false, false)
IDTR_TRAIT(TI1, uint8_t, MPI_UINT8_T, true, false)
IDTR_TRAIT(TU64, uint64_t, MPI_UINT64_T, false, false)
IDTR_TRAIT(TU32, uint32_t, MPI_UINT32_T, false, false)
IDTR_TRAIT(TU16, uint16_t, MPI_UINT16_T, false, false)
IDTR_TRAIT(TU8, uint8_t, MPI_UINT8_T, false, false)
// 16-bit floats (IEEE half, bfloat16): moved as 16-bit words; reductions and
// scans compute in float (MPI has no 16-bit float types).
IDTR_TRAIT(TF16, _Float16, MPI_UINT16_T, false, true)
IDTR_TRAIT(TBF16, idtr::bfloat16, MPI_UINT16_T, false, true)
// Complex numbers (C's float/double _Complex, MLIR's complex<f32/f64>): sums
// and products only (they have no order).
IDTR_TRAIT(TC64, std::complex<float>, MPI_C_FLOAT_COMPLEX, false, false)
IDTR_TRAIT(TC128, std::complex<double>, MPI_C_DOUBLE_COMPLEX, false, false)

/// Applies X(suffix, trait) to every element type of the typed entry points
/// (`_idtr_<op>_<suffix>`); `index` travels as i64.
#define IDTR_FOR_EACH_TRAIT(X)                                                 \
  X(f64, TF64)                                                                 \
  X(f32, TF32)                                                                 \
  X(i64, TI64)                                                                 \
  X(i32, TI32)                                                                 \
  X(i16, TI16)                                                                 \
  X(i8, TI8)                                                                   \
  X(i1, TI1)                                                                   \
  X(ui64, TU64)                                                                \
  X(ui32, TU32)                                                                \
  X(ui16, TU16)                                                                \
  X(ui8, TU8)                                                                  \
  X(index, TI64)                                                               \
  X(f16, TF16)                                                                 \
  X(bf16, TBF16)                                                               \
  X(c64, TC64)                                                                 \
  X(c128, TC128)
#undef IDTR_TRAIT

template <class T> struct IsComplex : std::false_type {};
template <class T> struct IsComplex<std::complex<T>> : std::true_type {};
template <class T> constexpr bool is_complex_v = IsComplex<T>::value;

/// Whether `v` is a NaN (also for the 16-bit floats, which std::isnan does
/// not take).
template <class T> bool is_nan(T v) {
  if constexpr (std::is_integral_v<T>)
    return false;
  else
    return v != v;
}

constexpr int64_t kChunk = int64_t(1) << 30; // elements per MPI message chunk

// ------------------------------------------------------------------ views ---

template <class T> struct View {
  T *base = nullptr; // element (0,...,0)
  int rank = 0;
  int64_t sizes[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
  int64_t numel() const {
    int64_t n = 1;
    for (int k = 0; k < rank; ++k)
      n *= sizes[k];
    return n;
  }
};

template <class T> View<T> dense_view(T *p, const int64_t *sizes, int rank) {
  View<T> v;
  v.base = p;
  v.rank = rank;
  int64_t s = 1;
  for (int k = rank - 1; k >= 0; --k) {
    v.sizes[k] = sizes[k];
    v.strides[k] = s;
    s *= sizes[k];
  }
  return v;
}

/// Row-major dense (element i of the row-major order at base + i)?
template <class T> bool is_dense(const View<T> &v) {
  int64_t expect = 1;
  for (int k = v.rank - 1; k >= 0; --k) {
    if (v.sizes[k] == 0)
      return true;
    if (v.sizes[k] == 1)
      continue;
    if (v.strides[k] != expect)
      return false;
    expect *= v.sizes[k];
  }
  return true;
}

enum class Use { In, Out };

/// Validate and wrap an unranked memref argument.
template <class T>
View<T> make_view(const char *name, int64_t rank, void *desc, Use use) {
  if (!desc)
    fail("argument '%s': null memref descriptor", name);
  if (rank < 0 || rank > kMaxRank)
    fail("argument '%s': memref rank %" PRId64 " not supported (0..%d)", name,
         rank, kMaxRank);
  MemRef<T> m(rank, desc);
  View<T> v;
  v.rank = static_cast<int>(rank);
  int64_t n = 1;
  for (int k = 0; k < v.rank; ++k) {
    v.sizes[k] = m.size(k);
    v.strides[k] = m.stride(k);
    if (v.sizes[k] < 0)
      fail("argument '%s': negative size %" PRId64 " in dimension %d", name,
           v.sizes[k], k);
    if (__builtin_mul_overflow(n, v.sizes[k], &n))
      fail("argument '%s': element count overflows", name);
  }
  if (n > 0 && !m.aligned())
    fail("argument '%s': null data pointer for %" PRId64 " elements", name, n);
  if (use == Use::Out && n > 1)
    for (int k = 0; k < v.rank; ++k)
      if (v.sizes[k] > 1 && v.strides[k] == 0)
        fail("argument '%s': output has stride 0 in dimension %d of size "
             "%" PRId64 " (broadcast views cannot be written)",
             name, k, v.sizes[k]);
  v.base = n > 0 ? m.aligned() + m.offset() : m.aligned();
  return v;
}

/// Read a memref<?xindex> argument of any length (tables indexed by rank).
inline std::vector<int64_t> read_index_table(const char *name, int64_t rank,
                                             void *desc, int64_t len) {
  if (!desc)
    fail("argument '%s': null memref descriptor", name);
  if (rank != 1)
    fail("argument '%s' must be a rank-1 memref<?xindex>, got rank %" PRId64,
         name, rank);
  MemRef<int64_t> m(1, desc);
  if (m.size(0) != len)
    fail("argument '%s' has %" PRId64 " entries, expected %" PRId64, name,
         m.size(0), len);
  std::vector<int64_t> v(static_cast<size_t>(len));
  if (len > 0 && !m.aligned())
    fail("argument '%s': null data pointer", name);
  for (int64_t i = 0; i < len; ++i)
    v[i] = m.data()[i * m.stride(0)];
  return v;
}

/// Read a memref<?xindex> argument with one entry per array dimension.
inline Idx read_index(const char *name, int64_t rank, void *desc, int len) {
  if (!desc)
    fail("argument '%s': null memref descriptor", name);
  if (rank != 1)
    fail("argument '%s' must be a rank-1 memref<?xindex>, got rank %" PRId64,
         name, rank);
  MemRef<int64_t> m(1, desc);
  if (m.size(0) != len)
    fail("argument '%s' has %" PRId64 " entries, expected %d", name, m.size(0),
         len);
  Idx v(len);
  if (len > 0 && !m.aligned())
    fail("argument '%s': null data pointer", name);
  for (int i = 0; i < len; ++i)
    v[i] = m.data()[i * m.stride(0)];
  return v;
}

/// Check a distributed block: global shape non-negative, block [loffs,
/// loffs+sizes) along `split`, full extent elsewhere.
template <class T>
void check_block(const char *name, const View<T> &v, const Idx &g,
                 const Idx &loffs, int split) {
  if (v.rank < 1)
    fail("argument '%s': distributed arrays must have rank >= 1", name);
  for (int k = 0; k < v.rank; ++k) {
    if (g[k] < 0)
      fail("global shape %s has a negative size", fmt_vec(g).c_str());
    if (k == split) {
      if (loffs[k] < 0 || loffs[k] > g[k] || v.sizes[k] > g[k] - loffs[k])
        fail("argument '%s': local block rows [%" PRId64 ", %" PRId64
             ") lie outside the global shape %s",
             name, loffs[k], loffs[k] + v.sizes[k], fmt_vec(g).c_str());
    } else if (loffs[k] != 0 || v.sizes[k] != g[k]) {
      fail("argument '%s': local block (offsets %s, sizes %s) must span the "
           "full global extent %s in non-split dimension %d",
           name, fmt_vec(loffs).c_str(), fmt_vec(v.sizes, v.rank).c_str(),
           fmt_vec(g).c_str(), k);
    }
  }
}

/// Check a block of any block distribution: global shape non-negative and
/// the block [loffs, loffs+sizes) inside it.
template <class T>
void check_box_block(const char *name, const View<T> &v, const Idx &g,
                     const Idx &loffs) {
  if (v.rank < 1)
    fail("argument '%s': distributed arrays must have rank >= 1", name);
  for (int k = 0; k < v.rank; ++k) {
    if (g[k] < 0)
      fail("global shape %s has a negative size", fmt_vec(g).c_str());
    if (loffs[k] < 0 || loffs[k] > g[k] || v.sizes[k] > g[k] - loffs[k])
      fail("argument '%s': local block (offsets %s, sizes %s) lies outside "
           "the global shape %s",
           name, fmt_vec(loffs).c_str(), fmt_vec(v.sizes, v.rank).c_str(),
           fmt_vec(g).c_str());
  }
}

inline void check_box(const char *what, const Idx &off, const Idx &size,
                      const Idx &g) {
  // (An empty box, of size 0 along some dimension, lies in every array: the
  // offsets of an empty view need not be clamped to the array.)
  for (int k = 0; k < g.size(); ++k)
    if (size[k] == 0)
      return;
  for (int k = 0; k < g.size(); ++k)
    if (off[k] < 0 || size[k] < 0 || off[k] > g[k] || size[k] > g[k] - off[k])
      fail("%s [offsets %s, sizes %s] lies outside the array of shape %s", what,
           fmt_vec(off).c_str(), fmt_vec(size).c_str(), fmt_vec(g).c_str());
}

// ---------------------------------------------------------------- kernels ---

/// dst <- src for views of identical sizes (any strides).
/// Sub-view of a box region, dimensions in traversal order.
template <class T> View<T> subview(const View<T> &v, const Region &r) {
  View<T> s;
  s.rank = r.rank;
  s.base = v.base;
  for (int k = 0; k < r.rank; ++k)
    s.base += r.start[k] * v.strides[k];
  for (int k = 0; k < r.rank; ++k) {
    s.sizes[k] = r.extent[r.order[k]];
    s.strides[k] = v.strides[r.order[k]];
  }
  return s;
}

/// Posts the nonblocking send or receive of `count` elements at `p` (in
/// messages of at most kChunk elements) as requests of `op`.
template <class TR>
void post(AsyncOp &op, bool send, typename TR::T *p, int64_t count, int peer,
          int tag, MPI_Comm comm) {
  while (count > 0) {
    int c = static_cast<int>(std::min(count, kChunk));
    MPI_Request rq;
    if (send)
      IDTR_MPI(MPI_Isend(p, c, TR::mpi(), peer, tag, comm, &rq));
    else
      IDTR_MPI(MPI_Irecv(p, c, TR::mpi(), peer, tag, comm, &rq));
    op.reqs.push_back(rq);
    op.req_info.push_back(
        {peer, tag, send, static_cast<int64_t>(sizeof(typename TR::T)) * c});
    p += c;
    count -= c;
  }
}

/// MPI_Ibcast of `count` elements at `p` from `root` (in chunks, as post).
template <class TR>
void post_bcast(AsyncOp &op, typename TR::T *p, int64_t count, int root,
                bool is_root, MPI_Comm comm) {
  while (count > 0) {
    int c = static_cast<int>(std::min(count, kChunk));
    MPI_Request rq;
    IDTR_MPI(MPI_Ibcast(p, c, TR::mpi(), root, comm, &rq));
    op.reqs.push_back(rq);
    op.req_info.push_back({root, kBcastTag, is_root,
                           static_cast<int64_t>(sizeof(typename TR::T)) * c});
    p += c;
    count -= c;
  }
}

/// A buffer of `count` elements owned by `op` (freed with it).
template <class T> T *alloc_buffer(AsyncOp &op, int64_t count) {
  op.buffers.emplace_back(sizeof(T) * static_cast<size_t>(count));
  return reinterpret_cast<T *>(op.buffers.back().data());
}

template <class T> void copy_view(const View<T> &dst, const View<T> &src) {
  int n = 0;
  int64_t sz[kMaxRank], ds[kMaxRank], ss[kMaxRank];
  for (int k = 0; k < src.rank; ++k) {
    int64_t s = src.sizes[k];
    if (s == 0)
      return;
    if (s == 1)
      continue;
    if (n > 0 && ds[n - 1] == dst.strides[k] * s &&
        ss[n - 1] == src.strides[k] * s) {
      sz[n - 1] *= s; // merge with the enclosing dimension
      ds[n - 1] = dst.strides[k];
      ss[n - 1] = src.strides[k];
    } else {
      sz[n] = s;
      ds[n] = dst.strides[k];
      ss[n] = src.strides[k];
      ++n;
    }
  }
  if (n == 0) {
    *dst.base = *src.base;
    return;
  }
  const int64_t len = sz[n - 1], di = ds[n - 1], si = ss[n - 1];
  auto inner = [&](T *d, const T *s) {
    if (di == 1 && si == 1)
      std::memcpy(d, s, sizeof(T) * len);
    else
      for (int64_t i = 0; i < len; ++i)
        d[i * di] = s[i * si];
  };
  if (n == 1) {
    inner(dst.base, src.base);
    return;
  }
  int64_t idx[kMaxRank] = {};
  T *d = dst.base;
  const T *s = src.base;
  for (;;) {
    inner(d, s);
    int k = n - 2;
    for (; k >= 0; --k) {
      d += ds[k];
      s += ss[k];
      if (++idx[k] < sz[k])
        break;
      d -= ds[k] * sz[k];
      s -= ss[k] * sz[k];
      idx[k] = 0;
    }
    if (k < 0)
      return;
  }
}

} // namespace idtr::detail

#endif // IDTR_TYPED_HPP
