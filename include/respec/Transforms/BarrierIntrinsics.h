//===- BarrierIntrinsics.h - NVVM block barrier intrinsics ------*- C++ -*-===//
//
// The NVVM intrinsics clang emits for __syncthreads and its reducing forms,
// and for warp-level primitives, shared by the passes that raise and lower
// them.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_BARRIERINTRINSICS_H
#define RESPEC_TRANSFORMS_BARRIERINTRINSICS_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::respec {

enum class BarrierIntrinsicKind {
  Sync,        ///< __syncthreads, bar.sync on all threads of the block
  Popc,        ///< __syncthreads_count
  And,         ///< __syncthreads_and
  Or,          ///< __syncthreads_or
  Unsupported, ///< named barriers with a thread count, arrive, clusters
};

/// Classifies an `llvm.nvvm.*` intrinsic name; nullopt if it is not a block
/// barrier.
std::optional<BarrierIntrinsicKind> getBarrierIntrinsicKind(llvm::StringRef name);

/// Warp-level NVVM intrinsics the CPU back end implements.
enum class WarpIntrinsicKind {
  ShuffleIdx,  ///< __shfl_sync
  ShuffleUp,   ///< __shfl_up_sync
  ShuffleDown, ///< __shfl_down_sync
  ShuffleXor,  ///< __shfl_xor_sync
  Ballot,      ///< __ballot_sync
  Any,         ///< __any_sync
  All,         ///< __all_sync
  Uniform,     ///< __uni_sync
  MatchAny,    ///< __match_any_sync
  MatchAll,    ///< __match_all_sync
  Reduce,      ///< __reduce_{add,min,max,and,or,xor}_sync
  SyncWarp,    ///< __syncwarp
  ActiveMask,  ///< __activemask (only where warps run as interleaved lanes)
  /// OpenCL C `shuffle(value, lane)` of respec's built-ins: a shuffle whose
  /// segment is the whole work-group (block).
  WorkGroupShuffle,
};

/// Callee prefix of the work-group shuffle (`_i32`, `_i64` suffixes).
inline constexpr llvm::StringLiteral kWorkGroupShufflePrefix =
    "__respec_work_group_shuffle_";

/// Classifies an `llvm.nvvm.*` intrinsic name; nullopt if it is not a warp
/// primitive the CPU back end implements (those are diagnosed later).
std::optional<WarpIntrinsicKind> getWarpIntrinsicKind(llvm::StringRef name);

/// The warp (or work-group) primitive `op` calls: an NVVM intrinsic call or
/// a call of the work-group shuffle.
std::optional<WarpIntrinsicKind> getWarpPrimitiveKind(Operation *op);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_BARRIERINTRINSICS_H
