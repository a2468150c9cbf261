//===- LowerDeviceIntrinsics.cpp - NVVM intrinsics to CPU code ------------===//
//
// After raising, the only NVPTX-specific things left in a kernel are calls to
// libdevice (`__nv_*`), NVVM intrinsics and ops (fences, clocks, barriers,
// warp primitives) and NVPTX function attributes. This pass maps them to CPU
// code, or rejects the kernel with a message at the user's source line when
// the CPU back end does not implement the feature yet.
//
//===----------------------------------------------------------------------===//

#include "respec/Frontend/InlinePTX.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"

#include "llvm/ADT/StringSwitch.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Demangle/Demangle.h"

namespace mlir::respec {
#define GEN_PASS_DEF_LOWERDEVICEINTRINSICSTOCPUPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// libdevice functions with an LLVM intrinsic of the same signature. The
/// intrinsic form lets LLVM constant-fold, vectorize and pick the CPU's
/// instructions; everything else stays a call into respec's device math
/// library (runtime/cpu), which implements all of libdevice.
static const llvm::StringMap<StringRef> &libdeviceIntrinsics() {
  static const llvm::StringMap<StringRef> map = {
      {"__nv_sqrtf", "llvm.sqrt.f32"},     {"__nv_sqrt", "llvm.sqrt.f64"},
      {"__nv_fabsf", "llvm.fabs.f32"},     {"__nv_fabs", "llvm.fabs.f64"},
      {"__nv_floorf", "llvm.floor.f32"},   {"__nv_floor", "llvm.floor.f64"},
      {"__nv_ceilf", "llvm.ceil.f32"},     {"__nv_ceil", "llvm.ceil.f64"},
      {"__nv_truncf", "llvm.trunc.f32"},   {"__nv_trunc", "llvm.trunc.f64"},
      {"__nv_rintf", "llvm.rint.f32"},     {"__nv_rint", "llvm.rint.f64"},
      {"__nv_nearbyintf", "llvm.nearbyint.f32"},
      {"__nv_nearbyint", "llvm.nearbyint.f64"},
      {"__nv_roundf", "llvm.round.f32"},   {"__nv_round", "llvm.round.f64"},
      {"__nv_fminf", "llvm.minnum.f32"},   {"__nv_fmin", "llvm.minnum.f64"},
      {"__nv_fmaxf", "llvm.maxnum.f32"},   {"__nv_fmax", "llvm.maxnum.f64"},
      {"__nv_fmaf", "llvm.fma.f32"},       {"__nv_fma", "llvm.fma.f64"},
      {"__nv_copysignf", "llvm.copysign.f32"},
      {"__nv_copysign", "llvm.copysign.f64"},
      {"__nv_sinf", "llvm.sin.f32"},       {"__nv_sin", "llvm.sin.f64"},
      {"__nv_cosf", "llvm.cos.f32"},       {"__nv_cos", "llvm.cos.f64"},
      {"__nv_expf", "llvm.exp.f32"},       {"__nv_exp", "llvm.exp.f64"},
      {"__nv_exp2f", "llvm.exp2.f32"},     {"__nv_exp2", "llvm.exp2.f64"},
      {"__nv_logf", "llvm.log.f32"},       {"__nv_log", "llvm.log.f64"},
      {"__nv_log2f", "llvm.log2.f32"},     {"__nv_log2", "llvm.log2.f64"},
      {"__nv_log10f", "llvm.log10.f32"},   {"__nv_log10", "llvm.log10.f64"},
      {"__nv_powf", "llvm.pow.f32"},       {"__nv_pow", "llvm.pow.f64"},
      {"__nv_fast_expf", "llvm.exp.f32"},  {"__nv_fast_exp10f", "llvm.exp10.f32"},
      {"__nv_fast_logf", "llvm.log.f32"},  {"__nv_fast_log2f", "llvm.log2.f32"},
      {"__nv_fast_log10f", "llvm.log10.f32"},
      {"__nv_fast_sinf", "llvm.sin.f32"},  {"__nv_fast_cosf", "llvm.cos.f32"},
      {"__nv_fast_powf", "llvm.pow.f32"},
      {"__nv_popc", "llvm.ctpop.i32"},     {"__nv_brev", "llvm.bitreverse.i32"},
      {"__nv_brevll", "llvm.bitreverse.i64"},
      {"__nv_min", "llvm.smin.i32"},       {"__nv_max", "llvm.smax.i32"},
      {"__nv_umin", "llvm.umin.i32"},      {"__nv_umax", "llvm.umax.i32"},
      {"__nv_llmin", "llvm.smin.i64"},     {"__nv_llmax", "llvm.smax.i64"},
      {"__nv_ullmin", "llvm.umin.i64"},    {"__nv_ullmax", "llvm.umax.i64"},
  };
  return map;
}

/// The kind of a device feature, by the NVVM op or intrinsic that expresses
/// it.
enum class DeviceFeature { Barrier, Warp, Fence, Clock, GlobalTimer, Other };

static DeviceFeature classifyNVVM(StringRef name) {
  if (name.contains("membar") || name.contains("memory.barrier") ||
      name.starts_with("fence"))
    return DeviceFeature::Fence;
  if (name.contains("bar.warp") || name.contains("shfl") ||
      name.contains("vote") || name.contains("match") ||
      name.contains("redux") || name.contains("activemask") ||
      name.contains("elect"))
    return DeviceFeature::Warp;
  if (name.contains("barrier") || name.starts_with("bar."))
    return DeviceFeature::Barrier;
  if (name.contains("sreg.clock"))
    return DeviceFeature::Clock;
  if (name.contains("globaltimer"))
    return DeviceFeature::GlobalTimer;
  return DeviceFeature::Other;
}

/// The CUDA spelling of a warp-level NVVM intrinsic or op, for diagnostics.
static std::string cudaSpellingOfWarpFeature(StringRef name) {
  static constexpr std::pair<StringLiteral, StringLiteral> spellings[] = {
      {"shfl.sync.down", "__shfl_down_sync"}, {"shfl.sync.up", "__shfl_up_sync"},
      {"shfl.sync.bfly", "__shfl_xor_sync"},  {"shfl.sync.idx", "__shfl_sync"},
      {"vote.sync.ballot", "__ballot_sync"},  {"vote.sync.any", "__any_sync"},
      {"vote.sync.all", "__all_sync"},        {"vote.sync.uni", "__all_sync"},
      {"vote.ballot", "__ballot_sync"},       {"vote.any", "__any_sync"},
      {"vote.all", "__all_sync"},             {"match.any", "__match_any_sync"},
      {"match.all", "__match_all_sync"},      {"redux", "__reduce_*_sync"},
      {"bar.warp.sync", "__syncwarp"},        {"activemask", "__activemask"},
  };
  for (auto [fragment, spelling] : spellings)
    if (name.contains(fragment))
      return spelling.str();
  return name.str();
}

/// Returns the CUDA-level name of the kernel whose per-thread function (or
/// any other function) contains `op`, for diagnostics.
static std::string userFunctionName(Operation *op) {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  if (!func)
    return "<unknown>";
  StringRef name = func.getSymName();
  if (auto kernel = func->getAttrOfType<StringAttr>(kThreadFunctionOfAttr))
    name = kernel.getValue();
  // Kernels with barriers are inlined into their launch function.
  if (auto kernel = func->getAttrOfType<StringAttr>(kKernelNameAttr))
    name = kernel.getValue();
  return llvm::demangle(name.str());
}

static LLVM::LLVMFuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                               Type result,
                                               ArrayRef<Type> params = {}) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name,
                                  LLVM::LLVMFunctionType::get(result, params));
}

/// Replaces `op` (a clock or timer read) by a call to the runtime, truncated
/// to the width the op produced.
static void replaceWithTimerCall(Operation *op, StringRef runtimeFunction) {
  auto module = op->getParentOfType<ModuleOp>();
  OpBuilder builder(op);
  Type i64 = builder.getI64Type();
  LLVM::LLVMFuncOp callee = declareRuntimeFunction(module, runtimeFunction, i64);
  Value value =
      LLVM::CallOp::create(builder, op->getLoc(), callee, ValueRange{})
          .getResult();
  Type resultType = op->getResult(0).getType();
  if (resultType != i64)
    value = LLVM::TruncOp::create(builder, op->getLoc(), resultType, value);
  op->getResult(0).replaceAllUsesWith(value);
  op->erase();
}

/// PTX's `fns` (CUDA's `__fns`, the n-th set bit of a mask, which
/// cooperative groups' coalesced groups use) has no x86 instruction: the
/// runtime computes it.
static void replaceFindNthSetBit(LLVM::CallIntrinsicOp fns) {
  auto module = fns->getParentOfType<ModuleOp>();
  OpBuilder builder(fns);
  Type i32 = builder.getI32Type();
  LLVM::LLVMFuncOp callee =
      declareRuntimeFunction(module, "__respec_fns", i32, {i32, i32, i32});
  auto call =
      LLVM::CallOp::create(builder, fns.getLoc(), callee, fns.getArgs());
  fns.getResult(0).replaceAllUsesWith(call.getResult());
  fns.erase();
}

/// `__trap()` would be the CPU's trap instruction (SIGILL, no message):
/// the runtime reports it and stops the process instead.
static void replaceTrap(LLVM::Trap trap) {
  auto module = trap->getParentOfType<ModuleOp>();
  OpBuilder builder(trap);
  LLVM::LLVMFuncOp callee = declareRuntimeFunction(
      module, "__respec_trap", LLVM::LLVMVoidType::get(trap.getContext()));
  LLVM::CallOp::create(builder, trap.getLoc(), callee, ValueRange{});
  trap.erase();
}

static void replaceWithFence(Operation *op) {
  OpBuilder builder(op);
  LLVM::FenceOp::create(builder, op->getLoc(), LLVM::AtomicOrdering::seq_cst);
  for (Value result : op->getResults())
    if (!result.use_empty())
      return;
  op->erase();
}

/// Lowers one NVVM op or intrinsic call named `name`; fails with a diagnostic
/// for features the CPU back end does not have.
static LogicalResult lowerNVVMFeature(Operation *op, StringRef name,
                                      StringRef userSpelling) {
  switch (classifyNVVM(name)) {
  case DeviceFeature::Fence:
    replaceWithFence(op);
    return success();
  case DeviceFeature::Clock:
    replaceWithTimerCall(op, "__respec_clock64");
    return success();
  case DeviceFeature::GlobalTimer:
    replaceWithTimerCall(op, "__respec_globaltimer_ns");
    return success();
  case DeviceFeature::Barrier:
    return op->emitError()
           << "'" << userFunctionName(op)
           << "' uses a block barrier (__syncthreads) but could not be "
              "inlined into its kernel (recursion or a call through a "
              "pointer); respec lowers barriers only inside kernels";
  case DeviceFeature::Warp:
    return op->emitError()
           << "kernel '" << userFunctionName(op)
           << "' uses a warp-level primitive ("
           << cudaSpellingOfWarpFeature(userSpelling)
           << ") that the CPU back end does not support here (it supports "
              "__activemask only where warps run as interleaved lanes: no "
              "__syncthreads in the kernel, not in a for loop whose bounds "
              "differ between lanes; no shuffles with a validity "
              "predicate; no primitives in functions that could not be "
              "inlined into their kernel)";
  case DeviceFeature::Other:
    return op->emitError() << "kernel '" << userFunctionName(op)
                           << "' uses the device intrinsic '" << userSpelling
                           << "', which respec does not support on the CPU";
  }
  llvm_unreachable("covered switch");
}

/// IEEE operations of libdevice rounded to nearest (`__fadd_rn`,
/// `__dmul_rn`, `__fsqrt_rn`, ...): the CPU's own operations, which round to
/// nearest as every other device operation does, but never contracted into
/// a fused multiply-add (CUDA's reason to call them). The other rounding
/// modes stay calls into the runtime, which switches the FP environment.
enum class RoundedOp { Add, Sub, Mul, Div, Reciprocal, Sqrt, Fma };

static std::optional<RoundedOp> roundToNearestOp(StringRef callee) {
  return llvm::StringSwitch<std::optional<RoundedOp>>(callee)
      .Cases({"__nv_fadd_rn", "__nv_dadd_rn"}, RoundedOp::Add)
      .Cases({"__nv_fsub_rn", "__nv_dsub_rn"}, RoundedOp::Sub)
      .Cases({"__nv_fmul_rn", "__nv_dmul_rn"}, RoundedOp::Mul)
      .Cases({"__nv_fdiv_rn", "__nv_ddiv_rn"}, RoundedOp::Div)
      .Cases({"__nv_frcp_rn", "__nv_drcp_rn"}, RoundedOp::Reciprocal)
      .Cases({"__nv_fsqrt_rn", "__nv_dsqrt_rn"}, RoundedOp::Sqrt)
      .Cases({"__nv_fmaf_rn", "__nv_fmaf_ieee_rn", "__nv_fma_rn"},
             RoundedOp::Fma)
      .Default(std::nullopt);
}

/// Replaces a call of a round-to-nearest libdevice operation by the
/// operation, without fast-math flags. Returns false if `call` is not one.
static bool lowerRoundToNearestCall(LLVM::CallOp call, StringRef callee) {
  std::optional<RoundedOp> op = roundToNearestOp(callee);
  if (!op || call.getNumResults() != 1)
    return false;
  OpBuilder builder(call);
  Location loc = call.getLoc();
  ValueRange args = call.getArgOperands();
  Type type = call.getResult().getType();
  Value result;
  switch (*op) {
  case RoundedOp::Add:
    result = LLVM::FAddOp::create(builder, loc, args[0], args[1]);
    break;
  case RoundedOp::Sub:
    result = LLVM::FSubOp::create(builder, loc, args[0], args[1]);
    break;
  case RoundedOp::Mul:
    result = LLVM::FMulOp::create(builder, loc, args[0], args[1]);
    break;
  case RoundedOp::Div:
    result = LLVM::FDivOp::create(builder, loc, args[0], args[1]);
    break;
  case RoundedOp::Reciprocal: {
    Value one = LLVM::ConstantOp::create(builder, loc, type,
                                         builder.getFloatAttr(type, 1.0));
    result = LLVM::FDivOp::create(builder, loc, one, args[0]);
    break;
  }
  case RoundedOp::Sqrt:
    result = LLVM::SqrtOp::create(builder, loc, args[0]);
    break;
  case RoundedOp::Fma:
    result = LLVM::FMAOp::create(builder, loc, args[0], args[1], args[2]);
    break;
  }
  call.getResult().replaceAllUsesWith(result);
  call.erase();
  return true;
}

static void lowerLibdeviceCall(LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  if (!callee || lowerRoundToNearestCall(call, *callee))
    return;
  auto it = libdeviceIntrinsics().find(*callee);
  if (it == libdeviceIntrinsics().end())
    return;
  OpBuilder builder(call);
  auto fastmath = call.getFastmathFlagsAttr();
  if (!fastmath)
    fastmath = LLVM::FastmathFlagsAttr::get(call.getContext(),
                                            LLVM::FastmathFlags::none);
  auto intrinsic = LLVM::CallIntrinsicOp::create(
      builder, call.getLoc(), call.getResultTypes(),
      builder.getStringAttr(it->second), call.getArgOperands(), fastmath);
  call->replaceAllUsesWith(intrinsic->getResults());
  call.erase();
}

/// NVPTX function attributes (target CPU sm_XX, PTX features) would be
/// misread by the CPU code generator, and `convergent` only restrains
/// optimizations that are legal on the CPU.
static void dropNVPTXAttributes(LLVM::LLVMFuncOp func) {
  func.setTargetCpuAttr(nullptr);
  func.setTargetFeaturesAttr(nullptr);
  func.setConvergent(false);
  if (ArrayAttr passthrough = func.getPassthroughAttr()) {
    SmallVector<Attribute> kept;
    for (Attribute attr : passthrough) {
      auto pair = dyn_cast<ArrayAttr>(attr);
      auto key = pair ? dyn_cast<StringAttr>(pair[0]) : StringAttr();
      if (key && (key.getValue() == "target-cpu" ||
                  key.getValue() == "target-features"))
        continue;
      kept.push_back(attr);
    }
    func.setPassthroughAttr(ArrayAttr::get(func.getContext(), kept));
  }
}

/// CUDA's device-side `vprintf` and `__assertfail` have respec runtime
/// implementations under reserved names: the C library's `vprintf` takes a
/// va_list, not CUDA's packed argument buffer.
static void renameRuntimeServices(ModuleOp module) {
  static constexpr std::pair<StringLiteral, StringLiteral> renames[] = {
      {"vprintf", "__respec_vprintf"},
      {"__assertfail", "__respec_assertfail"},
  };
  for (auto [cudaName, respecName] : renames) {
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(cudaName);
    if (!func || !func.isExternal())
      continue;
    auto newName = StringAttr::get(module.getContext(), respecName);
    if (failed(SymbolTable::replaceAllSymbolUses(func, newName, module)))
      continue;
    func.setSymName(respecName);
  }
}

/// NVPTX synchronization scopes ("block", "device", ...) have no meaning on
/// the CPU; system scope is at least as strong.
static void widenSyncScope(Operation *op) {
  if (op->hasAttr("syncscope"))
    op->removeAttr("syncscope");
}

namespace {
struct LowerDeviceIntrinsicsToCPUPass
    : public mlir::respec::impl::LowerDeviceIntrinsicsToCPUPassBase<
          LowerDeviceIntrinsicsToCPUPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    renameRuntimeServices(module);
    bool failedAny = false;
    SmallVector<Operation *> worklist;
    module.walk([&](Operation *op) { worklist.push_back(op); });
    for (Operation *op : worklist) {
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op)) {
        dropNVPTXAttributes(func);
        continue;
      }
      if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        call.setConvergent(false);
        lowerLibdeviceCall(call);
        continue;
      }
      if (auto trap = dyn_cast<LLVM::Trap>(op)) {
        replaceTrap(trap);
        continue;
      }
      if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::FenceOp,
              LLVM::LoadOp, LLVM::StoreOp>(op)) {
        widenSyncScope(op);
        continue;
      }
      if (auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op)) {
        StringRef name = intrinsic.getIntrin();
        if (name == "llvm.nvvm.fns" && intrinsic.getNumResults() == 1 &&
            intrinsic.getArgs().size() == 3) {
          replaceFindNthSetBit(intrinsic);
          continue;
        }
        if (name.starts_with("llvm.nvvm."))
          failedAny |= failed(lowerNVVMFeature(op, name, name));
        continue;
      }
      if (auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op)) {
        // Assembly without side effects or memory clobbers whose result
        // nobody uses does nothing (cooperative groups' headers compute a
        // reserved shared memory pointer that way and may not use it).
        if (!inlineAsm.getHasSideEffects() && inlineAsm->use_empty() &&
            !inlineAsm.getConstraints().contains("~{memory}")) {
          inlineAsm.erase();
          continue;
        }
        // The driver translated the PTX it knows (InlinePTX.cpp); name
        // the first instruction it could not.
        std::string untranslated = ::respec::describeUntranslatedPTX(
            inlineAsm.getAsmString(), inlineAsm.getConstraints());
        if (untranslated.empty())
          untranslated = inlineAsm.getAsmString().trim().str();
        op->emitError() << "kernel '" << userFunctionName(op)
                        << "' uses inline PTX assembly ('" << untranslated
                        << "') that respec cannot translate for the CPU";
        failedAny = true;
        continue;
      }
      if (isa<NVVM::NVVMDialect>(op->getDialect()))
        failedAny |= failed(lowerNVVMFeature(
            op, op->getName().stripDialect(), op->getName().getStringRef()));
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
