//===- LaunchGeometry.cpp - Block sizes the host code launches with -------===//
//
// Reads the constant block dimensions of kernel launches from a CUDA
// translation unit's host code, for respec-specialize-block-size. A launch
// is `<<<g, b>>>` (clang: __cudaPushCallConfiguration, then the kernel's
// stub) or a direct cudaLaunchKernel(stub, g, b, ...); stubs map to kernel
// names through the __cudaRegisterFunction calls of the module constructor.
// The constants appear only once the host code is optimized (dim3
// temporaries folded, stubs inlined), so the scan runs on an optimized copy
// of the module; a launch whose block is not a constant contributes
// nothing, and the specialized kernels keep their generic fallback.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace {

/// Position of the block dimensions (x | y << 32, z) among the arguments of
/// __cudaPushCallConfiguration and of cudaLaunchKernel.
constexpr unsigned kPushBlockXY = 2, kPushBlockZ = 3;
constexpr unsigned kLaunchBlockXY = 3, kLaunchBlockZ = 4;

bool isLaunchAPI(const Function *callee) {
  if (!callee)
    return false;
  StringRef name = callee->getName();
  name.consume_back("_ptsz");
  return name == "cudaLaunchKernel" || name == "cudaLaunchCooperativeKernel";
}

/// The kernel name of each stub, from the module's registration calls.
DenseMap<const Function *, std::string> registeredStubs(const Module &host) {
  DenseMap<const Function *, std::string> stubs;
  const Function *reg = host.getFunction("__cudaRegisterFunction");
  if (!reg)
    return stubs;
  for (const User *user : reg->users()) {
    auto *call = dyn_cast<CallBase>(user);
    if (!call || call->getCalledFunction() != reg || call->arg_size() < 3)
      continue;
    auto *stub =
        dyn_cast<Function>(call->getArgOperand(1)->stripPointerCasts());
    StringRef name;
    if (stub && getConstantStringInfo(call->getArgOperand(2), name))
      stubs[stub] = name.str();
  }
  return stubs;
}

/// The stub a call launches, if it is a stub call or a launch API call.
const Function *
launchedStub(const CallBase &call,
             const DenseMap<const Function *, std::string> &stubs) {
  const Function *callee = call.getCalledFunction();
  if (callee && stubs.count(callee))
    return callee;
  if (isLaunchAPI(callee) && call.arg_size() > 0) {
    auto *stub = dyn_cast<Function>(call.getArgOperand(0)->stripPointerCasts());
    if (stub && stubs.count(stub))
      return stub;
  }
  return nullptr;
}

/// "BXxBYxBZ" from constant block arguments, or "" if they are not
/// constants or not a valid CUDA block (such a launch fails at run time).
std::string constantBlock(const Value *xy, const Value *z) {
  auto *packed = dyn_cast<ConstantInt>(xy);
  auto *depth = dyn_cast<ConstantInt>(z);
  if (!packed || !depth)
    return "";
  uint64_t bits = packed->getZExtValue();
  uint64_t x = bits & 0xffffffffu, y = bits >> 32, d = depth->getZExtValue();
  constexpr uint64_t kMaxThreads = 1024, kMaxDepth = 64;
  if (x == 0 || y == 0 || d == 0 || x > kMaxThreads || y > kMaxThreads ||
      d > kMaxDepth || x * y * d > kMaxThreads)
    return "";
  return (Twine(x) + "x" + Twine(y) + "x" + Twine(d)).str();
}

/// The first stub launched after `push`: later in its block, else in the
/// blocks reached from it (clang branches on the push's result first).
const Function *
stubAfterPush(const CallBase &push,
              const DenseMap<const Function *, std::string> &stubs) {
  SetVector<const BasicBlock *> blocks;
  blocks.insert(push.getParent());
  constexpr unsigned kMaxBlocks = 8;
  for (unsigned i = 0; i < blocks.size() && i < kMaxBlocks; ++i) {
    const BasicBlock *block = blocks[i];
    auto begin = i == 0 ? std::next(push.getIterator()) : block->begin();
    bool nextConfiguration = false;
    for (const Instruction &inst : make_range(begin, block->end())) {
      auto *call = dyn_cast<CallBase>(&inst);
      if (!call)
        continue;
      if (const Function *stub = launchedStub(*call, stubs))
        return stub;
      // Another launch's configuration: this path skipped the launch (the
      // push failed), search the others.
      if (call->getCalledFunction() == push.getCalledFunction()) {
        nextConfiguration = true;
        break;
      }
    }
    if (!nextConfiguration)
      for (const BasicBlock *next : successors(block))
        blocks.insert(next);
  }
  return nullptr;
}

} // namespace

std::vector<std::string> respec::findLaunchBlockSizes(const Module &host,
                                                      TargetMachine &target) {
  // An optimized copy: -O0 host code keeps dim3 values in memory and marks
  // functions optnone and noinline.
  std::unique_ptr<Module> copy = CloneModule(host);
  for (Function &function : *copy) {
    function.removeFnAttr(Attribute::OptimizeNone);
    function.removeFnAttr(Attribute::NoInline);
  }
  optimizeModule(*copy, target, 1);

  DenseMap<const Function *, std::string> stubs = registeredStubs(*copy);
  std::vector<std::string> sizes;
  auto record = [&](const Function *stub, const std::string &block) {
    if (!stub || block.empty())
      return;
    std::string entry = stubs.lookup(stub) + "=" + block;
    if (!llvm::is_contained(sizes, entry))
      sizes.push_back(entry);
  };
  for (const Function &function : *copy) {
    for (const Instruction &inst : instructions(function)) {
      auto *call = dyn_cast<CallBase>(&inst);
      const Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee)
        continue;
      if (callee->getName() == "__cudaPushCallConfiguration" &&
          call->arg_size() > kPushBlockZ)
        record(stubAfterPush(*call, stubs),
               constantBlock(call->getArgOperand(kPushBlockXY),
                             call->getArgOperand(kPushBlockZ)));
      else if (isLaunchAPI(callee) && call->arg_size() > kLaunchBlockZ)
        record(launchedStub(*call, stubs),
               constantBlock(call->getArgOperand(kLaunchBlockXY),
                             call->getArgOperand(kLaunchBlockZ)));
    }
  }
  return sizes;
}
