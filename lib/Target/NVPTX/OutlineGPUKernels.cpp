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

/// The struct type of a by-value kernel parameter when `value` is the
/// launch function's load of its host address (RaiseKernels marks it);
/// null otherwise.
Type byValParamType(Value value) {
  auto load = value.getDefiningOp<LLVM::LoadOp>();
  if (!load)
    return {};
  auto type = load->getAttrOfType<TypeAttr>(kByValParamAttr);
  return type ? type.getValue() : Type();
}

/// Whether `value` is computed without memory effects from a by-value
/// parameter's host address (a field's address, say, hoisted out of the
/// grid loop). The kernel cannot use host addresses: it recomputes such
/// values from the struct it receives.
bool derivesFromByValParam(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::any_of(def->getOperands(), [](Value operand) {
    return byValParamType(operand) || derivesFromByValParam(operand);
  });
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
    copiedIf->getBlock()->getOperations().splice(copiedIf->getIterator(),
                                                 block.getOperations());
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
    Value iv = arith::AddIOp::create(b, loc, lower,
                                     arith::MulIOp::create(b, loc, id, step));
    mapping.map(loop.getInductionVars()[i], iv);
  }
}

class KernelOutliner {
public:
  KernelOutliner(ModuleOp module, scf::ParallelOp grid, StringRef name,
                 StringRef kernelName, StringAttr version)
      : module(module), grid(grid), name(name.str()),
        kernelName(kernelName.str()), version(version) {}

  LogicalResult run(bool hostLaunch) {
    if (failed(checkStructure()))
      return failure();
    collectCaptures();
    for (Value value : params)
      if (!LLVM::isCompatibleType(value.getType()) &&
          !value.getType().isIndex())
        return grid.emitError()
               << "the NVPTX back end cannot pass a value of type "
               << value.getType() << " to kernel '" << name << "'";
    if (hostLaunch && failed(checkHostGeometry()))
      return failure();
    buildKernel();
    if (hostLaunch)
      replaceGridWithLaunch();
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
      if (isCallTo(&op, kSharedMemoryFunction))
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
  /// into the kernel, values computed from by-value structs' addresses are
  /// recomputed there, the rest become parameters (a by-value struct's
  /// address becomes the struct itself).
  void collectCaptures() {
    SetVector<Value> used;
    getUsedValuesDefinedAbove(grid.getRegion(), used);
    for (Value value : grid.getLowerBound())
      used.insert(value);
    for (Value value : grid.getStep())
      used.insert(value);
    DenseSet<Value> seen;
    for (Value value : used)
      capture(value, seen);
  }

  void capture(Value value, DenseSet<Value> &seen) {
    if (!seen.insert(value).second)
      return;
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>()) {
      constants.push_back(def);
      return;
    }
    if (derivesFromByValParam(value)) {
      for (Value operand : def->getOperands())
        capture(operand, seen);
      // After its operands: the kernel clones these in this order.
      if (!llvm::is_contained(recomputed, def))
        recomputed.push_back(def);
      return;
    }
    params.push_back(value);
    paramByValTypes.push_back(byValParamType(value));
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
      auto type =
          LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), bytes.getInt());
      global =
          LLVM::GlobalOp::create(moduleBuilder, loc, type, /*isConstant=*/false,
                                 LLVM::Linkage::Internal, symbol, Attribute(),
                                 kSharedAlignment, kShared);
      Block *init = moduleBuilder.createBlock(&global.getInitializerRegion());
      moduleBuilder.setInsertionPointToStart(init);
      Value undef = LLVM::UndefOp::create(moduleBuilder, loc, type);
      LLVM::ReturnOp::create(moduleBuilder, loc, undef);
    } else {
      // Sized at launch (dynamic shared memory).
      dynamicSharedBytes = call.getOperand(0);
      auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), 0);
      global = LLVM::GlobalOp::create(moduleBuilder, loc, type,
                                      /*isConstant=*/false,
                                      LLVM::Linkage::External, symbol,
                                      Attribute(), kSharedAlignment, kShared);
    }
    Value address =
        LLVM::AddressOfOp::create(b, loc, sharedPtr, global.getSymName());
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
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), paramTypes));
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                    UnitAttr::get(ctx));
    // A by-value struct parameter: the NVPTX back end gives it PTX's
    // parameter space, where the driver copies the launch's bytes.
    DataLayout dataLayout(module);
    for (auto [index, type] : llvm::enumerate(paramByValTypes)) {
      if (!type)
        continue;
      kernel.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(type));
      kernel.setArgAttr(
          index, LLVM::LLVMDialect::getAlignAttrName(),
          b.getI64IntegerAttr(dataLayout.getTypeABIAlignment(type)));
    }
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
    for (Operation *op : recomputed)
      b.clone(*op, mapping);
    mapInductionVars(b, grid, /*block=*/true, mapping);
    for (Operation &op : grid.getBody()->without_terminator()) {
      if (&op == threadLoop.getOperation()) {
        mapInductionVars(b, threadLoop, /*block=*/false, mapping);
        for (Operation &inner : threadLoop.getBody()->without_terminator())
          b.clone(inner, mapping);
      } else if (isCallTo(&op, kSharedMemoryFunction)) {
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

  /// The host computes the launch's geometry before the kernel runs: the
  /// grid's and the thread loop's bounds must not depend on the block.
  LogicalResult checkHostGeometry() {
    auto onHost = [&](ValueRange values) {
      return llvm::all_of(values,
                          [&](Value value) { return isHostComputable(value); });
    };
    if (!onHost(threadLoop.getUpperBound()))
      return threadLoop.emitError()
             << "kernel '" << name
             << "': its block size depends on the block, which a GPU launch "
                "cannot express";
    if (Value size = dynamicSharedSizeOperand();
        size && !isHostComputable(size))
      return grid.emitError() << "kernel '" << name
                              << "': its shared memory size depends on the "
                                 "block, which a GPU launch cannot express";
    return success();
  }

  /// True if `value` is defined before the grid loop or computed in its
  /// body, without memory effects, from such values only (coarsening
  /// scales the shared memory size inside the block, for instance).
  bool isHostComputable(Value value) {
    if (isDefinedOutside(value, grid))
      return true;
    Operation *def = value.getDefiningOp();
    if (!def || def->getParentOp() != grid.getOperation() ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return isHostComputable(operand);
    });
  }

  /// `value` (isHostComputable) at the builder's position before the grid
  /// loop, cloning its computation from the loop's body.
  Value computeOnHost(OpBuilder &b, Value value, IRMapping &hostValues) {
    return cloneComputation(b, value, hostValues, [&](Value operand) {
      return isDefinedOutside(operand, grid);
    });
  }

  /// The size operand of the block's shared-memory call, if any.
  Value dynamicSharedSizeOperand() {
    for (Operation &op : grid.getBody()->without_terminator())
      if (isCallTo(&op, kSharedMemoryFunction))
        return op.getOperand(0);
    return Value();
  }

  /// `value` (index or integer) as an i32, for the launch's sizes.
  static Value toI32(OpBuilder &b, Location loc, Value value) {
    Type i32 = b.getI32Type();
    if (value.getType().isIndex())
      return arith::IndexCastUIOp::create(b, loc, i32, value);
    if (value.getType() == i32)
      return value;
    return arith::TruncIOp::create(b, loc, i32, value);
  }

  /// The number of iterations of `loop` in dimension `dim`.
  static Value buildTripCount(OpBuilder &b, Location loc, scf::ParallelOp loop,
                              unsigned dim) {
    Value lower = loop.getLowerBound()[dim], upper = loop.getUpperBound()[dim];
    Value step = loop.getStep()[dim];
    std::optional<int64_t> lowerValue = getConstantIntValue(lower);
    std::optional<int64_t> stepValue = getConstantIntValue(step);
    if (lowerValue == 0 && stepValue == 1)
      return upper;
    Value span = arith::SubIOp::create(b, loc, upper, lower);
    return arith::CeilDivUIOp::create(b, loc, span, step);
  }

  /// x, y, z sizes of `loop` (its last dimension is x), 1 where it has
  /// fewer dimensions.
  SmallVector<Value> buildLaunchSizes(OpBuilder &b, Location loc,
                                      scf::ParallelOp loop,
                                      IRMapping &hostValues) {
    Value one = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1);
    SmallVector<Value> sizes(3, one);
    unsigned rank = loop.getNumLoops();
    for (unsigned i = 0; i < rank && i < 3; ++i)
      sizes[i] =
          toI32(b, loc,
                computeOnHost(b, buildTripCount(b, loc, loop, rank - 1 - i),
                              hostValues));
    return sizes;
  }

  /// The runtime's launch entry point, declared once per module.
  LLVM::LLVMFuncOp getOrDeclareLaunchFunction() {
    constexpr StringLiteral symbol = "__respec_cuda_launch";
    if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(symbol))
      return existing;
    MLIRContext *ctx = module.getContext();
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i32 = b.getI32Type();
    auto type = LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(ctx),
        {ptr, i32, i32, i32, i32, i32, i32, b.getI64Type(), ptr});
    return LLVM::LLVMFuncOp::create(b, module.getLoc(), symbol, type);
  }

  /// Replaces the grid loop in the launch function by the runtime call that
  /// launches the kernel just built: each parameter's value in a stack
  /// slot, the slots' addresses in an array (cuLaunchKernel's form).
  void replaceGridWithLaunch() {
    Location loc = grid.getLoc();
    MLIRContext *ctx = grid.getContext();
    auto launchFunc = grid->getParentOfType<LLVM::LLVMFuncOp>();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = IntegerType::get(ctx, 64);
    OpBuilder entry = OpBuilder::atBlockBegin(&launchFunc.getBody().front());
    OpBuilder b(grid);
    Value one =
        LLVM::ConstantOp::create(entry, loc, i64, entry.getI64IntegerAttr(1));
    Value count = LLVM::ConstantOp::create(
        entry, loc, i64,
        entry.getI64IntegerAttr(std::max<size_t>(params.size(), 1)));
    Value array = LLVM::AllocaOp::create(entry, loc, ptr, ptr, count);
    for (auto [index, value] : llvm::enumerate(params)) {
      // cuLaunchKernel copies a by-value struct from its host address.
      Value address = value;
      if (!paramByValTypes[index]) {
        Value stored = value;
        if (value.getType().isIndex())
          stored = arith::IndexCastOp::create(b, loc, i64, value);
        address =
            LLVM::AllocaOp::create(entry, loc, ptr, stored.getType(), one);
        LLVM::StoreOp::create(b, loc, stored, address);
      }
      Value element = LLVM::GEPOp::create(
          b, loc, ptr, ptr, array, ArrayRef<LLVM::GEPArg>{int32_t(index)});
      LLVM::StoreOp::create(b, loc, address, element);
    }
    IRMapping hostValues;
    SmallVector<Value> gridSizes = buildLaunchSizes(b, loc, grid, hostValues);
    SmallVector<Value> blockSizes =
        buildLaunchSizes(b, loc, threadLoop, hostValues);
    Value shared;
    if (dynamicSharedBytes) {
      shared = computeOnHost(b, dynamicSharedBytes, hostValues);
      if (shared.getType().isIndex())
        shared = arith::IndexCastUIOp::create(b, loc, i64, shared);
      else if (shared.getType() != i64)
        shared = arith::ExtUIOp::create(b, loc, i64, shared);
    } else {
      shared = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(0));
    }
    Value kernelName = LLVM::createGlobalString(
        loc, b, "__respec_kernel_name." + name,
        StringRef(name.c_str(), name.size() + 1), LLVM::Linkage::Private);
    SmallVector<Value> operands{kernelName};
    operands.append(gridSizes.begin(), gridSizes.end());
    operands.append(blockSizes.begin(), blockSizes.end());
    operands.push_back(shared);
    operands.push_back(array);
    LLVM::CallOp::create(b, loc, getOrDeclareLaunchFunction(), operands);
    grid.erase();
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
      Value zero =
          LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
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
      Value result = LLVM::CallIntrinsicOp::create(
                         b, loc, resultType,
                         b.getStringAttr("llvm.nvvm.barrier.cta.red." +
                                         kind.str() + ".aligned.all"),
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
  /// The launch function's value sizing the block's shared memory when the
  /// kernel takes it as dynamic shared memory.
  Value dynamicSharedBytes;
  std::string name;
  std::string kernelName;
  std::optional<int64_t> knownSharedBytes;
  StringAttr version;
  SmallVector<Operation *> constants;
  /// Pure operations of the launch function the kernel recomputes, in
  /// order (derivesFromByValParam).
  SmallVector<Operation *> recomputed;
  SmallVector<Value> params;
  /// Per parameter: the struct type of a by-value struct, else null.
  SmallVector<Type> paramByValTypes;
};

struct OutlineGPUKernelsPass
    : public respec::impl::OutlineGPUKernelsPassBase<OutlineGPUKernelsPass> {
  using Base::Base;

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
          description = cast<StringAttr>(grid->getParentOfType<AlternativesOp>()
                                             .getDescriptions()[version]);
        if (failed(KernelOutliner(module, grid, name, kernelName, description)
                       .run(hostLaunches)))
          return signalPassFailure();
      }
      // The launch function is host code, which a device module does not
      // carry unless the caller separates the two.
      if (!hostLaunches)
        launch.erase();
    }
  }
};

} // namespace
