// MPI lifetime scenarios (argv[1]):
//   lazy_init  the runtime initialises MPI on first use and finalises it at
//   exit app_init   the application initialises and finalises MPI; the runtime
//              releases its communicators inside MPI_Finalize and does not
//              finalise again
//   unwaited   an async handle is never waited for: completed with a warning
//   team_none  team 0 only: MPI is never initialised
#include "idtr/idtr.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// Buffers of the never-waited operation: namespace-scope objects are destroyed
// after the runtime's exit handler has completed the operation (function-local
// statics created after the first idtr call would already be gone).
std::vector<double> g_data(1, 1.0), g_left(1), g_right(1);

void report_finalized() {
  int fin = 0;
  MPI_Finalized(&fin);
  std::printf("MPI finalized at exit: %d\n", fin);
  std::fflush(stdout);
}

int64_t reduce_sum_of_ones() {
  int64_t x = 1;
  idtr::Descriptor<int64_t> d(&x, {1});
  _idtr_reduce_all_i64(IDTR_TEAM_WORLD, 1, d.get(), IDTR_OP_SUM);
  return x;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  const std::string c = argv[1];
  if (c == "lazy_init") {
    std::atexit(report_finalized); // runs after the runtime's exit handler
    int64_t n = _idtr_nprocs(IDTR_TEAM_WORLD);
    int init = 0;
    MPI_Initialized(&init);
    if (!init || reduce_sum_of_ones() != n)
      return 1;
    if (_idtr_prank(IDTR_TEAM_WORLD) == 0)
      std::printf("lifecycle lazy_init ok on rank 0 of %ld\n",
                  static_cast<long>(n));
    return 0;
  }
  if (c == "app_init") {
    MPI_Init(&argc, &argv);
    int64_t n = _idtr_nprocs(IDTR_TEAM_WORLD);
    int64_t team = _idtr_register_team(MPI_Comm_c2f(MPI_COMM_WORLD));
    bool ok = reduce_sum_of_ones() == n;
    int64_t me = _idtr_prank(team);
    MPI_Finalize(); // the runtime frees its communicators in here
    if (ok && me == 0)
      std::printf("lifecycle app_init ok on rank 0 of %ld\n",
                  static_cast<long>(n));
    return ok ? 0 : 1;
  }
  if (c == "unwaited") {
    const int64_t p = _idtr_nprocs(1), me = _idtr_prank(1);
    idtr::Descriptor<double> dd(g_data.data(), {1}),
        dl(g_left.data(), {me > 0 ? 1 : 0}),
        dr(g_right.data(), {me < p - 1 ? 1 : 0});
    idtr::IndexVec g{p}, lof{me}, bo{me > 0 ? me - 1 : 0},
        bs{std::min<int64_t>(p, me + 2) - (me > 0 ? me - 1 : 0)};
    int64_t h = _idtr_update_halo_f64(1, 1, dd.get(), 1, g.get(), 1, lof.get(),
                                      1, bo.get(), 1, bs.get(), 1, dl.get(), 1,
                                      dr.get(), -1);
    std::printf("handle %s\n", h ? "pending" : "zero");
    return 0; // never waited
  }
  if (c == "team_none") {
    int64_t x[3] = {1, 2, 3};
    idtr::Descriptor<int64_t> d(x, {3});
    _idtr_reduce_all_i64(IDTR_TEAM_NONE, 1, d.get(), IDTR_OP_SUM);
    int64_t out[3];
    idtr::Descriptor<int64_t> o(out, {3});
    idtr::IndexVec g{3}, l{0};
    _idtr_gather_i64(IDTR_TEAM_NONE, 1, d.get(), 1, g.get(), 1, l.get(), 1,
                     o.get(), -1);
    int init = 0;
    MPI_Initialized(&init);
    bool ok = _idtr_nprocs(0) == 1 && out[2] == 3;
    std::printf("lifecycle team_none %s, MPI initialized: %d\n",
                ok ? "ok" : "BAD", init);
    return ok ? 0 : 1;
  }
  return 2;
}
