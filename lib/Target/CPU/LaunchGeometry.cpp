//===- LaunchGeometry.cpp - Block sizes the host code launches with -------===//
//
// Reads the constant block dimensions of kernel launches from a CUDA
// translation unit's host code, for respec-specialize-block-size. A launch
// is `<<<g, b>>>` (clang: __cudaPushCallConfiguration, then the kernel's
// stub) or a direct cudaLaunchKernel(stub, g, b, ...); stubs map to kernel
// names through the __cudaRegisterFunction calls of the module constructor.
// The constants appear only once the host code is optimized (dim3
// temporaries folded, stubs inlined), so the scan runs on an optimized copy
// of the module. A launch whose block comes from a choice between values
// (`argc > 1 ? atoi(argv[1]) : 256`) contributes the constants among them;
// one whose block is not a constant at all contributes nothing. The
// specialized kernels keep their generic fallback for other sizes.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/CPUBackend.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
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

/// Most values a launch's block dimensions are taken to have, and how far
/// their computation is followed.
constexpr unsigned kMaxCandidates = 4;
constexpr unsigned kMaxCandidateDepth = 6;

/// The constants `value` may be: itself if it is one, or those of the
/// arms of selects and phis it comes from (`bs = argc > 1 ? atoi(argv[1])
/// : 256` may be 256), through the casts, shifts and ors that pack block
/// dimensions. Values that are not constants contribute nothing: the
/// result lists sizes worth a specialized copy, not all sizes possible.
SmallVector<uint64_t> possibleConstants(const Value *value, unsigned depth) {
  SmallVector<uint64_t> result;
  auto add = [&](uint64_t candidate) {
    if (result.size() < kMaxCandidates &&
        !llvm::is_contained(result, candidate))
      result.push_back(candidate);
  };
  if (auto *constant = dyn_cast<ConstantInt>(value)) {
    if (constant->getBitWidth() <= 64)
      add(constant->getZExtValue());
    return result;
  }
  if (depth >= kMaxCandidateDepth)
    return result;
  auto addAll = [&](const Value *from, unsigned shift = 0) {
    for (uint64_t candidate : possibleConstants(from, depth + 1))
      add(candidate << shift);
  };
  if (auto *select = dyn_cast<SelectInst>(value)) {
    addAll(select->getTrueValue());
    addAll(select->getFalseValue());
    return result;
  }
  if (auto *phi = dyn_cast<PHINode>(value)) {
    for (const Value *incoming : phi->incoming_values())
      addAll(incoming);
    return result;
  }
  auto *op = dyn_cast<Operator>(value);
  if (!op)
    return result;
  switch (op->getOpcode()) {
  case Instruction::ZExt:
    addAll(op->getOperand(0));
    break;
  case Instruction::Shl:
    if (auto *shift = dyn_cast<ConstantInt>(op->getOperand(1));
        shift && shift->getZExtValue() < 64)
      addAll(op->getOperand(0), shift->getZExtValue());
    break;
  case Instruction::Or: {
    SmallVector<uint64_t> highs =
        possibleConstants(op->getOperand(1), depth + 1);
    for (uint64_t low : possibleConstants(op->getOperand(0), depth + 1))
      for (uint64_t high : highs)
        add(low | high);
    break;
  }
  default:
    break;
  }
  return result;
}

/// "BXxBYxBZ" for the block dimensions a launch's block arguments may have
/// (see possibleConstants), leaving out what is not a valid CUDA block (such
/// a launch fails at run time).
std::vector<std::string> candidateBlocks(const Value *xy, const Value *z) {
  std::vector<std::string> blocks;
  for (uint64_t bits : possibleConstants(xy, 0))
    for (uint64_t d : possibleConstants(z, 0)) {
      uint64_t x = bits & 0xffffffffu, y = bits >> 32;
      constexpr uint64_t kMaxThreads = 1024, kMaxDepth = 64;
      if (x == 0 || y == 0 || d == 0 || x > kMaxThreads || y > kMaxThreads ||
          d > kMaxDepth || x * y * d > kMaxThreads)
        continue;
      blocks.push_back((Twine(x) + "x" + Twine(y) + "x" + Twine(d)).str());
    }
  return blocks;
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
  auto record = [&](const Function *stub,
                    const std::vector<std::string> &blocks) {
    if (!stub)
      return;
    for (const std::string &block : blocks) {
      std::string entry = stubs.lookup(stub) + "=" + block;
      if (!llvm::is_contained(sizes, entry))
        sizes.push_back(entry);
    }
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
               candidateBlocks(call->getArgOperand(kPushBlockXY),
                               call->getArgOperand(kPushBlockZ)));
      else if (isLaunchAPI(callee) && call->arg_size() > kLaunchBlockZ)
        record(launchedStub(*call, stubs),
               candidateBlocks(call->getArgOperand(kLaunchBlockXY),
                               call->getArgOperand(kLaunchBlockZ)));
    }
  }
  return sizes;
}
