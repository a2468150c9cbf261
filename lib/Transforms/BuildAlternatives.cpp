//===- BuildAlternatives.cpp - Coarsened versions of each launch ----------===//
//
// Which coarsening is fastest depends on the device and on the launch
// geometry, neither of which the compiler knows. So a launch may carry
// several versions in a `respec.alternatives` op: the CPU back end chooses
// among them at run time (timing them when profiling), and a later build
// keeps only the winners a tuning database names.
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Coarsening.h"
#include "respec/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::respec {
#define GEN_PASS_DEF_BUILDALTERNATIVESPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {

struct Candidate {
  CoarseningRequest request;
  std::string description;
};

/// Parses `a;b;c` (or a single request) into candidates.
LogicalResult parseCandidates(ArrayRef<std::string> texts,
                              SmallVectorImpl<Candidate> &out,
                              std::string &error) {
  for (StringRef text : texts) {
    SmallVector<StringRef> parts;
    text.split(parts, ';', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef part : parts) {
      std::optional<CoarseningRequest> request =
          parseCoarseningRequest(part, error);
      if (!request)
        return failure();
      out.push_back({*request, formatCoarseningRequest(*request)});
    }
  }
  return success();
}

struct BuildAlternativesPass
    : public respec::impl::BuildAlternativesPassBase<BuildAlternativesPass> {
  using BuildAlternativesPassBase::BuildAlternativesPassBase;

  void runOnOperation() override {
    std::string error;
    SmallVector<Candidate> defaults;
    if (failed(parseCandidates(candidates, defaults, error)))
      return fail(error);
    llvm::StringMap<SmallVector<Candidate>> perKernel;
    for (StringRef entry : kernelCandidates) {
      auto [name, list] = entry.split('=');
      SmallVector<Candidate> parsed;
      if (name.empty() ||
          failed(parseCandidates({list.str()}, parsed, error)))
        return fail(error.empty() ? "invalid kernel-candidates entry '" +
                                        entry.str() + "'"
                                  : error);
      perKernel[name] = parsed;
    }
    llvm::StringMap<SmallVector<NamedAttribute>> tables;
    for (StringRef entry : kernelGeometry) {
      auto [name, rest] = entry.split('=');
      auto [geometry, indexText] = rest.rsplit(':');
      int64_t index;
      if (name.empty() || geometry.empty() ||
          indexText.getAsInteger(10, index))
        return fail("invalid kernel-geometry entry '" + entry.str() + "'");
      // The option spells the geometry with '/' (commas separate list
      // options on the command line); the table uses commas.
      std::string key = geometry.str();
      std::replace(key.begin(), key.end(), '/', ',');
      tables[name].push_back(NamedAttribute(
          StringAttr::get(&getContext(), key),
          IntegerAttr::get(IntegerType::get(&getContext(), 64), index)));
    }

    getOperation().walk([&](LLVM::LLVMFuncOp launch) {
      auto name = launch->getAttrOfType<StringAttr>(kKernelNameAttr);
      // Coarsened versions would merge blocks of a grid that synchronizes.
      if (!name || launch->hasAttr(kSyncsGridAttr))
        return;
      auto found = perKernel.find(name.getValue());
      ArrayRef<Candidate> versions =
          found != perKernel.end() ? ArrayRef(found->second) : defaults;
      if (versions.empty())
        return;
      DictionaryAttr table;
      auto entries = tables.find(name.getValue());
      if (entries != tables.end())
        table = DictionaryAttr::get(&getContext(), entries->second);
      if (failed(buildAlternatives(launch, name.getValue(), versions, table)))
        signalPassFailure();
    });
  }

  void fail(const std::string &message) {
    getOperation().emitError() << message;
    signalPassFailure();
  }

  LogicalResult buildAlternatives(LLVM::LLVMFuncOp launch, StringRef kernel,
                                  ArrayRef<Candidate> versions,
                                  DictionaryAttr table) {
    scf::ParallelOp grid = findGridLoop(launch);
    if (!grid)
      return success();
    OpBuilder b(grid);
    SmallVector<std::unique_ptr<Region>> regions;
    SmallVector<Attribute> descriptions;
    bool haveUncoarsened = false;
    for (const Candidate &candidate : versions) {
      // Each version is built in place, just before the grid loop (so that
      // diagnostics and analyses see it in its function), then moved into
      // a region of its own: everything between `previous` and the grid.
      Operation *previous = grid->getPrevNode();
      b.setInsertionPoint(grid);
      auto copy = cast<scf::ParallelOp>(b.clone(*grid));
      FailureOr<bool> changed = coarsenGridLoop(
          copy, kernel, candidate.request, ThreadMapping::Strided);
      if (failed(changed))
        return failure();
      Block *parent = grid->getBlock();
      Block::iterator first =
          previous ? std::next(previous->getIterator()) : parent->begin();
      // A candidate that could not be applied is the uncoarsened version:
      // one copy of that is enough.
      bool duplicate = !*changed && haveUncoarsened;
      haveUncoarsened |= !*changed;
      if (duplicate) {
        while (&*first != grid.getOperation()) {
          Operation *op = &*first++;
          op->dropAllUses();
          op->erase();
        }
        continue;
      }
      auto region = std::make_unique<Region>();
      Block *block = new Block();
      region->push_back(block);
      block->getOperations().splice(block->end(), parent->getOperations(),
                                    first, grid->getIterator());
      regions.push_back(std::move(region));
      descriptions.push_back(b.getStringAttr(
          *changed ? candidate.description : "block=1,thread=1"));
    }
    b.setInsertionPoint(grid);
    if (regions.size() == 1) {
      Block &only = regions.front()->front();
      grid->getBlock()->getOperations().splice(grid->getIterator(),
                                               only.getOperations());
      grid.erase();
      return success();
    }
    OperationState state(grid.getLoc(), AlternativesOp::getOperationName());
    state.addAttribute("kernel", b.getStringAttr(kernel));
    state.addAttribute("descriptions", b.getArrayAttr(descriptions));
    if (table)
      state.addAttribute("geometry_table", table);
    for (std::unique_ptr<Region> &region : regions)
      state.addRegion(std::move(region));
    b.create(state);
    grid.erase();
    return success();
  }
};

} // namespace
