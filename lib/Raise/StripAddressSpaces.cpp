//===- StripAddressSpaces.cpp - NVPTX address spaces to one flat space ----===//
//
// On the GPU, global, shared, constant and local memory are distinct address
// spaces; on the CPU all of them are ordinary host memory. This pass rewrites
// every typed pointer `!llvm.ptr<N>` to `!llvm.ptr` and deletes the
// address-space casts that become no-ops. Globals remember their original
// space in an attribute, because shared-memory lowering must find the
// `__shared__` ones.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"

namespace mlir::respec {
#define GEN_PASS_DEF_STRIPADDRESSSPACESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

/// Rewrites the types of all values, block arguments and type-carrying
/// attributes (function types, byval types) of the module's contents. The
/// module's own attributes stay: its data layout keys pointer types by
/// address space, and merging them would make the layout ambiguous.
static void rewritePointerTypes(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](LLVM::LLVMPointerType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  for (Operation &op : module.getBody()->getOperations())
    replacer.recursivelyReplaceElementsIn(&op, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
}

/// Moves the address space of each global into `respec.address_space`.
static void flattenGlobalAddressSpaces(ModuleOp module) {
  Builder builder(module.getContext());
  module.walk([&](LLVM::GlobalOp global) {
    unsigned space = global.getAddrSpace();
    if (space == kGeneric)
      return;
    global->setAttr(kAddressSpaceAttr, builder.getI32IntegerAttr(space));
    global.setAddrSpace(kGeneric);
  });
}

/// Deletes address-space casts whose source and result now have one type.
static void eraseNoOpAddressSpaceCasts(ModuleOp module) {
  module.walk([](LLVM::AddrSpaceCastOp cast) {
    if (cast.getArg().getType() != cast.getType())
      return;
    cast.replaceAllUsesWith(cast.getArg());
    cast.erase();
  });
}

namespace {
struct StripAddressSpacesPass
    : public respec::impl::StripAddressSpacesPassBase<StripAddressSpacesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    flattenGlobalAddressSpaces(module);
    rewritePointerTypes(module);
    eraseNoOpAddressSpaceCasts(module);
  }
};
} // namespace
