//===- ThreadLoopUtils.cpp - Helpers for thread loops ---------------------===//

#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/Attributes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::respec;

static bool hasParallelLevel(Operation *op, StringRef level) {
  auto attr = op->getAttrOfType<StringAttr>(kParallelLevelAttr);
  return isa<scf::ParallelOp>(op) && attr && attr.getValue() == level;
}

bool mlir::respec::isThreadLoop(scf::ParallelOp loop) {
  return hasParallelLevel(loop, kBlockLevel);
}

bool mlir::respec::isGridLoop(Operation *op) {
  return hasParallelLevel(op, kGridLevel);
}

std::optional<int64_t> mlir::respec::getConstantThroughCasts(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
             arith::ExtSIOp, LLVM::ZExtOp, LLVM::SExtOp>(def))
      break;
    value = def->getOperand(0);
  }
  return getConstantIntValue(value);
}

bool mlir::respec::isElementwiseIntrinsic(LLVM::CallIntrinsicOp call) {
  static constexpr StringRef kPrefixes[] = {
      "llvm.sqrt.",      "llvm.fabs.",   "llvm.fma.",       "llvm.fmuladd.",
      "llvm.minnum.",    "llvm.maxnum.", "llvm.minimum.",   "llvm.maximum.",
      "llvm.exp.",       "llvm.exp2.",   "llvm.log.",       "llvm.log2.",
      "llvm.log10.",     "llvm.sin.",    "llvm.cos.",       "llvm.pow.",
      "llvm.floor.",     "llvm.ceil.",   "llvm.trunc.",     "llvm.rint.",
      "llvm.nearbyint.", "llvm.round.",  "llvm.roundeven.", "llvm.copysign.",
      "llvm.smin.",      "llvm.smax.",   "llvm.umin.",      "llvm.umax.",
      "llvm.abs.",       "llvm.ctpop.",  "llvm.ctlz.",      "llvm.cttz."};
  StringRef name = call.getIntrin();
  return call.getNumResults() == 1 &&
         llvm::any_of(kPrefixes, [&](StringRef prefix) {
           return name.starts_with(prefix);
         });
}

bool mlir::respec::isCallTo(Operation *op, StringRef callee) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  return call && call.getCallee() == callee;
}

Value mlir::respec::getRootPointer(Value address) {
  while (auto gep = address.getDefiningOp<LLVM::GEPOp>())
    address = gep.getBase();
  return address;
}

bool mlir::respec::isSharedMemoryAddress(Value address) {
  Operation *def = getRootPointer(address).getDefiningOp();
  return def && isCallTo(def, kSharedMemoryFunction);
}

SmallVector<scf::ParallelOp> mlir::respec::collectThreadLoops(Operation *root) {
  SmallVector<scf::ParallelOp> loops;
  root->walk([&](scf::ParallelOp loop) {
    if (isThreadLoop(loop))
      loops.push_back(loop);
  });
  return loops;
}

std::optional<unsigned> mlir::respec::getIntWidth(Type type) {
  if (isa<IndexType>(type))
    return IndexType::kInternalStorageBitWidth;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return std::nullopt;
}

std::optional<CastKind> mlir::respec::classifyCast(Operation *op) {
  if (!isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
           arith::ExtUIOp, arith::TruncIOp, LLVM::SExtOp, LLVM::ZExtOp,
           LLVM::TruncOp>(op))
    return std::nullopt;
  std::optional<unsigned> from = getIntWidth(op->getOperand(0).getType());
  std::optional<unsigned> to = getIntWidth(op->getResult(0).getType());
  if (!from || !to)
    return std::nullopt;
  if (*to < *from)
    return CastKind::Truncate;
  if (*to == *from)
    return CastKind::Same;
  if (auto zext = dyn_cast<LLVM::ZExtOp>(op))
    return zext.getNonNeg() ? CastKind::NonNegExtend : CastKind::ZeroExtend;
  if (isa<arith::IndexCastUIOp, arith::ExtUIOp>(op))
    return CastKind::ZeroExtend;
  return CastKind::SignExtend;
}

bool mlir::respec::isDefinedOutside(Value value, Operation *op) {
  return !op->isAncestor(value.getParentRegion()->getParentOp());
}

bool mlir::respec::hasNoWrapFlag(Operation *op, bool isSigned) {
  if (auto flags = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op))
    return isSigned ? flags.hasNoSignedWrap() : flags.hasNoUnsignedWrap();
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
    return isSigned ? flags.hasNoSignedWrap() : flags.hasNoUnsignedWrap();
  return false;
}

bool mlir::respec::isDisjointOr(Operation *op) {
  auto orOp = dyn_cast_or_null<LLVM::OrOp>(op);
  return orOp && orOp.getIsDisjoint();
}

void mlir::respec::dropPoisonGeneratingFlags(Operation *op) {
  if (auto flags = dyn_cast<LLVM::IntegerOverflowFlagsInterface>(op))
    flags.setOverflowFlags(LLVM::IntegerOverflowFlags::none);
  if (auto exact = dyn_cast<LLVM::ExactFlagInterface>(op))
    exact.setIsExact(false);
  if (auto disjoint = dyn_cast<LLVM::DisjointFlagInterface>(op))
    disjoint.setIsDisjoint(false);
  if (auto nonNegative = dyn_cast<LLVM::NonNegFlagInterface>(op))
    nonNegative.setNonNeg(false);
  if (auto flags = dyn_cast<arith::ArithIntegerOverflowFlagsInterface>(op))
    op->setAttr(flags.getIntegerOverflowAttrName(),
                arith::IntegerOverflowFlagsAttr::get(
                    op->getContext(), arith::IntegerOverflowFlags::none));
}

std::optional<IntComparison> mlir::respec::matchIntComparison(Value condition) {
  Operation *def = condition.getDefiningOp();
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def))
    return IntComparison{cmp.getPredicate(), cmp.getLhs(), cmp.getRhs()};
  auto icmp = dyn_cast_or_null<LLVM::ICmpOp>(def);
  if (!icmp || !icmp.getLhs().getType().isIntOrIndex())
    return std::nullopt;
  // The two enums name the same predicates.
  std::optional<arith::CmpIPredicate> predicate = arith::symbolizeCmpIPredicate(
      LLVM::stringifyICmpPredicate(icmp.getPredicate()));
  if (!predicate)
    return std::nullopt;
  return IntComparison{*predicate, icmp.getLhs(), icmp.getRhs()};
}

arith::CmpIPredicate
mlir::respec::swapOperandsOf(arith::CmpIPredicate predicate) {
  using P = arith::CmpIPredicate;
  switch (predicate) {
  case P::eq:
  case P::ne:
    return predicate;
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  }
  llvm_unreachable("unknown predicate");
}

bool mlir::respec::isRotatedWhileLoop(scf::WhileOp loop) {
  Block &after = loop.getAfter().front();
  return after.getOperations().size() == 1 &&
         loop.getYieldOp().getOperands() == after.getArguments() &&
         loop.getBefore().getArgumentTypes() == after.getArgumentTypes();
}

LogicalResult mlir::respec::verifyNormalizedThreadLoop(scf::ParallelOp loop) {
  for (auto [lower, step] : llvm::zip(loop.getLowerBound(), loop.getStep())) {
    std::optional<int64_t> lowerValue = getConstantIntValue(lower);
    std::optional<int64_t> stepValue = getConstantIntValue(step);
    if (!lowerValue || *lowerValue != 0 || !stepValue || *stepValue != 1)
      return loop.emitOpError(
          "thread loop must start at 0 with step 1 to lower its barriers");
  }
  return success();
}

Value mlir::respec::buildThreadCount(OpBuilder &builder, Location loc,
                                     scf::ParallelOp loop) {
  Value count = arith::ConstantIndexOp::create(builder, loc, 1);
  for (Value upper : loop.getUpperBound())
    count = arith::MulIOp::create(builder, loc, count, upper);
  return count;
}

Value mlir::respec::cloneComputation(
    OpBuilder &builder, Value value, IRMapping &mapping,
    llvm::function_ref<bool(Value)> available) {
  if (available(value))
    return value;
  if (Value done = mapping.lookupOrNull(value))
    return done;
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    cloneComputation(builder, operand, mapping, available);
  Operation *copy = builder.clone(*def, mapping);
  return copy->getResult(cast<OpResult>(value).getResultNumber());
}

Value mlir::respec::buildLinearThreadId(OpBuilder &builder, Location loc,
                                        scf::ParallelOp loop, ValueRange ivs) {
  Value linear = ivs.front();
  for (auto [upper, iv] :
       llvm::zip(loop.getUpperBound().drop_front(), ivs.drop_front())) {
    linear = arith::MulIOp::create(builder, loc, linear, upper);
    linear = arith::AddIOp::create(builder, loc, linear, iv);
  }
  return linear;
}

/// The op before which block-scope storage of `loop` is allocated: the
/// outermost op around `loop` below the grid loop (or function), provided
/// the thread count is available there.
static Operation *getBlockScopeAnchor(scf::ParallelOp loop) {
  Operation *anchor = loop;
  while (Operation *parent = anchor->getParentOp()) {
    if (hasParallelLevel(parent, kGridLevel) ||
        isa<FunctionOpInterface, ModuleOp>(parent))
      break;
    anchor = parent;
  }
  DominanceInfo dominance(anchor->getParentOp());
  for (Value upper : loop.getUpperBound())
    if (!dominance.properlyDominates(upper, anchor))
      return loop;
  return anchor;
}

/// Declares (once) the runtime function `name` of type `type`.
static LLVM::LLVMFuncOp
getOrDeclareRuntimeFunction(ModuleOp module, StringRef name,
                            LLVM::LLVMFunctionType type) {
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return LLVM::LLVMFuncOp::create(builder, module.getLoc(), name, type);
}

/// Makes the block that `anchor` belongs to release the previous block's
/// scratch storage first (a call at the start of the grid loop body).
static void ensureScratchReset(Operation *anchor, ModuleOp module) {
  Operation *gridLoop = anchor->getParentOp();
  if (!hasParallelLevel(gridLoop, kGridLevel))
    return;
  Block *body = &gridLoop->getRegion(0).front();
  auto first = dyn_cast<LLVM::CallOp>(body->front());
  if (first && first.getCallee() == kScratchResetFunction)
    return;
  MLIRContext *ctx = module.getContext();
  LLVM::LLVMFuncOp reset = getOrDeclareRuntimeFunction(
      module, kScratchResetFunction,
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {}));
  OpBuilder builder = OpBuilder::atBlockBegin(body);
  LLVM::CallOp::create(builder, gridLoop->getLoc(), reset, ValueRange{});
}

Value mlir::respec::allocateBlockArray(scf::ParallelOp loop, Type elementType,
                                       int64_t elementsPerThread,
                                       ArrayRef<StringRef> markers) {
  Operation *anchor = getBlockScopeAnchor(loop);
  auto module = loop->getParentOfType<ModuleOp>();
  DataLayout layout = DataLayout::closest(loop);
  // Elements are laid out at their allocation stride, as a GEP does.
  uint64_t stride =
      llvm::alignTo(layout.getTypeSize(elementType).getFixedValue(),
                    layout.getTypeABIAlignment(elementType));
  OpBuilder builder(anchor);
  Location loc = loop.getLoc();
  Value count = buildThreadCount(builder, loc, loop);
  count = arith::MulIOp::create(
      builder, loc, count,
      arith::ConstantIndexOp::create(
          builder, loc, elementsPerThread * std::max<uint64_t>(stride, 1)));
  Value bytes =
      arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(), count);
  MLIRContext *ctx = loop.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  LLVM::LLVMFuncOp scratch = getOrDeclareRuntimeFunction(
      module, kScratchFunction,
      LLVM::LLVMFunctionType::get(ptrType, {builder.getI64Type()}));
  auto call = LLVM::CallOp::create(builder, loc, scratch, ValueRange{bytes});
  for (StringRef marker : markers)
    call->setAttr(marker, builder.getUnitAttr());
  ensureScratchReset(anchor, module);
  return call.getResult();
}

Value mlir::respec::buildElementAddress(OpBuilder &builder, Location loc,
                                        Value base, Type elementType,
                                        Value index) {
  Value index64 =
      arith::IndexCastUIOp::create(builder, loc, builder.getI64Type(), index);
  return LLVM::GEPOp::create(builder, loc,
                             LLVM::LLVMPointerType::get(builder.getContext()),
                             elementType, base, ValueRange{index64});
}

Type mlir::respec::getStorageType(Type type) {
  if (type.isIndex())
    return IntegerType::get(type.getContext(), 64);
  if (LLVM::isCompatibleType(type))
    return type;
  return nullptr;
}

void mlir::respec::storeValue(OpBuilder &builder, Location loc, Value value,
                              Value address) {
  if (value.getType().isIndex())
    value =
        arith::IndexCastOp::create(builder, loc, builder.getI64Type(), value);
  LLVM::StoreOp::create(builder, loc, value, address);
}

Value mlir::respec::loadValue(OpBuilder &builder, Location loc, Type type,
                              Value address) {
  Value value =
      LLVM::LoadOp::create(builder, loc, getStorageType(type), address);
  if (type.isIndex())
    value = arith::IndexCastOp::create(builder, loc, type, value);
  return value;
}

Value mlir::respec::createThreadPrivateSlot(scf::ParallelOp loop, Type type) {
  OpBuilder builder = OpBuilder::atBlockBegin(loop.getBody());
  Location loc = loop.getLoc();
  Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                       builder.getI64IntegerAttr(1));
  return LLVM::AllocaOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      getStorageType(type), one, /*alignment=*/0);
}

bool mlir::respec::forEachGEPIndexStep(
    LLVM::GEPOp gep, const DataLayout &layout,
    function_ref<bool(Value index, int64_t bytes)> onIndex) {
  Type type = gep.getElemType();
  bool first = true;
  for (auto index : gep.getIndices()) {
    Type stepped = type;
    if (!first) {
      if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
        stepped = array.getElementType();
      } else if (auto field = dyn_cast<IntegerAttr>(index);
                 field && isa<LLVM::LLVMStructType>(type)) {
        type = cast<LLVM::LLVMStructType>(type).getBody()[field.getInt()];
        continue;
      } else {
        return false;
      }
    }
    if (auto dynamic = dyn_cast<Value>(index))
      if (!onIndex(dynamic, static_cast<int64_t>(
                                layout.getTypeSize(stepped).getFixedValue())))
        return false;
    type = stepped;
    first = false;
  }
  return true;
}

namespace {

/// How the values of a thread body move with the thread loop's innermost
/// index x: the coefficient c of `value = c * x + (terms without x)`, in
/// bytes for addresses. Following sums, constant multiples, casts and
/// address arithmetic; anything else that depends on x has no coefficient.
/// (A heuristic for LLVM's vectorizer, not a legality argument: casts are
/// read as not wrapping.)
class InnermostStrides {
public:
  InnermostStrides(scf::ParallelOp loop, DataLayout layout)
      : loop(loop), x(loop.getInductionVars().back()), layout(layout) {}

  std::optional<int64_t> coefficient(Value value) {
    if (auto it = memo.find(value); it != memo.end())
      return it->second;
    // SSA values of structured code form no cycles (loop-carried values
    // are block arguments, not followed), so the recursion ends.
    std::optional<int64_t> result = compute(value);
    memo[value] = result;
    return result;
  }

private:
  std::optional<int64_t> compute(Value value) {
    if (value == x)
      return 1;
    if (!loop->isProperAncestor(value.getParentBlock()->getParentOp()) &&
        value.getParentRegion() != &loop.getRegion())
      return 0;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      // The other thread indices; a serial loop's counter moves with x as
      // its lower bound does.
      if (arg.getOwner() == loop.getBody())
        return 0;
      auto forOp = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (forOp && arg == forOp.getInductionVar() &&
          coefficient(forOp.getStep()) == 0)
        return coefficient(forOp.getLowerBound());
      return std::nullopt;
    }
    Operation *def = value.getDefiningOp();
    if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
            arith::ExtUIOp, arith::TruncIOp, LLVM::SExtOp, LLVM::ZExtOp,
            LLVM::TruncOp>(def))
      return coefficient(def->getOperand(0));
    // An `or disjoint` is an addition (clang's `(row << 12) | col`).
    if (isa<arith::AddIOp, LLVM::AddOp>(def) || isDisjointOr(def))
      return combine(def, [](int64_t a, int64_t b) { return a + b; });
    if (isa<arith::SubIOp, LLVM::SubOp>(def))
      return combine(def, [](int64_t a, int64_t b) { return a - b; });
    if (isa<arith::MulIOp, LLVM::MulOp, arith::ShLIOp, LLVM::ShlOp>(def))
      return scale(def);
    if (auto gep = dyn_cast<LLVM::GEPOp>(def))
      return addressCoefficient(gep);
    // What regions yield (scf.if, loops) is not followed.
    if (def->getNumRegions() != 0)
      return std::nullopt;
    // Anything else moves with x only if an operand does.
    for (Value operand : def->getOperands())
      if (coefficient(operand) != 0)
        return std::nullopt;
    return 0;
  }

  std::optional<int64_t> combine(Operation *def,
                                 function_ref<int64_t(int64_t, int64_t)> fn) {
    std::optional<int64_t> a = coefficient(def->getOperand(0));
    std::optional<int64_t> b = coefficient(def->getOperand(1));
    if (!a || !b)
      return std::nullopt;
    return fn(*a, *b);
  }

  /// `a * k`, `k * a` or `a << k` for a constant k.
  std::optional<int64_t> scale(Operation *def) {
    bool shift = isa<arith::ShLIOp, LLVM::ShlOp>(def);
    for (unsigned side = 0; side < 2; ++side) {
      if (shift && side == 1)
        break;
      std::optional<int64_t> c = coefficient(def->getOperand(side));
      std::optional<int64_t> k = getConstantIntValue(def->getOperand(1 - side));
      if (!c || !k)
        continue;
      if (shift)
        return *k >= 0 && *k < 32
                   ? std::optional<int64_t>(*c * (int64_t(1) << *k))
                   : std::nullopt;
      return *c * *k;
    }
    if (coefficient(def->getOperand(0)) == 0 &&
        coefficient(def->getOperand(1)) == 0)
      return 0;
    return std::nullopt;
  }

  std::optional<int64_t> addressCoefficient(LLVM::GEPOp gep) {
    std::optional<int64_t> total = coefficient(gep.getBase());
    if (!total)
      return std::nullopt;
    bool linear =
        forEachGEPIndexStep(gep, layout, [&](Value index, int64_t bytes) {
          std::optional<int64_t> c = coefficient(index);
          if (!c)
            return false;
          *total += *c * bytes;
          return true;
        });
    return linear ? total : std::nullopt;
  }

  scf::ParallelOp loop;
  Value x;
  DataLayout layout;
  llvm::DenseMap<Value, std::optional<int64_t>> memo;
};

} // namespace

AccessesAlongX mlir::respec::classifyAccessesAlongX(scf::ParallelOp loop) {
  DataLayout layout = DataLayout::closest(loop);
  InnermostStrides strides(loop, layout);
  int64_t step = getConstantIntValue(loop.getStep().back()).value_or(1);
  AccessesAlongX result;
  loop.getBody()->walk([&](Operation *op) {
    Value address;
    Type accessed;
    if (auto load = dyn_cast<LLVM::LoadOp>(op)) {
      address = load.getAddr();
      accessed = load.getType();
    } else if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      address = store.getAddr();
      accessed = store.getValue().getType();
    } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      for (Value arg : call.getArgOperands())
        if (strides.coefficient(arg) != 0)
          result.callsTakeX = true;
      return;
    } else {
      return;
    }
    std::optional<int64_t> c = strides.coefficient(address);
    if (!c)
      ++result.unknown;
    else if (*c == 0)
      ++result.uniform;
    else if (*c * step == int64_t(layout.getTypeSize(accessed)))
      ++result.contiguous;
    else
      ++result.strided;
  });
  return result;
}

bool mlir::respec::isContiguousAlongX(scf::ParallelOp loop) {
  AccessesAlongX accesses = classifyAccessesAlongX(loop);
  return !accesses.callsTakeX && accesses.unknown == 0 && accesses.strided == 0;
}
