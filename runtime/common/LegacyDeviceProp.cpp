//===- LegacyDeviceProp.cpp - cudaDeviceProp in the CUDA 12 layout --------===//

#include "LegacyDeviceProp.h"

#include <cstring>

namespace respec {
namespace {

/// Field order and types of CUDA 12.x's cudaDeviceProp.
struct DevicePropCuda12 {
  char name[256];
  cudaUUID_t uuid;
  char luid[8];
  unsigned int luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int maxTexture1D;
  int maxTexture1DMipmap;
  int maxTexture1DLinear;
  int maxTexture2D[2];
  int maxTexture2DMipmap[2];
  int maxTexture2DLinear[3];
  int maxTexture2DGather[2];
  int maxTexture3D[3];
  int maxTexture3DAlt[3];
  int maxTextureCubemap;
  int maxTexture1DLayered[2];
  int maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2];
  int maxSurface1D;
  int maxSurface2D[2];
  int maxSurface3D[3];
  int maxSurface1DLayered[2];
  int maxSurface2DLayered[3];
  int maxSurfaceCubemap;
  int maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int tccDriver;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor;
  int streamPrioritiesSupported;
  int globalL1CacheSupported;
  int localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int isMultiGpuBoard;
  int multiGpuBoardGroupID;
  int hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio;
  int pageableMemoryAccess;
  int concurrentManagedAccess;
  int computePreemptionSupported;
  int canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables;
  int directManagedMemAccessFromHost;
  int maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported;
  int sparseCudaArraySupported;
  int hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported;
  int memoryPoolsSupported;
  int gpuDirectRDMASupported;
  unsigned int gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned int memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported;
  int ipcEventSupported;
  int clusterLaunch;
  int unifiedFunctionPointers;
  int reserved2[2];
  int reserved1[1];
  int reserved[60];
};

} // namespace

void fillLegacyDeviceProp(void *legacy, const cudaDeviceProp &p, int clockKHz,
                          int memoryClockKHz) {
  DevicePropCuda12 out;
  std::memset(&out, 0, sizeof(out));
#define RESPEC_COPY(FIELD) std::memcpy(&out.FIELD, &p.FIELD, sizeof(out.FIELD))
  RESPEC_COPY(name);
  RESPEC_COPY(uuid);
  RESPEC_COPY(totalGlobalMem);
  RESPEC_COPY(sharedMemPerBlock);
  RESPEC_COPY(regsPerBlock);
  RESPEC_COPY(warpSize);
  RESPEC_COPY(memPitch);
  RESPEC_COPY(maxThreadsPerBlock);
  RESPEC_COPY(maxThreadsDim);
  RESPEC_COPY(maxGridSize);
  RESPEC_COPY(totalConstMem);
  RESPEC_COPY(major);
  RESPEC_COPY(minor);
  RESPEC_COPY(textureAlignment);
  RESPEC_COPY(texturePitchAlignment);
  RESPEC_COPY(multiProcessorCount);
  RESPEC_COPY(integrated);
  RESPEC_COPY(canMapHostMemory);
  RESPEC_COPY(surfaceAlignment);
  RESPEC_COPY(concurrentKernels);
  RESPEC_COPY(asyncEngineCount);
  RESPEC_COPY(unifiedAddressing);
  RESPEC_COPY(memoryBusWidth);
  RESPEC_COPY(l2CacheSize);
  RESPEC_COPY(maxThreadsPerMultiProcessor);
  RESPEC_COPY(streamPrioritiesSupported);
  RESPEC_COPY(globalL1CacheSupported);
  RESPEC_COPY(localL1CacheSupported);
  RESPEC_COPY(sharedMemPerMultiprocessor);
  RESPEC_COPY(regsPerMultiprocessor);
  RESPEC_COPY(managedMemory);
  RESPEC_COPY(hostNativeAtomicSupported);
  RESPEC_COPY(pageableMemoryAccess);
  RESPEC_COPY(concurrentManagedAccess);
  RESPEC_COPY(computePreemptionSupported);
  RESPEC_COPY(canUseHostPointerForRegisteredMem);
  RESPEC_COPY(sharedMemPerBlockOptin);
  RESPEC_COPY(pageableMemoryAccessUsesHostPageTables);
  RESPEC_COPY(directManagedMemAccessFromHost);
  RESPEC_COPY(maxBlocksPerMultiProcessor);
  RESPEC_COPY(reservedSharedMemPerBlock);
  RESPEC_COPY(hostRegisterSupported);
  RESPEC_COPY(unifiedFunctionPointers);
#undef RESPEC_COPY
  out.clockRate = clockKHz;
  out.memoryClockRate = memoryClockKHz;
  out.deviceOverlap = 1;
  out.singleToDoublePrecisionPerfRatio = 2;
  std::memcpy(legacy, &out, sizeof(out));
}

} // namespace respec
