//===- EmitModuleTable.cpp - The kernel and variable registration table ---===//
//
// Emits `__respec_module_table`, the `respec_module` of
// runtime/include/respec_rt/abi.h, from the launch functions and device
// variables of the module. The host side of the translation unit registers
// it with the runtime through clang's ordinary CUDA registration code.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec_rt/abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlir::respec {
#define GEN_PASS_DEF_EMITMODULETABLEPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Builds private constant globals at the end of a module.
class TableBuilder {
public:
  explicit TableBuilder(ModuleOp module)
      : module(module), builder(OpBuilder::atBlockEnd(module.getBody())),
        loc(module.getLoc()), ptrType(LLVM::LLVMPointerType::get(
                                  module.getContext())) {}

  /// A NUL-terminated string constant; returns its symbol.
  StringRef addString(StringRef value) {
    std::string name = ("__respec_str." + Twine(counter++)).str();
    std::string data = value.str();
    data.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), data.size());
    auto global = LLVM::GlobalOp::create(
        builder, loc, type, /*isConstant=*/true, LLVM::Linkage::Private, name,
        builder.getStringAttr(data));
    return global.getSymName();
  }

  /// A constant global of `type` whose value `build` computes.
  LLVM::GlobalOp
  addGlobal(StringRef name, Type type, LLVM::Linkage linkage,
            llvm::function_ref<Value(OpBuilder &, Location)> build) {
    OpBuilder::InsertionGuard guard(builder);
    auto global = LLVM::GlobalOp::create(builder, loc, type,
                                         /*isConstant=*/true, linkage, name,
                                         Attribute());
    Block *init = builder.createBlock(&global.getInitializerRegion());
    builder.setInsertionPointToStart(init);
    LLVM::ReturnOp::create(builder, loc, build(builder, loc));
    return global;
  }

  std::string uniqueName(StringRef prefix) {
    return (prefix + "." + Twine(counter++)).str();
  }

  ModuleOp module;
  OpBuilder builder;
  Location loc;
  Type ptrType;
  unsigned counter = 0;
};

/// Fields of one entry, in the order of the C struct.
using FieldBuilder = std::function<Value(OpBuilder &, Location)>;

Value buildStruct(OpBuilder &b, Location loc, LLVM::LLVMStructType type,
                  ArrayRef<FieldBuilder> fields) {
  Value value = LLVM::UndefOp::create(b, loc, type);
  for (auto [index, field] : llvm::enumerate(fields))
    value = LLVM::InsertValueOp::create(b, loc, value, field(b, loc),
                                        ArrayRef<int64_t>{int64_t(index)});
  return value;
}

FieldBuilder addressOf(Type ptrType, StringRef symbol) {
  std::string name = symbol.str();
  return [ptrType, name](OpBuilder &b, Location loc) -> Value {
    return LLVM::AddressOfOp::create(b, loc, ptrType, name);
  };
}

FieldBuilder constantInt(Type type, int64_t value) {
  return [type, value](OpBuilder &b, Location loc) -> Value {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, value));
  };
}

FieldBuilder nullPointer(Type ptrType) {
  return [ptrType](OpBuilder &b, Location loc) -> Value {
    return LLVM::ZeroOp::create(b, loc, ptrType);
  };
}

/// A constant array of `elementType` built element by element.
Value buildArray(OpBuilder &b, Location loc, Type elementType,
                 ArrayRef<FieldBuilder> elements) {
  auto type = LLVM::LLVMArrayType::get(elementType, elements.size());
  Value value = LLVM::UndefOp::create(b, loc, type);
  for (auto [index, element] : llvm::enumerate(elements))
    value = LLVM::InsertValueOp::create(b, loc, value, element(b, loc),
                                        ArrayRef<int64_t>{int64_t(index)});
  return value;
}

/// `__device__` and `__constant__` variables the host may name in
/// cudaMemcpyToSymbol and friends.
bool isDeviceVariable(LLVM::GlobalOp global) {
  auto space = global->getAttrOfType<IntegerAttr>(kAddressSpaceAttr);
  return space && (space.getInt() == kGlobal || space.getInt() == kConstant) &&
         !global.getSymName().starts_with("llvm.");
}

} // namespace

/// Emits the table. Returns failure if the module already has one.
static LogicalResult emitModuleTable(ModuleOp module) {
  constexpr StringLiteral tableName = kModuleTableName;
  if (module.lookupSymbol(tableName))
    return module.emitError("module already has a ") << tableName;
  MLIRContext *ctx = module.getContext();
  TableBuilder table(module);
  Type i16 = IntegerType::get(ctx, 16);
  Type i32 = IntegerType::get(ctx, 32);
  Type i64 = IntegerType::get(ctx, 64);
  Type ptr = table.ptrType;
  DataLayout dataLayout(module);

  auto kernelType = LLVM::LLVMStructType::getLiteral(
      ctx, {ptr, ptr, i64, i32, i16, i16, ptr});
  auto varType = LLVM::LLVMStructType::getLiteral(ctx, {ptr, ptr, i64});
  auto moduleType = LLVM::LLVMStructType::getLiteral(
      ctx, {i32, i32, i32, i32, ptr, ptr});

  SmallVector<FieldBuilder> kernels;
  for (auto launch : module.getOps<LLVM::LLVMFuncOp>()) {
    auto kernelName = launch->getAttrOfType<StringAttr>(kKernelNameAttr);
    if (!kernelName)
      continue;
    auto sizes = launch->getAttrOfType<DenseI64ArrayAttr>(kParamSizesAttr);
    auto shared = launch->getAttrOfType<IntegerAttr>(kStaticSharedAttr);
    auto bound = launch->getAttrOfType<IntegerAttr>(kMaxThreadsPerBlockAttr);
    int64_t maxThreads = bound ? bound.getInt() : 0;
    int64_t flags =
        launch->hasAttr(kSyncsGridAttr) ? RESPEC_KERNEL_SYNCS_GRID : 0;
    StringRef nameSymbol = table.addString(kernelName.getValue());
    SmallVector<FieldBuilder> sizeFields;
    for (int64_t size : sizes.asArrayRef())
      sizeFields.push_back(constantInt(i32, size));
    FieldBuilder sizesField = nullPointer(ptr);
    if (!sizeFields.empty()) {
      auto arrayType = LLVM::LLVMArrayType::get(i32, sizeFields.size());
      LLVM::GlobalOp sizesGlobal = table.addGlobal(
          table.uniqueName("__respec_param_sizes"), arrayType,
          LLVM::Linkage::Private, [&](OpBuilder &b, Location loc) {
            return buildArray(b, loc, i32, sizeFields);
          });
      sizesField = addressOf(ptr, sizesGlobal.getSymName());
    }
    std::string launchName = launch.getSymName().str();
    kernels.push_back([=](OpBuilder &b, Location loc) {
      return buildStruct(
          b, loc, kernelType,
          {addressOf(ptr, nameSymbol), addressOf(ptr, launchName),
           constantInt(i64, shared.getInt()), constantInt(i32, sizes.size()),
           constantInt(i16, maxThreads), constantInt(i16, flags), sizesField});
    });
  }

  SmallVector<FieldBuilder> vars;
  SmallVector<LLVM::GlobalOp> deviceVariables;
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (!isDeviceVariable(global))
      continue;
    // `__constant__` is read-only for kernels but the host writes it with
    // cudaMemcpyToSymbol, so it cannot live in read-only memory.
    global.setConstant(false);
    deviceVariables.push_back(global);
  }
  for (LLVM::GlobalOp global : deviceVariables) {
    StringRef nameSymbol = table.addString(global.getSymName());
    uint64_t size = dataLayout.getTypeSize(global.getGlobalType());
    std::string varName = global.getSymName().str();
    vars.push_back([=](OpBuilder &b, Location loc) {
      return buildStruct(b, loc, varType,
                         {addressOf(ptr, nameSymbol), addressOf(ptr, varName),
                          constantInt(i64, size)});
    });
  }

  auto addArray = [&](StringRef prefix, Type elementType,
                      ArrayRef<FieldBuilder> elements) -> FieldBuilder {
    if (elements.empty())
      return nullPointer(ptr);
    LLVM::GlobalOp global = table.addGlobal(
        table.uniqueName(prefix),
        LLVM::LLVMArrayType::get(elementType, elements.size()),
        LLVM::Linkage::Private, [&](OpBuilder &b, Location loc) {
          return buildArray(b, loc, elementType, elements);
        });
    return addressOf(ptr, global.getSymName());
  };
  FieldBuilder kernelsField = addArray("__respec_kernels", kernelType, kernels);
  FieldBuilder varsField = addArray("__respec_vars", varType, vars);
  // External so that optimizing the device module keeps it; the driver
  // internalizes it once the host code refers to it.
  table.addGlobal(tableName, moduleType, LLVM::Linkage::External,
                  [&](OpBuilder &b, Location loc) {
                    return buildStruct(
                        b, loc, moduleType,
                        {constantInt(i32, RESPEC_MODULE_MAGIC),
                         constantInt(i32, RESPEC_MODULE_VERSION),
                         constantInt(i32, kernels.size()),
                         constantInt(i32, vars.size()), kernelsField,
                         varsField});
                  });
  return success();
}

namespace {
struct EmitModuleTablePass
    : public respec::impl::EmitModuleTablePassBase<EmitModuleTablePass> {
  void runOnOperation() override {
    if (failed(emitModuleTable(getOperation())))
      signalPassFailure();
  }
};
} // namespace
