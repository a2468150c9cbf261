//===- Device.cpp - Device management, attributes, limits, versions -------===//

#include "../common/Diagnostics.h"
#include "../common/LegacyDeviceProp.h"
#include "DeviceProperties.h"
#include "WorkQueue.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>

using namespace respec;
using namespace respec::cpu;

namespace {

/// Values of cudaDeviceSetLimit; none changes how the CPU device runs, but
/// programs read back what they set.
struct DeviceLimits {
  std::mutex mutex;
  size_t values[cudaLimitPersistingL2CacheSize + 1] = {
      /*stack*/ 1024,
      /*printf fifo*/ 1 << 20,
      /*malloc heap*/ 8 << 20,
      /*sync depth*/ 2,
      /*pending launches*/ 2048,
      /*L2 fetch granularity*/ 32,
      /*persisting L2*/ 0};
};

DeviceLimits &limits() {
  static DeviceLimits instance;
  return instance;
}

std::atomic<int> deviceCacheConfig{cudaFuncCachePreferNone};
std::atomic<unsigned> deviceFlags{cudaDeviceScheduleAuto};

/// The value of a device attribute that is not a copy of a cudaDeviceProp
/// field; false for attributes respec does not know.
bool otherAttribute(cudaDeviceAttr attr, int *value) {
  const cudaDeviceProp &p = deviceProperties();
  switch (attr) {
  case cudaDevAttrClockRate:
  case cudaDevAttrMemoryClockRate:
    *value = cpuClockKHz();
    return true;
  case cudaDevAttrGpuOverlap:
  case cudaDevAttrSingleToDoublePrecisionPerfRatio:
    *value = attr == cudaDevAttrGpuOverlap ? 1 : 2;
    return true;
  case cudaDevAttrKernelExecTimeout:
  case cudaDevAttrComputeMode:
  case cudaDevAttrEccEnabled:
  case cudaDevAttrTccDriver:
  case cudaDevAttrIsMultiGpuBoard:
  case cudaDevAttrMultiGpuBoardGroupID:
  case cudaDevAttrPciBusId:
  case cudaDevAttrPciDeviceId:
  case cudaDevAttrPciDomainId:
  case cudaDevAttrMaxPersistingL2CacheSize:
  case cudaDevAttrMaxAccessPolicyWindowSize:
  case cudaDevAttrCanFlushRemoteWrites:
  case cudaDevAttrMemoryPoolsSupported:
  case cudaDevAttrClusterLaunch:
  case cudaDevAttrMpsEnabled:
    *value = 0;
    return true;
  case cudaDevAttrCooperativeLaunch:
    *value = p.cooperativeLaunch;
    return true;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *value = static_cast<int>(p.sharedMemPerMultiprocessor);
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *value = static_cast<int>(p.sharedMemPerBlockOptin);
    return true;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    *value = static_cast<int>(p.reservedSharedMemPerBlock);
    return true;
  case cudaDevAttrNumaId:
  case cudaDevAttrHostNumaId:
    *value = -1;
    return true;
  default:
    return false;
  }
}

/// Attributes that mirror a cudaDeviceProp field.
bool propertyAttribute(cudaDeviceAttr attr, int *value) {
  const cudaDeviceProp &p = deviceProperties();
  switch (attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    *value = p.maxThreadsPerBlock;
    return true;
  case cudaDevAttrMaxBlockDimX:
    *value = p.maxThreadsDim[0];
    return true;
  case cudaDevAttrMaxBlockDimY:
    *value = p.maxThreadsDim[1];
    return true;
  case cudaDevAttrMaxBlockDimZ:
    *value = p.maxThreadsDim[2];
    return true;
  case cudaDevAttrMaxGridDimX:
    *value = p.maxGridSize[0];
    return true;
  case cudaDevAttrMaxGridDimY:
    *value = p.maxGridSize[1];
    return true;
  case cudaDevAttrMaxGridDimZ:
    *value = p.maxGridSize[2];
    return true;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *value = static_cast<int>(p.sharedMemPerBlock);
    return true;
  case cudaDevAttrTotalConstantMemory:
    *value = static_cast<int>(p.totalConstMem);
    return true;
  case cudaDevAttrWarpSize:
    *value = p.warpSize;
    return true;
  case cudaDevAttrMaxPitch:
    *value = static_cast<int>(p.memPitch);
    return true;
  case cudaDevAttrMaxRegistersPerBlock:
    *value = p.regsPerBlock;
    return true;
  case cudaDevAttrTextureAlignment:
    *value = static_cast<int>(p.textureAlignment);
    return true;
  case cudaDevAttrTexturePitchAlignment:
    *value = static_cast<int>(p.texturePitchAlignment);
    return true;
  case cudaDevAttrSurfaceAlignment:
    *value = static_cast<int>(p.surfaceAlignment);
    return true;
  case cudaDevAttrMaxTexture1DWidth:
    *value = p.maxTexture1D;
    return true;
  case cudaDevAttrMaxTexture2DWidth:
    *value = p.maxTexture2D[0];
    return true;
  case cudaDevAttrMaxTexture2DHeight:
    *value = p.maxTexture2D[1];
    return true;
  case cudaDevAttrMaxTexture2DLinearWidth:
    *value = p.maxTexture2DLinear[0];
    return true;
  case cudaDevAttrMaxTexture2DLinearHeight:
    *value = p.maxTexture2DLinear[1];
    return true;
  case cudaDevAttrMaxTexture2DLinearPitch:
    *value = p.maxTexture2DLinear[2];
    return true;
  case cudaDevAttrMaxTexture3DWidth:
    *value = p.maxTexture3D[0];
    return true;
  case cudaDevAttrMaxTexture3DHeight:
    *value = p.maxTexture3D[1];
    return true;
  case cudaDevAttrMaxTexture3DDepth:
    *value = p.maxTexture3D[2];
    return true;
  case cudaDevAttrMaxTexture1DLayeredWidth:
    *value = p.maxTexture1DLayered[0];
    return true;
  case cudaDevAttrMaxTexture1DLayeredLayers:
    *value = p.maxTexture1DLayered[1];
    return true;
  case cudaDevAttrMaxTexture2DLayeredWidth:
    *value = p.maxTexture2DLayered[0];
    return true;
  case cudaDevAttrMaxTexture2DLayeredHeight:
    *value = p.maxTexture2DLayered[1];
    return true;
  case cudaDevAttrMaxTexture2DLayeredLayers:
    *value = p.maxTexture2DLayered[2];
    return true;
  case cudaDevAttrMaxSurface1DWidth:
    *value = p.maxSurface1D;
    return true;
  case cudaDevAttrMaxSurface2DWidth:
    *value = p.maxSurface2D[0];
    return true;
  case cudaDevAttrMaxSurface2DHeight:
    *value = p.maxSurface2D[1];
    return true;
  case cudaDevAttrMaxSurface3DWidth:
    *value = p.maxSurface3D[0];
    return true;
  case cudaDevAttrMaxSurface3DHeight:
    *value = p.maxSurface3D[1];
    return true;
  case cudaDevAttrMaxSurface3DDepth:
    *value = p.maxSurface3D[2];
    return true;
  case cudaDevAttrMaxSurface1DLayeredWidth:
    *value = p.maxSurface1DLayered[0];
    return true;
  case cudaDevAttrMaxSurface1DLayeredLayers:
    *value = p.maxSurface1DLayered[1];
    return true;
  case cudaDevAttrMaxSurface2DLayeredWidth:
    *value = p.maxSurface2DLayered[0];
    return true;
  case cudaDevAttrMaxSurface2DLayeredHeight:
    *value = p.maxSurface2DLayered[1];
    return true;
  case cudaDevAttrMaxSurface2DLayeredLayers:
    *value = p.maxSurface2DLayered[2];
    return true;
  case cudaDevAttrMultiProcessorCount:
    *value = p.multiProcessorCount;
    return true;
  case cudaDevAttrIntegrated:
    *value = p.integrated;
    return true;
  case cudaDevAttrCanMapHostMemory:
    *value = p.canMapHostMemory;
    return true;
  case cudaDevAttrConcurrentKernels:
    *value = p.concurrentKernels;
    return true;
  case cudaDevAttrGlobalMemoryBusWidth:
    *value = p.memoryBusWidth;
    return true;
  case cudaDevAttrL2CacheSize:
    *value = p.l2CacheSize;
    return true;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *value = p.maxThreadsPerMultiProcessor;
    return true;
  case cudaDevAttrAsyncEngineCount:
    *value = p.asyncEngineCount;
    return true;
  case cudaDevAttrUnifiedAddressing:
    *value = p.unifiedAddressing;
    return true;
  case cudaDevAttrComputeCapabilityMajor:
    *value = p.major;
    return true;
  case cudaDevAttrComputeCapabilityMinor:
    *value = p.minor;
    return true;
  case cudaDevAttrStreamPrioritiesSupported:
    *value = p.streamPrioritiesSupported;
    return true;
  case cudaDevAttrGlobalL1CacheSupported:
    *value = p.globalL1CacheSupported;
    return true;
  case cudaDevAttrLocalL1CacheSupported:
    *value = p.localL1CacheSupported;
    return true;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *value = p.regsPerMultiprocessor;
    return true;
  case cudaDevAttrManagedMemory:
    *value = p.managedMemory;
    return true;
  case cudaDevAttrHostNativeAtomicSupported:
    *value = p.hostNativeAtomicSupported;
    return true;
  case cudaDevAttrPageableMemoryAccess:
    *value = p.pageableMemoryAccess;
    return true;
  case cudaDevAttrConcurrentManagedAccess:
    *value = p.concurrentManagedAccess;
    return true;
  case cudaDevAttrComputePreemptionSupported:
    *value = p.computePreemptionSupported;
    return true;
  case cudaDevAttrCanUseHostPointerForRegisteredMem:
    *value = p.canUseHostPointerForRegisteredMem;
    return true;
  case cudaDevAttrHostRegisterSupported:
    *value = p.hostRegisterSupported;
    return true;
  case cudaDevAttrPageableMemoryAccessUsesHostPageTables:
    *value = p.pageableMemoryAccessUsesHostPageTables;
    return true;
  case cudaDevAttrDirectManagedMemAccessFromHost:
    *value = p.directManagedMemAccessFromHost;
    return true;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *value = p.maxBlocksPerMultiProcessor;
    return true;
  default:
    return false;
  }
}

} // namespace

extern "C" cudaError_t cudaGetDeviceCount(int *count) {
  if (!count)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceCount");
  *count = 1;
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDevice(int device) {
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaSetDevice",
                       "device %d (respec has one CPU device, 0)", device);
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDevice(int *device) {
  if (!device)
    return reportError(cudaErrorInvalidValue, "cudaGetDevice");
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaChooseDevice(int *device,
                                        const struct cudaDeviceProp *prop) {
  if (!device || !prop)
    return reportError(cudaErrorInvalidValue, "cudaChooseDevice");
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  if (flags & ~unsigned(cudaDeviceMask))
    return reportError(cudaErrorInvalidValue, "cudaSetDeviceFlags");
  deviceFlags = flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceFlags(unsigned int *flags) {
  if (!flags)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceFlags");
  *flags = deviceFlags | cudaDeviceMapHost;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop,
                                               int device) {
  if (!prop)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceProperties");
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaGetDeviceProperties");
  *prop = deviceProperties();
  return cudaSuccess;
}

/// CUDA 12 headers redirect cudaGetDeviceProperties here; their struct still
/// has the fields CUDA 13 removed, so it is filled in that older layout.
extern "C" cudaError_t cudaGetDeviceProperties_v2(void *prop, int device) {
  if (!prop)
    return reportError(cudaErrorInvalidValue, "cudaGetDeviceProperties_v2");
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaGetDeviceProperties_v2");
  fillLegacyDeviceProp(prop, deviceProperties(), cpuClockKHz(), cpuClockKHz());
  return cudaSuccess;
}

extern "C" cudaError_t
cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
  if (!value)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetAttribute");
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaDeviceGetAttribute");
  if (propertyAttribute(attr, value) || otherAttribute(attr, value))
    return cudaSuccess;
  return reportError(cudaErrorInvalidValue, "cudaDeviceGetAttribute",
                     "attribute %d is not supported by respec",
                     static_cast<int>(attr));
}

extern "C" cudaError_t cudaDeviceReset(void) {
  // Allocations stay valid: the CPU device has no context to tear down.
  waitForAllWork();
  takeLastError(/*clear=*/true);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return reportError(cudaErrorUnsupportedLimit, "cudaDeviceSetLimit");
  std::lock_guard<std::mutex> lock(limits().mutex);
  limits().values[limit] = value;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetLimit(size_t *pValue,
                                          enum cudaLimit limit) {
  if (!pValue)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetLimit");
  if (limit < cudaLimitStackSize || limit > cudaLimitPersistingL2CacheSize)
    return reportError(cudaErrorUnsupportedLimit, "cudaDeviceGetLimit");
  std::lock_guard<std::mutex> lock(limits().mutex);
  *pValue = limits().values[limit];
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config) {
  if (!config)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetCacheConfig");
  *config = static_cast<cudaFuncCache>(deviceCacheConfig.load());
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config) {
  if (config < cudaFuncCachePreferNone || config > cudaFuncCachePreferEqual)
    return reportError(cudaErrorInvalidValue, "cudaDeviceSetCacheConfig");
  deviceCacheConfig = config;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion)
    return reportError(cudaErrorInvalidValue, "cudaDriverGetVersion");
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Peers and bus identity. respec has one device, which is not a peer of
// itself: peer queries answer as CUDA does on a machine with one GPU.
//===----------------------------------------------------------------------===//

namespace {

/// The PCI address respec reports for its CPU device.
constexpr char kPciBusId[] = "0000:00:00.0";

} // namespace

extern "C" cudaError_t cudaInitDevice(int device, unsigned int deviceFlags,
                                      unsigned int flags) {
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaInitDevice",
                       "device %d (respec has one CPU device, 0)", device);
  if (flags != 0)
    return reportError(cudaErrorInvalidValue, "cudaInitDevice");
  return deviceFlags ? cudaSetDeviceFlags(deviceFlags) : cudaSuccess;
}

extern "C" cudaError_t cudaSetValidDevices(int *deviceArr, int len) {
  if (len < 0 || (len > 0 && !deviceArr))
    return reportError(cudaErrorInvalidValue, "cudaSetValidDevices");
  for (int i = 0; i < len; ++i)
    if (!isValidDevice(deviceArr[i]))
      return reportError(cudaErrorInvalidDevice, "cudaSetValidDevices",
                         "device %d (respec has one CPU device, 0)",
                         deviceArr[i]);
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len,
                                             int device) {
  if (!isValidDevice(device))
    return reportError(cudaErrorInvalidDevice, "cudaDeviceGetPCIBusId");
  if (!pciBusId || len < int(sizeof(kPciBusId)))
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetPCIBusId",
                       "the buffer needs %zu bytes", sizeof(kPciBusId));
  std::memcpy(pciBusId, kPciBusId, sizeof(kPciBusId));
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetByPCIBusId(int *device,
                                               const char *pciBusId) {
  if (!device || !pciBusId)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetByPCIBusId");
  // [domain]:[bus]:[device].[function] in hexadecimal, the domain optional.
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  char extra;
  bool parsed =
      std::sscanf(pciBusId, "%x:%x:%x.%x%c", &domain, &bus, &slot, &function,
                  &extra) == 4 ||
      std::sscanf(pciBusId, "%x:%x.%x%c", &bus, &slot, &function, &extra) == 3;
  if (!parsed || domain || bus || slot || function)
    return reportError(cudaErrorInvalidDevice, "cudaDeviceGetByPCIBusId",
                       "no device at '%s' (respec's device is at %s)", pciBusId,
                       kPciBusId);
  *device = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device,
                                               int peerDevice) {
  if (!canAccessPeer)
    return reportError(cudaErrorInvalidValue, "cudaDeviceCanAccessPeer");
  if (!isValidDevice(device) || !isValidDevice(peerDevice))
    return reportError(cudaErrorInvalidDevice, "cudaDeviceCanAccessPeer",
                       "respec has one CPU device, 0");
  *canAccessPeer = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceEnablePeerAccess(int peerDevice,
                                                  unsigned int flags) {
  if (flags != 0)
    return reportError(cudaErrorInvalidValue, "cudaDeviceEnablePeerAccess");
  return reportError(cudaErrorInvalidDevice, "cudaDeviceEnablePeerAccess",
                     "device %d is not a peer of the current device "
                     "(respec has one CPU device, 0)",
                     peerDevice);
}

extern "C" cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  if (!isValidDevice(peerDevice) || peerDevice == 0)
    return reportError(cudaErrorInvalidDevice, "cudaDeviceDisablePeerAccess",
                       "device %d is not a peer of the current device "
                       "(respec has one CPU device, 0)",
                       peerDevice);
  return reportError(cudaErrorPeerAccessNotEnabled,
                     "cudaDeviceDisablePeerAccess");
}

extern "C" cudaError_t cudaDeviceGetP2PAttribute(int *value,
                                                 enum cudaDeviceP2PAttr,
                                                 int srcDevice, int dstDevice) {
  if (!value)
    return reportError(cudaErrorInvalidValue, "cudaDeviceGetP2PAttribute");
  // Peer attributes describe two distinct devices.
  return reportError(cudaErrorInvalidDevice, "cudaDeviceGetP2PAttribute",
                     "devices %d and %d (respec has one CPU device, 0)",
                     srcDevice, dstDevice);
}

extern "C" cudaError_t cudaCtxResetPersistingL2Cache(void) {
  // No cache lines are set aside (access policy windows are hints respec
  // records but does not act on), so there is nothing to reset.
  return cudaSuccess;
}
