//===- LowerAlternatives.cpp - Run-time choice among kernel versions ------===//
//
// On the CPU, choosing a version is a switch at the start of the launch
// function. The index comes from a tuning database's geometry table when
// the build has one (compiled into compare chains), else from the runtime:
// `__respec_tune_select` (runtime/include/respec_rt/abi.h) cycles through
// the versions when profiling, each launch timed and recorded with
// `__respec_tune_record`, and applies the geometry heuristic otherwise.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::respec {
#define GEN_PASS_DEF_LOWERALTERNATIVESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Values of the runtime's `mode` argument of __respec_tune_select.
enum TuneMode : int32_t { kTuneProfile = 0, kTuneHeuristic = 1 };

/// The address of a NUL-terminated constant string global.
Value stringConstant(OpBuilder &b, ModuleOp module, Location loc,
                     StringRef prefix, StringRef text) {
  std::string symbol =
      (prefix + "." +
       llvm::utohexstr(static_cast<uint64_t>(llvm::hash_value(text))))
          .str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(symbol);
  if (!global) {
    OpBuilder moduleBuilder = OpBuilder::atBlockBegin(module.getBody());
    std::string bytes = text.str();
    bytes.push_back('\0');
    auto type = LLVM::LLVMArrayType::get(moduleBuilder.getI8Type(),
                                         bytes.size());
    global = LLVM::GlobalOp::create(moduleBuilder, loc, type,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Internal, symbol,
                                    moduleBuilder.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

LLVM::LLVMFuncOp declareRuntime(ModuleOp module, StringRef name, Type result,
                                ArrayRef<Type> params) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(
      b, module.getLoc(), name, LLVM::LLVMFunctionType::get(result, params));
}

/// The version index for the launch geometry `geometry` from `table`
/// ("gx,gy,gz,bx,by,bz" -> index, "default" -> index).
Value selectFromTable(OpBuilder &b, Location loc, DictionaryAttr table,
                      ValueRange geometry) {
  Type i32 = b.getI32Type();
  int64_t fallback = 0;
  if (auto entry = table.getAs<IntegerAttr>("default"))
    fallback = entry.getInt();
  Value index = arith::ConstantIntOp::create(b, loc, i32, fallback);
  for (NamedAttribute entry : table) {
    if (entry.getName() == "default")
      continue;
    SmallVector<StringRef> parts;
    entry.getName().getValue().split(parts, ',');
    if (parts.size() != geometry.size())
      continue;
    Value matches;
    for (auto [part, value] : llvm::zip(parts, geometry)) {
      int64_t size;
      if (part.getAsInteger(10, size))
        return index;
      Value equal = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::eq, value,
          arith::ConstantIntOp::create(b, loc, i32, size));
      matches = matches ? arith::AndIOp::create(b, loc, matches, equal)
                        : equal;
    }
    Value chosen = arith::ConstantIntOp::create(
        b, loc, i32, cast<IntegerAttr>(entry.getValue()).getInt());
    index = arith::SelectOp::create(b, loc, matches, chosen, index);
  }
  return index;
}

/// Moves the ops of `region`'s block before `before`.
void inlineVersion(Region &region, Operation *before) {
  Block &block = region.front();
  before->getBlock()->getOperations().splice(before->getIterator(),
                                             block.getOperations());
}

struct LowerAlternativesPass
    : public respec::impl::LowerAlternativesPassBase<LowerAlternativesPass> {
  using LowerAlternativesPassBase::LowerAlternativesPassBase;

  void runOnOperation() override {
    SmallVector<AlternativesOp> ops;
    getOperation().walk([&](AlternativesOp op) { ops.push_back(op); });
    for (AlternativesOp op : ops)
      lower(op);
  }

  void lower(AlternativesOp op) {
    if (op.getVersions().size() == 1) {
      inlineVersion(op.getVersions().front(), op);
      op.erase();
      return;
    }
    ModuleOp module = getOperation();
    Location loc = op.getLoc();
    OpBuilder b(op);
    auto launch = op->getParentOfType<LLVM::LLVMFuncOp>();
    // Launch functions start with gx, gy, gz, bx, by, bz (i32).
    SmallVector<Value> geometry(launch.getArguments().take_front(6));
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    Type ptr = LLVM::LLVMPointerType::get(&getContext());

    Value kernel = stringConstant(b, module, loc, "__respec_tune_kernel",
                                  op.getKernel());
    SmallVector<StringRef> names;
    for (Attribute description : op.getDescriptions())
      names.push_back(cast<StringAttr>(description).getValue());
    Value descriptions = stringConstant(b, module, loc, "__respec_tune_versions",
                                        llvm::join(names, "\n"));
    Value count = arith::ConstantIntOp::create(
        b, loc, i32, static_cast<int64_t>(names.size()));

    Value index, start;
    if (auto table = op.getGeometryTableAttr(); table && !profile) {
      index = selectFromTable(b, loc, table, geometry);
    } else {
      Value mode = arith::ConstantIntOp::create(
          b, loc, i32, profile ? kTuneProfile : kTuneHeuristic);
      SmallVector<Value> args = {kernel, descriptions, count, mode};
      args.append(geometry);
      auto select = declareRuntime(module, "__respec_tune_select", i32,
                                   {ptr, ptr, i32, i32, i32, i32, i32, i32,
                                    i32, i32});
      index = LLVM::CallOp::create(b, loc, select, args).getResult();
      if (profile) {
        auto clock = declareRuntime(module, "__respec_tune_start", i64, {});
        start = LLVM::CallOp::create(b, loc, clock, ValueRange{}).getResult();
      }
    }

    Value caseIndex = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                                 index);
    SmallVector<int64_t> cases;
    for (size_t i = 1; i < names.size(); ++i)
      cases.push_back(static_cast<int64_t>(i));
    auto switchOp = scf::IndexSwitchOp::create(b, loc, TypeRange{}, caseIndex,
                                               cases, cases.size());
    auto fill = [&](Region &target, Region &version) {
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&target);
      auto yield = scf::YieldOp::create(b, loc);
      inlineVersion(version, yield);
    };
    fill(switchOp.getDefaultRegion(), op.getVersions()[0]);
    for (size_t i = 1; i < names.size(); ++i)
      fill(switchOp.getCaseRegions()[i - 1], op.getVersions()[i]);

    if (profile) {
      SmallVector<Value> args = {kernel, descriptions, index};
      args.append(geometry);
      args.push_back(start);
      auto record = declareRuntime(module, "__respec_tune_record",
                                   LLVM::LLVMVoidType::get(&getContext()),
                                   {ptr, ptr, i32, i32, i32, i32, i32, i32,
                                    i32, i64});
      b.setInsertionPointAfter(switchOp);
      LLVM::CallOp::create(b, loc, record, args);
    }
    op.erase();
  }
};

} // namespace
