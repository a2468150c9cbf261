//===- WarpSynchronousCheck.cpp - Warn about lockstep-warp code -----------===//
//
// Before Volta the 32 threads of a warp ran in lockstep, and code relied on
// it: after `s[t] += s[t + 32]` thread t reads `s[t + 16]`, which thread
// t + 16 has just written, with no synchronization but `volatile`. CUDA
// calls this undefined behaviour since Volta (__syncwarp() is required); on
// respec's CPU target, which runs a block's threads one after the other
// between barriers, thread t reads s[t + 16] before thread t + 16 has
// updated it, and the result is wrong. The pattern found here is the one
// these reductions and scans have: in one basic block, a volatile store to
// shared memory at a thread-indexed address, then, with no call in between
// (barriers and __syncwarp are calls), a volatile load from the same
// address plus a constant offset.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/WarpSynchronousCheck.h"
#include "respec/Frontend/SourceLocation.h"
#include "respec/Transforms/Attributes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace {

/// How far a base address is traced back to the thread index.
constexpr unsigned kMaxIndexDepth = 12;

bool isThreadIndex(const Value *value) {
  auto *call = dyn_cast<IntrinsicInst>(value);
  if (!call)
    return false;
  switch (call->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
    return true;
  default:
    return false;
  }
}

/// Whether `value` is computed from a thread index.
bool dependsOnThreadIndex(const Value *value, unsigned depth,
                          SmallPtrSetImpl<const Value *> &seen) {
  if (depth > kMaxIndexDepth || !seen.insert(value).second)
    return false;
  if (isThreadIndex(value))
    return true;
  auto *user = dyn_cast<User>(value);
  if (!user || isa<Function>(value))
    return false;
  for (const Value *operand : user->operands())
    if (dependsOnThreadIndex(operand, depth + 1, seen))
      return true;
  return false;
}

bool isSharedMemory(const Value *pointer) {
  if (pointer->getType()->getPointerAddressSpace() == mlir::respec::kShared)
    return true;
  const Value *object = getUnderlyingObject(pointer);
  return object->getType()->isPointerTy() &&
         object->getType()->getPointerAddressSpace() == mlir::respec::kShared;
}

/// A volatile access to shared memory: its address as base + offset.
struct Access {
  const Value *base = nullptr;
  int64_t offset = 0;
};

std::optional<Access> volatileSharedAccess(const Instruction &inst,
                                           const DataLayout &layout) {
  const Value *pointer = nullptr;
  if (auto *load = dyn_cast<LoadInst>(&inst); load && load->isVolatile())
    pointer = load->getPointerOperand();
  else if (auto *store = dyn_cast<StoreInst>(&inst);
           store && store->isVolatile())
    pointer = store->getPointerOperand();
  if (!pointer || !isSharedMemory(pointer))
    return std::nullopt;
  Access access;
  access.base =
      GetPointerBaseWithConstantOffset(pointer, access.offset, layout);
  return access;
}

/// The first load in `block` that reads a neighbour of a thread-indexed
/// element the block stored to before, with no call in between.
const Instruction *findLockstepExchange(const BasicBlock &block,
                                        const DataLayout &layout) {
  SmallVector<Access> stored;
  for (const Instruction &inst : block) {
    if (isa<CallBase>(inst) && !isa<DbgInfoIntrinsic>(inst)) {
      stored.clear();
      continue;
    }
    std::optional<Access> access = volatileSharedAccess(inst, layout);
    if (!access)
      continue;
    if (isa<StoreInst>(inst)) {
      SmallPtrSet<const Value *, 16> seen;
      if (dependsOnThreadIndex(access->base, 0, seen))
        stored.push_back(*access);
      continue;
    }
    for (const Access &earlier : stored)
      if (earlier.base == access->base && earlier.offset != access->offset)
        return &inst;
  }
  return nullptr;
}

void warnAt(const Instruction &load, const Function &kernel) {
  respec::printLocationPrefix(errs(), load.getDebugLoc());
  errs() << "warning: kernel '" << demangle(kernel.getName().str())
         << "' reads shared memory that another thread wrote, with no "
            "synchronization in between (implicitly warp-synchronous code, "
            "such as the unrolled volatile last-warp reduction); respec runs "
            "the threads of a block one after the other between barriers, "
            "so the read sees the value from before the other thread's "
            "write: put __syncwarp() between the steps\n";
}

} // namespace

void warnAboutWarpSynchronousCode(Module &module) {
  const DataLayout &layout = module.getDataLayout();
  for (Function &function : module) {
    if (function.isDeclaration() ||
        function.getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    for (const BasicBlock &block : function)
      if (const Instruction *load = findLockstepExchange(block, layout)) {
        warnAt(*load, function);
        break;
      }
  }
}

} // namespace respec
