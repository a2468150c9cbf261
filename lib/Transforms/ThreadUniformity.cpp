//===- ThreadUniformity.cpp - Which values all threads agree on -----------===//
//
// Forward propagation from the divergent seeds (thread ids, memory reads)
// through data dependences and, for structured ops, through the values their
// regions yield. A divergent branch condition makes every result of the
// branch divergent (threads take different paths); a divergent loop exit
// condition makes the loop's results divergent (threads leave in different
// iterations).
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/ThreadUniformity.h"
#include "respec/Dialect/RespecDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::respec;

ThreadUniformity::ThreadUniformity(scf::ParallelOp threadLoop) {
  analyze(*threadLoop.getBody(), threadLoop.getInductionVars(),
          /*reductionsUniform=*/true);
}

ThreadUniformity::ThreadUniformity(Block &body, ValueRange seeds,
                                   bool reductionsUniform) {
  analyze(body, seeds, reductionsUniform);
}

void ThreadUniformity::analyze(Block &body, ValueRange seeds,
                               bool reductionsUniform) {
  for (Value seed : seeds)
    markDivergent(seed);
  body.walk([&](Operation *op) {
    if (op->getNumResults() == 0 ||
        (reductionsUniform && isa<ReduceBarrierOp>(op)))
      return;
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ForOp, scf::WhileOp>(op))
      return; // Decided by their operands and yields.
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      markResultsDivergent(op);
  });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses())
      propagate(use);
  }
}

void ThreadUniformity::markDivergent(Value value) {
  if (divergent.insert(value).second)
    worklist.push_back(value);
}

void ThreadUniformity::markResultsDivergent(Operation *op) {
  for (Value result : op->getResults())
    markDivergent(result);
}

void ThreadUniformity::propagate(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned index = use.getOperandNumber();
  if (auto yield = dyn_cast<scf::YieldOp>(user)) {
    Operation *parent = yield->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      markDivergent(forOp.getRegionIterArgs()[index]);
      markDivergent(forOp.getResult(index));
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      markDivergent(whileOp.getBeforeArguments()[index]);
    } else if (index < parent->getNumResults()) {
      markDivergent(parent->getResult(index));
    }
    return;
  }
  if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
    auto whileOp = cast<scf::WhileOp>(condition->getParentOp());
    if (index == 0) {
      markResultsDivergent(whileOp);
      return;
    }
    markDivergent(whileOp.getAfterArguments()[index - 1]);
    markDivergent(whileOp.getResult(index - 1));
    return;
  }
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    unsigned numControl = forOp.getNumControlOperands();
    if (index < numControl) {
      markDivergent(forOp.getInductionVar());
      for (Value arg : forOp.getRegionIterArgs())
        markDivergent(arg);
      markResultsDivergent(forOp);
      return;
    }
    markDivergent(forOp.getRegionIterArgs()[index - numControl]);
    markDivergent(forOp.getResult(index - numControl));
    return;
  }
  if (auto whileOp = dyn_cast<scf::WhileOp>(user)) {
    markDivergent(whileOp.getBeforeArguments()[index]);
    return;
  }
  // Branch conditions, and every operand of an ordinary op.
  markResultsDivergent(user);
}

bool ThreadUniformity::hasUniformControl(Operation *op) const {
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return isUniform(ifOp.getCondition());
  if (auto switchOp = dyn_cast<scf::IndexSwitchOp>(op))
    return isUniform(switchOp.getArg());
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return isUniform(forOp.getLowerBound()) &&
           isUniform(forOp.getUpperBound()) && isUniform(forOp.getStep());
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return isUniform(whileOp.getConditionOp().getCondition());
  if (auto parallel = dyn_cast<scf::ParallelOp>(op))
    return llvm::all_of(parallel.getLowerBound(),
                        [&](Value v) { return isUniform(v); }) &&
           llvm::all_of(parallel.getUpperBound(),
                        [&](Value v) { return isUniform(v); }) &&
           llvm::all_of(parallel.getStep(),
                        [&](Value v) { return isUniform(v); });
  return false;
}
