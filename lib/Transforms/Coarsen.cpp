//===- Coarsen.cpp - Thread and block coarsening --------------------------===//
//
// Both coarsenings are unroll-and-interleave (UnrollInterleave.h) of one of
// the launch function's parallel loops:
//
//   thread:  scf.parallel (t) to (n)   ->  if (n % f == 0)
//                                            scf.parallel (t) to (n / f)
//                                              body[t -> t + k*(n/f)], k < f
//                                          else  <original loop>
//
//   block:   scf.parallel (b) to (g)   ->  scf.parallel (b) to (g / f)
//                                            body[b -> b*f + k], k < f
//                                          scf.parallel (b) = (g/f*f) to (g)
//                                            body              (epilogue)
//
// Thread coarsening needs f to divide the block size, which is only known
// at launch, hence the run-time choice. Block coarsening handles any grid
// with the epilogue. The coarsened blocks' shared memory lies side by side
// in one allocation.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/BarrierIntrinsics.h"
#include "respec/Transforms/Coarsening.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"
#include "respec/Transforms/ThreadUniformity.h"
#include "respec/Transforms/UnrollInterleave.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Demangle/Demangle.h"

namespace mlir::respec {
#define GEN_PASS_DEF_COARSENPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// Shared memory of each coarsened block starts at this alignment.
constexpr int64_t kSharedAlignment = 64;

bool isLive(Value value, unsigned depth = 0);

/// Whether the call `user` makes use of `value`, if the callee is defined in
/// the module: barrier-free kernels pass every block and thread index to
/// their thread function, which may ignore most of them.
std::optional<bool> isUsedByCallee(Operation *user, Value value,
                                   unsigned depth) {
  auto call = dyn_cast<CallOpInterface>(user);
  if (!call)
    return std::nullopt;
  auto callee =
      dyn_cast_or_null<FunctionOpInterface>(call.resolveCallable());
  if (!callee || callee.isExternal())
    return std::nullopt;
  OperandRange args = call.getArgOperands();
  // Passed as something other than an argument (an indirect callee).
  if (llvm::count(args, value) != llvm::count(user->getOperands(), value))
    return true;
  for (auto [index, arg] : llvm::enumerate(args))
    if (arg == value && (index >= callee.getNumArguments() ||
                         isLive(callee.getArgument(index), depth + 1)))
      return true;
  return false;
}

/// True if `value` feeds anything that matters: an op with side effects or
/// a value that is itself live. (Raising casts every induction variable to
/// i32 whether the kernel reads it or not.)
bool isLive(Value value, unsigned depth) {
  if (depth > 8)
    return true;
  for (Operation *user : value.getUsers()) {
    if (std::optional<bool> used = isUsedByCallee(user, value, depth)) {
      if (*used)
        return true;
      continue;
    }
    if (!isMemoryEffectFree(user) || user->getNumRegions() != 0 ||
        user->hasTrait<OpTrait::IsTerminator>())
      return true;
    for (Value result : user->getResults())
      if (isLive(result, depth + 1))
        return true;
  }
  return false;
}

SmallVector<bool> liveInductionVars(scf::ParallelOp loop) {
  SmallVector<bool> live;
  for (Value iv : loop.getInductionVars())
    live.push_back(isLive(iv));
  return live;
}

int64_t product(ArrayRef<int64_t> factors) {
  int64_t result = 1;
  for (int64_t factor : factors)
    result *= factor;
  return result;
}

/// The per-dimension index of copy `copy` (last dimension fastest).
SmallVector<int64_t> copyIndex(int64_t copy, ArrayRef<int64_t> factors) {
  SmallVector<int64_t> index(factors.size());
  for (size_t i = factors.size(); i-- > 0;) {
    index[i] = copy % factors[i];
    copy /= factors[i];
  }
  return index;
}

/// Explicit x/y/z factors must not ask for dimensions the loop lacks.
bool fitsRank(const CoarseningFactor &factor, unsigned rank) {
  if (!factor.perDimension)
    return true;
  for (unsigned dim = rank; dim < 3; ++dim)
    if ((*factor.perDimension)[dim] != 1)
      return false;
  return true;
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// A parallel loop like `original` (same lower bounds, steps and
/// attributes) with `upper` bounds, at `b`'s insertion point; `b` is left
/// inside its body.
scf::ParallelOp createCoarseLoop(OpBuilder &b, scf::ParallelOp original,
                                 ValueRange upper) {
  auto coarse = scf::ParallelOp::create(b, original.getLoc(),
                                        original.getLowerBound(), upper,
                                        original.getStep());
  coarse->setDiscardableAttrs(original->getDiscardableAttrDictionary());
  b.setInsertionPoint(coarse.getBody()->getTerminator());
  return coarse;
}

/// One mapping per copy from `original`'s induction variables to the
/// iteration the copy runs in `coarse`: iv * f + k (contiguous) or
/// k * coarseUpper + iv (strided), for copy index k < f in each dimension.
SmallVector<IRMapping> mapCopies(OpBuilder &b, scf::ParallelOp original,
                                 scf::ParallelOp coarse,
                                 ArrayRef<int64_t> factors,
                                 ValueRange coarseUpper, bool strided) {
  Location loc = original.getLoc();
  int64_t numCopies = product(factors);
  SmallVector<IRMapping> copies(numCopies);
  for (int64_t copy = 0; copy < numCopies; ++copy) {
    SmallVector<int64_t> index = copyIndex(copy, factors);
    for (auto [dim, oldIv] : llvm::enumerate(original.getInductionVars())) {
      Value iv = coarse.getInductionVars()[dim];
      Value id = iv;
      if (factors[dim] != 1) {
        Value k = indexConstant(b, loc, index[dim]);
        id = strided
                 ? arith::AddIOp::create(
                       b, loc, arith::MulIOp::create(b, loc, k,
                                                     coarseUpper[dim]),
                       iv)
                 : arith::AddIOp::create(
                       b, loc,
                       arith::MulIOp::create(
                           b, loc, iv, indexConstant(b, loc, factors[dim])),
                       k);
      }
      copies[copy].map(oldIv, id);
    }
  }
  return copies;
}

//===----------------------------------------------------------------------===//
// Thread coarsening
//===----------------------------------------------------------------------===//

/// Why `loop` cannot be thread-coarsened, or empty if it can.
std::string checkThreadCoarsening(scf::ParallelOp loop, Operation *&where) {
  where = nullptr;
  loop.getBody()->walk([&](Operation *op) {
    if (getWarpPrimitiveKind(op)) {
      where = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (where)
    return "it uses warp primitives (or volatile shared memory that its "
           "warps exchange in lockstep), whose lanes coarsening would "
           "reassign";
  ThreadUniformity uniformity(loop);
  where = findNonInterleavableOp(*loop.getBody(), [&](Operation *op) {
    return uniformity.hasUniformControl(op);
  });
  if (where)
    return "a barrier sits under control that may differ between threads";
  return "";
}

/// The outermost op enclosing `loop` (or `loop`) that does not define its
/// bounds: launch-invariant block sizes give a choice made once per launch,
/// which a GPU back end can make on the host.
Operation *outermostInvariantAnchor(scf::ParallelOp loop) {
  Operation *anchor = loop;
  while (Operation *parent = anchor->getParentOp()) {
    if (isa<FunctionOpInterface>(parent) ||
        !llvm::all_of(loop.getOperands(),
                      [&](Value v) { return isDefinedOutside(v, parent); }))
      break;
    anchor = parent;
  }
  return anchor;
}

void coarsenThreads(scf::ParallelOp loop, ArrayRef<int64_t> factors,
                    ThreadMapping mapping) {
  Location loc = loop.getLoc();
  OpBuilder b(outermostInvariantAnchor(loop));
  Value divisible;
  SmallVector<Value> coarseUpper;
  for (auto [upper, factor] : llvm::zip(loop.getUpperBound(), factors)) {
    if (factor == 1) {
      coarseUpper.push_back(upper);
      continue;
    }
    Value f = indexConstant(b, loc, factor);
    Value rest = arith::RemUIOp::create(b, loc, upper, f);
    Value exact = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        rest, indexConstant(b, loc, 0));
    divisible = divisible ? arith::AndIOp::create(b, loc, divisible, exact)
                          : exact;
    coarseUpper.push_back(arith::DivUIOp::create(b, loc, upper, f));
  }
  b.setInsertionPoint(loop);
  auto choice = scf::IfOp::create(b, loc, divisible, /*withElseRegion=*/true);
  loop->moveBefore(choice.elseBlock()->getTerminator());

  b.setInsertionPoint(choice.thenBlock()->getTerminator());
  scf::ParallelOp coarse = createCoarseLoop(b, loop, coarseUpper);
  SmallVector<IRMapping> copies =
      mapCopies(b, loop, coarse, factors, coarseUpper,
                /*strided=*/mapping == ThreadMapping::Strided);
  emitInterleaved(b, *loop.getBody(), copies, coarse.getInductionVars(),
                  /*copiesShareBlock=*/true);
}

//===----------------------------------------------------------------------===//
// Block coarsening
//===----------------------------------------------------------------------===//

/// Why `grid` cannot be block-coarsened, or empty if it can.
std::string checkBlockCoarsening(scf::ParallelOp grid, Operation *&where) {
  // Values all coarsened blocks agree on: not derived from the block id or
  // from memory (which may differ per block).
  ThreadUniformity sameForAllBlocks(*grid.getBody(), grid.getInductionVars(),
                                    /*reductionsUniform=*/false);
  where = findNonInterleavableOp(*grid.getBody(), [&](Operation *op) {
    return sameForAllBlocks.hasUniformControl(op);
  });
  if (where)
    return "a barrier sits under control that depends on the block id";
  return "";
}

/// One shared allocation for all copies, each copy's part 64-byte aligned.
bool emitSharedMemory(OpBuilder &b, Operation *op,
                      MutableArrayRef<IRMapping> copies) {
  auto call = dyn_cast<LLVM::CallOp>(op);
  if (!call || call.getCallee() != kSharedMemoryFunction)
    return false;
  Location loc = call.getLoc();
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  Value bytes = copies.front().lookupOrDefault(call.getOperand(0));
  int64_t numCopies = static_cast<int64_t>(copies.size());
  Value stride, total;
  APInt staticBytes;
  if (matchPattern(bytes, m_ConstantInt(&staticBytes))) {
    // Static shared memory stays static (GPU back ends see its size).
    int64_t aligned = llvm::alignTo(staticBytes.getZExtValue(),
                                    kSharedAlignment);
    stride = constant(aligned);
    total = constant(aligned * numCopies);
  } else {
    stride = LLVM::AndOp::create(
        b, loc,
        LLVM::AddOp::create(b, loc, bytes, constant(kSharedAlignment - 1)),
        constant(-kSharedAlignment));
    total = LLVM::MulOp::create(b, loc, stride, constant(numCopies));
  }
  auto allocation = LLVM::CallOp::create(b, loc, call.getResultTypes(),
                                         call.getCalleeAttr(),
                                         ValueRange{total});
  Type i8 = b.getI8Type();
  for (auto [k, mapping] : llvm::enumerate(copies)) {
    Value offset = LLVM::MulOp::create(b, loc, stride,
                                       constant(static_cast<int64_t>(k)));
    Value base = LLVM::GEPOp::create(b, loc, call.getResult().getType(), i8,
                                     allocation.getResult(),
                                     ArrayRef<LLVM::GEPArg>{offset});
    mapping.map(call.getResult(), base);
  }
  return true;
}

void coarsenBlocks(scf::ParallelOp grid, ArrayRef<int64_t> factors) {
  Location loc = grid.getLoc();
  OpBuilder b(grid);
  unsigned rank = grid.getNumLoops();
  SmallVector<Value> mainUpper, mainEnd;
  for (auto [upper, factor] : llvm::zip(grid.getUpperBound(), factors)) {
    if (factor == 1) {
      mainUpper.push_back(upper);
      mainEnd.push_back(upper);
      continue;
    }
    Value f = indexConstant(b, loc, factor);
    Value count = arith::DivUIOp::create(b, loc, upper, f);
    mainUpper.push_back(count);
    mainEnd.push_back(arith::MulIOp::create(b, loc, count, f));
  }

  // Epilogues: for each coarsened dimension, the blocks past its main part
  // (dimensions handled before it are limited to their main part, so the
  // epilogues do not overlap).
  b.setInsertionPointAfter(grid);
  SmallVector<unsigned> handled;
  for (unsigned dim = 0; dim < rank; ++dim) {
    if (factors[dim] == 1)
      continue;
    auto epilogue = cast<scf::ParallelOp>(b.clone(*grid));
    epilogue->setOperand(dim, mainEnd[dim]);
    for (unsigned earlier : handled)
      epilogue->setOperand(rank + earlier, mainEnd[earlier]);
    handled.push_back(dim);
  }

  b.setInsertionPoint(grid);
  scf::ParallelOp coarse = createCoarseLoop(b, grid, mainUpper);
  SmallVector<IRMapping> copies =
      mapCopies(b, grid, coarse, factors, mainUpper, /*strided=*/false);
  emitInterleaved(b, *grid.getBody(), copies, /*barrierThreads=*/{},
                  /*copiesShareBlock=*/false, emitSharedMemory);
  grid.erase();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

void warnNotApplied(Operation *where, StringRef what, StringRef kernel,
                    StringRef why) {
  where->emitWarning() << what << " coarsening of kernel '" << kernel
                       << "' not applied: " << why;
}

/// Thread-coarsens `loop`; true if it changed.
FailureOr<bool> coarsenThreadLoop(scf::ParallelOp loop, StringRef kernel,
                                  const CoarseningFactor &factor,
                                  ThreadMapping mapping) {
  unsigned rank = loop.getNumLoops();
  if (!fitsRank(factor, rank)) {
    warnNotApplied(loop, "thread", kernel,
                   "the block has fewer dimensions than the factors");
    return false;
  }
  if (failed(verifyNormalizedThreadLoop(loop)))
    return failure();
  Operation *where;
  std::string why = checkThreadCoarsening(loop, where);
  if (!why.empty()) {
    warnNotApplied(where, "thread", kernel, why);
    return false;
  }
  SmallVector<int64_t> factors =
      resolveFactors(factor, rank, liveInductionVars(loop));
  if (product(factors) == 1)
    return false;
  coarsenThreads(loop, factors, mapping);
  return true;
}

} // namespace

FailureOr<bool> mlir::respec::coarsenGridLoop(scf::ParallelOp grid,
                                              StringRef kernel,
                                              const CoarseningRequest &request,
                                              ThreadMapping mapping) {
  bool changed = false;
  if (!request.thread.isIdentity()) {
    for (scf::ParallelOp loop : collectThreadLoops(grid)) {
      FailureOr<bool> coarsened =
          coarsenThreadLoop(loop, kernel, request.thread, mapping);
      if (failed(coarsened))
        return failure();
      changed |= *coarsened;
    }
  }
  if (request.block.isIdentity())
    return changed;
  unsigned rank = grid.getNumLoops();
  if (!fitsRank(request.block, rank)) {
    warnNotApplied(grid, "block", kernel,
                   "the grid has fewer dimensions than the factors");
    return changed;
  }
  Operation *where;
  std::string why = checkBlockCoarsening(grid, where);
  if (!why.empty()) {
    warnNotApplied(where, "block", kernel, why);
    return changed;
  }
  SmallVector<int64_t> factors =
      resolveFactors(request.block, rank, liveInductionVars(grid));
  if (product(factors) == 1)
    return changed;
  coarsenBlocks(grid, factors);
  return true;
}

scf::ParallelOp mlir::respec::findGridLoop(Operation *root) {
  scf::ParallelOp grid;
  root->walk([&](scf::ParallelOp loop) {
    if (!grid && isGridLoop(loop))
      grid = loop;
  });
  return grid;
}

namespace {

struct CoarsenPass : public respec::impl::CoarsenPassBase<CoarsenPass> {
  using CoarsenPassBase::CoarsenPassBase;

  void runOnOperation() override {
    std::optional<CoarseningConfig> config = parseConfig();
    if (!config)
      return signalPassFailure();
    if (config->isIdentity())
      return;
    getOperation().walk([&](LLVM::LLVMFuncOp launch) {
      auto name = launch->getAttrOfType<StringAttr>(kKernelNameAttr);
      if (!name)
        return;
      CoarseningRequest request = config->lookup(name.getValue());
      if (request.isIdentity())
        return;
      // Coarsened blocks would run several blocks of a grid that waits for
      // all of its blocks at once in one.
      if (launch->hasAttr(kSyncsGridAttr)) {
        launch.emitWarning() << "kernel '" << llvm::demangle(name.getValue())
                             << "' synchronizes its grid; not coarsened";
        return;
      }
      scf::ParallelOp grid = findGridLoop(launch);
      if (grid && failed(coarsenGridLoop(grid, name.getValue(), request,
                                         config->threadMapping)))
        signalPassFailure();
    });
  }

  std::optional<CoarseningConfig> parseConfig() {
    CoarseningConfig config;
    std::string error;
    auto fail = [&]() -> std::optional<CoarseningConfig> {
      getOperation().emitError() << error;
      return std::nullopt;
    };
    if (!factors.empty()) {
      std::optional<CoarseningRequest> all =
          parseCoarseningRequest(factors, error);
      if (!all)
        return fail();
      config.all = *all;
    }
    for (const std::string &entry : kernelFactors) {
      auto kernel = parseKernelCoarsening(entry, error);
      if (!kernel)
        return fail();
      config.perKernel.push_back(*kernel);
    }
    if (threadMapping == "contiguous")
      config.threadMapping = ThreadMapping::Contiguous;
    else if (threadMapping != "strided") {
      error = "invalid thread mapping '" + threadMapping +
              "' (expected strided or contiguous)";
      return fail();
    }
    return config;
  }

};

} // namespace
