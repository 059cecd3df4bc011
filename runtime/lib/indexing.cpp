// Integer-array indexing of arrays split over a team along dimension 0:
// take (rows at global indices) and put (writes of rows at global indices,
// numpy's last-write-wins order). Requests are routed to the rows' owners
// with one all-to-all of the counts and one MPI_Alltoallv each for the
// indices and the rows, so the bytes moved are the requested rows and their
// indices.
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <vector>

namespace idtr::detail {
namespace {

/// Which rank holds which rows of an array split over a team (blocks in
/// rank order), as every rank agrees after one allgather.
struct RowOwners {
  std::vector<int64_t> offs, counts;
  int64_t rows;

  RowOwners(Team &t, int64_t offset, int64_t size, int64_t rows)
      : offs(t.size), counts(t.size), rows(rows) {
    int64_t rec[3] = {offset, size, rows};
    std::vector<int64_t> all;
    allgather_i64(t, rec, 3, all);
    for (int r = 0; r < t.size; ++r) {
      offs[r] = all[3 * r];
      counts[r] = all[3 * r + 1];
      if (all[3 * r + 2] != rows)
        fail_collective(t.rank,
                        "ranks disagree on the number of rows (%" PRId64
                        " and %" PRId64 ")",
                        rows, all[3 * r + 2]);
    }
    std::string err = check_tiling(offs, counts, rows);
    if (!err.empty())
      fail_collective(t.rank, "invalid partition of the array: %s",
                      err.c_str());
  }

  int owner(int64_t g) const {
    int r = std::upper_bound(offs.begin(), offs.end(), g) - offs.begin() - 1;
    while (counts[r] == 0 || g >= offs[r] + counts[r])
      --r; // (empty blocks share offsets with their neighbours)
    return r;
  }
};

/// Index `g` along dimension 0 of size `rows` in [0, rows) (negative ones
/// count from the end); out of range is an error naming it.
int64_t normalize_index(int64_t g, int64_t rows) {
  if (g < -rows || g >= rows)
    fail("index %" PRId64 " is out of bounds for axis 0 with size %" PRId64, g,
         rows);
  return g < 0 ? g + rows : g;
}

/// The global indices `idx`, grouped by owner (a stable counting sort, so
/// each owner receives them in their order): `requests[slot[j]]` is index
/// `j`, the indices for rank r start at `displs[r]`.
struct Routing {
  std::vector<int> counts, displs;
  std::vector<int64_t> requests, slot;

  Routing(const RowOwners &owners, const View<int64_t> &idx)
      : counts(owners.offs.size(), 0), displs(owners.offs.size() + 1, 0) {
    const int64_t n = idx.sizes[0];
    std::vector<int64_t> global(n);
    std::vector<int> owner(n);
    for (int64_t j = 0; j < n; ++j) {
      global[j] = normalize_index(idx.base[j * idx.strides[0]], owners.rows);
      owner[j] = owners.owner(global[j]);
      ++counts[owner[j]];
    }
    for (size_t r = 0; r < counts.size(); ++r)
      displs[r + 1] = displs[r] + counts[r];
    requests.resize(n);
    slot.resize(n);
    std::vector<int> fill(displs.begin(), displs.end() - 1);
    for (int64_t j = 0; j < n; ++j) {
      slot[j] = fill[owner[j]]++;
      requests[slot[j]] = global[j];
    }
  }
};

/// Sends the grouped requests to their owners: the indices each rank
/// receives (grouped by sender, in rank order) and the per-sender counts.
std::vector<int64_t> exchange_requests(const Team &t, const Routing &routing,
                                       std::vector<int> &recvCounts,
                                       std::vector<int> &recvDispls,
                                       const char *what) {
  const int p = t.size;
  recvCounts.assign(p, 0);
  recvDispls.assign(p + 1, 0);
  std::string counts = std::string("MPI_Alltoall (request counts of a ") +
                       what + ")",
              requests =
                  std::string("MPI_Alltoallv (requests of a ") + what + ")";
  run_collective(t, counts.c_str(), [&] {
    return MPI_Alltoall(routing.counts.data(), 1, MPI_INT, recvCounts.data(), 1,
                        MPI_INT, t.comm);
  });
  for (int r = 0; r < p; ++r)
    recvDispls[r + 1] = recvDispls[r] + recvCounts[r];
  std::vector<int64_t> asked(recvDispls[p]);
  run_collective(t, requests.c_str(), [&] {
    return MPI_Alltoallv(routing.requests.data(), routing.counts.data(),
                         routing.displs.data(), MPI_INT64_T, asked.data(),
                         recvCounts.data(), recvDispls.data(), MPI_INT64_T,
                         t.comm);
  });
  return asked;
}

/// Row counts (or displacements) in bytes for MPI_Alltoallv of MPI_BYTE.
std::vector<int> in_bytes(const std::vector<int> &v, int64_t rowBytes,
                          const char *what) {
  std::vector<int> s(v.size());
  for (size_t r = 0; r < v.size(); ++r)
    s[r] = to_int(int64_t(v[r]) * rowBytes, what);
  return s;
}

/// Elements per row of `v` (the product of its trailing sizes).
template <class T> int64_t row_size(const View<T> &v) {
  int64_t n = 1;
  for (int k = 1; k < v.rank; ++k)
    n *= v.sizes[k];
  return n;
}

/// Row `i` of `v` (a view of one row).
template <class T> View<T> row_of(const View<T> &v, int64_t i) {
  View<T> row = v;
  row.sizes[0] = 1;
  row.base = v.base + i * v.strides[0];
  return row;
}

/// Whether `rows` holds rows of the shape of `of`'s rows, `n` of them.
template <class T>
bool has_rows_of(const View<T> &rows, const View<T> &of, int64_t n) {
  return of.rank >= 1 && rows.rank == of.rank && rows.sizes[0] == n &&
         std::equal(of.sizes + 1, of.sizes + of.rank, rows.sizes + 1);
}

/// Rows `indices` (global, along dimension 0; negative ones count from the
/// end) of the array split over the team whose block on this rank is `in`
/// (global rows [offset, offset + size), `rows` in all), into `out` (one
/// row per index).
template <class TR>
void take(const char *entry, int64_t team, int64_t ir, void *id, int64_t offset,
          int64_t rows, int64_t xr, void *xd, int64_t orr, void *od) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_ALLTOALL, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  const int me = t->rank;
  View<T> in = make_view<T>("in", ir, id, Use::In);
  View<int64_t> idx = make_view<int64_t>("indices", xr, xd, Use::In);
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  if (idx.rank != 1 || !has_rows_of(out, in, idx.sizes[0]))
    fail("'out' (shape %s) must have one row of 'in' (shape %s) per index "
         "(%" PRId64 " indices)",
         fmt_vec(out.sizes, out.rank).c_str(),
         fmt_vec(in.sizes, in.rank).c_str(), idx.sizes[0]);
  const int64_t rowSize = row_size(in), rowBytes = rowSize * sizeof(T);
  RowOwners owners(*t, offset, in.sizes[0], rows);
  Routing routing(owners, idx);
  std::vector<int> recvCounts, recvDispls;
  std::vector<int64_t> asked =
      exchange_requests(*t, routing, recvCounts, recvDispls, "take");
  // Replies: the asked rows, dense.
  const int64_t n = idx.sizes[0];
  std::vector<T> replies(asked.size() * rowSize), received(n * rowSize);
  for (size_t k = 0; k < asked.size(); ++k) {
    View<T> row = row_of(in, asked[k] - offset);
    copy_view(dense_view(replies.data() + k * rowSize, row.sizes, row.rank),
              row);
  }
  std::vector<int> rc = in_bytes(recvCounts, rowBytes, "rows of a take"),
                   rd = in_bytes(recvDispls, rowBytes, "rows of a take"),
                   sc = in_bytes(routing.counts, rowBytes, "rows of a take"),
                   sd = in_bytes(routing.displs, rowBytes, "rows of a take");
  run_collective(*t, "MPI_Alltoallv (rows of a take)", [&] {
    return MPI_Alltoallv(replies.data(), rc.data(), rd.data(), MPI_BYTE,
                         received.data(), sc.data(), sd.data(), MPI_BYTE,
                         t->comm);
  });
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLLECTIVES, 3);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLL_BYTES,
           int64_t(sizeof(int64_t)) * (n - routing.counts[me]) +
               rowBytes * (int64_t(asked.size()) - recvCounts[me]));
  for (int64_t j = 0; j < n; ++j) {
    View<T> dst = row_of(out, j);
    copy_view(dst, dense_view(received.data() + routing.slot[j] * rowSize,
                              dst.sizes, dst.rank));
  }
}

/// Writes row `j` of `values` to row `indices[j]` (global, negative from
/// the end) of the array split over the team whose block on this rank is
/// `data` (global rows [offset, offset + size), `rows` in all), in place.
/// Later indices win (numpy's order): the indices of rank r precede those
/// of rank r + 1. With `replicated`, every rank passes all indices and
/// values and writes those into its block (no communication); otherwise the
/// (index, row) pairs go to their owners (one all-to-all of the counts, one
/// MPI_Alltoallv each for the indices and the rows), who write them in the
/// order received.
template <class TR>
void put(const char *entry, int64_t team, int64_t dr, void *dd, int64_t offset,
         int64_t rows, int64_t xr, void *xd, int64_t vr, void *vd,
         int64_t replicated) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_ALLTOALL, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> data = make_view<T>("data", dr, dd, Use::Out);
  View<int64_t> idx = make_view<int64_t>("indices", xr, xd, Use::In);
  View<T> values = make_view<T>("values", vr, vd, Use::In);
  if (idx.rank != 1 || !has_rows_of(values, data, idx.sizes[0]))
    fail("'values' (shape %s) must have one row of 'data' (shape %s) per "
         "index (%" PRId64 " indices)",
         fmt_vec(values.sizes, values.rank).c_str(),
         fmt_vec(data.sizes, data.rank).c_str(), idx.sizes[0]);
  if (offset < 0 || offset + data.sizes[0] > rows)
    fail("the block [%" PRId64 ", %" PRId64 ") is not within the %" PRId64
         " rows of the array",
         offset, offset + data.sizes[0], rows);
  const int64_t n = idx.sizes[0];
  if (replicated) {
    for (int64_t j = 0; j < n; ++j) {
      int64_t g = normalize_index(idx.base[j * idx.strides[0]], rows);
      if (g >= offset && g < offset + data.sizes[0])
        copy_view(row_of(data, g - offset), row_of(values, j));
    }
    return;
  }
  const int64_t rowSize = row_size(data), rowBytes = rowSize * sizeof(T);
  RowOwners owners(*t, offset, data.sizes[0], rows);
  Routing routing(owners, idx);
  std::vector<T> sent(n * rowSize);
  for (int64_t j = 0; j < n; ++j) {
    View<T> row = row_of(values, j);
    copy_view(dense_view(sent.data() + routing.slot[j] * rowSize, row.sizes,
                         row.rank),
              row);
  }
  std::vector<int> recvCounts, recvDispls;
  std::vector<int64_t> asked =
      exchange_requests(*t, routing, recvCounts, recvDispls, "put");
  std::vector<T> received(asked.size() * rowSize);
  std::vector<int> rc = in_bytes(recvCounts, rowBytes, "rows of a put"),
                   rd = in_bytes(recvDispls, rowBytes, "rows of a put"),
                   sc = in_bytes(routing.counts, rowBytes, "rows of a put"),
                   sd = in_bytes(routing.displs, rowBytes, "rows of a put");
  run_collective(*t, "MPI_Alltoallv (rows of a put)", [&] {
    return MPI_Alltoallv(sent.data(), sc.data(), sd.data(), MPI_BYTE,
                         received.data(), rc.data(), rd.data(), MPI_BYTE,
                         t->comm);
  });
  const int me = t->rank;
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLLECTIVES, 3);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLL_BYTES,
           (int64_t(sizeof(int64_t)) + rowBytes) * (n - routing.counts[me]));
  // Received in sender order, each sender's in index order: numpy's order.
  for (size_t k = 0; k < asked.size(); ++k) {
    View<T> dst = row_of(data, asked[k] - offset);
    copy_view(dst,
              dense_view(received.data() + k * rowSize, dst.sizes, dst.rank));
  }
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE_INDEXING(S, TR)                                            \
  IDTR_EXPORT void _idtr_take_##S(int64_t team, M(in), int64_t offset,         \
                                  int64_t rows, M(indices), M(out)) {          \
    take<TR>("_idtr_take_" #S, team, A(in), offset, rows, A(indices), A(out)); \
  }                                                                            \
  IDTR_EXPORT void _idtr_put_##S(int64_t team, M(data), int64_t offset,        \
                                 int64_t rows, M(indices), M(values),          \
                                 int64_t replicated) {                         \
    put<TR>("_idtr_put_" #S, team, A(data), offset, rows, A(indices),          \
            A(values), replicated);                                            \
  }

IDTR_FOR_EACH_TRAIT(IDTR_DEFINE_INDEXING)
