//===- TransitiveCalls.cpp - Functions that reach an operation ------------===//

#include "TransitiveCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

llvm::DenseSet<StringRef> mlir::respec::findFunctionsReaching(
    ModuleOp module, ArrayRef<StringRef> seeds,
    llvm::function_ref<bool(Operation *)> matches) {
  llvm::DenseSet<StringRef> reaching(seeds.begin(), seeds.end());
  auto reaches = [&](Operation *op) {
    return matches(op) || isCallToAnyOf(op, reaching);
  };
  // Call graphs of device code are small: iterate until no function joins.
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (reaching.contains(func.getName()))
        return;
      if (func.walk([&](Operation *op) {
                return reaches(op) ? WalkResult::interrupt()
                                   : WalkResult::advance();
              })
              .wasInterrupted()) {
        reaching.insert(func.getName());
        changed = true;
      }
    });
  }
  return reaching;
}

bool mlir::respec::isCallToAnyOf(Operation *op,
                                 const llvm::DenseSet<StringRef> &functions) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  std::optional<StringRef> callee = call ? call.getCallee() : std::nullopt;
  return callee && functions.contains(*callee);
}
