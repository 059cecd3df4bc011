//===- RegionOps.td - region dialect --------------------------*- tablegen -*-//

#ifndef IMEX_DIALECT_REGION_IR_REGIONOPS_TD
#define IMEX_DIALECT_REGION_IR_REGIONOPS_TD

include "imex/Dialect/NDArray/IR/NDArrayBase.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Region_Dialect : Dialect {
  let name = "region";
  let cppNamespace = "::imex::region";
  let summary = "Regions that carry an environment across passes";
  let description = [{
    `region.env_region` wraps operations that must execute in an environment,
    such as a GPU device, so that later passes (e.g. `convert-region-to-gpu`)
    can act on them. Attributes on individual ops do not survive most
    rewrites; a region around them does.
  }];
  let useDefaultAttributePrinterParser = 1;
}

def Region_GPUEnvAttr : AttrDef<Region_Dialect, "GPUEnv",
    [NDArray_EnvironmentAttrInterface]> {
  let mnemonic = "gpu_env";
  let summary = "environment of arrays that live on a GPU device";
  let description = [{
    `device` names the device in the syntax of the GPU runtime (e.g. a SYCL
    filter string or `cuda:0`). Arrays on different devices cannot meet in
    one op, nor can a host array and a device array.

    ```mlir
    !ndarray.ndarray<16xf32, #region.gpu_env<device = "cuda:0">>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$device);
  let assemblyFormat = "`<` struct(params) `>`";
}

class Region_Op<string mnemonic, list<Trait> traits = []>
    : Op<Region_Dialect, mnemonic, traits>;

def Region_EnvRegionOp : Region_Op<"env_region", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    SingleBlockImplicitTerminator<"EnvRegionYieldOp">,
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "operations executed in an environment";
  let description = [{
    Executes its single block once, in `environment`, and returns the values
    yielded by `region.env_region_yield`. `args` name the values the region
    operates on (e.g. arrays on a device); the region is not isolated from
    above, so it may use any dominating value.

    ```mlir
    %r = region.env_region #region.gpu_env<device = "cuda:0"> %a : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">> {
      %b = ndarray.ewuny sqrt %a : ...
      region.env_region_yield %b : !ndarray.ndarray<4xf32, #region.gpu_env<device = "cuda:0">>
    }
    ```

    Canonicalization merges adjacent regions with equal environments, removes
    empty regions, and drops results that are unused, duplicated, or defined
    outside the region.
  }];
  let arguments = (ins AnyAttr:$environment, Variadic<AnyType>:$args);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = [{
    $environment ($args^ `:` type($args))? (`->` type($results)^)? $region
    attr-dict
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::Attribute":$environment,
                   CArg<"::mlir::ValueRange", "{}">:$args,
                   CArg<"::mlir::TypeRange", "{}">:$resultTypes)>
  ];
  let extraClassDeclaration = [{
    /// The terminator of the body.
    EnvRegionYieldOp getYield();
    /// Replaces `op` by the contents of its body.
    static void inlineIntoParent(::mlir::RewriterBase &rewriter,
                                 EnvRegionOp op);
  }];
}

def Region_EnvRegionYieldOp : Region_Op<"env_region_yield", [
    Pure, ReturnLike, Terminator, HasParent<"EnvRegionOp">]> {
  let summary = "return values from a region.env_region";
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ /* nothing to do */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

#endif // IMEX_DIALECT_REGION_IR_REGIONOPS_TD
