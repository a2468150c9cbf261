//===- AlignmentClaims.cpp - Alignment the CPU can rely on ----------------===//
//
// See AlignmentClaims.h. A GPU traps an access that is not aligned to its
// own width, so a CUDA program that runs has its loads and stores aligned
// that much; larger alignment that clang states (from an `__align__(32)`
// type, a reference's type) is never checked and need not hold. LLVM's x86
// back end turns such a claim into an aligned vector move (vmovdqa), which
// faults where the claim is false. Cutting the claims costs nothing on
// current x86 and Arm cores: unaligned vector moves of aligned data run as
// fast as aligned ones.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/AlignmentClaims.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace respec {
namespace {

/// The widest access a GPU performs, and so the most alignment one checks.
constexpr uint64_t kWidestCheckedAccess = 16;

/// The alignment a GPU checks for an access of `type`: its size rounded
/// down to a power of two, at most the widest access.
Align checkedAlignment(const DataLayout &layout, Type *type) {
  uint64_t bytes = layout.getTypeStoreSize(type).getFixedValue();
  if (bytes == 0)
    return Align(1);
  return Align(std::min(kWidestCheckedAccess, llvm::bit_floor(bytes)));
}

/// Lowers the alignment `access` states to `limit` where it states more;
/// returns whether it did.
template <typename Access>
bool limitAccessAlignment(Access &access, Align limit) {
  if (access.getAlign() <= limit)
    return false;
  access.setAlignment(limit);
  return true;
}

/// The alignment of argument or return `index` of `attributes` limited to
/// `limit` (removed where `limit` is null); returns whether it changed.
bool limitAttribute(LLVMContext &context, AttributeList &attributes,
                    unsigned index, MaybeAlign limit) {
  MaybeAlign stated = attributes.getAttributes(index).getAlignment();
  if (!stated || (limit && *stated <= *limit))
    return false;
  attributes =
      attributes.removeAttributeAtIndex(context, index, Attribute::Alignment);
  if (limit)
    attributes = attributes.addAttributeAtIndex(
        context, index, Attribute::getWithAlignment(context, *limit));
  return true;
}

/// Limits the `align` attributes of a function or call. On an intrinsic's
/// arguments (memcpy, memset, ...) they state the alignment of its accesses,
/// cut to the widest a GPU checks; on other functions' parameters and
/// returns they are facts about pointers that no access checked, and go.
bool limitAttributes(LLVMContext &context, AttributeList &attributes,
                     unsigned parameters, bool intrinsic) {
  MaybeAlign limit =
      intrinsic ? MaybeAlign(kWidestCheckedAccess) : MaybeAlign();
  bool changed = false;
  for (unsigned i = 0; i < parameters; ++i)
    changed |= limitAttribute(context, attributes,
                              AttributeList::FirstArgIndex + i, limit);
  changed |=
      limitAttribute(context, attributes, AttributeList::ReturnIndex, limit);
  return changed;
}

bool limitInstruction(Instruction &instruction, const DataLayout &layout) {
  LLVMContext &context = instruction.getContext();
  bool changed = false;
  if (instruction.hasMetadata(LLVMContext::MD_align)) {
    instruction.setMetadata(LLVMContext::MD_align, nullptr);
    changed = true;
  }
  if (auto *load = dyn_cast<LoadInst>(&instruction))
    return limitAccessAlignment(*load,
                                checkedAlignment(layout, load->getType())) ||
           changed;
  if (auto *store = dyn_cast<StoreInst>(&instruction))
    return limitAccessAlignment(
               *store,
               checkedAlignment(layout, store->getValueOperand()->getType())) ||
           changed;
  if (auto *call = dyn_cast<CallBase>(&instruction)) {
    AttributeList attributes = call->getAttributes();
    Function *callee = call->getCalledFunction();
    if (limitAttributes(context, attributes, call->arg_size(),
                        callee && callee->isIntrinsic())) {
      call->setAttributes(attributes);
      changed = true;
    }
  }
  return changed;
}

} // namespace

bool limitAlignmentToCheckedAccesses(Module &module) {
  const DataLayout &layout = module.getDataLayout();
  bool changed = false;
  for (Function &function : module) {
    AttributeList attributes = function.getAttributes();
    if (limitAttributes(module.getContext(), attributes, function.arg_size(),
                        function.isIntrinsic())) {
      function.setAttributes(attributes);
      changed = true;
    }
    for (Instruction &instruction : instructions(function))
      changed |= limitInstruction(instruction, layout);
  }
  return changed;
}

} // namespace respec
