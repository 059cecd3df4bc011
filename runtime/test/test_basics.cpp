// Basics: default partition, team queries, descriptor helpers, statistics and
// team 0 ("not distributed") behaviour of every entry point.
#include "test_util.hpp"

using namespace idtest;

TEST(Basics, DefaultPartitionFormula) {
  for (int64_t n = 0; n <= 40; ++n) {
    for (int64_t p = 1; p <= 7; ++p) {
      int64_t expect_off = 0;
      for (int64_t r = 0; r < p; ++r) {
        int64_t off = -1, size = -1;
        _idtr_default_partition(n, p, r, &off, &size);
        // Documented closed form.
        int64_t q = n / p, first_big = p - n % p;
        EXPECT_EQ(size, q + (r >= first_big ? 1 : 0))
            << n << " " << p << " " << r;
        EXPECT_EQ(off, r * q + std::max<int64_t>(0, r - first_big))
            << n << " " << p;
        EXPECT_EQ(off, expect_off) << "blocks must tile: n=" << n << " p=" << p;
        expect_off += size;
        if (r > 0) { // extra rows go to the last ranks: sizes non-decreasing
          int64_t po, ps;
          _idtr_default_partition(n, p, r - 1, &po, &ps);
          EXPECT_LE(ps, size);
          EXPECT_LE(size - ps, 1);
        }
      }
      EXPECT_EQ(expect_off, n);
    }
  }
}

TEST(Basics, TeamQueries) {
  EXPECT_EQ(_idtr_nprocs(IDTR_TEAM_NONE), 1);
  EXPECT_EQ(_idtr_prank(IDTR_TEAM_NONE), 0);
  EXPECT_EQ(_idtr_nprocs(IDTR_TEAM_WORLD), nprocs());
  EXPECT_EQ(_idtr_prank(IDTR_TEAM_WORLD), rank());
}

TEST(Basics, DescriptorHelpers) {
  std::vector<double> buf(64);
  for (size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<double>(i);
  // 3x4 view with offset 5, row stride 10, column stride 2.
  idtr::Descriptor<double> d(buf.data(), buf.data(), 5, {3, 4}, {10, 2});
  idtr::MemRef<double> m(d.rank(), d.get());
  EXPECT_EQ(m.rank(), 2);
  EXPECT_EQ(m.allocated(), buf.data());
  EXPECT_EQ(m.aligned(), buf.data());
  EXPECT_EQ(m.offset(), 5);
  EXPECT_EQ(m.size(0), 3);
  EXPECT_EQ(m.size(1), 4);
  EXPECT_EQ(m.stride(0), 10);
  EXPECT_EQ(m.stride(1), 2);
  EXPECT_EQ(m.numel(), 12);
  EXPECT_EQ(m({2, 3}), 5 + 20 + 6);
  EXPECT_FALSE(m.is_contiguous());
  idtr::Descriptor<double> c(buf.data(), {4, 4});
  EXPECT_TRUE(c.view().is_contiguous());
  EXPECT_EQ(c.view()({1, 2}), 6);
  // Size-1 and size-0 dimensions do not break contiguity.
  idtr::Descriptor<double> s1(buf.data(), buf.data(), 0, {4, 1}, {1, 99});
  EXPECT_TRUE(s1.view().is_contiguous());
  idtr::Descriptor<double> s0(buf.data(), buf.data(), 0, {0, 7}, {1, 1});
  EXPECT_TRUE(s0.view().is_contiguous());
  idtr::IndexVec v{3, 1, 4};
  idtr::MemRef<int64_t> vm(v.rank(), v.get());
  EXPECT_EQ(vm.rank(), 1);
  EXPECT_EQ(vm.size(0), 3);
  EXPECT_EQ(vm({2}), 4);
  idtr::IndexVec v2 = v; // copies re-point the descriptor to their own data
  EXPECT_EQ(idtr::MemRef<int64_t>(1, v2.get()).data(), v2.values().data());
}

TEST(Basics, WaitOnZeroHandleIsNoop) { _idtr_wait(0); }

TEST(Basics, StatsCountCallsAndMessages) {
  _idtr_reset_stats();
  for (int k = 0; k <= IDTR_STAT_ALL; ++k)
    for (int c = 0; c < IDTR_NCOUNTERS; ++c)
      EXPECT_EQ(_idtr_stats(k, c), 0);
  const int p = nprocs(), me = rank();
  // A 1-D array with one row per rank, halo of one row on each side.
  int64_t n = p;
  Arr<double> a({1});
  a.at({0}) = me;
  Arr<double> lh({me > 0 ? 1 : 0}), rh({me < p - 1 ? 1 : 0});
  auto g = iv({n}), lo = iv({me}), bbo = iv({std::max(0, me - 1)}),
       bbs = iv({std::min<int64_t>(n, me + 2) - std::max(0, me - 1)});
  int64_t h =
      _idtr_update_halo_f64(1, 1, a.d(), 1, g.get(), 1, lo.get(), 1, bbo.get(),
                            1, bbs.get(), 1, lh.d(), 1, rh.d(), -1);
  _idtr_wait(h);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_HALO, IDTR_CNT_CALLS), 1);
  int64_t nmsg = (me > 0) + (me < p - 1);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV), nmsg);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_HALO, IDTR_CNT_MSGS_SENT), nmsg);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_HALO, IDTR_CNT_BYTES_RECV), 8 * nmsg);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_METADATA, IDTR_CNT_COLLECTIVES),
            p > 1 ? 1 : 0);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_ALL, IDTR_CNT_MSGS_SENT), nmsg);
  if (me > 0)
    EXPECT_EQ(lh.at({0}), me - 1);
  if (me < p - 1)
    EXPECT_EQ(rh.at({0}), me + 1);
  _idtr_reset_stats();
  EXPECT_EQ(_idtr_stats(IDTR_STAT_ALL, IDTR_CNT_CALLS), 0);
}

// _idtr_memory: a keyed exchange caches one plan (its bytes counted); halos
// received into strided arrays go through staging buffers, which completed
// operations keep for reuse (a second exchange allocates nothing new) until
// _idtr_clear_cache frees them with the plans.
TEST(Basics, MemoryCountsPlansAndStagingBuffers) {
  _idtr_clear_cache();
  EXPECT_EQ(_idtr_memory(IDTR_MEM_PLANS), 0);
  EXPECT_EQ(_idtr_memory(IDTR_MEM_PLAN_BYTES), 0);
  EXPECT_EQ(_idtr_memory(IDTR_MEM_STAGING_BYTES), 0);
  const int p = nprocs(), me = rank();
  // Rows of 3 columns, one row per rank; halos of one row, strided.
  int64_t n = p;
  Arr<double> a({1, 3});
  for (int64_t j = 0; j < 3; ++j)
    a.at({0, j}) = me * 10 + j;
  auto exchange = [&] {
    Arr<double> lh({me > 0 ? 1 : 0, 3}, Layout::Strided),
        rh({me < p - 1 ? 1 : 0, 3}, Layout::Strided);
    auto g = iv({n, 3}), lo = iv({me, 0}), bbo = iv({std::max(0, me - 1), 0}),
         bbs = iv({std::min<int64_t>(n, me + 2) - std::max(0, me - 1), 3});
    int64_t h = _idtr_update_halo_f64(IDTR_TEAM_WORLD, 2, a.d(), 1, g.get(), 1,
                                      lo.get(), 1, bbo.get(), 1, bbs.get(), 2,
                                      lh.d(), 2, rh.d(), /*key=*/7);
    _idtr_wait(h);
    if (me > 0)
      EXPECT_EQ(lh.at({0, 2}), (me - 1) * 10 + 2);
    if (me < p - 1)
      EXPECT_EQ(rh.at({0, 1}), (me + 1) * 10 + 1);
  };
  exchange();
  EXPECT_EQ(_idtr_memory(IDTR_MEM_PLANS), 1);
  EXPECT_GE(_idtr_memory(IDTR_MEM_PLAN_BYTES),
            static_cast<int64_t>(sizeof(double)));
  int64_t staged = _idtr_memory(IDTR_MEM_STAGING_BYTES);
  int64_t peak = _idtr_memory(IDTR_MEM_STAGING_PEAK);
  if (p > 1)
    EXPECT_GE(staged, static_cast<int64_t>(3 * sizeof(double)));
  EXPECT_GE(peak, staged);
  exchange();
  EXPECT_EQ(_idtr_memory(IDTR_MEM_PLANS), 1);
  EXPECT_EQ(_idtr_memory(IDTR_MEM_STAGING_BYTES), staged);
  _idtr_clear_cache();
  EXPECT_EQ(_idtr_memory(IDTR_MEM_PLANS), 0);
  EXPECT_EQ(_idtr_memory(IDTR_MEM_STAGING_BYTES), 0);
  EXPECT_GE(_idtr_memory(IDTR_MEM_STAGING_PEAK), peak);
}

// An empty bounding box (size 0 along a dimension) lies in every array,
// whatever its offsets (an empty view's are not clamped): nothing moves.
TEST(Basics, EmptyBoundingBoxAnywhere) {
  const int p = nprocs(), me = rank();
  int64_t n = p;
  Arr<double> a({1, 2}), lh({0, 2}), rh({0, 2});
  auto g = iv({n, 2}), lo = iv({me, 0}), bbo = iv({n + 5, 0}), bbs = iv({0, 2});
  int64_t h = _idtr_update_halo_f64(IDTR_TEAM_WORLD, 2, a.d(), 1, g.get(), 1,
                                    lo.get(), 1, bbo.get(), 1, bbs.get(), 2,
                                    lh.d(), 2, rh.d(), -1);
  _idtr_wait(h);
  auto to = iv({0, 7}), ts = iv({n, 0});
  Arr<double> out({n, 0});
  h = _idtr_repartition_f64(IDTR_TEAM_WORLD, 2, a.d(), 1, g.get(), 1, lo.get(),
                            1, to.get(), 1, ts.get(), 2, out.d(), -1);
  _idtr_wait(h);
}

// IDTR_CNT_CALL_NS / IDTR_CNT_WAIT_NS: wall-clock time inside the entry point
// and inside the wait, attributed to the kind of the operation; synchronous
// kinds only have CALL_NS; handle 0 waits cost nothing.
TEST(Basics, StatsTimeCounters) {
  _idtr_reset_stats();
  for (int k = 0; k <= IDTR_STAT_ALL; ++k) {
    EXPECT_EQ(_idtr_stats(k, IDTR_CNT_CALL_NS), 0);
    EXPECT_EQ(_idtr_stats(k, IDTR_CNT_WAIT_NS), 0);
  }
  const int p = nprocs(), me = rank();
  // Halo of one row on each side of a 1-D array with one row per rank.
  Arr<double> a({1});
  a.at({0}) = me;
  Arr<double> lh({me > 0 ? 1 : 0}), rh({me < p - 1 ? 1 : 0});
  auto g = iv({p}), lo = iv({me}), bbo = iv({std::max(0, me - 1)}),
       bbs = iv({std::min<int64_t>(p, me + 2) - std::max(0, me - 1)});
  int64_t h =
      _idtr_update_halo_f64(1, 1, a.d(), 1, g.get(), 1, lo.get(), 1, bbo.get(),
                            1, bbs.get(), 1, lh.d(), 1, rh.d(), -1);
  const int64_t call_before_wait = stat(IDTR_STAT_HALO, IDTR_CNT_CALL_NS);
  EXPECT_GT(call_before_wait, 0);
  EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS), 0);
  _idtr_wait(h);
  EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_CALL_NS), call_before_wait);
  EXPECT_GE(stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS), 0);
  // A single rank has nothing to exchange: handle 0, no wait time.
  EXPECT_EQ(h != 0, p > 1);
  if (h != 0)
    EXPECT_GT(stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS), 0);
  else
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS), 0);
  // Only halo time so far: the metadata exchange is part of the halo call.
  EXPECT_EQ(stat(IDTR_STAT_METADATA, IDTR_CNT_CALL_NS), 0);
  EXPECT_EQ(stat(IDTR_STAT_ALL, IDTR_CNT_CALL_NS),
            stat(IDTR_STAT_HALO, IDTR_CNT_CALL_NS));
  EXPECT_EQ(stat(IDTR_STAT_ALL, IDTR_CNT_WAIT_NS),
            stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS));
  // Waiting for handle 0 costs nothing.
  const int64_t wait_total = stat(IDTR_STAT_ALL, IDTR_CNT_WAIT_NS);
  _idtr_wait(0);
  _idtr_wait_buffers(0, 1, a.d(), 1, a.d(), 1, a.d());
  EXPECT_EQ(stat(IDTR_STAT_ALL, IDTR_CNT_WAIT_NS), wait_total);
  // _idtr_wait_buffers is timed like _idtr_wait.
  h = _idtr_update_halo_f64(1, 1, a.d(), 1, g.get(), 1, lo.get(), 1, bbo.get(),
                            1, bbs.get(), 1, lh.d(), 1, rh.d(), -1);
  _idtr_wait_buffers(h, 1, a.d(), 1, lh.d(), 1, rh.d());
  if (h != 0)
    EXPECT_GT(stat(IDTR_STAT_HALO, IDTR_CNT_WAIT_NS), wait_total);
  // Synchronous kinds: CALL_NS only.
  Arr<double> r({3}), all({p});
  _idtr_reduce_all_f64(1, 1, r.d(), IDTR_OP_SUM);
  _idtr_gather_f64(1, 1, a.d(), 1, g.get(), 1, lo.get(), 1, all.d(), -1);
  for (int k : {IDTR_STAT_REDUCE, IDTR_STAT_GATHER}) {
    EXPECT_GT(stat(k, IDTR_CNT_CALL_NS), 0) << k;
    EXPECT_EQ(stat(k, IDTR_CNT_WAIT_NS), 0) << k;
  }
  int64_t sum = 0;
  for (int k = 0; k < IDTR_STAT_NKINDS; ++k)
    sum += stat(k, IDTR_CNT_CALL_NS);
  EXPECT_EQ(stat(IDTR_STAT_ALL, IDTR_CNT_CALL_NS), sum);
  if (me > 0)
    EXPECT_EQ(lh.at({0}), me - 1);
  _idtr_reset_stats();
  for (int k = 0; k <= IDTR_STAT_ALL; ++k) {
    EXPECT_EQ(_idtr_stats(k, IDTR_CNT_CALL_NS), 0);
    EXPECT_EQ(_idtr_stats(k, IDTR_CNT_WAIT_NS), 0);
  }
}

// Team 0 means "not distributed": every entry point works on the local
// process only, without MPI communication.
TEST(Basics, TeamNoneIsLocal) {
  _idtr_reset_stats();
  const Vec g{4, 3};
  Arr<int64_t> a(g);
  fill_block<D_i64>(a, g, 0);
  // reduce: no-op for arithmetic ops, 0/1 normalisation for logical ones
  {
    Arr<int64_t> x({3});
    x.at({0}) = 5, x.at({1}) = 0, x.at({2}) = -2;
    _idtr_reduce_all_i64(0, 1, x.d(), IDTR_OP_SUM);
    EXPECT_EQ(x.buf, (std::vector<int64_t>{5, 0, -2, 0, 0}));
    _idtr_reduce_all_i64(0, 1, x.d(), IDTR_OP_LOR);
    EXPECT_EQ(x.at({0}), 1);
    EXPECT_EQ(x.at({1}), 0);
    EXPECT_EQ(x.at({2}), 1);
  }
  // halo: the whole array is owned, halos are empty
  {
    Arr<int64_t> lh({0, 3}), rh({0, 3});
    auto gs = iv(g), lo = iv({0, 0}), bbo = iv({0, 0}), bbs = iv({4, 3});
    EXPECT_EQ(_idtr_update_halo_i64(0, 2, a.d(), 1, gs.get(), 1, lo.get(), 1,
                                    bbo.get(), 1, bbs.get(), 2, lh.d(), 2,
                                    rh.d(), 7),
              0);
  }
  // reshape 4x3 -> 2x6
  {
    Arr<int64_t> o({2, 6});
    auto gi = iv(g), li = iv({0, 0}), go = iv({2, 6}), lo = iv({0, 0});
    EXPECT_EQ(_idtr_copy_reshape_i64(0, 2, a.d(), 1, gi.get(), 1, li.get(), 1,
                                     go.get(), 1, lo.get(), 2, o.d(), -1),
              0);
    for_each_index(o.sizes, [&](const Vec &i) {
      EXPECT_EQ(o.at(i), val<D_i64>(lin({2, 6}, i)));
    });
  }
  // permute -> 3x4
  {
    Arr<int64_t> o({3, 4});
    auto gi = iv(g), li = iv({0, 0}), pm = iv({1, 0});
    EXPECT_EQ(_idtr_copy_permute_i64(0, 2, a.d(), 1, gi.get(), 1, li.get(), 1,
                                     pm.get(), 2, o.d(), -1),
              0);
    for_each_index(o.sizes, [&](const Vec &i) {
      EXPECT_EQ(o.at(i), val<D_i64>(lin(g, {i[1], i[0]})));
    });
  }
  // repartition -> sub-box rows 1..3, cols 1..2
  {
    Arr<int64_t> o({2, 2});
    auto gs = iv(g), li = iv({0, 0}), to = iv({1, 1}), ts = iv({2, 2});
    EXPECT_EQ(_idtr_repartition_i64(0, 2, a.d(), 1, gs.get(), 1, li.get(), 1,
                                    to.get(), 1, ts.get(), 2, o.d(), -1),
              0);
    for_each_index(o.sizes, [&](const Vec &i) {
      EXPECT_EQ(o.at(i), val<D_i64>(lin(g, {i[0] + 1, i[1] + 1})));
    });
  }
  // gather
  {
    Arr<int64_t> o(g, Layout::Reversed);
    auto gs = iv(g), li = iv({0, 0});
    _idtr_gather_i64(0, 2, a.d(), 1, gs.get(), 1, li.get(), 2, o.d(), -1);
    for_each_index(o.sizes, [&](const Vec &i) {
      EXPECT_EQ(o.at(i), val<D_i64>(lin(g, i)));
    });
  }
  // ragged all-to-all with one peer (itself): rows 1..2 -> recv rows 2..3
  {
    Arr<int64_t> r({5, 3}, Layout::Dense, -1);
    auto so = iv({1}), ss = iv({2}), oo = iv({2}), rs = iv({2});
    _idtr_ragged_alltoall_i64(0, 2, a.d(), 1, so.get(), 1, ss.get(), 2, r.d(),
                              1, oo.get(), 1, rs.get());
    for_each_index(r.sizes, [&](const Vec &i) {
      int64_t want =
          (i[0] >= 2 && i[0] < 4) ? val<D_i64>(lin(g, {i[0] - 1, i[1]})) : -1;
      EXPECT_EQ(r.at(i), want);
    });
  }
  EXPECT_EQ(_idtr_stats(IDTR_STAT_ALL, IDTR_CNT_MSGS_SENT), 0);
  EXPECT_EQ(_idtr_stats(IDTR_STAT_ALL, IDTR_CNT_COLLECTIVES), 0);
  // Every kind was timed at its entry point; all completed there (no waits).
  for (int k = 0; k < IDTR_STAT_METADATA; ++k) {
    EXPECT_GT(_idtr_stats(k, IDTR_CNT_CALL_NS), 0) << "kind " << k;
    EXPECT_EQ(_idtr_stats(k, IDTR_CNT_WAIT_NS), 0) << "kind " << k;
  }
}
