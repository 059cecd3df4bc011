// Parses an ndarray type and op with the dialects found via find_package.
#include "imex/Dialect/NDArray/IR/NDArray.h"
#include "imex/Dialect/Region/IR/Region.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::MLIRContext context;
  context.loadDialect<imex::ndarray::NDArrayDialect,
                      imex::region::RegionDialect, mlir::func::FuncDialect>();
  const char *source = R"mlir(
    func.func @f(%a: !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>) {
      %0 = ndarray.ewuny sqrt %a : !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">> -> !ndarray.ndarray<4xf32, #region.gpu_env<device = "gpu">>
      return
    })mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  if (!module)
    return 1;
  module->print(llvm::outs());
  return 0;
}
