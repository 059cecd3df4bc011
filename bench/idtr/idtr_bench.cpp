// libidtr benchmark: halo exchange and repartition on N ranks.
//
// For every case it reports (over ranks): time per operation (max over
// ranks of the mean over iterations), point-to-point messages sent per rank
// (max and mean), payload bytes moved (sum over ranks) and the minimum number
// of bytes any implementation has to move (elements whose owner differs from
// the rank that needs them). Halo exchange is also timed with the scheme of
// the previous implementation (one MPI_Alltoallv over all ranks per halo
// side) as a baseline.
//
// Usage: mpirun -np N idtr_bench [--rows-per-rank R] [--cols C] [--iters I]
//                                [--csv FILE]  (rank 0 appends one line/case)
#include "idtr/idtr.h"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Vec = std::vector<int64_t>;

int g_rank = 0, g_size = 1;

struct Result {
  std::string op;
  double time_us = 0;  // max over ranks of the mean time per operation
  double msgs_max = 0; // messages sent per rank per operation (max)
  double msgs_avg = 0; // ... (mean over ranks)
  double bytes = 0;    // payload bytes moved per operation (sum over ranks)
  double min_bytes = 0;
};

std::vector<Result> g_results;

double max_over_ranks(double v) {
  double r = 0;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return r;
}
double sum_over_ranks(double v) {
  double r = 0;
  MPI_Allreduce(&v, &r, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return r;
}

void part(int64_t n, int64_t &off, int64_t &size) {
  _idtr_default_partition(n, g_size, g_rank, &off, &size);
}

// Runs `op` `iters` times (after warm-up) and records a result line.
template <class F>
void measure(const std::string &name, int iters, int stat_kind,
             double min_bytes_total, F op) {
  for (int i = 0; i < 2; ++i)
    op(); // warm-up (builds and caches plans)
  MPI_Barrier(MPI_COMM_WORLD);
  _idtr_reset_stats();
  double t0 = MPI_Wtime();
  for (int i = 0; i < iters; ++i)
    op();
  double t = (MPI_Wtime() - t0) / iters;
  Result r;
  r.op = name;
  r.time_us = max_over_ranks(t) * 1e6;
  double msgs =
      stat_kind >= 0
          ? static_cast<double>(_idtr_stats(stat_kind, IDTR_CNT_MSGS_SENT)) /
                iters
          : -1;
  double bytes =
      stat_kind >= 0
          ? static_cast<double>(_idtr_stats(stat_kind, IDTR_CNT_BYTES_SENT)) /
                iters
          : -1;
  r.msgs_max = max_over_ranks(msgs);
  r.msgs_avg = sum_over_ranks(msgs) / g_size;
  r.bytes = sum_over_ranks(bytes);
  r.min_bytes = min_bytes_total;
  g_results.push_back(r);
}

// --------------------------------------------------------------- halo ---

struct HaloSetup {
  Vec g;
  int64_t w, off, rows, lo, hi;
  std::vector<double> data, lh, rh;
  idtr::Descriptor<double> dd, dl, dr;
  idtr::IndexVec gs, lof, bo, bs;
  HaloSetup(int64_t n, int64_t cols, int64_t w_) : g{n, cols}, w(w_) {
    part(n, off, rows);
    lo = std::max<int64_t>(0, off - w);
    hi = std::min(n, off + rows + w);
    data.assign(static_cast<size_t>(rows * cols + 1), g_rank);
    lh.assign(static_cast<size_t>((off - lo) * cols + 1), 0);
    rh.assign(static_cast<size_t>((hi - off - rows) * cols + 1), 0);
    dd = idtr::Descriptor<double>(data.data(), {rows, cols});
    dl = idtr::Descriptor<double>(lh.data(), {off - lo, cols});
    dr = idtr::Descriptor<double>(rh.data(), {hi - off - rows, cols});
    gs = idtr::IndexVec(g);
    lof = idtr::IndexVec({off, 0});
    bo = idtr::IndexVec({lo, 0});
    bs = idtr::IndexVec({hi - lo, cols});
  }
  // Minimum bytes over all ranks: every halo row is owned by another rank.
  double min_bytes() const {
    return sum_over_ranks(static_cast<double>((hi - lo - rows) * g[1] * 8));
  }
  void idtr_exchange(int64_t key) {
    _idtr_wait(_idtr_update_halo_f64(1, 2, dd.get(), 1, gs.get(), 1, lof.get(),
                                     1, bo.get(), 1, bs.get(), 2, dl.get(), 2,
                                     dr.get(), key));
  }
};

// Previous implementation's scheme: counts for every rank, two
// MPI_Alltoallv over all ranks (left and right halo), recomputed each call.
struct AlltoallvHalo {
  HaloSetup &h;
  std::vector<int> soffs, srows;
  explicit AlltoallvHalo(HaloSetup &s) : h(s) {}
  void exchange() {
    const int p = g_size;
    const int64_t cols = h.g[1];
    std::vector<int64_t> mine = {h.off, h.rows, h.lo, h.hi};
    std::vector<int64_t> all(4 * static_cast<size_t>(p));
    MPI_Allgather(mine.data(), 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T,
                  MPI_COMM_WORLD);
    for (int side = 0; side < 2; ++side) {
      std::vector<int> sc(p, 0), sd(p, 0), rc(p, 0), rd(p, 0);
      for (int q = 0; q < p; ++q) {
        int64_t qo = all[4 * q], qn = all[4 * q + 1], ql = all[4 * q + 2],
                qh = all[4 * q + 3];
        // rows of q's halo side that I own
        int64_t a = side == 0 ? ql : qo + qn, b = side == 0 ? qo : qh;
        int64_t lo = std::max(a, h.off), hi = std::min(b, h.off + h.rows);
        if (q != g_rank && lo < hi) {
          sc[q] = static_cast<int>((hi - lo) * cols);
          sd[q] = static_cast<int>((lo - h.off) * cols);
        }
        // rows of my halo side that q owns
        int64_t ma = side == 0 ? h.lo : h.off + h.rows,
                mb = side == 0 ? h.off : h.hi;
        lo = std::max(ma, qo);
        hi = std::min(mb, qo + qn);
        if (q != g_rank && lo < hi) {
          rc[q] = static_cast<int>((hi - lo) * cols);
          rd[q] = static_cast<int>((lo - ma) * cols);
        }
      }
      double *rbuf = side == 0 ? h.lh.data() : h.rh.data();
      MPI_Alltoallv(h.data.data(), sc.data(), sd.data(), MPI_DOUBLE, rbuf,
                    rc.data(), rd.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    }
  }
};

// -------------------------------------------------------- repartition ---

struct RepartSetup {
  Vec g;
  int64_t off, rows, toff, trows;
  std::vector<double> in, out;
  idtr::Descriptor<double> din, dout;
  idtr::IndexVec gs, lof, to, ts;
  double min_total = 0;
  // Target: every block boundary shifted by `shift` rows (clamped), e.g. a
  // rebalance after slicing.
  RepartSetup(int64_t n, int64_t cols, int64_t shift) : g{n, cols} {
    part(n, off, rows);
    auto bound = [&](int r) { // start row of rank r in the target
      if (r == 0)
        return int64_t(0);
      if (r == g_size)
        return n;
      int64_t o, s;
      _idtr_default_partition(n, g_size, r, &o, &s);
      return std::clamp<int64_t>(o + shift, 0, n);
    };
    toff = bound(g_rank);
    trows = bound(g_rank + 1) - toff;
    in.assign(static_cast<size_t>(rows * cols + 1), 1.0);
    out.assign(static_cast<size_t>(trows * cols + 1), 0.0);
    din = idtr::Descriptor<double>(in.data(), {rows, cols});
    dout = idtr::Descriptor<double>(out.data(), {trows, cols});
    gs = idtr::IndexVec(g);
    lof = idtr::IndexVec({off, 0});
    to = idtr::IndexVec({toff, 0});
    ts = idtr::IndexVec({trows, cols});
    int64_t keep = std::max<int64_t>(0, std::min(off + rows, toff + trows) -
                                            std::max(off, toff));
    min_total = sum_over_ranks(static_cast<double>((trows - keep) * cols * 8));
  }
  void run(int64_t key) {
    _idtr_wait(_idtr_repartition_f64(1, 2, din.get(), 1, gs.get(), 1, lof.get(),
                                     1, to.get(), 1, ts.get(), 2, dout.get(),
                                     key));
  }
};

void print_and_write(const char *csv, int64_t rows_per_rank, int64_t cols) {
  if (g_rank != 0)
    return;
  std::printf("\nidtr benchmark: %d rank(s), %lld rows/rank x %lld cols, f64\n",
              g_size, static_cast<long long>(rows_per_rank),
              static_cast<long long>(cols));
  std::printf("%-34s %12s %9s %9s %14s %14s %7s\n", "operation", "time [us]",
              "msgs max", "msgs avg", "bytes moved", "bytes minimum", "ratio");
  for (const Result &r : g_results) {
    char msgs_max[32] = "-", msgs_avg[32] = "-", bytes[32] = "-",
         ratio[32] = "-";
    if (r.msgs_max >= 0) {
      std::snprintf(msgs_max, sizeof msgs_max, "%.2f", r.msgs_max);
      std::snprintf(msgs_avg, sizeof msgs_avg, "%.2f", r.msgs_avg);
      std::snprintf(bytes, sizeof bytes, "%.0f", r.bytes);
      std::snprintf(ratio, sizeof ratio, "%.3f",
                    r.min_bytes > 0 ? r.bytes / r.min_bytes : 1.0);
    }
    std::printf("%-34s %12.1f %9s %9s %14s %14.0f %7s\n", r.op.c_str(),
                r.time_us, msgs_max, msgs_avg, bytes, r.min_bytes, ratio);
  }
  std::fflush(stdout);
  if (!csv)
    return;
  FILE *f = std::fopen(csv, "a");
  if (!f) {
    std::fprintf(stderr, "cannot open %s\n", csv);
    return;
  }
  std::fseek(f, 0, SEEK_END);
  if (std::ftell(f) == 0)
    std::fprintf(f, "nprocs,rows_per_rank,cols,operation,time_us,msgs_max,"
                    "msgs_avg,bytes_moved,bytes_min\n");
  for (const Result &r : g_results)
    std::fprintf(f, "%d,%lld,%lld,%s,%.2f,%.3f,%.3f,%.0f,%.0f\n", g_size,
                 static_cast<long long>(rows_per_rank),
                 static_cast<long long>(cols), r.op.c_str(), r.time_us,
                 r.msgs_max, r.msgs_avg, r.bytes, r.min_bytes);
  std::fclose(f);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  int64_t rows_per_rank = 256, cols = 256;
  int iters = 200;
  const char *csv = nullptr;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rows-per-rank"))
      rows_per_rank = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cols"))
      cols = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--iters"))
      iters = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--csv"))
      csv = argv[i + 1];
  }
  const int64_t n = rows_per_rank * g_size;

  for (int64_t w : {1, 4}) {
    HaloSetup h(n, cols, w);
    const double minb = h.min_bytes();
    const std::string sw = " w=" + std::to_string(w);
    measure("halo idtr cached" + sw, iters, IDTR_STAT_HALO, minb,
            [&] { h.idtr_exchange(10 + w); });
    measure("halo idtr uncached" + sw, iters, IDTR_STAT_HALO, minb,
            [&] { h.idtr_exchange(-1); });
    AlltoallvHalo base(h);
    measure("halo alltoallv baseline" + sw, iters, -1, minb,
            [&] { base.exchange(); });
  }
  // Halo wider than a block: spans several ranks.
  {
    HaloSetup h(n, cols, rows_per_rank + rows_per_rank / 2);
    measure("halo idtr cached w=1.5 blocks", iters, IDTR_STAT_HALO,
            h.min_bytes(), [&] { h.idtr_exchange(20); });
  }
  for (int64_t shift : {rows_per_rank / 8, rows_per_rank * 3 / 2}) {
    RepartSetup r(n, cols, shift);
    const std::string ss = " shift=" + std::to_string(shift);
    measure("repartition cached" + ss, iters, IDTR_STAT_REPARTITION,
            r.min_total, [&] { r.run(30 + shift); });
    measure("repartition uncached" + ss, iters, IDTR_STAT_REPARTITION,
            r.min_total, [&] { r.run(-1); });
  }
  print_and_write(csv, rows_per_rank, cols);
  MPI_Finalize();
  return 0;
}
