//===- AlignmentClaims.h - Alignment the CPU can rely on -------*- C++ -*-===//
//
// clang states the alignment of an access from the C++ type it goes through,
// and a GPU checks only what each access needs: its own size, at most 16
// bytes. CUDA code that reaches a 32-byte-aligned struct through storage
// aligned to 16 (CUB's BlockScan temp storage: `__align__(32)` fields
// aliased onto an array of 16-byte words) therefore runs on every GPU, while
// on the CPU LLVM merges the struct's loads into one aligned 32-byte vector
// load, which faults. Before the CPU back end sees the device code, every
// alignment it states is cut to what a GPU would have checked.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_ALIGNMENTCLAIMS_H
#define RESPEC_FRONTEND_ALIGNMENTCLAIMS_H

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// Limits the alignment stated by the accesses of `module`'s device code to
/// what running it on a GPU proves: a load or store to its natural alignment
/// (its size, a power of two, at most 16 bytes), a memcpy/memmove/memset to
/// 16 bytes. Alignment facts about pointers that no access checks (`align`
/// on parameters, returns and call arguments, `!align` on loaded pointers)
/// are dropped; LLVM derives alignment again from the objects themselves
/// (allocas, globals, the block's shared memory). Returns whether anything
/// changed.
bool limitAlignmentToCheckedAccesses(llvm::Module &module);

} // namespace respec

#endif // RESPEC_FRONTEND_ALIGNMENTCLAIMS_H
