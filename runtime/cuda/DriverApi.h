//===- DriverApi.h - The subset of the CUDA driver API respec uses --------===//
//
// The GPU runtime loads libcuda at run time (dlopen) so that a program built
// for NVIDIA GPUs links and starts on machines without a driver, where it
// reports the missing driver instead of failing to load. It therefore cannot
// include the toolkit's cuda.h: the types, constants and entry points it
// needs are declared here, with the numeric values and ABI the CUDA driver
// API documents. Entry points are resolved by their exported names, which
// for several functions carry a version suffix (_v2) that cuda.h's macros
// add.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CUDA_DRIVERAPI_H
#define RESPEC_RUNTIME_CUDA_DRIVERAPI_H

#include <cstddef>
#include <string>

namespace respec {
namespace gpu {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUhostFn = void (*)(void *userData);
using CUarray = struct CUarray_st *;
using CUmipmappedArray = struct CUmipmappedArray_st *;
using CUtexObject = unsigned long long;
using CUsurfObject = unsigned long long;

// CUresult values the runtime tests for.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_DEINITIALIZED = 4;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_ILLEGAL_STATE = 401;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;
constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900;
constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901;
constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_MERGE = 902;
constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903;
constexpr CUresult CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906;
constexpr CUresult CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

// CUdevice_attribute values (the same numbers as cudaDeviceAttr).
constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2;
constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_PTX_VERSION = 5;
constexpr int CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6;
constexpr int CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
constexpr int CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9;

// CUjit_option values for cuModuleLoadDataEx.
constexpr int CU_JIT_INFO_LOG_BUFFER = 3;
constexpr int CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4;
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// CUmemorytype values (CUDA_MEMCPY2D/3D).
constexpr int CU_MEMORYTYPE_HOST = 1;
constexpr int CU_MEMORYTYPE_DEVICE = 2;
constexpr int CU_MEMORYTYPE_ARRAY = 3;
constexpr int CU_MEMORYTYPE_UNIFIED = 4;

// CUpointer_attribute values.
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3;
constexpr int CU_POINTER_ATTRIBUTE_HOST_POINTER = 4;
constexpr int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
constexpr int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;

/// CU_DEVICE_CPU: the host as a cuMemPrefetchAsync/cuMemAdvise target.
constexpr CUdevice CU_DEVICE_CPU = -1;

/// cuLaunchKernel's CU_LAUNCH_PARAM_END etc. are not used: parameters are
/// always passed as kernelParams.

/// Stream-ordered allocation: the pool handle is the runtime's
/// cudaMemPool_t, and the structs have the layout of the runtime's
/// cudaMemLocation, cudaMemAccessDesc and cudaMemPoolProps.
using CUmemoryPool = struct CUmemPoolHandle_st *;

struct CUmemLocation {
  int type;
  int id;
};

struct CUmemAccessDesc {
  CUmemLocation location;
  int flags;
};

struct CUmemPoolProps {
  int allocType;
  int handleTypes;
  CUmemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned short usage;
  unsigned char reserved[54];
};

/// CUDA_MEMCPY2D (the _v2 layout).
struct CUDA_MEMCPY2D {
  size_t srcXInBytes;
  size_t srcY;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
};

/// CUDA_MEMCPY3D (the _v2 layout).
struct CUDA_MEMCPY3D {
  size_t srcXInBytes;
  size_t srcY;
  size_t srcZ;
  size_t srcLOD;
  int srcMemoryType;
  const void *srcHost;
  CUdeviceptr srcDevice;
  CUarray srcArray;
  void *reserved0;
  size_t srcPitch;
  size_t srcHeight;
  size_t dstXInBytes;
  size_t dstY;
  size_t dstZ;
  size_t dstLOD;
  int dstMemoryType;
  void *dstHost;
  CUdeviceptr dstDevice;
  CUarray dstArray;
  void *reserved1;
  size_t dstPitch;
  size_t dstHeight;
  size_t WidthInBytes;
  size_t Height;
  size_t Depth;
};

// CUDA arrays, texture objects and surface objects.

/// CUarray_format values: the runtime's channel descriptors map onto these
/// (a format and a number of channels; the normalized-integer formats fix
/// the channel count themselves).
constexpr int CU_AD_FORMAT_UNSIGNED_INT8 = 0x01;
constexpr int CU_AD_FORMAT_UNSIGNED_INT16 = 0x02;
constexpr int CU_AD_FORMAT_UNSIGNED_INT32 = 0x03;
constexpr int CU_AD_FORMAT_SIGNED_INT8 = 0x08;
constexpr int CU_AD_FORMAT_SIGNED_INT16 = 0x09;
constexpr int CU_AD_FORMAT_SIGNED_INT32 = 0x0a;
constexpr int CU_AD_FORMAT_HALF = 0x10;
constexpr int CU_AD_FORMAT_FLOAT = 0x20;
constexpr int CU_AD_FORMAT_UNORM_INT8X1 = 0xc0;
constexpr int CU_AD_FORMAT_UNORM_INT8X2 = 0xc1;
constexpr int CU_AD_FORMAT_UNORM_INT8X4 = 0xc2;
constexpr int CU_AD_FORMAT_UNORM_INT16X1 = 0xc3;
constexpr int CU_AD_FORMAT_UNORM_INT16X2 = 0xc4;
constexpr int CU_AD_FORMAT_UNORM_INT16X4 = 0xc5;
constexpr int CU_AD_FORMAT_SNORM_INT8X1 = 0xc6;
constexpr int CU_AD_FORMAT_SNORM_INT8X2 = 0xc7;
constexpr int CU_AD_FORMAT_SNORM_INT8X4 = 0xc8;
constexpr int CU_AD_FORMAT_SNORM_INT16X1 = 0xc9;
constexpr int CU_AD_FORMAT_SNORM_INT16X2 = 0xca;
constexpr int CU_AD_FORMAT_SNORM_INT16X4 = 0xcb;

/// CUDA_ARRAY3D_DESCRIPTOR::Flags (the same values as cudaArrayLayered,
/// cudaArraySurfaceLoadStore, cudaArrayCubemap, cudaArrayTextureGather).
constexpr unsigned CUDA_ARRAY3D_LAYERED = 0x01;
constexpr unsigned CUDA_ARRAY3D_SURFACE_LDST = 0x02;
constexpr unsigned CUDA_ARRAY3D_CUBEMAP = 0x04;
constexpr unsigned CUDA_ARRAY3D_TEXTURE_GATHER = 0x08;

/// CUresourcetype values (the same numbers as cudaResourceType).
constexpr int CU_RESOURCE_TYPE_ARRAY = 0x00;
constexpr int CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 0x01;
constexpr int CU_RESOURCE_TYPE_LINEAR = 0x02;
constexpr int CU_RESOURCE_TYPE_PITCH2D = 0x03;

/// CUaddress_mode and CUfilter_mode values (the same numbers as
/// cudaTextureAddressMode and cudaTextureFilterMode).
constexpr int CU_TR_ADDRESS_MODE_WRAP = 0;
constexpr int CU_TR_ADDRESS_MODE_CLAMP = 1;
constexpr int CU_TR_ADDRESS_MODE_MIRROR = 2;
constexpr int CU_TR_ADDRESS_MODE_BORDER = 3;
constexpr int CU_TR_FILTER_MODE_POINT = 0;
constexpr int CU_TR_FILTER_MODE_LINEAR = 1;

/// CUDA_TEXTURE_DESC::flags.
constexpr unsigned CU_TRSF_READ_AS_INTEGER = 0x01;
constexpr unsigned CU_TRSF_NORMALIZED_COORDINATES = 0x02;
constexpr unsigned CU_TRSF_SRGB = 0x10;
constexpr unsigned CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION = 0x20;
constexpr unsigned CU_TRSF_SEAMLESS_CUBEMAP = 0x40;

/// CUDA_ARRAY3D_DESCRIPTOR (the _v2 layout). Height is 0 for 1-D arrays,
/// Depth 0 for 1-D and 2-D ones; with CUDA_ARRAY3D_LAYERED, Depth counts
/// layers.
struct CUDA_ARRAY3D_DESCRIPTOR {
  size_t Width;
  size_t Height;
  size_t Depth;
  int Format; ///< CUarray_format
  unsigned NumChannels;
  unsigned Flags;
};

/// CUDA_RESOURCE_DESC.
struct CUDA_RESOURCE_DESC {
  int resType; ///< CUresourcetype
  union {
    struct {
      CUarray hArray;
    } array;
    struct {
      CUmipmappedArray hMipmappedArray;
    } mipmap;
    struct {
      CUdeviceptr devPtr;
      int format; ///< CUarray_format
      unsigned numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      CUdeviceptr devPtr;
      int format; ///< CUarray_format
      unsigned numChannels;
      size_t width;  ///< elements
      size_t height; ///< rows
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned flags; ///< must be zero
};

/// CUDA_TEXTURE_DESC.
struct CUDA_TEXTURE_DESC {
  int addressMode[3]; ///< CUaddress_mode
  int filterMode;     ///< CUfilter_mode
  unsigned flags;     ///< CU_TRSF_*
  unsigned maxAnisotropy;
  int mipmapFilterMode; ///< CUfilter_mode
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
};

/// CUDA_RESOURCE_VIEW_DESC: only declared for cuTexObjectCreate's
/// signature; respec never passes one (resource views are not supported).
struct CUDA_RESOURCE_VIEW_DESC {
  int format; ///< CUresourceViewFormat
  size_t width;
  size_t height;
  size_t depth;
  unsigned firstMipmapLevel;
  unsigned lastMipmapLevel;
  unsigned firstLayer;
  unsigned lastLayer;
  unsigned reserved[16];
};

// Graphs and stream capture. The runtime's cudaGraph_t, cudaGraphNode_t and
// cudaGraphExec_t are these handles, cast; the capture modes and statuses,
// the update results and the instantiation flags have the runtime's values,
// and CUgraphEdgeData and CUgraphExecUpdateResultInfo the layouts of
// cudaGraphEdgeData and cudaGraphExecUpdateResultInfo.
using CUgraph = struct CUgraph_st *;
using CUgraphNode = struct CUgraphNode_st *;
using CUgraphExec = struct CUgraphExec_st *;

/// CUstreamCaptureStatus values.
constexpr int CU_STREAM_CAPTURE_STATUS_NONE = 0;
constexpr int CU_STREAM_CAPTURE_STATUS_ACTIVE = 1;
constexpr int CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2;

/// CUstreamCaptureMode values.
constexpr int CU_STREAM_CAPTURE_MODE_GLOBAL = 0;
constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;
constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;

/// CUgraphExecUpdateResult values.
constexpr int CU_GRAPH_EXEC_UPDATE_SUCCESS = 0;
constexpr int CU_GRAPH_EXEC_UPDATE_ERROR = 1;
constexpr int CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED = 2;
constexpr int CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED = 3;

/// CUgraphInstantiate_flags values.
constexpr unsigned long long CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH =
    1;
constexpr unsigned long long CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD = 2;
constexpr unsigned long long CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH = 4;
constexpr unsigned long long CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY = 8;

/// CUgraphEdgeData: the annotation of a dependency (all zero for a full
/// dependency, the only kind respec creates).
struct CUgraphEdgeData {
  unsigned char from_port;
  unsigned char to_port;
  unsigned char type;
  unsigned char reserved[5];
};

/// CUgraphExecUpdateResultInfo (the _v1 layout).
struct CUgraphExecUpdateResultInfo {
  int result; ///< CUgraphExecUpdateResult
  CUgraphNode errorNode;
  CUgraphNode errorFromNode;
};

/// X-macro list of every entry point: (member name, exported symbol,
/// parameter list). Every one is resolved when the library is loaded.
/// test/runtime/DriverApiCheck.cpp checks each parameter list against the
/// CUDA toolkit's declaration of the symbol.
#define RESPEC_DRIVER_FUNCTIONS(X)                                             \
  X(init, cuInit, (unsigned flags))                                            \
  X(driverGetVersion, cuDriverGetVersion, (int *version))                      \
  X(getErrorName, cuGetErrorName, (CUresult error, const char **name))         \
  X(getErrorString, cuGetErrorString, (CUresult error, const char **text))     \
  X(deviceGetCount, cuDeviceGetCount, (int *count))                            \
  X(deviceGet, cuDeviceGet, (CUdevice * device, int ordinal))                  \
  X(deviceGetName, cuDeviceGetName, (char *name, int length, CUdevice dev))    \
  X(deviceTotalMem, cuDeviceTotalMem_v2, (size_t * bytes, CUdevice dev))       \
  X(deviceGetAttribute, cuDeviceGetAttribute,                                  \
    (int *value, int attribute, CUdevice dev))                                 \
  X(primaryCtxRetain, cuDevicePrimaryCtxRetain,                                \
    (CUcontext * context, CUdevice dev))                                       \
  X(primaryCtxRelease, cuDevicePrimaryCtxRelease_v2, (CUdevice dev))           \
  X(primaryCtxReset, cuDevicePrimaryCtxReset_v2, (CUdevice dev))               \
  X(primaryCtxSetFlags, cuDevicePrimaryCtxSetFlags_v2,                         \
    (CUdevice dev, unsigned flags))                                            \
  X(ctxSetCurrent, cuCtxSetCurrent, (CUcontext context))                       \
  X(ctxSynchronize, cuCtxSynchronize, ())                                      \
  X(ctxGetLimit, cuCtxGetLimit, (size_t * value, int limit))                   \
  X(ctxSetLimit, cuCtxSetLimit, (int limit, size_t value))                     \
  X(ctxGetCacheConfig, cuCtxGetCacheConfig, (int *config))                     \
  X(ctxSetCacheConfig, cuCtxSetCacheConfig, (int config))                      \
  X(ctxGetStreamPriorityRange, cuCtxGetStreamPriorityRange,                    \
    (int *least, int *greatest))                                               \
  X(moduleLoadDataEx, cuModuleLoadDataEx,                                      \
    (CUmodule * module, const void *image, unsigned numOptions, int *options,  \
     void **optionValues))                                                     \
  X(moduleUnload, cuModuleUnload, (CUmodule module))                           \
  X(moduleGetFunction, cuModuleGetFunction,                                    \
    (CUfunction * function, CUmodule module, const char *name))                \
  X(moduleGetGlobal, cuModuleGetGlobal_v2,                                     \
    (CUdeviceptr * address, size_t * bytes, CUmodule module,                   \
     const char *name))                                                        \
  X(funcGetAttribute, cuFuncGetAttribute,                                      \
    (int *value, int attribute, CUfunction function))                          \
  X(funcSetAttribute, cuFuncSetAttribute,                                      \
    (CUfunction function, int attribute, int value))                           \
  X(funcSetCacheConfig, cuFuncSetCacheConfig,                                  \
    (CUfunction function, int config))                                         \
  X(launchKernel, cuLaunchKernel,                                              \
    (CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,      \
     unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,  \
     CUstream stream, void **params, void **extra))                            \
  X(launchCooperativeKernel, cuLaunchCooperativeKernel,                        \
    (CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,      \
     unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,  \
     CUstream stream, void **params))                                          \
  X(occupancyMaxActiveBlocks,                                                  \
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,                      \
    (int *blocks, CUfunction function, int blockSize, size_t dynamicShared,    \
     unsigned flags))                                                          \
  X(occupancyAvailableDynamicShared, cuOccupancyAvailableDynamicSMemPerBlock,  \
    (size_t * bytes, CUfunction function, int numBlocks, int blockSize))       \
  X(memAlloc, cuMemAlloc_v2, (CUdeviceptr * ptr, size_t bytes))                \
  X(memAllocPitch, cuMemAllocPitch_v2,                                         \
    (CUdeviceptr * ptr, size_t * pitch, size_t width, size_t height,           \
     unsigned elementSize))                                                    \
  X(memFree, cuMemFree_v2, (CUdeviceptr ptr))                                  \
  X(memAllocHost, cuMemAllocHost_v2, (void **ptr, size_t bytes))               \
  X(memHostAlloc, cuMemHostAlloc, (void **ptr, size_t bytes, unsigned flags))  \
  X(memFreeHost, cuMemFreeHost, (void *ptr))                                   \
  X(memAllocManaged, cuMemAllocManaged,                                        \
    (CUdeviceptr * ptr, size_t bytes, unsigned flags))                         \
  X(memHostRegister, cuMemHostRegister_v2,                                     \
    (void *ptr, size_t bytes, unsigned flags))                                 \
  X(memHostUnregister, cuMemHostUnregister, (void *ptr))                       \
  X(memHostGetDevicePointer, cuMemHostGetDevicePointer_v2,                     \
    (CUdeviceptr * device, void *host, unsigned flags))                        \
  X(memHostGetFlags, cuMemHostGetFlags, (unsigned *flags, void *host))         \
  X(memGetInfo, cuMemGetInfo_v2, (size_t * free, size_t * total))              \
  X(pointerGetAttribute, cuPointerGetAttribute,                                \
    (void *data, int attribute, CUdeviceptr ptr))                              \
  X(memPrefetchAsync, cuMemPrefetchAsync,                                      \
    (CUdeviceptr ptr, size_t bytes, CUdevice dev, CUstream stream))            \
  X(memAdvise, cuMemAdvise,                                                    \
    (CUdeviceptr ptr, size_t bytes, int advice, CUdevice dev))                 \
  X(memAllocAsync, cuMemAllocAsync,                                            \
    (CUdeviceptr * ptr, size_t bytes, CUstream stream))                        \
  X(memFreeAsync, cuMemFreeAsync, (CUdeviceptr ptr, CUstream stream))          \
  X(memAllocFromPoolAsync, cuMemAllocFromPoolAsync,                            \
    (CUdeviceptr * ptr, size_t bytes, CUmemoryPool pool, CUstream stream))     \
  X(deviceGetDefaultMemPool, cuDeviceGetDefaultMemPool,                        \
    (CUmemoryPool * pool, CUdevice device))                                    \
  X(deviceGetMemPool, cuDeviceGetMemPool,                                      \
    (CUmemoryPool * pool, CUdevice device))                                    \
  X(deviceSetMemPool, cuDeviceSetMemPool,                                      \
    (CUdevice device, CUmemoryPool pool))                                      \
  X(memPoolCreate, cuMemPoolCreate,                                            \
    (CUmemoryPool * pool, const CUmemPoolProps *props))                        \
  X(memPoolDestroy, cuMemPoolDestroy, (CUmemoryPool pool))                     \
  X(memPoolTrimTo, cuMemPoolTrimTo, (CUmemoryPool pool, size_t keep))          \
  X(memPoolSetAttribute, cuMemPoolSetAttribute,                                \
    (CUmemoryPool pool, int attribute, void *value))                           \
  X(memPoolGetAttribute, cuMemPoolGetAttribute,                                \
    (CUmemoryPool pool, int attribute, void *value))                           \
  X(memPoolSetAccess, cuMemPoolSetAccess,                                      \
    (CUmemoryPool pool, const CUmemAccessDesc *descs, size_t count))           \
  X(memPoolGetAccess, cuMemPoolGetAccess,                                      \
    (int *flags, CUmemoryPool pool, CUmemLocation *location))                  \
  X(memcpy, cuMemcpy, (CUdeviceptr dst, CUdeviceptr src, size_t bytes))        \
  X(memcpyAsync, cuMemcpyAsync,                                                \
    (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream))         \
  X(memcpyPeer, cuMemcpyPeer,                                                  \
    (CUdeviceptr dst, CUcontext dstContext, CUdeviceptr src,                   \
     CUcontext srcContext, size_t bytes))                                      \
  X(memcpy2D, cuMemcpy2D_v2, (const CUDA_MEMCPY2D *copy))                      \
  X(memcpy2DAsync, cuMemcpy2DAsync_v2,                                         \
    (const CUDA_MEMCPY2D *copy, CUstream stream))                              \
  X(memcpy3D, cuMemcpy3D_v2, (const CUDA_MEMCPY3D *copy))                      \
  X(memcpy3DAsync, cuMemcpy3DAsync_v2,                                         \
    (const CUDA_MEMCPY3D *copy, CUstream stream))                              \
  X(array3DCreate, cuArray3DCreate_v2,                                         \
    (CUarray * array, const CUDA_ARRAY3D_DESCRIPTOR *desc))                    \
  X(arrayDestroy, cuArrayDestroy, (CUarray array))                             \
  X(texObjectCreate, cuTexObjectCreate,                                        \
    (CUtexObject * texture, const CUDA_RESOURCE_DESC *resource,                \
     const CUDA_TEXTURE_DESC *sampler, const CUDA_RESOURCE_VIEW_DESC *view))   \
  X(texObjectDestroy, cuTexObjectDestroy, (CUtexObject texture))               \
  X(surfObjectCreate, cuSurfObjectCreate,                                      \
    (CUsurfObject * surface, const CUDA_RESOURCE_DESC *resource))              \
  X(surfObjectDestroy, cuSurfObjectDestroy, (CUsurfObject surface))            \
  X(memsetD8, cuMemsetD8_v2,                                                   \
    (CUdeviceptr dst, unsigned char value, size_t count))                      \
  X(memsetD8Async, cuMemsetD8Async,                                            \
    (CUdeviceptr dst, unsigned char value, size_t count, CUstream stream))     \
  X(memsetD2D8, cuMemsetD2D8_v2,                                               \
    (CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,         \
     size_t height))                                                           \
  X(memsetD2D8Async, cuMemsetD2D8Async,                                        \
    (CUdeviceptr dst, size_t pitch, unsigned char value, size_t width,         \
     size_t height, CUstream stream))                                          \
  X(streamCreate, cuStreamCreate, (CUstream * stream, unsigned flags))         \
  X(streamCreateWithPriority, cuStreamCreateWithPriority,                      \
    (CUstream * stream, unsigned flags, int priority))                         \
  X(streamDestroy, cuStreamDestroy_v2, (CUstream stream))                      \
  X(streamSynchronize, cuStreamSynchronize, (CUstream stream))                 \
  X(streamQuery, cuStreamQuery, (CUstream stream))                             \
  X(streamGetFlags, cuStreamGetFlags, (CUstream stream, unsigned *flags))      \
  X(streamGetPriority, cuStreamGetPriority, (CUstream stream, int *priority))  \
  X(streamWaitEvent, cuStreamWaitEvent,                                        \
    (CUstream stream, CUevent event, unsigned flags))                          \
  X(launchHostFunc, cuLaunchHostFunc,                                          \
    (CUstream stream, CUhostFn fn, void *userData))                            \
  X(eventCreate, cuEventCreate, (CUevent * event, unsigned flags))             \
  X(eventRecord, cuEventRecord, (CUevent event, CUstream stream))              \
  X(eventRecordWithFlags, cuEventRecordWithFlags,                              \
    (CUevent event, CUstream stream, unsigned flags))                          \
  X(eventQuery, cuEventQuery, (CUevent event))                                 \
  X(eventSynchronize, cuEventSynchronize, (CUevent event))                     \
  X(eventElapsedTime, cuEventElapsedTime,                                      \
    (float *ms, CUevent start, CUevent end))                                   \
  X(eventDestroy, cuEventDestroy_v2, (CUevent event))

/// Entry points of stream capture and graphs, which need a CUDA 12.3 or
/// newer driver (cuStreamGetCaptureInfo_v3). They are resolved when
/// present: programs that do not use graphs run with older drivers, and the
/// graph calls report what is missing.
#define RESPEC_DRIVER_GRAPH_FUNCTIONS(X)                                       \
  X(streamBeginCapture, cuStreamBeginCapture_v2, (CUstream stream, int mode))  \
  X(streamEndCapture, cuStreamEndCapture, (CUstream stream, CUgraph * graph))  \
  X(streamIsCapturing, cuStreamIsCapturing, (CUstream stream, int *status))    \
  X(streamGetCaptureInfo, cuStreamGetCaptureInfo_v3,                           \
    (CUstream stream, int *status, unsigned long long *id, CUgraph *graph,     \
     const CUgraphNode **dependencies, const CUgraphEdgeData **edgeData,       \
     size_t *numDependencies))                                                 \
  X(threadExchangeStreamCaptureMode, cuThreadExchangeStreamCaptureMode,        \
    (int *mode))                                                               \
  X(graphCreate, cuGraphCreate, (CUgraph * graph, unsigned flags))             \
  X(graphDestroy, cuGraphDestroy, (CUgraph graph))                             \
  X(graphGetNodes, cuGraphGetNodes,                                            \
    (CUgraph graph, CUgraphNode * nodes, size_t * numNodes))                   \
  X(graphInstantiateWithFlags, cuGraphInstantiateWithFlags,                    \
    (CUgraphExec * exec, CUgraph graph, unsigned long long flags))             \
  X(graphExecUpdate, cuGraphExecUpdate_v2,                                     \
    (CUgraphExec exec, CUgraph graph, CUgraphExecUpdateResultInfo * info))     \
  X(graphUpload, cuGraphUpload, (CUgraphExec exec, CUstream stream))           \
  X(graphLaunch, cuGraphLaunch, (CUgraphExec exec, CUstream stream))           \
  X(graphExecDestroy, cuGraphExecDestroy, (CUgraphExec exec))

/// The loaded driver's entry points.
struct DriverApi {
#define RESPEC_DRIVER_MEMBER(MEMBER, SYMBOL, PARAMS) CUresult(*MEMBER) PARAMS;
  RESPEC_DRIVER_FUNCTIONS(RESPEC_DRIVER_MEMBER)
  RESPEC_DRIVER_GRAPH_FUNCTIONS(RESPEC_DRIVER_MEMBER)
#undef RESPEC_DRIVER_MEMBER
};

/// The first graph entry point (RESPEC_DRIVER_GRAPH_FUNCTIONS) the loaded
/// driver lacks, or null when it has them all.
const char *missingGraphEntryPoint(const DriverApi &api);

/// Loads the driver library (RESPEC_CUDA_DRIVER, else libcuda.so.1) and
/// resolves every entry point. On failure returns false and sets `reason`
/// to a sentence fragment saying what went wrong.
bool loadDriverApi(DriverApi &api, std::string &reason);

/// The CUDA driver's name and description of `result`, for messages.
std::string describeDriverResult(const DriverApi &api, CUresult result);

} // namespace gpu
} // namespace respec

#endif // RESPEC_RUNTIME_CUDA_DRIVERAPI_H
