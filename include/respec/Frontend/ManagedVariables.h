//===- ManagedVariables.h - __managed__ variables --------------*- C++ -*-===//
//
// clang accepts the `managed` attribute for HIP only, so respec's headers
// define `__managed__` as `__device__` plus an annotation. Each side of a
// CUDA compile then has the variable (the device variable and the host's
// shadow) and an `llvm.global.annotations` entry naming it, which these
// functions read and remove.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_FRONTEND_MANAGEDVARIABLES_H
#define RESPEC_FRONTEND_MANAGEDVARIABLES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace respec {

/// The annotation respec's `__managed__` puts on a variable.
inline constexpr llvm::StringLiteral kManagedAnnotation = "respec.managed";

struct ManagedVariable {
  std::string symbol; ///< The variable's (mangled) name on both sides.
  std::string file;   ///< Where it is declared.
  unsigned line = 0;
};

/// The `__managed__` variables defined in `module` (either side of a CUDA
/// compile). Their annotations are removed; other annotations are kept.
std::vector<ManagedVariable> takeManagedVariables(llvm::Module &module);

/// Prints an error at each variable's line saying that `__managed__`
/// variables are not supported for `target`. Returns true if there were
/// any.
bool reportUnsupportedManagedVariables(llvm::ArrayRef<ManagedVariable> vars,
                                       llvm::StringRef target);

} // namespace respec

#endif // RESPEC_FRONTEND_MANAGEDVARIABLES_H
