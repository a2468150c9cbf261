//===- UnrollInterleave.h - Unroll-and-interleave of parallel loops -*- C++ -*-===//
//
// The one transformation behind thread and block coarsening: the body of a
// parallel loop is emitted several times ("copies"), each for a different
// original iteration, with the copies of each statement interleaved so that
// barriers stay aligned. Ops without barriers (or nested parallel loops) are
// simply cloned per copy; structured ops that contain them are emitted once,
// with the copies' values as extra results / loop-carried values, which
// requires their control to be the same in every copy.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_UNROLLINTERLEAVE_H
#define RESPEC_TRANSFORMS_UNROLLINTERLEAVE_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::respec {

/// True if `op` must be emitted once for all copies rather than once per
/// copy: it is or contains a barrier or a nested scf.parallel (the threads
/// of coarsened blocks must be the same threads).
bool needsInterleaving(Operation *op);

/// Checks that every op of `body` that needs interleaving can be: its kind
/// is supported and `isInvariant(op)` says its control (condition, bounds)
/// is the same in every copy. Returns the first offending op, or null.
Operation *findNonInterleavableOp(Block &body,
                                  function_ref<bool(Operation *)> isInvariant);

/// Emits the ops of `body` (without its terminator) at `builder`'s insertion
/// point once per mapping in `copies`, interleaved. Barriers are emitted
/// once with `barrierThreads` as operands (the induction variables of the
/// thread loop they synchronize), unless they sit inside a nested parallel
/// loop, whose merged induction variables they then use. The caller has
/// checked `findNonInterleavableOp`.
///
/// `copiesShareBlock` says whether the copies are threads of one block
/// (thread coarsening: block-wide reductions combine the copies) or
/// different blocks (block coarsening: each keeps its own).
///
/// `emitShared`, if set, is asked first for each op; returning true means it
/// emitted the op for every copy (and mapped its results) itself.
void emitInterleaved(
    OpBuilder &builder, Block &body, MutableArrayRef<IRMapping> copies,
    ValueRange barrierThreads, bool copiesShareBlock,
    function_ref<bool(OpBuilder &, Operation *, MutableArrayRef<IRMapping>)>
        emitShared = nullptr);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_UNROLLINTERLEAVE_H
