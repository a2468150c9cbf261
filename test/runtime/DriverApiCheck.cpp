//===- DriverApiCheck.cpp - respec's CUDA driver declarations vs cuda.h ---===//
//
// The GPU runtime declares the CUDA driver API itself (runtime/cuda/
// DriverApi.h: it is built without a toolkit and loads libcuda.so.1 at run
// time), so nothing but this file checks those declarations against
// NVIDIA's. Compiled against the toolkit's cuda.h, with the legacy
// declarations of every exported symbol (__CUDA_API_VERSION_INTERNAL, so
// that each name means the symbol the runtime resolves, not the newer one a
// macro would map it to), and the toolkit's driver_types.h for the runtime
// API's attribute numbers (AbiLayout.cpp checks that respec's are the
// toolkit's). Every check is a static_assert: the test is that this file
// compiles. It checks:
//  * every entry point's parameter list: the same number of parameters,
//    each of the same kind (integer or enum, floating point, pointer to a
//    compatible type, struct of the same size) and size;
//  * the numeric values of the driver constants respec uses;
//  * the layouts of CUDA_MEMCPY2D, CUDA_MEMCPY3D, CUDA_ARRAY3D_DESCRIPTOR,
//    CUDA_RESOURCE_DESC, CUDA_TEXTURE_DESC, CUDA_RESOURCE_VIEW_DESC,
//    CUgraphEdgeData and CUgraphExecUpdateResultInfo;
//  * that the runtime API's array flags, resource types, address modes,
//    filter modes, stream capture modes and statuses, graph update results
//    and instantiation flags, which the GPU runtime passes on unchanged, are
//    the driver's, and that cudaGraphEdgeData and
//    cudaGraphExecUpdateResultInfo have the driver's layouts;
//  * that the runtime API's device attribute numbers (cudaDevAttr*, which
//    the runtime passes to cuDeviceGetAttribute) are the driver's.
//
//===----------------------------------------------------------------------===//

// First, so that cuda.h's macros (CU_DEVICE_CPU) do not rewrite it.
#include "../../runtime/cuda/DriverApi.h"

namespace {
constexpr long long respecDeviceCpu = respec::gpu::CU_DEVICE_CPU;
// cuda.h defines these flags as macros too.
constexpr long long respecArray3DLayered = respec::gpu::CUDA_ARRAY3D_LAYERED;
constexpr long long respecArray3DSurfaceLdst =
    respec::gpu::CUDA_ARRAY3D_SURFACE_LDST;
constexpr long long respecArray3DCubemap = respec::gpu::CUDA_ARRAY3D_CUBEMAP;
constexpr long long respecArray3DTextureGather =
    respec::gpu::CUDA_ARRAY3D_TEXTURE_GATHER;
constexpr long long respecTrsfReadAsInteger =
    respec::gpu::CU_TRSF_READ_AS_INTEGER;
constexpr long long respecTrsfNormalizedCoordinates =
    respec::gpu::CU_TRSF_NORMALIZED_COORDINATES;
constexpr long long respecTrsfSrgb = respec::gpu::CU_TRSF_SRGB;
constexpr long long respecTrsfDisableTrilinearOptimization =
    respec::gpu::CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
constexpr long long respecTrsfSeamlessCubemap =
    respec::gpu::CU_TRSF_SEAMLESS_CUBEMAP;
} // namespace

#define __CUDA_API_VERSION_INTERNAL 1
#include <cuda.h>
#include <driver_types.h>
#include <texture_types.h>

#include <cstddef>
#include <type_traits>

namespace respec::gpu::check {

template <typename T, typename = void> struct IsComplete : std::false_type {};
template <typename T>
struct IsComplete<T, std::void_t<decltype(sizeof(T))>> : std::true_type {};

template <typename A, typename B> constexpr bool compatible();

template <typename A, typename B> constexpr bool compatiblePointees() {
  using PA = std::remove_cv_t<A>;
  using PB = std::remove_cv_t<B>;
  if constexpr (std::is_void_v<PA> || std::is_void_v<PB>)
    return std::is_void_v<PA> && std::is_void_v<PB>;
  else if constexpr (std::is_class_v<PA> && std::is_class_v<PB> &&
                     !(IsComplete<PA>::value && IsComplete<PB>::value))
    // Opaque handles (CUctx_st, ...): both sides incomplete.
    return !IsComplete<PA>::value && !IsComplete<PB>::value;
  else
    return compatible<PA, PB>();
}

template <typename R1, typename... P1, typename R2, typename... P2>
constexpr bool sameSignature(R1 (*)(P1...), R2 (*)(P2...)) {
  if constexpr (sizeof...(P1) != sizeof...(P2))
    return false;
  else
    return compatible<R1, R2>() && (compatible<P1, P2>() && ...);
}

template <typename A, typename B> constexpr bool compatible() {
  if constexpr (std::is_same_v<A, B>)
    return true;
  else if constexpr ((std::is_integral_v<A> || std::is_enum_v<A>)&&(
                         std::is_integral_v<B> || std::is_enum_v<B>))
    return sizeof(A) == sizeof(B);
  else if constexpr (std::is_pointer_v<A> && std::is_pointer_v<B>) {
    using PA = std::remove_pointer_t<A>;
    using PB = std::remove_pointer_t<B>;
    if constexpr (std::is_function_v<PA> && std::is_function_v<PB>)
      return sameSignature(static_cast<A>(nullptr), static_cast<B>(nullptr));
    else
      return compatiblePointees<PA, PB>();
  } else if constexpr (std::is_class_v<A> && std::is_class_v<B>)
    return sizeof(A) == sizeof(B);
  else
    return false;
}

namespace gpu = respec::gpu;

// Unqualified names in the parameter lists are respec's (this namespace is
// inside respec::gpu); cuda.h's are the global ones.
#define CHECK_ENTRY_POINT(MEMBER, SYMBOL, PARAMS)                              \
  static_assert(                                                               \
      sameSignature(&::SYMBOL, static_cast<CUresult(*) PARAMS>(nullptr)),      \
      "respec's declaration of " #SYMBOL " differs from cuda.h's");
RESPEC_DRIVER_FUNCTIONS(CHECK_ENTRY_POINT)
RESPEC_DRIVER_GRAPH_FUNCTIONS(CHECK_ENTRY_POINT)
#undef CHECK_ENTRY_POINT

#define CONSTANT(NAME)                                                         \
  static_assert(static_cast<long long>(gpu::NAME) ==                           \
                    static_cast<long long>(::NAME),                            \
                #NAME " differs from cuda.h's");
CONSTANT(CUDA_SUCCESS)
CONSTANT(CUDA_ERROR_INVALID_VALUE)
CONSTANT(CUDA_ERROR_OUT_OF_MEMORY)
CONSTANT(CUDA_ERROR_NOT_INITIALIZED)
CONSTANT(CUDA_ERROR_DEINITIALIZED)
CONSTANT(CUDA_ERROR_STUB_LIBRARY)
CONSTANT(CUDA_ERROR_NO_DEVICE)
CONSTANT(CUDA_ERROR_INVALID_DEVICE)
CONSTANT(CUDA_ERROR_INVALID_IMAGE)
CONSTANT(CUDA_ERROR_INVALID_CONTEXT)
CONSTANT(CUDA_ERROR_NO_BINARY_FOR_GPU)
CONSTANT(CUDA_ERROR_INVALID_PTX)
CONSTANT(CUDA_ERROR_INVALID_HANDLE)
CONSTANT(CUDA_ERROR_ILLEGAL_STATE)
CONSTANT(CUDA_ERROR_NOT_FOUND)
CONSTANT(CUDA_ERROR_NOT_READY)
CONSTANT(CUDA_ERROR_NOT_SUPPORTED)
CONSTANT(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
CONSTANT(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
CONSTANT(CUDA_ERROR_STREAM_CAPTURE_MERGE)
CONSTANT(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED)
CONSTANT(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT)
CONSTANT(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE)
CONSTANT(CUDA_ERROR_UNKNOWN)
CONSTANT(CU_DEVICE_ATTRIBUTE_CLOCK_RATE)
CONSTANT(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)
CONSTANT(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
CONSTANT(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
CONSTANT(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)
CONSTANT(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)
CONSTANT(CU_FUNC_ATTRIBUTE_NUM_REGS)
CONSTANT(CU_FUNC_ATTRIBUTE_PTX_VERSION)
CONSTANT(CU_FUNC_ATTRIBUTE_BINARY_VERSION)
CONSTANT(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA)
CONSTANT(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
CONSTANT(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)
CONSTANT(CU_JIT_INFO_LOG_BUFFER)
CONSTANT(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES)
CONSTANT(CU_JIT_ERROR_LOG_BUFFER)
CONSTANT(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
CONSTANT(CU_MEMORYTYPE_HOST)
CONSTANT(CU_MEMORYTYPE_DEVICE)
CONSTANT(CU_MEMORYTYPE_ARRAY)
CONSTANT(CU_MEMORYTYPE_UNIFIED)
CONSTANT(CU_POINTER_ATTRIBUTE_MEMORY_TYPE)
CONSTANT(CU_POINTER_ATTRIBUTE_DEVICE_POINTER)
CONSTANT(CU_POINTER_ATTRIBUTE_HOST_POINTER)
CONSTANT(CU_POINTER_ATTRIBUTE_IS_MANAGED)
CONSTANT(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL)
CONSTANT(CU_AD_FORMAT_UNSIGNED_INT8)
CONSTANT(CU_AD_FORMAT_UNSIGNED_INT16)
CONSTANT(CU_AD_FORMAT_UNSIGNED_INT32)
CONSTANT(CU_AD_FORMAT_SIGNED_INT8)
CONSTANT(CU_AD_FORMAT_SIGNED_INT16)
CONSTANT(CU_AD_FORMAT_SIGNED_INT32)
CONSTANT(CU_AD_FORMAT_HALF)
CONSTANT(CU_AD_FORMAT_FLOAT)
CONSTANT(CU_AD_FORMAT_UNORM_INT8X1)
CONSTANT(CU_AD_FORMAT_UNORM_INT8X2)
CONSTANT(CU_AD_FORMAT_UNORM_INT8X4)
CONSTANT(CU_AD_FORMAT_UNORM_INT16X1)
CONSTANT(CU_AD_FORMAT_UNORM_INT16X2)
CONSTANT(CU_AD_FORMAT_UNORM_INT16X4)
CONSTANT(CU_AD_FORMAT_SNORM_INT8X1)
CONSTANT(CU_AD_FORMAT_SNORM_INT8X2)
CONSTANT(CU_AD_FORMAT_SNORM_INT8X4)
CONSTANT(CU_AD_FORMAT_SNORM_INT16X1)
CONSTANT(CU_AD_FORMAT_SNORM_INT16X2)
CONSTANT(CU_AD_FORMAT_SNORM_INT16X4)
CONSTANT(CU_RESOURCE_TYPE_ARRAY)
CONSTANT(CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
CONSTANT(CU_RESOURCE_TYPE_LINEAR)
CONSTANT(CU_RESOURCE_TYPE_PITCH2D)
CONSTANT(CU_TR_ADDRESS_MODE_WRAP)
CONSTANT(CU_TR_ADDRESS_MODE_CLAMP)
CONSTANT(CU_TR_ADDRESS_MODE_MIRROR)
CONSTANT(CU_TR_ADDRESS_MODE_BORDER)
CONSTANT(CU_TR_FILTER_MODE_POINT)
CONSTANT(CU_TR_FILTER_MODE_LINEAR)
CONSTANT(CU_STREAM_CAPTURE_STATUS_NONE)
CONSTANT(CU_STREAM_CAPTURE_STATUS_ACTIVE)
CONSTANT(CU_STREAM_CAPTURE_STATUS_INVALIDATED)
CONSTANT(CU_STREAM_CAPTURE_MODE_GLOBAL)
CONSTANT(CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
CONSTANT(CU_STREAM_CAPTURE_MODE_RELAXED)
CONSTANT(CU_GRAPH_EXEC_UPDATE_SUCCESS)
CONSTANT(CU_GRAPH_EXEC_UPDATE_ERROR)
CONSTANT(CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED)
CONSTANT(CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED)
CONSTANT(CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
CONSTANT(CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)
CONSTANT(CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
CONSTANT(CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)
#undef CONSTANT
static_assert(respecDeviceCpu == static_cast<long long>(CU_DEVICE_CPU));
static_assert(respecArray3DLayered == CUDA_ARRAY3D_LAYERED);
static_assert(respecArray3DSurfaceLdst == CUDA_ARRAY3D_SURFACE_LDST);
static_assert(respecArray3DCubemap == CUDA_ARRAY3D_CUBEMAP);
static_assert(respecArray3DTextureGather == CUDA_ARRAY3D_TEXTURE_GATHER);
static_assert(respecTrsfReadAsInteger == CU_TRSF_READ_AS_INTEGER);
static_assert(respecTrsfNormalizedCoordinates ==
              CU_TRSF_NORMALIZED_COORDINATES);
static_assert(respecTrsfSrgb == CU_TRSF_SRGB);
static_assert(respecTrsfDisableTrilinearOptimization ==
              CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
static_assert(respecTrsfSeamlessCubemap == CU_TRSF_SEAMLESS_CUBEMAP);

#define LAYOUT(TYPE, FIELD)                                                    \
  static_assert(offsetof(gpu::TYPE, FIELD) == offsetof(::TYPE, FIELD),         \
                #TYPE "::" #FIELD " is not where cuda.h has it");
static_assert(sizeof(gpu::CUDA_MEMCPY2D) == sizeof(::CUDA_MEMCPY2D));
static_assert(sizeof(gpu::CUDA_MEMCPY3D) == sizeof(::CUDA_MEMCPY3D));
LAYOUT(CUDA_MEMCPY2D, srcXInBytes)
LAYOUT(CUDA_MEMCPY2D, srcY)
LAYOUT(CUDA_MEMCPY2D, srcMemoryType)
LAYOUT(CUDA_MEMCPY2D, srcHost)
LAYOUT(CUDA_MEMCPY2D, srcDevice)
LAYOUT(CUDA_MEMCPY2D, srcArray)
LAYOUT(CUDA_MEMCPY2D, srcPitch)
LAYOUT(CUDA_MEMCPY2D, dstXInBytes)
LAYOUT(CUDA_MEMCPY2D, dstY)
LAYOUT(CUDA_MEMCPY2D, dstMemoryType)
LAYOUT(CUDA_MEMCPY2D, dstHost)
LAYOUT(CUDA_MEMCPY2D, dstDevice)
LAYOUT(CUDA_MEMCPY2D, dstArray)
LAYOUT(CUDA_MEMCPY2D, dstPitch)
LAYOUT(CUDA_MEMCPY2D, WidthInBytes)
LAYOUT(CUDA_MEMCPY2D, Height)
LAYOUT(CUDA_MEMCPY3D, srcXInBytes)
LAYOUT(CUDA_MEMCPY3D, srcY)
LAYOUT(CUDA_MEMCPY3D, srcZ)
LAYOUT(CUDA_MEMCPY3D, srcLOD)
LAYOUT(CUDA_MEMCPY3D, srcMemoryType)
LAYOUT(CUDA_MEMCPY3D, srcHost)
LAYOUT(CUDA_MEMCPY3D, srcDevice)
LAYOUT(CUDA_MEMCPY3D, srcArray)
LAYOUT(CUDA_MEMCPY3D, reserved0)
LAYOUT(CUDA_MEMCPY3D, srcPitch)
LAYOUT(CUDA_MEMCPY3D, srcHeight)
LAYOUT(CUDA_MEMCPY3D, dstXInBytes)
LAYOUT(CUDA_MEMCPY3D, dstY)
LAYOUT(CUDA_MEMCPY3D, dstZ)
LAYOUT(CUDA_MEMCPY3D, dstLOD)
LAYOUT(CUDA_MEMCPY3D, dstMemoryType)
LAYOUT(CUDA_MEMCPY3D, dstHost)
LAYOUT(CUDA_MEMCPY3D, dstDevice)
LAYOUT(CUDA_MEMCPY3D, dstArray)
LAYOUT(CUDA_MEMCPY3D, reserved1)
LAYOUT(CUDA_MEMCPY3D, dstPitch)
LAYOUT(CUDA_MEMCPY3D, dstHeight)
LAYOUT(CUDA_MEMCPY3D, WidthInBytes)
LAYOUT(CUDA_MEMCPY3D, Height)
LAYOUT(CUDA_MEMCPY3D, Depth)
static_assert(sizeof(gpu::CUDA_ARRAY3D_DESCRIPTOR) ==
              sizeof(::CUDA_ARRAY3D_DESCRIPTOR));
static_assert(sizeof(gpu::CUDA_ARRAY3D_DESCRIPTOR::Format) ==
              sizeof(::CUDA_ARRAY3D_DESCRIPTOR::Format));
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, Width)
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, Height)
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, Depth)
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, Format)
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, NumChannels)
LAYOUT(CUDA_ARRAY3D_DESCRIPTOR, Flags)
static_assert(sizeof(gpu::CUDA_RESOURCE_DESC) == sizeof(::CUDA_RESOURCE_DESC));
static_assert(sizeof(gpu::CUDA_RESOURCE_DESC::res) ==
              sizeof(::CUDA_RESOURCE_DESC::res));
LAYOUT(CUDA_RESOURCE_DESC, resType)
LAYOUT(CUDA_RESOURCE_DESC, res)
LAYOUT(CUDA_RESOURCE_DESC, res.array.hArray)
LAYOUT(CUDA_RESOURCE_DESC, res.mipmap.hMipmappedArray)
LAYOUT(CUDA_RESOURCE_DESC, res.linear.devPtr)
LAYOUT(CUDA_RESOURCE_DESC, res.linear.format)
LAYOUT(CUDA_RESOURCE_DESC, res.linear.numChannels)
LAYOUT(CUDA_RESOURCE_DESC, res.linear.sizeInBytes)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.devPtr)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.format)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.numChannels)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.width)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.height)
LAYOUT(CUDA_RESOURCE_DESC, res.pitch2D.pitchInBytes)
LAYOUT(CUDA_RESOURCE_DESC, res.reserved.reserved)
LAYOUT(CUDA_RESOURCE_DESC, flags)
static_assert(sizeof(gpu::CUDA_TEXTURE_DESC) == sizeof(::CUDA_TEXTURE_DESC));
static_assert(sizeof(gpu::CUDA_TEXTURE_DESC::addressMode) ==
              sizeof(::CUDA_TEXTURE_DESC::addressMode));
LAYOUT(CUDA_TEXTURE_DESC, addressMode)
LAYOUT(CUDA_TEXTURE_DESC, filterMode)
LAYOUT(CUDA_TEXTURE_DESC, flags)
LAYOUT(CUDA_TEXTURE_DESC, maxAnisotropy)
LAYOUT(CUDA_TEXTURE_DESC, mipmapFilterMode)
LAYOUT(CUDA_TEXTURE_DESC, mipmapLevelBias)
LAYOUT(CUDA_TEXTURE_DESC, minMipmapLevelClamp)
LAYOUT(CUDA_TEXTURE_DESC, maxMipmapLevelClamp)
LAYOUT(CUDA_TEXTURE_DESC, borderColor)
LAYOUT(CUDA_TEXTURE_DESC, reserved)
static_assert(sizeof(gpu::CUDA_RESOURCE_VIEW_DESC) ==
              sizeof(::CUDA_RESOURCE_VIEW_DESC));
LAYOUT(CUDA_RESOURCE_VIEW_DESC, format)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, width)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, height)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, depth)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, firstMipmapLevel)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, lastMipmapLevel)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, firstLayer)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, lastLayer)
LAYOUT(CUDA_RESOURCE_VIEW_DESC, reserved)
static_assert(sizeof(gpu::CUgraphEdgeData) == sizeof(::CUgraphEdgeData));
LAYOUT(CUgraphEdgeData, from_port)
LAYOUT(CUgraphEdgeData, to_port)
LAYOUT(CUgraphEdgeData, type)
LAYOUT(CUgraphEdgeData, reserved)
static_assert(sizeof(gpu::CUgraphExecUpdateResultInfo) ==
              sizeof(::CUgraphExecUpdateResultInfo));
static_assert(sizeof(gpu::CUgraphExecUpdateResultInfo::result) ==
              sizeof(::CUgraphExecUpdateResultInfo::result));
LAYOUT(CUgraphExecUpdateResultInfo, result)
LAYOUT(CUgraphExecUpdateResultInfo, errorNode)
LAYOUT(CUgraphExecUpdateResultInfo, errorFromNode)
#undef LAYOUT

// The runtime API's values that the GPU runtime passes on unchanged are the
// driver's.
#define SAME_VALUE(RUNTIME, DRIVER)                                            \
  static_assert(static_cast<long long>(::RUNTIME) ==                           \
                    static_cast<long long>(::DRIVER),                          \
                #RUNTIME " is not " #DRIVER);
SAME_VALUE(cudaResourceTypeArray, CU_RESOURCE_TYPE_ARRAY)
SAME_VALUE(cudaResourceTypeMipmappedArray, CU_RESOURCE_TYPE_MIPMAPPED_ARRAY)
SAME_VALUE(cudaResourceTypeLinear, CU_RESOURCE_TYPE_LINEAR)
SAME_VALUE(cudaResourceTypePitch2D, CU_RESOURCE_TYPE_PITCH2D)
SAME_VALUE(cudaAddressModeWrap, CU_TR_ADDRESS_MODE_WRAP)
SAME_VALUE(cudaAddressModeClamp, CU_TR_ADDRESS_MODE_CLAMP)
SAME_VALUE(cudaAddressModeMirror, CU_TR_ADDRESS_MODE_MIRROR)
SAME_VALUE(cudaAddressModeBorder, CU_TR_ADDRESS_MODE_BORDER)
SAME_VALUE(cudaFilterModePoint, CU_TR_FILTER_MODE_POINT)
SAME_VALUE(cudaFilterModeLinear, CU_TR_FILTER_MODE_LINEAR)
SAME_VALUE(cudaStreamCaptureStatusNone, CU_STREAM_CAPTURE_STATUS_NONE)
SAME_VALUE(cudaStreamCaptureStatusActive, CU_STREAM_CAPTURE_STATUS_ACTIVE)
SAME_VALUE(cudaStreamCaptureStatusInvalidated,
           CU_STREAM_CAPTURE_STATUS_INVALIDATED)
SAME_VALUE(cudaStreamCaptureModeGlobal, CU_STREAM_CAPTURE_MODE_GLOBAL)
SAME_VALUE(cudaStreamCaptureModeThreadLocal,
           CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
SAME_VALUE(cudaStreamCaptureModeRelaxed, CU_STREAM_CAPTURE_MODE_RELAXED)
SAME_VALUE(cudaGraphExecUpdateSuccess, CU_GRAPH_EXEC_UPDATE_SUCCESS)
SAME_VALUE(cudaGraphExecUpdateError, CU_GRAPH_EXEC_UPDATE_ERROR)
SAME_VALUE(cudaGraphExecUpdateErrorTopologyChanged,
           CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED)
SAME_VALUE(cudaGraphExecUpdateErrorNodeTypeChanged,
           CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED)
SAME_VALUE(cudaGraphExecUpdateErrorFunctionChanged,
           CU_GRAPH_EXEC_UPDATE_ERROR_FUNCTION_CHANGED)
SAME_VALUE(cudaGraphExecUpdateErrorParametersChanged,
           CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED)
SAME_VALUE(cudaGraphExecUpdateErrorNotSupported,
           CU_GRAPH_EXEC_UPDATE_ERROR_NOT_SUPPORTED)
SAME_VALUE(cudaGraphExecUpdateErrorUnsupportedFunctionChange,
           CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE)
SAME_VALUE(cudaGraphExecUpdateErrorAttributesChanged,
           CU_GRAPH_EXEC_UPDATE_ERROR_ATTRIBUTES_CHANGED)
SAME_VALUE(cudaGraphInstantiateFlagAutoFreeOnLaunch,
           CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH)
SAME_VALUE(cudaGraphInstantiateFlagUpload, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD)
SAME_VALUE(cudaGraphInstantiateFlagDeviceLaunch,
           CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH)
SAME_VALUE(cudaGraphInstantiateFlagUseNodePriority,
           CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)
#undef SAME_VALUE
// The GPU runtime passes the runtime's structures to the driver as they are.
#define SAME_LAYOUT(RUNTIME, DRIVER, FIELD)                                    \
  static_assert(offsetof(::RUNTIME, FIELD) == offsetof(::DRIVER, FIELD) &&     \
                    sizeof(::RUNTIME::FIELD) == sizeof(::DRIVER::FIELD),       \
                #RUNTIME "::" #FIELD " is not where " #DRIVER " has it");
static_assert(sizeof(::cudaGraphEdgeData) == sizeof(::CUgraphEdgeData));
SAME_LAYOUT(cudaGraphEdgeData, CUgraphEdgeData, from_port)
SAME_LAYOUT(cudaGraphEdgeData, CUgraphEdgeData, to_port)
SAME_LAYOUT(cudaGraphEdgeData, CUgraphEdgeData, type)
SAME_LAYOUT(cudaGraphEdgeData, CUgraphEdgeData, reserved)
static_assert(sizeof(::cudaGraphExecUpdateResultInfo) ==
              sizeof(::CUgraphExecUpdateResultInfo));
SAME_LAYOUT(cudaGraphExecUpdateResultInfo, CUgraphExecUpdateResultInfo, result)
SAME_LAYOUT(cudaGraphExecUpdateResultInfo, CUgraphExecUpdateResultInfo,
            errorNode)
SAME_LAYOUT(cudaGraphExecUpdateResultInfo, CUgraphExecUpdateResultInfo,
            errorFromNode)
#undef SAME_LAYOUT
static_assert(cudaArrayLayered == CUDA_ARRAY3D_LAYERED);
static_assert(cudaArraySurfaceLoadStore == CUDA_ARRAY3D_SURFACE_LDST);
static_assert(cudaArrayCubemap == CUDA_ARRAY3D_CUBEMAP);
static_assert(cudaArrayTextureGather == CUDA_ARRAY3D_TEXTURE_GATHER);

// The runtime API's attribute numbers in respec's headers are the driver's
// (the GPU runtime passes them on as they are).
#define ATTRIBUTE(RUNTIME, DRIVER)                                             \
  static_assert(static_cast<int>(::RUNTIME) == static_cast<int>(::DRIVER),     \
                #RUNTIME " is not " #DRIVER);
ATTRIBUTE(cudaDevAttrAsyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)
ATTRIBUTE(cudaDevAttrCanMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)
ATTRIBUTE(cudaDevAttrCanUseHostPointerForRegisteredMem,
          CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM)
ATTRIBUTE(cudaDevAttrClusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)
ATTRIBUTE(cudaDevAttrComputeCapabilityMajor,
          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)
ATTRIBUTE(cudaDevAttrComputeCapabilityMinor,
          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)
ATTRIBUTE(cudaDevAttrComputePreemptionSupported,
          CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED)
ATTRIBUTE(cudaDevAttrConcurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS)
ATTRIBUTE(cudaDevAttrConcurrentManagedAccess,
          CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)
ATTRIBUTE(cudaDevAttrCooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)
ATTRIBUTE(cudaDevAttrDeferredMappingCudaArraySupported,
          CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED)
ATTRIBUTE(cudaDevAttrDirectManagedMemAccessFromHost,
          CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST)
ATTRIBUTE(cudaDevAttrEccEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED)
ATTRIBUTE(cudaDevAttrGPUDirectRDMASupported,
          CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED)
ATTRIBUTE(cudaDevAttrGPUDirectRDMAWritesOrdering,
          CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING)
ATTRIBUTE(cudaDevAttrGlobalL1CacheSupported,
          CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED)
ATTRIBUTE(cudaDevAttrGlobalMemoryBusWidth,
          CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)
ATTRIBUTE(cudaDevAttrHostNativeAtomicSupported,
          CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED)
ATTRIBUTE(cudaDevAttrHostNumaId, CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID)
ATTRIBUTE(cudaDevAttrHostNumaMultinodeIpcSupported,
          CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED)
ATTRIBUTE(cudaDevAttrHostRegisterSupported,
          CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED)
ATTRIBUTE(cudaDevAttrIntegrated, CU_DEVICE_ATTRIBUTE_INTEGRATED)
ATTRIBUTE(cudaDevAttrIpcEventSupport, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED)
ATTRIBUTE(cudaDevAttrIsMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD)
ATTRIBUTE(cudaDevAttrL2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)
ATTRIBUTE(cudaDevAttrLocalL1CacheSupported,
          CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED)
ATTRIBUTE(cudaDevAttrManagedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)
ATTRIBUTE(cudaDevAttrMaxAccessPolicyWindowSize,
          CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE)
ATTRIBUTE(cudaDevAttrMaxBlockDimX, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)
ATTRIBUTE(cudaDevAttrMaxBlockDimY, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)
ATTRIBUTE(cudaDevAttrMaxBlockDimZ, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)
ATTRIBUTE(cudaDevAttrMaxBlocksPerMultiprocessor,
          CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR)
ATTRIBUTE(cudaDevAttrMaxGridDimX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)
ATTRIBUTE(cudaDevAttrMaxGridDimY, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)
ATTRIBUTE(cudaDevAttrMaxGridDimZ, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)
ATTRIBUTE(cudaDevAttrMaxPersistingL2CacheSize,
          CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE)
ATTRIBUTE(cudaDevAttrMaxPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH)
ATTRIBUTE(cudaDevAttrMaxRegistersPerBlock,
          CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)
ATTRIBUTE(cudaDevAttrMaxRegistersPerMultiprocessor,
          CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR)
ATTRIBUTE(cudaDevAttrMaxSharedMemoryPerBlock,
          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)
ATTRIBUTE(cudaDevAttrMaxSharedMemoryPerBlockOptin,
          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
ATTRIBUTE(cudaDevAttrMaxSharedMemoryPerMultiprocessor,
          CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)
ATTRIBUTE(cudaDevAttrMaxThreadsPerBlock,
          CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
ATTRIBUTE(cudaDevAttrMaxThreadsPerMultiProcessor,
          CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR)
ATTRIBUTE(cudaDevAttrMemoryPoolsSupported,
          CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)
ATTRIBUTE(cudaDevAttrMpsEnabled, CU_DEVICE_ATTRIBUTE_MPS_ENABLED)
ATTRIBUTE(cudaDevAttrMultiGpuBoardGroupID,
          CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID)
ATTRIBUTE(cudaDevAttrMultiProcessorCount,
          CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
ATTRIBUTE(cudaDevAttrNumaConfig, CU_DEVICE_ATTRIBUTE_NUMA_CONFIG)
ATTRIBUTE(cudaDevAttrNumaId, CU_DEVICE_ATTRIBUTE_NUMA_ID)
ATTRIBUTE(cudaDevAttrPageableMemoryAccess,
          CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS)
ATTRIBUTE(cudaDevAttrPageableMemoryAccessUsesHostPageTables,
          CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES)
ATTRIBUTE(cudaDevAttrPciBusId, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)
ATTRIBUTE(cudaDevAttrPciDeviceId, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID)
ATTRIBUTE(cudaDevAttrPciDomainId, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID)
ATTRIBUTE(cudaDevAttrReservedSharedMemoryPerBlock,
          CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK)
ATTRIBUTE(cudaDevAttrSparseCudaArraySupported,
          CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED)
ATTRIBUTE(cudaDevAttrStreamPrioritiesSupported,
          CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED)
ATTRIBUTE(cudaDevAttrSurfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT)
ATTRIBUTE(cudaDevAttrTccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER)
ATTRIBUTE(cudaDevAttrTextureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT)
ATTRIBUTE(cudaDevAttrTexturePitchAlignment,
          CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT)
ATTRIBUTE(cudaDevAttrTimelineSemaphoreInteropSupported,
          CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED)
ATTRIBUTE(cudaDevAttrTotalConstantMemory,
          CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY)
ATTRIBUTE(cudaDevAttrUnifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)
ATTRIBUTE(cudaDevAttrWarpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE)
#undef ATTRIBUTE

} // namespace respec::gpu::check

int main() { return 0; }
