//===- DeviceModulePreparation.cpp - Device LLVM IR before raising --------===//
//
// clang keeps device functions out of line when they are large or marked
// noinline. A CPU thread loop needs the whole per-thread body in the kernel:
// the launch position (threadIdx, blockIdx, ...) becomes loop variables there,
// and __shared__ variables become offsets into the block's allocation. So
// every device function that can be inlined is; what cannot (recursion,
// calls through pointers) is diagnosed later if it touches launch state.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/DeviceModulePreparation.h"
#include "respec/Frontend/SourceLocation.h"
#include "respec/Support/LLVMPasses.h"
#include "respec/Transforms/Attributes.h"

#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"

using namespace llvm;

namespace respec {

static bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel;
}

/// External functions the CPU back end or runtime provides.
static bool isProvidedByRespec(StringRef name) {
  return name.starts_with("llvm.") || name.starts_with("__nv_") ||
         name.starts_with("__respec_") || name == "vprintf" ||
         name == "__assertfail" || name == "malloc" || name == "free" ||
         name == "memcpy" || name == "memset" || name == "memmove";
}

static void markForInlining(Module &module) {
  for (Function &function : module) {
    if (function.isDeclaration() || isKernel(function))
      continue;
    function.removeFnAttr(Attribute::NoInline);
    function.removeFnAttr(Attribute::OptimizeNone);
    function.addFnAttr(Attribute::AlwaysInline);
    // Without -rdc no other translation unit can call a device function, so
    // once inlined everywhere its body is dead (and must not be raised: it
    // reads threadIdx outside a kernel).
    function.setLinkage(GlobalValue::InternalLinkage);
  }
}

static void runInliner(Module &module) {
  runModulePipeline(module, /*target=*/nullptr, PipelineTuningOptions(),
                    [](PassBuilder &) {
                      ModulePassManager passes;
                      passes.addPass(AlwaysInlinerPass(
                          /*InsertLifetimeIntrinsics=*/true));
                      passes.addPass(GlobalDCEPass());
                      return passes;
                    });
}

/// The read-modify-write operation of clang's scoped atomic intrinsics
/// (`atomicAdd_block`, `atomicMax_system`, ...): `llvm.nvvm.atomic.<op>.gen.
/// <i|f>.<cta|sys>`. clang maps the signed and unsigned min/max builtins to
/// the same intrinsic, which the NVPTX back end lowers as signed.
static std::optional<AtomicRMWInst::BinOp> scopedAtomicOperation(Intrinsic::ID id) {
  switch (id) {
  case Intrinsic::nvvm_atomic_add_gen_i_cta:
  case Intrinsic::nvvm_atomic_add_gen_i_sys:
    return AtomicRMWInst::Add;
  case Intrinsic::nvvm_atomic_add_gen_f_cta:
  case Intrinsic::nvvm_atomic_add_gen_f_sys:
    return AtomicRMWInst::FAdd;
  case Intrinsic::nvvm_atomic_exch_gen_i_cta:
  case Intrinsic::nvvm_atomic_exch_gen_i_sys:
    return AtomicRMWInst::Xchg;
  case Intrinsic::nvvm_atomic_max_gen_i_cta:
  case Intrinsic::nvvm_atomic_max_gen_i_sys:
    return AtomicRMWInst::Max;
  case Intrinsic::nvvm_atomic_min_gen_i_cta:
  case Intrinsic::nvvm_atomic_min_gen_i_sys:
    return AtomicRMWInst::Min;
  case Intrinsic::nvvm_atomic_inc_gen_i_cta:
  case Intrinsic::nvvm_atomic_inc_gen_i_sys:
    return AtomicRMWInst::UIncWrap;
  case Intrinsic::nvvm_atomic_dec_gen_i_cta:
  case Intrinsic::nvvm_atomic_dec_gen_i_sys:
    return AtomicRMWInst::UDecWrap;
  case Intrinsic::nvvm_atomic_and_gen_i_cta:
  case Intrinsic::nvvm_atomic_and_gen_i_sys:
    return AtomicRMWInst::And;
  case Intrinsic::nvvm_atomic_or_gen_i_cta:
  case Intrinsic::nvvm_atomic_or_gen_i_sys:
    return AtomicRMWInst::Or;
  case Intrinsic::nvvm_atomic_xor_gen_i_cta:
  case Intrinsic::nvvm_atomic_xor_gen_i_sys:
    return AtomicRMWInst::Xor;
  default:
    return std::nullopt;
  }
}

/// Rewrites scoped atomics as the relaxed atomic instructions clang emits
/// for atomicAdd & co., with the scope as an LLVM sync scope ("block" for
/// _block, the default system scope for _system, as the NVPTX back end
/// reads them), so that every later stage (shared-atomics localization,
/// the CPU lowering, which drops scopes) treats them alike.
static void lowerScopedAtomics(Module &module) {
  SmallVector<CallInst *> calls;
  for (Function &function : module)
    for (Instruction &inst : instructions(function))
      if (auto *call = dyn_cast<CallInst>(&inst))
        if (Function *callee = call->getCalledFunction();
            callee && callee->getName().starts_with("llvm.nvvm.atomic."))
          calls.push_back(call);
  SyncScope::ID block = module.getContext().getOrInsertSyncScopeID("block");
  for (CallInst *call : calls) {
    Intrinsic::ID id = call->getCalledFunction()->getIntrinsicID();
    SyncScope::ID scope =
        call->getCalledFunction()->getName().contains(".cta.")
            ? block
            : SyncScope::System;
    IRBuilder<> builder(call);
    Value *replacement = nullptr;
    if (std::optional<AtomicRMWInst::BinOp> op = scopedAtomicOperation(id)) {
      replacement = builder.CreateAtomicRMW(
          *op, call->getArgOperand(0), call->getArgOperand(1), MaybeAlign(),
          AtomicOrdering::Monotonic, scope);
    } else if (id == Intrinsic::nvvm_atomic_cas_gen_i_cta ||
               id == Intrinsic::nvvm_atomic_cas_gen_i_sys) {
      Value *pair = builder.CreateAtomicCmpXchg(
          call->getArgOperand(0), call->getArgOperand(1),
          call->getArgOperand(2), MaybeAlign(), AtomicOrdering::Monotonic,
          AtomicOrdering::Monotonic, scope);
      replacement = builder.CreateExtractValue(pair, 0);
    } else {
      continue;
    }
    call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
}

/// Device-side `new` and `delete` (CUDA's device runtime allocates them
/// from the device heap, as `malloc`): the C++ operators clang declares,
/// defined here on top of the device `malloc`/`free` respec provides.
/// Aligned forms (`std::align_val_t`) stay undefined and are diagnosed.
static void defineDeviceNewDelete(Module &module) {
  static constexpr StringLiteral allocators[] = {
      "_Znwm", "_Znam", "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t"};
  static constexpr StringLiteral deallocators[] = {
      "_ZdlPv",  "_ZdaPv",  "_ZdlPvm", "_ZdaPvm", "_ZdlPvRKSt9nothrow_t",
      "_ZdaPvRKSt9nothrow_t"};
  LLVMContext &context = module.getContext();
  Type *ptr = PointerType::getUnqual(context);
  Type *i64 = Type::getInt64Ty(context);
  auto define = [&](Function *function, FunctionCallee target) {
    function->setLinkage(GlobalValue::InternalLinkage);
    function->addFnAttr(Attribute::AlwaysInline);
    IRBuilder<> builder(BasicBlock::Create(context, "entry", function));
    CallInst *call = builder.CreateCall(target, {function->getArg(0)});
    if (function->getReturnType()->isVoidTy())
      builder.CreateRetVoid();
    else
      builder.CreateRet(call);
  };
  for (StringRef name : allocators)
    if (Function *function = module.getFunction(name);
        function && function->isDeclaration() && !function->use_empty())
      define(function, module.getOrInsertFunction(
                           "malloc", FunctionType::get(ptr, {i64}, false)));
  for (StringRef name : deallocators)
    if (Function *function = module.getFunction(name);
        function && function->isDeclaration() && !function->use_empty())
      define(function,
             module.getOrInsertFunction(
                 "free", FunctionType::get(Type::getVoidTy(context), {ptr},
                                           false)));
}

/// Prints "file:line:col: error: " for the first instruction that uses
/// `value`, or a location-less prefix if none has a debug location.
static raw_ostream &errorAtFirstUse(const Value &value) {
  for (const User *user : value.users()) {
    auto *inst = dyn_cast<Instruction>(user);
    if (!inst || !inst->getDebugLoc())
      continue;
    respec::printLocationPrefix(errs(), inst->getDebugLoc());
    break;
  }
  return errs() << "error: ";
}

/// Device code may only refer to what this translation unit defines:
/// whole-program device linking (nvcc -rdc) is not implemented.
static bool verifySelfContained(Module &module, DeviceLanguage language) {
  bool ok = true;
  for (Function &function : module) {
    if (!function.isDeclaration() || function.use_empty() ||
        isProvidedByRespec(function.getName()))
      continue;
    std::string name = demangle(function.getName().str());
    raw_ostream &os = errorAtFirstUse(function);
    // OpenCL C built-ins are overloaded, hence mangled; the user's own
    // functions are plain C.
    if (language == DeviceLanguage::OpenCL &&
        function.getName().starts_with("_Z"))
      os << "OpenCL C built-in '" << name
         << "' is not supported by respec yet\n";
    else if (language == DeviceLanguage::OpenCL)
      os << "function '" << name
         << "' is declared but not defined in this OpenCL C source\n";
    else
      os << "device function '" << name
         << "' is declared but not defined in this translation unit; respec "
            "does not support separate compilation of device code (-rdc) "
            "yet\n";
    ok = false;
  }
  for (GlobalVariable &global : module.globals()) {
    if (!global.isDeclaration() || global.use_empty())
      continue;
    // `extern __shared__` arrays are declarations by design.
    if (global.getAddressSpace() == mlir::respec::kShared)
      continue;
    errorAtFirstUse(global)
        << "device variable '" << demangle(global.getName().str())
        << "' is declared but not defined in this translation unit; respec "
           "does not support separate compilation of device code (-rdc) yet\n";
    ok = false;
  }
  return ok;
}

/// PTX `exit` (translated inline assembly, e.g. CUB's ThreadExit) ends the
/// thread: once device functions are inlined, the kernel returns at each
/// marker call. A marker left outside a kernel (a function that could not
/// be inlined) is an error at its line.
static bool lowerThreadExits(Module &module) {
  Function *marker = module.getFunction("__respec_thread_exit");
  if (!marker)
    return true;
  bool ok = true;
  SmallVector<CallInst *> calls;
  for (User *user : marker->users())
    if (auto *call = dyn_cast<CallInst>(user))
      calls.push_back(call);
  for (CallInst *call : calls) {
    Function *function = call->getFunction();
    if (!isKernel(*function)) {
      errorAtFirstUse(*marker)
          << "PTX 'exit' in device function '"
          << demangle(function->getName().str())
          << "' that could not be inlined into its kernel\n";
      ok = false;
      continue;
    }
    BasicBlock *block = call->getParent();
    block->splitBasicBlock(call->getNextNode());
    block->getTerminator()->eraseFromParent();
    call->eraseFromParent();
    ReturnInst::Create(module.getContext(), block);
  }
  if (marker->use_empty())
    marker->eraseFromParent();
  return ok;
}

bool prepareDeviceModule(Module &module, DeviceLanguage language) {
  lowerScopedAtomics(module);
  defineDeviceNewDelete(module);
  markForInlining(module);
  runInliner(module);
  if (!lowerThreadExits(module))
    return false;
  return verifySelfContained(module, language);
}

bool reportWideIntegerFloatConversions(const Module &module) {
  bool found = false;
  for (const Function &function : module)
    for (const Instruction &instruction : instructions(function)) {
      if (!isa<FPToSIInst, FPToUIInst, SIToFPInst, UIToFPInst>(instruction))
        continue;
      Type *integer = isa<FPToSIInst, FPToUIInst>(instruction)
                          ? instruction.getType()
                          : instruction.getOperand(0)->getType();
      if (integer->getScalarSizeInBits() <= 64)
        continue;
      printLocationPrefix(errs(), instruction.getDebugLoc())
          << "error: conversion between a " << integer->getScalarSizeInBits()
          << "-bit integer and a floating-point type in '"
          << demangle(function.getName().str())
          << "' is not supported for --target=nvptx yet (LLVM's NVPTX code "
             "generator has no such conversion; convert through 64-bit "
             "integers)\n";
      found = true;
    }
  return found;
}

void dropComdats(Module &module) {
  for (GlobalObject &object : module.global_objects())
    object.setComdat(nullptr);
  module.getComdatSymbolTable().clear();
}

} // namespace respec
