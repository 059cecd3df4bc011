// Block distributions over grids of ranks: _idtr_grid_dims (MPI_Dims_create),
// _idtr_grid_block, redistribution between any two block distributions with
// _idtr_repartition (exact bytes), several boxes in one operation with
// _idtr_fetch_boxes (a stencil's halo faces), and in-place ghost-cell
// exchange on N-d grids with _idtr_exchange_ghosts (neighbour-only messages,
// faces and corners as the read boxes need).
#include "test_util.hpp"

using namespace idtest;

namespace {

/// A block distribution of an array over the world's ranks: the grid extent
/// per dimension (1: not split). Ranks beyond the grid own nothing.
struct Dist {
  const char *name;
  Vec grid;
};

/// Row-major grid blocks of every rank (empty beyond the grid).
struct Blocks {
  std::vector<Vec> off, size;
};

Blocks grid_blocks(const Vec &g, const Vec &grid, int p) {
  const int d = static_cast<int>(g.size());
  int64_t cells = 1;
  for (int64_t e : grid)
    cells *= e;
  Blocks b{std::vector<Vec>(p, Vec(d, 0)), std::vector<Vec>(p, Vec(d, 0))};
  for (int r = 0; r < p && r < cells; ++r)
    _idtr_grid_block(d, g.data(), grid.data(), r, b.off[r].data(),
                     b.size[r].data());
  return b;
}

/// Grid of `d` dimensions factored by _idtr_grid_dims with the extents of
/// `fixed` (0: free).
Vec dims_create(Vec fixed) {
  _idtr_grid_dims(IDTR_TEAM_WORLD, static_cast<int64_t>(fixed.size()),
                  fixed.data());
  return fixed;
}

/// The distributions tested for arrays of rank d: split on each dimension,
/// the default grid over all dimensions, and a grid leaving the last rank
/// idle.
std::vector<Dist> dists(int d, int p) {
  std::vector<Dist> v;
  static const char *const kAxis[] = {"dim0", "dim1", "dim2", "dim3"};
  for (int k = 0; k < d; ++k) {
    Vec grid(d, 1);
    grid[k] = p;
    v.push_back({kAxis[k], grid});
  }
  if (d >= 2) {
    v.push_back({"grid", dims_create(Vec(d, 0))});
    if (p > 2) {
      Vec grid(d, 1);
      grid[0] = p - 1; // (p-1) x 1: the last rank owns nothing
      v.push_back({"idle-rank", grid});
    }
  }
  return v;
}

int64_t volume(const Vec &size) {
  int64_t n = 1;
  for (int64_t s : size)
    n *= std::max<int64_t>(s, 0);
  return n;
}

/// The intersection of boxes (a, as) and (b, bs), as a size vector.
Vec overlap(const Vec &a, const Vec &as, const Vec &b, const Vec &bs, Vec &lo) {
  const size_t d = a.size();
  Vec size(d);
  lo.assign(d, 0);
  for (size_t k = 0; k < d; ++k) {
    lo[k] = std::max(a[k], b[k]);
    size[k] =
        std::max<int64_t>(0, std::min(a[k] + as[k], b[k] + bs[k]) - lo[k]);
  }
  return size;
}

} // namespace

// ------------------------------------------------------------------ grids ---

TEST(Grid, DimsMatchMPIDimsCreate) {
  const int p = nprocs();
  for (int d = 1; d <= 4; ++d) {
    for (int fixed_last = 0; fixed_last <= 1; ++fixed_last) {
      Vec dims(d, 0);
      std::vector<int> ref(d, 0);
      if (fixed_last && d > 1) {
        dims[d - 1] = 1; // e.g. split rows only: (0, 1)
        ref[d - 1] = 1;
      }
      _idtr_grid_dims(IDTR_TEAM_WORLD, d, dims.data());
      MPI_Dims_create(p, d, ref.data());
      int64_t cells = 1;
      for (int k = 0; k < d; ++k) {
        EXPECT_EQ(dims[k], ref[k]) << "p=" << p << " d=" << d << " k=" << k;
        cells *= dims[k];
      }
      EXPECT_EQ(cells, p);
    }
  }
  Vec local{0, 0};
  _idtr_grid_dims(IDTR_TEAM_NONE, 2, local.data());
  EXPECT_EQ(local, (Vec{1, 1}));
}

TEST(Grid, DimOneAtATime) {
  for (int d = 1; d <= 4; ++d) {
    Vec dims(d, 0);
    _idtr_grid_dims(IDTR_TEAM_WORLD, d, dims.data());
    for (int k = 0; k < d; ++k)
      EXPECT_EQ(_idtr_grid_dim(IDTR_TEAM_WORLD, d, k), dims[k])
          << "d=" << d << " k=" << k;
  }
  EXPECT_EQ(_idtr_grid_dim(IDTR_TEAM_NONE, 2, 1), 1);
}

TEST(Grid, BlocksTileTheArray) {
  const int p = nprocs();
  for (const Vec &g : {Vec{7, 5}, Vec{1, 9}, Vec{3, 2}, Vec{5, 4, 3}}) {
    const int d = static_cast<int>(g.size());
    for (const Dist &dist : dists(d, p)) {
      Blocks b = grid_blocks(g, dist.grid, p);
      // Every element is owned by exactly one rank; per dimension the blocks
      // are the default partition of the grid extent.
      Vec owners(static_cast<size_t>(numel(g)), 0);
      for (int r = 0; r < p; ++r)
        for_each_index(b.size[r], [&](const Vec &i) {
          Vec gi = i;
          for (int k = 0; k < d; ++k)
            gi[k] += b.off[r][k];
          ++owners[static_cast<size_t>(lin(g, gi))];
        });
      for (int64_t n : owners)
        EXPECT_EQ(n, 1) << str(g) << " " << dist.name;
      Part rows = default_part(g[0], static_cast<int>(dist.grid[0]));
      int64_t stride = volume(dist.grid) / dist.grid[0];
      for (int r = 0; r < p && r < volume(dist.grid); ++r) {
        EXPECT_EQ(b.off[r][0], rows.off[r / stride]) << dist.name;
        EXPECT_EQ(b.size[r][0], rows.size[r / stride]) << dist.name;
      }
    }
  }
}

// ----------------------------------------------------------- redistribute ---

template <class D> class Redistribute : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Redistribute, MovedTypes, TypeNames);

namespace {

/// Moves an array from distribution `from` to `to` and checks the values and
/// that exactly the elements a rank does not own already are received.
template <class D>
void run_redistribute(const Vec &g, const Dist &from, const Dist &to, Layout li,
                      Layout lo, int64_t key) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int d = static_cast<int>(g.size());
  Blocks a = grid_blocks(g, from.grid, p), b = grid_blocks(g, to.grid, p);
  Arr<T> in(a.size[me], li), out(b.size[me], lo, T(5));
  for_each_index(in.sizes, [&](const Vec &i) {
    Vec gi = i;
    for (int k = 0; k < d; ++k)
      gi[k] += a.off[me][k];
    in.at(i) = val<D>(lin(g, gi));
  });
  auto vg = iv(g), vli = iv(a.off[me]), vto = iv(b.off[me]),
       vts = iv(b.size[me]);
  std::string what = str(g) + " " + from.name + " -> " + to.name + " " +
                     layout_name(li) + "/" + layout_name(lo);
  for (int it = 0; it < (key >= 0 ? 2 : 1); ++it) {
    _idtr_reset_stats();
    _idtr_wait(D::repartition(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vg.get(),
                              1, vli.get(), 1, vto.get(), 1, vts.get(),
                              out.rank(), out.d(), key));
    int bad = 0;
    for_each_index(out.sizes, [&](const Vec &j) {
      Vec gj = j;
      for (int k = 0; k < d; ++k)
        gj[k] += b.off[me][k];
      if (!(out.at(j) == val<D>(lin(g, gj))) && bad++ < 3)
        ADD_FAILURE() << what << ": element " << str(gj) << " wrong";
    });
    EXPECT_TRUE(out.gaps_intact()) << what;
    Vec lo_;
    int64_t self =
        volume(overlap(a.off[me], a.size[me], b.off[me], b.size[me], lo_));
    const int64_t es = sizeof(T);
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_BYTES_RECV),
              es * (volume(b.size[me]) - self))
        << what;
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_LOCAL_BYTES), es * self)
        << what;
    // One message per pair of ranks whose blocks intersect.
    int64_t peers = 0;
    for (int r = 0; r < p; ++r)
      if (r != me &&
          volume(overlap(a.off[r], a.size[r], b.off[me], b.size[me], lo_)))
        ++peers;
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_MSGS_RECV), peers) << what;
  }
}

} // namespace

TYPED_TEST(Redistribute, EveryPairOfDistributions) {
  const int p = nprocs();
  int idx = 0;
  for (const Vec &g :
       {Vec{7, 5}, Vec{1, 9}, Vec{0, 4}, Vec{3, 2}, Vec{5, 4, 3}}) {
    auto ds = dists(static_cast<int>(g.size()), p);
    for (const Dist &from : ds)
      for (const Dist &to : ds) {
        Layout li = static_cast<Layout>(idx % 3),
               lo = static_cast<Layout>((idx / 3) % 3);
        if (sampled<TypeParam>(idx))
          run_redistribute<TypeParam>(g, from, to, li, lo,
                                      idx % 2 ? -1 : 3000 + idx);
        ++idx;
      }
  }
}

// A transpose of the data layout (rows to columns) moves every element not
// on the diagonal blocks once: size x (P-1)/P when P divides the size.
TEST(Redistribute, RowsToColumnsMovesEachElementOnce) {
  const int p = nprocs(), me = rank();
  const int64_t n = 60; // divisible by 1..5
  const Vec g{n, n};
  Blocks a = grid_blocks(g, {p, 1}, p), b = grid_blocks(g, {1, p}, p);
  Arr<double> in(a.size[me]), out(b.size[me]);
  auto vg = iv(g), vli = iv(a.off[me]), vto = iv(b.off[me]),
       vts = iv(b.size[me]);
  _idtr_reset_stats();
  _idtr_wait(_idtr_repartition_f64(IDTR_TEAM_WORLD, 2, in.d(), 1, vg.get(), 1,
                                   vli.get(), 1, vto.get(), 1, vts.get(), 2,
                                   out.d(), -1));
  EXPECT_EQ(allsum(stat(IDTR_STAT_REPARTITION, IDTR_CNT_BYTES_SENT)),
            static_cast<int64_t>(sizeof(double)) * n * n * (p - 1) / p);
  EXPECT_EQ(allsum(stat(IDTR_STAT_REPARTITION, IDTR_CNT_MSGS_SENT)),
            static_cast<int64_t>(p) * (p - 1));
}

// The Cartesian communicator of a grid numbers the ranks as the blocks do:
// rank r at the row-major coordinates _idtr_grid_block gives it, and its
// neighbours (MPI_Cart_shift) own the neighbouring blocks. Made once per
// grid: the second call returns the same communicator.
TEST(Grid, CartesianCommunicatorMatchesTheBlocks) {
  const int p = nprocs(), me = rank();
  for (Vec fixed : {Vec{0, 0}, Vec{0, 0, 0}, Vec{1, 0}}) {
    const int d = static_cast<int>(fixed.size());
    int64_t handle = _idtr_grid_comm(IDTR_TEAM_WORLD, d, fixed.data());
    EXPECT_EQ(_idtr_grid_comm(IDTR_TEAM_WORLD, d, fixed.data()), handle);
    MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(handle));
    ASSERT_NE(comm, MPI_COMM_NULL);
    Vec grid = dims_create(fixed);
    std::vector<int> dims(d), periods(d), coords(d);
    MPI_Cart_get(comm, d, dims.data(), periods.data(), coords.data());
    int cart_rank = -1;
    MPI_Comm_rank(comm, &cart_rank);
    EXPECT_EQ(cart_rank, me);
    Vec g(d, 11);
    Blocks b = grid_blocks(g, grid, p);
    for (int k = 0; k < d; ++k) {
      EXPECT_EQ(dims[k], grid[k]);
      EXPECT_EQ(periods[k], 0);
      // The block at coordinate c along k starts at the partition's c-th
      // offset; the rank after along k owns the next block.
      Part part = default_part(g[k], static_cast<int>(grid[k]));
      EXPECT_EQ(b.off[me][k], part.off[coords[k]]);
      int before = -1, after = -1;
      MPI_Cart_shift(comm, k, 1, &before, &after);
      if (after != MPI_PROC_NULL && b.size[me][k] > 0)
        EXPECT_EQ(b.off[after][k], b.off[me][k] + b.size[me][k]);
    }
  }
  // A grid of fewer cells than ranks: the ranks beyond it have none.
  if (p > 1) {
    Vec small{p - 1, 1};
    MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(
        _idtr_grid_comm(IDTR_TEAM_WORLD, 2, small.data())));
    EXPECT_EQ(comm == MPI_COMM_NULL, me == p - 1);
  }
}

// ------------------------------------------------------------- ghost cells ---

template <class D> class Ghosts : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(Ghosts, MovedTypes, TypeNames);

namespace {

/// A stencil as the shifts of the views it reads (one vector per view).
struct Stencil {
  const char *name;
  std::vector<Vec> shifts;
};

std::vector<Stencil> stencils(int d) {
  std::vector<Stencil> v;
  Stencil star{"star", {Vec(d, 0)}}, box{"box", {}}, wide{"asym-2", {}};
  for (int k = 0; k < d; ++k)
    for (int s : {-1, 1}) {
      Vec sh(d, 0);
      sh[k] = s;
      star.shifts.push_back(sh);
    }
  // All 3^d neighbours (9-point in 2-D, 27-point in 3-D).
  int neighbourhood = 1;
  for (int k = 0; k < d; ++k)
    neighbourhood *= 3;
  for (int c = 0; c < neighbourhood; ++c) {
    Vec sh(d);
    for (int k = 0, r = c; k < d; ++k, r /= 3)
      sh[k] = r % 3 - 1;
    box.shifts.push_back(sh);
  }
  // Asymmetric widths: 2 before and 1 after on dimension 0, 0 before and 3
  // after on the last, no corners.
  for (int s : {-2, -1, 1}) {
    Vec sh(d, 0);
    sh[0] = s;
    wide.shifts.push_back(sh);
  }
  for (int s : {1, 2, 3}) {
    Vec sh(d, 0);
    sh[d - 1] = s;
    wide.shifts.push_back(sh);
  }
  v.push_back(star);
  v.push_back(box);
  v.push_back(wide);
  return v;
}

/// The box a view shifted by `sh` reads for the owned block (off, size),
/// clipped to the array; empty blocks read nothing.
bool read_box(const Vec &g, const Vec &off, const Vec &size, const Vec &sh,
              Vec &lo, Vec &ext) {
  const size_t d = g.size();
  lo.assign(d, 0);
  ext.assign(d, 0);
  if (volume(size) == 0)
    return false;
  for (size_t k = 0; k < d; ++k) {
    int64_t a = std::max<int64_t>(0, off[k] + sh[k]),
            b = std::min(g[k], off[k] + size[k] + sh[k]);
    if (a >= b)
      return false;
    lo[k] = a;
    ext[k] = b - a;
  }
  return true;
}

template <class D>
void run_ghosts(const Vec &g, const Dist &dist, const Stencil &st, Layout l,
                int64_t key) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int d = static_cast<int>(g.size());
  Blocks b = grid_blocks(g, dist.grid, p);
  const Vec &off = b.off[me], &size = b.size[me];
  // Ghost widths before/after the block in each dimension.
  Vec wlo(d, 0), whi(d, 0);
  for (const Vec &sh : st.shifts)
    for (int k = 0; k < d; ++k) {
      wlo[k] = std::max<int64_t>(wlo[k], -sh[k]);
      whi[k] = std::max<int64_t>(whi[k], sh[k]);
    }
  Vec bo(d), bs(d);
  for (int k = 0; k < d; ++k) {
    bo[k] = off[k] - wlo[k];
    bs[k] = size[k] + wlo[k] + whi[k];
  }
  const T sentinel = val<D>(-7);
  Arr<T> buf(bs, l, sentinel);
  auto global = [&](const Vec &i) {
    Vec gi = i;
    for (int k = 0; k < d; ++k)
      gi[k] += bo[k];
    return gi;
  };
  auto owned = [&](const Vec &gi) {
    for (int k = 0; k < d; ++k)
      if (gi[k] < off[k] || gi[k] >= off[k] + size[k])
        return false;
    return true;
  };
  // The boxes of my reads and, per rank, whether I need something of it.
  std::vector<int64_t> boxes;
  std::vector<std::pair<Vec, Vec>> reads;
  for (const Vec &sh : st.shifts) {
    Vec lo, ext;
    if (!read_box(g, off, size, sh, lo, ext))
      continue;
    reads.push_back({lo, ext});
    boxes.insert(boxes.end(), lo.begin(), lo.end());
    boxes.insert(boxes.end(), ext.begin(), ext.end());
  }
  int64_t peers = 0;
  for (int r = 0; r < p; ++r) {
    bool needed = false;
    Vec lo_;
    for (auto &rb : reads)
      needed |= r != me &&
                volume(overlap(b.off[r], b.size[r], rb.first, rb.second, lo_));
    peers += needed;
  }
  auto vg = iv(g), vbo = iv(bo), voo = iv(off), vos = iv(size), vbx = iv(boxes);
  std::string what = str(g) + " " + dist.name + " " + st.name + " " +
                     layout_name(l) + " key " + std::to_string(key);
  for (int it = 0; it < (key >= 0 ? 3 : 1); ++it) {
    for_each_index(bs, [&](const Vec &i) {
      Vec gi = global(i);
      buf.at(i) = owned(gi) ? val<D>(lin(g, gi), it) : sentinel;
    });
    _idtr_reset_stats();
    _idtr_wait(D::exchange_ghosts(IDTR_TEAM_WORLD, buf.rank(), buf.d(), 1,
                                  vg.get(), 1, vbo.get(), 1, voo.get(), 1,
                                  vos.get(), 1, vbx.get(), key));
    int bad = 0;
    for_each_index(bs, [&](const Vec &i) {
      Vec gi = global(i);
      bool in_read = false;
      for (auto &rb : reads) {
        bool in = true;
        for (int k = 0; k < d; ++k)
          in &= gi[k] >= rb.first[k] && gi[k] < rb.first[k] + rb.second[k];
        in_read |= in;
      }
      const T &v = buf.at(i);
      // Read elements hold their value; the others are untouched or (inside
      // a neighbour's bounding box of reads) hold their value too.
      bool ok = in_read || owned(gi)
                    ? v == val<D>(lin(g, gi), it)
                    : (v == sentinel || v == val<D>(lin(g, gi), it));
      if (!ok && bad++ < 3)
        ADD_FAILURE() << what << ": element " << str(gi) << " wrong";
    });
    EXPECT_TRUE(buf.gaps_intact()) << what;
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV), peers) << what;
    if (key >= 0 && it > 0)
      EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_CACHE_HITS), 1) << what;
  }
}

} // namespace

namespace {

/// Calls `fn(g, dist, stencil, idx)` for every array shape, distribution
/// and stencil the stencil suites run (`idx` numbers them: sampling per
/// element type, layouts, cache keys).
template <class Fn> void for_each_stencil_case(Fn fn) {
  int idx = 0;
  for (const Vec &g : {Vec{9, 7}, Vec{2, 11}, Vec{5, 4, 6}, Vec{13}}) {
    const int d = static_cast<int>(g.size());
    for (const Dist &dist : dists(d, nprocs()))
      for (const Stencil &st : stencils(d))
        fn(g, dist, st, idx++);
  }
}

} // namespace

TYPED_TEST(Ghosts, StencilsOnEveryDistribution) {
  for_each_stencil_case(
      [](const Vec &g, const Dist &dist, const Stencil &st, int idx) {
        if (sampled<TypeParam>(idx))
          run_ghosts<TypeParam>(g, dist, st, static_cast<Layout>(idx % 3),
                                idx % 2 ? -1 : 4000 + idx);
      });
}

// On a 2-D grid a 5-point stencil exchanges faces only (one message per face
// neighbour), a 9-point one also the corners (one per diagonal neighbour).
TEST(Ghosts, MessagesPerNeighbour) {
  const int p = nprocs(), me = rank();
  const Vec g{40, 30};
  Vec grid = dims_create({0, 0});
  const int64_t rows = grid[0], cols = grid[1];
  const int64_t ci = me / cols, cj = me % cols;
  for (const Stencil &st : stencils(2)) {
    if (std::string(st.name) == "asym-2")
      continue;
    bool corners = std::string(st.name) == "box";
    int64_t expect = 0;
    for (int64_t di = -1; di <= 1; ++di)
      for (int64_t dj = -1; dj <= 1; ++dj) {
        int64_t i = ci + di, j = cj + dj;
        if ((di || dj) && i >= 0 && i < rows && j >= 0 && j < cols &&
            (corners || !(di && dj)))
          ++expect;
      }
    Blocks b = grid_blocks(g, grid, p);
    Vec bo{b.off[me][0] - 1, b.off[me][1] - 1},
        bs{b.size[me][0] + 2, b.size[me][1] + 2};
    Arr<double> buf(bs);
    std::vector<int64_t> boxes;
    for (const Vec &sh : st.shifts) {
      Vec lo, ext;
      if (read_box(g, b.off[me], b.size[me], sh, lo, ext)) {
        boxes.insert(boxes.end(), lo.begin(), lo.end());
        boxes.insert(boxes.end(), ext.begin(), ext.end());
      }
    }
    auto vg = iv(g), vbo = iv(bo), voo = iv(b.off[me]), vos = iv(b.size[me]),
         vbx = iv(boxes);
    _idtr_reset_stats();
    _idtr_wait(_idtr_exchange_ghosts_f64(IDTR_TEAM_WORLD, 2, buf.d(), 1,
                                         vg.get(), 1, vbo.get(), 1, voo.get(),
                                         1, vos.get(), 1, vbx.get(), -1));
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_SENT), expect) << st.name;
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_MSGS_RECV), expect) << st.name;
    // Faces move a row or column of the neighbour's block, corners 1 element.
    int64_t bytes = 0;
    for (int64_t di = -1; di <= 1; ++di)
      for (int64_t dj = -1; dj <= 1; ++dj) {
        int64_t i = ci + di, j = cj + dj;
        if (!(di || dj) || i < 0 || i >= rows || j < 0 || j >= cols ||
            (!corners && di && dj))
          continue;
        bytes += 8 * (di ? 1 : b.size[me][0]) * (dj ? 1 : b.size[me][1]);
      }
    EXPECT_EQ(stat(IDTR_STAT_HALO, IDTR_CNT_BYTES_RECV), bytes) << st.name;
  }
}

// ------------------------------------------------------------ fetch boxes ---

template <class D> class FetchBoxes : public ::testing::Test {
protected:
  void SetUp() override { _idtr_clear_cache(); }
};
TYPED_TEST_SUITE(FetchBoxes, MovedTypes, TypeNames);

namespace {

/// Fetches the boxes a stencil's views read (each shifted block, clipped;
/// also the parts this rank owns) in one operation and checks every value,
/// one message per (owner, box it holds part of), and the bytes.
template <class D>
void run_fetch_boxes(const Vec &g, const Dist &dist, const Stencil &st,
                     Layout li, int64_t key) {
  using T = typename D::T;
  const int p = nprocs(), me = rank();
  const int d = static_cast<int>(g.size());
  Blocks a = grid_blocks(g, dist.grid, p);
  Arr<T> in(a.size[me], li);
  for_each_index(in.sizes, [&](const Vec &i) {
    Vec gi = i;
    for (int k = 0; k < d; ++k)
      gi[k] += a.off[me][k];
    in.at(i) = val<D>(lin(g, gi));
  });
  // Every rank passes one box per view (empty where it reads nothing).
  std::vector<int64_t> boxes;
  std::vector<std::pair<Vec, Vec>> reads;
  int64_t total = 0;
  for (const Vec &sh : st.shifts) {
    Vec lo, ext;
    read_box(g, a.off[me], a.size[me], sh, lo, ext);
    reads.push_back({lo, ext});
    boxes.insert(boxes.end(), lo.begin(), lo.end());
    boxes.insert(boxes.end(), ext.begin(), ext.end());
    total += volume(ext);
  }
  const T sentinel = val<D>(-7);
  Arr<T> out(Vec{total}, Layout::Dense, sentinel);
  int64_t msgs = 0, remote = 0, local = 0;
  for (auto &[lo, ext] : reads)
    for (int r = 0; r < p; ++r) {
      Vec lo_;
      int64_t n = volume(overlap(a.off[r], a.size[r], lo, ext, lo_));
      (r == me ? local : remote) += n;
      msgs += r != me && n > 0;
    }
  auto vg = iv(g), vli = iv(a.off[me]), vbx = iv(boxes);
  std::string what = str(g) + " " + dist.name + " " + st.name + " " +
                     layout_name(li) + " key " + std::to_string(key);
  for (int it = 0; it < (key >= 0 ? 2 : 1); ++it) {
    _idtr_reset_stats();
    int64_t handle =
        D::fetch_boxes(IDTR_TEAM_WORLD, in.rank(), in.d(), 1, vg.get(), 1,
                       vli.get(), 1, vbx.get(), 1, out.d(), key);
    _idtr_wait_buffers(handle, in.rank(), in.d(), 1, out.d(), 1, out.d());
    int64_t at = 0;
    int bad = 0;
    for (auto &[read_lo, ext] : reads)
      for_each_index(ext, [&, &lo = read_lo](const Vec &i) {
        Vec gi = i;
        for (int k = 0; k < d; ++k)
          gi[k] += lo[k];
        if (!(out.at(Vec{at++}) == val<D>(lin(g, gi))) && bad++ < 3)
          ADD_FAILURE() << what << ": element " << str(gi) << " wrong";
      });
    const int64_t es = sizeof(T);
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_MSGS_RECV), msgs) << what;
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_BYTES_RECV), es * remote)
        << what;
    EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_LOCAL_BYTES), es * local)
        << what;
    if (key >= 0 && it > 0)
      EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_CACHE_HITS), 1) << what;
  }
}

} // namespace

TYPED_TEST(FetchBoxes, StencilViewsOnEveryDistribution) {
  for_each_stencil_case(
      [](const Vec &g, const Dist &dist, const Stencil &st, int idx) {
        if (sampled<TypeParam>(idx))
          run_fetch_boxes<TypeParam>(g, dist, st, static_cast<Layout>(idx % 3),
                                     idx % 2 ? -1 : 5000 + idx);
      });
}

// The halo faces of a 5-point stencil on a 2-D grid (the boxes beside the
// block, as convert-dist-to-standard passes them) come in one message per
// face neighbour.
TEST(FetchBoxes, FacesOneMessagePerNeighbour) {
  const int p = nprocs(), me = rank();
  const Vec g{40, 30};
  Vec grid = dims_create({0, 0});
  Blocks b = grid_blocks(g, grid, p);
  const Vec &off = b.off[me], &size = b.size[me];
  std::vector<int64_t> boxes;
  int64_t total = 0;
  for (int k = 0; k < 2; ++k)
    for (int side : {-1, 1}) {
      Vec lo = off, ext = size;
      lo[k] = side < 0 ? off[k] - 1 : off[k] + size[k];
      ext[k] = (side < 0 ? off[k] > 0 : off[k] + size[k] < g[k]) ? 1 : 0;
      if (ext[k] == 0)
        lo[k] = 0;
      boxes.insert(boxes.end(), lo.begin(), lo.end());
      boxes.insert(boxes.end(), ext.begin(), ext.end());
      total += volume(ext);
    }
  const int64_t ci = me / grid[1], cj = me % grid[1];
  const int64_t neighbours =
      (ci > 0) + (ci + 1 < grid[0]) + (cj > 0) + (cj + 1 < grid[1]);
  Arr<double> in(size), out(Vec{total});
  auto vg = iv(g), vli = iv(off), vbx = iv(boxes);
  _idtr_reset_stats();
  _idtr_wait(_idtr_fetch_boxes_f64(IDTR_TEAM_WORLD, 2, in.d(), 1, vg.get(), 1,
                                   vli.get(), 1, vbx.get(), 1, out.d(), -1));
  EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_CALLS), 1);
  EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_MSGS_RECV), neighbours);
  EXPECT_EQ(stat(IDTR_STAT_REPARTITION, IDTR_CNT_MSGS_SENT), neighbours);
}
