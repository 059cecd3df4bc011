// Misuses the libidtr ABI in one way (argv[1]) so CTest can check that the job
// ends with a non-zero exit status and a clear diagnostic instead of hanging
// or silently corrupting data. Exits 0 only if the runtime failed to notice.
#include "idtr/idtr.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <thread>
#include <vector>

extern "C" void _idtr_test_trigger_mpi_error(int64_t team);

using idtr::Descriptor;
using idtr::IndexVec;
using Vec = std::vector<int64_t>;

namespace {

int rank_() { return static_cast<int>(_idtr_prank(1)); }
int size_() { return static_cast<int>(_idtr_nprocs(1)); }

// Halo of a 1-D/2-D f64 array under the default partition.
int64_t halo(const Vec &g, int64_t w, int64_t key) {
  const int p = size_(), me = rank_();
  int64_t o, n;
  _idtr_default_partition(g[0], p, me, &o, &n);
  int64_t lo = std::max<int64_t>(0, o - w), hi = std::min(g[0], o + n + w);
  static std::deque<std::vector<double>> keep; // buffers outlive async ops
  int64_t cols = g.size() > 1 ? g[1] : 1;
  keep.emplace_back(static_cast<size_t>(n * cols + 1));
  auto &d = keep.back();
  keep.emplace_back(static_cast<size_t>((o - lo) * cols + 1));
  auto &l = keep.back();
  keep.emplace_back(static_cast<size_t>((hi - o - n) * cols + 1));
  auto &r = keep.back();
  Vec ls = g, lsz = g, rsz = g, lof(g.size(), 0), bo(g.size(), 0), bs = g;
  ls[0] = n;
  lsz[0] = o - lo;
  rsz[0] = hi - o - n;
  lof[0] = o;
  bo[0] = lo;
  bs[0] = hi - lo;
  Descriptor<double> dd(d.data(), ls), dl(l.data(), lsz), dr(r.data(), rsz);
  IndexVec vg(g), vl(lof), vbo(bo), vbs(bs);
  return _idtr_update_halo_f64(1, dd.rank(), dd.get(), 1, vg.get(), 1, vl.get(),
                               1, vbo.get(), 1, vbs.get(), dl.rank(), dl.get(),
                               dr.rank(), dr.get(), key);
}

// In-place sum of one f64 over the world team.
void reduce_one() {
  double x = 1;
  Descriptor<double> d(&x, {1});
  _idtr_reduce_all_f64(1, 1, d.get(), IDTR_OP_SUM);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <case>\n", argv[0]);
    return 2;
  }
  const std::string c = argv[1];
  if (c == "bad_handle") {
    _idtr_nprocs(1);
    _idtr_wait(12345);
  } else if (c == "double_wait") {
    int64_t h = halo({4}, 1, -1);
    _idtr_wait(h);
    _idtr_wait(h);
  } else if (c == "bad_team") {
    _idtr_nprocs(1);
    _idtr_nprocs(7);
  } else if (c == "negative_team") {
    double x = 0;
    Descriptor<double> d(&x, {1});
    IndexVec v{1};
    _idtr_update_halo_f64(-3, 1, d.get(), 1, v.get(), 1, v.get(), 1, v.get(), 1,
                          v.get(), 1, d.get(), 1, d.get(), -1);
  } else if (c == "unregistered_team") {
    _idtr_nprocs(1);
    int64_t t = _idtr_register_team(MPI_Comm_c2f(MPI_COMM_WORLD));
    _idtr_unregister_team(t);
    double x = 0;
    Descriptor<double> d(&x, {1});
    IndexVec g{1}, l{0};
    _idtr_gather_f64(t, 1, d.get(), 1, g.get(), 1, l.get(), 1, d.get(), -1);
  } else if (c == "shape_mismatch") {
    // rank 1 believes the array has 5 columns, the others 4
    halo({9, rank_() == 1 ? 5 : 4}, 1, -1);
  } else if (c == "bb_outside") {
    const int me = rank_();
    std::vector<double> d(20), h(40);
    int64_t o = me == 0 ? 0 : 4, n = me == 0 ? 4 : 5;
    Descriptor<double> dd(d.data(), {n, 4}), dl(h.data(), {0, 4}),
        dr(h.data(), {0, 4});
    IndexVec g{9, 4}, lof{o, 0}, bo{me == 1 ? 3 : 0, 0}, bs{me == 1 ? 8 : 4, 4};
    _idtr_update_halo_i32(1, 2, dd.get(), 1, g.get(), 1, lof.get(), 1, bo.get(),
                          1, bs.get(), 2, dl.get(), 2, dr.get(), -1);
  } else if (c == "halo_shape") {
    const int me = rank_();
    std::vector<float> d(20), h(40);
    int64_t o = me == 0 ? 0 : 4, n = me == 0 ? 4 : 5;
    // rows needed: [o-1, o+n+1) clipped; left halo claims 2 rows
    Descriptor<float> dd(d.data(), {n, 4}), dl(h.data(), {2, 4}),
        dr(h.data(), {1, 4});
    IndexVec g{9, 4}, lof{o, 0}, bo{std::max<int64_t>(0, o - 1), 0},
        bs{std::min<int64_t>(9, o + n + 1) - std::max<int64_t>(0, o - 1), 4};
    _idtr_update_halo_f32(1, 2, dd.get(), 1, g.get(), 1, lof.get(), 1, bo.get(),
                          1, bs.get(), 2, dl.get(), 2, dr.get(), -1);
  } else if (c == "bad_partition") {
    const int me = rank_();
    std::vector<double> d(3), out(3);
    int64_t off = me == 2 ? 7 : 3 * me; // rows 6 is owned by nobody
    Descriptor<double> dd(d.data(), {3}), dout(out.data(), {3});
    IndexVec g{10}, lof{off}, to{3 * me}, ts{3};
    _idtr_repartition_f64(1, 1, dd.get(), 1, g.get(), 1, lof.get(), 1, to.get(),
                          1, ts.get(), 1, dout.get(), -1);
  } else if (c == "grid_overlap" || c == "ghost_box_outside") {
    // 4 x 4 array split on columns; in grid_overlap the blocks overlap.
    const int me = rank_();
    int64_t c0 = me == 0 ? 0 : (c == "grid_overlap" ? 1 : 2);
    int64_t cw = me == 0 ? 2 : 4 - c0;
    std::vector<double> d(static_cast<size_t>(4 * (cw + 2)));
    Descriptor<double> dd(d.data(), {4, cw + 2});
    IndexVec g{4, 4}, bo{0, c0 - 1}, oo{0, c0}, os{4, cw};
    // Reads one column on each side (the second rank's box is one column
    // too wide for its buffer in ghost_box_outside).
    int64_t extra = c == "ghost_box_outside" && me == 1 ? 1 : 0;
    int64_t lo = std::max<int64_t>(0, c0 - 1 - extra),
            hi = std::min<int64_t>(4, c0 + cw + 1);
    IndexVec boxes{0, lo, 4, hi - lo};
    _idtr_wait(_idtr_exchange_ghosts_f64(1, 2, dd.get(), 1, g.get(), 1,
                                         bo.get(), 1, oo.get(), 1, os.get(), 1,
                                         boxes.get(), -1));
  } else if (c == "fetch_boxes_count" || c == "fetch_boxes_out") {
    // 4 x 4 array split on columns (2 each); rank 1 asks for one box more
    // (fetch_boxes_count) or passes an output one element short.
    const int me = rank_();
    std::vector<double> d(8), out(8);
    Descriptor<double> dd(d.data(), {4, 2});
    IndexVec g{4, 4}, lo{0, 2 * me};
    bool extra = c == "fetch_boxes_count" && me == 1;
    IndexVec boxes =
        extra ? IndexVec{0, 0, 1, 1, 0, 1, 1, 1} : IndexVec{0, 0, 1, 1};
    int64_t n = c == "fetch_boxes_out" && me == 1 ? 0 : (extra ? 2 : 1);
    Descriptor<double> dout(out.data(), {n});
    _idtr_wait(_idtr_fetch_boxes_f64(1, 2, dd.get(), 1, g.get(), 1, lo.get(), 1,
                                     boxes.get(), 1, dout.get(), -1));
  } else if (c == "grid_comm") {
    int64_t dims[2] = {3, 2};
    _idtr_grid_comm(1, 2, dims);
  } else if (c == "grid_dims") {
    int64_t dims[2] = {3, 0};
    _idtr_grid_dims(1, 2, dims);
  } else if (c == "grid_dim") {
    _idtr_grid_dim(1, 2, 2);
  } else if (c == "complex_max") {
    std::complex<double> x[2] = {{1, 2}, {3, 4}};
    Descriptor<std::complex<double>> d(x, {2});
    _idtr_reduce_all_c128(1, 1, d.get(), IDTR_OP_MAX);
  } else if (c == "ordered_reduce_op") {
    double x[2] = {1, 2}, y[1] = {0};
    Descriptor<double> in(x, {2}), out(y, {1});
    _idtr_ordered_reduce_f64(1, 1, in.get(), 2 * rank_(), 4, IDTR_OP_MAX, 1,
                             out.get());
  } else if (c == "ordered_reduce_rows") {
    float x[4] = {1, 2, 3, 4}, y[2] = {0, 0};
    Descriptor<float> in(x, {rank_() == 0 ? 2 : 1, 2}), out(y, {1, 2});
    _idtr_ordered_reduce_f32(1, 2, in.get(), 2 * rank_(), 4 + rank_(),
                             IDTR_OP_SUM, 2, out.get());
  } else if (c == "bad_reduce_op") {
    int64_t x = 1;
    Descriptor<int64_t> d(&x, {1});
    _idtr_reduce_all_i64(1, 1, d.get(), 9);
  } else if (c == "reduce_mismatch") {
    std::vector<double> x(4, 1.0);
    Descriptor<double> d(x.data(), {rank_() == 0 ? 3 : 4});
    _idtr_reduce_all_f64(1, 1, d.get(), IDTR_OP_SUM);
  } else if (c == "reduce_op_mismatch") {
    std::vector<int32_t> x(40, 1);
    Descriptor<int32_t> d(x.data(), {40});
    _idtr_reduce_all_i32(1, 1, d.get(),
                         rank_() == 1 ? IDTR_OP_MAX : IDTR_OP_SUM);
  } else if (c == "exscan_mismatch") {
    std::vector<int64_t> x(4, 1);
    Descriptor<int64_t> d(x.data(), {rank_() == 1 ? 3 : 4});
    _idtr_exscan_i64(1, 1, d.get(), IDTR_OP_SUM);
  } else if (c == "bad_exscan_op") {
    int64_t x = 1;
    Descriptor<int64_t> d(&x, {1});
    _idtr_exscan_i64(1, 1, d.get(), -1);
  } else if (c == "take_out_of_range") {
    double x[2] = {1, 2};
    int64_t i[2] = {0, rank_() == 1 ? 7 : 1};
    Descriptor<double> d(x, {2}), o(x, {2});
    Descriptor<int64_t> di(i, {2});
    _idtr_take_f64(1, 1, d.get(), 2 * rank_(), 4, 1, di.get(), 1, o.get());
  } else if (c == "put_out_of_range") {
    double x[2] = {1, 2}, v[2] = {3, 4};
    int64_t i[2] = {0, rank_() == 1 ? -5 : 1};
    Descriptor<double> d(x, {2}), dv(v, {2});
    Descriptor<int64_t> di(i, {2});
    _idtr_put_f64(1, 1, d.get(), 2 * rank_(), 4, 1, di.get(), 1, dv.get(), 0);
  } else if (c == "bad_perm") {
    std::vector<double> x(4), y(4);
    Descriptor<double> d(x.data(), {2, 2}), o(y.data(), {2, 2});
    IndexVec g{2, 2}, l{0, 0}, perm{0, 0};
    _idtr_nprocs(1);
    _idtr_copy_permute_f64(1, 2, d.get(), 1, g.get(), 1, l.get(), 1, perm.get(),
                           2, o.get(), -1);
  } else if (c == "reshape_count") {
    std::vector<int8_t> x(12), y(12);
    Descriptor<int8_t> d(x.data(), {4, 3}), o(y.data(), {5, 2});
    IndexVec gi{4, 3}, li{0, 0}, go{5, 2}, lo{0, 0};
    _idtr_copy_reshape_i8(1, 2, d.get(), 1, gi.get(), 1, li.get(), 1, go.get(),
                          1, lo.get(), 2, o.get(), -1);
  } else if (c == "ragged_mismatch") {
    const int me = rank_();
    std::vector<int64_t> s(4), r(4);
    Descriptor<int64_t> ds(s.data(), {4}), dr(r.data(), {4});
    // rank 0 sends 2 rows to rank 1, but rank 1 expects 3
    IndexVec so{0, 0}, ss = me == 0 ? IndexVec{0, 2} : IndexVec{0, 0}, oo{0, 0},
                       rs = me == 1 ? IndexVec{3, 0} : IndexVec{0, 0};
    _idtr_ragged_alltoall_i64(1, 1, ds.get(), 1, so.get(), 1, ss.get(), 1,
                              dr.get(), 1, oo.get(), 1, rs.get());
  } else if (c == "ragged_overlap") {
    const int me = rank_();
    std::vector<double> s(4), r(4);
    Descriptor<double> ds(s.data(), {4}), dr(r.data(), {4});
    // rank 0 keeps 2 rows at [0,2), rank 1 sends 2 rows to rank 0 at [1,3)
    IndexVec so{0, 0}, ss = me == 0 ? IndexVec{2, 0} : IndexVec{2, 0},
                       oo = me == 0 ? IndexVec{0, 0} : IndexVec{1, 0},
                       rs = me == 0 ? IndexVec{2, 2} : IndexVec{0, 0};
    _idtr_ragged_alltoall_f64(1, 1, ds.get(), 1, so.get(), 1, ss.get(), 1,
                              dr.get(), 1, oo.get(), 1, rs.get());
  } else if (c == "cache_key_reuse") {
    _idtr_wait(halo({6}, 1, 42));
    _idtr_wait(halo({8}, 1, 42));
  } else if (c == "forget_then_key_reuse") {
    // Forgetting allows one change of metadata; the rebuilt plan is cached
    // and reusing the key with yet other metadata is an error again.
    _idtr_wait(halo({6}, 1, 42));
    _idtr_forget_plan(1, 42);
    _idtr_wait(halo({8}, 1, 42));
    _idtr_wait(halo({10}, 1, 42));
  } else if (c == "forget_negative_key") {
    _idtr_forget_plan(1, -2);
  } else if (c == "forget_bad_team") {
    _idtr_nprocs(1);
    _idtr_forget_plan(9, 0);
  } else if (c == "wait_buffers_foreign" || c == "wait_buffers_missing" ||
             c == "wait_buffers_nochecks") {
    if (c == "wait_buffers_nochecks")
      setenv("IDTR_NO_CHECKS", "1", 1);
    const int p = size_(), me = rank_();
    // 1-D halo of width 1 on 2 ranks: both ranks exchange (handle != 0).
    int64_t o, n;
    _idtr_default_partition(8, p, me, &o, &n);
    std::vector<double> d(n), l(1), r(1), other(4);
    int64_t lo = std::max<int64_t>(0, o - 1),
            hi = std::min<int64_t>(8, o + n + 1);
    Descriptor<double> dd(d.data(), {n}), dl(l.data(), {o - lo}),
        dr(r.data(), {hi - o - n}), dother(other.data(), {4});
    IndexVec g{8}, lof{o}, bo{lo}, bs{hi - lo};
    int64_t h = _idtr_update_halo_f64(1, 1, dd.get(), 1, g.get(), 1, lof.get(),
                                      1, bo.get(), 1, bs.get(), 1, dl.get(), 1,
                                      dr.get(), -1);
    if (c == "wait_buffers_missing") // the halos are not passed
      _idtr_wait_buffers(h, 1, dd.get(), 1, dd.get(), 1, dd.get());
    else // a buffer of another array
      _idtr_wait_buffers(h, 1, dd.get(), 1, dl.get(), 1, dother.get());
    if (c == "wait_buffers_nochecks") {
      std::printf("wait_buffers without checks ok on rank %d\n", me);
      return 0;
    }
  } else if (c == "null_descriptor") {
    IndexVec g{1}, l{0};
    _idtr_gather_f64(1, 1, nullptr, 1, g.get(), 1, l.get(), 1, nullptr, -1);
  } else if (c == "bad_fcomm") {
    _idtr_register_team(123456);
  } else if (c == "after_finalize") {
    MPI_Init(nullptr, nullptr);
    MPI_Finalize();
    _idtr_nprocs(1);
  } else if (c == "mpi_error") {
    _idtr_test_trigger_mpi_error(1);
    // ---- hangs (run with a short IDTR_TIMEOUT): the job must end with a
    // diagnostic instead of waiting forever.
  } else if (c == "skip_collective") {
    reduce_one();
    if (rank_() == 1) // returns (and finalizes) without the second reduction
      return 0;
    reduce_one();
  } else if (c == "skip_first_collective") {
    // Rank 1 makes no collective call at all (its _idtr_prank initialises
    // MPI and, with it, the world team's communicators).
    if (rank_() == 1)
      return 0;
    reduce_one();
  } else if (c == "stuck_before_first_collective") {
    // The application initialises MPI, so the world team's communicator is
    // duplicated by its first collective call; rank 1 computes meanwhile.
    MPI_Init(nullptr, nullptr);
    if (rank_() == 1) {
      std::this_thread::sleep_for(std::chrono::seconds(60));
      return 0;
    }
    reduce_one();
  } else if (c == "loop_count") {
    // Rank 0 runs one more iteration than the others.
    for (int i = 0; i < (rank_() == 0 ? 4 : 3); ++i)
      reduce_one();
    if (rank_() != 0)
      return 0;
  } else if (c == "collective_order") {
    // The last rank makes the same two calls in the other order.
    if (rank_() == size_() - 1) {
      _idtr_wait(halo({8}, 1, 3));
      reduce_one();
    } else {
      reduce_one();
      _idtr_wait(halo({8}, 1, 3));
    }
  } else if (c == "wait_no_peer") {
    // A halo exchange with a cached plan posts its messages without any
    // collective; in the second step rank 1 does not take part, so its
    // neighbours wait for its messages.
    _idtr_wait(halo({8}, 1, 5));
    if (rank_() == 1)
      return 0;
    _idtr_wait(halo({8}, 1, 5));
    if (rank_() >= 3) // no exchange with rank 1
      return 0;
  } else {
    std::fprintf(stderr, "unknown case %s\n", c.c_str());
    return 2;
  }
  std::printf("error case '%s' was NOT detected\n", c.c_str());
  return 0;
}
