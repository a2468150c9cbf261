//===- RespecDialect.h - The respec dialect ---------------------*- C++ -*-===//

#ifndef RESPEC_DIALECT_RESPECDIALECT_H
#define RESPEC_DIALECT_RESPECDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "respec/Dialect/RespecOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "respec/Dialect/RespecOps.h.inc"

namespace mlir::respec {

/// On the op that allocates memory (llvm.alloca, or the runtime call for a
/// block-scope array): memory of which each thread only touches its own part
/// (per-thread copies made by barrier lowering).
inline constexpr llvm::StringLiteral kThreadPrivateAttr =
    "respec.thread_private";

/// On a block-level load of thread 0's entry in a per-thread copy: a value
/// every thread of the block computed alike (uniform control of barrier
/// lowering), which any thread's entry would give.
inline constexpr llvm::StringLiteral kThreadZeroEntryAttr =
    "respec.thread_zero_entry";

/// On respec.barrier: made for a warp-level primitive (its synchronization
/// stands for the warp's, not a __syncthreads of the user's).
inline constexpr llvm::StringLiteral kWarpSyncAttr = "respec.warp_sync";

/// On respec.barrier: placed by respec-interchange-serial-loops to run the
/// threads inside a serial loop (not a __syncthreads of the user's).
inline constexpr llvm::StringLiteral kInterchangeAttr = "respec.interchange";

/// True for respec.barrier and respec.reduce_barrier.
bool isBarrierLike(Operation *op);

/// True if `op` is or contains a barrier.
bool containsBarrier(Operation *op);

/// True if `address` provably points into memory only the current iteration
/// of `threadLoop` uses: an alloca inside the loop, or a per-thread copy.
bool isThreadPrivateAddress(Value address, scf::ParallelOp threadLoop);

/// The memory effects of the code between `barrier` and the previous
/// (`after` false) or next (`after` true) barrier of its thread loop
/// (loops around the barrier count whole), without accesses to memory
/// private to the thread. False if some op there has unknown effects.
bool getBarrierIntervalEffects(
    Operation *barrier, bool after,
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects);

} // namespace mlir::respec

#endif // RESPEC_DIALECT_RESPECDIALECT_H
