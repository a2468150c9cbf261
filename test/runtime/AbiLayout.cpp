//===- AbiLayout.cpp - Prints the CUDA ABI facts respec must match --------===//
//
// Built twice, against the CUDA toolkit's headers and against respec's; the
// two outputs must be identical (AbiLayoutCompare.cmake).
//
//===----------------------------------------------------------------------===//

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdio>

#define SIZE(T) std::printf("sizeof(%s) = %zu\n", #T, sizeof(T))
#define FIELD(T, F)                                                            \
  std::printf("offsetof(%s, %s) = %zu\n", #T, #F, offsetof(T, F))
#define VALUE(E) std::printf("%s = %lld\n", #E, (long long)(E))

static void printDeviceProp() {
  SIZE(cudaDeviceProp);
  FIELD(cudaDeviceProp, name);
  FIELD(cudaDeviceProp, uuid);
  FIELD(cudaDeviceProp, totalGlobalMem);
  FIELD(cudaDeviceProp, sharedMemPerBlock);
  FIELD(cudaDeviceProp, regsPerBlock);
  FIELD(cudaDeviceProp, warpSize);
  FIELD(cudaDeviceProp, maxThreadsPerBlock);
  FIELD(cudaDeviceProp, maxThreadsDim);
  FIELD(cudaDeviceProp, maxGridSize);
  FIELD(cudaDeviceProp, totalConstMem);
  FIELD(cudaDeviceProp, major);
  FIELD(cudaDeviceProp, minor);
  FIELD(cudaDeviceProp, multiProcessorCount);
  FIELD(cudaDeviceProp, canMapHostMemory);
  FIELD(cudaDeviceProp, maxSurfaceCubemapLayered);
  FIELD(cudaDeviceProp, concurrentKernels);
  FIELD(cudaDeviceProp, unifiedAddressing);
  FIELD(cudaDeviceProp, l2CacheSize);
  FIELD(cudaDeviceProp, maxThreadsPerMultiProcessor);
  FIELD(cudaDeviceProp, sharedMemPerMultiprocessor);
  FIELD(cudaDeviceProp, managedMemory);
  FIELD(cudaDeviceProp, cooperativeLaunch);
  FIELD(cudaDeviceProp, sharedMemPerBlockOptin);
  FIELD(cudaDeviceProp, maxBlocksPerMultiProcessor);
  FIELD(cudaDeviceProp, reservedSharedMemPerBlock);
  FIELD(cudaDeviceProp, gpuDirectRDMAFlushWritesOptions);
  FIELD(cudaDeviceProp, unifiedFunctionPointers);
  FIELD(cudaDeviceProp, hostNumaMultinodeIpcSupported);
  FIELD(cudaDeviceProp, reserved);
}

static void printMemoryStructs() {
  SIZE(cudaPitchedPtr);
  FIELD(cudaPitchedPtr, pitch);
  FIELD(cudaPitchedPtr, ysize);
  SIZE(cudaExtent);
  FIELD(cudaExtent, depth);
  SIZE(cudaPos);
  SIZE(cudaMemcpy3DParms);
  FIELD(cudaMemcpy3DParms, srcPos);
  FIELD(cudaMemcpy3DParms, srcPtr);
  FIELD(cudaMemcpy3DParms, dstArray);
  FIELD(cudaMemcpy3DParms, dstPtr);
  FIELD(cudaMemcpy3DParms, extent);
  FIELD(cudaMemcpy3DParms, kind);
  SIZE(cudaPointerAttributes);
  FIELD(cudaPointerAttributes, device);
  FIELD(cudaPointerAttributes, devicePointer);
  FIELD(cudaPointerAttributes, hostPointer);
  SIZE(cudaFuncAttributes);
  FIELD(cudaFuncAttributes, maxThreadsPerBlock);
  FIELD(cudaFuncAttributes, maxDynamicSharedSizeBytes);
  FIELD(cudaFuncAttributes, nonPortableClusterSizeAllowed);
  SIZE(cudaMemLocation);
  SIZE(dim3);
  SIZE(uint3);
  SIZE(float4);
  std::printf("alignof(float4) = %zu\n", alignof(float4));
  std::printf("alignof(double2) = %zu\n", alignof(double2));
  std::printf("alignof(int2) = %zu\n", alignof(int2));
  std::printf("alignof(short4) = %zu\n", alignof(short4));
  std::printf("alignof(char4) = %zu\n", alignof(char4));
  SIZE(float3);
  SIZE(longlong2);
}

static void printMemoryPoolStructs() {
  SIZE(cudaMemPoolProps);
  FIELD(cudaMemPoolProps, handleTypes);
  FIELD(cudaMemPoolProps, location);
  FIELD(cudaMemPoolProps, win32SecurityAttributes);
  FIELD(cudaMemPoolProps, maxSize);
  FIELD(cudaMemPoolProps, usage);
  FIELD(cudaMemPoolProps, reserved);
  SIZE(cudaMemAccessDesc);
  FIELD(cudaMemAccessDesc, flags);
}

static void printEnums() {
  VALUE(cudaErrorInvalidValue);
  VALUE(cudaErrorInvalidConfiguration);
  VALUE(cudaErrorInvalidSymbol);
  VALUE(cudaErrorInvalidMemcpyDirection);
  VALUE(cudaErrorInvalidDeviceFunction);
  VALUE(cudaErrorInvalidDevice);
  VALUE(cudaErrorNoKernelImageForDevice);
  VALUE(cudaErrorInvalidResourceHandle);
  VALUE(cudaErrorNotReady);
  VALUE(cudaErrorIllegalAddress);
  VALUE(cudaErrorLaunchFailure);
  VALUE(cudaErrorNotSupported);
  VALUE(cudaErrorUnknown);
  VALUE(cudaMemcpyDefault);
  VALUE(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  VALUE(cudaDevAttrClockRate);
  VALUE(cudaDevAttrMaxBlocksPerMultiprocessor);
  VALUE(cudaDevAttrHostNumaMultinodeIpcSupported);
  VALUE(cudaLimitPersistingL2CacheSize);
  VALUE(cudaFuncAttributeMaxDynamicSharedMemorySize);
  VALUE(cudaFuncAttributePreferredSharedMemoryCarveout);
  VALUE(cudaMemoryTypeManaged);
  VALUE(cudaMemAdviseUnsetAccessedBy);
  VALUE(cudaMemLocationTypeHostNumaCurrent);
  VALUE(cudaMemPoolReuseFollowEventDependencies);
  VALUE(cudaMemPoolAttrReleaseThreshold);
  VALUE(cudaMemPoolAttrUsedMemHigh);
  VALUE(cudaMemAllocationTypePinned);
  VALUE(cudaMemAllocationTypeManaged);
  VALUE(cudaMemHandleTypePosixFileDescriptor);
  VALUE(cudaMemAccessFlagsProtReadWrite);
  VALUE(cudaFuncCachePreferEqual);
  VALUE(cudaSharedMemBankSizeEightByte);
  VALUE(cudaEventDisableTiming);
  VALUE(cudaHostAllocMapped);
  VALUE(cudaHostRegisterReadOnly);
  VALUE(cudaMemAttachHost);
  VALUE(cudaDeviceMapHost);
  VALUE(cudaStreamNonBlocking);
  VALUE((long long)cudaStreamPerThread);
  VALUE(cudaCpuDeviceId);
  VALUE(CUDART_VERSION);
}

static void printTextureTypes() {
  SIZE(cudaChannelFormatDesc);
  FIELD(cudaChannelFormatDesc, w);
  FIELD(cudaChannelFormatDesc, f);
  SIZE(cudaResourceDesc);
  FIELD(cudaResourceDesc, res);
  FIELD(cudaResourceDesc, res.linear.desc);
  FIELD(cudaResourceDesc, res.linear.sizeInBytes);
  FIELD(cudaResourceDesc, res.pitch2D.width);
  FIELD(cudaResourceDesc, res.pitch2D.height);
  FIELD(cudaResourceDesc, res.pitch2D.pitchInBytes);
  FIELD(cudaResourceDesc, flags);
  SIZE(cudaResourceViewDesc);
  FIELD(cudaResourceViewDesc, width);
  FIELD(cudaResourceViewDesc, firstMipmapLevel);
  FIELD(cudaResourceViewDesc, lastLayer);
  FIELD(cudaResourceViewDesc, reserved);
  SIZE(cudaTextureDesc);
  FIELD(cudaTextureDesc, filterMode);
  FIELD(cudaTextureDesc, readMode);
  FIELD(cudaTextureDesc, sRGB);
  FIELD(cudaTextureDesc, borderColor);
  FIELD(cudaTextureDesc, normalizedCoords);
  FIELD(cudaTextureDesc, maxAnisotropy);
  FIELD(cudaTextureDesc, mipmapFilterMode);
  FIELD(cudaTextureDesc, maxMipmapLevelClamp);
  FIELD(cudaTextureDesc, disableTrilinearOptimization);
  FIELD(cudaTextureDesc, seamlessCubemap);
  SIZE(cudaTextureObject_t);
  SIZE(cudaSurfaceObject_t);
  VALUE(cudaChannelFormatKindFloat);
  VALUE(cudaChannelFormatKindNone);
  VALUE(cudaChannelFormatKindUnsignedNormalized8X4);
  VALUE(cudaChannelFormatKindSignedNormalized16X4);
  VALUE(cudaResourceTypePitch2D);
  VALUE(cudaResViewFormatFloat4);
  VALUE(cudaAddressModeWrap);
  VALUE(cudaAddressModeClamp);
  VALUE(cudaAddressModeMirror);
  VALUE(cudaAddressModeBorder);
  VALUE(cudaFilterModeLinear);
  VALUE(cudaReadModeNormalizedFloat);
  VALUE(cudaBoundaryModeZero);
  VALUE(cudaBoundaryModeClamp);
  VALUE(cudaBoundaryModeTrap);
  VALUE(cudaFormatModeAuto);
  VALUE(cudaArrayLayered);
  VALUE(cudaArraySurfaceLoadStore);
  VALUE(cudaArrayCubemap);
  VALUE(cudaArrayTextureGather);
}

static void printGraphTypes() {
  SIZE(cudaGraphExecUpdateResultInfo);
  FIELD(cudaGraphExecUpdateResultInfo, errorNode);
  FIELD(cudaGraphExecUpdateResultInfo, errorFromNode);
  SIZE(cudaGraphEdgeData);
  FIELD(cudaGraphEdgeData, type);
  FIELD(cudaGraphEdgeData, reserved);
  VALUE(cudaStreamCaptureStatusInvalidated);
  VALUE(cudaStreamCaptureModeThreadLocal);
  VALUE(cudaStreamCaptureModeRelaxed);
  VALUE(cudaGraphExecUpdateSuccess);
  VALUE(cudaGraphExecUpdateErrorAttributesChanged);
  VALUE(cudaGraphInstantiateFlagAutoFreeOnLaunch);
  VALUE(cudaGraphInstantiateFlagUpload);
  VALUE(cudaGraphInstantiateFlagUseNodePriority);
  VALUE(cudaErrorStreamCaptureUnsupported);
  VALUE(cudaErrorStreamCaptureInvalidated);
  VALUE(cudaErrorStreamCaptureMerge);
  VALUE(cudaErrorStreamCaptureUnmatched);
  VALUE(cudaErrorStreamCaptureImplicit);
  VALUE(cudaErrorIllegalState);
  SIZE(cudaKernelNodeParams);
  FIELD(cudaKernelNodeParams, gridDim);
  FIELD(cudaKernelNodeParams, blockDim);
  FIELD(cudaKernelNodeParams, sharedMemBytes);
  FIELD(cudaKernelNodeParams, kernelParams);
  FIELD(cudaKernelNodeParams, extra);
  SIZE(cudaMemsetParams);
  FIELD(cudaMemsetParams, value);
  FIELD(cudaMemsetParams, elementSize);
  FIELD(cudaMemsetParams, width);
  FIELD(cudaMemsetParams, height);
  SIZE(cudaHostNodeParams);
  FIELD(cudaHostNodeParams, userData);
  VALUE(cudaGraphNodeTypeEmpty);
  VALUE(cudaGraphNodeTypeMemFree);
  VALUE(cudaGraphNodeTypeConditional);
}

/// Every device attribute the GPU runtime asks the driver for: it passes
/// these numbers to cuDeviceGetAttribute (DriverApiCheck.cpp checks that the
/// toolkit's are the driver's).
static void printDeviceAttributes() {
  VALUE(cudaDevAttrAsyncEngineCount);
  VALUE(cudaDevAttrCanMapHostMemory);
  VALUE(cudaDevAttrCanUseHostPointerForRegisteredMem);
  VALUE(cudaDevAttrClusterLaunch);
  VALUE(cudaDevAttrComputeCapabilityMajor);
  VALUE(cudaDevAttrComputeCapabilityMinor);
  VALUE(cudaDevAttrComputePreemptionSupported);
  VALUE(cudaDevAttrConcurrentKernels);
  VALUE(cudaDevAttrConcurrentManagedAccess);
  VALUE(cudaDevAttrCooperativeLaunch);
  VALUE(cudaDevAttrDeferredMappingCudaArraySupported);
  VALUE(cudaDevAttrDirectManagedMemAccessFromHost);
  VALUE(cudaDevAttrEccEnabled);
  VALUE(cudaDevAttrGPUDirectRDMASupported);
  VALUE(cudaDevAttrGPUDirectRDMAWritesOrdering);
  VALUE(cudaDevAttrGlobalL1CacheSupported);
  VALUE(cudaDevAttrGlobalMemoryBusWidth);
  VALUE(cudaDevAttrHostNativeAtomicSupported);
  VALUE(cudaDevAttrHostNumaId);
  VALUE(cudaDevAttrHostRegisterReadOnlySupported);
  VALUE(cudaDevAttrHostRegisterSupported);
  VALUE(cudaDevAttrIntegrated);
  VALUE(cudaDevAttrIpcEventSupport);
  VALUE(cudaDevAttrIsMultiGpuBoard);
  VALUE(cudaDevAttrL2CacheSize);
  VALUE(cudaDevAttrLocalL1CacheSupported);
  VALUE(cudaDevAttrManagedMemory);
  VALUE(cudaDevAttrMaxAccessPolicyWindowSize);
  VALUE(cudaDevAttrMaxBlockDimX);
  VALUE(cudaDevAttrMaxBlockDimY);
  VALUE(cudaDevAttrMaxBlockDimZ);
  VALUE(cudaDevAttrMaxGridDimX);
  VALUE(cudaDevAttrMaxGridDimY);
  VALUE(cudaDevAttrMaxGridDimZ);
  VALUE(cudaDevAttrMaxPersistingL2CacheSize);
  VALUE(cudaDevAttrMaxPitch);
  VALUE(cudaDevAttrMaxRegistersPerBlock);
  VALUE(cudaDevAttrMaxRegistersPerMultiprocessor);
  VALUE(cudaDevAttrMaxSharedMemoryPerBlock);
  VALUE(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
  VALUE(cudaDevAttrMaxSurface1DWidth);
  VALUE(cudaDevAttrMaxSurface2DHeight);
  VALUE(cudaDevAttrMaxSurface2DWidth);
  VALUE(cudaDevAttrMaxSurface3DDepth);
  VALUE(cudaDevAttrMaxSurface3DHeight);
  VALUE(cudaDevAttrMaxSurface3DWidth);
  VALUE(cudaDevAttrMaxSurfaceCubemapWidth);
  VALUE(cudaDevAttrMaxTexture1DMipmappedWidth);
  VALUE(cudaDevAttrMaxTexture1DWidth);
  VALUE(cudaDevAttrMaxTexture2DHeight);
  VALUE(cudaDevAttrMaxTexture2DWidth);
  VALUE(cudaDevAttrMaxTexture3DDepth);
  VALUE(cudaDevAttrMaxTexture3DHeight);
  VALUE(cudaDevAttrMaxTexture3DWidth);
  VALUE(cudaDevAttrMaxTextureCubemapWidth);
  VALUE(cudaDevAttrMaxThreadsPerBlock);
  VALUE(cudaDevAttrMaxThreadsPerMultiProcessor);
  VALUE(cudaDevAttrMemoryPoolsSupported);
  VALUE(cudaDevAttrMpsEnabled);
  VALUE(cudaDevAttrMultiGpuBoardGroupID);
  VALUE(cudaDevAttrMultiProcessorCount);
  VALUE(cudaDevAttrNumaConfig);
  VALUE(cudaDevAttrNumaId);
  VALUE(cudaDevAttrPageableMemoryAccess);
  VALUE(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
  VALUE(cudaDevAttrPciBusId);
  VALUE(cudaDevAttrPciDeviceId);
  VALUE(cudaDevAttrPciDomainId);
  VALUE(cudaDevAttrReservedSharedMemoryPerBlock);
  VALUE(cudaDevAttrSparseCudaArraySupported);
  VALUE(cudaDevAttrStreamPrioritiesSupported);
  VALUE(cudaDevAttrSurfaceAlignment);
  VALUE(cudaDevAttrTccDriver);
  VALUE(cudaDevAttrTextureAlignment);
  VALUE(cudaDevAttrTexturePitchAlignment);
  VALUE(cudaDevAttrTimelineSemaphoreInteropSupported);
  VALUE(cudaDevAttrTotalConstantMemory);
  VALUE(cudaDevAttrUnifiedAddressing);
  VALUE(cudaDevAttrWarpSize);
}

static void printLaunchConfig() {
  SIZE(cudaLaunchAttributeValue);
  SIZE(cudaLaunchAttribute);
  FIELD(cudaLaunchAttribute, val);
  SIZE(cudaLaunchConfig_t);
  FIELD(cudaLaunchConfig_t, blockDim);
  FIELD(cudaLaunchConfig_t, dynamicSmemBytes);
  FIELD(cudaLaunchConfig_t, stream);
  FIELD(cudaLaunchConfig_t, attrs);
  FIELD(cudaLaunchConfig_t, numAttrs);
  VALUE(cudaLaunchAttributeCooperative);
  VALUE(cudaLaunchAttributeClusterDimension);
  VALUE(cudaLaunchAttributePriority);
  VALUE(cudaLaunchAttributePreferredSharedMemoryCarveout);
}

int main() {
  printDeviceAttributes();
  printDeviceProp();
  printLaunchConfig();
  printMemoryStructs();
  printMemoryPoolStructs();
  printEnums();
  printTextureTypes();
  printGraphTypes();
  return 0;
}
