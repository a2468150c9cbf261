//===- Coarsening.h - Thread and block coarsening requests ------*- C++ -*-===//
//
// Coarsening makes each thread (thread coarsening) or each block (block
// coarsening) of a kernel do the work of several. Users ask for it per
// program (`--coarsen=block=4,thread=2`) or per kernel
// (`--coarsen-kernel=NAME:block=4x1x1`); a factor is either a total, spread
// over the dimensions the kernel uses, or explicit x/y/z factors.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TRANSFORMS_COARSENING_H
#define RESPEC_TRANSFORMS_COARSENING_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir::respec {

/// How much to coarsen one level (threads or blocks).
struct CoarseningFactor {
  /// Total factor, spread over the dimensions (used if `perDimension` is
  /// empty).
  int64_t total = 1;
  /// Explicit factors for x, y and z.
  std::optional<std::array<int64_t, 3>> perDimension;

  bool isIdentity() const {
    return perDimension ? (*perDimension)[0] * (*perDimension)[1] *
                                  (*perDimension)[2] ==
                              1
                        : total == 1;
  }
};

/// How to coarsen one kernel.
struct CoarseningRequest {
  CoarseningFactor block;
  CoarseningFactor thread;

  bool isIdentity() const {
    return block.isIdentity() && thread.isIdentity();
  }
};

/// Which logical thread each copy of a coarsened thread runs.
enum class ThreadMapping {
  /// Copy k of thread t is thread k * (n / f) + t: neighbouring threads of
  /// one copy stay neighbours, which keeps GPU memory accesses coalesced.
  Strided,
  /// Copy k of thread t is thread t * f + k: one thread runs neighbouring
  /// threads.
  Contiguous,
};

/// The coarsening of a whole compilation: a default and per-kernel entries.
struct CoarseningConfig {
  CoarseningRequest all;
  /// Kernel name (mangled, or the demangled name with or without its
  /// namespace) and its request; later entries override earlier ones.
  std::vector<std::pair<std::string, CoarseningRequest>> perKernel;
  ThreadMapping threadMapping = ThreadMapping::Strided;

  bool isIdentity() const;
  /// The request for the kernel whose mangled name is `mangledName`.
  CoarseningRequest lookup(llvm::StringRef mangledName) const;
};

/// Parses `block=F,thread=F` (either part optional), where F is a total
/// factor `N` or per-dimension factors `XxYxZ` (`X` or `XxY` leave the other
/// dimensions at 1). On failure returns nullopt and sets `error`.
std::optional<CoarseningRequest> parseCoarseningRequest(llvm::StringRef text,
                                                        std::string &error);

/// Parses a per-kernel entry `NAME:block=F,thread=F`.
std::optional<std::pair<std::string, CoarseningRequest>>
parseKernelCoarsening(llvm::StringRef text, std::string &error);

/// True if `pattern` names the kernel `mangledName`: the mangled name
/// itself, its demangled qualified name (`ns::kernel`) or its base name
/// (`kernel`); template arguments may be left out.
bool kernelNameMatches(llvm::StringRef pattern, llvm::StringRef mangledName);

/// Factors per dimension of a loop of rank `rank`, in the loop's order (the
/// last dimension is CUDA's x). A total factor goes to the dimensions in
/// `usedDims` (loop order), its largest prime factors first, each to the
/// dimension with the smallest factor so far, x first on ties.
SmallVector<int64_t> resolveFactors(const CoarseningFactor &factor,
                                    unsigned rank,
                                    ArrayRef<bool> usedDims);

/// Coarsens the launch of `kernel` whose grid loop is `grid` (thread
/// coarsening of its thread loops, then block coarsening of the grid
/// loop). Parts that are illegal are skipped with a warning. Returns
/// whether anything changed.
FailureOr<bool> coarsenGridLoop(scf::ParallelOp grid, llvm::StringRef kernel,
                                const CoarseningRequest &request,
                                ThreadMapping mapping);

/// The first grid-level scf.parallel in `root`.
scf::ParallelOp findGridLoop(Operation *root);

/// `request` in the syntax parseCoarseningRequest reads.
std::string formatCoarseningRequest(const CoarseningRequest &request);

} // namespace mlir::respec

#endif // RESPEC_TRANSFORMS_COARSENING_H
