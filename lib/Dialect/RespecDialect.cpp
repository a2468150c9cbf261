//===- RespecDialect.cpp - The respec dialect -----------------------------===//

#include "respec/Dialect/RespecDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::respec;

#include "respec/Dialect/RespecOpsDialect.cpp.inc"

void RespecDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "respec/Dialect/RespecOps.cpp.inc"
      >();
}

/// A barrier synchronizes the iterations of a thread loop, so it must sit
/// inside one and name some of its induction variables.
LogicalResult BarrierOp::verify() {
  auto loop = (*this)->getParentOfType<scf::ParallelOp>();
  if (!loop)
    return emitOpError("must be nested in an scf.parallel thread loop");
  return success();
}

#define GET_OP_CLASSES
#include "respec/Dialect/RespecOps.cpp.inc"
