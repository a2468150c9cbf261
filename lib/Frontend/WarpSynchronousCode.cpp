//===- WarpSynchronousCode.cpp - Lockstep warps on the CPU ----------------===//
//
// Before Volta the 32 threads of a warp ran in lockstep, and code relied on
// it: after `s[t] += s[t + 32]` thread t reads `s[t + 16]`, which thread
// t + 16 has just written, with no synchronization but `volatile`. CUDA
// calls this undefined behaviour since Volta (__syncwarp() is required),
// but GPUs still give such programs the lockstep answer, and benchmark
// suites are full of them. respec's CPU target runs a block's threads one
// after the other between barriers, so thread t would read s[t + 16] before
// thread t + 16 updated it. The pattern found here is the one these
// reductions and scans have: a volatile store to a thread-indexed element of
// a shared array, then a volatile load of the same array at an index that
// differs by more than the thread index, with no synchronizing call
// (barrier, __syncwarp, shuffle, vote: the convergent calls) in between, in
// the order the kernel's blocks run or around a loop. Putting __syncwarp()
// between the array's volatile accesses (where one of them writes) makes
// each happen for all threads of the warp before the next: the lockstep
// order, each thread's loads of a step before any thread's store of it.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/WarpSynchronousCode.h"
#include "respec/Transforms/Attributes.h"

#include "llvm/ADT/DepthFirstIterator.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

#include <map>
#include <set>

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

/// An address as root + sum of (value * scale) + constant bytes, seen
/// through GEPs, integer extensions and constant arithmetic, so that
/// `&s[t + 1]` and `&s[t]` compare however clang spelled them (a GEP of
/// `zext(t + 30)` next to a GEP of `sext(t)` plus 128 bytes).
struct Access {
  const Value *root = nullptr;
  std::map<const Value *, int64_t> terms;
  int64_t constant = 0;

  /// The terms computed from a thread index: which thread's element.
  std::map<const Value *, int64_t> threadTerms;
};

/// Adds `value * scale` to `access`.
void addTerm(Access &access, const Value *value, int64_t scale,
             unsigned depth) {
  if (scale == 0)
    return;
  if (auto *constant = dyn_cast<ConstantInt>(value)) {
    access.constant += constant->getSExtValue() * scale;
    return;
  }
  if (auto *op = dyn_cast<Operator>(value); op && depth < kMaxIndexDepth) {
    auto constantOperand = [&]() -> std::optional<int64_t> {
      if (auto *c = dyn_cast<ConstantInt>(op->getOperand(1)))
        return c->getSExtValue();
      return std::nullopt;
    };
    switch (op->getOpcode()) {
    case Instruction::ZExt:
    case Instruction::SExt:
      return addTerm(access, op->getOperand(0), scale, depth + 1);
    case Instruction::Add:
      addTerm(access, op->getOperand(0), scale, depth + 1);
      return addTerm(access, op->getOperand(1), scale, depth + 1);
    case Instruction::Sub:
      addTerm(access, op->getOperand(0), scale, depth + 1);
      return addTerm(access, op->getOperand(1), -scale, depth + 1);
    case Instruction::Mul:
      if (std::optional<int64_t> factor = constantOperand())
        return addTerm(access, op->getOperand(0), scale * *factor, depth + 1);
      break;
    case Instruction::Shl:
      if (std::optional<int64_t> shift = constantOperand();
          shift && *shift >= 0 && *shift < 32)
        return addTerm(access, op->getOperand(0), scale << *shift, depth + 1);
      break;
    default:
      break;
    }
  }
  access.terms[value] += scale;
  if (access.terms[value] == 0)
    access.terms.erase(value);
}

/// Decomposes `pointer` into `access`.
void addAddress(Access &access, const Value *pointer, const DataLayout &layout,
                unsigned depth) {
  if (auto *gep = dyn_cast<GEPOperator>(pointer);
      gep && depth < kMaxIndexDepth) {
    for (gep_type_iterator it = gep_type_begin(gep), end = gep_type_end(gep);
         it != end; ++it) {
      if (StructType *structType = it.getStructTypeOrNull()) {
        unsigned field = cast<ConstantInt>(it.getOperand())->getZExtValue();
        access.constant +=
            layout.getStructLayout(structType)->getElementOffset(field);
        continue;
      }
      int64_t bytes = it.getSequentialElementStride(layout).getFixedValue();
      addTerm(access, it.getOperand(), bytes, depth + 1);
    }
    return addAddress(access, gep->getPointerOperand(), layout, depth + 1);
  }
  if (auto *cast = dyn_cast<AddrSpaceCastOperator>(pointer))
    return addAddress(access, cast->getPointerOperand(), layout, depth + 1);
  access.root = pointer;
}

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
  addAddress(access, pointer, layout, 0);
  for (const auto &[value, scale] : access.terms) {
    SmallPtrSet<const Value *, 16> seen;
    if (dependsOnThreadIndex(value, 0, seen))
      access.threadTerms.emplace(value, scale);
  }
  return access;
}

/// Whether a thread's access `load` may touch an element another thread's
/// access `store` touches. Accesses whose addresses differ only by a
/// constant, with one term that is a thread index itself, meet across
/// threads when the constant is a nonzero multiple of that term's stride
/// (`s[t + 16]` and `s[t]`, not `s[2t + 1]` and `s[2t]`); any other
/// difference may, and so may equal addresses computed from a thread index
/// that threads share (`flag[t / 32]`).
bool mayTouchOtherThreadsElement(const Access &store, const Access &load) {
  if (store.terms != load.terms || store.threadTerms.size() != 1)
    return true;
  auto [index, stride] = *store.threadTerms.begin();
  // Threads share elements indexed by `tid / 32` or `tid & 31`.
  if (!isThreadIndex(index))
    return true;
  int64_t distance = load.constant - store.constant;
  return distance != 0 && stride != 0 && distance % stride == 0;
}

struct VolatileAccess {
  Instruction *inst;
  Access access;
  /// Which stretch between synchronizing calls the access is in, in the
  /// order the function's blocks run (reverse post-order) as far as one
  /// order can tell.
  unsigned segment;
};

/// Barriers, __syncwarp, shuffles and votes are convergent calls; math
/// functions are not, and do not end an exchange.
bool synchronizes(const Instruction &inst) {
  auto *call = dyn_cast<CallBase>(&inst);
  return call && call->isConvergent();
}

/// The shared arrays in which a thread stores to its element and another
/// thread's access to the same element may come before or after it in the
/// same segment, or anywhere in the same call-free loop (around its back
/// edge): a lockstep warp orders such accesses by program order, one
/// thread after the other would not (`s[t] += s[t + 16]` after `s[t] +=
/// s[t + 32]`; lanes reading `s[t]` before others store `s[2t]`).
std::set<const Value *> exchangingArrays(ArrayRef<VolatileAccess> accesses,
                                         const LoopInfo &loops) {
  std::set<const Value *> exchanging;
  for (auto [i, store] : llvm::enumerate(accesses)) {
    if (!isa<StoreInst>(store.inst) || store.access.threadTerms.empty())
      continue;
    Loop *loop = loops.getLoopFor(store.inst->getParent());
    for (auto [j, other] : llvm::enumerate(accesses)) {
      bool sameSegment = j != i && other.segment == store.segment;
      bool aroundLoop = loop && loop->contains(other.inst);
      if (!(sameSegment || aroundLoop) ||
          other.access.root != store.access.root ||
          !mayTouchOtherThreadsElement(store.access, other.access))
        continue;
      exchanging.insert(store.access.root);
      break;
    }
  }
  return exchanging;
}

/// The loops of `kernel` with a synchronizing call in their body, found
/// before any __syncwarp is added: such a loop is left as it is.
std::set<const Loop *> synchronizingLoops(const LoopInfo &loops) {
  std::set<const Loop *> synchronizing;
  for (const Loop *top : loops)
    for (const Loop *loop : depth_first(top))
      if (llvm::any_of(loop->blocks(), [](const BasicBlock *block) {
            return llvm::any_of(*block, synchronizes);
          }))
        synchronizing.insert(loop);
  return synchronizing;
}

/// What an array's accesses since the warp last synchronized were.
enum class SinceSync { Nothing, Loads, Store };

/// Puts a __syncwarp() before each access of an exchanging array that
/// follows another access of the array in its segment, unless both only
/// read (all threads' loads of a step may run in any order), and before
/// the first access of the array in a call-free loop (between iterations).
/// All of the array's accesses count, whatever their index: a warp scan's
/// window and the elements its result goes to overlap.
void synchronizeAccesses(ArrayRef<VolatileAccess> accesses,
                         const std::set<const Value *> &exchanging,
                         const LoopInfo &loops) {
  std::set<const Loop *> synchronizing = synchronizingLoops(loops);
  Module &module = *accesses.front().inst->getModule();
  Function *syncWarp =
      Intrinsic::getOrInsertDeclaration(&module, Intrinsic::nvvm_bar_warp_sync);
  std::map<std::pair<const Value *, unsigned>, SinceSync> state;
  std::set<std::pair<const Value *, Loop *>> loopsEntered;
  for (const VolatileAccess &entry : accesses) {
    const Value *array = entry.access.root;
    if (!exchanging.count(array))
      continue;
    bool isStore = isa<StoreInst>(entry.inst);
    SinceSync &since = state[{array, entry.segment}];
    bool conflicts =
        since == SinceSync::Store || (isStore && since == SinceSync::Loads);
    Loop *loop = loops.getLoopFor(entry.inst->getParent());
    bool firstInLoop = loop && !synchronizing.count(loop) &&
                       loopsEntered.insert({array, loop}).second;
    if (conflicts || firstInLoop) {
      CallInst *call = CallInst::Create(
          syncWarp,
          {ConstantInt::getAllOnesValue(syncWarp->getArg(0)->getType())}, "",
          entry.inst->getIterator());
      call->setDebugLoc(entry.inst->getDebugLoc());
      since = SinceSync::Nothing;
    }
    if (isStore)
      since = SinceSync::Store;
    else if (since == SinceSync::Nothing)
      since = SinceSync::Loads;
    // The warp synchronizations order the exchange now; `volatile` would
    // only keep the accesses scalar where lanes run as vectors.
    if (auto *load = dyn_cast<LoadInst>(entry.inst))
      load->setVolatile(false);
    else
      cast<StoreInst>(entry.inst)->setVolatile(false);
  }
}

/// Synchronizes the exchanges of `kernel`; true if there were any.
bool synchronizeKernel(Function &kernel) {
  const DataLayout &layout = kernel.getDataLayout();
  SmallVector<VolatileAccess> accesses;
  unsigned segment = 0;
  ReversePostOrderTraversal<Function *> order(&kernel);
  for (BasicBlock *block : order)
    for (Instruction &inst : *block) {
      if (synchronizes(inst)) {
        ++segment;
        continue;
      }
      if (std::optional<Access> access = volatileSharedAccess(inst, layout))
        accesses.push_back({&inst, *access, segment});
    }
  if (accesses.size() < 2)
    return false;
  DominatorTree dominators(kernel);
  LoopInfo loops(dominators);
  std::set<const Value *> exchanging = exchangingArrays(accesses, loops);
  if (exchanging.empty())
    return false;
  synchronizeAccesses(accesses, exchanging, loops);
  return true;
}

} // namespace

bool synchronizeWarpSynchronousCode(Module &module) {
  bool changed = false;
  for (Function &function : module) {
    if (function.isDeclaration() ||
        function.getCallingConv() != CallingConv::PTX_Kernel)
      continue;
    changed |= synchronizeKernel(function);
  }
  return changed;
}

} // namespace respec
