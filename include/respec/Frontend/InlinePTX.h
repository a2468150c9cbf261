//===- InlinePTX.h - Inline PTX assembly as LLVM IR for the CPU -*- C++ -*-===//

#ifndef RESPEC_FRONTEND_INLINEPTX_H
#define RESPEC_FRONTEND_INLINEPTX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"

#include <string>

namespace respec {

/// Replaces the inline PTX assembly of the device module (`asm` statements of
/// the user and of CUDA's headers: half-precision arithmetic, cache-hint
/// loads, funnel shifts, SIMD video instructions, warp shuffles, ...) by LLVM
/// IR with the same PTX semantics, for targets on which PTX cannot be
/// assembled (the CPU). Each translated statement becomes a call of an
/// internal always-inline function that the device inliner later inlines.
/// Statements with an instruction the translator does not know stay as they
/// are; `describeUntranslatedPTX` names it. Returns true if anything changed.
bool translateInlinePTX(llvm::Module &module);

/// The first PTX instruction of `asmString` (as LLVM writes inline assembly:
/// operands `$0`, `$1`, ...) that the translator cannot express with these
/// `constraints`, as written in the source; empty if it can translate all.
std::string describeUntranslatedPTX(llvm::StringRef asmString,
                                    llvm::StringRef constraints);

} // namespace respec

#endif
