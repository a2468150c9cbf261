//===- respec-opt.cpp - Pass driver for respec's tests ---------------------===//
//
// mlir-opt with respec's dialect and passes, plus the upstream dialects and
// passes the respec pipelines use.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::respec::RespecDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::DLTIDialect,
                  mlir::func::FuncDialect, mlir::index::IndexDialect,
                  mlir::LLVM::LLVMDialect, mlir::NVVM::NVVMDialect,
                  mlir::memref::MemRefDialect, mlir::omp::OpenMPDialect,
                  mlir::scf::SCFDialect>();
  mlir::respec::registerRespecPasses();
  mlir::respec::registerRespecPipelines();
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "respec pass driver\n", registry));
}
