//===- DeviceProperties.h - The CPU described as a CUDA device ------------===//

#ifndef RESPEC_RUNTIME_CPU_DEVICEPROPERTIES_H
#define RESPEC_RUNTIME_CPU_DEVICEPROPERTIES_H

#include <cuda_runtime_api.h>

namespace respec {
namespace cpu {

/// Per-block shared memory available without and with opting in
/// (cudaFuncAttributeMaxDynamicSharedMemorySize), as on an sm_80 GPU (the
/// device's compute capability): 164 KiB per multiprocessor less the 1 KiB
/// CUDA reserves per block. Before 0.28.0 the opt-in limit was sm_86's
/// 99 KiB, and kernels written for A100s and H100s that ask for more were
/// refused.
constexpr size_t sharedMemPerBlockDefault = 49152;
constexpr size_t sharedMemPerBlockOptin = 166912;

/// The one device's properties, computed once from the machine.
const cudaDeviceProp &deviceProperties();

/// CPU clock in kHz (cudaDevAttrClockRate).
int cpuClockKHz();

/// True for the ordinal of the one device (0).
inline bool isValidDevice(int device) { return device == 0; }

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_DEVICEPROPERTIES_H
