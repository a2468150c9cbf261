//===- GeometryHeuristic.cpp - Short/ideal/long launches, coarsening ------===//

#include "GeometryHeuristic.h"

#include <limits>

namespace respec {
namespace tuning {
namespace {

/// The blocks a long launch keeps in flight. A GPU's hardware scheduler hands
/// out blocks as SMs free up, so one full wave keeps it busy; more resident
/// blocks than that cannot exist. A CPU runs blocks as OpenMP work items and
/// wants several per core for load balance (kCPUBlocksPerCore).
int64_t targetBlocksInFlight(const DeviceDescriptor &device, int64_t wave) {
  if (!device.isCPU())
    return wave;
  if (wave > std::numeric_limits<int64_t>::max() / kCPUBlocksPerCore)
    return wave;
  return wave * kCPUBlocksPerCore;
}

} // namespace

const char *loopClassName(LoopClass loopClass) {
  switch (loopClass) {
  case LoopClass::Short:
    return "Short";
  case LoopClass::Ideal:
    return "Ideal";
  case LoopClass::Long:
    return "Long";
  }
  return "?";
}

int64_t deviceWaveBlocks(const DeviceDescriptor &device,
                         const LaunchShape &shape) {
  if (device.sms <= 0)
    return 0;
  int64_t perSM = residentBlocksPerSM(device, shape.blockThreads,
                                      shape.registersPerThread,
                                      shape.sharedBytesPerBlock);
  return device.sms * perSM; // both are small: no overflow
}

LoopClass classifyLaunch(const DeviceDescriptor &device,
                         const LaunchShape &shape) {
  int64_t wave = deviceWaveBlocks(device, shape);
  if (wave == 0 || shape.gridBlocks < wave)
    return LoopClass::Short;
  int64_t target = targetBlocksInFlight(device, wave);
  // Long from the point where halving the grid still leaves `target` blocks:
  // below it the only factor the heuristic could choose is 1 anyway.
  if (shape.gridBlocks / 2 < target)
    return LoopClass::Ideal;
  return LoopClass::Long;
}

int64_t idealBlocksInFlight(const DeviceDescriptor &device,
                            const LaunchShape &shape) {
  if (classifyLaunch(device, shape) != LoopClass::Long)
    return shape.gridBlocks > 0 ? shape.gridBlocks : 0;
  return targetBlocksInFlight(device, deviceWaveBlocks(device, shape));
}

int64_t chooseBlockCoarsening(const DeviceDescriptor &device,
                              const LaunchShape &shape,
                              const std::vector<int64_t> &availableFactors) {
  if (classifyLaunch(device, shape) != LoopClass::Long)
    return 1;
  int64_t inFlight = idealBlocksInFlight(device, shape);
  if (inFlight <= 0)
    return 1;
  // The largest factor that still leaves inFlight blocks: closest to the
  // ratio from below. Exceeding it would leave SMs (cores) idle, which costs
  // more than the per-block overhead coarsening saves.
  int64_t limit = shape.gridBlocks / inFlight;
  int64_t best = 1;
  for (int64_t factor : availableFactors)
    if (factor > best && factor <= limit)
      best = factor;
  return best;
}

} // namespace tuning
} // namespace respec
