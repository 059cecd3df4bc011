// Reproducible sums and products of floating point (and complex) arrays
// split over a team along dimension 0. Their result depends on the order of
// the operations, so the order is fixed by the array, not by the ranks: the
// pairwise tree of the global row indices (rows 2i and 2i+1, then those
// results pairwise, ...), the tree the lowered code of one process uses.
// Its subtrees of IDTR_ORDERED_BLOCK consecutive global rows (blocks) are
// computed by the rank holding the block's first row (the rest of the
// block, fewer rows than a block, comes from the next ranks), the tree of
// the block results on every rank. Every rank count gives the same bits as
// one process. Moved: less than a block of rows per rank boundary, and the
// block results (rows / IDTR_ORDERED_BLOCK per column) to every rank.
#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cinttypes>
#include <vector>

namespace idtr::detail {
namespace {

/// `a` combined with `b` by IDTR_OP_SUM or IDTR_OP_PROD, rounded to T after
/// each operation (16-bit floats compute in float: exact before the
/// rounding, so the result is the correctly rounded 16-bit one).
template <class TR, bool Sum>
typename TR::T combine(typename TR::T a, typename TR::T b) {
  using T = typename TR::T;
  if constexpr (TR::is_half) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    return static_cast<T>(Sum ? x + y : x * y);
  } else {
    return Sum ? a + b : a * b;
  }
}

/// acc[c] = acc[c] op row[c] for c < n, the op fixed at compile time so
/// that the loop vectorizes (across c: the order along the rows stays).
template <class TR>
void combine_row(typename TR::T *__restrict acc,
                 const typename TR::T *__restrict row, int64_t n, bool sum) {
  if (sum)
    for (int64_t c = 0; c < n; ++c)
      acc[c] = combine<TR, true>(acc[c], row[c]);
  else
    for (int64_t c = 0; c < n; ++c)
      acc[c] = combine<TR, false>(acc[c], row[c]);
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// out = the pairwise tree of `count` rows of R elements (`row(i)` points
/// to row i): rows 2i and 2i+1 combined, then those results pairwise, an
/// odd last one passed up; the identity for no row. The tree of a
/// distributed array's rows that the lowered code of one process builds
/// (PairwiseReduction.cpp): a stack of complete subtrees (a binary
/// counter), merged from the right at the end, over chunks of columns.
template <class TR, class RowFn>
void tree_rows(int64_t count, int64_t R, RowFn row, typename TR::T *out,
               bool sum) {
  using T = typename TR::T;
  constexpr int64_t kChunk = 256;
  const T identity = static_cast<T>(sum ? 0.0f : 1.0f);
  std::vector<T> stack;
  std::vector<int> level;
  for (int64_t c0 = 0; c0 < R; c0 += kChunk) {
    const int64_t w = std::min(kChunk, R - c0);
    stack.clear();
    level.clear();
    for (int64_t i = 0; i < count; ++i) {
      const T *r = row(i) + c0;
      stack.resize((level.size() + 1) * kChunk);
      std::copy(r, r + w, stack.end() - kChunk);
      level.push_back(0);
      while (level.size() >= 2 &&
             level[level.size() - 1] == level[level.size() - 2]) {
        T *right = stack.data() + (level.size() - 1) * kChunk;
        combine_row<TR>(right - kChunk, right, w, sum);
        level.pop_back();
        ++level.back();
      }
    }
    while (level.size() >= 2) {
      T *right = stack.data() + (level.size() - 1) * kChunk;
      combine_row<TR>(right - kChunk, right, w, sum);
      level.pop_back();
    }
    for (int64_t c = 0; c < w; ++c)
      out[c0 + c] = level.empty() ? identity : stack[c];
  }
}

template <class TR>
void ordered_reduce(const char *entry, int64_t team, int64_t ir, void *id,
                    int64_t offset, int64_t rows, int64_t op, int64_t orr,
                    void *od) {
  using T = typename TR::T;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_REDUCE, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_REDUCE, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> in = make_view<T>("in", ir, id, Use::In);
  View<T> out = make_view<T>("out", orr, od, Use::Out);
  const int d = in.rank;
  if (d < 1)
    fail("argument 'in': distributed arrays must have rank >= 1");
  bool shapes_match = out.rank == d && out.sizes[0] == 1;
  for (int k = 1; shapes_match && k < d; ++k)
    shapes_match = out.sizes[k] == in.sizes[k];
  if (!shapes_match)
    fail("argument 'out' has shape %s; expected 1 row of the shape of 'in' "
         "(%s)",
         fmt_vec(out.sizes, out.rank).c_str(), fmt_vec(in.sizes, d).c_str());
  if (op != IDTR_OP_SUM && op != IDTR_OP_PROD)
    fail("invalid reduction op %" PRId64
         " for an ordered reduction (0 sum, 1 prod)",
         op);
  const int64_t mine = in.sizes[0];
  if (rows < 0 || offset < 0 || offset + mine > rows)
    fail("block of %" PRId64 " rows at offset %" PRId64
         " is outside an array of %" PRId64 " rows",
         mine, offset, rows);
  int64_t R = 1; // elements per row
  for (int k = 1; k < d; ++k)
    R *= in.sizes[k];

  // Who holds which rows; every rank must reduce the same array.
  const int p = t->size, me = t->rank;
  const int64_t rec[5] = {offset, mine, rows, R, op};
  std::vector<int64_t> all;
  allgather_i64(*t, rec, 5, all);
  std::vector<int64_t> offs(p), counts(p);
  for (int r = 0; r < p; ++r) {
    const int64_t *rr = all.data() + 5 * r;
    if (rr[2] != rows || rr[3] != R || rr[4] != op)
      fail_collective(me,
                      "ranks disagree on the reduction: rank 0 passed %" PRId64
                      " rows of %" PRId64 " elements, op %" PRId64
                      ", rank %d passed %" PRId64 " rows of %" PRId64
                      " elements, op %" PRId64,
                      all[2], all[3], all[4], r, rr[2], rr[3], rr[4]);
    offs[r] = rr[0];
    counts[r] = rr[1];
  }
  std::string err = check_tiling(offs, counts, rows);
  if (!err.empty())
    fail_collective(me, "invalid partition of the array: %s", err.c_str());

  // This rank's rows, dense (a copy only for a strided view).
  std::unique_ptr<T[]> dense;
  const T *local = in.base;
  if (!is_dense(in) && mine * R > 0) {
    dense.reset(new T[mine * R]);
    copy_view(dense_view(dense.get(), in.sizes, d), in);
    local = dense.get();
  }

  // The blocks starting in this rank's rows, and the rows of its last block
  // held by the next ranks (the tail), which send them.
  const int64_t B = IDTR_ORDERED_BLOCK;
  const int64_t end = offset + mine;
  auto block_end = [&](int64_t b) { return std::min((b + 1) * B, rows); };
  const int64_t first_block = mine > 0 ? ceil_div(offset, B) : 0;
  const int64_t blocks = mine > 0 ? ceil_div(end, B) - first_block : 0;
  const int64_t tail =
      blocks > 0 ? block_end(first_block + blocks - 1) - end : 0;
  std::vector<T> tail_rows(static_cast<size_t>(tail * R));
  std::vector<MPI_Request> requests;
  const int tag = make_tag(next_seq(*t), 0);
  for (int r = me + 1; r < p && tail > 0; ++r) {
    const int64_t from = offs[r],
                  to = std::min(offs[r] + counts[r], end + tail);
    if (counts[r] == 0 || from >= end + tail)
      continue;
    requests.emplace_back();
    IDTR_MPI(MPI_Irecv(tail_rows.data() + (from - end) * R,
                       to_int((to - from) * R, "rows of a block"), TR::mpi(), r,
                       tag, t->comm, &requests.back()));
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_MSGS_RECV, 1);
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_BYTES_RECV,
             (to - from) * R * int64_t(sizeof(T)));
  }
  // This rank's head: its rows before its first block start belong to the
  // block of the rank holding that block's first row.
  const int64_t head = mine > 0 ? std::min(first_block * B, end) - offset : 0;
  if (head > 0) {
    const int64_t start = (offset / B) * B;
    int owner = me - 1;
    while (counts[owner] == 0 || offs[owner] > start)
      --owner;
    requests.emplace_back();
    IDTR_MPI(MPI_Isend(local, to_int(head * R, "rows of a block"), TR::mpi(),
                       owner, tag, t->comm, &requests.back()));
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_MSGS_SENT, 1);
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_BYTES_SENT,
             head * R * int64_t(sizeof(T)));
  }
  if (!requests.empty())
    run_collective(*t, "MPI_Waitall (rows of ordered reduction blocks)", [&] {
      return MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                         MPI_STATUSES_IGNORE);
    });

  // Each block by the tree of its rows.
  const bool sum = op == IDTR_OP_SUM;
  const T identity = static_cast<T>(sum ? 0.0f : 1.0f);
  const int64_t total_blocks = ceil_div(rows, B);
  std::vector<T> results(
      static_cast<size_t>(std::max<int64_t>(total_blocks * R, 1)), identity);
  for (int64_t b = first_block; b < first_block + blocks; ++b) {
    tree_rows<TR>(
        block_end(b) - b * B, R,
        [&](int64_t i) {
          const int64_t g = b * B + i;
          return g < end ? local + (g - offset) * R
                         : tail_rows.data() + (g - end) * R;
        },
        results.data() + b * R, sum);
  }
  // The block results to every rank, then their tree.
  if (p > 1 && total_blocks * R > 0) {
    std::vector<int> cnts(p), displs(p);
    for (int r = 0; r < p; ++r) {
      const int64_t fb = counts[r] > 0 ? ceil_div(offs[r], B) : 0;
      const int64_t nb =
          counts[r] > 0 ? ceil_div(offs[r] + counts[r], B) - fb : 0;
      cnts[r] = to_int(nb * R, "block results");
      displs[r] = to_int(fb * R, "block results");
    }
    run_collective(*t, "MPI_Allgatherv (ordered reduction blocks)", [&] {
      return MPI_Allgatherv(MPI_IN_PLACE, 0, TR::mpi(), results.data(),
                            cnts.data(), displs.data(), TR::mpi(), t->comm);
    });
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLLECTIVES, 1);
    stat_add(IDTR_STAT_REDUCE, IDTR_CNT_COLL_BYTES,
             blocks * R * int64_t(sizeof(T)));
  }
  std::vector<T> total(static_cast<size_t>(std::max<int64_t>(R, 1)), identity);
  tree_rows<TR>(
      total_blocks, R,
      [&](int64_t i) -> const T * { return results.data() + i * R; },
      total.data(), sum);
  // The identity combined with the tree, as one process does (numpy's
  // +0.0 for sums of -0.0).
  std::vector<T> ident(static_cast<size_t>(std::max<int64_t>(R, 1)), identity);
  combine_row<TR>(ident.data(), total.data(), R, sum);
  if (R > 0)
    copy_view(out, dense_view(ident.data(), out.sizes, d));
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define IDTR_DEFINE_ORDERED_REDUCE(S, TR)                                      \
  IDTR_EXPORT void _idtr_ordered_reduce_##S(                                   \
      int64_t team, int64_t in_r, void *in_d, int64_t offset, int64_t rows,    \
      int64_t op, int64_t out_r, void *out_d) {                                \
    ordered_reduce<TR>("_idtr_ordered_reduce_" #S, team, in_r, in_d, offset,   \
                       rows, op, out_r, out_d);                                \
  }

IDTR_DEFINE_ORDERED_REDUCE(f64, TF64)
IDTR_DEFINE_ORDERED_REDUCE(f32, TF32)
IDTR_DEFINE_ORDERED_REDUCE(f16, TF16)
IDTR_DEFINE_ORDERED_REDUCE(bf16, TBF16)
IDTR_DEFINE_ORDERED_REDUCE(c64, TC64)
IDTR_DEFINE_ORDERED_REDUCE(c128, TC128)
