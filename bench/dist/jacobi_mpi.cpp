//===- jacobi_mpi.cpp - hand-written C++/MPI stencils (reference) ---------===//
//
//   mpirun -n P jacobi_mpi jacobi|wave2d|jacobi-grid|wave2d-grid <rows>
//   <cols> <iters> [warmup]
//
// Runs `warmup` steps (untimed), then `iters` timed steps on fresh grids,
// as imex-dist-bench does with the ndarray kernels.
//
// The reference for bench/dist/run.py: the same programs as
// bench/dist/kernels.mlir, written the way one writes them by hand with MPI
// (build: mpicxx -O3 -march=native). The rows x cols grid is split in blocks of
// rows (dimension 0) with IDTR's default partition (the extra rows go to the
// last ranks); every rank stores its rows plus `halo` ghost rows on each
// side and exchanges them with its neighbours every step
// (MPI_Irecv/MPI_Isend/MPI_Waitall, one message per neighbour and
// direction), then updates its rows into a second buffer and swaps buffers.
//
//   jacobi: u[0, :] = 1, else 0; each step
//           u[1:-1, 1:-1] = 0.25 * ((N + S) + (W + E))          (halo 1)
//   wave2d: u = uprev = 1 on a rectangle, else 0; each step (leapfrog,
//           4th-order Laplacian, two fixed zero rows/columns on each side)
//           lap = (-u[i-2] + 16 u[i-1] - 30 u + 16 u[i+1] - u[i+2]
//                  - u[j-2] + 16 u[j-1] - 30 u + 16 u[j+1] - u[j+2]) / 12
//           unew = 2 u - uprev + 0.25 * lap;  uprev = u; u = unew (halo 2)
//
//   jacobi-grid: jacobi on a 2-D grid of ranks (MPI_Dims_create, as IDTR's
//           default grid; MPI_Cart_create without reordering), each rank
//           owning the default partition's blocks of both dimensions with
//           one ghost row/column on each side: rows and columns
//           exchanged through MPI_Type_vector datatypes, one message per
//           face neighbour and direction.
//   wave2d-grid: wave2d on that grid of ranks, two ghost rows/columns on
//           each side.
//
// The arithmetic is evaluated in the order of the ndarray programs, so the
// grids are bitwise equal; the checksum sum(u) differs only by the order
// of the final summation. Prints one line:
//
//   time=<seconds per step, max over ranks> checksum=<sum(u)>
//   halo_msgs=<messages sent per rank per step, max over ranks>
//   halo_ms=<ms per step in the exchange, max over ranks>
//   halo_ms_min=<the same, min over ranks>
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

struct Block {
  long off, rows; // global offset and number of owned rows
};

// IDTR's default partition (runtime/include/idtr/idtr.h).
Block defaultPartition(long n, int nprocs, int rank) {
  long base = n / nprocs, extra = n % nprocs;
  long first = nprocs - extra; // ranks >= first get one more row
  long rows = base + (rank >= first ? 1 : 0);
  long off = rank * base + std::max(0L, rank - first);
  return {off, rows};
}

// A block of rows of n columns with `halo` ghost rows on each side: row r
// (global off + r, -halo <= r < rows + halo) starts at data[(r + halo) * n].
struct Grid {
  long n, halo;
  Block block;
  std::vector<double> data;
  Grid(long n, long halo, Block block)
      : n(n), halo(halo), block(block), data((block.rows + 2 * halo) * n, 0.0) {
  }
  double *row(long r) { return data.data() + (r + halo) * n; }
};

// Neighbours that own rows (ranks without rows are skipped).
struct Neighbours {
  int left = MPI_PROC_NULL, right = MPI_PROC_NULL;
};

Neighbours neighbours(long n, int nprocs, int rank) {
  Neighbours nb;
  if (defaultPartition(n, nprocs, rank).rows == 0)
    return nb;
  for (int r = rank - 1; r >= 0; --r)
    if (defaultPartition(n, nprocs, r).rows > 0) {
      nb.left = r;
      break;
    }
  for (int r = rank + 1; r < nprocs; ++r)
    if (defaultPartition(n, nprocs, r).rows > 0) {
      nb.right = r;
      break;
    }
  return nb;
}

long haloMessages = 0;
double haloSeconds = 0;

// Sends the first/last `halo` owned rows to the neighbours and receives
// their rows into the ghost rows. Needs rows >= halo on every owner.
void exchange(Grid &g, const Neighbours &nb) {
  double t0 = MPI_Wtime();
  MPI_Request req[4];
  int count = 0;
  int len = static_cast<int>(g.halo * g.n);
  if (nb.left != MPI_PROC_NULL) {
    MPI_Irecv(g.row(-g.halo), len, MPI_DOUBLE, nb.left, 0, MPI_COMM_WORLD,
              &req[count++]);
    MPI_Isend(g.row(0), len, MPI_DOUBLE, nb.left, 1, MPI_COMM_WORLD,
              &req[count++]);
    ++haloMessages;
  }
  if (nb.right != MPI_PROC_NULL) {
    MPI_Irecv(g.row(g.block.rows), len, MPI_DOUBLE, nb.right, 1, MPI_COMM_WORLD,
              &req[count++]);
    MPI_Isend(g.row(g.block.rows - g.halo), len, MPI_DOUBLE, nb.right, 0,
              MPI_COMM_WORLD, &req[count++]);
    ++haloMessages;
  }
  MPI_Waitall(count, req, MPI_STATUSES_IGNORE);
  haloSeconds += MPI_Wtime() - t0;
}

// Owned local rows [lo, hi) whose global row lies in [first, last).
std::pair<long, long> interior(const Block &b, long first, long last) {
  long lo = std::max(b.off, first) - b.off;
  long hi = std::min(b.off + b.rows, last) - b.off;
  return {lo, std::max(lo, hi)};
}

// One row of the Jacobi update, columns [jlo, jhi), from the rows north,
// mid and south of it.
void jacobiRow(const double *__restrict north, const double *__restrict mid,
               const double *__restrict south, double *__restrict out, long jlo,
               long jhi) {
  for (long j = jlo; j < jhi; ++j)
    out[j] = ((north[j] + south[j]) + (mid[j - 1] + mid[j + 1])) * 0.25;
}

// One row of the wave2d update, columns [jlo, jhi), from rows i-2..i+2 of
// u (m2..p2) and row i of uprev, in the ndarray program's order.
void waveRow(const double *__restrict m2, const double *__restrict m1,
             const double *__restrict c, const double *__restrict p1,
             const double *__restrict p2, const double *__restrict prev,
             double *__restrict out, long jlo, long jhi) {
  for (long j = jlo; j < jhi; ++j) {
    double a = -m2[j] + 16.0 * m1[j];
    a = a - 30.0 * c[j];
    a = a + 16.0 * p1[j];
    a = a - p2[j];
    a = a - c[j - 2];
    a = a + 16.0 * c[j - 1];
    a = a - 30.0 * c[j];
    a = a + 16.0 * c[j + 1];
    a = a - c[j + 2];
    double lap = a / 12.0;
    out[j] = (2.0 * c[j] - prev[j]) + 0.25 * lap;
  }
}

void jacobiStep(Grid &u, Grid &v, long rows) {
  long n = u.n;
  auto [lo, hi] = interior(u.block, 1, rows - 1);
  for (long r = lo; r < hi; ++r)
    jacobiRow(u.row(r - 1), u.row(r), u.row(r + 1), v.row(r), 1, n - 1);
}

void waveStep(Grid &u, Grid &uprev, Grid &unew, long rows) {
  long n = u.n;
  auto [lo, hi] = interior(u.block, 2, rows - 2);
  for (long r = lo; r < hi; ++r)
    waveRow(u.row(r - 2), u.row(r - 1), u.row(r), u.row(r + 1), u.row(r + 2),
            uprev.row(r), unew.row(r), 2, n - 2);
}

double checksum(Grid &u) {
  double local = 0.0;
  for (long r = 0; r < u.block.rows; ++r)
    for (long j = 0; j < u.n; ++j)
      local += u.row(r)[j];
  double total = 0.0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// The pulse of wave2d: rows [rows/4, rows/4 + rows/8) x columns
// [cols/3, cols/3 + cols/8).
void pulse(Grid &g, long rows) {
  long cols = g.n, r0 = rows / 4, c0 = cols / 3, wr = rows / 8, wc = cols / 8;
  for (long r = 0; r < g.block.rows; ++r) {
    long gr = g.block.off + r;
    if (gr >= r0 && gr < r0 + wr)
      for (long j = c0; j < c0 + wc; ++j)
        g.row(r)[j] = 1.0;
  }
}

// The grid kernels: a block of rows x cols (this rank's block of both
// dimensions) with `halo` ghost rows and columns on each side, row-major
// with row stride cols + 2 * halo.
struct Tile {
  Block r, c;
  long halo, stride;
  std::vector<double> data;
  Tile(Block r, Block c, long halo)
      : r(r), c(c), halo(halo), stride(c.rows + 2 * halo),
        data((r.rows + 2 * halo) * (c.rows + 2 * halo), 0.0) {}
  double *at(long i, long j) {
    return data.data() + (i + halo) * stride + j + halo;
  }
};

struct GridComm {
  MPI_Comm cart;
  int north, south, west, east; // MPI_PROC_NULL at the array's edges
  MPI_Datatype rows, columns;   // `halo` owned rows / columns of a tile
};

// Sends the first/last `halo` owned rows and columns to the face
// neighbours and receives theirs into the ghost cells (no corners: the
// stencils read none).
void exchangeTile(Tile &t, const GridComm &g) {
  double t0 = MPI_Wtime();
  MPI_Request req[8];
  int count = 0;
  long h = t.halo;
  auto pair = [&](int nb, double *recv, double *send, MPI_Datatype type,
                  int tagRecv, int tagSend) {
    if (nb == MPI_PROC_NULL)
      return;
    MPI_Irecv(recv, 1, type, nb, tagRecv, g.cart, &req[count++]);
    MPI_Isend(send, 1, type, nb, tagSend, g.cart, &req[count++]);
    ++haloMessages;
  };
  pair(g.north, t.at(-h, 0), t.at(0, 0), g.rows, 0, 1);
  pair(g.south, t.at(t.r.rows, 0), t.at(t.r.rows - h, 0), g.rows, 1, 0);
  pair(g.west, t.at(0, -h), t.at(0, 0), g.columns, 2, 3);
  pair(g.east, t.at(0, t.c.rows), t.at(0, t.c.rows - h), g.columns, 3, 2);
  MPI_Waitall(count, req, MPI_STATUSES_IGNORE);
  haloSeconds += MPI_Wtime() - t0;
}

void jacobiTileStep(Tile &u, Tile &v, long rows, long cols) {
  auto [ilo, ihi] = interior(u.r, 1, rows - 1);
  auto [jlo, jhi] = interior(u.c, 1, cols - 1);
  for (long i = ilo; i < ihi; ++i)
    jacobiRow(u.at(i - 1, 0), u.at(i, 0), u.at(i + 1, 0), v.at(i, 0), jlo, jhi);
}

void waveTileStep(Tile &u, Tile &uprev, Tile &unew, long rows, long cols) {
  auto [ilo, ihi] = interior(u.r, 2, rows - 2);
  auto [jlo, jhi] = interior(u.c, 2, cols - 2);
  for (long i = ilo; i < ihi; ++i)
    waveRow(u.at(i - 2, 0), u.at(i - 1, 0), u.at(i, 0), u.at(i + 1, 0),
            u.at(i + 2, 0), uprev.at(i, 0), unew.at(i, 0), jlo, jhi);
}

double tileChecksum(Tile &t) {
  double local = 0.0;
  for (long i = 0; i < t.r.rows; ++i)
    for (long j = 0; j < t.c.rows; ++j)
      local += *t.at(i, j);
  double total = 0.0;
  MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// pulse() on a tile.
void tilePulse(Tile &t, long rows, long cols) {
  long r0 = rows / 4, c0 = cols / 3, wr = rows / 8, wc = cols / 8;
  for (long i = 0; i < t.r.rows; ++i)
    for (long j = 0; j < t.c.rows; ++j) {
      long gi = t.r.off + i, gj = t.c.off + j;
      if (gi >= r0 && gi < r0 + wr && gj >= c0 && gj < c0 + wc)
        *t.at(i, j) = 1.0;
    }
}

// jacobi-grid / wave2d-grid: (seconds on this rank, checksum) of `steps`
// steps.
std::pair<double, double> runGrid(bool wave, long rows, long cols, long steps,
                                  Block r, Block c, const GridComm &g) {
  haloMessages = 0;
  haloSeconds = 0;
  long halo = wave ? 2 : 1;
  Tile u(r, c, halo), v(r, c, halo), w(r, c, halo);
  if (wave) {
    tilePulse(u, rows, cols); // u = uprev (v) = the pulse
    tilePulse(v, rows, cols);
  } else if (r.off == 0 && r.rows > 0) {
    for (long j = -halo; j < c.rows + halo; ++j)
      *u.at(0, j) = *v.at(0, j) = 1.0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long i = 0; i < steps; ++i) {
    exchangeTile(u, g);
    if (wave) {
      waveTileStep(u, v, w, rows, cols);
      std::swap(v.data, u.data); // uprev = u; u = unew
      std::swap(u.data, w.data);
    } else {
      jacobiTileStep(u, v, rows, cols);
      std::swap(u.data, v.data);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t = MPI_Wtime() - t0;
  return {t, tileChecksum(u)};
}

// Prints the result line (see the top of the file): `t` is this rank's
// time for `iters` steps.
void report(double t, double sum, long iters, int rank) {
  double tmax = 0.0, hmax = 0.0, hmin = 0.0;
  long msgs = 0;
  MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&haloMessages, &msgs, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&haloSeconds, &hmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&haloSeconds, &hmin, 1, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
  double steps = double(std::max(1L, iters));
  if (rank == 0)
    std::printf("time=%.9g checksum=%.17g halo_msgs=%.3g halo_ms=%.6g "
                "halo_ms_min=%.6g\n",
                tmax / steps, sum, double(msgs) / steps, hmax / steps * 1e3,
                hmin / steps * 1e3);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int nprocs, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 5) {
    if (rank == 0)
      std::fprintf(
          stderr,
          "usage: %s jacobi|wave2d|jacobi-grid|wave2d-grid rows cols iters "
          "[warmup]\n",
          argv[0]);
    MPI_Finalize();
    return 2;
  }
  std::string kernel = argv[1];
  long rows = std::atol(argv[2]);
  long cols = std::atol(argv[3]);
  long iters = std::atol(argv[4]);
  long warmup = argc > 5 ? std::atol(argv[5]) : 0;
  // The grid kernels: the grid of ranks and the face neighbours.
  if (kernel == "jacobi-grid" || kernel == "wave2d-grid") {
    bool wave = kernel == "wave2d-grid";
    long halo = wave ? 2 : 1;
    int dims[2] = {0, 0}, periods[2] = {0, 0}, coords[2] = {0, 0};
    GridComm grid{};
    MPI_Dims_create(nprocs, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, /*reorder=*/0,
                    &grid.cart);
    MPI_Cart_coords(grid.cart, rank, 2, coords);
    MPI_Cart_shift(grid.cart, 0, 1, &grid.north, &grid.south);
    MPI_Cart_shift(grid.cart, 1, 1, &grid.west, &grid.east);
    if (rows < halo * dims[0] || cols < halo * dims[1]) {
      if (rank == 0)
        std::fprintf(stderr,
                     "jacobi_mpi: every block needs >= %ld rows and "
                     "columns\n",
                     halo);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    Block r = defaultPartition(rows, dims[0], coords[0]);
    Block c = defaultPartition(cols, dims[1], coords[1]);
    int stride = static_cast<int>(c.rows + 2 * halo);
    MPI_Type_vector(static_cast<int>(halo), static_cast<int>(c.rows), stride,
                    MPI_DOUBLE, &grid.rows);
    MPI_Type_vector(static_cast<int>(r.rows), static_cast<int>(halo), stride,
                    MPI_DOUBLE, &grid.columns);
    MPI_Type_commit(&grid.rows);
    MPI_Type_commit(&grid.columns);
    auto run = [&](long steps) {
      return runGrid(wave, rows, cols, steps, r, c, grid);
    };
    if (warmup > 0)
      run(warmup);
    auto [t, sum] = run(iters);
    report(t, sum, iters, rank);
    MPI_Type_free(&grid.rows);
    MPI_Type_free(&grid.columns);
    MPI_Comm_free(&grid.cart);
    MPI_Finalize();
    return 0;
  }
  long halo = kernel == "wave2d" ? 2 : 1;
  Block block = defaultPartition(rows, nprocs, rank);
  for (int r = 0; r < nprocs; ++r) {
    Block b = defaultPartition(rows, nprocs, r);
    if (b.rows > 0 && b.rows < halo) {
      if (rank == 0)
        std::fprintf(stderr, "jacobi_mpi: blocks must have >= %ld rows\n",
                     halo);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  Neighbours nb = neighbours(rows, nprocs, rank);

  if (kernel != "jacobi" && kernel != "wave2d") {
    if (rank == 0)
      std::fprintf(stderr, "jacobi_mpi: unknown kernel %s\n", kernel.c_str());
    MPI_Finalize();
    return 2;
  }
  // One run on fresh grids, timing the `steps` time steps (as the ndarray
  // kernels time their loop): returns (seconds on this rank, checksum).
  auto run = [&](long steps) -> std::pair<double, double> {
    haloMessages = 0;
    haloSeconds = 0;
    if (kernel == "jacobi") {
      Grid u(cols, halo, block), v(cols, halo, block);
      if (block.off == 0 && block.rows > 0)
        for (long j = 0; j < cols; ++j)
          u.row(0)[j] = v.row(0)[j] = 1.0;
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      for (long i = 0; i < steps; ++i) {
        exchange(u, nb);
        jacobiStep(u, v, rows);
        std::swap(u.data, v.data);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      double t = MPI_Wtime() - t0;
      return {t, checksum(u)};
    }
    Grid u(cols, halo, block), uprev(cols, halo, block),
        unew(cols, halo, block);
    pulse(u, rows);
    pulse(uprev, rows);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (long i = 0; i < steps; ++i) {
      exchange(u, nb);
      waveStep(u, uprev, unew, rows);
      // uprev = u; u = unew (the outer two rows/columns stay 0 in all three)
      std::swap(uprev.data, u.data);
      std::swap(u.data, unew.data);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime() - t0;
    return {t, checksum(u)};
  };
  if (warmup > 0)
    run(warmup); // first touch of the pages, MPI connections
  auto [t, sum] = run(iters);
  report(t, sum, iters, rank);
  MPI_Finalize();
  return 0;
}
