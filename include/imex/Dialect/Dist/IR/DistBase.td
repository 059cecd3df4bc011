//===- DistBase.td - dist dialect and attributes ---------------*- tablegen -*-//
//
// The `dist` dialect: arrays distributed over the ranks of a team.
//
//===----------------------------------------------------------------------===//

#ifndef IMEX_DIALECT_DIST_IR_DISTBASE_TD
#define IMEX_DIALECT_DIST_IR_DISTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "imex/Dialect/NDArray/IR/NDArrayInterfaces.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::imex::dist";
  let summary = "Arrays distributed over the ranks of a team";
  let description = [{
    A *distributed array* is an `!ndarray.ndarray` whose type carries a
    `#dist.dist_env`. It has a global shape and belongs to a *team* of MPI
    ranks (team 1 is `MPI_COMM_WORLD`). It is split along dimension 0 into
    contiguous blocks in rank order; every rank holds the complete extent of
    dimensions 1.. of its rows, and a rank may own no rows.

    On each rank a distributed array has an *owned block*: the rows this
    rank is responsible for (possibly none), starting at the global row
    given by its *local offset*. It may also hold *halos*: read-only copies
    of rows owned by other ranks that an operation needs, before and after
    the owned block, brought in by `dist.repartition`. The rows a rank holds
    (halos and owned block) are a contiguous range of global rows. 0-d
    distributed arrays are replicated: the value, identical on all ranks.
    `convert-dist-to-standard` stores them in one local buffer per array
    and rank, with ghost cells for the halos (docs/distribution.md).

    The ops of this dialect bind an owned block into a distributed array
    and take it apart (`dist.init_dist_array`, `dist.owned_block_of`,
    `dist.held_block_of`, `dist.local_offsets_of`),
    compute the index ranges the distribution induces
    (`dist.default_partition`, `dist.local_target_of_slice`,
    `dist.local_bounding_box`, `dist.local_core`; they fold on constants and
    expand to `arith` with `dist-expand-index-ops`), and move data between
    ranks (`dist.repartition`).

    Ops that create distributed arrays before `ndarray-dist` runs carry the
    team as the discardable attribute `dist.team` (a positive signless
    integer or index), e.g. `ndarray.create(%n) value %v {dist.team = 1 : i64}`,
    and optionally the distribution as `dist.split = array<i64: 0, 1>` and
    `dist.grid = array<i64: 2, 2>` (see `#dist.dist_env`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::imex::ndarray::NDArrayDialect"];
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute naming the team of an array created by the
    /// op it is attached to.
    static ::llvm::StringRef getTeamAttrName() { return "dist.team"; }
    /// Beside `dist.team`: the split axes and the grid of the created array
    /// (`array<i64: ...>`, the `split` and `grid` of its `#dist.dist_env`).
    static ::llvm::StringRef getSplitAttrName() { return "dist.split"; }
    static ::llvm::StringRef getGridAttrName() { return "dist.grid"; }
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Dist_DistEnvAttr : AttrDef<Dist_Dialect, "DistEnv", [
    DeclareAttrInterfaceMethods<NDArray_EnvironmentAttrInterface, [
      "isCompatibleEnvironment", "mayMixWithAbsentEnvironment",
      "getResultEnvironment", "getReducedEnvironment",
      "verifyArrayType"]>]> {
  let mnemonic = "dist_env";
  let summary = "environment of an array distributed over a team";
  let description = [{
    Marks an `!ndarray.ndarray` as distributed over `team` (>= 1; 1 is
    `MPI_COMM_WORLD`) and says how: the axes in `split` (strictly
    increasing, each below the array's rank; default `[0]`, the rows) are
    split in blocks over a Cartesian grid of ranks with one grid dimension
    per split axis. `grid` gives the grid's shape (one entry >= 1 per split
    axis); without it the grid is factored from the team's size at run
    time as `MPI_Dims_create` does (`_idtr_grid_dims`), so that one
    compiled module serves every rank count. A 0-d array is replicated and
    has the default distribution.

    ```mlir
    !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    !ndarray.ndarray<16x?xf64, #dist.dist_env<team = 1, split = [1]>>
    !ndarray.ndarray<?x?xf64, #dist.dist_env<team = 1, split = [0, 1]>>
    !ndarray.ndarray<?x?x8xf32, #dist.dist_env<team = 1, split = [0, 1], grid = [2, 3]>>
    !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
    ```

    Rank `r` of the grid has grid coordinates `r` in row-major order (as
    `MPI_Cart_create`); along split axis `k` with grid size `p` and
    coordinate `c`, it owns the block of the default partition of that
    axis (`dist.default_partition`); ranks beyond the grid own nothing.
    The type says nothing about which block a rank holds: that is known at
    run time only. The ops of the dist dialect compute the partition and
    bind a rank's block to the array (`dist.init_dist_array`).

    As an ndarray environment: arrays of the same team and distribution may
    meet in one op (`dist.redistribute` converts between distributions);
    distributed and non-distributed (replicated) arrays may be combined; an
    inferred result keeps the environment where its rank has the split
    axes, else gets the default distribution.

    Helpers (`Dist.h`): `getDistEnv(type)`, `isDist(type)`,
    `getLocalType(type)` (the type of a rank's block: split axes dynamic,
    keeping other environments), `withDistEnv(type, team)` and
    `withDistEnv(type, env)`.
  }];
  let parameters = (ins
    AttrParameter<"int64_t", "the team (>= 1)">:$team,
    ArrayRefParameter<"int64_t", "the split axes">:$split,
    ArrayRefParameter<"int64_t", "the grid shape (empty: at run time)">:$grid);
  let builders = [
    AttrBuilder<(ins "int64_t":$team), [{
      static constexpr int64_t kRows[] = {0};
      return $_get($_ctxt, team, ::llvm::ArrayRef<int64_t>(kRows),
                   ::llvm::ArrayRef<int64_t>());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the rows (only dimension 0) are split, the grid chosen at run
    /// time: the distribution `#dist.dist_env<team = T>` denotes.
    bool isDefaultDistribution() const;
    /// The default distribution over the same team.
    DistEnvAttr getDefault() const;
  }];
}

#endif // IMEX_DIALECT_DIST_IR_DISTBASE_TD
