// Dense linear algebra of distruntime.matrix_linalg (cholesky, solve, inv,
// det, slogdet, eigh, eigvalsh; qr of an m x n matrix): one n x n matrix split
// on rows over a team (the default partition), solved with ScaLAPACK on a
// p x q BLACS grid of the team (the grid of _idtr_grid_dims, as split=(0, 1)
// arrays use). Each matrix moves from the rows to ScaLAPACK's NB x NB
// block-cyclic layout (column-major local blocks) by one MPI_Alltoallv, and
// a matrix result back to the rows by another; the element order of both
// is implied by the layouts, so only the data travels. Returns the number
// of matrices the routine failed on (0 or 1), the same on every rank.

#include "internal.hpp"
#include "typed.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <memory>
#include <type_traits>
#include <vector>

extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int *context, const char *order, int rows, int cols);
void Cblacs_gridinfo(int context, int *rows, int *cols, int *row, int *col);
void Cblacs_gridexit(int context);
void descinit_(int *desc, const int *m, const int *n, const int *mb,
               const int *nb, const int *irsrc, const int *icsrc,
               const int *context, const int *lld, int *info);

#define IDTR_SCALAPACK_DECLARE(P, T)                                           \
  void P##getrf_(const int *m, const int *n, T *a, const int *ia,              \
                 const int *ja, const int *desc, int *ipiv, int *info);        \
  void P##getrs_(const char *trans, const int *n, const int *nrhs, const T *a, \
                 const int *ia, const int *ja, const int *desca,               \
                 const int *ipiv, T *b, const int *ib, const int *jb,          \
                 const int *descb, int *info);                                 \
  void P##getri_(const int *n, T *a, const int *ia, const int *ja,             \
                 const int *desc, const int *ipiv, T *work, const int *lwork,  \
                 int *iwork, const int *liwork, int *info);                    \
  void P##potrf_(const char *uplo, const int *n, T *a, const int *ia,          \
                 const int *ja, const int *desc, int *info);                   \
  void P##geqrf_(const int *m, const int *n, T *a, const int *ia,              \
                 const int *ja, const int *desc, T *tau, T *work,              \
                 const int *lwork, int *info);                                 \
  void P##lacpy_(const char *uplo, const int *m, const int *n, const T *a,     \
                 const int *ia, const int *ja, const int *desca, T *b,         \
                 const int *ib, const int *jb, const int *descb);
IDTR_SCALAPACK_DECLARE(ps, float)
IDTR_SCALAPACK_DECLARE(pd, double)
IDTR_SCALAPACK_DECLARE(pc, std::complex<float>)
IDTR_SCALAPACK_DECLARE(pz, std::complex<double>)
#undef IDTR_SCALAPACK_DECLARE
// Q of a QR factorization: p?orgqr (real), p?ungqr (complex).
#define IDTR_SCALAPACK_DECLARE_ORGQR(P, NAME, T)                               \
  void P##NAME##_(const int *m, const int *n, const int *k, T *a,              \
                  const int *ia, const int *ja, const int *desc, const T *tau, \
                  T *work, const int *lwork, int *info);
IDTR_SCALAPACK_DECLARE_ORGQR(ps, orgqr, float)
IDTR_SCALAPACK_DECLARE_ORGQR(pd, orgqr, double)
IDTR_SCALAPACK_DECLARE_ORGQR(pc, ungqr, std::complex<float>)
IDTR_SCALAPACK_DECLARE_ORGQR(pz, ungqr, std::complex<double>)
#undef IDTR_SCALAPACK_DECLARE_ORGQR
// Singular values: p?gesvd (complex: with a real workspace).
#define IDTR_SCALAPACK_DECLARE_GESVD(P, T, R, ...)                             \
  void P##gesvd_(const char *jobu, const char *jobvt, const int *m,            \
                 const int *n, T *a, const int *ia, const int *ja,             \
                 const int *desca, R *s, T *u, const int *iu, const int *ju,   \
                 const int *descu, T *vt, const int *ivt, const int *jvt,      \
                 const int *descvt, T *work, const int *lwork,                 \
                 __VA_ARGS__ int *info);
IDTR_SCALAPACK_DECLARE_GESVD(ps, float, float)
IDTR_SCALAPACK_DECLARE_GESVD(pd, double, double)
IDTR_SCALAPACK_DECLARE_GESVD(pc, std::complex<float>, float, float *rwork, )
IDTR_SCALAPACK_DECLARE_GESVD(pz, std::complex<double>, double, double *rwork, )
#undef IDTR_SCALAPACK_DECLARE_GESVD
#define IDTR_SCALAPACK_DECLARE_SYEVD(P, T)                                     \
  void P##syevd_(const char *jobz, const char *uplo, const int *n, T *a,       \
                 const int *ia, const int *ja, const int *desca, T *w, T *z,   \
                 const int *iz, const int *jz, const int *descz, T *work,      \
                 const int *lwork, int *iwork, const int *liwork, int *info);
#define IDTR_SCALAPACK_DECLARE_HEEVD(P, T, R)                                  \
  void P##heevd_(const char *jobz, const char *uplo, const int *n, T *a,       \
                 const int *ia, const int *ja, const int *desca, R *w, T *z,   \
                 const int *iz, const int *jz, const int *descz, T *work,      \
                 const int *lwork, R *rwork, const int *lrwork, int *iwork,    \
                 const int *liwork, int *info);
IDTR_SCALAPACK_DECLARE_SYEVD(ps, float)
IDTR_SCALAPACK_DECLARE_SYEVD(pd, double)
IDTR_SCALAPACK_DECLARE_HEEVD(pc, std::complex<float>, float)
IDTR_SCALAPACK_DECLARE_HEEVD(pz, std::complex<double>, double)
#undef IDTR_SCALAPACK_DECLARE_SYEVD
#undef IDTR_SCALAPACK_DECLARE_HEEVD
}

namespace idtr::detail {
namespace {

// distruntime::MatrixRoutine.
enum Routine : int64_t {
  kCholesky = 0,
  kSolve,
  kInv,
  kDet,
  kSlogdet,
  kEigh,
  kEigvalsh,
  kQr,
  kSvd,
  kSvdvals
};

// Per element type: the ScaLAPACK routine of each name.
#define IDTR_SCALAPACK(NAME)                                                   \
  template <class T, class... Args> void NAME(Args... args) {                  \
    if constexpr (std::is_same_v<T, float>)                                    \
      ps##NAME##_(args...);                                                    \
    else if constexpr (std::is_same_v<T, double>)                              \
      pd##NAME##_(args...);                                                    \
    else if constexpr (std::is_same_v<T, std::complex<float>>)                 \
      pc##NAME##_(args...);                                                    \
    else                                                                       \
      pz##NAME##_(args...);                                                    \
  }
IDTR_SCALAPACK(getrf)
IDTR_SCALAPACK(getrs)
IDTR_SCALAPACK(getri)
IDTR_SCALAPACK(potrf)
IDTR_SCALAPACK(geqrf)
IDTR_SCALAPACK(lacpy)
#undef IDTR_SCALAPACK

template <class T, class... Args> void orgqr(Args... args) {
  if constexpr (std::is_same_v<T, float>)
    psorgqr_(args...);
  else if constexpr (std::is_same_v<T, double>)
    pdorgqr_(args...);
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    pcungqr_(args...);
  else
    pzungqr_(args...);
}

/// The singular values `s` (descending, on every process) of `a`
/// (overwritten), with the first min(m, n) left and right singular vectors
/// in `u` (m x k) and `vt` (k x n) when given: p?gesvd after a workspace
/// query.
template <class T, class R>
int gesvd(const int *m, const int *n, T *a, const int *desca, R *s,
          T *u = nullptr, const int *descu = nullptr, T *vt = nullptr,
          const int *descvt = nullptr) {
  const int one = 1;
  int info = 0, lwork = -1;
  T wquery{};
  const char *job = u ? "V" : "N";
  // (Not referenced without vectors.)
  if (!u) {
    descu = descvt = desca;
  }
  // (A real workspace of at least 1 + 4 max(m, n) for the complex routines.)
  std::vector<R> rwork(1 + 4 * static_cast<size_t>(std::max(*m, *n)) + 64);
  auto call = [&](T *work) {
    if constexpr (std::is_same_v<T, float>)
      psgesvd_(job, job, m, n, a, &one, &one, desca, s, u, &one, &one, descu,
               vt, &one, &one, descvt, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, double>)
      pdgesvd_(job, job, m, n, a, &one, &one, desca, s, u, &one, &one, descu,
               vt, &one, &one, descvt, work, &lwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      pcgesvd_(job, job, m, n, a, &one, &one, desca, s, u, &one, &one, descu,
               vt, &one, &one, descvt, work, &lwork, rwork.data(), &info);
    else
      pzgesvd_(job, job, m, n, a, &one, &one, desca, s, u, &one, &one, descu,
               vt, &one, &one, descvt, work, &lwork, rwork.data(), &info);
  };
  call(&wquery);
  if (info != 0)
    return info;
  lwork = static_cast<int>(std::real(wquery) * 1.25) + 1024;
  std::vector<T> work(lwork);
  call(work.data());
  return info;
}

/// Calls `routine(work, lwork)` twice: a workspace query (lwork -1), then
/// with the workspace it asked for.
template <class T, class F> void with_workspace(F routine) {
  T query{};
  int lwork = -1;
  routine(&query, &lwork);
  lwork = std::max(1, static_cast<int>(std::real(query)));
  std::vector<T> work(lwork);
  routine(work.data(), &lwork);
}

/// The eigenvalues `w` (ascending, on every process) and eigenvectors `z`
/// (block-cyclic like `a`) of the Hermitian matrix `a` (its lower
/// triangle, overwritten): p?syevd / p?heevd after a workspace query.
template <class T, class R>
int eigh(const int *n, T *a, const int *desca, R *w, T *z, const int *descz) {
  const int one = 1;
  int info = 0, lwork = -1, liwork = -1, lrwork = -1, iquery = 0;
  T wquery{};
  R rquery{};
  auto call = [&](T *work, int *iwork, R *rwork) {
    if constexpr (std::is_same_v<T, float>)
      pssyevd_("V", "L", n, a, &one, &one, desca, w, z, &one, &one, descz, work,
               &lwork, iwork, &liwork, &info);
    else if constexpr (std::is_same_v<T, double>)
      pdsyevd_("V", "L", n, a, &one, &one, desca, w, z, &one, &one, descz, work,
               &lwork, iwork, &liwork, &info);
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      pcheevd_("V", "L", n, a, &one, &one, desca, w, z, &one, &one, descz, work,
               &lwork, rwork, &lrwork, iwork, &liwork, &info);
    else
      pzheevd_("V", "L", n, a, &one, &one, desca, w, z, &one, &one, descz, work,
               &lwork, rwork, &lrwork, iwork, &liwork, &info);
  };
  call(&wquery, &iquery, &rquery);
  if (info != 0)
    return info;
  // (With some headroom: the queries of some ScaLAPACK versions are short.)
  lwork = static_cast<int>(std::real(wquery) * 1.25) + 1024;
  liwork = std::max(iquery, 1) + 64;
  lrwork = static_cast<int>(rquery * 1.25) + 1024;
  std::vector<T> work(lwork);
  std::vector<int> iwork(liwork);
  std::vector<R> rwork(std::max(lrwork, 1));
  call(work.data(), iwork.data(), rwork.data());
  return info;
}

template <class T> MPI_Datatype mpi_type() {
  if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return MPI_C_FLOAT_COMPLEX;
  else
    return MPI_C_DOUBLE_COMPLEX;
}

/// The block size of the block-cyclic layout: IDTR_SCALAPACK_NB (read at
/// every call, so that tests can vary it), else 64.
int block_size() {
  const char *s = std::getenv("IDTR_SCALAPACK_NB");
  int v = s ? std::atoi(s) : 0;
  return v > 0 ? v : 64;
}

/// The p x q BLACS grid of a team and this rank's place in it (row-major
/// ranks, as MPI_Cart_create); made once per team (grid_of).
struct Grid {
  int handle = -1, context = -1, p = 1, q = 1, row = 0, col = 0;
  Grid(MPI_Comm comm, int rows_, int cols_) : p(rows_), q(cols_) {
    handle = Csys2blacs_handle(comm);
    context = handle;
    Cblacs_gridinit(&context, "Row", p, q);
    int rows, cols;
    Cblacs_gridinfo(context, &rows, &cols, &row, &col);
  }
  ~Grid() {
    Cblacs_gridexit(context);
    Cfree_blacs_system_handle(handle);
  }
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;
};

/// The team's BLACS grid (with `self`: a 1 x 1 grid of this process
/// alone), made at its first ScaLAPACK call (collective: every rank of the
/// team calls the same routines) and kept with the team's resources.
const Grid &grid_of(Team &t, bool self = false) {
  const char *name = self ? "blacs-self-grid" : "blacs-grid";
  {
    std::lock_guard<std::mutex> lock(t.grid_mu);
    auto found = t.resources.find(name);
    if (found != t.resources.end())
      return *static_cast<const Grid *>(found->second.get());
  }
  // (Outside the lock: _idtr_grid_dims takes it.)
  int64_t dims[2] = {1, 1};
  if (!self) {
    dims[0] = dims[1] = 0;
    _idtr_grid_dims(t.id, 2, dims);
  }
  auto grid = std::make_shared<Grid>(self ? MPI_COMM_SELF : t.comm,
                                     static_cast<int>(dims[0]),
                                     static_cast<int>(dims[1]));
  std::lock_guard<std::mutex> lock(t.grid_mu);
  t.resources[name] = grid;
  return *grid;
}

/// Along one axis of `n` indices in blocks of `nb` over `procs` process
/// rows (or columns): the owner and the local index of each global index.
struct Cyclic {
  std::vector<int> owner;
  std::vector<int64_t> local;
  Cyclic(int64_t n, int nb, int procs) : owner(n), local(n) {
    for (int64_t i = 0; i < n; ++i) {
      int64_t block = i / nb;
      owner[i] = static_cast<int>(block % procs);
      local[i] = block / procs * nb + i % nb;
    }
  }
  /// The indices of [lo, hi) that process `proc` owns, ascending.
  std::vector<int64_t> owned(int64_t lo, int64_t hi, int proc) const {
    std::vector<int64_t> v;
    for (int64_t i = lo; i < hi; ++i)
      if (owner[i] == proc)
        v.push_back(i);
    return v;
  }
};

/// A matrix of `rows` x `cols` elements in ScaLAPACK's layout on `g`:
/// this rank's column-major local array and its descriptor.
template <class T> struct Distributed {
  Cyclic r, c;
  int64_t mloc = 0, nloc = 0, lld = 1;
  T *data; // (scratch, uninitialized: an exchange writes it)
  int desc[9] = {};
  Distributed(const Grid &g, int64_t rows, int64_t cols, int nb,
              ScratchSlot slot)
      : r(rows, nb, g.p), c(cols, nb, g.q) {
    for (int64_t i = 0; i < rows; ++i)
      mloc += r.owner[i] == g.row;
    for (int64_t j = 0; j < cols; ++j)
      nloc += c.owner[j] == g.col;
    lld = std::max<int64_t>(mloc, 1);
    data = scratch<T>(slot, lld * std::max<int64_t>(nloc, 1));
    int m = to_int(rows, "matrix rows"), n = to_int(cols, "matrix columns"),
        zero = 0, ld = to_int(lld, "local leading dimension"), info = 0;
    int context = g.context;
    descinit_(desc, &m, &n, &nb, &nb, &zero, &zero, &context, &ld, &info);
    if (info != 0)
      fail("ScaLAPACK descinit rejected argument %d", -info);
  }
  T &at(int64_t i, int64_t j) { return data[r.local[i] + c.local[j] * lld]; }
};

/// A tile of a matrix: global rows [i0, i0 + ni) x columns [j0, j0 + nj),
/// within one `nb` block of each (so consecutive in both layouts).
struct Tile {
  int64_t i0, ni, j0, nj;
};

/// Calls fn(tile) for the tiles covering `rows` x `cols` (ascending global
/// indices): the runs of indices of one `nb` block of each, row runs outer.
/// Both sides of an exchange visit in this order, each tile's elements
/// row-major; a tile of the rows and of the block-cyclic local array
/// (column-major) stays in cache while it is transposed.
template <class F>
void forEachTile(const std::vector<int64_t> &rows,
                 const std::vector<int64_t> &cols, int nb, F fn) {
  auto runs = [nb](const std::vector<int64_t> &v) {
    std::vector<std::pair<int64_t, int64_t>> out; // (first, count)
    for (size_t k = 0; k < v.size(); ++k)
      if (k == 0 || v[k] / nb != v[k - 1] / nb)
        out.push_back({v[k], 1});
      else
        ++out.back().second;
    return out;
  };
  auto rowRuns = runs(rows), colRuns = runs(cols);
  for (auto [i0, ni] : rowRuns)
    for (auto [j0, nj] : colRuns)
      fn(Tile{i0, ni, j0, nj});
}

/// Global rows [first, first + count) of each rank in the default
/// partition of `n` rows over `p` ranks.
std::vector<std::pair<int64_t, int64_t>> partition_of(int64_t n, int p) {
  std::vector<std::pair<int64_t, int64_t>> parts(p);
  for (int s = 0; s < p; ++s)
    _idtr_default_partition(n, p, s, &parts[s].first, &parts[s].second);
  return parts;
}

/// Moves the matrix between this rank's rows `v` (the default partition)
/// and its block-cyclic layout `m`: to the layout with `toCyclic`, back
/// otherwise. With `transposed`, `m` holds the transpose of the rows'
/// matrix: the rows are its columns, and each row's run of a block is one
/// contiguous run of the column-major local array (no transposition in
/// memory: routines that may work on the transpose use this). Peer
/// d = (row, col) of the grid exchanges the elements of the sender's rows
/// that its grid coordinate along the rows' axis owns, in the columns
/// that its other coordinate owns, in tiles (forEachTile): both sides know
/// the order, so one MPI_Alltoallv of the data suffices.
template <class T>
void exchange(Team &t, const Grid &g, const View<T> &v, Distributed<T> &m,
              int nb, bool toCyclic, bool transposed = false) {
  const int p = t.size;
  // The layout's axis of our rows and of our columns, and the process
  // grid coordinate along each of every rank d.
  const Cyclic &rowAxis = transposed ? m.c : m.r,
               &colAxis = transposed ? m.r : m.c;
  const int rowProcs = transposed ? g.q : g.p,
            colProcs = transposed ? g.p : g.q;
  auto rowCoord = [&](int d) { return transposed ? d % g.q : d / g.q; };
  auto colCoord = [&](int d) { return transposed ? d / g.q : d % g.q; };
  const int myRowCoord = rowCoord(t.rank), myColCoord = colCoord(t.rank);
  // (The view may have fewer columns than the layout: Q's k of n.)
  const int64_t rows = static_cast<int64_t>(rowAxis.owner.size()),
                cols = v.sizes[1];
  auto parts = partition_of(rows, p);
  const int64_t first = parts[t.rank].first, count = parts[t.rank].second;
  std::vector<std::vector<int64_t>> colsOf(colProcs);
  for (int c = 0; c < colProcs; ++c)
    colsOf[c] = colAxis.owned(0, cols, c);
  // Elements of my rows for peer d, and of my block for the rows of peer d.
  std::vector<int64_t> rowCounts(p), blockCounts(p);
  std::vector<std::vector<int64_t>> myRowsFor(rowProcs), blockRowsOf(p);
  for (int pr = 0; pr < rowProcs; ++pr)
    myRowsFor[pr] = rowAxis.owned(first, first + count, pr);
  for (int s = 0; s < p; ++s)
    blockRowsOf[s] = rowAxis.owned(
        parts[s].first, parts[s].first + parts[s].second, myRowCoord);
  // (This rank's own elements are copied directly, not sent.)
  for (int d = 0; d < p; ++d) {
    if (d == t.rank)
      continue;
    rowCounts[d] = static_cast<int64_t>(myRowsFor[rowCoord(d)].size()) *
                   static_cast<int64_t>(colsOf[colCoord(d)].size());
    blockCounts[d] = static_cast<int64_t>(blockRowsOf[d].size()) *
                     static_cast<int64_t>(colsOf[myColCoord].size());
  }
  std::vector<int64_t> &sendCounts = toCyclic ? rowCounts : blockCounts,
                       &recvCounts = toCyclic ? blockCounts : rowCounts;
  std::vector<int> sc(p), sd(p), rc(p), rd(p);
  int64_t sendTotal = 0, recvTotal = 0;
  for (int d = 0; d < p; ++d) {
    sc[d] = to_int(sendCounts[d], "matrix exchange count");
    sd[d] = to_int(sendTotal, "matrix exchange displacement");
    rc[d] = to_int(recvCounts[d], "matrix exchange count");
    rd[d] = to_int(recvTotal, "matrix exchange displacement");
    sendTotal += sendCounts[d];
    recvTotal += recvCounts[d];
  }
  T *send = scratch<T>(kScratchSend, sendTotal),
    *recv = scratch<T>(kScratchReceive, recvTotal);
  // A tile's first element in my rows and in my block, and the strides of
  // a row and a column step in each.
  const int64_t rs = v.strides[0], cs = v.strides[1];
  const int64_t bs = transposed ? m.lld : 1, bcs = transposed ? 1 : m.lld;
  auto inRows = [&](const Tile &t) {
    return v.base + (t.i0 - first) * rs + t.j0 * cs;
  };
  auto inBlock = [&](const Tile &t) {
    return m.data + rowAxis.local[t.i0] * bs + colAxis.local[t.j0] * bcs;
  };
  // Copies a tile from an array of row stride r and column stride c to
  // another; rows are contiguous runs in both arrays of a transposed
  // exchange (std::copy).
  auto copyTile = [](const Tile &t, const T *from, int64_t fr, int64_t fc,
                     T *to, int64_t tr, int64_t tc) {
    for (int64_t i = 0; i < t.ni; ++i) {
      const T *f = from + i * fr;
      T *o = to + i * tr;
      if (fc == 1 && tc == 1)
        std::copy(f, f + t.nj, o);
      else
        for (int64_t j = 0; j < t.nj; ++j)
          o[j * tc] = f[j * fc];
    }
  };
  // A tile to or from a buffer (row-major, advancing `buffer`).
  auto pack = [&](const Tile &t, const T *from, int64_t r, int64_t c,
                  T *&buffer) {
    copyTile(t, from, r, c, buffer, t.nj, 1);
    buffer += t.ni * t.nj;
  };
  auto unpack = [&](const Tile &t, T *to, int64_t r, int64_t c,
                    const T *&buffer) {
    copyTile(t, buffer, t.nj, 1, to, r, c);
    buffer += t.ni * t.nj;
  };
  // Visits the tiles exchanged with each peer in the agreed order: over my
  // rows (toward the layout) or over my block.
  auto visitRows = [&](auto fn) {
    for (int d = 0; d < p; ++d)
      if (d != t.rank)
        forEachTile(myRowsFor[rowCoord(d)], colsOf[colCoord(d)], nb, fn);
  };
  auto visitBlock = [&](auto fn) {
    for (int s = 0; s < p; ++s)
      if (s != t.rank)
        forEachTile(blockRowsOf[s], colsOf[myColCoord], nb, fn);
  };
  forEachTile(myRowsFor[myRowCoord], colsOf[myColCoord], nb,
              [&](const Tile &tile) {
                if (toCyclic)
                  copyTile(tile, inRows(tile), rs, cs, inBlock(tile), bs, bcs);
                else
                  copyTile(tile, inBlock(tile), bs, bcs, inRows(tile), rs, cs);
              });
  T *out = send;
  if (toCyclic)
    visitRows([&](const Tile &tile) { pack(tile, inRows(tile), rs, cs, out); });
  else
    visitBlock(
        [&](const Tile &tile) { pack(tile, inBlock(tile), bs, bcs, out); });
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_COLL_BYTES,
           sendTotal * static_cast<int64_t>(sizeof(T)));
  run_collective(
      t, "MPI_Alltoallv (a matrix to or from ScaLAPACK's layout)", [&] {
        return MPI_Alltoallv(send, sc.data(), sd.data(), mpi_type<T>(), recv,
                             rc.data(), rd.data(), mpi_type<T>(), t.comm);
      });
  const T *in = recv;
  if (toCyclic)
    visitBlock(
        [&](const Tile &tile) { unpack(tile, inBlock(tile), bs, bcs, in); });
  else
    visitRows(
        [&](const Tile &tile) { unpack(tile, inRows(tile), rs, cs, in); });
}

/// Every rank's rows of the m x n matrix (this rank's: `a`) gathered into
/// `whole`, the transpose's layout on a 1 x 1 grid (column-major n x m
/// with leading dimension n: the rows in order).
template <class T>
void gather_rows(Team &t, const View<T> &a, int64_t m, int64_t n,
                 Distributed<T> &whole) {
  const int64_t count = a.sizes[0];
  std::vector<T> mine(static_cast<size_t>(count * n));
  for (int64_t i = 0; i < count; ++i)
    for (int64_t j = 0; j < n; ++j)
      mine[i * n + j] = a.base[i * a.strides[0] + j * a.strides[1]];
  std::vector<int> counts(t.size), displs(t.size);
  auto parts = partition_of(m, t.size);
  for (int r = 0; r < t.size; ++r) {
    counts[r] = to_int(parts[r].second * n, "matrix elements");
    displs[r] = to_int(parts[r].first * n, "matrix elements");
  }
  run_collective(t, "MPI_Allgatherv (a small matrix)", [&] {
    return MPI_Allgatherv(mine.data(), counts[t.rank], mpi_type<T>(),
                          whole.data, counts.data(), displs.data(),
                          mpi_type<T>(), t.comm);
  });
}

/// Fails unless `v` is this rank's `rows` rows of a matrix of `cols`
/// columns (`atLeast`: at least `cols`, of which the first are written).
template <class T>
void expect_rows(const View<T> &v, const char *name, int64_t rows, int64_t cols,
                 bool atLeast = false) {
  if (v.rank != 2 || v.sizes[0] != rows ||
      (atLeast ? v.sizes[1] < cols : v.sizes[1] != cols))
    fail("argument '%s': not this rank's %" PRId64 " rows of %s%" PRId64
         " columns",
         name, rows, atLeast ? "at least " : "", cols);
}

/// Fails unless `v` is a vector of at least `k` elements (the singular
/// values).
template <class R> void expect_vector(const View<R> &v, int64_t k) {
  if (v.rank != 1 || v.sizes[0] < k)
    fail("argument 's': not a vector of at least min(m, n) = %" PRId64
         " elements",
         k);
}

template <class T> using real_t = decltype(std::abs(T()));

template <class T>
int64_t matrix_linalg(const char *entry, int64_t team, int64_t kind,
                      int64_t flag, int64_t r0, void *d0, int64_t r1, void *d1,
                      int64_t q0, void *e0, int64_t q1, void *e1, int64_t q2,
                      void *e2) {
  using R = real_t<T>;
  EntryScope es(entry);
  StatTimer timer(IDTR_STAT_ALLTOALL, IDTR_CNT_CALL_NS);
  stat_add(IDTR_STAT_ALLTOALL, IDTR_CNT_CALLS, 1);
  auto t = get_team(team);
  View<T> a = make_view<T>("a", r0, d0, Use::In);
  if (a.rank != 2)
    fail("argument 'a': rows of a matrix need rank 2, not %d", a.rank);
  if (kind < kCholesky || kind > kSvdvals)
    fail("unknown matrix routine %" PRId64, kind);
  // The matrix is n x n, or m x n for QR (m: the team's rows).
  const int64_t n = a.sizes[1];
  int64_t rowsTotal = a.sizes[0];
  const bool rectangular = kind == kQr || kind == kSvd || kind == kSvdvals;
  if (rectangular)
    run_collective(*t, "MPI_Allreduce (matrix rows)", [&] {
      return MPI_Allreduce(MPI_IN_PLACE, &rowsTotal, 1, MPI_INT64_T, MPI_SUM,
                           t->comm);
    });
  const int64_t rowsM = rectangular ? rowsTotal : n;
  auto part = partition_of(rowsM, t->size)[t->rank];
  const int64_t first = part.first, count = part.second;
  if (a.sizes[0] != count)
    fail("argument 'a': %" PRId64 " rows, not the %" PRId64
         " of the default partition of %" PRId64 " rows",
         a.sizes[0], count, rowsM);
  if (rectangular && std::min(rowsM, n) == 0)
    return 0; // (empty Q columns, R rows or singular values)
  if (n == 0) {
    // (Empty outputs but the determinants.)
    if (kind == kDet || kind == kSlogdet)
      *make_view<T>("det", q0, e0, Use::Out).base = T(1);
    if (kind == kSlogdet)
      *make_view<R>("logabsdet", q1, e1, Use::Out).base = R(0);
    return 0;
  }
  const Grid &g = grid_of(*t);
  // (Blocks no larger than an even share of the matrix: every process row
  // and column gets some, which balances small matrices, and p?syevd's
  // workspace query is short for matrices of one block on several
  // processes.)
  const int64_t share =
      (std::max(rowsM, n) + std::max(g.p, g.q) - 1) / std::max(g.p, g.q);
  const int nb = static_cast<int>(std::min<int64_t>(block_size(), share));
  // The LU and Cholesky routines work on the transpose of the matrix (no
  // transposition in memory in the exchanges): det(A^T) = det(A),
  // inv(A^T) = inv(A)^T, A x = b is A^T's transposed system, and the
  // Cholesky factor of A^T = conj(A) (A Hermitian) from the other triangle
  // is the transpose of A's. Eigenvectors are A's own.
  // Singular values are the transpose's too (and its vectors A's).
  const bool transposed = kind != kEigh && kind != kEigvalsh && kind != kQr;
  Distributed<T> m(g, transposed ? n : rowsM, transposed ? rowsM : n, nb,
                   kScratchMatrix);
  exchange(*t, g, a, m, nb, /*toCyclic=*/true, transposed);
  const int ni = to_int(n, "matrix size"), one = 1;
  int info = 0;
  std::vector<int> ipiv(m.mloc + nb);
  int64_t failed = 0;
  switch (kind) {
  case kCholesky: {
    View<T> out = make_view<T>("l", q0, e0, Use::Out);
    // (A's lower triangle is the transpose's upper one: potrf "U" of the
    // transpose reads it, and U^T = L.)
    potrf<T>(flag ? "L" : "U", &ni, m.data, &one, &one, m.desc, &info);
    exchange(*t, g, out, m, nb, /*toCyclic=*/false, /*transposed=*/true);
    for (int64_t i = 0; i < count; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (flag ? j < first + i : j > first + i)
          out.base[i * out.strides[0] + j * out.strides[1]] = T(0);
    break;
  }
  case kSolve: {
    View<T> rhs = make_view<T>("b", r1, d1, Use::In);
    View<T> out = make_view<T>("x", q0, e0, Use::Out);
    if (rhs.rank != 2 || rhs.sizes[0] != count)
      fail("argument 'b': not this rank's rows of an n x k matrix");
    const int64_t k = rhs.sizes[1];
    Distributed<T> x(g, n, k, nb, kScratchSecond);
    exchange(*t, g, rhs, x, nb, /*toCyclic=*/true);
    getrf<T>(&ni, &ni, m.data, &one, &one, m.desc, ipiv.data(), &info);
    const int ki = to_int(k, "right-hand sides");
    if (info == 0 && k > 0) {
      int rinfo = 0;
      getrs<T>("T", &ni, &ki, m.data, &one, &one, m.desc, ipiv.data(), x.data,
               &one, &one, x.desc, &rinfo);
      info = rinfo < 0 ? rinfo : info;
    }
    exchange(*t, g, out, x, nb, /*toCyclic=*/false);
    break;
  }
  case kInv: {
    View<T> out = make_view<T>("inv", q0, e0, Use::Out);
    getrf<T>(&ni, &ni, m.data, &one, &one, m.desc, ipiv.data(), &info);
    if (info == 0) {
      // (A workspace query, then the inversion.)
      int lwork = -1, liwork = -1, iquery = 0;
      T wquery{};
      getri<T>(&ni, m.data, &one, &one, m.desc, ipiv.data(), &wquery, &lwork,
               &iquery, &liwork, &info);
      lwork = std::max(1, static_cast<int>(std::real(wquery)));
      liwork = std::max(1, iquery);
      std::vector<T> work(lwork);
      std::vector<int> iwork(liwork);
      getri<T>(&ni, m.data, &one, &one, m.desc, ipiv.data(), work.data(),
               &lwork, iwork.data(), &liwork, &info);
    }
    exchange(*t, g, out, m, nb, /*toCyclic=*/false, /*transposed=*/true);
    break;
  }
  case kDet:
  case kSlogdet: {
    getrf<T>(&ni, &ni, m.data, &one, &one, m.desc, ipiv.data(), &info);
    // This rank's diagonal elements: their product with the row swaps'
    // signs (det), or their signs and log magnitudes (slogdet); then the
    // team's.
    T product(1), sign(1);
    R logabs(0);
    int64_t zeros = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (m.r.owner[i] != g.row || m.c.owner[i] != g.col)
        continue;
      T d = m.at(i, i);
      bool swapped = ipiv[m.r.local[i]] != i + 1;
      product *= swapped ? -d : d;
      R abs = std::abs(d);
      if (abs == 0) {
        ++zeros;
        continue;
      }
      if constexpr (std::is_floating_point_v<T>)
        sign = d < 0 ? -sign : sign;
      else
        sign *= d / abs;
      if (swapped)
        sign = -sign;
      logabs += std::log(abs);
    }
    T both[2] = {product, sign};
    run_collective(*t, "MPI_Allreduce (determinant factors)", [&] {
      return MPI_Allreduce(MPI_IN_PLACE, both, 2, mpi_type<T>(), MPI_PROD,
                           t->comm);
    });
    R sums[2] = {logabs, static_cast<R>(zeros)};
    run_collective(*t, "MPI_Allreduce (log determinant)", [&] {
      return MPI_Allreduce(MPI_IN_PLACE, sums, 2, mpi_type<R>(), MPI_SUM,
                           t->comm);
    });
    if (kind == kDet) {
      *make_view<T>("det", q0, e0, Use::Out).base = both[0];
    } else {
      bool singular = sums[1] > 0;
      *make_view<T>("sign", q0, e0, Use::Out).base = singular ? T(0) : both[1];
      *make_view<R>("logabsdet", q1, e1, Use::Out).base =
          singular ? -INFINITY : sums[0];
    }
    info = 0; // (a singular matrix has determinant 0: not a failure)
    break;
  }
  case kQr: {
    // Householder factors in place (p?geqrf); R, the upper trapezoid of
    // the first k rows, copied to a k x n layout and moved to its rows;
    // then Q, the first k columns, formed in place (p?orgqr / p?ungqr).
    View<T> q = make_view<T>("q", q0, e0, Use::Out);
    View<T> r = make_view<T>("r", q1, e1, Use::Out);
    const int64_t k = std::min(rowsM, n);
    auto rPart = partition_of(k, t->size)[t->rank];
    expect_rows(q, "q", count, k, /*atLeast=*/true);
    expect_rows(r, "r", rPart.second, n);
    const int mi = to_int(rowsM, "matrix rows"), ki = to_int(k, "min(m, n)");
    std::vector<T> tau(m.nloc + nb);
    with_workspace<T>([&](T *work, const int *lwork) {
      geqrf<T>(&mi, &ni, m.data, &one, &one, m.desc, tau.data(), work, lwork,
               &info);
    });
    Distributed<T> rm(g, k, n, nb, kScratchSecond);
    lacpy<T>("U", &ki, &ni, m.data, &one, &one, m.desc, rm.data, &one, &one,
             rm.desc);
    exchange(*t, g, r, rm, nb, /*toCyclic=*/false);
    for (int64_t i = 0; i < rPart.second; ++i)
      for (int64_t j = 0; j < std::min(rPart.first + i, n); ++j)
        r.base[i * r.strides[0] + j * r.strides[1]] = T(0);
    with_workspace<T>([&](T *work, const int *lwork) {
      orgqr<T>(&mi, &ki, &ki, m.data, &one, &one, m.desc, tau.data(), work,
               lwork, &info);
    });
    View<T> qk = q;
    qk.sizes[1] = k;
    exchange(*t, g, qk, m, nb, /*toCyclic=*/false);
    break;
  }
  case kSvdvals: {
    View<R> values = make_view<R>("s", q0, e0, Use::Out);
    const int64_t k = std::min(rowsM, n);
    expect_vector(values, k);
    std::vector<R> sv(k);
    // (p?gesvd of the transpose, n x m: the layout holds A^T.)
    const int mi = to_int(rowsM, "matrix rows");
    if (k >= std::max(g.p, g.q) * static_cast<int64_t>(nb)) {
      info = gesvd<T, R>(&ni, &mi, m.data, m.desc, sv.data());
    } else {
      // A matrix smaller than the grid's blocks (p?gesvd reports
      // heterogeneous results when processes hold none of it): gathered,
      // the same values computed by each process on its own 1 x 1 grid.
      Distributed<T> whole(grid_of(*t, /*self=*/true), n, rowsM, 64,
                           kScratchSecond);
      gather_rows(*t, a, rowsM, n, whole);
      info = gesvd<T, R>(&ni, &mi, whole.data, whole.desc, sv.data());
    }
    for (int64_t i = 0; i < k; ++i)
      values.base[i * values.strides[0]] = sv[i];
    break;
  }
  case kSvd: {
    // On the transpose A^T = U' S V'^H (the layout holds it): A's U is
    // V'^H's transpose and A's V^H is U''s, each moved back by a
    // transposed exchange (no conjugation).
    View<T> u = make_view<T>("u", q0, e0, Use::Out);
    View<R> values = make_view<R>("s", q1, e1, Use::Out);
    View<T> vh = make_view<T>("vh", q2, e2, Use::Out);
    const int64_t k = std::min(rowsM, n);
    auto rPart = partition_of(k, t->size)[t->rank];
    expect_rows(u, "u", count, k, /*atLeast=*/true);
    expect_vector(values, k);
    expect_rows(vh, "vh", rPart.second, n);
    const int mi = to_int(rowsM, "matrix rows");
    std::vector<R> sv(k);
    // (A matrix smaller than the grid's blocks: gathered, each process on
    // its own 1 x 1 grid, as for svdvals.)
    const bool small = k < std::max(g.p, g.q) * static_cast<int64_t>(nb);
    const Grid &on = small ? grid_of(*t, /*self=*/true) : g;
    const int onNb = small ? 64 : nb;
    Distributed<T> uu(on, n, k, onNb, kScratchSecond),
        vv(on, k, rowsM, onNb, kScratchThird);
    if (!small) {
      info = gesvd<T, R>(&ni, &mi, m.data, m.desc, sv.data(), uu.data, uu.desc,
                         vv.data, vv.desc);
    } else {
      Distributed<T> whole(on, n, rowsM, 64, kScratchFourth);
      gather_rows(*t, a, rowsM, n, whole);
      info = gesvd<T, R>(&ni, &mi, whole.data, whole.desc, sv.data(), uu.data,
                         uu.desc, vv.data, vv.desc);
    }
    for (int64_t i = 0; i < k; ++i)
      values.base[i * values.strides[0]] = sv[i];
    View<T> uk = u;
    uk.sizes[1] = k;
    if (!small) {
      exchange(*t, g, uk, vv, nb, /*toCyclic=*/false, /*transposed=*/true);
      exchange(*t, g, vh, uu, nb, /*toCyclic=*/false, /*transposed=*/true);
    } else {
      for (int64_t i = 0; i < count; ++i)
        for (int64_t l = 0; l < k; ++l)
          uk.base[i * uk.strides[0] + l * uk.strides[1]] = vv.at(l, first + i);
      for (int64_t i = 0; i < rPart.second; ++i)
        for (int64_t j = 0; j < n; ++j)
          vh.base[i * vh.strides[0] + j * vh.strides[1]] =
              uu.at(j, rPart.first + i);
    }
    break;
  }
  case kEigh:
  case kEigvalsh: {
    View<R> values = make_view<R>("w", q0, e0, Use::Out);
    Distributed<T> z(g, n, n, nb, kScratchSecond);
    std::vector<R> w(n);
    info = eigh<T, R>(&ni, m.data, m.desc, w.data(), z.data, z.desc);
    for (int64_t i = 0; i < n; ++i)
      values.base[i * values.strides[0]] = w[i];
    if (kind == kEigh) {
      View<T> vectors = make_view<T>("v", q1, e1, Use::Out);
      exchange(*t, g, vectors, z, nb, /*toCyclic=*/false);
    }
    break;
  }
  }
  trim_scratch();
  if (info < 0)
    fail("ScaLAPACK rejected argument %d", -info);
  failed = info > 0;
  run_collective(*t, "MPI_Allreduce (matrix routine status)", [&] {
    return MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT64_T, MPI_MAX,
                         t->comm);
  });
  return failed;
}

} // namespace
} // namespace idtr::detail

using namespace idtr::detail;

#define M(n) int64_t n##_r, void *n##_d
#define A(n) n##_r, n##_d

#define IDTR_DEFINE_MATRIX_LINALG(S, T)                                        \
  IDTR_EXPORT int64_t _idtr_matrix_linalg_##S(int64_t team, int64_t kind,      \
                                              int64_t flag, M(a), M(b), M(o0), \
                                              M(o1), M(o2)) {                  \
    return matrix_linalg<T>("_idtr_matrix_linalg_" #S, team, kind, flag, A(a), \
                            A(b), A(o0), A(o1), A(o2));                        \
  }
IDTR_DEFINE_MATRIX_LINALG(f32, float)
IDTR_DEFINE_MATRIX_LINALG(f64, double)
IDTR_DEFINE_MATRIX_LINALG(c64, std::complex<float>)
IDTR_DEFINE_MATRIX_LINALG(c128, std::complex<double>)
