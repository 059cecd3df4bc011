/*
 * idtr.h - C ABI of the IDTR distributed-array runtime (libidtr).
 *
 * Lowered MLIR code calls these functions for everything that needs
 * communication. See docs/runtime.md for the full contract. Summary:
 *
 *  - Every array argument is an *unranked memref* and therefore occupies TWO
 *    C arguments: (int64_t rank, void *descriptor). `descriptor` points to the
 *    ranked MLIR descriptor
 *        { T *allocated; T *aligned; int64_t offset;
 *          int64_t sizes[rank]; int64_t strides[rank]; }
 *    Element (i0,i1,..) lives at aligned[offset + i0*strides[0] + ...]
 *    (strides in elements, any value incl. 0 for inputs; sizes may be 0).
 *    Index vectors (global shape, offsets, bounding boxes, tables) are
 *    memref<?xindex>: rank-1 descriptors of int64_t.
 *  - Scalars (team, key, op, root, handles) are int64_t.
 *  - Teams: 0 = not distributed (single process, no MPI), 1 = MPI_COMM_WORLD,
 *    >= 2 = registered with _idtr_register_team. Unknown ids are an error.
 *  - Distributed arrays are split along dimension 0 into contiguous blocks in
 *    rank order (any sizes, possibly empty). The default partition of n rows on
 *    p ranks gives rank r  n/p + (r >= p - n%p)  rows at offset
 *    r*(n/p) + max(0, r - (p - n%p))  (extra rows go to the LAST ranks).
 *    _idtr_repartition and _idtr_exchange_ghosts take any block
 *    distribution (each rank's block a box, e.g. over a grid of ranks, see
 *    _idtr_grid_block).
 *  - Asynchronous operations return a handle; 0 means "already complete".
 *    Every non-zero handle must be passed to _idtr_wait (or
 *    _idtr_wait_buffers) exactly once. Inputs must stay alive and unmodified
 *    and outputs must not be read until then.
 *  - Every entry point taking a team is collective over that team (all ranks
 *    call it, in the same order relative to other collective idtr calls).
 *  - Invalid arguments abort the whole job (MPI_Abort) with a message naming
 *    the entry point and the rank.
 *  - No silent hangs: a wait inside the runtime that lasts longer than
 *    IDTR_TIMEOUT seconds (default 300, 0 = unbounded) aborts the job with a
 *    message naming the entry point, the rank and what it waits for;
 *    IDTR_CHECK_COLLECTIVES=1 also checks that all ranks of a team make the
 *    same collective calls in the same order.
 *
 * Element-type suffixes: f64 f32 i64 i32 i16 i8 i1 ui64 ui32 ui16 ui8 index
 * f16 bf16 (IEEE half and bfloat16, passed as 16-bit words; reductions and
 * scans compute in float and round the result) c64 c128 (complex<f32>,
 * complex<f64>: (real, imaginary) pairs; reductions and scans sum, prod,
 * logical and/or; no min/max and no sorts).
 * i1 is stored as one byte per element; index is int64_t.
 */
#ifndef IDTR_IDTR_H
#define IDTR_IDTR_H

#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define IDTR_API __attribute__((visibility("default")))
#else
#define IDTR_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ----- teams ------------------------------------------------------------ */
/* 0: not distributed (nprocs 1, prank 0, local copies); 1: MPI_COMM_WORLD */
#define IDTR_TEAM_NONE 0
#define IDTR_TEAM_WORLD 1

/* ----- reduction operations (_idtr_reduce_all_<T>) ----------------------- */
#define IDTR_OP_SUM 0
#define IDTR_OP_PROD 1
#define IDTR_OP_MIN 2
#define IDTR_OP_MAX 3
#define IDTR_OP_LAND 4 /* logical and ("all"); result is 0/1 */
#define IDTR_OP_LOR 5  /* logical or ("any"); result is 0/1 */

/* Rows per block of _idtr_ordered_reduce_*. */
#define IDTR_ORDERED_BLOCK 64

/* ----- statistics (_idtr_stats) ------------------------------------------ */
/* kinds */
#define IDTR_STAT_HALO 0
#define IDTR_STAT_RESHAPE 1
#define IDTR_STAT_PERMUTE 2
#define IDTR_STAT_REPARTITION 3
#define IDTR_STAT_GATHER 4
#define IDTR_STAT_ALLTOALL 5
#define IDTR_STAT_REDUCE 6
#define IDTR_STAT_METADATA 7 /* plan metadata exchange (allgather/alltoall) */
#define IDTR_STAT_ALL 8      /* sum over kinds 0..7 (read only) */
#define IDTR_STAT_NKINDS 8
/* counters */
#define IDTR_CNT_CALLS 0        /* entry point calls */
#define IDTR_CNT_MSGS_SENT 1    /* point-to-point messages sent */
#define IDTR_CNT_BYTES_SENT 2   /* payload bytes sent point-to-point */
#define IDTR_CNT_MSGS_RECV 3    /* point-to-point messages received */
#define IDTR_CNT_BYTES_RECV 4   /* payload bytes received point-to-point */
#define IDTR_CNT_COLLECTIVES 5  /* MPI collective calls issued */
#define IDTR_CNT_COLL_BYTES 6   /* bytes this rank contributed to collectives */
#define IDTR_CNT_LOCAL_BYTES 7  /* bytes copied locally (self part) */
#define IDTR_CNT_CACHE_HITS 8   /* plan cache hits */
#define IDTR_CNT_CACHE_MISSES 9 /* plan cache misses (key >= 0, plan built) */
/* wall-clock ns (steady clock) spent inside the operation's entry point, from
 * entry to return: argument checks, plan lookup or building incl. the
 * metadata exchange, local copies, posting sends/receives, and the whole
 * operation if it completes there (all synchronous kinds, handle 0) */
#define IDTR_CNT_CALL_NS 10
/* wall-clock ns callers spent in _idtr_wait / _idtr_wait_buffers for handles
 * of operations of this kind (handle 0 costs nothing; synchronous kinds and
 * METADATA stay 0). CALL_NS + WAIT_NS is the time communication was exposed
 * to the caller; the rest of the time between issue and wait was hidden. */
#define IDTR_CNT_WAIT_NS 11
#define IDTR_NCOUNTERS 12

/* ----- non-typed entry points --------------------------------------------- */

/* Number of processes / rank of this process in `team`. */
IDTR_API int64_t _idtr_nprocs(int64_t team);
IDTR_API int64_t _idtr_prank(int64_t team);

/* Register an application communicator given by its Fortran handle
 * (MPI_Comm_c2f(comm), or comm.py2f() in mpi4py). Collective over that
 * communicator. The runtime duplicates it; returns a new team id (>= 2). */
IDTR_API int64_t _idtr_register_team(int64_t fortran_comm_handle);
/* Release a registered team (collective over it); drops its cached plans.
 * Async operations on the team must have been waited for. */
IDTR_API void _idtr_unregister_team(int64_t team);

/* Default block partition of n rows over nprocs ranks (see above). */
IDTR_API void _idtr_default_partition(int64_t n, int64_t nprocs, int64_t rank,
                                      int64_t *off, int64_t *size);

/* Block distributions over a Cartesian grid of ranks. A grid has one extent
 * per array dimension (1: the dimension is not split); rank r sits at the
 * row-major coordinates of r in the grid (the last dimension varies fastest,
 * as in MPI_Cart_create without reordering) and owns, in each dimension k,
 * the block _idtr_default_partition(gshape[k], dims[k], coord[k]). Ranks
 * beyond the grid own nothing.
 *
 * _idtr_grid_dims: MPI_Dims_create for the ranks of `team`: entries of `dims`
 * that are 0 are filled in (as close to each other as possible, in
 * non-increasing order), the others kept; their product must divide the
 * number of ranks (an error otherwise). Local, not collective. */
IDTR_API void _idtr_grid_dims(int64_t team, int64_t ndims, int64_t *dims);
/* Entry k of the grid _idtr_grid_dims gives for `ndims` zero entries (the
 * balanced grid of all ranks of `team`): what compiled code calls, one
 * dimension at a time. Local, not collective. */
IDTR_API int64_t _idtr_grid_dim(int64_t team, int64_t ndims, int64_t k);
/* The block (offsets, sizes) that `rank` owns of an array of `gshape`
 * distributed over the grid `dims` (all ndims entries >= 1). */
IDTR_API void _idtr_grid_block(int64_t ndims, const int64_t *gshape,
                               const int64_t *dims, int64_t rank, int64_t *offs,
                               int64_t *sizes);

/* The Cartesian communicator of the grid `dims` of the ranks of `team`
 * (entries 0 filled in as _idtr_grid_dims does; all given: their product
 * at most the team's size), as its Fortran handle (MPI_Comm_c2f): made once
 * per team and grid (MPI_Cart_create, not periodic, not reordered, so rank
 * r sits at the row-major coordinates _idtr_grid_block gives it) and
 * cached until the team is unregistered or MPI is finalised. Collective
 * over the team on the first call for a grid, local afterwards. Ranks
 * beyond the grid get MPI_COMM_NULL's handle. For applications working
 * on the blocks of grid arrays with MPI directly (neighbours through
 * MPI_Cart_shift, sub-communicators through MPI_Cart_sub); the runtime's
 * own exchanges find their peers from the blocks. */
IDTR_API int64_t _idtr_grid_comm(int64_t team, int64_t ndims,
                                 const int64_t *dims);

/* Complete an asynchronous operation. 0 is a no-op. Waiting twice or on a
 * value that is not a live handle is an error. */
IDTR_API void _idtr_wait(int64_t handle);

/* One memref argument: (int64_t rank, void *descriptor), see above. */
#define IDTR_MEMREF(name) int64_t name##_rank, void *name##_desc

/* _idtr_wait that also receives the arrays the operation uses: its input and
 * its outputs, in any order (the input of a halo exchange and both halos; the
 * input and the output of a reshape/permute/repartition); repeat one to fill
 * the three slots. Compiled code passes them so that the buffers are visibly
 * used, hence kept alive and unmodified, until the wait. Unless
 * IDTR_NO_CHECKS=1, the runtime checks for a non-zero handle that every
 * buffer lies inside one of the operation's arrays and that every non-empty
 * array of the operation is passed (an error otherwise). The element type is
 * the operation's; the descriptors are only read. */
IDTR_API void _idtr_wait_buffers(int64_t handle, IDTR_MEMREF(a), IDTR_MEMREF(b),
                                 IDTR_MEMREF(c));

/* Statistics of this process (since start or the last reset); see the
 * IDTR_STAT_* and IDTR_CNT_* constants. Invalid kind/counter -> error. */
IDTR_API int64_t _idtr_stats(int64_t kind, int64_t counter);
IDTR_API void _idtr_reset_stats(void);

/* Memory the runtime holds in this process now (IDTR_MEM_*; not reset by
 * _idtr_reset_stats): the cached plans and their bytes (records and transfer
 * lists), and the staging buffers of asynchronous operations (in use and
 * kept for reuse) and their peak since start. Invalid `what` -> error. */
#define IDTR_MEM_PLANS 0
#define IDTR_MEM_PLAN_BYTES 1
#define IDTR_MEM_STAGING_BYTES 2
#define IDTR_MEM_STAGING_PEAK 3
IDTR_API int64_t _idtr_memory(int64_t what);
/* Drop all cached plans (local, not collective). */
IDTR_API void _idtr_clear_cache(void);
/* Drop the cached plans of every kind (halo, reshape, permute, repartition)
 * stored under (team, key); nothing cached is a no-op. Local, not collective,
 * but like _idtr_clear_cache it must be called at the same point on all ranks
 * of the team (a rank with a cached plan skips the collective metadata
 * exchange). For a call site whose metadata is fixed within one execution of
 * a loop but may change between executions: forget its key before the loop,
 * the first call in the loop rebuilds the plan. key < 0 or an unknown team is
 * an error. Thread-safe. */
IDTR_API void _idtr_forget_plan(int64_t team, int64_t key);

/* ----- typed entry points -----------------------------------------------
 * For each suffix S / element type T the following functions exist
 * (shown for f64 / double). "(r,d)" is one memref argument.
 *
 * void    _idtr_reduce_all_f64(int64_t team, (r,d) data, int64_t op);
 *     In-place element-wise allreduce; `data` has the same shape on all ranks.
 *
 * void    _idtr_exscan_f64(int64_t team, (r,d) data, int64_t op);
 *     In-place element-wise exclusive scan over the ranks (MPI_Exscan): rank
 *     r receives the reduction of `data` of ranks 0..r-1, rank 0 the
 *     identity of `op` (0, 1, the type's max/+inf, min/-inf; for i1 and
 *     the logical ops as in reduce_all). Same shape on all ranks.
 *
 * int64_t _idtr_update_halo_f64(int64_t team, (r,d) data, (r,d) gshape,
 *             (r,d) loffs, (r,d) bb_offs, (r,d) bb_sizes, (r,d) lhalo,
 *             (r,d) rhalo, int64_t key);
 *     data: owned block; bounding box [bb_offs, bb_offs+bb_sizes) is the global
 *     region needed. lhalo/rhalo receive the rows of the bounding box before /
 *     after the owned rows (shape: rows x bb_sizes[1:]).  Async.
 *
 * int64_t _idtr_exchange_ghosts_f64(int64_t team, (r,d) buf, (r,d) gshape,
 *             (r,d) buf_offs, (r,d) own_offs, (r,d) own_sizes, (r,d) boxes,
 *             int64_t key);                                           Async.
 *     Ghost cells of any block distribution (blocks: boxes of the global
 *     index space that tile the array, e.g. a grid block of
 *     _idtr_grid_block), in place: `buf` holds global elements
 *     [buf_offs, buf_offs + buf sizes), among them this rank's owned block
 *     [own_offs, own_offs + own_sizes). `boxes` lists the global regions
 *     this rank reads (nboxes x (d offsets, d sizes)), each inside `buf`;
 *     their elements outside the owned block are received from their
 *     owners into `buf`. Messages go only between ranks whose blocks a box
 *     reaches: one per such neighbour, holding the bounding box of what it
 *     owns of the boxes (faces for a 5-point stencil's shifted views, plus
 *     corners when boxes reach diagonally, as a 9-point stencil's do).
 *     The owned block is read, not written; wait before reading the ghost
 *     cells or writing the owned block.
 *
 * int64_t _idtr_fetch_boxes_f64(int64_t team, (r,d) in, (r,d) gshape,
 *             (r,d) loffs_in, (r,d) boxes, (r,d) out, int64_t key);  Async.
 *     Several global boxes of an array in any block distribution at once
 *     (as many _idtr_repartition calls, in one operation with one wait):
 *     `boxes` lists them (nboxes x (d offsets, d sizes), the same count on
 *     every rank), `out` (rank 1, contiguous) receives them one after
 *     another, each row-major. One message per (owner, box it holds part
 *     of): the halo faces of a grid block come from its neighbours.
 *
 * int64_t _idtr_copy_reshape_f64(int64_t team, (r,d) in, (r,d) gshape_in,
 *             (r,d) loffs_in, (r,d) gshape_out, (r,d) loffs_out, (r,d) out,
 *             int64_t key);                                           Async.
 *
 * int64_t _idtr_copy_permute_f64(int64_t team, (r,d) in, (r,d) gshape_in,
 *             (r,d) loffs_in, (r,d) perm, (r,d) out, int64_t key);     Async.
 *     out = transpose(in, perm) (numpy axes semantics), split on dim 0.
 *
 * int64_t _idtr_repartition_f64(int64_t team, (r,d) in, (r,d) gshape,
 *             (r,d) loffs_in, (r,d) target_offs, (r,d) target_sizes,
 *             (r,d) out, int64_t key);                                Async.
 *     out receives the global box [target_offs, target_offs+target_sizes).
 *     The input may have any block distribution: `in` is this rank's block
 *     [loffs_in, loffs_in + in sizes) (the blocks of all ranks tile the
 *     array), so with target boxes of another block distribution this is a
 *     redistribution (e.g. rows to columns, rows to a 2-D grid) moving
 *     exactly the elements a rank does not own already, point to point
 *     between the ranks whose blocks intersect.
 *
 * void    _idtr_gather_f64(int64_t team, (r,d) in, (r,d) gshape, (r,d) loffs,
 *             (r,d) out, int64_t root);        root -1: all ranks.  Sync.
 *
 * void    _idtr_ragged_alltoall_f64(int64_t team, (r,d) send,
 *             (r,d) send_offsets, (r,d) send_sizes, (r,d) recv,
 *             (r,d) output_offsets, (r,d) recv_sizes);              Sync.
 *     Semantics of jax.lax.ragged_all_to_all: rows send[send_offsets[i] :
 *     +send_sizes[i]] go to rank i, which stores them at rows
 *     [output_offsets[i], +send_sizes[i]) of its recv buffer; recv_sizes[i]
 *     is the number of rows this rank receives from rank i.
 *
 * void    _idtr_sort_f64((r,d) data, int64_t axis, int64_t descending);
 *     Local stable sort of every lane of `data` along `axis`, in place;
 *     numpy's order (NaNs last; with `descending` the reverse, NaNs first,
 *     equal elements keep their order). Not collective.
 *
 * void    _idtr_argsort_f64((r,d) in, (r,d) out, int64_t axis,
 *             int64_t descending);
 *     out (int64, the shape of `in`) = the positions along `axis` that sort
 *     each lane of `in` (stable). Not collective.
 *
 * void    _idtr_sample_sort_f64(int64_t team, (r,d) in, int64_t offset,
 *             (r,d) out, (r,d) indices, int64_t descending);       Sync.
 *     Distributed stable sort of the 1-d array whose block on this rank is
 *     `in` (global rows [offset, offset + size), blocks in rank order):
 *     `out` receives this rank's block of the sorted values and/or
 *     `indices` (int64) the global positions of those elements in the
 *     input (argsort); either may be a null descriptor. The output blocks
 *     (any sizes, in rank order) must hold as many elements as the input.
 *     A sample sort: local sort, p-1 splitters from regular samples
 *     (allgather), one all-to-all of the (value, position) pairs to their
 *     bucket's rank, then point-to-point messages to the ranks whose output
 *     block overlaps the bucket.
 *
 * void    _idtr_ordered_reduce_f64(int64_t team, (r,d) in, int64_t offset,
 *             int64_t rows, int64_t op, (r,d) out);                  Sync.
 *     Floating point and complex types only (f64, f32, f16, bf16, c64,
 *     c128). out (1 x the other dimensions of `in`) = the sum (op 0) or
 *     product (op 1) over dimension 0 of the array of `rows` rows split over
 *     the team (blocks in rank order) whose block on this rank is `in`
 *     (global rows [offset, offset + size)), in an order fixed by the
 *     array: the pairwise tree of the global row indices (rows 2i and 2i+1,
 *     then those results pairwise, an odd last one passed up), combined
 *     with the identity at the end (+0.0 for sums), the tree one process's
 *     lowered code uses. The same bits on every number of ranks. Its
 *     subtrees of IDTR_ORDERED_BLOCK rows are computed where the block's
 *     first row is; the rank holding a block's first
 *     row receives the rest of it from the next ranks (less than a block
 *     per rank boundary); the block results go to every rank (one
 *     allgather).
 *
 * void    _idtr_take_f64(int64_t team, (r,d) in, int64_t offset,
 *             int64_t rows, (r,d) indices, (r,d) out);               Sync.
 *     out[j] = row indices[j] (global, negative ones from the end; out of
 *     range: an error naming the index and rank) of the array of `rows`
 *     rows split over the team, whose block on this rank is `in` (global
 *     rows [offset, offset + size)). Requests and replies each go through
 *     one all-to-all: the requested rows and their indices move.
 *
 * void    _idtr_put_f64(int64_t team, (r,d) data, int64_t offset,
 *             int64_t rows, (r,d) indices, (r,d) values,
 *             int64_t replicated);                                   Sync.
 *     In place: row indices[j] (global, negative from the end; out of
 *     range: an error) of the split array whose block on this rank is
 *     `data` becomes values[j]; later indices win, rank r's before rank
 *     r+1's (numpy's order for indices split in rank order). replicated
 *     != 0: all ranks pass all indices and values, each writes its rows
 *     (no communication); otherwise (index, row) pairs go to their owners
 *     through one all-to-all each.
 *
 * key >= 0 caches the communication plan under (kind, team, key); key < 0
 * means "do not cache". A cached key reused with different metadata is an
 * error unless _idtr_forget_plan(team, key) was called in between.
 */
/* Dense linear algebra (LAPACK) of ndarray.linalg, not collective:
 *
 * int64_t _idtr_linalg_f64(int64_t kind, int64_t flag, (r,d) a, (r,d) b,
 *             (r,d) out0, (r,d) out1, (r,d) out2);
 *     The routine `kind` (ndarray::LinalgKind: 0 cholesky, 1 solve, 2 inv,
 *     3 det, 4 slogdet, 5 eigh, 6 eigvalsh, 7 qr, 8 svd, 9 svdvals) on every
 *     matrix of the stack `a` (the last two dimensions; `b` the right-hand
 *     sides of solve), results written into out0..out2 (shapes and element
 *     types as the op's table in NDArrayReductionOps.td; eigenvalues,
 *     singular values and log|det| are real). `flag`: upper (cholesky),
 *     complete (qr), full matrices (svd). Buffers a kind does not use are
 *     not read. Returns the number of matrices the routine failed on
 *     (singular, not positive definite, no convergence). f32, f64, c64,
 *     c128. */
#define IDTR_DECLARE_LINALG(S, T)                                              \
  IDTR_API int64_t _idtr_linalg_##S(                                           \
      int64_t kind, int64_t flag, IDTR_MEMREF(a), IDTR_MEMREF(b),              \
      IDTR_MEMREF(out0), IDTR_MEMREF(out1), IDTR_MEMREF(out2));
IDTR_DECLARE_LINALG(f32, float)
IDTR_DECLARE_LINALG(f64, double)
IDTR_DECLARE_LINALG(c64, float)
IDTR_DECLARE_LINALG(c128, double)
#undef IDTR_DECLARE_LINALG

/* Dense linear algebra (ScaLAPACK) of distruntime.matrix_linalg, collective
 * over `team`:
 *
 * int64_t _idtr_matrix_linalg_f64(int64_t team, int64_t kind, int64_t flag,
 *             (r,d) a, (r,d) b, (r,d) out0, (r,d) out1, (r,d) out2);
 *     The routine `kind` (0 cholesky, 1 solve, 2 inv, 3 det, 4 slogdet,
 *     5 eigh, 6 eigvalsh, 7 qr) on
 *     the n x n matrix split on rows over the team whose rows of the
 *     default partition on this rank are `a` (`b`: the rows of solve's
 *     right-hand sides, n x k). out0 receives this rank's rows of the matrix
 *     result (L or, with `flag`, U; X; A^-1), the determinant (the sign
 *     for slogdet, whose log|det| goes to out1) or the eigenvalues (eigh's
 *     eigenvectors' rows go to out1), on every rank. qr (reduced) takes an
 *     m x n `a`: out0 gets this rank's rows of Q in its first k = min(m, n)
 *     columns, out1 its rows of R (the default partition of k rows).
 *     ScaLAPACK runs on the
 *     p x q grid of _idtr_grid_dims with blocks of IDTR_SCALAPACK_NB
 *     (default 64; at most ceil(n / max(p, q))); each matrix moves from the
 * rows to the block-cyclic layout and back by one MPI_Alltoallv. Returns the
 *     number of matrices the routine failed on (0 or 1), the same on every
 *     rank. f32, f64, c64, c128. */
#define IDTR_DECLARE_MATRIX_LINALG(S)                                          \
  IDTR_API int64_t _idtr_matrix_linalg_##S(                                    \
      int64_t team, int64_t kind, int64_t flag, IDTR_MEMREF(a),                \
      IDTR_MEMREF(b), IDTR_MEMREF(out0), IDTR_MEMREF(out1),                    \
      IDTR_MEMREF(out2));
IDTR_DECLARE_MATRIX_LINALG(f32)
IDTR_DECLARE_MATRIX_LINALG(f64)
IDTR_DECLARE_MATRIX_LINALG(c64)
IDTR_DECLARE_MATRIX_LINALG(c128)
#undef IDTR_DECLARE_MATRIX_LINALG

/* Discrete Fourier transforms (FFTW) of ndarray.fft, not collective:
 *
 * void    _idtr_fft_c128_c128(int64_t kind, int64_t axes, int64_t last,
 *             (r,d) in, (r,d) out);
 *     The unnormalized transform of `in` over the axes whose bits are set
 *     in `axes` (a multi-dimensional transform: one FFTW plan) into `out`
 *     (any layouts): kind 0 forward, 1 backward (complex to complex), 2 r2c
 *     (real in; n / 2 + 1 complex out along axis `last`, n its size in `in`:
 *     _idtr_fft_f64_c128), 3 c2r (n / 2 + 1 complex in along `last`, n real
 *     out, n the size of out along it: _idtr_fft_c128_f64). `last`, one of
 *     `axes`, is transformed last (the real axis). The input is not
 *     modified. Also c64_c64, f32_c64, c64_f32. */
#define IDTR_DECLARE_FFT(IN, OUT)                                              \
  IDTR_API void _idtr_fft_##IN##_##OUT(int64_t kind, int64_t axes,             \
                                       int64_t last, IDTR_MEMREF(in),          \
                                       IDTR_MEMREF(out));
IDTR_DECLARE_FFT(c64, c64)
IDTR_DECLARE_FFT(f32, c64)
IDTR_DECLARE_FFT(c64, f32)
IDTR_DECLARE_FFT(c128, c128)
IDTR_DECLARE_FFT(f64, c128)
IDTR_DECLARE_FFT(c128, f64)
#undef IDTR_DECLARE_FFT

/* Sorts: element types with an order (all but the complex ones). */
#define IDTR_DECLARE_SORT(S, T)                                                \
  IDTR_API void _idtr_sort_##S(IDTR_MEMREF(data), int64_t axis,                \
                               int64_t descending);                            \
  IDTR_API void _idtr_argsort_##S(IDTR_MEMREF(in), IDTR_MEMREF(out),           \
                                  int64_t axis, int64_t descending);           \
  IDTR_API void _idtr_sample_sort_##S(                                         \
      int64_t team, IDTR_MEMREF(in), int64_t offset, IDTR_MEMREF(out),         \
      IDTR_MEMREF(indices), int64_t descending);

#define IDTR_DECLARE_TYPED(S, T)                                               \
  IDTR_API void _idtr_reduce_all_##S(int64_t team, IDTR_MEMREF(data),          \
                                     int64_t op);                              \
  IDTR_API void _idtr_exscan_##S(int64_t team, IDTR_MEMREF(data), int64_t op); \
  IDTR_API int64_t _idtr_update_halo_##S(                                      \
      int64_t team, IDTR_MEMREF(data), IDTR_MEMREF(gshape),                    \
      IDTR_MEMREF(loffs), IDTR_MEMREF(bb_offs), IDTR_MEMREF(bb_sizes),         \
      IDTR_MEMREF(lhalo), IDTR_MEMREF(rhalo), int64_t key);                    \
  IDTR_API int64_t _idtr_exchange_ghosts_##S(                                  \
      int64_t team, IDTR_MEMREF(buf), IDTR_MEMREF(gshape),                     \
      IDTR_MEMREF(buf_offs), IDTR_MEMREF(own_offs), IDTR_MEMREF(own_sizes),    \
      IDTR_MEMREF(boxes), int64_t key);                                        \
  IDTR_API int64_t _idtr_fetch_boxes_##S(                                      \
      int64_t team, IDTR_MEMREF(in), IDTR_MEMREF(gshape),                      \
      IDTR_MEMREF(loffs_in), IDTR_MEMREF(boxes), IDTR_MEMREF(out),             \
      int64_t key);                                                            \
  IDTR_API int64_t _idtr_copy_reshape_##S(                                     \
      int64_t team, IDTR_MEMREF(in), IDTR_MEMREF(gshape_in),                   \
      IDTR_MEMREF(loffs_in), IDTR_MEMREF(gshape_out), IDTR_MEMREF(loffs_out),  \
      IDTR_MEMREF(out), int64_t key);                                          \
  IDTR_API int64_t _idtr_copy_permute_##S(                                     \
      int64_t team, IDTR_MEMREF(in), IDTR_MEMREF(gshape_in),                   \
      IDTR_MEMREF(loffs_in), IDTR_MEMREF(perm), IDTR_MEMREF(out),              \
      int64_t key);                                                            \
  IDTR_API int64_t _idtr_repartition_##S(                                      \
      int64_t team, IDTR_MEMREF(in), IDTR_MEMREF(gshape),                      \
      IDTR_MEMREF(loffs_in), IDTR_MEMREF(target_offs),                         \
      IDTR_MEMREF(target_sizes), IDTR_MEMREF(out), int64_t key);               \
  IDTR_API void _idtr_gather_##S(int64_t team, IDTR_MEMREF(in),                \
                                 IDTR_MEMREF(gshape), IDTR_MEMREF(loffs),      \
                                 IDTR_MEMREF(out), int64_t root);              \
  IDTR_API void _idtr_take_##S(int64_t team, IDTR_MEMREF(in), int64_t offset,  \
                               int64_t rows, IDTR_MEMREF(indices),             \
                               IDTR_MEMREF(out));                              \
  IDTR_API void _idtr_put_##S(int64_t team, IDTR_MEMREF(data), int64_t offset, \
                              int64_t rows, IDTR_MEMREF(indices),              \
                              IDTR_MEMREF(values), int64_t replicated);        \
  IDTR_API void _idtr_ragged_alltoall_##S(                                     \
      int64_t team, IDTR_MEMREF(send), IDTR_MEMREF(send_offsets),              \
      IDTR_MEMREF(send_sizes), IDTR_MEMREF(recv), IDTR_MEMREF(output_offsets), \
      IDTR_MEMREF(recv_sizes));

/* X-macros over the supported element types: X(suffix, C type). Ordered
 * types (everything but complex numbers): */
#define IDTR_FOR_EACH_ORDERED_TYPE(X)                                          \
  X(f64, double)                                                               \
  X(f32, float)                                                                \
  X(i64, int64_t)                                                              \
  X(i32, int32_t)                                                              \
  X(i16, int16_t)                                                              \
  X(i8, int8_t)                                                                \
  X(i1, uint8_t)                                                               \
  X(ui64, uint64_t)                                                            \
  X(ui32, uint32_t)                                                            \
  X(ui16, uint16_t)                                                            \
  X(ui8, uint8_t)                                                              \
  X(index, int64_t)                                                            \
  X(f16, uint16_t)                                                             \
  X(bf16, uint16_t)
/* All types: complex numbers (C's float/double _Complex, stored as two
 * floats: real, imaginary) as pairs of their component type. */
#define IDTR_FOR_EACH_TYPE(X)                                                  \
  IDTR_FOR_EACH_ORDERED_TYPE(X)                                                \
  X(c64, float)                                                                \
  X(c128, double)

/* Reproducible sums and products: the element types whose results depend
 * on the order of the operations. */
#define IDTR_DECLARE_ORDERED_REDUCE(S, T)                                      \
  IDTR_API void _idtr_ordered_reduce_##S(int64_t team, IDTR_MEMREF(in),        \
                                         int64_t offset, int64_t rows,         \
                                         int64_t op, IDTR_MEMREF(out));
#define IDTR_FOR_EACH_INEXACT_TYPE(X)                                          \
  X(f64, double)                                                               \
  X(f32, float)                                                                \
  X(f16, uint16_t)                                                             \
  X(bf16, uint16_t)                                                            \
  X(c64, float)                                                                \
  X(c128, double)

IDTR_FOR_EACH_TYPE(IDTR_DECLARE_TYPED)
IDTR_FOR_EACH_ORDERED_TYPE(IDTR_DECLARE_SORT)
IDTR_FOR_EACH_INEXACT_TYPE(IDTR_DECLARE_ORDERED_REDUCE)

#ifdef __cplusplus
} /* extern "C" */

/* ----- C++ helpers for MLIR memref descriptors -----------------------------
 */
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace idtr {

/* The C++ type of bf16 elements: the upper 16 bits of a float, converted by
 * hand (round to nearest even, NaNs kept quiet) because libgcc before GCC
 * 13 has no bfloat16 conversions. Arithmetic and comparisons go through
 * float. */
struct bfloat16 {
  uint16_t bits = 0;
  bfloat16() = default;
  bfloat16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
      bits = static_cast<uint16_t>((u >> 16) | 0x40u);
    else
      bits = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  operator float() const {
    uint32_t u = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  }
};

/* Read-only accessor for a ranked MLIR memref descriptor given as the
 * (rank, descriptor) pair of an unranked memref. Does not own anything. */
template <typename T> class MemRef {
public:
  MemRef(int64_t rank, const void *desc) : rank_(rank), desc_(desc) {}
  int64_t rank() const { return rank_; }
  const void *descriptor() const { return desc_; }
  T *allocated() const { return ptr(0); }
  T *aligned() const { return ptr(1); }
  int64_t offset() const { return word(2); }
  int64_t size(int64_t i) const { return word(3 + i); }
  int64_t stride(int64_t i) const { return word(3 + rank_ + i); }
  /* Pointer to element (0,...,0): aligned() + offset(). */
  T *data() const { return aligned() + offset(); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t i = 0; i < rank_; ++i)
      n *= size(i);
    return n;
  }
  /* Element at a multi-index of length rank(). */
  T &at(const int64_t *idx) const {
    int64_t o = offset();
    for (int64_t i = 0; i < rank_; ++i)
      o += idx[i] * stride(i);
    return aligned()[o];
  }
  T &operator()(std::initializer_list<int64_t> idx) const {
    return at(idx.begin());
  }
  /* Dense row-major layout (size-1 dimensions ignored)? */
  bool is_contiguous() const {
    int64_t expect = 1;
    for (int64_t i = rank_ - 1; i >= 0; --i) {
      if (size(i) == 0)
        return true;
      if (size(i) == 1)
        continue;
      if (stride(i) != expect)
        return false;
      expect *= size(i);
    }
    return true;
  }

private:
  int64_t word(int64_t i) const {
    int64_t v;
    std::memcpy(&v, static_cast<const char *>(desc_) + 8 * i, 8);
    return v;
  }
  T *ptr(int64_t i) const {
    T *p;
    std::memcpy(&p, static_cast<const char *>(desc_) + 8 * i, sizeof(p));
    return p;
  }
  int64_t rank_;
  const void *desc_;
};

/* Owns a ranked descriptor {allocated, aligned, offset, sizes, strides} that
 * refers to caller-owned memory, for C++ callers (tests, benchmarks, embedding
 * applications) that call the C ABI like lowered MLIR code does:
 *   idtr::Descriptor<double> d(ptr, {n, m});          // row-major
 *   _idtr_reduce_all_f64(1, d.rank(), d.get(), IDTR_OP_SUM); */
template <typename T> class Descriptor {
public:
  Descriptor() : Descriptor(nullptr, {}) {}
  /* Row-major contiguous view of `data` with the given sizes. */
  Descriptor(T *data, std::vector<int64_t> sizes)
      : Descriptor(data, data, 0, sizes, row_major(sizes)) {}
  Descriptor(T *allocated, T *aligned, int64_t offset,
             const std::vector<int64_t> &sizes,
             const std::vector<int64_t> &strides)
      : words_(3 + 2 * sizes.size()) {
    static_assert(sizeof(T *) == 8, "64-bit pointers expected");
    std::memcpy(&words_[0], &allocated, 8);
    std::memcpy(&words_[1], &aligned, 8);
    words_[2] = offset;
    for (size_t i = 0; i < sizes.size(); ++i) {
      words_[3 + i] = sizes[i];
      words_[3 + sizes.size() + i] = strides[i];
    }
  }
  int64_t rank() const { return static_cast<int64_t>((words_.size() - 3) / 2); }
  void *get() { return words_.data(); }
  MemRef<T> view() const { return MemRef<T>(rank(), words_.data()); }
  static std::vector<int64_t> row_major(const std::vector<int64_t> &sizes) {
    std::vector<int64_t> st(sizes.size());
    int64_t s = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
      st[i] = s;
      s *= sizes[i];
    }
    return st;
  }

private:
  std::vector<int64_t> words_;
};

/* An owning memref<?xindex> (rank-1 int64 vector) for passing index vectors. */
class IndexVec {
public:
  IndexVec(std::vector<int64_t> v = {})
      : v_(std::move(v)), d_(v_.data(), {static_cast<int64_t>(v_.size())}) {}
  IndexVec(std::initializer_list<int64_t> v)
      : IndexVec(std::vector<int64_t>(v)) {}
  IndexVec(const IndexVec &o) : IndexVec(o.v_) {}
  IndexVec &operator=(const IndexVec &o) {
    v_ = o.v_;
    d_ = Descriptor<int64_t>(v_.data(), {static_cast<int64_t>(v_.size())});
    return *this;
  }
  int64_t rank() const { return 1; }
  void *get() { return d_.get(); }
  const std::vector<int64_t> &values() const { return v_; }

private:
  std::vector<int64_t> v_;
  Descriptor<int64_t> d_;
};

} // namespace idtr
#endif /* __cplusplus */

#endif /* IDTR_IDTR_H */
