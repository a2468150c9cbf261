//===- DeviceProperties.h - cudaDeviceProp of the GPUs --------------------===//

#ifndef RESPEC_RUNTIME_CUDA_DEVICEPROPERTIES_H
#define RESPEC_RUNTIME_CUDA_DEVICEPROPERTIES_H

#include <cuda_runtime_api.h>

namespace respec {
namespace gpu {

/// The properties of device `device` (queried once from the driver), or an
/// error naming `call`. The driver must be initialized.
cudaError_t getDeviceProperties(int device, const char *call,
                                const cudaDeviceProp **properties);

/// Whether `device` is a valid device ordinal (the driver is initialized).
bool isValidDevice(int device);

} // namespace gpu
} // namespace respec

#endif // RESPEC_RUNTIME_CUDA_DEVICEPROPERTIES_H
