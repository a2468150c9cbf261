//===- PruneAlternatives.cpp - Dropping versions ptxas shows to be bad ----===//
//
// A coarsened version only pays off if the GPU can still run it well: it
// must fit the block's shared memory, must not spill where the original
// did not, and must not use so many registers that fewer warps fit on an
// SM than with the original. ptxas reports all three per kernel; versions
// that fail are dropped before the PTX is written, so only plausible
// candidates reach run-time selection.
//
//===----------------------------------------------------------------------===//

#include "respec/Target/NVPTXBackend.h"
#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Coarsening.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace respec {

std::vector<KernelVersion> collectKernelVersions(mlir::ModuleOp module) {
  std::vector<KernelVersion> versions;
  module.walk([&](mlir::LLVM::LLVMFuncOp func) {
    auto description =
        func->getAttrOfType<mlir::StringAttr>(mlir::respec::kKernelVersionAttr);
    auto kernel = func->getAttrOfType<mlir::StringAttr>(
        mlir::respec::kKernelVersionOfAttr);
    if (!description || !kernel)
      return;
    auto it = llvm::find_if(versions, [&](const KernelVersion &v) {
      return v.kernel == kernel.getValue() &&
             v.description == description.getValue();
    });
    if (it == versions.end()) {
      versions.push_back({kernel.str(), description.str(), {}});
      it = std::prev(versions.end());
    }
    it->entries.push_back(func.getSymName().str());
    if (auto shared = func->getAttrOfType<mlir::IntegerAttr>(
            mlir::respec::kKernelSharedBytesAttr))
      it->sharedBytes = std::max(it->sharedBytes, shared.getInt());
  });
  return versions;
}

std::map<std::string, KernelResources> parsePtxasReport(StringRef text) {
  std::map<std::string, KernelResources> result;
  Regex entry("Compiling entry function '([^']+)'");
  Regex spills("([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads");
  Regex used("Used ([0-9]+) registers");
  Regex shared("([0-9]+) bytes smem");
  std::string current;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    SmallVector<StringRef> match;
    if (entry.match(line, &match)) {
      current = match[1].str();
      result[current];
      continue;
    }
    if (current.empty())
      continue;
    KernelResources &resources = result[current];
    if (spills.match(line, &match)) {
      match[1].getAsInteger(10, resources.spillStores);
      match[2].getAsInteger(10, resources.spillLoads);
    }
    if (used.match(line, &match))
      match[1].getAsInteger(10, resources.registers);
    if (shared.match(line, &match))
      match[1].getAsInteger(10, resources.sharedBytes);
  }
  return result;
}

/// The total thread coarsening factor of a version description.
static int64_t threadFactor(StringRef description) {
  std::string error;
  std::optional<mlir::respec::CoarseningRequest> request =
      mlir::respec::parseCoarseningRequest(description, error);
  if (!request)
    return 1;
  const mlir::respec::CoarseningFactor &thread = request->thread;
  if (!thread.perDimension)
    return thread.total;
  return (*thread.perDimension)[0] * (*thread.perDimension)[1] *
         (*thread.perDimension)[2];
}

std::vector<VersionVerdict> pruneKernelVersions(
    const std::vector<KernelVersion> &versions,
    const std::map<std::string, KernelResources> &resources,
    int64_t sharedPerBlock, int64_t blockThreads,
    function_ref<double(int64_t, int64_t, int64_t)> occupancyOf) {
  std::vector<VersionVerdict> verdicts;
  for (const KernelVersion &version : versions) {
    VersionVerdict verdict;
    verdict.version = version;
    for (const std::string &entry : version.entries) {
      auto found = resources.find(entry);
      if (found == resources.end())
        continue;
      KernelResources &worst = verdict.resources;
      worst.registers = std::max(worst.registers, found->second.registers);
      worst.spillStores =
          std::max(worst.spillStores, found->second.spillStores);
      worst.spillLoads = std::max(worst.spillLoads, found->second.spillLoads);
      worst.sharedBytes =
          std::max(worst.sharedBytes, found->second.sharedBytes);
    }
    verdict.resources.sharedBytes =
        std::max(verdict.resources.sharedBytes, version.sharedBytes);
    int64_t threads =
        std::max<int64_t>(1, blockThreads / threadFactor(version.description));
    verdict.threads = threads;
    verdict.occupancy =
        occupancyOf(threads, verdict.resources.registers,
                    verdict.resources.sharedBytes);
    verdicts.push_back(verdict);
  }
  for (VersionVerdict &verdict : verdicts) {
    // The kernel's reference: its uncoarsened version, else its first.
    const VersionVerdict *base = nullptr;
    for (const VersionVerdict &other : verdicts) {
      if (other.version.kernel != verdict.version.kernel)
        continue;
      if (!base || other.version.description == "block=1,thread=1")
        base = &other;
      if (other.version.description == "block=1,thread=1")
        break;
    }
    if (base == &verdict)
      continue;
    const KernelResources &mine = verdict.resources;
    const KernelResources &theirs = base->resources;
    if (mine.sharedBytes > sharedPerBlock) {
      verdict.kept = false;
      verdict.reason = "shared memory over the device's " +
                       std::to_string(sharedPerBlock) + " bytes per block";
    } else if (mine.spillStores + mine.spillLoads >
               theirs.spillStores + theirs.spillLoads) {
      verdict.kept = false;
      verdict.reason = "new spills";
    } else if (verdict.occupancy + 1e-9 <
               occupancyOf(verdict.threads, theirs.registers,
                           mine.sharedBytes)) {
      // The same blocks with the reference's register count would fit
      // more warps: the extra registers cost occupancy.
      verdict.kept = false;
      verdict.reason = "registers lower the occupancy";
    }
  }
  return verdicts;
}

} // namespace respec
