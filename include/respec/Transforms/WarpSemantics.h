//===- WarpSemantics.h - PTX's definitions of warp primitives ---*- C++ -*-===//
//
// The results of warp primitives as PTX defines them, built as arith ops on
// i32 values. Both implementations of warp primitives on the CPU (the
// barrier emulation and interleaved lanes) use them.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_WARPSEMANTICS_H
#define RESPEC_TRANSFORMS_WARPSEMANTICS_H

#include "respec/Transforms/BarrierIntrinsics.h"

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir::respec {

/// shfl.sync's source lane for lane `lane` (i32): {source (i32), valid
/// (i1)}. `laneOperand` is b (only b[4:0] counts), `clampOperand` is c:
/// c[12:8] masks the lane bits that select the segment, c[4:0] is the
/// highest lane of the segment (the lowest, for up). A lane whose source is
/// not valid keeps its own value; a valid source is in 0..31. The three
/// operands may also be vectors of i32 with one element per lane; the
/// results are then vectors too.
std::pair<Value, Value> buildShuffleSource(OpBuilder &b, Location loc,
                                           WarpIntrinsicKind kind, Value lane,
                                           Value laneOperand,
                                           Value clampOperand);

/// The neutral element and the combination of __reduce_<op>_sync (i32),
/// `op` being the redux.sync intrinsic's suffix (add, min, max, umin, umax,
/// and, or, xor).
Value buildReduceIdentity(OpBuilder &b, Location loc, StringRef op);
Value buildReduceCombine(OpBuilder &b, Location loc, StringRef op, Value acc,
                         Value value);

/// __match_all_sync's result, a `structType` {i32 mask, i1 predicate}: the
/// participating lanes and true if `equalLanes` (the participants holding
/// the calling lane's value) are all of them, else {0, false}.
Value buildMatchAllResult(OpBuilder &b, Location loc, Type structType,
                          Value equalLanes, Value participants);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_WARPSEMANTICS_H
