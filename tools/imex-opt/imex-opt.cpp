//===- imex-opt.cpp - mlir-opt with the IMEX dialects and passes ----------===//

#include "imex/Tools/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  imex::registerEverything(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "IMEX optimizer driver\n", registry));
}
