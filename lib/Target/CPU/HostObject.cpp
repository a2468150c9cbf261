//===- HostObject.cpp - One object per translation unit -------------------===//
//
// The host and device halves of a translation unit end up in one LLVM
// module, optimized and written as one ordinary object file, so build
// systems see nothing but `respec -c a.cu -o a.o`.
//
//===----------------------------------------------------------------------===//

#include "respec/Support/LLVMPasses.h"
#include "respec/Target/CPUBackend.h"
#include "respec/Transforms/Attributes.h"
#include "respec_rt/abi.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace respec {

using mlir::respec::kModuleTableName;
static constexpr StringLiteral kFatbinWrapperName = "__cuda_fatbin_wrapper";

std::unique_ptr<TargetMachine> createHostTargetMachine(unsigned optLevel) {
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  Triple triple(sys::getDefaultTargetTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target) {
    errs() << "respec: error: no code generator for " << triple.str() << ": "
           << error << "\n";
    return nullptr;
  }
  TargetOptions options;
  CodeGenOptLevel level = optLevel == 0   ? CodeGenOptLevel::None
                          : optLevel == 1 ? CodeGenOptLevel::Less
                          : optLevel == 2 ? CodeGenOptLevel::Default
                                          : CodeGenOptLevel::Aggressive;
  return std::unique_ptr<TargetMachine>(target->createTargetMachine(
      triple, "x86-64", "", options, Reloc::PIC_, std::nullopt, level));
}

void optimizeModule(Module &module, TargetMachine &target, unsigned optLevel) {
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = optLevel >= 2;
  tuning.SLPVectorization = optLevel >= 2;
  OptimizationLevel level = optLevel == 0   ? OptimizationLevel::O0
                            : optLevel == 1 ? OptimizationLevel::O1
                            : optLevel == 2 ? OptimizationLevel::O2
                                            : OptimizationLevel::O3;
  runModulePipeline(module, &target, tuning, [&](PassBuilder &passBuilder) {
    // After inlining, so that thread functions' allocas are seen where
    // their accesses sit in the thread loops.
    passBuilder.registerVectorizerStartEPCallback(
        [](FunctionPassManager &passes, OptimizationLevel) {
          passes.addPass(DropPrivateAccessGroupsPass());
          passes.addPass(GuardWrappingIndicesPass());
        });
    return optLevel == 0 ? passBuilder.buildO0DefaultPipeline(level)
                         : passBuilder.buildPerModuleDefaultPipeline(level);
  });
}

void internalizeDeviceSymbols(Module &device, StringRef table) {
  for (GlobalValue &value : device.global_values()) {
    if (value.isDeclaration() || value.hasLocalLinkage() ||
        value.getName().starts_with("llvm.") || value.getName() == table)
      continue;
    value.setLinkage(GlobalValue::InternalLinkage);
    value.setVisibility(GlobalValue::DefaultVisibility);
    value.setDSOLocal(true);
  }
}

/// Replaces the stand-in fat binary clang embedded with respec's table
/// (a respec_module, or a respec_gpu_module).
static bool pointWrapperAtTable(Module &host, GlobalVariable &table) {
  GlobalVariable *wrapper =
      host.getGlobalVariable(kFatbinWrapperName, /*AllowInternal=*/true);
  if (!wrapper || !wrapper->hasInitializer()) {
    // A translation unit without kernels or device variables: clang emits
    // no registration, and the table is unused.
    return true;
  }
  auto *init = dyn_cast<ConstantStruct>(wrapper->getInitializer());
  if (!init || init->getNumOperands() != 4) {
    errs() << "respec: error: unexpected layout of clang's CUDA fat-binary "
              "wrapper\n";
    return false;
  }
  auto *fatbin =
      dyn_cast<GlobalVariable>(init->getOperand(2)->stripPointerCasts());
  SmallVector<Constant *> fields;
  for (unsigned i = 0; i < init->getNumOperands(); ++i)
    fields.push_back(init->getOperand(i));
  fields[2] = &table;
  wrapper->setInitializer(ConstantStruct::get(init->getType(), fields));
  wrapper->setSection("");
  if (fatbin && fatbin->use_empty())
    fatbin->eraseFromParent();
  return true;
}

/// A private constant global holding `init`.
static GlobalVariable *addConstant(Module &module, Constant *init,
                                   const Twine &name) {
  auto *global = new GlobalVariable(module, init->getType(),
                                    /*isConstant=*/true,
                                    GlobalValue::PrivateLinkage, init, name);
  global->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return global;
}

/// The name a managed variable's device copy has between renaming and
/// merging.
static std::string deviceCopyName(const ManagedVariable &var) {
  return "__respec_managed." + var.symbol;
}

/// Gives the device copy of each managed variable a name of its own, so
/// that linking keeps it apart from the host's shadow of the same name.
static void renameManagedDeviceCopies(Module &device,
                                      ArrayRef<ManagedVariable> managed) {
  for (const ManagedVariable &var : managed)
    if (GlobalVariable *copy =
            device.getGlobalVariable(var.symbol, /*AllowInternal=*/true))
      copy->setName(deviceCopyName(var));
}

/// Turns clang's `__cudaRegisterVar` call for `shadow` into the runtime's
/// registration of a managed variable (same arguments), which also records
/// it as managed memory.
static void registerAsManaged(GlobalVariable &shadow) {
  for (User *user : shadow.users()) {
    auto *call = dyn_cast<CallInst>(user);
    Function *callee = call ? call->getCalledFunction() : nullptr;
    if (!callee || callee->getName() != "__cudaRegisterVar" ||
        call->arg_size() < 2 || call->getArgOperand(1) != &shadow)
      continue;
    FunctionCallee managed = shadow.getParent()->getOrInsertFunction(
        "__respec_register_managed_var", callee->getFunctionType());
    call->setCalledFunction(managed);
  }
}

/// Makes each managed variable one object. On the CPU, device memory is host
/// memory, so the device copy (which kernels use, the kernel table names and
/// which holds the initializer) serves host code as well: the shadow's uses
/// move to it, and it takes the shadow's name and linkage (clang makes
/// shadows internal without -rdc, so, as in clang's CUDA, another
/// translation unit cannot name the variable).
static void mergeManagedShadows(Module &host,
                                ArrayRef<ManagedVariable> managed) {
  for (const ManagedVariable &var : managed) {
    GlobalVariable *copy =
        host.getGlobalVariable(deviceCopyName(var), /*AllowInternal=*/true);
    GlobalVariable *shadow =
        host.getGlobalVariable(var.symbol, /*AllowInternal=*/true);
    if (!copy)
      continue;
    if (!shadow || shadow->isDeclaration()) {
      // Host code does not name it; the device copy alone is the object.
      copy->setName(var.symbol);
      continue;
    }
    copy->setAlignment(std::max(copy->getAlign().valueOrOne(),
                                shadow->getAlign().valueOrOne()));
    registerAsManaged(*shadow);
    shadow->replaceAllUsesWith(copy);
    copy->setLinkage(shadow->getLinkage());
    copy->setVisibility(shadow->getVisibility());
    copy->setDLLStorageClass(shadow->getDLLStorageClass());
    copy->setDSOLocal(shadow->isDSOLocal());
    copy->takeName(shadow);
    shadow->eraseFromParent();
  }
}

bool linkDeviceIntoHost(Module &host, std::unique_ptr<Module> device,
                        ArrayRef<ManagedVariable> managed) {
  internalizeDeviceSymbols(*device, kModuleTableName);
  renameManagedDeviceCopies(*device, managed);
  // Linking renames internal device symbols that clash with host ones.
  if (Linker::linkModules(host, std::move(device))) {
    errs() << "respec: error: could not link device code into host code\n";
    return false;
  }
  mergeManagedShadows(host, managed);
  GlobalVariable *table =
      host.getGlobalVariable(kModuleTableName, /*AllowInternal=*/true);
  if (!table) {
    errs() << "respec: error: device code has no kernel table\n";
    return false;
  }
  table->setLinkage(GlobalValue::InternalLinkage);
  return pointWrapperAtTable(host, *table);
}

/// The respec_cl_kernel_info array of `kernels` (abi.h).
static Constant *buildKernelInfos(Module &module,
                                  ArrayRef<OpenCLKernelSignature> kernels) {
  LLVMContext &context = module.getContext();
  Type *i32 = Type::getInt32Ty(context);
  auto *ptr = PointerType::get(context, 0);
  auto *infoType = StructType::get(context, {ptr, i32, i32, ptr});
  SmallVector<Constant *> infos;
  for (const OpenCLKernelSignature &kernel : kernels) {
    Constant *name =
        addConstant(module, ConstantDataArray::getString(context, kernel.name),
                    "__respec_cl_name");
    Constant *locals = ConstantPointerNull::get(ptr);
    if (!kernel.paramIsLocal.empty())
      locals = addConstant(
          module,
          ConstantDataArray::get(context, ArrayRef(kernel.paramIsLocal)),
          "__respec_cl_locals");
    infos.push_back(ConstantStruct::get(
        infoType, {name, ConstantInt::get(i32, kernel.paramIsLocal.size()),
                   ConstantInt::get(i32, 0), locals}));
  }
  if (infos.empty())
    return ConstantPointerNull::get(ptr);
  return addConstant(
      module, ConstantArray::get(ArrayType::get(infoType, infos.size()), infos),
      "__respec_cl_kernels");
}

bool addOpenCLRegistration(Module &device,
                           ArrayRef<OpenCLKernelSignature> kernels) {
  internalizeDeviceSymbols(device, kModuleTableName);
  GlobalVariable *table =
      device.getGlobalVariable(kModuleTableName, /*AllowInternal=*/true);
  if (!table) {
    errs() << "respec: error: device code has no kernel table\n";
    return false;
  }
  table->setLinkage(GlobalValue::InternalLinkage);
  LLVMContext &context = device.getContext();
  Type *i32 = Type::getInt32Ty(context);
  auto *ptr = PointerType::get(context, 0);
  auto *programType = StructType::get(context, {i32, i32, ptr, ptr});
  Constant *program = addConstant(
      device,
      ConstantStruct::get(programType,
                          {ConstantInt::get(i32, RESPEC_CL_PROGRAM_MAGIC),
                           ConstantInt::get(i32, kernels.size()), table,
                           buildKernelInfos(device, kernels)}),
      "__respec_cl_program");

  FunctionCallee registerProgram = device.getOrInsertFunction(
      "__respec_cl_register_program", Type::getVoidTy(context), ptr);
  auto *constructor = Function::Create(
      FunctionType::get(Type::getVoidTy(context), false),
      GlobalValue::InternalLinkage, "__respec_cl_register", device);
  IRBuilder<> builder(BasicBlock::Create(context, "entry", constructor));
  builder.CreateCall(registerProgram, {program});
  builder.CreateRetVoid();
  appendToGlobalCtors(device, constructor, /*Priority=*/65535);
  return true;
}

bool emitObjectFile(Module &module, TargetMachine &target, StringRef path) {
  std::error_code error;
  raw_fd_ostream out(path, error, sys::fs::OF_None);
  if (error) {
    errs() << "respec: error: cannot write '" << path
           << "': " << error.message() << "\n";
    return false;
  }
  legacy::PassManager passes;
  if (target.addPassesToEmitFile(passes, out, nullptr,
                                 CodeGenFileType::ObjectFile)) {
    errs() << "respec: error: the code generator cannot emit object files\n";
    return false;
  }
  passes.run(module);
  out.flush();
  return true;
}

} // namespace respec

namespace respec {

static constexpr StringLiteral kGPUModuleName = "__respec_gpu_module";

bool linkGPULaunchesIntoHost(Module &host, std::unique_ptr<Module> launches,
                             StringRef ptx, StringRef cubin,
                             StringRef gpuArch) {
  GlobalVariable *table =
      launches->getGlobalVariable(kModuleTableName, /*AllowInternal=*/true);
  if (!table) {
    errs() << "respec: error: host launch code has no kernel table\n";
    return false;
  }
  LLVMContext &context = launches->getContext();
  Type *i32 = Type::getInt32Ty(context);
  Type *i64 = Type::getInt64Ty(context);
  auto *ptr = PointerType::get(context, 0);
  Constant *image = addConstant(
      *launches, ConstantDataArray::getString(context, ptx, /*AddNull=*/true),
      "__respec_ptx_image");
  Constant *arch =
      addConstant(*launches, ConstantDataArray::getString(context, gpuArch),
                  "__respec_gpu_arch");
  Constant *cubinImage = ConstantPointerNull::get(ptr);
  if (!cubin.empty()) {
    GlobalVariable *global = addConstant(
        *launches,
        ConstantDataArray::getString(context, cubin, /*AddNull=*/false),
        "__respec_cubin_image");
    // ELF headers are read in place: keep them aligned.
    global->setAlignment(Align(64));
    cubinImage = global;
  }
  auto *type = StructType::get(
      context, {i32, i32, i32, i32, ptr, ptr, i64, ptr, ptr, i64});
  new GlobalVariable(
      *launches, type, /*isConstant=*/true, GlobalValue::ExternalLinkage,
      ConstantStruct::get(type,
                          {ConstantInt::get(i32, RESPEC_GPU_MODULE_MAGIC),
                           ConstantInt::get(i32, RESPEC_GPU_MODULE_VERSION),
                           ConstantInt::get(i32, RESPEC_GPU_IMAGE_PTX),
                           ConstantInt::get(i32, 0), table, image,
                           ConstantInt::get(i64, ptx.size() + 1), arch,
                           cubinImage, ConstantInt::get(i64, cubin.size())}),
      kGPUModuleName);
  internalizeDeviceSymbols(*launches, kGPUModuleName);
  if (Linker::linkModules(host, std::move(launches))) {
    errs() << "respec: error: could not link the kernels' launch code into "
              "host code\n";
    return false;
  }
  GlobalVariable *linked =
      host.getGlobalVariable(kGPUModuleName, /*AllowInternal=*/true);
  linked->setLinkage(GlobalValue::InternalLinkage);
  return pointWrapperAtTable(host, *linked);
}

} // namespace respec
