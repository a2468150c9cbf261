//===- LegacyWarpIntrinsics.cpp - Warp primitives without a mask ----------===//
//
// See LegacyWarpIntrinsics.h. `__shfl_down(v, 1)` becomes
// `__shfl_down_sync(mask, v, 1)`: the same operands after the mask, for
// the value-only and the value-and-predicate forms alike.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/LegacyWarpIntrinsics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

#include <optional>

using namespace llvm;

namespace respec {

/// The _sync intrinsic that replaces the unsynchronized intrinsic `id`.
static std::optional<Intrinsic::ID> synchronizedForm(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::nvvm_shfl_down_i32:
    return Intrinsic::nvvm_shfl_sync_down_i32;
  case Intrinsic::nvvm_shfl_down_f32:
    return Intrinsic::nvvm_shfl_sync_down_f32;
  case Intrinsic::nvvm_shfl_down_i32p:
    return Intrinsic::nvvm_shfl_sync_down_i32p;
  case Intrinsic::nvvm_shfl_down_f32p:
    return Intrinsic::nvvm_shfl_sync_down_f32p;
  case Intrinsic::nvvm_shfl_up_i32:
    return Intrinsic::nvvm_shfl_sync_up_i32;
  case Intrinsic::nvvm_shfl_up_f32:
    return Intrinsic::nvvm_shfl_sync_up_f32;
  case Intrinsic::nvvm_shfl_up_i32p:
    return Intrinsic::nvvm_shfl_sync_up_i32p;
  case Intrinsic::nvvm_shfl_up_f32p:
    return Intrinsic::nvvm_shfl_sync_up_f32p;
  case Intrinsic::nvvm_shfl_bfly_i32:
    return Intrinsic::nvvm_shfl_sync_bfly_i32;
  case Intrinsic::nvvm_shfl_bfly_f32:
    return Intrinsic::nvvm_shfl_sync_bfly_f32;
  case Intrinsic::nvvm_shfl_bfly_i32p:
    return Intrinsic::nvvm_shfl_sync_bfly_i32p;
  case Intrinsic::nvvm_shfl_bfly_f32p:
    return Intrinsic::nvvm_shfl_sync_bfly_f32p;
  case Intrinsic::nvvm_shfl_idx_i32:
    return Intrinsic::nvvm_shfl_sync_idx_i32;
  case Intrinsic::nvvm_shfl_idx_f32:
    return Intrinsic::nvvm_shfl_sync_idx_f32;
  case Intrinsic::nvvm_shfl_idx_i32p:
    return Intrinsic::nvvm_shfl_sync_idx_i32p;
  case Intrinsic::nvvm_shfl_idx_f32p:
    return Intrinsic::nvvm_shfl_sync_idx_f32p;
  case Intrinsic::nvvm_vote_all:
    return Intrinsic::nvvm_vote_all_sync;
  case Intrinsic::nvvm_vote_any:
    return Intrinsic::nvvm_vote_any_sync;
  case Intrinsic::nvvm_vote_uni:
    return Intrinsic::nvvm_vote_uni_sync;
  case Intrinsic::nvvm_vote_ballot:
    return Intrinsic::nvvm_vote_ballot_sync;
  default:
    return std::nullopt;
  }
}

bool upgradeUnsynchronizedWarpIntrinsics(Module &module, bool forGPU) {
  SmallVector<IntrinsicInst *> calls;
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<IntrinsicInst>(&instruction))
        if (synchronizedForm(call->getIntrinsicID()))
          calls.push_back(call);
  for (IntrinsicInst *call : calls) {
    IRBuilder<> builder(call);
    Value *mask =
        forGPU ? static_cast<Value *>(builder.CreateIntrinsic(
                     Intrinsic::nvvm_activemask, {}, {}, nullptr, "mask"))
               : builder.getInt32(~0u);
    SmallVector<Value *> operands = {mask};
    operands.append(call->arg_begin(), call->arg_end());
    Function *replacement = Intrinsic::getOrInsertDeclaration(
        &module, *synchronizedForm(call->getIntrinsicID()));
    CallInst *synchronized = builder.CreateCall(replacement, operands);
    synchronized->setDebugLoc(call->getDebugLoc());
    synchronized->takeName(call);
    call->replaceAllUsesWith(synchronized);
    call->eraseFromParent();
  }
  return !calls.empty();
}

} // namespace respec
