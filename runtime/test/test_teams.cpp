// Teams: application communicators registered by Fortran handle or MPI_Comm,
// collectives on sub-teams, operations on two teams in flight at once.
#include "idtr/idtr_mpi.hpp"
#include "test_util.hpp"

using namespace idtest;

namespace {

// 1-D f64 array of n rows, default partition over `team`, halo width 1.
struct TeamHalo {
  int64_t team, p, me, n, o, rows, lo, hi;
  Arr<double> data, lh, rh;
  idtr::IndexVec gs, lof, bo, bs;
  TeamHalo(int64_t t, int64_t n_, int64_t salt)
      : team(t), p(_idtr_nprocs(t)), me(_idtr_prank(t)), n(n_),
        o(default_part(n_, static_cast<int>(p)).off[me]),
        rows(default_part(n_, static_cast<int>(p)).size[me]),
        lo(std::max<int64_t>(0, o - 1)), hi(std::min(n_, o + rows + 1)),
        data({rows}), lh({o - lo}), rh({hi - o - rows}), gs({n_}), lof({o}),
        bo({lo}), bs({hi - lo}) {
    fill_block<D_f64>(data, {n}, o, salt);
  }
  int64_t start() {
    return _idtr_update_halo_f64(team, 1, data.d(), 1, gs.get(), 1, lof.get(),
                                 1, bo.get(), 1, bs.get(), 1, lh.d(), 1, rh.d(),
                                 -1);
  }
  void check(int64_t salt) {
    for (int64_t i = 0; i < o - lo; ++i)
      EXPECT_EQ(lh.at({i}), val<D_f64>(lo + i, salt));
    for (int64_t i = 0; i < hi - o - rows; ++i)
      EXPECT_EQ(rh.at({i}), val<D_f64>(o + rows + i, salt));
  }
};

} // namespace

TEST(Teams, RegisterSplitCommunicator) {
  const int me = rank();
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, -me, &sub); // reversed rank order
  int sr, ss;
  MPI_Comm_rank(sub, &sr);
  MPI_Comm_size(sub, &ss);
  int64_t team = idtr::register_comm(sub);
  EXPECT_GE(team, 2);
  EXPECT_EQ(_idtr_nprocs(team), ss);
  EXPECT_EQ(_idtr_prank(team), sr);

  // reduce over the sub-team only
  Arr<int64_t> x({2});
  x.at({0}) = me;
  x.at({1}) = 1;
  _idtr_reduce_all_i64(team, 1, x.d(), IDTR_OP_SUM);
  int64_t expect = 0;
  for (int r = 0; r < nprocs(); ++r)
    if (r % 2 == me % 2)
      expect += r;
  EXPECT_EQ(x.at({0}), expect);
  EXPECT_EQ(x.at({1}), ss);

  // halo and gather on the sub-team
  TeamHalo h(team, 3 * ss + 1, 4);
  _idtr_wait(h.start());
  h.check(4);
  Arr<double> all({h.n});
  _idtr_gather_f64(team, 1, h.data.d(), 1, h.gs.get(), 1, h.lof.get(), 1,
                   all.d(), -1);
  for (int64_t i = 0; i < h.n; ++i)
    EXPECT_EQ(all.at({i}), val<D_f64>(i, 4));

  _idtr_unregister_team(team);
  MPI_Comm_free(&sub);
}

TEST(Teams, RegisterByFortranHandle) {
  // What an mpi4py application does: pass comm.py2f().
  int64_t a = _idtr_register_team(MPI_Comm_c2f(MPI_COMM_WORLD));
  int64_t b = _idtr_register_team(MPI_Comm_c2f(MPI_COMM_WORLD));
  EXPECT_GE(a, 2);
  EXPECT_NE(a, b);
  EXPECT_EQ(_idtr_nprocs(a), nprocs());
  EXPECT_EQ(_idtr_prank(b), rank());
  TeamHalo h(a, 2 * nprocs() + 1, 6);
  _idtr_wait(h.start());
  h.check(6);
  _idtr_unregister_team(a);
  _idtr_unregister_team(b);
}

TEST(Teams, OperationsOnTwoTeamsInFlight) {
  const int me = rank();
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, me < 2 ? 0 : 1, me, &sub);
  int64_t team = idtr::register_comm(sub);
  TeamHalo w1(IDTR_TEAM_WORLD, 4 * nprocs(), 1), s1(team, 5, 2),
      w2(IDTR_TEAM_WORLD, 7, 3), s2(team, 2 * _idtr_nprocs(team) + 1, 4);
  int64_t h[4] = {w1.start(), s1.start(), w2.start(), s2.start()};
  for (int i = 3; i >= 0; --i)
    _idtr_wait(h[i]);
  w1.check(1);
  s1.check(2);
  w2.check(3);
  s2.check(4);
  _idtr_unregister_team(team);
  MPI_Comm_free(&sub);
}

// Team 0 inside a multi-rank job: purely local on every rank.
TEST(Teams, TeamNoneInParallelJob) {
  const int me = rank();
  Arr<double> a({3});
  for (int64_t i = 0; i < 3; ++i)
    a.at({i}) = me * 10 + i;
  Arr<double> all({3});
  auto g = iv({3}), l = iv({0});
  _idtr_gather_f64(IDTR_TEAM_NONE, 1, a.d(), 1, g.get(), 1, l.get(), 1, all.d(),
                   -1);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(all.at({i}), me * 10 + i);
  _idtr_reduce_all_f64(IDTR_TEAM_NONE, 1, a.d(), IDTR_OP_SUM);
  EXPECT_EQ(a.at({2}), me * 10 + 2);
}
