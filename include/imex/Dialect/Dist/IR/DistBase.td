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

    On each rank a distributed array is three local arrays, the *parts*:

        left halo | owned block | right halo

    whose concatenation along dimension 0 is a contiguous range of global
    rows starting at the array's *local offset* (the global index of the
    first row of the left halo). The owned block is the data this rank is
    responsible for; halos are read-only copies of rows owned by other ranks
    that an operation needs. Any part may have zero rows. 0-d distributed
    arrays are replicated: one part, the value, identical on all ranks.

    The ops of this dialect bind parts into distributed arrays and take them
    apart (`dist.init_dist_array`, `dist.parts_of`, `dist.local_offsets_of`),
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
    `MPI_COMM_WORLD`) and describes this rank's share of it:

    * `loffs`: the local offsets, one per dimension: the global index of the
      first row of the left halo on dimension 0, and 0 on dimensions 1..;
    * `lparts`: the shapes of the three parts (left halo, owned block, right
      halo), each with one size per dimension. Sizes on dimensions 1.. equal
      the array's (every rank holds whole rows).

    Offsets and sizes may be static or dynamic (`?`). A 0-d array has no
    offsets and no part shapes (it is replicated: one part, the value).

    ```mlir
    !ndarray.ndarray<?x16xf64, #dist.dist_env<team = 1 loffs = ?,0 lparts = ?x16,?x16,?x16>>
    !ndarray.ndarray<10xi64, #dist.dist_env<team = 1 loffs = 3 lparts = 1,4,0>>
    !ndarray.ndarray<f64, #dist.dist_env<team = 1>>
    ```

    As an ndarray environment: arrays of the same team may meet in one op;
    distributed and non-distributed (replicated) arrays may be combined; an
    inferred result gets `getDynamic(team, shape)` (team only, offsets and
    part sizes on dimension 0 dynamic). The array type checks that the rank
    equals the array's, that the part sizes on dimensions 1.. agree with the
    array's where both are static, and that the local offset plus the static
    row counts of the parts do not exceed a static global size.

    Helpers (`Dist.h`): `getDistEnv(type)`, `isDist(type)`,
    `getPartType(type, part)` (the local array type of a part, keeping other
    environments) and `withDistEnv(type, team)`.
  }];
  let parameters = (ins
    AttrParameter<"int64_t", "the team (>= 1)">:$team,
    ArrayRefParameter<"int64_t",
      "local offset per dimension (`loffs`)">:$localOffsets,
    ArrayRefParameter<"int64_t", "the 3 part shapes (`lparts`), flattened: "
      "left halo, owned block, right halo">:$partSizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The environment of a freshly distributed array of `globalShape` whose
    /// partition is not known statically: local offsets `?, 0, 0, ...` and
    /// parts `?` on dimension 0 and the global sizes on dimensions 1...
    static DistEnvAttr getDynamic(::mlir::MLIRContext *context, int64_t team,
                                  ::llvm::ArrayRef<int64_t> globalShape);
    /// The rank of the arrays this environment describes.
    int64_t getRank() const { return getLocalOffsets().size(); }
    /// The shape of part `part` (0: left halo, 1: owned block, 2: right
    /// halo); empty for 0-d arrays and for `part` > 2.
    ::llvm::SmallVector<int64_t> getPartShape(unsigned part) const;
  }];
}

#endif // IMEX_DIALECT_DIST_IR_DISTBASE_TD
