//===- ScheduleGridLoops.cpp - OpenMP schedule of each grid loop ----------===//
//
// The grid loops, now OpenMP worksharing loops over the blocks, get a
// dynamic schedule in launch functions whose blocks may do different
// amounts of work (marked by respec-find-unbalanced-grids), a static one
// elsewhere; or the schedule the user asked for (--grid-schedule).
//
//===----------------------------------------------------------------------===//

#include "respec/Transforms/Attributes.h"
#include "respec/Transforms/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::respec {
#define GEN_PASS_DEF_SCHEDULEGRIDLOOPSPASS
#include "respec/Transforms/Passes.h.inc"
} // namespace mlir::respec

using namespace mlir;
using namespace mlir::respec;

namespace {
struct ScheduleGridLoopsPass
    : public respec::impl::ScheduleGridLoopsPassBase<ScheduleGridLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<omp::ClauseScheduleKind> forced =
        llvm::StringSwitch<std::optional<omp::ClauseScheduleKind>>(schedule)
            .Case("static", omp::ClauseScheduleKind::Static)
            .Case("dynamic", omp::ClauseScheduleKind::Dynamic)
            .Case("guided", omp::ClauseScheduleKind::Guided)
            .Default(std::nullopt);
    if (!forced && schedule != "auto") {
      getOperation().emitError("unknown grid schedule '")
          << schedule << "' (expected auto, static, dynamic or guided)";
      return signalPassFailure();
    }
    getOperation().walk([&](omp::WsloopOp wsloop) {
      auto func = wsloop->getParentOfType<FunctionOpInterface>();
      bool unbalanced = func && func->hasAttr(kUnbalancedBlocksAttr);
      wsloop.setScheduleKind(forced       ? *forced
                             : unbalanced ? omp::ClauseScheduleKind::Dynamic
                                          : omp::ClauseScheduleKind::Static);
    });
  }
};
} // namespace
