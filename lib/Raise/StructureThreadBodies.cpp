//===- StructureThreadBodies.cpp - Kernel bodies as structured loops ------===//
//
// After raising, a kernel is a thread loop calling its per-thread function,
// whose body is an LLVM control-flow graph. Barrier lowering needs to see the
// body inside the thread loop, in structured form (scf.if, scf.index_switch,
// scf.while), with `__syncthreads` as `respec.barrier` ops that name the
// thread loop they synchronize (../shared/DESIGN.md, "The parallel IR").
//
// For every kernel that uses a block barrier (or a warp primitive, which the
// CPU back end implements with barriers) this pass
//   1. inlines the per-thread function into its thread loop, inside an
//      scf.execute_region (a region may hold a CFG),
//   2. lifts the CFG to structured control flow with MLIR's CFG-to-SCF
//      algorithm (it also structures irreducible graphs, by construction),
//   3. replaces the NVVM barrier intrinsics by respec.barrier and
//      respec.reduce_barrier.
// Kernels without barriers whose threads run a loop are structured too,
// when their graph allows it, for the CPU back end's thread vectorizer;
// the others keep the call, which LLVM inlines when it compiles the module.
//
//===----------------------------------------------------------------------===//

#include "respec/Dialect/RespecDialect.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/BarrierIntrinsics.h"
#include "respec/Transforms/Passes.h"

#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Demangle/Demangle.h"

namespace mlir::respec {
#define GEN_PASS_DEF_STRUCTURETHREADBODIESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {
/// CFG-to-SCF lifting for LLVM dialect branches. The lifting algorithm
/// itself inserts cf.cond_br / cf.switch multiplexers, which the upstream
/// transformation handles; llvm.cond_br and llvm.switch are added here.
class LLVMControlFlowToSCF : public ControlFlowToSCFTransformation {
public:
  FailureOr<Operation *>
  createStructuredBranchRegionOp(OpBuilder &builder, Operation *branch,
                                 TypeRange resultTypes,
                                 MutableArrayRef<Region> regions) override {
    if (auto condBr = dyn_cast<LLVM::CondBrOp>(branch)) {
      auto ifOp = scf::IfOp::create(builder, branch->getLoc(), resultTypes,
                                    condBr.getCondition());
      ifOp.getThenRegion().takeBody(regions[0]);
      ifOp.getElseRegion().takeBody(regions[1]);
      return ifOp.getOperation();
    }
    if (auto switchOp = dyn_cast<LLVM::SwitchOp>(branch))
      return createIndexSwitch(builder, switchOp, resultTypes, regions);
    return ControlFlowToSCFTransformation::createStructuredBranchRegionOp(
        builder, branch, resultTypes, regions);
  }

  Value getUndefValue(Location loc, OpBuilder &builder, Type type) override {
    if (LLVM::isCompatibleType(type))
      return LLVM::PoisonOp::create(builder, loc, type);
    return ControlFlowToSCFTransformation::getUndefValue(loc, builder, type);
  }

  /// Only reached for statically infinite loops: a thread that never leaves
  /// the loop never reaches the end of the body.
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &) override {
    return scf::YieldOp::create(builder, loc).getOperation();
  }

private:
  /// llvm.switch on an integer of any width: the cases (sign-extended, as
  /// the flag is) select the regions after the default one.
  static FailureOr<Operation *>
  createIndexSwitch(OpBuilder &builder, LLVM::SwitchOp switchOp,
                    TypeRange resultTypes, MutableArrayRef<Region> regions) {
    Location loc = switchOp.getLoc();
    Value flag = arith::IndexCastOp::create(
        builder, loc, builder.getIndexType(), switchOp.getValue());
    SmallVector<int64_t> cases;
    if (std::optional<DenseIntElementsAttr> values = switchOp.getCaseValues())
      for (const APInt &value : values->getValues<APInt>())
        cases.push_back(value.getSExtValue());
    auto indexSwitch = scf::IndexSwitchOp::create(
        builder, loc, resultTypes, flag,
        builder.getDenseI64ArrayAttr(cases), cases.size());
    indexSwitch.getDefaultRegion().takeBody(regions[0]);
    for (auto [target, source] :
         llvm::zip(indexSwitch.getCaseRegions(), regions.drop_front()))
      target.takeBody(source);
    return indexSwitch.getOperation();
  }
};
} // namespace

/// Barriers and the warp primitives the CPU back end implements with them
/// need the body inside the thread loop.
static bool usesBlockOrWarpSync(LLVM::LLVMFuncOp func) {
  return func
      .walk([](Operation *op) {
        auto intrinsic = dyn_cast<LLVM::CallIntrinsicOp>(op);
        return (intrinsic && getBarrierIntrinsicKind(intrinsic.getIntrin())) ||
                       getWarpPrimitiveKind(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Replaces `call` by an scf.execute_region holding a copy of the callee's
/// body; `llvm.return` and `llvm.unreachable` become scf.yield (an
/// unreachable point may be given any behaviour).
static scf::ExecuteRegionOp inlineAsRegion(LLVM::CallOp call,
                                           LLVM::LLVMFuncOp callee) {
  OpBuilder builder(call);
  auto region =
      scf::ExecuteRegionOp::create(builder, call.getLoc(), TypeRange{});
  IRMapping mapping;
  callee.getBody().cloneInto(&region.getRegion(), mapping);
  Block &entry = region.getRegion().front();
  for (auto [arg, operand] :
       llvm::zip(entry.getArguments(), call.getArgOperands()))
    arg.replaceAllUsesWith(operand);
  entry.eraseArguments(0, entry.getNumArguments());
  for (Block &block : region.getRegion()) {
    Operation *terminator = block.getTerminator();
    if (!isa<LLVM::ReturnOp, LLVM::UnreachableOp>(terminator))
      continue;
    builder.setInsertionPoint(terminator);
    scf::YieldOp::create(builder, terminator->getLoc());
    terminator->erase();
  }
  call.erase();
  return region;
}

/// Moves the single block of `region` in front of it.
static void inlineSingleBlockRegion(scf::ExecuteRegionOp region) {
  Block &block = region.getRegion().front();
  block.getTerminator()->erase();
  region->getBlock()->getOperations().splice(region->getIterator(),
                                             block.getOperations());
  region.erase();
}

/// Replaces the NVVM barrier intrinsics nested in `threadLoop` by respec ops
/// that name its induction variables.
static LogicalResult raiseBarriers(scf::ParallelOp threadLoop,
                                   StringRef kernelName) {
  SmallVector<LLVM::CallIntrinsicOp> calls;
  threadLoop.walk([&](LLVM::CallIntrinsicOp call) {
    if (getBarrierIntrinsicKind(call.getIntrin()))
      calls.push_back(call);
  });
  SmallVector<Value> threads(threadLoop.getInductionVars());
  for (LLVM::CallIntrinsicOp call : calls) {
    BarrierIntrinsicKind kind = *getBarrierIntrinsicKind(call.getIntrin());
    OpBuilder builder(call);
    Location loc = call.getLoc();
    if (kind == BarrierIntrinsicKind::Unsupported)
      return call.emitError()
             << "kernel '" << kernelName
             << "' uses a barrier over part of the block "
                "(__barrier_sync_count, '"
             << call.getIntrin()
             << "'); respec supports __syncthreads, __syncthreads_count, "
                "__syncthreads_and, __syncthreads_or and __barrier_sync";
    if (kind == BarrierIntrinsicKind::Sync) {
      BarrierOp::create(builder, loc, threads);
      call.erase();
      continue;
    }
    // The predicate is the last i32/i1 operand; any non-zero value is true.
    Value predicate = call.getArgs().back();
    if (!predicate.getType().isInteger(1)) {
      Value zero = LLVM::ConstantOp::create(
          builder, loc, predicate.getType(),
          builder.getIntegerAttr(predicate.getType(), 0));
      predicate = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                       predicate, zero);
    }
    StringRef reduction = kind == BarrierIntrinsicKind::Popc  ? "popc"
                          : kind == BarrierIntrinsicKind::And ? "and"
                                                              : "or";
    Value result = ReduceBarrierOp::create(builder, loc, builder.getI32Type(),
                                           builder.getStringAttr(reduction),
                                           predicate, threads);
    // The _and and _or intrinsics return i1, the _count one i32.
    Type resultType = call.getResult(0).getType();
    if (resultType != result.getType())
      result = LLVM::TruncOp::create(builder, loc, resultType, result);
    call.getResult(0).replaceAllUsesWith(result);
    call.erase();
  }
  return success();
}

/// Finds the thread loop of `launch` and the call of the per-thread
/// function in it.
static LLVM::CallOp findThreadCall(LLVM::LLVMFuncOp launch) {
  LLVM::CallOp found;
  launch.walk([&](LLVM::CallOp call) {
    auto loop = call->getParentOfType<scf::ParallelOp>();
    auto level =
        loop ? loop->getAttrOfType<StringAttr>(kParallelLevelAttr) : nullptr;
    if (level && level.getValue() == kBlockLevel)
      found = call;
  });
  return found;
}

/// True if the body of `func` has a cycle: a branch to a block that does
/// not come after the branching block (the import lays blocks out in
/// program order, so that is a loop's back edge).
static bool hasLoop(LLVM::LLVMFuncOp func) {
  DenseMap<Block *, unsigned> position;
  for (Block &block : func.getBody())
    position[&block] = position.size();
  for (Block &block : func.getBody())
    for (Block *successor : block.getSuccessors())
      if (position.lookup(successor) <= position.lookup(&block))
        return true;
  return false;
}

/// True if the CFG of `callee` inlined at `call` can be structured: tried
/// on a copy of the function that holds the call.
static bool canStructure(LLVM::LLVMFuncOp launch, LLVM::CallOp call,
                         LLVM::LLVMFuncOp callee) {
  IRMapping mapping;
  Operation *copy = launch->clone(mapping);
  auto copiedCall = cast<LLVM::CallOp>(mapping.lookup(call.getOperation()));
  scf::ExecuteRegionOp region = inlineAsRegion(copiedCall, callee);
  LLVMControlFlowToSCF transformation;
  DominanceInfo dominance(region);
  bool structured = succeeded(transformCFGToSCF(region.getRegion(),
                                                transformation, dominance)) &&
                    region.getRegion().hasOneBlock();
  copy->erase();
  return structured;
}

static LogicalResult structureKernel(LLVM::LLVMFuncOp launch,
                                     SymbolTable &symbols,
                                     bool barrierFreeKernels) {
  LLVM::CallOp call = findThreadCall(launch);
  if (!call || !call.getCallee())
    return success();
  auto threadFn = symbols.lookup<LLVM::LLVMFuncOp>(*call.getCallee());
  // In a kernel structured before, the calls left in the thread loop are
  // the kernel's own calls of device functions.
  if (!threadFn || threadFn.isExternal() ||
      !threadFn->hasAttr(kThreadFunctionOfAttr))
    return success();
  // Kernels with barriers must be structured. Those without are structured
  // too where each thread runs a loop, so that the CPU back end can run the
  // threads of a block as SIMD lanes around it (LLVM's loop vectorizer
  // only handles innermost loops), and all of them when asked (the CPU
  // back end splits their thread loops where branches on the thread index
  // change); where that fails they keep the call.
  if (!usesBlockOrWarpSync(threadFn) &&
      !((hasLoop(threadFn) || barrierFreeKernels) &&
        canStructure(launch, call, threadFn)))
    return success();
  std::string kernelName = llvm::demangle(
      launch->getAttrOfType<StringAttr>(kKernelNameAttr).getValue().str());
  auto threadLoop = call->getParentOfType<scf::ParallelOp>();

  scf::ExecuteRegionOp region = inlineAsRegion(call, threadFn);
  LLVMControlFlowToSCF transformation;
  DominanceInfo dominance(region);
  if (failed(transformCFGToSCF(region.getRegion(), transformation,
                               dominance)))
    return region.emitError()
           << "kernel '" << kernelName
           << "': the control flow around its __syncthreads could not be "
              "structured";
  if (!region.getRegion().hasOneBlock())
    return region.emitError() << "kernel '" << kernelName
                              << "': control flow left unstructured";
  inlineSingleBlockRegion(region);
  if (failed(raiseBarriers(threadLoop, kernelName)))
    return failure();
  if (SymbolTable::symbolKnownUseEmpty(threadFn, threadFn->getParentOp()))
    threadFn.erase();
  return success();
}

namespace {
struct StructureThreadBodiesPass
    : public respec::impl::StructureThreadBodiesPassBase<
          StructureThreadBodiesPass> {
  using StructureThreadBodiesPassBase::StructureThreadBodiesPassBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<LLVM::LLVMFuncOp> launches;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (func->hasAttr(kKernelNameAttr))
        launches.push_back(func);
    bool failedAny = false;
    for (LLVM::LLVMFuncOp launch : launches)
      failedAny |=
          failed(structureKernel(launch, symbols, barrierFreeKernels));
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
