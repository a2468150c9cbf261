//===- SourceLocation.h - Diagnostics at the user's line ------------------===//
//
// respec's front-end diagnostics point at the user's source line through
// the debug locations clang attaches to device code.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_SOURCELOCATION_H
#define RESPEC_FRONTEND_SOURCELOCATION_H

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/Support/raw_ostream.h"

namespace respec {

/// Prints "file:line:col: " for `loc` to `os`; nothing for an empty
/// location.
inline llvm::raw_ostream &printLocationPrefix(llvm::raw_ostream &os,
                                              const llvm::DebugLoc &loc) {
  if (loc) {
    auto *scope = llvm::cast<llvm::DIScope>(loc.getScope());
    os << scope->getFilename() << ":" << loc.getLine() << ":" << loc.getCol()
       << ": ";
  }
  return os;
}

} // namespace respec

#endif // RESPEC_FRONTEND_SOURCELOCATION_H
