//===- ThreadLoopUtils.h - Helpers for thread loops -------------*- C++ -*-===//
//
// Thread loops are the `scf.parallel` ops over the threads of a block
// (`respec.parallel_level = "block"`). Barrier lowering keeps per-thread
// values in block-scope arrays indexed by the linear thread id; these helpers
// build those arrays and addresses in one place.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_THREADLOOPUTILS_H
#define RESPEC_TRANSFORMS_THREADLOOPUTILS_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

namespace mlir::respec {

/// On the op making a block-scope array: an array that barrier lowering made to keep
/// values of each thread across a barrier. Loads from it are rematerializable
/// (every slot is written once before it is read).
inline constexpr llvm::StringLiteral kBarrierSpillAttr = "respec.barrier_spill";

/// The runtime functions (runtime/include/respec_rt/abi.h) that provide
/// block-scope storage.
inline constexpr llvm::StringLiteral kScratchFunction = "__respec_block_scratch";
inline constexpr llvm::StringLiteral kScratchResetFunction =
    "__respec_block_scratch_reset";

/// True for the scf.parallel over the threads of a block.
bool isThreadLoop(scf::ParallelOp loop);

/// True for an scf.parallel over the blocks of a grid.
bool isGridLoop(Operation *op);

/// The constant `value` is, looking through integer casts (launch bounds
/// are casts of the launch function's i32 arguments).
std::optional<int64_t> getConstantThroughCasts(Value value);

/// True for calls of math intrinsics by name (`llvm.call_intrinsic
/// "llvm.sqrt.f32"`) that compute one result per element from their
/// operands alone, without memory effects. Operands of another type than
/// the result (the `is_int_min_poison` flag of llvm.abs) are not elements.
bool isElementwiseIntrinsic(LLVM::CallIntrinsicOp call);

/// True if `op` is a direct call to the function named `callee`.
bool isCallTo(Operation *op, StringRef callee);

/// The pointer `address` is computed from by address arithmetic (GEPs).
Value getRootPointer(Value address);

/// True if `address` is the block's shared memory (the runtime's
/// `__respec_shared_memory`) plus address arithmetic. An address that went
/// through memory (a pointer kept across a barrier, a pointer argument) is
/// not recognized.
bool isSharedMemoryAddress(Value address);

/// The thread loops nested in `root`, inner ones first (a walk's order), so
/// that callers may rewrite each without invalidating the rest.
SmallVector<scf::ParallelOp> collectThreadLoops(Operation *root);

/// The width in bits of an integer or index type (index: 64), or nullopt
/// for other types.
std::optional<unsigned> getIntWidth(Type type);

/// How a cast changes an integer's bits.
enum class CastKind { SignExtend, ZeroExtend, NonNegExtend, Truncate, Same };

/// The kind of `op` if it is an integer cast (arith or LLVM extension,
/// truncation or index cast) between integer or index types.
std::optional<CastKind> classifyCast(Operation *op);

/// An integer comparison (`arith.cmpi` or `llvm.icmp`) in arith's terms.
struct IntComparison {
  arith::CmpIPredicate predicate;
  Value lhs, rhs;
};

/// `condition` as an integer comparison, if it is one.
std::optional<IntComparison> matchIntComparison(Value condition);

/// The predicate that holds for (rhs, lhs) when `predicate` holds for
/// (lhs, rhs).
arith::CmpIPredicate swapOperandsOf(arith::CmpIPredicate predicate);

/// True if `value` is defined outside `op` (not by an op in its regions
/// nor as an argument of one of their blocks): available before `op`
/// where it is available inside.
bool isDefinedOutside(Value value, Operation *op);

/// True if the integer operation `op` carries the flag that it does not
/// wrap when its operands are read as signed (nsw) or unsigned (nuw)
/// integers.
bool hasNoWrapFlag(Operation *op, bool isSigned);

/// True for an `llvm.or disjoint`: its operands share no set bit, so it is
/// their sum, which wraps neither signed nor unsigned.
bool isDisjointOr(Operation *op);

/// Removes the poison-generating flags of `op` (overflow, exact, disjoint,
/// non-negative): facts that held where it was, which moving or cloning it
/// elsewhere may break. Always correct: the op then computes a defined
/// value wherever it computed one before.
void dropPoisonGeneratingFlags(Operation *op);

/// True if the after region of `loop` passes its arguments back to the
/// before region unchanged: a rotated loop as the CFG lifting leaves it,
/// with all of its body in the before region.
bool isRotatedWhileLoop(scf::WhileOp loop);

/// Fails with a diagnostic unless `loop` starts at 0 with step 1 in every
/// dimension, as the loops built by raising do.
LogicalResult verifyNormalizedThreadLoop(scf::ParallelOp loop);

/// The number of threads of `loop` (product of its upper bounds), as index.
Value buildThreadCount(OpBuilder &builder, Location loc, scf::ParallelOp loop);

/// Recomputes `value` at the builder's insertion point: values `available`
/// there are used as they are, the others are cloned from their defining
/// ops (which the caller knows to have no regions and to be safe to
/// execute there), operands first, each once (recorded in `mapping`).
Value cloneComputation(OpBuilder &builder, Value value, IRMapping &mapping,
                       llvm::function_ref<bool(Value)> available);

/// The linear id of the thread whose induction variables are `ivs` (the last
/// dimension varies fastest), as index.
Value buildLinearThreadId(OpBuilder &builder, Location loc,
                          scf::ParallelOp loop, ValueRange ivs);

/// Allocates, once per block, `elementsPerThread` elements of `elementType`
/// for every thread of `loop`, before the outermost op that encloses `loop`
/// inside the block (so never inside a serial loop). The storage comes from
/// the runtime's per-block scratch arena, not the stack (a block's arrays
/// can take megabytes), and is 64-byte aligned, enough for any CUDA type.
/// `markers` are unit attributes set on the allocating op. Returns the base
/// pointer.
Value allocateBlockArray(scf::ParallelOp loop, Type elementType,
                         int64_t elementsPerThread,
                         ArrayRef<StringRef> markers = {});

/// Address of element `index` (index-typed) of an array of `elementType`.
Value buildElementAddress(OpBuilder &builder, Location loc, Value base,
                          Type elementType, Value index);

/// The memory type that holds a value of `type`: `type` itself for LLVM
/// types, i64 for index. Null if the type cannot be kept in memory.
Type getStorageType(Type type);

/// Stores `value` at `address`, converting index to its storage type.
void storeValue(OpBuilder &builder, Location loc, Value value, Value address);

/// Loads a value of `type` from `address` (see getStorageType).
Value loadValue(OpBuilder &builder, Location loc, Type type, Value address);

/// Creates, at the start of `loop`'s body, an llvm.alloca for one value of
/// `type` private to each thread.
Value createThreadPrivateSlot(scf::ParallelOp loop, Type type);

/// Walks the dynamic indices of `gep`, calling `onIndex(index, bytes)` with
/// the bytes by which one step of each index moves the address (the first
/// index steps over whole elements, later ones into arrays; constant struct
/// field indices add fixed offsets). Returns false if a callback does, or
/// if an index goes into a type whose layout this does not follow.
bool forEachGEPIndexStep(
    LLVM::GEPOp gep, const DataLayout &layout,
    function_ref<bool(Value index, int64_t bytes)> onIndex);

/// True if every access of `loop`'s body is the same for all threads or
/// moves with x by its own size, so that LLVM's vectorizer, told the loop
/// is parallel, emits vector loads and stores (x: the last dimension). Gathers and scatters it
/// would emit for other accesses ran slower than the scalar loop (`nw`'s
/// anti-diagonal sweep, 1.9x on AMD Zen 4), and a call that takes x may
/// be inlined into anything, so such loops are left to LLVM's own
/// analysis.
bool isContiguousAlongX(scf::ParallelOp loop);

/// The loads and stores of a thread loop's body by how their addresses move
/// with x, one step of the loop: not at all, by the accessed size, by
/// anything else, or in a way not followed (through values that regions
/// yield, non-linear arithmetic); and whether a call takes a value that
/// moves with x.
struct AccessesAlongX {
  unsigned uniform = 0, contiguous = 0, strided = 0, unknown = 0;
  bool callsTakeX = false;
};
AccessesAlongX classifyAccessesAlongX(scf::ParallelOp loop);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_THREADLOOPUTILS_H
