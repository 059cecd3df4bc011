// Data-dependent operations of libidtr: stable local sorts along any axis of
// a strided array (numpy's order: NaNs last), the distributed sample sort of
// 1-d arrays split over a team (the result in the partition the caller asks
// for).
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <type_traits>
#include <vector>

namespace idtr::detail {
namespace {

/// Ascending order with NaNs after every number (numpy's sort order);
/// `descending` reverses it (NaNs first). Booleans compare as 0/1.
template <class T> struct Order {
  bool descending;
  static bool less(T a, T b) {
    if constexpr (!std::is_integral_v<T>) {
      const bool an = is_nan(a), bn = is_nan(b);
      if (an || bn)
        return !an && bn;
    }
    return a < b;
  }
  bool operator()(T a, T b) const {
    return descending ? less(b, a) : less(a, b);
  }
};

/// A value with its global position: the total order of the stable sort
/// (ties by position).
template <class T> struct Keyed {
  T value;
  int64_t index;
};

template <class T> struct KeyedOrder {
  Order<T> order;
  bool operator()(const Keyed<T> &a, const Keyed<T> &b) const {
    if (order(a.value, b.value))
      return true;
    if (order(b.value, a.value))
      return false;
    return a.index < b.index;
  }
};

/// Calls fn(offset of the lane's first element, stride) for every 1-d lane
/// of `v` along `axis`.
template <class T, class Fn>
void for_each_lane(const View<T> &v, int axis, Fn fn) {
  for (int k = 0; k < v.rank; ++k)
    if (v.sizes[k] == 0)
      return;
  int64_t idx[kMaxRank] = {};
  for (;;) {
    int64_t offset = 0;
    for (int k = 0; k < v.rank; ++k)
      offset += idx[k] * v.strides[k];
    fn(offset);
    int k = v.rank - 1;
    for (; k >= 0; --k) {
      if (k == axis)
        continue;
      if (++idx[k] < v.sizes[k])
        break;
      idx[k] = 0;
    }
    if (k < 0)
      return;
  }
}

void check_axis(int64_t axis, int rank) {
  if (axis < 0 || axis >= std::max(rank, 1))
    fail("invalid axis %" PRId64 " for an array of rank %d", axis, rank);
}

template <class TR>
void sort_local(const char *entry, int64_t dr, void *dd, int64_t axis,
                int64_t descending) {
  using T = typename TR::T;
  EntryScope es(entry);
  View<T> data = make_view<T>("data", dr, dd, Use::Out);
  if (data.rank == 0)
    return;
  check_axis(axis, data.rank);
  const int a = static_cast<int>(axis);
  const int64_t n = data.sizes[a], stride = data.strides[a];
  // (value, position) pairs: std::sort with ties broken by position is a
  // stable sort (without std::stable_sort's temporary buffers).
  std::vector<Keyed<T>> lane(static_cast<size_t>(n));
  KeyedOrder<T> order{{descending != 0}};
  for_each_lane(data, a, [&](int64_t offset) {
    T *p = data.base + offset;
    for (int64_t i = 0; i < n; ++i)
      lane[i] = {p[i * stride], i};
    std::sort(lane.begin(), lane.end(), order);
    for (int64_t i = 0; i < n; ++i)
      p[i * stride] = lane[i].value;
  });
}

template <class TR>
void argsort_local(const char *entry, int64_t ir, void *id, int64_t orr,
                   void *od, int64_t axis, int64_t descending) {
  using T = typename TR::T;
  EntryScope es(entry);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  View<int64_t> out = make_view<int64_t>("out", orr, od, Use::Out);
  if (out.rank != in.rank ||
      !std::equal(in.sizes, in.sizes + in.rank, out.sizes))
    fail("'out' (shape %s) must have the shape of 'in' (%s)",
         fmt_vec(out.sizes, out.rank).c_str(),
         fmt_vec(in.sizes, in.rank).c_str());
  if (in.rank == 0) {
    *out.base = 0;
    return;
  }
  check_axis(axis, in.rank);
  const int a = static_cast<int>(axis);
  const int64_t n = in.sizes[a];
  std::vector<int64_t> lane(static_cast<size_t>(n));
  Order<T> order{descending != 0};
  // Matching lanes of `in` and `out` (for_each_lane visits the lanes of
  // views of equal sizes in the same order).
  std::vector<int64_t> inOffsets, outOffsets;
  for_each_lane(in, a, [&](int64_t off) { inOffsets.push_back(off); });
  for_each_lane(out, a, [&](int64_t off) { outOffsets.push_back(off); });
  for (size_t l = 0; l < inOffsets.size(); ++l) {
    const T *p = in.base + inOffsets[l];
    const int64_t stride = in.strides[a];
    std::iota(lane.begin(), lane.end(), int64_t(0));
    std::sort(lane.begin(), lane.end(), [&](int64_t i, int64_t j) {
      const T x = p[i * stride], y = p[j * stride];
      return order(x, y) || (!order(y, x) && i < j);
    });
    int64_t *q = out.base + outOffsets[l];
    for (int64_t i = 0; i < n; ++i)
      q[i * out.strides[a]] = lane[i];
  }
}

/// The most regular samples a rank offers for the splitters of a sample
/// sort: IDTR_SORT_SAMPLES (a positive integer), default 64. (The pool is
/// allgathered, so ranks need not agree on it.)
int64_t max_samples() {
  const char *e = std::getenv("IDTR_SORT_SAMPLES");
  if (!e)
    return 64;
  char *end = nullptr;
  long long v = std::strtoll(e, &end, 10);
  if (!*e || *end || v < 1)
    fail("IDTR_SORT_SAMPLES must be a positive integer, got '%s'", e);
  return v;
}

/// The distributed sample sort of 1-d blocks `in` (global offset `offset`,
/// rank order) into the blocks `out` (values) and/or `indices` (global
/// positions in the input) of the caller's partition:
///  1. each rank sorts its block (value, position) pairs;
///  2. P-1 splitters from regular samples of every rank (min(P - 1, 64)
///     each, one allgather);
///  3. one all-to-all of the pairs to the rank of their bucket, merged;
///  4. rebalance: each rank sends the part of its bucket that falls into
///     another rank's output block (point to point, neighbours only when
///     the buckets are balanced).
template <class TR>
void sample_sort(const char *entry, int64_t team, int64_t ir, void *id,
                 int64_t offset, int64_t orr, void *od, int64_t xr, void *xd,
                 int64_t descending) {
  using T = typename TR::T;
  using K = Keyed<T>;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_ALLTOALL, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  const int p = t->size, me = t->rank;
  View<T> in = make_view<T>("in", ir, id, Use::In);
  if (in.rank != 1)
    fail("argument 'in' must be a 1-d block, got rank %d", in.rank);
  View<T> out;
  View<int64_t> indices;
  const bool values = od != nullptr, positions = xd != nullptr;
  if (values)
    out = make_view<T>("out", orr, od, Use::Out);
  if (positions)
    indices = make_view<int64_t>("indices", xr, xd, Use::Out);
  if ((values && out.rank != 1) || (positions && indices.rank != 1) ||
      (!values && !positions) ||
      (values && positions && out.sizes[0] != indices.sizes[0]))
    fail("'out' and 'indices' must be 1-d blocks of equal size (at least one "
         "given)");
  const int64_t nIn = in.sizes[0];
  const int64_t nOut = values ? out.sizes[0] : indices.sizes[0];

  // Metadata: [offset, rows in, rows out, descending, element type].
  int64_t rec[5] = {offset, nIn, nOut, descending != 0, sizeof(T)};
  std::vector<int64_t> all;
  allgather_i64(*t, rec, 5, all);
  std::vector<int64_t> inOff(p), inRows(p), outOff(p + 1, 0);
  int64_t totalIn = 0;
  for (int r = 0; r < p; ++r) {
    const int64_t *rr = all.data() + 5 * r;
    if (rr[3] != rec[3] || rr[4] != rec[4])
      fail_collective(me, "ranks disagree on the sort order or element type");
    inOff[r] = rr[0];
    inRows[r] = rr[1];
    totalIn += rr[1];
    outOff[r + 1] = outOff[r] + rr[2];
  }
  std::string err = check_tiling(inOff, inRows, totalIn);
  if (!err.empty())
    fail_collective(me, "invalid partition of the input: %s", err.c_str());
  if (outOff[p] != totalIn)
    fail_collective(
        me, "the output blocks hold %" PRId64 " elements, the input %" PRId64,
        outOff[p], totalIn);

  KeyedOrder<T> order{{descending != 0}};
  std::vector<K> local(static_cast<size_t>(nIn));
  for (int64_t i = 0; i < nIn; ++i)
    local[i] = {in.base[i * in.strides[0]], offset + i};
  std::sort(local.begin(), local.end(), order);

  std::vector<K> bucket;
  if (p == 1) {
    bucket.swap(local);
  } else {
    // Splitters: every rank offers up to p - 1 regular samples, at most
    // max_samples() (the pool every rank holds grows as P * s: O(P), not
    // O(P^2)). A bucket then holds about n/P + n/(s + 1) pairs at most: 2n/P
    // (PSRS's bound) up to 65 ranks by default.
    const int64_t s = std::min<int64_t>({nIn, p - 1, max_samples()});
    std::vector<K> samples(static_cast<size_t>(s));
    for (int64_t i = 0; i < s; ++i)
      samples[i] = local[(i + 1) * nIn / (s + 1)];
    int mine = to_int(s * int64_t(sizeof(K)), "samples");
    std::vector<int> counts(p), displs(p + 1, 0);
    run_collective(*t, "MPI_Allgather (sample counts of a sort)", [&] {
      return MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT,
                           t->comm);
    });
    for (int r = 0; r < p; ++r)
      displs[r + 1] = displs[r] + counts[r];
    std::vector<K> pool(displs[p] / sizeof(K));
    run_collective(*t, "MPI_Allgatherv (samples of a sort)", [&] {
      return MPI_Allgatherv(samples.data(), mine, MPI_BYTE, pool.data(),
                            counts.data(), displs.data(), MPI_BYTE, t->comm);
    });
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLLECTIVES, 2);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLL_BYTES, mine);
    std::sort(pool.begin(), pool.end(), order);
    const int64_t m = static_cast<int64_t>(pool.size());
    // Bucket r holds the pairs after splitter r - 1 up to splitter r.
    std::vector<int64_t> bounds(p + 1, 0);
    bounds[p] = nIn;
    for (int r = 1; r < p; ++r) {
      if (m == 0) {
        bounds[r] = nIn; // nothing to split: everything stays on rank p-1
        continue;
      }
      const K &splitter = pool[r * m / p];
      bounds[r] =
          std::upper_bound(local.begin(), local.end(), splitter, order) -
          local.begin();
      bounds[r] = std::max(bounds[r], bounds[r - 1]);
    }
    std::vector<int> sendCounts(p), sendDispls(p), recvCounts(p),
        recvDispls(p + 1, 0);
    for (int r = 0; r < p; ++r) {
      sendCounts[r] =
          to_int((bounds[r + 1] - bounds[r]) * int64_t(sizeof(K)), "bucket");
      sendDispls[r] = to_int(bounds[r] * int64_t(sizeof(K)), "bucket");
    }
    run_collective(*t, "MPI_Alltoall (bucket sizes of a sort)", [&] {
      return MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1,
                          MPI_INT, t->comm);
    });
    for (int r = 0; r < p; ++r)
      recvDispls[r + 1] = recvDispls[r] + recvCounts[r];
    bucket.resize(recvDispls[p] / sizeof(K));
    run_collective(*t, "MPI_Alltoallv (buckets of a sort)", [&] {
      return MPI_Alltoallv(local.data(), sendCounts.data(), sendDispls.data(),
                           MPI_BYTE, bucket.data(), recvCounts.data(),
                           recvDispls.data(), MPI_BYTE, t->comm);
    });
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLLECTIVES, 2);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLL_BYTES,
             (nIn - (bounds[me + 1] - bounds[me])) * int64_t(sizeof(K)));
    local.clear();
    local.shrink_to_fit();
    // Merge the p sorted runs pairwise (log p passes).
    std::vector<K> merged(bucket.size());
    for (int width = 1; width < p; width *= 2) {
      for (int r = 0; r < p; r += 2 * width) {
        const int mid = std::min(r + width, p), hi = std::min(r + 2 * width, p);
        auto at = [&](int q) { return recvDispls[q] / sizeof(K); };
        std::merge(bucket.begin() + at(r), bucket.begin() + at(mid),
                   bucket.begin() + at(mid), bucket.begin() + at(hi),
                   merged.begin() + at(r), order);
      }
      bucket.swap(merged);
    }
  }

  // Rebalance: the bucket is at global positions [start, start + size).
  int64_t size = static_cast<int64_t>(bucket.size());
  std::vector<int64_t> sizes;
  allgather_i64(*t, &size, 1, sizes);
  std::vector<int64_t> start(p + 1, 0);
  for (int r = 0; r < p; ++r)
    start[r + 1] = start[r] + sizes[r];
  std::vector<K> result(static_cast<size_t>(nOut));
  std::vector<MPI_Request> requests;
  const int tag = 7;
  auto overlap = [&](int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
    return std::pair<int64_t, int64_t>{std::max(a0, b0), std::min(a1, b1)};
  };
  for (int r = 0; r < p; ++r) {
    // What rank r's bucket gives this rank's output block.
    auto [lo, hi] = overlap(start[r], start[r + 1], outOff[me], outOff[me + 1]);
    if (lo >= hi)
      continue;
    K *dst = result.data() + (lo - outOff[me]);
    if (r == me) {
      std::copy(bucket.begin() + (lo - start[me]),
                bucket.begin() + (hi - start[me]), dst);
      continue;
    }
    requests.emplace_back();
    IDTR_MPI(MPI_Irecv(dst, to_int((hi - lo) * int64_t(sizeof(K)), "rebalance"),
                       MPI_BYTE, r, tag, t->comm, &requests.back()));
  }
  for (int r = 0; r < p; ++r) {
    if (r == me)
      continue;
    auto [lo, hi] = overlap(start[me], start[me + 1], outOff[r], outOff[r + 1]);
    if (lo >= hi)
      continue;
    requests.emplace_back();
    const int64_t bytes = (hi - lo) * int64_t(sizeof(K));
    IDTR_MPI(MPI_Isend(bucket.data() + (lo - start[me]),
                       to_int(bytes, "rebalance"), MPI_BYTE, r, tag, t->comm,
                       &requests.back()));
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_MSGS_SENT, 1);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_BYTES_SENT, bytes);
  }
  run_collective(*t, "MPI_Waitall (rebalance of a sort)", [&] {
    return MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                       MPI_STATUSES_IGNORE);
  });
  for (int64_t i = 0; i < nOut; ++i) {
    if (values)
      out.base[i * out.strides[0]] = result[i].value;
    if (positions)
      indices.base[i * indices.strides[0]] = result[i].index;
  }
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE_SORT(S, TR)                                                \
  IDTR_EXPORT void _idtr_sort_##S(M(data), int64_t axis, int64_t descending) { \
    sort_local<TR>("_idtr_sort_" #S, A(data), axis, descending);               \
  }                                                                            \
  IDTR_EXPORT void _idtr_argsort_##S(M(in), M(out), int64_t axis,              \
                                     int64_t descending) {                     \
    argsort_local<TR>("_idtr_argsort_" #S, A(in), A(out), axis, descending);   \
  }                                                                            \
  IDTR_EXPORT void _idtr_sample_sort_##S(int64_t team, M(in), int64_t offset,  \
                                         M(out), M(indices),                   \
                                         int64_t descending) {                 \
    sample_sort<TR>("_idtr_sample_sort_" #S, team, A(in), offset, A(out),      \
                    A(indices), descending);                                   \
  }

IDTR_DEFINE_SORT(f64, TF64)
IDTR_DEFINE_SORT(f32, TF32)
IDTR_DEFINE_SORT(i64, TI64)
IDTR_DEFINE_SORT(i32, TI32)
IDTR_DEFINE_SORT(i16, TI16)
IDTR_DEFINE_SORT(i8, TI8)
IDTR_DEFINE_SORT(i1, TI1)
IDTR_DEFINE_SORT(ui64, TU64)
IDTR_DEFINE_SORT(ui32, TU32)
IDTR_DEFINE_SORT(ui16, TU16)
IDTR_DEFINE_SORT(ui8, TU8)
IDTR_DEFINE_SORT(index, TI64)
IDTR_DEFINE_SORT(f16, TF16)
IDTR_DEFINE_SORT(bf16, TBF16)
