//===- CrossingValues.h - Values kept across a barrier ----------*- C++ -*-===//
//
// When a thread loop is split at a barrier, values computed before the split
// and used after it must reach the second loop: either kept in memory, one
// slot per thread, or recomputed from values that are. Choosing the kept set
// with the fewest bytes is a minimum cut of the SSA graph (Polygeist,
// PPoPP'23 §4.3): each value is a node of capacity "its size in bytes", the
// values that cannot be recomputed hang off the source, the values used after
// the split off the sink.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_CROSSINGVALUES_H
#define RESPEC_TRANSFORMS_CROSSINGVALUES_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::respec {

struct CrossingPlan {
  /// Values to keep in memory, in program order.
  llvm::SetVector<Value> stored;
  /// Ops to clone after the split, in program order.
  SmallVector<Operation *> recomputed;
};

/// Plans how the `needed` values, each defined by an op directly in
/// `producer`, reach the code after the split. `isRecomputable` says which
/// ops may be cloned (they must be side-effect free or read memory nobody
/// writes in between); operands defined outside `producer` or as its block
/// arguments are available after the split for free. With `minimize` false,
/// every needed value is stored (the reference behaviour for differential
/// testing).
CrossingPlan planCrossingValues(Block *producer, ArrayRef<Value> needed,
                                function_ref<bool(Operation *)> isRecomputable,
                                function_ref<int64_t(Value)> sizeInBytes,
                                bool minimize);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_CROSSINGVALUES_H
