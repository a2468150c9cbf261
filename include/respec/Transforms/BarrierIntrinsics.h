//===- BarrierIntrinsics.h - NVVM block barrier intrinsics ------*- C++ -*-===//
//
// The NVVM intrinsics clang emits for __syncthreads and its reducing forms,
// shared by the pass that raises them to respec ops and the CPU back end's
// diagnostics for barriers it cannot lower.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_BARRIERINTRINSICS_H
#define RESPEC_TRANSFORMS_BARRIERINTRINSICS_H

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

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_BARRIERINTRINSICS_H
