//===- OutlineLargeBlocks.cpp - A large block's code as a function --------===//
//
// After barrier lowering, a kernel is one grid loop around its block's code,
// and the block's code is a sequence of thread loops, one per interval
// between barriers, inside whatever serial loops the kernel has. Library
// kernels with unrolled per-thread work (CUB's radix sort, scans and
// reductions) have hundreds or thousands of them.
//
// LLVM's loop passes then spend most of the compile time on scalar
// evolution: whenever LoopRotate, SimpleLoopUnswitch or LoopSimplifyCFG
// change a loop, they make scalar evolution forget the outermost loop
// around it, that is the grid loop, and forgetting a loop visits every
// value its induction variables reach: all of the kernel. Once per changed
// loop, the work is quadratic in the kernel's size (CUB's one-sweep radix
// sort: 4.6 of 10.5 s in LoopRotate alone).
//
// Moving the body of such a grid loop into a function of its own, called
// once per block, makes the block's serial loops the outermost loops of
// the thread loops, so each forget visits one serial loop's values. A call
// per block costs nothing next to a block of hundreds of loops. Smaller
// kernels keep their body in place, where LLVM sees the grid loop (loads of
// kernel arguments hoisted out of it, pointers known not to alias).
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::respec {
#define GEN_PASS_DEF_OUTLINELARGEBLOCKSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Number of loops nested anywhere in `grid`'s body.
int64_t countLoops(scf::ParallelOp grid) {
  int64_t loops = 0;
  grid.getBody()->walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::WhileOp, scf::ParallelOp>(op))
      ++loops;
  });
  return loops;
}

/// True if `function` carries debug information (a DISubprogram): the
/// outlined function would need a subprogram of its own for the locations
/// it takes over.
bool hasDebugScope(LLVM::LLVMFuncOp function) {
  return bool(function.getLoc()
                  ->findInstanceOf<FusedLocWith<LLVM::DISubprogramAttr>>());
}

/// The type a value of type `type` is passed to the outlined function as,
/// or null if it cannot be passed.
Type getParameterType(Type type) {
  if (type.isIndex())
    return IntegerType::get(type.getContext(), 64);
  return LLVM::isCompatibleType(type) ? type : Type();
}

/// Converts `value` (the caller's `index` or LLVM-typed value) to the
/// outlined function's parameter type.
Value toParameter(OpBuilder &builder, Location loc, Value value) {
  if (!value.getType().isIndex())
    return value;
  return arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(),
                                      value);
}

/// Converts `parameter` back to the type `original` had in the caller.
Value fromParameter(OpBuilder &builder, Location loc, Value parameter,
                    Type original) {
  if (!original.isIndex())
    return parameter;
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      parameter);
}

/// True for values the outlined function recomputes instead of taking them
/// as parameters: constants (thread-loop bounds, offsets) stay visible to
/// LLVM's analyses of the block's code.
bool isRematerializable(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         (def->hasTrait<OpTrait::ConstantLike>() ||
          isa<LLVM::AddressOfOp, LLVM::ZeroOp, LLVM::UndefOp, LLVM::PoisonOp>(
              def));
}

/// Moves `grid`'s body into a new internal function next to `kernel`,
/// called from the emptied body. Returns false (and changes nothing) if a
/// value the body uses from outside cannot be passed.
bool outlineBody(scf::ParallelOp grid, LLVM::LLVMFuncOp kernel,
                 SymbolTable &symbols) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(grid.getRegion(), captured);
  SmallVector<Value> passed(grid.getInductionVars());
  SmallVector<Value> recomputed;
  for (Value value : captured)
    (isRematerializable(value) ? recomputed : passed).push_back(value);
  SmallVector<Type> parameterTypes;
  for (Value value : passed) {
    Type type = getParameterType(value.getType());
    if (!type)
      return false;
    parameterTypes.push_back(type);
  }

  MLIRContext *context = grid.getContext();
  Location loc = grid.getLoc();
  OpBuilder builder(context);
  builder.setInsertionPointAfter(kernel);
  auto function = LLVM::LLVMFuncOp::create(
      builder, kernel.getLoc(), (kernel.getName() + ".block").str(),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                  parameterTypes),
      LLVM::Linkage::Internal);
  // LLVM would inline a function with one call site back into the grid
  // loop, undoing the split.
  function.setPassthroughAttr(
      builder.getArrayAttr({builder.getStringAttr("noinline")}));
  symbols.insert(function);

  Block *entry = function.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> replacements;
  for (auto [value, parameter] : llvm::zip(passed, entry->getArguments()))
    replacements.push_back(
        fromParameter(builder, loc, parameter, value.getType()));
  for (Value value : recomputed)
    replacements.push_back(
        builder.clone(*value.getDefiningOp())
            ->getResult(cast<OpResult>(value).getResultNumber()));
  passed.append(recomputed);

  Block &body = *grid.getBody();
  entry->getOperations().splice(entry->end(), body.getOperations(),
                                body.begin(), std::prev(body.end()));
  builder.setInsertionPointToEnd(entry);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  for (auto [value, replacement] : llvm::zip(passed, replacements))
    value.replaceUsesWithIf(replacement, [&](OpOperand &use) {
      return function->isProperAncestor(use.getOwner());
    });

  builder.setInsertionPoint(body.getTerminator());
  SmallVector<Value> arguments;
  for (Value value : ArrayRef(passed).drop_back(recomputed.size()))
    arguments.push_back(toParameter(builder, loc, value));
  LLVM::CallOp::create(builder, loc, function, arguments);
  return true;
}

struct OutlineLargeBlocksPass
    : public respec::impl::OutlineLargeBlocksPassBase<OutlineLargeBlocksPass> {
  using OutlineLargeBlocksPassBase::OutlineLargeBlocksPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<scf::ParallelOp, LLVM::LLVMFuncOp>> grids;
    module.walk([&](scf::ParallelOp loop) {
      auto kernel = loop->getParentOfType<LLVM::LLVMFuncOp>();
      if (kernel && isGridLoop(loop) && loop.getNumResults() == 0 &&
          !hasDebugScope(kernel) && countLoops(loop) >= minLoops)
        grids.push_back({loop, kernel});
    });
    for (auto [grid, kernel] : grids)
      outlineBody(grid, kernel, symbols);
  }
};

} // namespace
