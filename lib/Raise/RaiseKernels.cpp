//===- RaiseKernels.cpp - Kernels to launch functions over parallel loops -===//
//
// A CUDA kernel imported from NVPTX IR is a function of its parameters that
// reads its position in the launch from special registers. This pass makes
// the launch explicit, as the parallel IR requires (../shared/DESIGN.md):
//
//   llvm.func @__respec_launch.K(gx, gy, gz, bx, by, bz, dynShared, args) {
//     scf.parallel (z, y, x) over blocks  {respec.parallel_level = "grid"} {
//       %shared = call @__respec_shared_memory(bytes)
//       scf.parallel (z, y, x) over threads {respec.parallel_level = "block"} {
//         call @__respec_thread.K(tid, ntid, ctaid, nctaid, %shared, params)
//       }
//     }
//   }
//
// The kernel body becomes the per-thread function: special-register reads
// become its parameters and `__shared__` variables become offsets into the
// block's shared allocation. Later passes (the CPU back end, barrier
// lowering, coarsening) work on these loops rather than on the registers.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_RAISEKERNELSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Position of each launch-geometry parameter of the per-thread function.
enum GeometryParam : unsigned {
  kTidX, kTidY, kTidZ,
  kNtidX, kNtidY, kNtidZ,
  kCtaidX, kCtaidY, kCtaidZ,
  kNctaidX, kNctaidY, kNctaidZ,
  kSharedBase,
  kNumGeometryParams
};

/// Where each `__shared__` variable of one kernel lives inside the block's
/// shared allocation. All `extern __shared__` arrays share one address after
/// the static variables, as in CUDA.
struct SharedMemoryLayout {
  llvm::MapVector<StringAttr, uint64_t> offsets;
  uint64_t staticBytes = 0;
  /// Bytes of respec's own shared variables (kInternalSharedPrefix) among
  /// staticBytes, which the program does not see.
  uint64_t internalBytes = 0;
  bool usesDynamic = false;
  uint64_t dynamicOffset = 0;
};

} // namespace

static bool isKernel(LLVM::LLVMFuncOp func) {
  return func.getCConv() == LLVM::cconv::CConv::PTX_Kernel && !func.isExternal();
}

static bool isSharedGlobal(LLVM::GlobalOp global) {
  auto space = global->getAttrOfType<IntegerAttr>(kAddressSpaceAttr);
  return space && space.getInt() == kShared;
}

/// `extern __shared__ T x[];` arrives as an external zero-sized global.
static bool isDynamicSharedGlobal(LLVM::GlobalOp global) {
  return isSharedGlobal(global) && !global.getInitializerRegion().getBlocks().size() &&
         !global.getValueOrNull() &&
         global.getLinkage() == LLVM::Linkage::External;
}

/// Returns the geometry parameter a special-register read stands for.
static std::optional<GeometryParam> geometryParamOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<GeometryParam>>(op)
      .Case([](NVVM::ThreadIdXOp) { return kTidX; })
      .Case([](NVVM::ThreadIdYOp) { return kTidY; })
      .Case([](NVVM::ThreadIdZOp) { return kTidZ; })
      .Case([](NVVM::BlockDimXOp) { return kNtidX; })
      .Case([](NVVM::BlockDimYOp) { return kNtidY; })
      .Case([](NVVM::BlockDimZOp) { return kNtidZ; })
      .Case([](NVVM::BlockIdXOp) { return kCtaidX; })
      .Case([](NVVM::BlockIdYOp) { return kCtaidY; })
      .Case([](NVVM::BlockIdZOp) { return kCtaidZ; })
      .Case([](NVVM::GridDimXOp) { return kNctaidX; })
      .Case([](NVVM::GridDimYOp) { return kNctaidY; })
      .Case([](NVVM::GridDimZOp) { return kNctaidZ; })
      .Default([](Operation *) { return std::nullopt; });
}

/// True for `asm("mov.u32 %0, %%laneid;")`, which CUDA headers (cooperative
/// groups) use to read the lane id.
static bool isLaneIdAsm(Operation *op) {
  auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op);
  if (!asmOp)
    return false;
  if (asmOp->getNumResults() != 1 ||
      !asmOp->getResult(0).getType().isInteger(32))
    return false;
  StringRef text = asmOp.getAsmString().trim();
  if (!text.consume_front("mov.u32"))
    return false;
  text = text.ltrim();
  if (!text.consume_front("$0"))
    return false;
  text = text.ltrim();
  if (!text.consume_front(","))
    return false;
  return text.trim().rtrim(';').trim() == "%laneid";
}

/// Reads of the launch position that depend on which thread runs the code.
static bool readsLaunchPosition(Operation *op) {
  return geometryParamOf(op) || isa<NVVM::LaneIdOp, NVVM::WarpIdOp>(op) ||
         isLaneIdAsm(op);
}

/// The front end's stand-in for the block's shared memory (shared-window
/// addresses count from it; see kSharedWindowFunction).
static bool isSharedWindow(Operation *op) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == kSharedWindowFunction;
}

/// Lays out the shared variables `kernel` refers to, in first-use order.
static SharedMemoryLayout layOutSharedMemory(LLVM::LLVMFuncOp kernel,
                                             SymbolTable &symbols,
                                             const DataLayout &dataLayout) {
  SharedMemoryLayout layout;
  SmallVector<LLVM::GlobalOp> dynamicGlobals;
  uint64_t dynamicAlign = 16;
  kernel.walk([&](LLVM::AddressOfOp addressOf) {
    auto global = symbols.lookup<LLVM::GlobalOp>(addressOf.getGlobalName());
    if (!global || !isSharedGlobal(global) ||
        layout.offsets.contains(global.getSymNameAttr()))
      return;
    uint64_t align = std::max<uint64_t>(
        global.getAlignment().value_or(1),
        dataLayout.getTypeABIAlignment(global.getGlobalType()));
    if (isDynamicSharedGlobal(global)) {
      dynamicAlign = std::max(dynamicAlign, align);
      dynamicGlobals.push_back(global);
      layout.offsets[global.getSymNameAttr()] = 0;
      return;
    }
    uint64_t offset = llvm::alignTo(layout.staticBytes, align);
    uint64_t size =
        dataLayout.getTypeSize(global.getGlobalType()).getFixedValue();
    layout.offsets[global.getSymNameAttr()] = offset;
    layout.staticBytes = offset + size;
    if (global.getSymName().starts_with(kInternalSharedPrefix))
      layout.internalBytes += size;
  });
  if (!dynamicGlobals.empty()) {
    layout.usesDynamic = true;
    layout.dynamicOffset = llvm::alignTo(layout.staticBytes, dynamicAlign);
    for (LLVM::GlobalOp global : dynamicGlobals)
      layout.offsets[global.getSymNameAttr()] = layout.dynamicOffset;
  }
  return layout;
}

/// Rejects special-register reads and shared variables outside kernels: they
/// are only meaningful once inlined into a kernel, which the front end does
/// for every device function it can (all but recursive or indirect calls).
static LogicalResult verifyNoLaunchStateOutsideKernels(ModuleOp module,
                                                       SymbolTable &symbols) {
  WalkResult result = module.walk([&](LLVM::LLVMFuncOp func) {
    if (isKernel(func))
      return WalkResult::advance();
    WalkResult inner = func.walk([&](Operation *op) {
      bool shared = isSharedWindow(op);
      if (auto addressOf = dyn_cast<LLVM::AddressOfOp>(op)) {
        auto global = symbols.lookup<LLVM::GlobalOp>(addressOf.getGlobalName());
        shared = global && isSharedGlobal(global);
      }
      if (!shared && !readsLaunchPosition(op))
        return WalkResult::advance();
      op->emitError() << "device function '"
                      << llvm::demangle(func.getSymName().str()) << "' uses "
                      << (shared ? "__shared__ memory"
                                 : "threadIdx/blockIdx/blockDim/gridDim")
                      << " but could not be inlined into its kernel "
                         "(recursion or indirect call); respec does not "
                         "support this yet";
      return WalkResult::interrupt();
    });
    return inner.wasInterrupted() ? WalkResult::interrupt()
                                  : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// Returns the size in bytes of the value of kernel parameter `index`, as
/// the host passes it to cudaLaunchKernel.
static uint64_t paramValueSize(LLVM::LLVMFuncOp kernel, unsigned index,
                               const DataLayout &dataLayout) {
  if (auto byval = kernel.getArgAttrOfType<TypeAttr>(
          index, LLVM::LLVMDialect::getByValAttrName()))
    return dataLayout.getTypeSize(byval.getValue()).getFixedValue();
  return dataLayout.getTypeSize(kernel.getArgumentTypes()[index])
      .getFixedValue();
}

/// Replaces `byval` parameters by plain pointers. The launch passes every
/// thread the same pointer to the host's argument copy, so a kernel that
/// writes its by-value struct gets a private copy first, as CUDA's per-thread
/// parameter semantics require.
static void lowerByValParams(LLVM::LLVMFuncOp func, unsigned firstParam) {
  OpBuilder builder(func.getBody());
  Block &entry = func.getBody().front();
  for (unsigned i = firstParam, e = func.getNumArguments(); i < e; ++i) {
    auto byval = func.getArgAttrOfType<TypeAttr>(
        i, LLVM::LLVMDialect::getByValAttrName());
    if (!byval)
      continue;
    bool readOnly = func.getArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName()) ||
                    func.getArgAttr(i, LLVM::LLVMDialect::getReadnoneAttrName());
    func.removeArgAttr(i, LLVM::LLVMDialect::getByValAttrName());
    if (readOnly)
      continue;
    BlockArgument param = entry.getArgument(i);
    Location loc = func.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(func.getContext());
    Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                         builder.getI64IntegerAttr(1));
    Value copy = LLVM::AllocaOp::create(builder, loc, ptrType, byval.getValue(),
                                        one, /*alignment=*/16);
    param.replaceAllUsesExcept(copy, copy.getDefiningOp());
    Value value = LLVM::LoadOp::create(builder, loc, byval.getValue(), param);
    LLVM::StoreOp::create(builder, loc, value, copy);
  }
}

/// Inserts parameters of `types` before the existing ones of `func`, with no
/// parameter attributes.
static void prependParameters(LLVM::LLVMFuncOp func, ArrayRef<Type> types) {
  LLVM::LLVMFunctionType oldType = func.getFunctionType();
  SmallVector<Type> params(types);
  llvm::append_range(params, oldType.getParams());
  func.setFunctionType(LLVM::LLVMFunctionType::get(
      oldType.getReturnType(), params, oldType.isVarArg()));
  Block &entry = func.getBody().front();
  for (auto [index, type] : llvm::enumerate(types))
    entry.insertArgument(index, type, func.getLoc());
  if (ArrayAttr argAttrs = func.getArgAttrsAttr()) {
    SmallVector<Attribute> attrs(types.size(),
                                 DictionaryAttr::get(func.getContext()));
    llvm::append_range(attrs, argAttrs.getValue());
    func.setArgAttrsAttr(ArrayAttr::get(func.getContext(), attrs));
  }
}

/// Turns `kernel` into the per-thread function: geometry and the shared base
/// become leading parameters, special-register reads and shared variables
/// refer to them.
static void makeThreadFunction(LLVM::LLVMFuncOp kernel,
                               const SharedMemoryLayout &layout) {
  MLIRContext *ctx = kernel.getContext();
  Type i32 = IntegerType::get(ctx, 32);
  auto ptrType = LLVM::LLVMPointerType::get(ctx);

  SmallVector<Type> types(kSharedBase, i32);
  types.push_back(ptrType);
  prependParameters(kernel, types);

  Block &entry = kernel.getBody().front();
  auto geometry = [&](unsigned param) -> Value {
    return entry.getArgument(param);
  };
  kernel.walk([&](Operation *op) {
    OpBuilder builder(op);
    if (std::optional<GeometryParam> param = geometryParamOf(op)) {
      op->getResult(0).replaceAllUsesWith(geometry(*param));
      op->erase();
      return;
    }
    if (isa<NVVM::LaneIdOp, NVVM::WarpIdOp>(op) || isLaneIdAsm(op)) {
      // lane = linear thread id % 32, warp = linear thread id / 32.
      Value linear = LLVM::AddOp::create(
          builder, op->getLoc(), geometry(kTidX),
          LLVM::MulOp::create(
              builder, op->getLoc(), geometry(kNtidX),
              LLVM::AddOp::create(builder, op->getLoc(), geometry(kTidY),
                                  LLVM::MulOp::create(builder, op->getLoc(),
                                                      geometry(kNtidY),
                                                      geometry(kTidZ)))));
      Value c32 = LLVM::ConstantOp::create(builder, op->getLoc(), i32,
                                           builder.getI32IntegerAttr(32));
      Value result =
          !isa<NVVM::WarpIdOp>(op)
              ? LLVM::URemOp::create(builder, op->getLoc(), linear, c32)
                    .getResult()
              : LLVM::UDivOp::create(builder, op->getLoc(), linear, c32)
                    .getResult();
      op->getResult(0).replaceAllUsesWith(result);
      op->erase();
      return;
    }
    if (isSharedWindow(op)) {
      op->getResult(0).replaceAllUsesWith(geometry(kSharedBase));
      op->erase();
      return;
    }
    if (isa<NVVM::WarpSizeOp>(op)) {
      op->getResult(0).replaceAllUsesWith(LLVM::ConstantOp::create(
          builder, op->getLoc(), i32, builder.getI32IntegerAttr(32)));
      op->erase();
      return;
    }
    auto addressOf = dyn_cast<LLVM::AddressOfOp>(op);
    if (!addressOf)
      return;
    auto it = layout.offsets.find(addressOf.getGlobalNameAttr().getAttr());
    if (it == layout.offsets.end())
      return;
    Value offset = LLVM::ConstantOp::create(
        builder, op->getLoc(), builder.getI64Type(),
        builder.getI64IntegerAttr(it->second));
    Value address = LLVM::GEPOp::create(builder, op->getLoc(), ptrType,
                                        builder.getI8Type(),
                                        geometry(kSharedBase), offset);
    addressOf.replaceAllUsesWith(address);
    addressOf.erase();
  });

  lowerByValParams(kernel, kNumGeometryParams);
  kernel.setCConv(LLVM::cconv::CConv::C);
  kernel.setLinkage(LLVM::Linkage::Internal);
  kernel.setNoInline(false);
  kernel.setAlwaysInline(true);
  kernel.setVisibility_(LLVM::Visibility::Default);
}

/// Casts an index-typed loop variable or bound to the i32 of CUDA's ids.
static Value toI32(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastUIOp::create(builder, loc, builder.getI32Type(),
                                      index);
}

static Value toIndex(OpBuilder &builder, Location loc, Value i32) {
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      i32);
}

/// The kernel's file:line without its debug-info scope: the launch function
/// is respec's, and a location carrying the kernel's DISubprogram would
/// attach that subprogram to two functions.
static Location plainSourceLocation(Location loc) {
  Location result = UnknownLoc::get(loc.getContext());
  loc->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      result = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

/// True if something with an effect (a store, a call, a branch) uses
/// `value`, directly or through operations without memory effects.
static bool feedsAnEffect(Value value, unsigned depth = 0) {
  for (Operation *user : value.getUsers()) {
    if (depth > 16 || !isMemoryEffectFree(user) || user->getNumResults() == 0)
      return true;
    for (Value result : user->getResults())
      if (feedsAnEffect(result, depth + 1))
        return true;
  }
  return false;
}

/// True if `op` reads the grid workspace's address for a use: a call of the
/// runtime's __respec_grid_workspace (the CPU's translation of the PTX), or
/// PTX that reads %envreg1 or %envreg2 (kept for GPUs). `this_grid()` reads
/// it also where the kernel only asks the grid's size or its thread's rank,
/// and the read is dead until LLVM cleans up.
static bool readsGridWorkspaceAddress(Operation *op) {
  bool reads = false;
  if (auto call = dyn_cast<LLVM::CallOp>(op))
    reads = call.getCallee() == kGridWorkspaceFunction;
  if (auto assembly = dyn_cast<LLVM::InlineAsmOp>(op)) {
    StringRef text = assembly.getAsmString();
    reads = text.contains("%envreg1") || text.contains("%envreg2");
  }
  return reads && llvm::any_of(op->getResults(), [](Value result) {
           return feedsAnEffect(result);
         });
}

/// True if `kernel`, or a function it calls directly or indirectly, reads
/// the cooperative launch's grid workspace, which cooperative groups'
/// `this_grid()` reads to synchronize the grid.
static bool readsGridWorkspace(ModuleOp module, LLVM::LLVMFuncOp kernel) {
  SmallVector<LLVM::LLVMFuncOp> worklist{kernel};
  llvm::DenseSet<Operation *> seen{kernel};
  while (!worklist.empty()) {
    LLVM::LLVMFuncOp function = worklist.pop_back_val();
    WalkResult walk = function.walk([&](Operation *op) {
      if (readsGridWorkspaceAddress(op))
        return WalkResult::interrupt();
      auto call = dyn_cast<LLVM::CallOp>(op);
      if (!call)
        return WalkResult::advance();
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return WalkResult::advance();
      auto target = module.lookupSymbol<LLVM::LLVMFuncOp>(*callee);
      if (target && !target.isExternal() && seen.insert(target).second)
        worklist.push_back(target);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return true;
  }
  return false;
}

/// Builds `__respec_launch.<kernel>` around the per-thread function.
/// The thread count of the kernel's `__launch_bounds__` (clang's
/// "nvvm.maxntid" function attribute: "x" or "x,y,z"), if any.
static std::optional<int64_t> maxThreadsPerBlock(LLVM::LLVMFuncOp kernel) {
  ArrayAttr passthrough = kernel.getPassthroughAttr();
  if (!passthrough)
    return std::nullopt;
  for (Attribute entry : passthrough) {
    auto pair = dyn_cast<ArrayAttr>(entry);
    if (!pair || pair.size() != 2)
      continue;
    auto key = dyn_cast<StringAttr>(pair[0]);
    auto value = dyn_cast<StringAttr>(pair[1]);
    if (!key || !value || key.getValue() != "nvvm.maxntid")
      continue;
    SmallVector<StringRef> dims;
    value.getValue().split(dims, ',');
    int64_t threads = 1;
    for (StringRef dim : dims) {
      int64_t extent = 0;
      if (dim.trim().getAsInteger(10, extent) || extent <= 0)
        return std::nullopt;
      threads *= extent;
    }
    return threads;
  }
  return std::nullopt;
}

static LLVM::LLVMFuncOp
buildLaunchFunction(ModuleOp module, LLVM::LLVMFuncOp threadFn,
                    StringRef kernelName, ArrayRef<Type> paramTypes,
                    ArrayRef<Type> paramByValTypes,
                    ArrayRef<int64_t> paramSizes,
                    const SharedMemoryLayout &layout,
                    LLVM::LLVMFuncOp sharedAllocator) {
  MLIRContext *ctx = module.getContext();
  Location loc = plainSourceLocation(threadFn.getLoc());
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Type i32 = builder.getI32Type();
  Type i64 = builder.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto launchType = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(ctx), {i32, i32, i32, i32, i32, i32, i64, ptrType});
  auto launch = LLVM::LLVMFuncOp::create(
      builder, loc, (kLaunchPrefix + kernelName).str(), launchType);
  launch->setAttr(kKernelNameAttr, builder.getStringAttr(kernelName));
  launch->setAttr(kParamSizesAttr, builder.getDenseI64ArrayAttr(paramSizes));
  launch->setAttr(
      kStaticSharedAttr,
      builder.getI64IntegerAttr(layout.staticBytes - layout.internalBytes));
  if (std::optional<int64_t> bound = maxThreadsPerBlock(threadFn))
    launch->setAttr(kMaxThreadsPerBlockAttr, builder.getI64IntegerAttr(*bound));
  if (readsGridWorkspace(module, threadFn))
    launch->setAttr(kSyncsGridAttr, builder.getUnitAttr());

  Block *entry = launch.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  Value gridDims[3] = {entry->getArgument(0), entry->getArgument(1),
                       entry->getArgument(2)};
  Value blockDims[3] = {entry->getArgument(3), entry->getArgument(4),
                        entry->getArgument(5)};
  Value dynamicShared = entry->getArgument(6);
  Value args = entry->getArgument(7);

  // Kernel parameters are the same for every thread: load them once.
  SmallVector<Value> params;
  for (auto [index, type] : llvm::enumerate(paramTypes)) {
    Value slot = LLVM::GEPOp::create(
        builder, loc, ptrType, ptrType, args,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(index)});
    auto valuePtr = LLVM::LoadOp::create(builder, loc, ptrType, slot);
    if (Type byval = paramByValTypes[index]) {
      // The kernel reads the struct through the host's copy; a GPU kernel
      // receives the struct itself (OutlineGPUKernels).
      valuePtr->setAttr(kByValParamAttr, TypeAttr::get(byval));
      params.push_back(valuePtr);
    } else {
      params.push_back(
          LLVM::LoadOp::create(builder, loc, type, valuePtr).getResult());
    }
  }

  Value sharedBytes;
  if (layout.usesDynamic) {
    Value offset = LLVM::ConstantOp::create(
        builder, loc, i64, builder.getI64IntegerAttr(layout.dynamicOffset));
    sharedBytes = LLVM::AddOp::create(builder, loc, offset, dynamicShared);
  } else if (layout.staticBytes) {
    sharedBytes = LLVM::ConstantOp::create(
        builder, loc, i64, builder.getI64IntegerAttr(layout.staticBytes));
  }

  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  // Loops run (z, y, x) so that x varies fastest, as consecutive CUDA
  // threads and blocks usually touch consecutive memory.
  SmallVector<Value> gridUpper, blockUpper;
  for (int dim = 2; dim >= 0; --dim) {
    gridUpper.push_back(toIndex(builder, loc, gridDims[dim]));
    blockUpper.push_back(toIndex(builder, loc, blockDims[dim]));
  }
  SmallVector<Value> zeros(3, zero), ones(3, one);

  auto gridLoop = scf::ParallelOp::create(builder, loc, zeros, gridUpper, ones);
  gridLoop->setAttr(kParallelLevelAttr, builder.getStringAttr(kGridLevel));
  builder.setInsertionPointToStart(gridLoop.getBody());
  Value sharedBase;
  if (sharedBytes)
    sharedBase = LLVM::CallOp::create(builder, loc, sharedAllocator,
                                      ValueRange{sharedBytes})
                     .getResult();
  else
    sharedBase = LLVM::ZeroOp::create(builder, loc, ptrType);
  SmallVector<Value> blockIds;
  for (int dim = 2; dim >= 0; --dim)
    blockIds.push_back(toI32(builder, loc, gridLoop.getInductionVars()[dim]));

  auto threadLoop =
      scf::ParallelOp::create(builder, loc, zeros, blockUpper, ones);
  threadLoop->setAttr(kParallelLevelAttr, builder.getStringAttr(kBlockLevel));
  builder.setInsertionPointToStart(threadLoop.getBody());
  SmallVector<Value> operands;
  for (int dim = 2; dim >= 0; --dim)
    operands.push_back(
        toI32(builder, loc, threadLoop.getInductionVars()[dim]));
  operands.append(std::begin(blockDims), std::end(blockDims));
  operands.append(blockIds.begin(), blockIds.end());
  operands.append(std::begin(gridDims), std::end(gridDims));
  operands.push_back(sharedBase);
  operands.append(params.begin(), params.end());
  LLVM::CallOp::create(builder, loc, threadFn, operands);

  builder.setInsertionPointToEnd(entry);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});
  return launch;
}

/// Declares `void *__respec_shared_memory(uint64_t)` of the runtime.
static LLVM::LLVMFuncOp getOrDeclareSharedAllocator(ModuleOp module) {
  StringRef name = kSharedMemoryFunction;
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  MLIRContext *ctx = module.getContext();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMPointerType::get(ctx),
                                          {builder.getI64Type()});
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// Removes shared variables: every use now goes through the block's
/// allocation, and a CPU global would be one copy shared by all blocks.
static void eraseSharedGlobals(ModuleOp module) {
  for (auto global :
       llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>()))
    if (isSharedGlobal(global) &&
        SymbolTable::symbolKnownUseEmpty(global, module))
      global.erase();
}

namespace {
struct RaiseKernelsPass
    : public respec::impl::RaiseKernelsPassBase<RaiseKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    if (failed(verifyNoLaunchStateOutsideKernels(module, symbols)))
      return signalPassFailure();

    SmallVector<LLVM::LLVMFuncOp> kernels;
    for (auto func : module.getOps<LLVM::LLVMFuncOp>())
      if (isKernel(func))
        kernels.push_back(func);
    if (kernels.empty())
      return;

    DataLayout dataLayout(module);
    LLVM::LLVMFuncOp sharedAllocator = getOrDeclareSharedAllocator(module);
    for (LLVM::LLVMFuncOp kernel : kernels) {
      std::string kernelName = kernel.getSymName().str();
      SmallVector<Type> paramTypes(kernel.getArgumentTypes());
      SmallVector<Type> paramByValTypes;
      SmallVector<int64_t> paramSizes;
      for (unsigned i = 0, e = paramTypes.size(); i < e; ++i) {
        auto byval = kernel.getArgAttrOfType<TypeAttr>(
            i, LLVM::LLVMDialect::getByValAttrName());
        paramByValTypes.push_back(byval ? byval.getValue() : Type());
        paramSizes.push_back(paramValueSize(kernel, i, dataLayout));
      }
      SharedMemoryLayout layout =
          layOutSharedMemory(kernel, symbols, dataLayout);
      makeThreadFunction(kernel, layout);
      if (failed(symbols.rename(kernel, "__respec_thread." + kernelName)))
        return signalPassFailure();
      kernel->setAttr(kThreadFunctionOfAttr,
                      StringAttr::get(&getContext(), kernelName));
      buildLaunchFunction(module, kernel, kernelName, paramTypes,
                          paramByValTypes, paramSizes, layout,
                          sharedAllocator);
    }
    eraseSharedGlobals(module);
    // Every use was in a kernel (verified above) and is gone.
    if (auto window =
            module.lookupSymbol<LLVM::LLVMFuncOp>(kSharedWindowFunction))
      window.erase();
  }
};
} // namespace
