//===- BarrierIntrinsics.cpp - NVVM block barrier intrinsics --------------===//

#include "respec/Transforms/BarrierIntrinsics.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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

std::optional<WarpIntrinsicKind>
mlir::respec::getWarpIntrinsicKind(llvm::StringRef name) {
  if (!name.consume_front("llvm.nvvm."))
    return std::nullopt;
  // The ".p" shuffles also return whether the source lane was valid.
  if (name.consume_front("shfl.sync.")) {
    if (name.ends_with("p"))
      return std::nullopt;
    if (name.starts_with("idx."))
      return WarpIntrinsicKind::ShuffleIdx;
    if (name.starts_with("up."))
      return WarpIntrinsicKind::ShuffleUp;
    if (name.starts_with("down."))
      return WarpIntrinsicKind::ShuffleDown;
    if (name.starts_with("bfly."))
      return WarpIntrinsicKind::ShuffleXor;
    return std::nullopt;
  }
  if (name == "vote.ballot.sync")
    return WarpIntrinsicKind::Ballot;
  if (name == "vote.any.sync")
    return WarpIntrinsicKind::Any;
  if (name == "vote.all.sync")
    return WarpIntrinsicKind::All;
  if (name == "vote.uni.sync")
    return WarpIntrinsicKind::Uniform;
  if (name == "match.any.sync.i32" || name == "match.any.sync.i64")
    return WarpIntrinsicKind::MatchAny;
  if (name == "match.all.sync.i32p" || name == "match.all.sync.i64p")
    return WarpIntrinsicKind::MatchAll;
  if (name.starts_with("redux.sync."))
    return WarpIntrinsicKind::Reduce;
  if (name == "bar.warp.sync")
    return WarpIntrinsicKind::SyncWarp;
  if (name == "activemask")
    return WarpIntrinsicKind::ActiveMask;
  return std::nullopt;
}

std::optional<WarpIntrinsicKind>
mlir::respec::getWarpPrimitiveKind(Operation *op) {
  if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op))
    return getWarpIntrinsicKind(intrinsic.getIntrin());
  auto call = dyn_cast<LLVM::CallOp>(op);
  std::optional<StringRef> callee = call ? call.getCallee() : std::nullopt;
  if (callee && callee->starts_with(kWorkGroupShufflePrefix))
    return WarpIntrinsicKind::WorkGroupShuffle;
  return std::nullopt;
}

