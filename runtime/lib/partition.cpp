// Block partitions of libidtr: the default partition of n rows over a team
// and the blocks of a Cartesian process grid (extents factored as
// MPI_Dims_create does).
#include "internal.hpp"

#include <algorithm>
#include <cinttypes>

using namespace idtr::detail;

IDTR_EXPORT void _idtr_default_partition(int64_t n, int64_t nprocs,
                                         int64_t rank, int64_t *off,
                                         int64_t *size) {
  EntryScope es("_idtr_default_partition");
  if (n < 0 || nprocs <= 0 || rank < 0 || rank >= nprocs || !off || !size)
    fail("invalid arguments n=%" PRId64 " nprocs=%" PRId64 " rank=%" PRId64, n,
         nprocs, rank);
  int64_t q = n / nprocs, first_big = nprocs - n % nprocs;
  *size = q + (rank >= first_big ? 1 : 0);
  *off = rank * q + (rank > first_big ? rank - first_big : 0);
}

IDTR_EXPORT void _idtr_grid_dims(int64_t team, int64_t ndims, int64_t *dims) {
  EntryScope es("_idtr_grid_dims");
  if (ndims < 1 || ndims > kMaxRank || !dims)
    fail("invalid arguments ndims=%" PRId64 " (1..%d) dims=%p", ndims, kMaxRank,
         static_cast<void *>(dims));
  auto t = get_team(team, /*collective=*/false);
  int64_t fixed = 1;
  for (int64_t k = 0; k < ndims; ++k) {
    if (dims[k] < 0)
      fail("dims %s: negative grid extent", fmt_vec(dims, ndims).c_str());
    if (dims[k] > 0)
      fixed *= dims[k];
  }
  if (t->size % fixed != 0)
    fail("cannot factor %d ranks of team %" PRId64
         " into a grid with the given extents %s",
         t->size, team, fmt_vec(dims, ndims).c_str());
  if (t->is_local()) {
    for (int64_t k = 0; k < ndims; ++k)
      dims[k] = dims[k] ? dims[k] : 1;
    return;
  }
  int d[kMaxRank];
  for (int64_t k = 0; k < ndims; ++k)
    d[k] = static_cast<int>(dims[k]);
  IDTR_MPI(MPI_Dims_create(t->size, static_cast<int>(ndims), d));
  for (int64_t k = 0; k < ndims; ++k)
    dims[k] = d[k];
}

IDTR_EXPORT int64_t _idtr_grid_dim(int64_t team, int64_t ndims, int64_t k) {
  EntryScope es("_idtr_grid_dim");
  get_team(team, /*collective=*/false); // (checks it; messages name the rank)
  if (ndims < 1 || ndims > kMaxRank || k < 0 || k >= ndims)
    fail("invalid arguments ndims=%" PRId64 " (1..%d) k=%" PRId64, ndims,
         kMaxRank, k);
  int64_t dims[kMaxRank] = {};
  _idtr_grid_dims(team, ndims, dims);
  return dims[k];
}

IDTR_EXPORT void _idtr_grid_block(int64_t ndims, const int64_t *gshape,
                                  const int64_t *dims, int64_t rank,
                                  int64_t *offs, int64_t *sizes) {
  EntryScope es("_idtr_grid_block");
  if (ndims < 1 || ndims > kMaxRank || !gshape || !dims || !offs || !sizes)
    fail("invalid arguments ndims=%" PRId64 " (1..%d)", ndims, kMaxRank);
  int64_t cells = 1;
  for (int64_t k = 0; k < ndims; ++k) {
    if (dims[k] < 1 || gshape[k] < 0)
      fail("invalid grid %s or global shape %s", fmt_vec(dims, ndims).c_str(),
           fmt_vec(gshape, ndims).c_str());
    cells *= dims[k];
  }
  if (rank < 0 || rank >= cells)
    fail("rank %" PRId64 " is outside the grid %s of %" PRId64 " ranks", rank,
         fmt_vec(dims, ndims).c_str(), cells);
  // Row-major coordinates (the last dimension varies fastest), as
  // MPI_Cart_create numbers the ranks of a grid without reordering.
  int64_t rest = rank;
  for (int64_t k = ndims - 1; k >= 0; --k) {
    int64_t coord = rest % dims[k];
    rest /= dims[k];
    _idtr_default_partition(gshape[k], dims[k], coord, &offs[k], &sizes[k]);
  }
}

void idtr::detail::free_grid_comms(Team &t) {
  std::lock_guard<std::mutex> lk(t.grid_mu);
  t.resources.clear();
  for (auto &[dims, comm] : t.grid_comms)
    if (comm != MPI_COMM_NULL)
      MPI_Comm_free(&comm);
  t.grid_comms.clear();
}

IDTR_EXPORT int64_t _idtr_grid_comm(int64_t team, int64_t ndims,
                                    const int64_t *dims) {
  EntryScope es("_idtr_grid_comm");
  if (ndims < 1 || ndims > kMaxRank || !dims)
    fail("invalid arguments ndims=%" PRId64 " (1..%d) dims=%p", ndims, kMaxRank,
         static_cast<const void *>(dims));
  auto t = get_team(team);
  if (t->is_local())
    fail("team 0 (a single process without MPI) has no communicator");
  int64_t grid[kMaxRank];
  std::copy(dims, dims + ndims, grid);
  int64_t cells = 1;
  for (int64_t k = 0; k < ndims; ++k)
    cells *= grid[k];
  if (std::find(grid, grid + ndims, 0) != grid + ndims)
    _idtr_grid_dims(team, ndims, grid);
  else if (std::any_of(grid, grid + ndims, [](int64_t e) { return e < 0; }) ||
           cells > t->size)
    fail("the grid %s does not fit the %d ranks of team %" PRId64,
         fmt_vec(grid, ndims).c_str(), t->size, team);
  std::vector<int> key(grid, grid + ndims);
  std::lock_guard<std::mutex> lk(t->grid_mu);
  auto it = t->grid_comms.find(key);
  if (it == t->grid_comms.end()) {
    std::vector<int> periods(key.size(), 0);
    MPI_Comm comm = MPI_COMM_NULL;
    run_collective(*t, "MPI_Cart_create (the grid's communicator)", [&] {
      return MPI_Cart_create(t->comm, static_cast<int>(ndims), key.data(),
                             periods.data(), /*reorder=*/0, &comm);
    });
    it = t->grid_comms.emplace(key, comm).first;
  }
  return static_cast<int64_t>(MPI_Comm_c2f(it->second));
}
