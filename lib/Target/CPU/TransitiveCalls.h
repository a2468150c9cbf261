//===- TransitiveCalls.h - Functions that reach an operation ----*- C++ -*-===//
//
// Which functions of a module may, directly or through the functions they
// call, run an operation of interest (a barrier, a call of the runtime's
// shared memory): passes that look at a kernel's body use it to judge the
// calls in it.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_LIB_TARGET_CPU_TRANSITIVECALLS_H
#define RESPEC_LIB_TARGET_CPU_TRANSITIVECALLS_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::respec {

/// Names of the functions in `seeds`, and of the module's functions that
/// contain an op for which `matches` holds or a call of a function named
/// here, to a fixed point over the call graph.
llvm::DenseSet<StringRef>
findFunctionsReaching(ModuleOp module, ArrayRef<StringRef> seeds,
                      llvm::function_ref<bool(Operation *)> matches);

/// True if `op` is a direct call of one of `functions`.
bool isCallToAnyOf(Operation *op, const llvm::DenseSet<StringRef> &functions);

} // namespace mlir::respec

#endif // RESPEC_LIB_TARGET_CPU_TRANSITIVECALLS_H
