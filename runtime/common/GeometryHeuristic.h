//===- GeometryHeuristic.h - Launch geometry without tuning data ----------===//
//
// The device-descriptor x kernel-descriptor heuristic of Lloyd et al.
// ("Automated GPU grid geometry selection for OpenMP kernels"): classify a
// parallel loop by its trip count against what the device runs at once as
// short, ideal or long, and size the launch from the class. respec applies it
// to CUDA launches, whose block size is fixed by the program, so the knob it
// turns is block coarsening (one block doing the work of several): it picks
// the default factor when no tuning database entry exists.
//
// Terms, for a launch of gridBlocks blocks of blockThreads threads:
//   wave   = sms x residentBlocksPerSM(block): the blocks the device holds at
//            once (on a CPU: one block per core, so the core count);
//   target = the blocks a long launch should keep in flight: one wave on a
//            GPU, kCPUBlocksPerCore waves on a CPU.
//   Short  gridBlocks <  wave          (not even one full wave)
//   Ideal  wave <= gridBlocks < 2 x target
//   Long   gridBlocks >= 2 x target    (coarsening by 2 or more still leaves
//                                       `target` blocks in flight)
// Classifying by blocks is classifying by threads (gridBlocks x blockThreads
// against wave x blockThreads): the block size is common to both sides, and
// comparing blocks cannot overflow for the largest 3-D grids.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_GEOMETRYHEURISTIC_H
#define RESPEC_RUNTIME_COMMON_GEOMETRYHEURISTIC_H

#include "DeviceDescriptors.h"

#include <cstdint>
#include <vector>

namespace respec {
namespace tuning {

/// The kernel-descriptor half: one launch of an uncoarsened kernel.
/// registersPerThread 0 means unknown (registers are then not a limit).
struct LaunchShape {
  int64_t gridBlocks = 0;   ///< all blocks of the grid (x * y * z)
  int64_t blockThreads = 0; ///< threads of one block (x * y * z)
  int64_t registersPerThread = 0;
  int64_t sharedBytesPerBlock = 0; ///< static + dynamic
};

enum class LoopClass { Short, Ideal, Long };

/// "Short", "Ideal" or "Long".
const char *loopClassName(LoopClass loopClass);

/// On a CPU a long launch keeps this many blocks per core in flight. A block
/// is one unit of OpenMP work; with exactly one per core, one slow block (or
/// a core taken by another process) stretches the whole launch by up to a
/// block's time, while four per core bounds that tail to about a quarter of
/// a core's share and still leaves each block long enough that per-block
/// costs (shared-memory set-up, the barrier loop structure) stay amortized.
constexpr int64_t kCPUBlocksPerCore = 4;

/// sms x residentBlocksPerSM for this shape: blocks the device holds at once;
/// 0 when a block does not fit (or the device has no SMs).
int64_t deviceWaveBlocks(const DeviceDescriptor &device,
                         const LaunchShape &shape);

/// Short, Ideal or Long as defined above. A launch whose block does not fit
/// on the device at all (wave 0) or with no blocks is Short: there is
/// nothing to gain from re-sizing it.
LoopClass classifyLaunch(const DeviceDescriptor &device,
                         const LaunchShape &shape);

/// The number of blocks to keep in flight.
///  Short: gridBlocks. Lloyd et al. give a short loop one thread per block so
///   that its few iterations spread over as many SMs as possible. A CUDA
///   kernel's block size is part of its semantics (barriers, shared memory,
///   warp operations), so respec cannot shrink blocks; the equivalent here
///   is "no coarsening": every block stays a separate unit of work, so the
///   few blocks there are land on as many SMs (cores) as possible.
///  Ideal: gridBlocks: the launch already fills the device in a few waves;
///   coarsening would only add a tail.
///  Long: the target (one wave on a GPU, kCPUBlocksPerCore x cores on a CPU):
///   more blocks than the device holds at once only add per-block overhead
///   and scheduling, so the work is folded into that many.
int64_t idealBlocksInFlight(const DeviceDescriptor &device,
                            const LaunchShape &shape);

/// The block-coarsening factor: the largest of `availableFactors` (which
/// should contain 1; 1 is returned if no factor qualifies) not exceeding
/// gridBlocks / idealBlocksInFlight, so the coarsened grid still has at least
/// idealBlocksInFlight blocks. Short and Ideal launches get 1. The factor
/// need not divide gridBlocks (coarsened kernels run an epilogue for the
/// remainder blocks).
int64_t chooseBlockCoarsening(const DeviceDescriptor &device,
                              const LaunchShape &shape,
                              const std::vector<int64_t> &availableFactors);

} // namespace tuning
} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_GEOMETRYHEURISTIC_H
