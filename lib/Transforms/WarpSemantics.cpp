//===- WarpSemantics.cpp - PTX's definitions of warp primitives -----------===//

#include "respec/Transforms/WarpSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <cstdint>

using namespace mlir;
using namespace mlir::respec;

static Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

std::pair<Value, Value>
mlir::respec::buildShuffleSource(OpBuilder &b, Location loc,
                                 WarpIntrinsicKind kind, Value lane,
                                 Value laneOperand, Value clampOperand) {
  // The operands are i32 scalars, or vectors of i32 (one element per lane)
  // when the caller computes all lanes at once.
  Type type = lane.getType();
  auto constant = [&](int32_t value) -> Value {
    if (auto vector = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(vector, b.getI32IntegerAttr(value)));
    return constI32(b, loc, value);
  };
  Value c31 = constant(31);
  Value segmask = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, clampOperand, constant(8)),
      c31);
  Value notSegmask =
      arith::XOrIOp::create(b, loc, segmask, constant(-1));
  Value minLane = arith::AndIOp::create(b, loc, lane, segmask);
  Value maxLane = arith::OrIOp::create(
      b, loc, minLane,
      arith::AndIOp::create(b, loc,
                            arith::AndIOp::create(b, loc, clampOperand, c31),
                            notSegmask));
  // PTX uses the low 5 bits of the lane operand (b[4:0]) in every mode.
  Value bits = arith::AndIOp::create(b, loc, laneOperand, c31);
  Value source, valid;
  switch (kind) {
  case WarpIntrinsicKind::ShuffleIdx:
    source = arith::OrIOp::create(
        b, loc, minLane, arith::AndIOp::create(b, loc, bits, notSegmask));
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, source,
                                  maxLane);
    break;
  case WarpIntrinsicKind::ShuffleUp:
    source = arith::SubIOp::create(b, loc, lane, bits);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, source,
                                  maxLane);
    break;
  case WarpIntrinsicKind::ShuffleDown:
    source = arith::AddIOp::create(b, loc, lane, bits);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, source,
                                  maxLane);
    break;
  default:
    source = arith::XOrIOp::create(b, loc, lane, bits);
    valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, source,
                                  maxLane);
    break;
  }
  return {source, valid};
}

Value mlir::respec::buildReduceIdentity(OpBuilder &b, Location loc,
                                        StringRef op) {
  if (op == "min")
    return constI32(b, loc, INT32_MAX);
  if (op == "max")
    return constI32(b, loc, INT32_MIN);
  if (op == "umin" || op == "and")
    return constI32(b, loc, -1);
  return constI32(b, loc, 0);
}

Value mlir::respec::buildReduceCombine(OpBuilder &b, Location loc, StringRef op,
                                       Value acc, Value value) {
  if (op == "add")
    return arith::AddIOp::create(b, loc, acc, value);
  if (op == "min")
    return arith::MinSIOp::create(b, loc, acc, value);
  if (op == "max")
    return arith::MaxSIOp::create(b, loc, acc, value);
  if (op == "umin")
    return arith::MinUIOp::create(b, loc, acc, value);
  if (op == "umax")
    return arith::MaxUIOp::create(b, loc, acc, value);
  if (op == "and")
    return arith::AndIOp::create(b, loc, acc, value);
  if (op == "or")
    return arith::OrIOp::create(b, loc, acc, value);
  return arith::XOrIOp::create(b, loc, acc, value);
}

Value mlir::respec::buildMatchAllResult(OpBuilder &b, Location loc,
                                        Type structType, Value equalLanes,
                                        Value participants) {
  Value allEqual = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         equalLanes, participants);
  Value mask = arith::SelectOp::create(b, loc, allEqual, participants,
                                       constI32(b, loc, 0));
  Value result = LLVM::UndefOp::create(b, loc, structType);
  result =
      LLVM::InsertValueOp::create(b, loc, result, mask, ArrayRef<int64_t>{0});
  return LLVM::InsertValueOp::create(b, loc, result, allEqual,
                                     ArrayRef<int64_t>{1});
}
