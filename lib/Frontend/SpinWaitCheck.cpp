//===- SpinWaitCheck.cpp - Warn about waits respec's CPU target cannot end ===//
//
// A loop like `while (flag == 0) {}` over a `volatile __shared__` flag that
// another thread of the block sets ends on a GPU, where the threads of a
// block run concurrently; on the CPU, respec runs them one after the other
// between barriers, so the waiting thread spins forever. The loops found
// here do nothing but read shared memory (volatile or atomic loads) until
// what they read lets them exit: without a barrier and without writes they
// cannot make progress of their own, so unless this thread set the value
// itself, they wait for another thread. A spin lock (atomicCAS in the loop)
// writes, and works on the CPU; waits on global memory may be for another
// block, which does run concurrently; neither is reported.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/SpinWaitCheck.h"
#include "respec/Frontend/SourceLocation.h"
#include "respec/Transforms/Attributes.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {
namespace {

/// How far the exit condition is traced back through the loop's values.
constexpr unsigned kMaxConditionDepth = 16;

/// A volatile or atomic load of shared memory.
bool isSharedMemoryPoll(const Instruction &inst) {
  auto *load = dyn_cast<LoadInst>(&inst);
  if (!load || (!load->isVolatile() && !load->isAtomic()))
    return false;
  const Value *pointer = load->getPointerOperand();
  if (pointer->getType()->getPointerAddressSpace() == mlir::respec::kShared)
    return true;
  const Value *object = getUnderlyingObject(pointer);
  return object->getType()->isPointerTy() &&
         object->getType()->getPointerAddressSpace() == mlir::respec::kShared;
}

/// Whether `inst` lets a thread make progress of its own inside a loop
/// (or waits for the others): writes, atomics, barriers, calls that are not
/// side-effect-free intrinsics.
bool canMakeProgress(const Instruction &inst) {
  if (isa<StoreInst, AtomicRMWInst, AtomicCmpXchgInst, FenceInst>(inst))
    return true;
  if (auto *call = dyn_cast<CallBase>(&inst)) {
    // Debug info, assumptions and libdevice's math (`__nv_min`, declared
    // without attributes here) do nothing for other threads; everything
    // else (barriers, nanosleep, warp primitives, calls) is given the
    // benefit of the doubt.
    const Function *callee = call->getCalledFunction();
    if (callee && callee->getName().starts_with("__nv_"))
      return false;
    return !isa<DbgInfoIntrinsic, AssumeInst>(call) && !call->onlyReadsMemory();
  }
  return false;
}

/// The shared-memory poll the value `value` depends on inside `loop`, if
/// any.
const Instruction *findPollFeeding(const Value *value, const Loop &loop,
                                   SmallPtrSetImpl<const Value *> &seen,
                                   unsigned depth) {
  auto *inst = dyn_cast<Instruction>(value);
  if (!inst || !loop.contains(inst) || depth > kMaxConditionDepth ||
      !seen.insert(inst).second)
    return nullptr;
  if (isSharedMemoryPoll(*inst))
    return inst;
  for (const Value *operand : inst->operands())
    if (const Instruction *poll =
            findPollFeeding(operand, loop, seen, depth + 1))
      return poll;
  return nullptr;
}

/// The poll a loop that only waits exits on, or null.
const Instruction *findSpinWait(const Loop &loop) {
  for (const BasicBlock *block : loop.blocks())
    for (const Instruction &inst : *block)
      if (canMakeProgress(inst))
        return nullptr;
  SmallVector<BasicBlock *> exiting;
  loop.getExitingBlocks(exiting);
  for (BasicBlock *block : exiting) {
    auto *branch = dyn_cast<BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional())
      continue;
    SmallPtrSet<const Value *, 16> seen;
    if (const Instruction *poll =
            findPollFeeding(branch->getCondition(), loop, seen, 0))
      return poll;
  }
  return nullptr;
}

void warnAt(const Instruction &poll, const Function &kernel) {
  respec::printLocationPrefix(errs(), poll.getDebugLoc());
  errs() << "warning: kernel '" << demangle(kernel.getName().str())
         << "' waits in a loop for a value in shared memory that another "
            "thread of the block must change; respec runs the threads of a "
            "block one after the other between barriers, so on the CPU this "
            "loop never ends unless the waiting thread changed the value "
            "itself (wait with __syncthreads() instead)\n";
}

void checkKernel(Function &kernel) {
  DominatorTree dominators(kernel);
  LoopInfo loops(dominators);
  for (Loop *loop : loops.getLoopsInPreorder())
    if (const Instruction *poll = findSpinWait(*loop))
      warnAt(*poll, kernel);
}

} // namespace

void warnAboutSharedMemorySpinWaits(Module &module) {
  for (Function &function : module)
    if (!function.isDeclaration() &&
        function.getCallingConv() == CallingConv::PTX_Kernel)
      checkKernel(function);
}

} // namespace respec
