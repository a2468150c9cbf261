//===- ThreadUniformity.h - Which values all threads agree on ---*- C++ -*-===//
//
// A divergence analysis over one thread loop: a value is uniform when every
// thread of the block computes the same value for it. Barrier lowering may
// evaluate the control of a structured op once for the whole block only when
// that control is uniform; divergent control around a barrier is lowered
// with per-thread guards instead.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_THREADUNIFORMITY_H
#define RESPEC_TRANSFORMS_THREADUNIFORMITY_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::respec {

class ThreadUniformity {
public:
  /// Analyzes the body of `threadLoop`. Conservative: loads, calls and other
  /// ops with memory effects are divergent (memory may differ per thread);
  /// pure ops of uniform operands, values defined outside the loop and the
  /// results of block-wide reductions are uniform.
  explicit ThreadUniformity(scf::ParallelOp threadLoop);

  /// The same analysis over `body` with `seeds` as the values that differ
  /// between the instances compared (e.g. the block ids when asking which
  /// values all blocks agree on). Results of block-wide reductions are
  /// uniform only if `reductionsUniform` (they agree among the threads of
  /// one block, not between blocks).
  ThreadUniformity(Block &body, ValueRange seeds, bool reductionsUniform);

  bool isUniform(Value value) const { return !divergent.contains(value); }

  /// True if the condition, switch value or loop bounds that decide which
  /// regions of `op` run (and how often) are uniform (for a nested
  /// scf.parallel: its bounds and steps).
  bool hasUniformControl(Operation *op) const;

private:
  void analyze(Block &body, ValueRange seeds, bool reductionsUniform);
  void markDivergent(Value value);
  void markResultsDivergent(Operation *op);
  void propagate(OpOperand &use);

  llvm::DenseSet<Value> divergent;
  SmallVector<Value> worklist;
};

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_THREADUNIFORMITY_H
