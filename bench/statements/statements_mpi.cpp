// Hand-written C++/MPI loops for the statements of bench/statements: each
// rank owns a block of the n x m float64 arrays A and B (rows, or the 2-D
// grid of MPI_Dims_create), with one ghost row and column on each side for
// the stencil, and C, A's values on columns (rows: on the grid), for the
// redistribution. Usage:
//
//   statements_mpi STATEMENT N M REPS GRID
//
// prints {"statement": ..., "seconds": best mean time per execution} from
// rank 0 (the slowest rank's time, 5 rounds of REPS executions).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Block {
  int64_t row0, rows, col0, cols; // global offsets and sizes of this block
  int64_t ld;                     // leading dimension (cols + 2 ghosts)
  int up, down, left, right;      // neighbours (MPI_PROC_NULL at borders)
  MPI_Comm comm;
};

void partition(int64_t n, int parts, int index, int64_t &start, int64_t &size) {
  int64_t base = n / parts, extra = n % parts;
  // The last ranks one more, as IDTR.
  int64_t first_long = parts - extra;
  start = index * base + std::max<int64_t>(0, index - first_long);
  size = base + (index >= first_long ? 1 : 0);
}

enum Layout { Rows, Grid, Columns };

Block make_block(int64_t n, int64_t m, Layout layout) {
  int p, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int dims[2] = {layout == Rows      ? p
                 : layout == Columns ? 1
                                     : 0,
                 layout == Rows      ? 1
                 : layout == Columns ? p
                                     : 0};
  int periods[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  Block b;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &b.comm);
  MPI_Comm_rank(b.comm, &rank);
  int coords[2];
  MPI_Cart_coords(b.comm, rank, 2, coords);
  partition(n, dims[0], coords[0], b.row0, b.rows);
  partition(m, dims[1], coords[1], b.col0, b.cols);
  b.ld = b.cols + 2;
  MPI_Cart_shift(b.comm, 0, 1, &b.up, &b.down);
  MPI_Cart_shift(b.comm, 1, 1, &b.left, &b.right);
  return b;
}

/// Element (i, j) of the block (local indices, ghosts at -1 and rows/cols).
inline double &at(std::vector<double> &a, const Block &b, int64_t i,
                  int64_t j) {
  return a[(i + 1) * b.ld + (j + 1)];
}

/// The ghost rows and columns of `a` from the neighbours.
void exchange(std::vector<double> &a, const Block &b) {
  MPI_Datatype column;
  MPI_Type_vector(static_cast<int>(b.rows), 1, static_cast<int>(b.ld),
                  MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  int cols = static_cast<int>(b.cols);
  MPI_Sendrecv(&at(a, b, 0, 0), cols, MPI_DOUBLE, b.up, 0, &at(a, b, b.rows, 0),
               cols, MPI_DOUBLE, b.down, 0, b.comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&at(a, b, b.rows - 1, 0), cols, MPI_DOUBLE, b.down, 1,
               &at(a, b, -1, 0), cols, MPI_DOUBLE, b.up, 1, b.comm,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&at(a, b, 0, 0), 1, column, b.left, 2, &at(a, b, 0, b.cols), 1,
               column, b.right, 2, b.comm, MPI_STATUS_IGNORE);
  MPI_Sendrecv(&at(a, b, 0, b.cols - 1), 1, column, b.right, 3,
               &at(a, b, 0, -1), 1, column, b.left, 3, b.comm,
               MPI_STATUS_IGNORE);
  MPI_Type_free(&column);
}

/// The local index range of global [lo, hi) in a block starting at `start`
/// of `size`.
void clip(int64_t lo, int64_t hi, int64_t start, int64_t size, int64_t &from,
          int64_t &to) {
  from = std::max<int64_t>(lo - start, 0);
  to = std::min<int64_t>(hi - start, size);
  if (to < from)
    to = from;
}

/// The blocks of every rank of MPI_COMM_WORLD (its rank order).
std::vector<Block> all_blocks(const Block &mine) {
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<int64_t> mine4 = {mine.row0, mine.rows, mine.col0, mine.cols},
                       every(4 * static_cast<size_t>(p));
  MPI_Allgather(mine4.data(), 4, MPI_INT64_T, every.data(), 4, MPI_INT64_T,
                MPI_COMM_WORLD);
  std::vector<Block> blocks(static_cast<size_t>(p));
  for (int r = 0; r < p; ++r)
    blocks[r] = {every[4 * r],
                 every[4 * r + 1],
                 every[4 * r + 2],
                 every[4 * r + 3],
                 0,
                 0,
                 0,
                 0,
                 0,
                 MPI_COMM_NULL};
  return blocks;
}

/// dst (blocks `to`) = src (blocks `from`) for two block distributions of
/// one array: each rank packs the intersection of its source block with
/// every destination block, one MPI_Alltoallv, then unpacks.
struct Redistribution {
  std::vector<Block> from, to;
  int me;
  std::vector<int> send_counts, send_offsets, recv_counts, recv_offsets;
  std::vector<double> send, recv;

  Redistribution(const Block &src, const Block &dst) {
    from = all_blocks(src);
    to = all_blocks(dst);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    size_t p = from.size();
    send_counts.assign(p, 0);
    recv_counts.assign(p, 0);
    send_offsets.assign(p, 0);
    recv_offsets.assign(p, 0);
    for (size_t r = 0; r < p; ++r) {
      send_counts[r] = static_cast<int>(overlap(from[me], to[r]));
      recv_counts[r] = static_cast<int>(overlap(from[r], to[me]));
      if (r > 0) {
        send_offsets[r] = send_offsets[r - 1] + send_counts[r - 1];
        recv_offsets[r] = recv_offsets[r - 1] + recv_counts[r - 1];
      }
    }
    send.resize(static_cast<size_t>(send_offsets[p - 1] + send_counts[p - 1]));
    recv.resize(static_cast<size_t>(recv_offsets[p - 1] + recv_counts[p - 1]));
  }

  static int64_t overlap(const Block &a, const Block &b) {
    int64_t rows =
        std::min(a.row0 + a.rows, b.row0 + b.rows) - std::max(a.row0, b.row0);
    int64_t cols =
        std::min(a.col0 + a.cols, b.col0 + b.cols) - std::max(a.col0, b.col0);
    return rows > 0 && cols > 0 ? rows * cols : 0;
  }

  /// Visits the elements of block `owner` (as laid out locally in
  /// `owner_block`'s array) that lie in `other`, row-major.
  template <typename F>
  static void each(const Block &owner, const Block &other, F f) {
    int64_t r0 = std::max(owner.row0, other.row0),
            r1 = std::min(owner.row0 + owner.rows, other.row0 + other.rows),
            c0 = std::max(owner.col0, other.col0),
            c1 = std::min(owner.col0 + owner.cols, other.col0 + other.cols);
    for (int64_t i = r0; i < r1; ++i)
      f(i - owner.row0, c0 - owner.col0, c1 - c0);
  }

  void run(std::vector<double> &src, const Block &sb, std::vector<double> &dst,
           const Block &db) {
    for (size_t r = 0; r < from.size(); ++r) {
      double *out = send.data() + send_offsets[r];
      each(from[me], to[r], [&](int64_t i, int64_t j, int64_t count) {
        std::memcpy(out, &at(src, sb, i, j), count * sizeof(double));
        out += count;
      });
    }
    MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(),
                  MPI_DOUBLE, recv.data(), recv_counts.data(),
                  recv_offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD);
    for (size_t r = 0; r < from.size(); ++r) {
      const double *in = recv.data() + recv_offsets[r];
      each(to[me], from[r], [&](int64_t i, int64_t j, int64_t count) {
        std::memcpy(&at(dst, db, i, j), in, count * sizeof(double));
        in += count;
      });
    }
  }
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s STATEMENT N M REPS GRID\n", argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const std::string statement = argv[1];
  const int64_t n = std::atoll(argv[2]), m = std::atoll(argv[3]);
  const int reps = std::atoi(argv[4]);
  const bool grid = std::atoi(argv[5]) != 0;
  const Block b = make_block(n, m, grid ? Grid : Rows);
  // C: A's values distributed otherwise (rows: on columns; grid: on rows).
  const Block cb = make_block(n, m, grid ? Rows : Columns);
  std::vector<double> A(static_cast<size_t>((b.rows + 2) * b.ld), 0.0),
      B(A.size(), 0.0), C(static_cast<size_t>((cb.rows + 2) * cb.ld), 0.0);
  auto value = [](int64_t i, int64_t j) {
    return static_cast<double>((i * 7919 + j * 104729) % 1000) / 1000.0;
  };
  for (int64_t i = 0; i < b.rows; ++i)
    for (int64_t j = 0; j < b.cols; ++j)
      at(A, b, i, j) = value(b.row0 + i, b.col0 + j);
  for (int64_t i = 0; i < cb.rows; ++i)
    for (int64_t j = 0; j < cb.cols; ++j)
      at(C, cb, i, j) = value(cb.row0 + i, cb.col0 + j);
  Redistribution c_to_b(cb, b);
  int64_t r0, r1, c0, c1;
  clip(1, n - 1, b.row0, b.rows, r0, r1);
  clip(1, m - 1, b.col0, b.cols, c0, c1);

  std::vector<double> lines(static_cast<size_t>(2 * b.cols));
  auto store_line = [&](int64_t i) {
    const double *line = &lines[static_cast<size_t>((i & 1) * b.cols)];
    for (int64_t j = c0; j < c1; ++j)
      at(B, b, i, j) = line[j];
  };

  auto run = [&] {
    if (statement == "assign_expr") { // B[:, :] = A + 1.0
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          at(B, b, i, j) = at(A, b, i, j) + 1.0;
    } else if (statement == "update_rows" ||
               statement == "iadd_rows") { // B[1:-1, :] += A[1:-1, :]
      for (int64_t i = r0; i < r1; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          at(B, b, i, j) = at(B, b, i, j) + at(A, b, i, j);
    } else if (statement == "scale_columns") { // B[:, 1:-1] = A[:, 1:-1] * 2
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = c0; j < c1; ++j)
          at(B, b, i, j) = at(A, b, i, j) * 2.0;
    } else if (statement == "imul_whole") { // B *= 0.5
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          at(B, b, i, j) = at(B, b, i, j) * 0.5;
    } else if (statement == "stencil") {
      // B[1:-1, 1:-1] = 0.25 * (A[:-2, 1:-1] + A[2:, 1:-1] + A[1:-1, :-2]
      //                          + A[1:-1, 2:])
      exchange(A, b);
      for (int64_t i = r0; i < r1; ++i)
        for (int64_t j = c0; j < c1; ++j)
          at(B, b, i, j) = 0.25 * (at(A, b, i - 1, j) + at(A, b, i + 1, j) +
                                   at(A, b, i, j - 1) + at(A, b, i, j + 1));
    } else if (statement == "stencil_inplace") {
      // B[1:-1, 1:-1] = 0.25 * (B[:-2, 1:-1] + B[2:, 1:-1] + B[1:-1, :-2]
      //                          + B[1:-1, 2:] + A[1:-1, 1:-1])
      // Row i is computed into a line buffer and stored after row i + 1 has
      // read it (two lines in cache, the grid read and written once).
      exchange(B, b);
      for (int64_t i = r0; i < r1; ++i) {
        double *line = &lines[static_cast<size_t>((i & 1) * b.cols)];
        for (int64_t j = c0; j < c1; ++j)
          line[j] =
              0.25 * (at(B, b, i - 1, j) + at(B, b, i + 1, j) +
                      at(B, b, i, j - 1) + at(B, b, i, j + 1) + at(A, b, i, j));
        if (i > r0)
          store_line(i - 1);
      }
      if (r1 > r0)
        store_line(r1 - 1);
    } else if (statement == "normalize") { // B[:, :] = A / sum(A)
      double local = 0.0, total = 0.0;
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          local += at(A, b, i, j);
      MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, b.comm);
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          at(B, b, i, j) = at(A, b, i, j) / total;
    } else if (statement == "where") { // B[:, :] = where(A > 0.5, A, 0.0)
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          at(B, b, i, j) = at(A, b, i, j) > 0.5 ? at(A, b, i, j) : 0.0;
    } else if (statement == "mask_assign") { // B[A > 0.5] = 0.0
      for (int64_t i = 0; i < b.rows; ++i)
        for (int64_t j = 0; j < b.cols; ++j)
          if (at(A, b, i, j) > 0.5)
            at(B, b, i, j) = 0.0;
    } else if (statement == "redistribute") { // B[:, :] = C
      c_to_b.run(C, cb, B, b);
    } else {
      std::fprintf(stderr, "unknown statement %s\n", statement.c_str());
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  };

  run();
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    MPI_Barrier(b.comm);
    double t0 = MPI_Wtime();
    for (int r = 0; r < reps; ++r)
      run();
    double mine = (MPI_Wtime() - t0) / reps, slowest;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, b.comm);
    best = std::min(best, slowest);
  }
  if (statement == "redistribute")
    for (int64_t i = 0; i < b.rows; ++i)
      for (int64_t j = 0; j < b.cols; ++j)
        if (at(B, b, i, j) != at(A, b, i, j)) {
          std::fprintf(stderr, "redistribute: wrong element (%ld, %ld)\n",
                       static_cast<long>(b.row0 + i),
                       static_cast<long>(b.col0 + j));
          MPI_Abort(MPI_COMM_WORLD, 1);
        }
  int rank;
  MPI_Comm_rank(b.comm, &rank);
  if (rank == 0)
    std::printf("{\"statement\": \"%s\", \"seconds\": %.9g}\n",
                statement.c_str(), best);
  MPI_Comm_free(const_cast<MPI_Comm *>(&b.comm));
  MPI_Comm_free(const_cast<MPI_Comm *>(&cb.comm));
  MPI_Finalize();
  return 0;
}
