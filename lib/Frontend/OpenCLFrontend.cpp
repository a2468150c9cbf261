//===- OpenCLFrontend.cpp - clang in process for OpenCL C sources ---------===//
//
// An OpenCL C source is compiled like the device side of a CUDA source: by
// clang, to LLVM IR for NVPTX, where work-item positions are PTX special
// registers, `__local` is address space 3 (CUDA's `__shared__`) and kernels
// use the PTX kernel calling convention. Its built-in functions come from
// respec's library (runtime/opencl/builtins.cl), linked in as bitcode. From
// then on the module takes CUDA's path through the parallel IR.
//
// Two things have no CUDA counterpart and are rewritten here, in each
// kernel's signature:
//   * a `__local` pointer parameter gets its memory from the host (by size,
//     clSetKernelArg(k, i, bytes, NULL)): it becomes a 64-bit offset into
//     the work-group's dynamic shared memory (CUDA's `extern __shared__`);
//   * get_work_dim() and get_global_offset() read hidden parameters that
//     every kernel gets at the end of its parameter list.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/OpenCLFrontend.h"
#include "respec/Frontend/DeviceModulePreparation.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace respec {

static constexpr StringLiteral kLocalArgsGlobal = "__respec_cl_local_args";
static constexpr StringLiteral kWorkDimFunction = "__respec_cl_work_dim";
static constexpr StringLiteral kGlobalOffsetFunction =
    "__respec_cl_global_offset";
static constexpr unsigned kLocalAddressSpace = 3;
static constexpr unsigned kHiddenParams = 4; // work_dim, offset x, y, z

/// The OpenCL C version asked for with -std=CL2.0 and the like, or 1.2.
static std::string openCLStandard(const FrontendOptions &options) {
  StringRef standard = options.languageStandard;
  if (standard.starts_with_insensitive("cl"))
    return "-cl-std=" + standard.upper();
  return "-cl-std=CL1.2";
}

static bool linkBuiltins(Module &module, StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  if (!buffer) {
    errs() << "respec: error: cannot read the OpenCL C built-in library '"
           << path << "': " << buffer.getError().message() << "\n";
    return false;
  }
  Expected<std::unique_ptr<Module>> library =
      parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
  if (!library) {
    errs() << "respec: error: invalid OpenCL C built-in library '" << path
           << "': " << toString(library.takeError()) << "\n";
    return false;
  }
  if (Linker::linkModules(module, std::move(*library),
                          Linker::Flags::LinkOnlyNeeded)) {
    errs() << "respec: error: cannot link the OpenCL C built-in library\n";
    return false;
  }
  return true;
}

std::unique_ptr<Module> compileOpenCLSource(LLVMContext &context,
                                            const FrontendOptions &options,
                                            StringRef sourcePath,
                                            StringRef supportDir) {
  SmallString<256> prelude(supportDir), library(supportDir);
  sys::path::append(prelude, "include", "__respec_opencl_prelude.h");
  sys::path::append(library, "builtins.bc");
  std::vector<std::string> args = {
      clangExecutable().str(), "-x", "cl", openCLStandard(options),
      "-target", "nvptx64-nvidia-cuda",
      // The warp-level PTX the built-ins use needs PTX 6.0 or later.
      "-Xclang", "-target-feature", "-Xclang", "+ptx80",
      // As for CUDA: device code is always optimized (without SLP
      // vectorization, which each back end runs for its own target), and
      // line tables let later stages name the user's line.
      "-O2", "-fno-slp-vectorize", "-gline-tables-only", "-emit-llvm", "-c",
      "-include", prelude.str().str()};
  appendPreprocessorArguments(options, args);
  args.push_back(sourcePath.str());
  std::unique_ptr<Module> module = compileWithClang(context, args);
  if (!module || !linkBuiltins(*module, library))
    return nullptr;
  return module;
}

static bool isKernel(const Function &function) {
  return function.getCallingConv() == CallingConv::PTX_Kernel &&
         !function.isDeclaration();
}

/// `extern __shared__ char __respec_cl_local_args[]`: the base the `__local`
/// pointer parameters are offsets from.
static GlobalVariable *getLocalArgsBase(Module &module) {
  if (GlobalVariable *global = module.getGlobalVariable(kLocalArgsGlobal))
    return global;
  auto *type = ArrayType::get(Type::getInt8Ty(module.getContext()), 0);
  auto *global = new GlobalVariable(
      module, type, /*isConstant=*/false, GlobalValue::ExternalLinkage,
      /*Initializer=*/nullptr, kLocalArgsGlobal, nullptr,
      GlobalValue::NotThreadLocal, kLocalAddressSpace);
  global->setAlignment(Align(64));
  return global;
}

static bool isLocalPointer(Type *type) {
  auto *pointer = dyn_cast<PointerType>(type);
  return pointer && pointer->getAddressSpace() == kLocalAddressSpace;
}

/// Replaces `kernel` by a kernel whose `__local` pointer parameters are i64
/// offsets and which takes the hidden parameters last.
static Function *rewriteKernelSignature(Function &kernel,
                                        OpenCLKernelSignature &signature) {
  Module &module = *kernel.getParent();
  LLVMContext &context = module.getContext();
  Type *i32 = Type::getInt32Ty(context);
  Type *i64 = Type::getInt64Ty(context);
  FunctionType *oldType = kernel.getFunctionType();
  SmallVector<Type *> params;
  signature.name = kernel.getName().str();
  for (Type *param : oldType->params()) {
    bool local = isLocalPointer(param);
    signature.paramIsLocal.push_back(local);
    params.push_back(local ? i64 : param);
  }
  params.append({i32, i64, i64, i64});

  AttributeList oldAttrs = kernel.getAttributes();
  SmallVector<AttributeSet> paramAttrs;
  for (unsigned i = 0; i < oldType->getNumParams(); ++i)
    paramAttrs.push_back(signature.paramIsLocal[i]
                             ? AttributeSet()
                             : oldAttrs.getParamAttrs(i));
  paramAttrs.append(kHiddenParams, AttributeSet());

  auto *newType = FunctionType::get(oldType->getReturnType(), params, false);
  Function *rewritten = Function::Create(newType, kernel.getLinkage(),
                                         kernel.getAddressSpace(), "", &module);
  rewritten->takeName(&kernel);
  rewritten->setCallingConv(kernel.getCallingConv());
  rewritten->setAttributes(AttributeList::get(context, oldAttrs.getFnAttrs(),
                                              oldAttrs.getRetAttrs(),
                                              paramAttrs));
  rewritten->copyMetadata(&kernel, 0);
  rewritten->splice(rewritten->begin(), &kernel);

  IRBuilder<> builder(&*rewritten->getEntryBlock().getFirstInsertionPt());
  GlobalVariable *localBase = nullptr;
  for (unsigned i = 0; i < oldType->getNumParams(); ++i) {
    Argument *oldArg = kernel.getArg(i);
    Argument *newArg = rewritten->getArg(i);
    newArg->setName(oldArg->getName());
    if (!signature.paramIsLocal[i]) {
      oldArg->replaceAllUsesWith(newArg);
      continue;
    }
    if (!localBase)
      localBase = getLocalArgsBase(module);
    Value *address =
        builder.CreateGEP(builder.getInt8Ty(), localBase, newArg,
                          oldArg->getName() + ".local");
    oldArg->replaceAllUsesWith(address);
  }
  unsigned hidden = oldType->getNumParams();
  rewritten->getArg(hidden)->setName("work_dim");
  rewritten->getArg(hidden + 1)->setName("global_offset_x");
  rewritten->getArg(hidden + 2)->setName("global_offset_y");
  rewritten->getArg(hidden + 3)->setName("global_offset_z");
  kernel.eraseFromParent();
  return rewritten;
}

/// Replaces the calls of `__respec_cl_work_dim` and
/// `__respec_cl_global_offset` in each kernel (after inlining) by the
/// hidden parameters. Calls left elsewhere are in functions that could not
/// be inlined.
static bool bindHiddenParameters(Module &module) {
  bool ok = true;
  for (StringRef name : {kWorkDimFunction, kGlobalOffsetFunction}) {
    Function *callee = module.getFunction(name);
    if (!callee)
      continue;
    for (User *user : make_early_inc_range(callee->users())) {
      auto *call = dyn_cast<CallInst>(user);
      Function *caller = call ? call->getFunction() : nullptr;
      if (!caller || !isKernel(*caller)) {
        errs() << "respec: error: get_work_dim or get_global_offset is "
                  "called from a function that cannot be inlined into its "
                  "kernel (recursion?)\n";
        ok = false;
        continue;
      }
      unsigned hidden = caller->arg_size() - kHiddenParams;
      Value *replacement = caller->getArg(hidden);
      if (name == kGlobalOffsetFunction) {
        // get_global_offset checks the range, so `dim` is 0, 1 or 2.
        IRBuilder<> builder(call);
        Value *dim = call->getArgOperand(0);
        Value *isY = builder.CreateICmpEQ(dim, builder.getInt32(1));
        Value *isZ = builder.CreateICmpEQ(dim, builder.getInt32(2));
        replacement = builder.CreateSelect(
            isZ, caller->getArg(hidden + 3),
            builder.CreateSelect(isY, caller->getArg(hidden + 2),
                                 caller->getArg(hidden + 1)));
      }
      call->replaceAllUsesWith(replacement);
      call->eraseFromParent();
    }
    if (callee->use_empty())
      callee->eraseFromParent();
  }
  return ok;
}

bool prepareOpenCLModule(Module &module,
                         std::vector<OpenCLKernelSignature> &kernels) {
  SmallVector<Function *> originals;
  for (Function &function : module)
    if (isKernel(function))
      originals.push_back(&function);
  for (Function *kernel : originals) {
    OpenCLKernelSignature signature;
    rewriteKernelSignature(*kernel, signature);
    kernels.push_back(std::move(signature));
  }
  if (!prepareDeviceModule(module, DeviceLanguage::OpenCL))
    return false;
  return bindHiddenParameters(module);
}

} // namespace respec
