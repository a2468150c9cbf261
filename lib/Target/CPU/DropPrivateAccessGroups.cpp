//===- DropPrivateAccessGroups.cpp - Private memory out of parallel loops -===//
//
// respec-serialize-thread-loops declares a thread loop's accesses parallel:
// no two threads of a race-free block touch a location between barriers
// where one of them writes. That holds for memory the threads share, not
// for a thread's own stack memory as the CPU lays it out: a local array of
// the thread body, or of a thread function LLVM inlines into the thread
// loop, is one alloca that every iteration reuses. Accesses to it depend
// on the previous thread's, and must leave the loop's access group before
// LLVM's loop vectorizer reads the metadata (the loop is then not parallel
// to LLVM, which analyses it as it would without the metadata).
//
// An access leaves its groups when a pointer it uses may point to an
// alloca: its underlying objects include one, or some alloca of the
// function has its address stored or passed on (other than to the OpenMP
// runtime) and the object is one a pointer could have been loaded as
// (anything but a global or an argument); a call then leaves its groups
// whatever its arguments.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"

#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace respec {

namespace {

/// True if `call` is to the OpenMP runtime, which the CPU lowering passes
/// the addresses of its loop bounds (`__kmpc_for_static_init_8u`); it
/// writes through them and keeps none.
bool isOpenMPRuntimeCall(const User *user) {
  auto *call = dyn_cast<CallBase>(user);
  Function *callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName().starts_with("__kmpc_");
}

/// Finds whether an alloca's address may become something a later load, or
/// a call's result, could give back.
struct AllocaEscape : CaptureTracker {
  bool escapes = false;
  void tooManyUses() override { escapes = true; }
  Action captured(const Use *use, UseCaptureInfo info) override {
    if (!capturesAnyProvenance(info.UseCC) ||
        isOpenMPRuntimeCall(use->getUser()))
      return Continue;
    escapes = true;
    return Stop;
  }
};

/// Which pointers may address an alloca of one function.
class PrivateMemory {
public:
  explicit PrivateMemory(Function &function) {
    for (Instruction &inst : instructions(function)) {
      auto *alloca = dyn_cast<AllocaInst>(&inst);
      if (!alloca)
        continue;
      AllocaEscape escape;
      PointerMayBeCaptured(alloca, &escape);
      if (escape.escapes) {
        allocaEscapes = true;
        return;
      }
    }
  }

  /// True if `pointer` may address an alloca (unlimited look-through).
  bool mayAddress(const Value *pointer) const {
    SmallVector<const Value *, 4> objects;
    getUnderlyingObjects(pointer, objects, /*LI=*/nullptr, /*MaxLookup=*/0);
    return llvm::any_of(objects, [&](const Value *object) {
      if (isa<AllocaInst>(object))
        return true;
      return allocaEscapes && !isa<GlobalValue, Argument>(object);
    });
  }

  /// True if `inst` may access an alloca: through one of its pointer
  /// operands, or, for a call, through an escaped alloca's address.
  bool mayAccess(const Instruction &inst) const {
    if (allocaEscapes && isa<CallBase>(inst))
      return true;
    return llvm::any_of(inst.operands(), [&](const Use &operand) {
      return operand->getType()->isPointerTy() && mayAddress(operand);
    });
  }

private:
  bool allocaEscapes = false;
};

} // namespace

PreservedAnalyses DropPrivateAccessGroupsPass::run(Function &function,
                                                   FunctionAnalysisManager &) {
  SmallVector<Instruction *> grouped;
  for (Instruction &inst : instructions(function))
    if (inst.hasMetadata(LLVMContext::MD_access_group))
      grouped.push_back(&inst);
  if (grouped.empty())
    return PreservedAnalyses::all();
  PrivateMemory privateMemory(function);
  bool changed = false;
  for (Instruction *inst : grouped)
    if (privateMemory.mayAccess(*inst)) {
      inst->setMetadata(LLVMContext::MD_access_group, nullptr);
      changed = true;
    }
  if (!changed)
    return PreservedAnalyses::all();
  PreservedAnalyses preserved;
  preserved.preserveSet<CFGAnalyses>();
  return preserved;
}

} // namespace respec
