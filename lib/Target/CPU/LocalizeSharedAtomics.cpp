//===- LocalizeSharedAtomics.cpp - Shared-memory atomics as plain ops -----===//
//
// On the CPU one OpenMP thread runs all threads of a block, one after the
// other, and a block's shared memory belongs to that block alone. An atomic
// operation on shared memory therefore never races: no other OS thread can
// touch that memory while the block runs. A plain load, the operation and a
// store compute the same result, without the locked instruction (about 20
// cycles on x86, and a barrier to vectorization) that `atomicrmw` costs.
// CUDA's atomics are relaxed (no ordering beyond the location itself), so
// nothing else changes.
//
// Only accesses whose address is computed from the block's shared memory
// base by address arithmetic are rewritten; an address that went through
// memory (a pointer kept across a barrier, a pointer argument) keeps its
// atomic, which is always correct.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"
#include "respec/Transforms/ThreadLoopUtils.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::respec {
#define GEN_PASS_DEF_LOCALIZESHAREDATOMICSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

/// The value an atomic read-modify-write stores, computed from the `old`
/// value at the address; null for operations left atomic.
Value buildUpdatedValue(OpBuilder &builder, LLVM::AtomicRMWOp atomic,
                        Value old) {
  Location loc = atomic.getLoc();
  Value operand = atomic.getVal();
  switch (atomic.getBinOp()) {
  case LLVM::AtomicBinOp::xchg:
    return operand;
  case LLVM::AtomicBinOp::add:
    return LLVM::AddOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::sub:
    return LLVM::SubOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::_and:
    return LLVM::AndOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::_or:
    return LLVM::OrOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::_xor:
    return LLVM::XOrOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::max:
    return LLVM::SMaxOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::min:
    return LLVM::SMinOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::umax:
    return LLVM::UMaxOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::umin:
    return LLVM::UMinOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::fadd:
    return LLVM::FAddOp::create(builder, loc, old, operand);
  case LLVM::AtomicBinOp::fsub:
    return LLVM::FSubOp::create(builder, loc, old, operand);
  default:
    return nullptr;
  }
}

unsigned getAlignment(std::optional<uint64_t> alignment) {
  return alignment ? static_cast<unsigned>(*alignment) : 0;
}

/// Marks the plain accesses that replace an atomic: they stay correct only
/// while one thread of the block runs at a time.
void markBlockSerial(std::initializer_list<Operation *> accesses) {
  for (Operation *access : accesses)
    access->setAttr(kBlockSerialAttr, UnitAttr::get(access->getContext()));
}

/// Replaces `atomic` by load, operation and store; false if it stays.
bool localize(LLVM::AtomicRMWOp atomic) {
  if (atomic.getVolatile_() || !isSharedMemoryAddress(atomic.getPtr()))
    return false;
  OpBuilder builder(atomic);
  Location loc = atomic.getLoc();
  unsigned alignment = getAlignment(atomic.getAlignment());
  auto load = LLVM::LoadOp::create(builder, loc, atomic.getRes().getType(),
                                   atomic.getPtr(), alignment);
  Value old = load;
  Value updated = buildUpdatedValue(builder, atomic, old);
  if (!updated) {
    load->erase();
    return false;
  }
  auto store =
      LLVM::StoreOp::create(builder, loc, updated, atomic.getPtr(), alignment);
  markBlockSerial({load, store});
  atomic.getRes().replaceAllUsesWith(old);
  atomic.erase();
  return true;
}

/// Replaces `cmpxchg` by a load, a comparison and a store of the selected
/// value; its {old value, success} result is rebuilt.
bool localize(LLVM::AtomicCmpXchgOp cmpxchg) {
  if (cmpxchg.getVolatile_() || !isSharedMemoryAddress(cmpxchg.getPtr()))
    return false;
  OpBuilder builder(cmpxchg);
  Location loc = cmpxchg.getLoc();
  unsigned alignment = getAlignment(cmpxchg.getAlignment());
  Type valueType = cmpxchg.getVal().getType();
  auto load = LLVM::LoadOp::create(builder, loc, valueType, cmpxchg.getPtr(),
                                   alignment);
  Value old = load;
  Value success = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                       old, cmpxchg.getCmp());
  Value stored =
      LLVM::SelectOp::create(builder, loc, success, cmpxchg.getVal(), old);
  auto store =
      LLVM::StoreOp::create(builder, loc, stored, cmpxchg.getPtr(), alignment);
  markBlockSerial({load, store});
  Value result = LLVM::UndefOp::create(builder, loc, cmpxchg.getType());
  result = LLVM::InsertValueOp::create(builder, loc, result, old,
                                       ArrayRef<int64_t>{0});
  result = LLVM::InsertValueOp::create(builder, loc, result, success,
                                       ArrayRef<int64_t>{1});
  cmpxchg.getRes().replaceAllUsesWith(result);
  cmpxchg.erase();
  return true;
}

struct LocalizeSharedAtomicsPass
    : public respec::impl::LocalizeSharedAtomicsPassBase<
          LocalizeSharedAtomicsPass> {
  void runOnOperation() override {
    SmallVector<Operation *> atomics;
    getOperation()->walk([&](Operation *op) {
      if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op))
        atomics.push_back(op);
    });
    for (Operation *op : atomics) {
      if (auto atomic = dyn_cast<LLVM::AtomicRMWOp>(op))
        localize(atomic);
      else
        localize(cast<LLVM::AtomicCmpXchgOp>(op));
    }
  }
};

} // namespace
