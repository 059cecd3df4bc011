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
    integer or index), e.g. `ndarray.create(%n) value %v {dist.team = 1 : i64}`.
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
  }];
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Dist_DistEnvAttr : AttrDef<Dist_Dialect, "DistEnv", [
    DeclareAttrInterfaceMethods<NDArray_EnvironmentAttrInterface, [
      "isCompatibleEnvironment", "mayMixWithAbsentEnvironment",
      "getResultEnvironment", "verifyArrayType"]>]> {
  let mnemonic = "dist_env";
  let summary = "environment of an array distributed over a team";
  let description = [{
    Marks an `!ndarray.ndarray` as distributed over `team` (>= 1; 1 is
    `MPI_COMM_WORLD`): each rank of the team holds a block of rows of it
    (dimension 0; a 0-d array is replicated). The type says nothing about
    which rows a rank holds: that is known at run time only, so that one
    compiled module serves every rank and rank count. The ops of the dist
    dialect compute the partition (`dist.default_partition`, ...) and bind
    a rank's block to the array (`dist.init_dist_array`).

    ```mlir
    !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1>>
    !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
    ```

    As an ndarray environment: arrays of the same team may meet in one op;
    distributed and non-distributed (replicated) arrays may be combined; an
    inferred result keeps the team.

    Helpers (`Dist.h`): `getDistEnv(type)`, `isDist(type)`,
    `getLocalType(type)` (the type of a rank's block: dimension 0 dynamic,
    keeping other environments) and `withDistEnv(type, team)`.
  }];
  let parameters = (ins AttrParameter<"int64_t", "the team (>= 1)">:$team);
  let assemblyFormat = "`<` `team` `=` $team `>`";
  let genVerifyDecl = 1;
}

#endif // IMEX_DIALECT_DIST_IR_DISTBASE_TD
