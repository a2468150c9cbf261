//===- NoWrapInference.h - Overflow flags from integer ranges ---*- C++ -*-===//
//
// CUDA index arithmetic is mostly 32-bit and unsigned (`blockIdx.x *
// blockDim.x + threadIdx.x`), so clang gives it no overflow flags, and LLVM
// cannot prove that consecutive threads access consecutive addresses (a
// sign extension of a sum that may wrap). Where the ranges of the block and
// thread indices are known, most such sums provably do not wrap; marking
// them `nsw`/`nuw` lets LLVM vectorize the thread loops.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_NOWRAPINFERENCE_H
#define RESPEC_TRANSFORMS_NOWRAPINFERENCE_H

#include "mlir/IR/Block.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::respec {

/// Computes integer ranges over the ops of `block` and the ops nested in
/// them (in order, from
/// `known` ranges of values defined outside it, constants, and loop bounds
/// for induction variables) and adds `nsw`/`nuw` to the integer additions,
/// subtractions, multiplications and constant left shifts (LLVM and arith
/// dialects) that the ranges prove do not wrap. Returns how many ops got a
/// flag.
unsigned inferNoWrapFlags(Block &block,
                          const llvm::DenseMap<Value, ConstantIntRanges> &known);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_NOWRAPINFERENCE_H
