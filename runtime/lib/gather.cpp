// Gathers and the ragged all-to-all of libidtr: the blocks of a distributed
// array to one rank or all (MPI_Gatherv / MPI_Allgatherv of rows), and
// variable-sized row blocks to every rank, with their extern "C" entry points
// for every element type.
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cstring>
#include <vector>

namespace idtr::detail {
namespace {

template <class TR>
void gather(const char *entry, int64_t team, int64_t ir, void *id, int64_t gr,
            void *gd, int64_t lr, void *ld, int64_t orr, void *od,
            int64_t root) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_GATHER, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_GATHER, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  const int d = in.rank;
  if (d < 1)
    fail("argument 'in': distributed arrays must have rank >= 1");
  auto g = read_index("gshape", gr, gd, d);
  auto lo = read_index("loffs", lr, ld, d);
  check_block("in", in, g, lo, 0);
  if (root < -1 || root >= t->size)
    fail("invalid root %" PRId64 " (team has %d ranks; -1 = all)", root,
         t->size);
  const bool receiving = root == -1 || root == t->rank;
  View<T> out;
  if (receiving) {
    out = make_view<T>("out", orr, od, Use::Out);
    if (out.rank != d || !std::equal(g.begin(), g.end(), out.sizes))
      fail("argument 'out' has shape %s but the global shape is %s",
           fmt_vec(out.sizes, out.rank).c_str(), fmt_vec(g).c_str());
  }
  if (check_collectives())
    check_call(*t, plan_sig(entry, "root", root, "gshape", g));
  // Metadata: [d, gshape[16], off, rows, root]
  constexpr int L = 3 + kMaxRank + 1;
  int64_t rec[L] = {};
  rec[0] = d;
  std::copy(g.begin(), g.end(), rec + 1);
  rec[1 + kMaxRank] = lo[0];
  rec[2 + kMaxRank] = in.sizes[0];
  rec[3 + kMaxRank] = root;
  std::vector<int64_t> all;
  allgather_i64(*t, rec, L, all);
  const int p = t->size;
  std::vector<int64_t> offs(p), rows(p);
  for (int r = 0; r < p; ++r) {
    const int64_t *rr = all.data() + static_cast<size_t>(r) * L;
    if (!std::equal(rec, rec + 1 + kMaxRank, rr) || rr[3 + kMaxRank] != root)
      fail_collective(
          t->rank,
          "global shape or root differs between ranks: rank 0 passed "
          "shape %s root %" PRId64 ", rank %d passed shape %s root %" PRId64,
          fmt_vec(all.data() + 1, all[0]).c_str(), all[3 + kMaxRank], r,
          fmt_vec(rr + 1, std::min<int64_t>(rr[0], kMaxRank)).c_str(),
          rr[3 + kMaxRank]);
    offs[r] = rr[1 + kMaxRank];
    rows[r] = rr[2 + kMaxRank];
  }
  std::string err = check_tiling(offs, rows, g[0]);
  if (!err.empty())
    fail_collective(t->rank, "invalid partition: %s", err.c_str());
  int64_t R = 1;
  for (int k = 1; k < d; ++k)
    R *= g[k];
  if (R == 0 || g[0] == 0)
    return;
  if (p == 1) {
    copy_view(out, in);
    stat_add(IDTR_STAT_GATHER, IDTR_CNT_LOCAL_BYTES, sizeof(T) * in.numel());
    return;
  }
  if (R > INT_MAX || g[0] > INT_MAX)
    fail("array too large for gather (%" PRId64 " rows of %" PRId64
         " elements)",
         g[0], R);
  MPI_Datatype row;
  IDTR_MPI(MPI_Type_contiguous(static_cast<int>(R), TR::mpi(), &row));
  IDTR_MPI(MPI_Type_commit(&row));
  std::unique_ptr<T[]> sbuf, rbuf;
  T *sp = in.base;
  if (!is_dense(in)) {
    sbuf.reset(new T[in.numel()]);
    copy_view(dense_view(sbuf.get(), in.sizes, d), in);
    sp = sbuf.get();
  }
  T *rp = nullptr;
  std::vector<int> counts, displs;
  if (receiving) {
    rp = out.base;
    if (!is_dense(out)) {
      rbuf.reset(new T[out.numel()]);
      rp = rbuf.get();
    }
    counts.resize(p);
    displs.resize(p);
    for (int r = 0; r < p; ++r) {
      counts[r] = static_cast<int>(rows[r]);
      displs[r] = rows[r] > 0 ? static_cast<int>(offs[r]) : 0;
    }
  }
  const int mine = static_cast<int>(in.sizes[0]);
  if (root == -1)
    run_collective(*t, "MPI_Allgatherv (gather to every rank)", [&] {
      return MPI_Allgatherv(sp, mine, row, rp, counts.data(), displs.data(),
                            row, t->comm);
    });
  else
    run_collective(*t, "MPI_Gatherv (gather to the root)", [&] {
      return MPI_Gatherv(sp, mine, row, rp, counts.data(), displs.data(), row,
                         static_cast<int>(root), t->comm);
    });
  IDTR_MPI(MPI_Type_free(&row));
  if (rbuf)
    copy_view(out, dense_view(rbuf.get(), out.sizes, d));
  stat_add(IDTR_STAT_GATHER, IDTR_CNT_COLLECTIVES, 1);
  stat_add(IDTR_STAT_GATHER, IDTR_CNT_COLL_BYTES, sizeof(T) * in.numel());
}

template <class TR>
void ragged_alltoall(const char *entry, int64_t team, int64_t sr, void *sd,
                     int64_t sor, void *sod, int64_t ssr, void *ssd, int64_t rr,
                     void *rd, int64_t oor, void *ood, int64_t rsr, void *rsd) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_ALLTOALL, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  const int p = t->size, me = t->rank;
  View<T> send = make_view<T>("send", sr, sd, Use::In);
  View<T> recv = make_view<T>("recv", rr, rd, Use::Out);
  if (send.rank < 1 || recv.rank != send.rank ||
      !std::equal(send.sizes + 1, send.sizes + send.rank, recv.sizes + 1))
    fail(
        "'send' (shape %s) and 'recv' (shape %s) must have rank >= 1 and equal "
        "sizes in all dimensions but the first",
        fmt_vec(send.sizes, send.rank).c_str(),
        fmt_vec(recv.sizes, recv.rank).c_str());
  auto so = read_index_table("send_offsets", sor, sod, p);
  auto ss = read_index_table("send_sizes", ssr, ssd, p);
  auto oo = read_index_table("output_offsets", oor, ood, p);
  auto rs = read_index_table("recv_sizes", rsr, rsd, p);
  int64_t R = 1;
  for (int k = 1; k < send.rank; ++k)
    R *= send.sizes[k];
  for (int i = 0; i < p; ++i) {
    if (so[i] < 0 || ss[i] < 0 || so[i] > send.sizes[0] ||
        ss[i] > send.sizes[0] - so[i])
      fail("send slice for rank %d (offset %" PRId64 ", size %" PRId64
           ") lies outside the send buffer of %" PRId64 " rows",
           i, so[i], ss[i], send.sizes[0]);
    if (oo[i] < 0)
      fail("output_offsets[%d] = %" PRId64 " is negative", i, oo[i]);
    if (rs[i] < 0)
      fail("recv_sizes[%d] = %" PRId64 " is negative", i, rs[i]);
  }
  if (check_collectives() && p > 1) {
    Idx row_shape(send.rank - 1);
    std::copy(send.sizes + 1, send.sizes + send.rank, row_shape.data());
    CallSig sig;
    sig.entry = entry;
    sig.nmeta = 1;
    sig.meta_names[0] = "row_shape";
    sig.meta[0] = &row_shape;
    check_call(*t, sig);
  }
  // Exchange (output offset, size, row length) with every peer.
  std::vector<int64_t> smeta(3 * static_cast<size_t>(p)),
      rmeta(3 * static_cast<size_t>(p));
  for (int i = 0; i < p; ++i) {
    smeta[3 * i] = oo[i];
    smeta[3 * i + 1] = ss[i];
    smeta[3 * i + 2] = R;
  }
  if (p == 1) {
    rmeta = smeta;
  } else {
    run_collective(*t, "MPI_Alltoall (ragged all-to-all offsets and sizes)",
                   [&] {
                     return MPI_Alltoall(smeta.data(), 3, MPI_INT64_T,
                                         rmeta.data(), 3, MPI_INT64_T, t->comm);
                   });
    stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES, 1);
    stat_add(IDTR_STAT_METADATA, IDTR_CNT_COLL_BYTES, 8 * 3 * p);
  }
  std::vector<std::pair<int64_t, int>> ranges;
  for (int j = 0; j < p; ++j) {
    int64_t off = rmeta[3 * j], cnt = rmeta[3 * j + 1], rj = rmeta[3 * j + 2];
    if (cnt != rs[j])
      fail("rank %d sends %" PRId64
           " rows to this rank but recv_sizes[%d] = %" PRId64,
           j, cnt, j, rs[j]);
    if (cnt > 0 && rj != R)
      fail("rank %d sends rows of %" PRId64
           " elements but this rank's rows have %" PRId64,
           j, rj, R);
    if (off > recv.sizes[0] || cnt > recv.sizes[0] - off)
      fail("rank %d writes rows [%" PRId64 ", %" PRId64
           ") which lie outside the recv buffer of %" PRId64 " rows",
           j, off, off + cnt, recv.sizes[0]);
    if (cnt > 0)
      ranges.push_back({off, j});
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    int a = ranges[i - 1].second, b = ranges[i].second;
    if (ranges[i - 1].first + rmeta[3 * a + 1] > ranges[i].first)
      fail("the receive ranges from rank %d [%" PRId64 ", %" PRId64
           ") and rank %d [%" PRId64 ", %" PRId64 ") overlap",
           a, rmeta[3 * a], rmeta[3 * a] + rmeta[3 * a + 1], b, rmeta[3 * b],
           rmeta[3 * b] + rmeta[3 * b + 1]);
  }
  auto rows_view = [](const View<T> &v, int64_t off, int64_t cnt) {
    Region r;
    r.rank = static_cast<int8_t>(v.rank);
    for (int k = 0; k < v.rank; ++k) {
      r.order[k] = static_cast<int8_t>(k);
      r.start[k] = k == 0 ? off : 0;
      r.extent[k] = k == 0 ? cnt : v.sizes[k];
    }
    return subview(v, r);
  };
  if (R == 0)
    return;
  uint32_t seq = next_seq(*t);
  AsyncOp op;
  op.team = t;
  op.entry = entry;
  for (int j = 0; j < p; ++j) {
    int64_t cnt = rmeta[3 * j + 1];
    if (j == me || cnt == 0)
      continue;
    View<T> dv = rows_view(recv, rmeta[3 * j], cnt);
    T *ptr = dv.base;
    if (!is_dense(dv)) {
      ptr = alloc_buffer<T>(op, cnt * R);
      op.finish.push_back(
          [dv, ptr] { copy_view(dv, dense_view(ptr, dv.sizes, dv.rank)); });
    }
    post<TR>(op, false, ptr, cnt * R, j, make_tag(seq, 0), t->comm);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_MSGS_RECV, 1);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_BYTES_RECV, sizeof(T) * cnt * R);
  }
  for (int i = 0; i < p; ++i) {
    if (ss[i] == 0)
      continue;
    View<T> sv = rows_view(send, so[i], ss[i]);
    if (i == me) {
      copy_view(rows_view(recv, oo[i], ss[i]), sv);
      stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_LOCAL_BYTES, sizeof(T) * ss[i] * R);
      continue;
    }
    T *ptr = sv.base;
    if (!is_dense(sv)) {
      ptr = alloc_buffer<T>(op, ss[i] * R);
      copy_view(dense_view(ptr, sv.sizes, sv.rank), sv);
    }
    post<TR>(op, true, ptr, ss[i] * R, i, make_tag(seq, 0), t->comm);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_MSGS_SENT, 1);
    stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_BYTES_SENT, sizeof(T) * ss[i] * R);
  }
  complete_op(op);
}

} // namespace

} // namespace idtr::detail

// ------------------------------------------------------ C entry points ---

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE(S, TR)                                                     \
  IDTR_EXPORT void _idtr_gather_##S(int64_t team, M(in), M(g), M(l), M(out),   \
                                    int64_t root) {                            \
    gather<TR>("_idtr_gather_" #S, team, A(in), A(g), A(l), A(out), root);     \
  }                                                                            \
  IDTR_EXPORT void _idtr_ragged_alltoall_##S(int64_t team, M(s), M(so), M(ss), \
                                             M(r), M(oo), M(rs)) {             \
    ragged_alltoall<TR>("_idtr_ragged_alltoall_" #S, team, A(s), A(so), A(ss), \
                        A(r), A(oo), A(rs));                                   \
  }

IDTR_FOR_EACH_TRAIT(IDTR_DEFINE)
