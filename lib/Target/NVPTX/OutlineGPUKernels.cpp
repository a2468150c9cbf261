//===- OutlineGPUKernels.cpp - Grid loops to NVVM kernels -----------------===//
//
// On an NVIDIA GPU the parallel IR's loops are the hardware's: each grid
// `scf.parallel` becomes one kernel whose blocks are the loop's iterations
// and whose threads are the iterations of the thread loop inside it. The
// launch function's other code (kernel-argument loads, launch geometry,
// coarsening choices) stays on the host; every value the loop uses from it
// becomes a kernel parameter. So a coarsened kernel receives its original
// (logical) block and grid sizes as parameters and is launched with the
// coarsened ones.
//
// A grid loop whose body branches on a launch-invariant condition around
// thread loops (thread coarsening's "does the factor divide blockDim")
// is unswitched first: each branch becomes a kernel of its own, since the
// two need different block sizes.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::respec {
#define GEN_PASS_DEF_OUTLINEGPUKERNELSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Static shared memory beyond this needs the dynamic kind on NVIDIA GPUs.
constexpr int64_t kMaxStaticShared = 48 * 1024;
constexpr int64_t kSharedAlignment = 64;

bool isSharedMemoryCall(Operation *op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == kSharedMemoryFunction;
}

bool isDefinedOutside(Value value, Operation *op) {
  return !op->isAncestor(value.getParentRegion()->getParentOp());
}

//===----------------------------------------------------------------------===//
// Unswitching
//===----------------------------------------------------------------------===//

/// An scf.if directly in `grid`'s body, without results, whose condition
/// comes from outside the grid and which contains a thread loop.
scf::IfOp findUnswitchableIf(scf::ParallelOp grid) {
  for (Operation &op : grid.getBody()->without_terminator()) {
    auto ifOp = dyn_cast<scf::IfOp>(op);
    if (!ifOp || ifOp.getNumResults() != 0 ||
        !isDefinedOutside(ifOp.getCondition(), grid))
      continue;
    if (!collectThreadLoops(ifOp).empty())
      return ifOp;
  }
  return nullptr;
}

/// A copy of `grid` (before `grid`) in which `branch`'s if is replaced by
/// the contents of its then (true) or else (false) region.
void cloneWithBranch(OpBuilder &b, scf::ParallelOp grid, scf::IfOp ifOp,
                     bool thenBranch) {
  IRMapping mapping;
  auto copy = cast<scf::ParallelOp>(b.clone(*grid, mapping));
  auto copiedIf = cast<scf::IfOp>(mapping.lookup(ifOp.getOperation()));
  Region &region =
      thenBranch ? copiedIf.getThenRegion() : copiedIf.getElseRegion();
  if (!region.empty()) {
    Block &block = region.front();
    block.getTerminator()->erase();
    copiedIf->getBlock()->getOperations().splice(
        copiedIf->getIterator(), block.getOperations());
  }
  copiedIf.erase();
  (void)copy;
}

/// Unswitches grid loops of `launch` until none is left to unswitch.
void unswitchGridLoops(LLVM::LLVMFuncOp launch) {
  bool changed = true;
  while (changed) {
    changed = false;
    launch.walk([&](scf::ParallelOp grid) {
      if (!isGridLoop(grid))
        return WalkResult::advance();
      scf::IfOp ifOp = findUnswitchableIf(grid);
      if (!ifOp)
        return WalkResult::advance();
      OpBuilder b(grid);
      auto outer = scf::IfOp::create(b, grid.getLoc(), ifOp.getCondition(),
                                     /*withElseRegion=*/true);
      b.setInsertionPoint(outer.thenBlock()->getTerminator());
      cloneWithBranch(b, grid, ifOp, /*thenBranch=*/true);
      b.setInsertionPoint(outer.elseBlock()->getTerminator());
      cloneWithBranch(b, grid, ifOp, /*thenBranch=*/false);
      grid.erase();
      changed = true;
      return WalkResult::interrupt();
    });
  }
}

//===----------------------------------------------------------------------===//
// Outlining
//===----------------------------------------------------------------------===//

/// The special register of CUDA dimension `dim` (0 = x).
Value readRegister(OpBuilder &b, Location loc, bool block, unsigned dim) {
  Type i32 = b.getI32Type();
  Value value;
  if (block)
    value = dim == 0   ? NVVM::BlockIdXOp::create(b, loc, i32).getResult()
            : dim == 1 ? NVVM::BlockIdYOp::create(b, loc, i32).getResult()
                       : NVVM::BlockIdZOp::create(b, loc, i32).getResult();
  else
    value = dim == 0   ? NVVM::ThreadIdXOp::create(b, loc, i32).getResult()
            : dim == 1 ? NVVM::ThreadIdYOp::create(b, loc, i32).getResult()
                       : NVVM::ThreadIdZOp::create(b, loc, i32).getResult();
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), value);
}

/// Maps `loop`'s induction variables to lb + id * step, with id the block
/// or thread id of the loop dimension (the last dimension is x).
void mapInductionVars(OpBuilder &b, scf::ParallelOp loop, bool block,
                      IRMapping &mapping) {
  Location loc = loop.getLoc();
  unsigned rank = loop.getNumLoops();
  for (unsigned i = 0; i < rank; ++i) {
    Value id = readRegister(b, loc, block, rank - 1 - i);
    Value lower = mapping.lookupOrDefault(loop.getLowerBound()[i]);
    Value step = mapping.lookupOrDefault(loop.getStep()[i]);
    Value iv = arith::AddIOp::create(
        b, loc, lower, arith::MulIOp::create(b, loc, id, step));
    mapping.map(loop.getInductionVars()[i], iv);
  }
}

class KernelOutliner {
public:
  KernelOutliner(ModuleOp module, scf::ParallelOp grid, StringRef name,
                 StringRef kernelName, StringAttr version)
      : module(module), grid(grid), name(name.str()),
        kernelName(kernelName.str()), version(version) {}

  LogicalResult run() {
    if (failed(checkStructure()))
      return failure();
    collectCaptures();
    for (Value value : params)
      if (!LLVM::isCompatibleType(value.getType()) &&
          !value.getType().isIndex())
        return grid.emitError()
               << "the NVPTX back end cannot pass a value of type "
               << value.getType() << " to kernel '" << name << "'";
    buildKernel();
    return success();
  }

private:
  LogicalResult checkStructure() {
    for (Operation &op : grid.getBody()->without_terminator()) {
      auto loop = dyn_cast<scf::ParallelOp>(op);
      if (loop && isThreadLoop(loop)) {
        if (threadLoop)
          return op.emitError()
                 << "kernel '" << name
                 << "': several thread loops in one block are not "
                    "supported by the NVPTX back end yet";
        threadLoop = loop;
        continue;
      }
      if (isSharedMemoryCall(&op))
        continue;
      if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
        return op.emitError()
               << "kernel '" << name
               << "': code that runs once per block outside its threads is "
                  "not supported by the NVPTX back end yet";
    }
    if (!threadLoop)
      return grid.emitError() << "kernel '" << name << "' has no thread loop";
    return verifyNormalizedThreadLoop(threadLoop);
  }

  /// Values from the launch function the loop uses: constants are cloned
  /// into the kernel, the rest become parameters.
  void collectCaptures() {
    SetVector<Value> used;
    getUsedValuesDefinedAbove(grid.getRegion(), used);
    for (Value value : grid.getLowerBound())
      used.insert(value);
    for (Value value : grid.getStep())
      used.insert(value);
    for (Value value : used) {
      Operation *def = value.getDefiningOp();
      if (def && def->hasTrait<OpTrait::ConstantLike>())
        constants.push_back(def);
      else
        params.push_back(value);
    }
  }

  Value sharedMemoryBase(OpBuilder &b, LLVM::CallOp call) {
    Location loc = call.getLoc();
    MLIRContext *ctx = b.getContext();
    auto sharedPtr = LLVM::LLVMPointerType::get(ctx, kShared);
    OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
    std::string symbol = "__respec_shared_" + name;
    IntegerAttr bytes;
    Operation *sizeDef = call.getOperand(0).getDefiningOp();
    if (sizeDef)
      if (auto constant = dyn_cast<LLVM::ConstantOp>(sizeDef))
        bytes = dyn_cast<IntegerAttr>(constant.getValue());
    LLVM::GlobalOp global;
    if (bytes)
      knownSharedBytes = bytes.getInt();
    if (bytes && bytes.getInt() <= kMaxStaticShared) {
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                           bytes.getInt());
      global = LLVM::GlobalOp::create(
          moduleBuilder, loc, type, /*isConstant=*/false,
          LLVM::Linkage::Internal, symbol, Attribute(), kSharedAlignment,
          kShared);
      Block *init = moduleBuilder.createBlock(&global.getInitializerRegion());
      moduleBuilder.setInsertionPointToStart(init);
      Value undef = LLVM::UndefOp::create(moduleBuilder, loc, type);
      LLVM::ReturnOp::create(moduleBuilder, loc, undef);
    } else {
      // Sized at launch (dynamic shared memory).
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
      global = LLVM::GlobalOp::create(moduleBuilder, loc, type,
                                      /*isConstant=*/false,
                                      LLVM::Linkage::External, symbol,
                                      Attribute(), kSharedAlignment, kShared);
    }
    Value address = LLVM::AddressOfOp::create(b, loc, sharedPtr,
                                              global.getSymName());
    return LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx), address);
  }

  void buildKernel() {
    Location loc = grid.getLoc();
    MLIRContext *ctx = grid.getContext();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    SmallVector<Type> paramTypes;
    for (Value value : params)
      paramTypes.push_back(value.getType().isIndex()
                               ? Type(IntegerType::get(ctx, 64))
                               : value.getType());
    auto kernel = LLVM::LLVMFuncOp::create(
        b, loc, name,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                    paramTypes));
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(ctx));
    if (version) {
      kernel->setAttr(kKernelVersionAttr, version);
      kernel->setAttr(kKernelVersionOfAttr, StringAttr::get(ctx, kernelName));
    }
    Block *entry = kernel.addEntryBlock(b);
    b.setInsertionPointToStart(entry);

    IRMapping mapping;
    for (Operation *constant : constants)
      b.clone(*constant, mapping);
    for (auto [value, arg] : llvm::zip(params, entry->getArguments())) {
      Value mapped = arg;
      if (value.getType().isIndex())
        mapped = arith::IndexCastOp::create(b, loc, b.getIndexType(), arg);
      mapping.map(value, mapped);
    }
    mapInductionVars(b, grid, /*block=*/true, mapping);
    for (Operation &op : grid.getBody()->without_terminator()) {
      if (&op == threadLoop.getOperation()) {
        mapInductionVars(b, threadLoop, /*block=*/false, mapping);
        for (Operation &inner : threadLoop.getBody()->without_terminator())
          b.clone(inner, mapping);
      } else if (isSharedMemoryCall(&op)) {
        mapping.map(op.getResult(0),
                    sharedMemoryBase(b, cast<LLVM::CallOp>(op)));
      } else {
        b.clone(op, mapping);
      }
    }
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    // Dynamic shared memory is invisible to ptxas: say how much it is.
    if (knownSharedBytes)
      kernel->setAttr(kKernelSharedBytesAttr,
                      b.getI64IntegerAttr(*knownSharedBytes));
    lowerBarriers(kernel);
  }

  /// respec barriers are the hardware's.
  static void lowerBarriers(LLVM::LLVMFuncOp kernel) {
    SmallVector<Operation *> barriers;
    kernel.walk([&](Operation *op) {
      if (isa<BarrierOp, ReduceBarrierOp>(op))
        barriers.push_back(op);
    });
    for (Operation *op : barriers) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      Type i32 = b.getI32Type();
      Value zero = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
      if (isa<BarrierOp>(op)) {
        LLVM::CallIntrinsicOp::create(
            b, loc, b.getStringAttr("llvm.nvvm.barrier.cta.sync.aligned.all"),
            ValueRange{zero});
        op->erase();
        continue;
      }
      auto reduce = cast<ReduceBarrierOp>(op);
      StringRef kind = reduce.getKind();
      bool count = kind == "popc";
      Type resultType = count ? i32 : b.getI1Type();
      Value result =
          LLVM::CallIntrinsicOp::create(
              b, loc, resultType,
              b.getStringAttr("llvm.nvvm.barrier.cta.red." + kind.str() +
                              ".aligned.all"),
              ValueRange{zero, reduce.getPredicate()})
              .getResult(0);
      if (!count)
        result = LLVM::ZExtOp::create(b, loc, i32, result);
      reduce.getResult().replaceAllUsesWith(result);
      op->erase();
    }
  }

  ModuleOp module;
  scf::ParallelOp grid;
  scf::ParallelOp threadLoop;
  std::string name;
  std::string kernelName;
  std::optional<int64_t> knownSharedBytes;
  StringAttr version;
  SmallVector<Operation *> constants;
  SmallVector<Value> params;
};

struct OutlineGPUKernelsPass
    : public respec::impl::OutlineGPUKernelsPassBase<OutlineGPUKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> launches;
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(kKernelNameAttr))
        launches.push_back(func);
    });
    for (LLVM::LLVMFuncOp launch : launches) {
      StringRef kernelName =
          launch->getAttrOfType<StringAttr>(kKernelNameAttr).getValue();
      unswitchGridLoops(launch);
      // Versions of an alternatives op are kernels <name>_v<k>, each
      // tagged with its description for the pruning that follows ptxas.
      SmallVector<std::pair<scf::ParallelOp, int>> grids;
      launch.walk([&](scf::ParallelOp loop) {
        if (!isGridLoop(loop))
          return;
        int version = -1;
        if (auto alternatives = loop->getParentOfType<AlternativesOp>()) {
          Region *region = loop->getParentRegion();
          while (region->getParentOp() != alternatives)
            region = region->getParentOp()->getParentRegion();
          version = region->getRegionNumber();
        }
        grids.push_back({loop, version});
      });
      // The first grid loop (of each version) keeps the CUDA name (an
      // uncoarsened kernel's PTX entry is the one nvcc would emit); the
      // others are unswitched versions and epilogues of it.
      llvm::DenseMap<int, int> countPerVersion;
      for (auto [grid, version] : grids) {
        std::string name = kernelName.str();
        if (version >= 0)
          name += "_v" + std::to_string(version);
        int index = countPerVersion[version]++;
        if (index != 0)
          name += "_respec" + std::to_string(index);
        StringAttr description;
        if (version >= 0)
          description = cast<StringAttr>(
              grid->getParentOfType<AlternativesOp>()
                  .getDescriptions()[version]);
        if (failed(KernelOutliner(module, grid, name, kernelName, description).run()))
          return signalPassFailure();
      }
      // The launch function is host code, which this device module does not
      // carry.
      launch.erase();
    }
  }
};

} // namespace
