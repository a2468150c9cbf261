//===- BarrierIntrinsics.cpp - NVVM block barrier intrinsics --------------===//

#include "respec/Transforms/BarrierIntrinsics.h"

using namespace mlir::respec;

std::optional<BarrierIntrinsicKind>
mlir::respec::getBarrierIntrinsicKind(llvm::StringRef name) {
  if (!name.consume_front("llvm.nvvm.barrier"))
    return std::nullopt;
  // Cluster barriers, arrive-only forms and barriers over a thread count
  // synchronize something other than the whole block.
  if (name.contains("cluster") || name.contains("arrive") ||
      name.contains("count") || name.contains("cnt"))
    return BarrierIntrinsicKind::Unsupported;
  if (name.contains("popc"))
    return BarrierIntrinsicKind::Popc;
  if (name.contains(".and"))
    return BarrierIntrinsicKind::And;
  if (name.contains(".or"))
    return BarrierIntrinsicKind::Or;
  if (name == "0" || name == ".sync" || name.starts_with(".cta.sync"))
    return BarrierIntrinsicKind::Sync;
  return BarrierIntrinsicKind::Unsupported;
}
