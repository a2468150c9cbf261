//===- TextureReferences.cpp - texture<> variables in device code ---------===//
//
// See TextureReferences.h. clang marks a texture reference with an
// `!nvvm.annotations` entry `{@var, !"texture", i32 1}`; on a GPU that makes
// the variable a PTX `.texref`, which CUDA 12 and later no longer bind. As
// an ordinary variable it holds the texture object cudaBindTexture stores,
// and the texture-object code of the fetch functions reads through it.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/TextureReferences.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace respec {

/// The variable an `!nvvm.annotations` entry marks as a texture, if it does.
static GlobalVariable *annotatedTexture(MDNode *entry) {
  if (entry->getNumOperands() < 2)
    return nullptr;
  auto *kind = dyn_cast<MDString>(entry->getOperand(1));
  if (!kind || kind->getString() != "texture")
    return nullptr;
  auto *value = dyn_cast_or_null<ConstantAsMetadata>(entry->getOperand(0));
  if (!value)
    return nullptr;
  return dyn_cast<GlobalVariable>(value->getValue()->stripPointerCasts());
}

/// Removes the texture entries from `!nvvm.annotations` and returns the
/// variables they named.
static SmallPtrSet<GlobalVariable *, 4> takeTextureAnnotations(Module &module) {
  SmallPtrSet<GlobalVariable *, 4> textures;
  NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations");
  if (!annotations)
    return textures;
  SmallVector<MDNode *> kept;
  for (MDNode *entry : annotations->operands()) {
    if (GlobalVariable *texture = annotatedTexture(entry))
      textures.insert(texture);
    else
      kept.push_back(entry);
  }
  if (textures.empty())
    return textures;
  annotations->clearOperands();
  for (MDNode *entry : kept)
    annotations->addOperand(entry);
  if (kept.empty())
    annotations->eraseFromParent();
  return textures;
}

bool lowerTextureReferences(Module &module) {
  SmallPtrSet<GlobalVariable *, 4> textures = takeTextureAnnotations(module);
  if (textures.empty())
    return false;
  Type *i64 = Type::getInt64Ty(module.getContext());
  for (GlobalVariable *texture : textures) {
    // No object is bound before the program binds one; a fetch through an
    // unbound reference reads through handle 0.
    if (texture->getValueType() != i64)
      continue;
    texture->setInitializer(ConstantInt::get(i64, 0));
    texture->setAlignment(Align(8));
  }
  SmallVector<IntrinsicInst *> handles;
  for (Function &function : module)
    for (Instruction &instruction : instructions(function))
      if (auto *call = dyn_cast<IntrinsicInst>(&instruction))
        if (call->getIntrinsicID() == Intrinsic::nvvm_texsurf_handle_internal)
          handles.push_back(call);
  for (IntrinsicInst *call : handles) {
    Value *pointer = call->getArgOperand(0);
    auto *texture = dyn_cast<GlobalVariable>(pointer->stripPointerCasts());
    if (!texture || !textures.contains(texture))
      continue;
    IRBuilder<> builder(call);
    LoadInst *object = builder.CreateLoad(i64, pointer, "texture.object");
    object->setAlignment(Align(8));
    call->replaceAllUsesWith(object);
    call->eraseFromParent();
  }
  return true;
}

} // namespace respec
