//===- LegacyDeviceProp.h - cudaDeviceProp in the CUDA 12 layout ----------===//
//
// CUDA 12 headers map cudaGetDeviceProperties to cudaGetDeviceProperties_v2
// and pass a cudaDeviceProp that still has the fields CUDA 13 removed
// (clockRate, deviceOverlap, computeMode, ...). Objects built against those
// headers get their properties in that layout.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_COMMON_LEGACYDEVICEPROP_H
#define RESPEC_RUNTIME_COMMON_LEGACYDEVICEPROP_H

#include <cuda_runtime_api.h>

namespace respec {

/// Writes `current` (CUDA 13 layout) into `legacy`, a CUDA 12 cudaDeviceProp;
/// the clocks fill the fields CUDA 13 removed.
void fillLegacyDeviceProp(void *legacy, const cudaDeviceProp &current,
                          int clockKHz, int memoryClockKHz);

} // namespace respec

#endif // RESPEC_RUNTIME_COMMON_LEGACYDEVICEPROP_H
