//===- HostLaunches.cpp - The host side of a program built for the GPU ----===//
//
// Lowered with host launches (respec-outline-gpu-kernels{host-launches}), a
// module holds two programs: the GPU kernels with the device functions and
// variables they use, and the launch functions, which run on the host and
// call the runtime's __respec_cuda_launch for each kernel. This file
// separates them: the kernels go to the NVPTX code generator, the launch
// functions to the host object, with the table that registers kernels and
// variables (abi.h's respec_module, wrapped in a respec_gpu_module by the
// driver).
//
//===----------------------------------------------------------------------===//

#include "respec/Target/NVPTXBackend.h"
#include "respec/Transforms/Attributes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace respec {
namespace {

constexpr llvm::StringLiteral kCudaLaunchFunction = "__respec_cuda_launch";

bool isLaunchFunction(Operation *op) {
  return isa<LLVM::LLVMFuncOp>(op) &&
         op->hasAttr(mlir::respec::kKernelNameAttr);
}

/// `__device__`/`__constant__` variables, which the table names.
bool isDeviceVariable(Operation *op) {
  auto global = dyn_cast<LLVM::GlobalOp>(op);
  if (!global)
    return false;
  auto space =
      global->getAttrOfType<IntegerAttr>(mlir::respec::kAddressSpaceAttr);
  return space &&
         (space.getInt() == mlir::respec::kGlobal ||
          space.getInt() == mlir::respec::kConstant) &&
         !global.getSymName().starts_with("llvm.");
}

/// Symbols the launch functions of `module` refer to, transitively.
DenseSet<StringAttr> collectHostSymbols(ModuleOp module) {
  DenseSet<StringAttr> used;
  SmallVector<Operation *> worklist;
  for (Operation &op : module.getBody()->getOperations())
    if (isLaunchFunction(&op))
      worklist.push_back(&op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(op);
    if (!uses)
      continue;
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringAttr name = use.getSymbolRef().getRootReference();
      if (!used.insert(name).second)
        continue;
      if (Operation *def = module.lookupSymbol(name))
        worklist.push_back(def);
    }
  }
  return used;
}

/// The host keeps a placeholder of each device variable, zero-initialized
/// (never touched: the GPU module holds the variable), so that the table
/// can give its name and size.
void makePlaceholder(LLVM::GlobalOp global) {
  Region &initializer = global.getInitializerRegion();
  initializer.getBlocks().clear();
  global.setValueAttr(LLVM::ZeroAttr::get(global.getContext()));
  global.setConstant(false);
  global.setLinkage(LLVM::Linkage::Internal);
}

} // namespace

OwningOpRef<ModuleOp> splitHostLaunches(ModuleOp module) {
  OwningOpRef<ModuleOp> host = module.clone();

  // The GPU side: everything but the launch functions and the runtime
  // function they call.
  for (Operation &op :
       llvm::make_early_inc_range(module.getBody()->getOperations()))
    if (isLaunchFunction(&op))
      op.erase();
  if (Operation *launch = module.lookupSymbol(kCudaLaunchFunction))
    launch->erase();

  // The host side: launch functions, what they use, and device variables.
  DenseSet<StringAttr> used = collectHostSymbols(*host);
  for (Operation &op :
       llvm::make_early_inc_range(host->getBody()->getOperations())) {
    if (isLaunchFunction(&op))
      continue;
    if (isDeviceVariable(&op)) {
      makePlaceholder(cast<LLVM::GlobalOp>(op));
      continue;
    }
    auto symbol =
        op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (symbol && used.contains(symbol)) {
      // A device function the host code calls cannot run there.
      if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
          func && !func.isExternal()) {
        op.emitError() << "host launch code calls device function '"
                       << symbol.getValue() << "'";
        return nullptr;
      }
      continue;
    }
    op.erase();
  }
  PassManager pm(host->getContext());
  pm.addPass(mlir::respec::createEmitModuleTablePass());
  if (failed(pm.run(*host)))
    return nullptr;
  return host;
}

} // namespace respec
