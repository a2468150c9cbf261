//===- DeviceProperties.cpp - cudaDeviceProp from the driver's attributes -===//
//
// The runtime's cudaDeviceProp fields are copies of driver attributes (the
// attribute numbers are shared by cudaDeviceAttr and CUdevice_attribute), so
// the properties are filled from cuDeviceGetAttribute, plus the name and the
// memory size, which have calls of their own.
//
//===----------------------------------------------------------------------===//

#include "DeviceProperties.h"

#include "../common/Diagnostics.h"
#include "../common/LegacyDeviceProp.h"
#include "Context.h"

#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

using namespace respec;
using namespace respec::gpu;

namespace {

/// An int field of cudaDeviceProp and the attribute it copies.
struct IntField {
  cudaDeviceAttr attr;
  int cudaDeviceProp::*field;
};

/// A size_t field of cudaDeviceProp and the attribute it copies.
struct SizeField {
  cudaDeviceAttr attr;
  size_t cudaDeviceProp::*field;
};

constexpr IntField intFields[] = {
    {cudaDevAttrMaxRegistersPerBlock, &cudaDeviceProp::regsPerBlock},
    {cudaDevAttrWarpSize, &cudaDeviceProp::warpSize},
    {cudaDevAttrMaxThreadsPerBlock, &cudaDeviceProp::maxThreadsPerBlock},
    {cudaDevAttrComputeCapabilityMajor, &cudaDeviceProp::major},
    {cudaDevAttrComputeCapabilityMinor, &cudaDeviceProp::minor},
    {cudaDevAttrMultiProcessorCount, &cudaDeviceProp::multiProcessorCount},
    {cudaDevAttrIntegrated, &cudaDeviceProp::integrated},
    {cudaDevAttrCanMapHostMemory, &cudaDeviceProp::canMapHostMemory},
    {cudaDevAttrMaxTexture1DWidth, &cudaDeviceProp::maxTexture1D},
    {cudaDevAttrMaxTexture1DMipmappedWidth,
     &cudaDeviceProp::maxTexture1DMipmap},
    {cudaDevAttrMaxTextureCubemapWidth, &cudaDeviceProp::maxTextureCubemap},
    {cudaDevAttrMaxSurface1DWidth, &cudaDeviceProp::maxSurface1D},
    {cudaDevAttrMaxSurfaceCubemapWidth, &cudaDeviceProp::maxSurfaceCubemap},
    {cudaDevAttrConcurrentKernels, &cudaDeviceProp::concurrentKernels},
    {cudaDevAttrEccEnabled, &cudaDeviceProp::ECCEnabled},
    {cudaDevAttrPciBusId, &cudaDeviceProp::pciBusID},
    {cudaDevAttrPciDeviceId, &cudaDeviceProp::pciDeviceID},
    {cudaDevAttrPciDomainId, &cudaDeviceProp::pciDomainID},
    {cudaDevAttrTccDriver, &cudaDeviceProp::tccDriver},
    {cudaDevAttrAsyncEngineCount, &cudaDeviceProp::asyncEngineCount},
    {cudaDevAttrUnifiedAddressing, &cudaDeviceProp::unifiedAddressing},
    {cudaDevAttrGlobalMemoryBusWidth, &cudaDeviceProp::memoryBusWidth},
    {cudaDevAttrL2CacheSize, &cudaDeviceProp::l2CacheSize},
    {cudaDevAttrMaxPersistingL2CacheSize,
     &cudaDeviceProp::persistingL2CacheMaxSize},
    {cudaDevAttrMaxThreadsPerMultiProcessor,
     &cudaDeviceProp::maxThreadsPerMultiProcessor},
    {cudaDevAttrStreamPrioritiesSupported,
     &cudaDeviceProp::streamPrioritiesSupported},
    {cudaDevAttrGlobalL1CacheSupported,
     &cudaDeviceProp::globalL1CacheSupported},
    {cudaDevAttrLocalL1CacheSupported, &cudaDeviceProp::localL1CacheSupported},
    {cudaDevAttrMaxRegistersPerMultiprocessor,
     &cudaDeviceProp::regsPerMultiprocessor},
    {cudaDevAttrManagedMemory, &cudaDeviceProp::managedMemory},
    {cudaDevAttrIsMultiGpuBoard, &cudaDeviceProp::isMultiGpuBoard},
    {cudaDevAttrMultiGpuBoardGroupID, &cudaDeviceProp::multiGpuBoardGroupID},
    {cudaDevAttrHostNativeAtomicSupported,
     &cudaDeviceProp::hostNativeAtomicSupported},
    {cudaDevAttrPageableMemoryAccess, &cudaDeviceProp::pageableMemoryAccess},
    {cudaDevAttrConcurrentManagedAccess,
     &cudaDeviceProp::concurrentManagedAccess},
    {cudaDevAttrComputePreemptionSupported,
     &cudaDeviceProp::computePreemptionSupported},
    {cudaDevAttrCanUseHostPointerForRegisteredMem,
     &cudaDeviceProp::canUseHostPointerForRegisteredMem},
    {cudaDevAttrCooperativeLaunch, &cudaDeviceProp::cooperativeLaunch},
    {cudaDevAttrPageableMemoryAccessUsesHostPageTables,
     &cudaDeviceProp::pageableMemoryAccessUsesHostPageTables},
    {cudaDevAttrDirectManagedMemAccessFromHost,
     &cudaDeviceProp::directManagedMemAccessFromHost},
    {cudaDevAttrMaxBlocksPerMultiprocessor,
     &cudaDeviceProp::maxBlocksPerMultiProcessor},
    {cudaDevAttrMaxAccessPolicyWindowSize,
     &cudaDeviceProp::accessPolicyMaxWindowSize},
    {cudaDevAttrHostRegisterSupported, &cudaDeviceProp::hostRegisterSupported},
    {cudaDevAttrSparseCudaArraySupported,
     &cudaDeviceProp::sparseCudaArraySupported},
    {cudaDevAttrHostRegisterReadOnlySupported,
     &cudaDeviceProp::hostRegisterReadOnlySupported},
    {cudaDevAttrTimelineSemaphoreInteropSupported,
     &cudaDeviceProp::timelineSemaphoreInteropSupported},
    {cudaDevAttrMemoryPoolsSupported, &cudaDeviceProp::memoryPoolsSupported},
    {cudaDevAttrGPUDirectRDMASupported,
     &cudaDeviceProp::gpuDirectRDMASupported},
    {cudaDevAttrGPUDirectRDMAWritesOrdering,
     &cudaDeviceProp::gpuDirectRDMAWritesOrdering},
    {cudaDevAttrDeferredMappingCudaArraySupported,
     &cudaDeviceProp::deferredMappingCudaArraySupported},
    {cudaDevAttrIpcEventSupport, &cudaDeviceProp::ipcEventSupported},
    {cudaDevAttrClusterLaunch, &cudaDeviceProp::clusterLaunch},
    {cudaDevAttrNumaConfig, &cudaDeviceProp::deviceNumaConfig},
    {cudaDevAttrNumaId, &cudaDeviceProp::deviceNumaId},
    {cudaDevAttrMpsEnabled, &cudaDeviceProp::mpsEnabled},
    {cudaDevAttrHostNumaId, &cudaDeviceProp::hostNumaId},
    {cudaDevAttrHostNumaMultinodeIpcSupported,
     &cudaDeviceProp::hostNumaMultinodeIpcSupported},
};

constexpr SizeField sizeFields[] = {
    {cudaDevAttrMaxSharedMemoryPerBlock, &cudaDeviceProp::sharedMemPerBlock},
    {cudaDevAttrMaxPitch, &cudaDeviceProp::memPitch},
    {cudaDevAttrTotalConstantMemory, &cudaDeviceProp::totalConstMem},
    {cudaDevAttrTextureAlignment, &cudaDeviceProp::textureAlignment},
    {cudaDevAttrTexturePitchAlignment, &cudaDeviceProp::texturePitchAlignment},
    {cudaDevAttrSurfaceAlignment, &cudaDeviceProp::surfaceAlignment},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
     &cudaDeviceProp::sharedMemPerMultiprocessor},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin,
     &cudaDeviceProp::sharedMemPerBlockOptin},
    {cudaDevAttrReservedSharedMemoryPerBlock,
     &cudaDeviceProp::reservedSharedMemPerBlock},
};

/// Attributes that fill arrays: (attribute, field, index).
struct ArrayField {
  cudaDeviceAttr attr;
  int *(*element)(cudaDeviceProp &);
};

#define RESPEC_ELEMENT(FIELD, INDEX)                                           \
  [](cudaDeviceProp &p) -> int * { return &p.FIELD[INDEX]; }

const ArrayField arrayFields[] = {
    {cudaDevAttrMaxBlockDimX, RESPEC_ELEMENT(maxThreadsDim, 0)},
    {cudaDevAttrMaxBlockDimY, RESPEC_ELEMENT(maxThreadsDim, 1)},
    {cudaDevAttrMaxBlockDimZ, RESPEC_ELEMENT(maxThreadsDim, 2)},
    {cudaDevAttrMaxGridDimX, RESPEC_ELEMENT(maxGridSize, 0)},
    {cudaDevAttrMaxGridDimY, RESPEC_ELEMENT(maxGridSize, 1)},
    {cudaDevAttrMaxGridDimZ, RESPEC_ELEMENT(maxGridSize, 2)},
    {cudaDevAttrMaxTexture2DWidth, RESPEC_ELEMENT(maxTexture2D, 0)},
    {cudaDevAttrMaxTexture2DHeight, RESPEC_ELEMENT(maxTexture2D, 1)},
    {cudaDevAttrMaxTexture3DWidth, RESPEC_ELEMENT(maxTexture3D, 0)},
    {cudaDevAttrMaxTexture3DHeight, RESPEC_ELEMENT(maxTexture3D, 1)},
    {cudaDevAttrMaxTexture3DDepth, RESPEC_ELEMENT(maxTexture3D, 2)},
    {cudaDevAttrMaxSurface2DWidth, RESPEC_ELEMENT(maxSurface2D, 0)},
    {cudaDevAttrMaxSurface2DHeight, RESPEC_ELEMENT(maxSurface2D, 1)},
    {cudaDevAttrMaxSurface3DWidth, RESPEC_ELEMENT(maxSurface3D, 0)},
    {cudaDevAttrMaxSurface3DHeight, RESPEC_ELEMENT(maxSurface3D, 1)},
    {cudaDevAttrMaxSurface3DDepth, RESPEC_ELEMENT(maxSurface3D, 2)},
};

#undef RESPEC_ELEMENT

struct DeviceProperties {
  cudaDeviceProp prop;
  int clockKHz = 0;
  int memoryClockKHz = 0;
};

/// Queries every property of `device`; attributes an older driver does not
/// know stay zero rather than failing the whole query.
CUresult describeDevice(int device, DeviceProperties &out) {
  const DriverApi &api = driver();
  CUdevice handle = deviceHandle(device);
  cudaDeviceProp &prop = out.prop;
  std::memset(&prop, 0, sizeof(prop));
  CUresult status = api.deviceGetName(prop.name, sizeof(prop.name), handle);
  if (status != CUDA_SUCCESS)
    return status;
  status = api.deviceTotalMem(&prop.totalGlobalMem, handle);
  if (status != CUDA_SUCCESS)
    return status;
  int value = 0;
  for (const IntField &f : intFields)
    if (api.deviceGetAttribute(&value, f.attr, handle) == CUDA_SUCCESS)
      prop.*f.field = value;
  for (const SizeField &f : sizeFields)
    if (api.deviceGetAttribute(&value, f.attr, handle) == CUDA_SUCCESS)
      prop.*f.field = static_cast<size_t>(value);
  for (const ArrayField &f : arrayFields)
    if (api.deviceGetAttribute(&value, f.attr, handle) == CUDA_SUCCESS)
      *f.element(prop) = value;
  api.deviceGetAttribute(&out.clockKHz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, handle);
  api.deviceGetAttribute(&out.memoryClockKHz,
                         CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, handle);
  return CUDA_SUCCESS;
}

struct PropertyCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<DeviceProperties>> devices;
};

PropertyCache &cache() {
  static PropertyCache *instance = new PropertyCache;
  return *instance;
}

cudaError_t lookup(int device, const char *call,
                   const DeviceProperties **properties) {
  PropertyCache &c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (c.devices.size() < size_t(deviceCount()))
    c.devices.resize(deviceCount());
  std::unique_ptr<DeviceProperties> &slot = c.devices[device];
  if (!slot) {
    auto described = std::make_unique<DeviceProperties>();
    cudaError_t status = checkDriver(describeDevice(device, *described), call);
    if (status != cudaSuccess)
      return status;
    slot = std::move(described);
  }
  *properties = slot.get();
  return cudaSuccess;
}

/// Checks the driver and `device` for the device queries.
cudaError_t checkDevice(int device, const char *call) {
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, call, "device %d", device);
  return cudaSuccess;
}

} // namespace

namespace respec {
namespace gpu {

bool isValidDevice(int device) { return device >= 0 && device < deviceCount(); }

cudaError_t getDeviceProperties(int device, const char *call,
                                const cudaDeviceProp **properties) {
  const DeviceProperties *found = nullptr;
  cudaError_t status = lookup(device, call, &found);
  if (status == cudaSuccess)
    *properties = &found->prop;
  return status;
}

} // namespace gpu
} // namespace respec

extern "C" cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                               int device) {
  const char *call = "cudaGetDeviceProperties";
  if (!prop)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = checkDevice(device, call);
  const DeviceProperties *found = nullptr;
  if (status == cudaSuccess)
    status = lookup(device, call, &found);
  if (status == cudaSuccess)
    *prop = found->prop;
  return status;
}

/// CUDA 12 headers redirect cudaGetDeviceProperties here; their struct still
/// has the fields CUDA 13 removed, so it is filled in that older layout.
extern "C" cudaError_t cudaGetDeviceProperties_v2(void *prop, int device) {
  const char *call = "cudaGetDeviceProperties_v2";
  if (!prop)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = checkDevice(device, call);
  const DeviceProperties *found = nullptr;
  if (status == cudaSuccess)
    status = lookup(device, call, &found);
  if (status == cudaSuccess)
    fillLegacyDeviceProp(prop, found->prop, found->clockKHz,
                         found->memoryClockKHz);
  return status;
}

extern "C" cudaError_t
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  const char *call = "cudaDeviceGetAttribute";
  if (!value)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = checkDevice(device, call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(
      driver().deviceGetAttribute(value, attr, deviceHandle(device)), call);
}

extern "C" cudaError_t cudaChooseDevice(int *device,
                                        const struct cudaDeviceProp *prop) {
  const char *call = "cudaChooseDevice";
  if (!device || !prop)
    return reportError(cudaErrorInvalidValue, call);
  cudaError_t status = ensureDriver(call);
  if (status != cudaSuccess)
    return status;
  // CUDA picks the device closest to the requested compute capability; the
  // other fields are hints. Prefer an exact capability match, else the
  // highest capability not above the request, else device 0.
  int best = 0;
  int bestScore = -1;
  for (int i = 0; i < deviceCount(); ++i) {
    const DeviceProperties *found = nullptr;
    if (lookup(i, call, &found) != cudaSuccess)
      continue;
    int capability = found->prop.major * 10 + found->prop.minor;
    int wanted = prop->major * 10 + prop->minor;
    int score = capability == wanted  ? 1000
                : capability < wanted ? capability
                                      : 0;
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  *device = best;
  return cudaSuccess;
}
