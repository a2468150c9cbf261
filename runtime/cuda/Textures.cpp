//===- Textures.cpp - CUDA arrays, texture and surface objects on the GPU -===//
//
// CUDA arrays, texture objects and surface objects are the driver's
// (cuArray3DCreate, cuTexObjectCreate, cuSurfObjectCreate): a cudaArray_t is
// the driver's CUarray and the object handles are the driver's. The runtime
// keeps what the driver cannot be asked safely (a handle that is not an
// array may crash it): a registry of the live arrays with their channel
// descriptors, extents and flags, and the runtime descriptors each texture
// and surface object was created from. Copies to and from arrays become
// cudaMemcpy3D-style copies (copy3D in Memcpy.cpp), so they share its checks
// and its stream ordering.
//
//===----------------------------------------------------------------------===//

#include "../common/Backend.h"
#include "../common/CudaArrays.h"
#include "../common/Diagnostics.h"
#include "../common/TexelFormat.h"
#include "Context.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

using namespace respec;
using namespace respec::gpu;

namespace {

/// What a cudaChannelFormatDesc means to the driver.
struct ChannelFormat {
  int format; ///< CUarray_format
  unsigned channels;
  size_t bytes; ///< per element
  /// Signed or unsigned integer texels (not the normalized kinds), which
  /// cudaReadModeElementType reads as integers.
  bool integer;
};

/// The driver's name for texels of `texel`'s layout.
int driverFormatOf(const TexelFormat &texel) {
  if (texel.alwaysNormalized) {
    // CU_AD_FORMAT_{UNORM,SNORM}_INT{8,16}X{1,2,4}: consecutive values.
    int first = texel.kind == TexelFormat::Unsigned
                    ? (texel.bits == 8 ? CU_AD_FORMAT_UNORM_INT8X1
                                       : CU_AD_FORMAT_UNORM_INT16X1)
                    : (texel.bits == 8 ? CU_AD_FORMAT_SNORM_INT8X1
                                       : CU_AD_FORMAT_SNORM_INT16X1);
    return first + (texel.channels == 1 ? 0 : texel.channels == 2 ? 1 : 2);
  }
  switch (texel.kind) {
  case TexelFormat::Float:
    return texel.bits == 16 ? CU_AD_FORMAT_HALF : CU_AD_FORMAT_FLOAT;
  case TexelFormat::Signed:
    return texel.bits == 8    ? CU_AD_FORMAT_SIGNED_INT8
           : texel.bits == 16 ? CU_AD_FORMAT_SIGNED_INT16
                              : CU_AD_FORMAT_SIGNED_INT32;
  default:
    return texel.bits == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
           : texel.bits == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
                              : CU_AD_FORMAT_UNSIGNED_INT32;
  }
}

/// What texels of `texel`'s layout are to the driver.
ChannelFormat channelFormatFrom(const TexelFormat &texel) {
  bool integer = texel.kind != TexelFormat::Float && !texel.alwaysNormalized;
  return ChannelFormat{driverFormatOf(texel),
                       static_cast<unsigned>(texel.channels), texel.bytes,
                       integer};
}

/// The driver's format of `desc`, or false with the reason in `problem`.
bool channelFormatOf(const cudaChannelFormatDesc &desc, ChannelFormat *out,
                     std::string *problem) {
  std::optional<TexelFormat> texel = TexelFormat::of(desc, problem);
  if (!texel)
    return false;
  *out = channelFormatFrom(*texel);
  return true;
}

/// channelFormatOf, reporting cudaErrorInvalidChannelDescriptor for `call`.
cudaError_t formatFor(const cudaChannelFormatDesc &desc, ChannelFormat *out,
                      const char *call) {
  std::string problem;
  if (!channelFormatOf(desc, out, &problem))
    return reportError(cudaErrorInvalidChannelDescriptor, call, "%s",
                       problem.c_str());
  return cudaSuccess;
}

/// A live CUDA array as the runtime allocated it.
struct ArrayInfo {
  cudaChannelFormatDesc desc;
  /// As allocated: height 0 for 1-D arrays, depth 0 for 1-D and 2-D ones;
  /// for layered arrays the depth is the number of layers.
  cudaExtent extent;
  unsigned flags;
  ChannelFormat format;

  size_t rowBytes() const { return extent.width * format.bytes; }
  size_t rows() const { return extent.height ? extent.height : 1; }
  size_t slices() const { return extent.depth ? extent.depth : 1; }
};

struct TextureInfo {
  cudaResourceDesc resource;
  cudaTextureDesc sampler;
};

struct Registry {
  std::mutex mutex;
  std::unordered_map<CUarray, ArrayInfo> arrays;
  std::unordered_map<CUtexObject, TextureInfo> textures;
  std::unordered_map<CUsurfObject, cudaResourceDesc> surfaces;
};

Registry &registry() {
  static Registry *instance = new Registry;
  return *instance;
}

CUarray toDriverArray(const cudaArray *array) {
  return reinterpret_cast<CUarray>(const_cast<cudaArray *>(array));
}

bool findArray(const cudaArray *array, ArrayInfo *info) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.arrays.find(toDriverArray(array));
  if (!array || it == r.arrays.end())
    return false;
  *info = it->second;
  return true;
}

cudaError_t checkArray(const cudaArray *array, ArrayInfo *info,
                       const char *call) {
  return findArray(array, info)
             ? cudaSuccess
             : reportError(cudaErrorInvalidResourceHandle, call,
                           "%p is not a CUDA array", (const void *)array);
}

constexpr unsigned knownArrayFlags = cudaArrayLayered |
                                     cudaArraySurfaceLoadStore |
                                     cudaArrayCubemap | cudaArrayTextureGather;

unsigned toDriverArrayFlags(unsigned flags) {
  unsigned result = 0;
  if (flags & cudaArrayLayered)
    result |= CUDA_ARRAY3D_LAYERED;
  if (flags & cudaArraySurfaceLoadStore)
    result |= CUDA_ARRAY3D_SURFACE_LDST;
  if (flags & cudaArrayCubemap)
    result |= CUDA_ARRAY3D_CUBEMAP;
  if (flags & cudaArrayTextureGather)
    result |= CUDA_ARRAY3D_TEXTURE_GATHER;
  return result;
}

} // namespace

bool respec::arrayShapeOf(cudaArray_const_t array, ArrayShape *shape) {
  ArrayInfo info;
  if (!findArray(array, &info))
    return false;
  *shape = ArrayShape{info.format.bytes, info.extent.width, info.rows(),
                      info.slices()};
  return true;
}

//===----------------------------------------------------------------------===//
// CUDA arrays.
//===----------------------------------------------------------------------===//

cudaError_t respec::createArray(cudaArray_t *array,
                                const cudaChannelFormatDesc *desc,
                                cudaExtent extent, unsigned flags,
                                const char *call) {
  if (!array || !desc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  ArrayInfo info{*desc, extent, flags, {}};
  if (cudaError_t error = formatFor(*desc, &info.format, call))
    return error;
  if (flags & ~knownArrayFlags)
    return reportError(cudaErrorInvalidValue, call, "unknown flags 0x%x",
                       flags);
  if (extent.width == 0)
    return reportError(cudaErrorInvalidValue, call, "width 0");
  if (flags & cudaArrayLayered) {
    if (extent.depth == 0)
      return reportError(cudaErrorInvalidValue, call,
                         "a layered array needs at least one layer (depth)");
  } else if (extent.height == 0 && extent.depth != 0) {
    return reportError(cudaErrorInvalidValue, call, "depth %zu with height 0",
                       extent.depth);
  }
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  d.Width = extent.width;
  d.Height = extent.height;
  d.Depth = extent.depth;
  d.Format = info.format.format;
  d.NumChannels = info.format.channels;
  d.Flags = toDriverArrayFlags(flags);
  CUarray handle = nullptr;
  status = checkDriver(driver().array3DCreate(&handle, &d), call);
  if (status != cudaSuccess)
    return status;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.arrays[handle] = info;
  *array = reinterpret_cast<cudaArray_t>(handle);
  return cudaSuccess;
}

extern "C" cudaError_t cudaFreeArray(cudaArray_t array) {
  const char *call = "cudaFreeArray";
  if (!array)
    return cudaSuccess;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.arrays.erase(toDriverArray(array)))
      return reportError(cudaErrorInvalidValue, call, "%p is not a CUDA array",
                         (void *)array);
  }
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().arrayDestroy(toDriverArray(array)), call);
}

extern "C" cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc,
                                        cudaExtent *extent, unsigned int *flags,
                                        cudaArray_t array) {
  ArrayInfo info;
  if (cudaError_t error = checkArray(array, &info, "cudaArrayGetInfo"))
    return error;
  if (desc)
    *desc = info.desc;
  if (extent)
    *extent = info.extent;
  if (flags)
    *flags = info.flags;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc,
                                          cudaArray_const_t array) {
  if (!desc)
    return reportError(cudaErrorInvalidValue, "cudaGetChannelDesc");
  ArrayInfo info;
  if (cudaError_t error = checkArray(array, &info, "cudaGetChannelDesc"))
    return error;
  *desc = info.desc;
  return cudaSuccess;
}

//===----------------------------------------------------------------------===//
// Per-thread default stream variants (_ptds, _ptsz).
//===----------------------------------------------------------------------===//

extern "C" cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset,
                                                size_t hOffset, const void *src,
                                                size_t spitch, size_t width,
                                                size_t height,
                                                cudaMemcpyKind kind) {
  return copy2DWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, 0, src,
                         spitch, width, height, kind, perThreadSynchronous,
                         "cudaMemcpy2DToArray");
}

extern "C" cudaError_t
cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                              const void *src, size_t spitch, size_t width,
                              size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return copy2DWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, 0, src,
                         spitch, width, height, kind, onPerThreadStream(stream),
                         "cudaMemcpy2DToArrayAsync");
}

extern "C" cudaError_t
cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_const_t src,
                           size_t wOffset, size_t hOffset, size_t width,
                           size_t height, cudaMemcpyKind kind) {
  return copy2DWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, dpitch,
                         nullptr, 0, width, height, kind, perThreadSynchronous,
                         "cudaMemcpy2DFromArray");
}

extern "C" cudaError_t
cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_const_t src,
                                size_t wOffset, size_t hOffset, size_t width,
                                size_t height, cudaMemcpyKind kind,
                                cudaStream_t stream) {
  return copy2DWithArray(
      nullptr, src, 0, 0, wOffset, hOffset, dst, dpitch, nullptr, 0, width,
      height, kind, onPerThreadStream(stream), "cudaMemcpy2DFromArrayAsync");
}

extern "C" cudaError_t cudaMemcpy2DArrayToArray_ptds(
    cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst,
    cudaArray_const_t src, size_t wOffsetSrc, size_t hOffsetSrc, size_t width,
    size_t height, cudaMemcpyKind kind) {
  return copy2DWithArray(dst, src, wOffsetDst, hOffsetDst, wOffsetSrc,
                         hOffsetSrc, nullptr, 0, nullptr, 0, width, height,
                         kind, perThreadSynchronous,
                         "cudaMemcpy2DArrayToArray");
}

extern "C" cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset,
                                              size_t hOffset, const void *src,
                                              size_t count,
                                              cudaMemcpyKind kind) {
  return copyLinearWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, src,
                             count, kind, perThreadSynchronous,
                             "cudaMemcpyToArray");
}

extern "C" cudaError_t
cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset, size_t hOffset,
                            const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return copyLinearWithArray(dst, nullptr, wOffset, hOffset, 0, 0, nullptr, src,
                             count, kind, onPerThreadStream(stream),
                             "cudaMemcpyToArrayAsync");
}

extern "C" cudaError_t
cudaMemcpyFromArray_ptds(void *dst, cudaArray_const_t src, size_t wOffset,
                         size_t hOffset, size_t count, cudaMemcpyKind kind) {
  return copyLinearWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, nullptr,
                             count, kind, perThreadSynchronous,
                             "cudaMemcpyFromArray");
}

extern "C" cudaError_t
cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_const_t src, size_t wOffset,
                              size_t hOffset, size_t count, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return copyLinearWithArray(nullptr, src, 0, 0, wOffset, hOffset, dst, nullptr,
                             count, kind, onPerThreadStream(stream),
                             "cudaMemcpyFromArrayAsync");
}

extern "C" cudaError_t
cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                            size_t hOffsetDst, cudaArray_const_t src,
                            size_t wOffsetSrc, size_t hOffsetSrc, size_t count,
                            cudaMemcpyKind kind) {
  return copyLinearWithArray(dst, src, wOffsetDst, hOffsetDst, wOffsetSrc,
                             hOffsetSrc, nullptr, nullptr, count, kind,
                             perThreadSynchronous, "cudaMemcpyArrayToArray");
}

//===----------------------------------------------------------------------===//
// Texture and surface objects.
//===----------------------------------------------------------------------===//

namespace {

/// The driver's description of `resource`, and the format of its texels.
/// Surface objects (`forSurface`) take CUDA arrays only.
cudaError_t toDriverResource(const cudaResourceDesc &resource, bool forSurface,
                             CUDA_RESOURCE_DESC *out, ChannelFormat *format,
                             const char *call) {
  std::optional<TexelFormat> memoryFormat;
  if (cudaError_t error =
          checkResource(resource, forSurface, &memoryFormat, call))
    return error;
  *out = CUDA_RESOURCE_DESC{};
  out->resType = static_cast<int>(resource.resType);
  out->flags = resource.flags;
  if (resource.resType == cudaResourceTypeArray) {
    ArrayInfo info;
    if (cudaError_t error = checkArray(resource.res.array.array, &info, call))
      return error;
    if (forSurface && !(info.flags & cudaArraySurfaceLoadStore))
      return reportError(cudaErrorInvalidValue, call,
                         "the array was allocated without "
                         "cudaArraySurfaceLoadStore");
    out->res.array.hArray = toDriverArray(resource.res.array.array);
    *format = info.format;
    return cudaSuccess;
  }
  *format = channelFormatFrom(*memoryFormat);
  if (resource.resType == cudaResourceTypeLinear) {
    const auto &linear = resource.res.linear;
    out->res.linear.devPtr = toDevicePtr(linear.devPtr);
    out->res.linear.format = format->format;
    out->res.linear.numChannels = format->channels;
    out->res.linear.sizeInBytes = linear.sizeInBytes;
    return cudaSuccess;
  }
  const auto &pitch = resource.res.pitch2D;
  out->res.pitch2D.devPtr = toDevicePtr(pitch.devPtr);
  out->res.pitch2D.format = format->format;
  out->res.pitch2D.numChannels = format->channels;
  out->res.pitch2D.width = pitch.width;
  out->res.pitch2D.height = pitch.height;
  out->res.pitch2D.pitchInBytes = pitch.pitchInBytes;
  return cudaSuccess;
}

/// The driver's sampler for `s` on texels of `format`: address and filter
/// modes have the same numbers; the read mode, coordinates and sRGB become
/// flags.
cudaError_t toDriverSampler(const cudaTextureDesc &s,
                            const ChannelFormat &format, CUDA_TEXTURE_DESC *out,
                            const char *call) {
  for (cudaTextureAddressMode mode : s.addressMode)
    if (mode < cudaAddressModeWrap || mode > cudaAddressModeBorder)
      return reportError(cudaErrorInvalidValue, call, "address mode %d",
                         static_cast<int>(mode));
  for (cudaTextureFilterMode mode : {s.filterMode, s.mipmapFilterMode})
    if (mode != cudaFilterModePoint && mode != cudaFilterModeLinear)
      return reportError(cudaErrorInvalidValue, call, "filter mode %d",
                         static_cast<int>(mode));
  if (s.readMode != cudaReadModeElementType &&
      s.readMode != cudaReadModeNormalizedFloat)
    return reportError(cudaErrorInvalidValue, call, "read mode %d",
                       static_cast<int>(s.readMode));
  *out = CUDA_TEXTURE_DESC{};
  for (int d = 0; d < 3; ++d)
    out->addressMode[d] = static_cast<int>(s.addressMode[d]);
  out->filterMode = static_cast<int>(s.filterMode);
  if (s.readMode == cudaReadModeElementType && format.integer)
    out->flags |= CU_TRSF_READ_AS_INTEGER;
  if (s.normalizedCoords)
    out->flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (s.sRGB)
    out->flags |= CU_TRSF_SRGB;
  if (s.disableTrilinearOptimization)
    out->flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  if (s.seamlessCubemap)
    out->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
  out->maxAnisotropy = s.maxAnisotropy;
  out->mipmapFilterMode = static_cast<int>(s.mipmapFilterMode);
  out->mipmapLevelBias = s.mipmapLevelBias;
  out->minMipmapLevelClamp = s.minMipmapLevelClamp;
  out->maxMipmapLevelClamp = s.maxMipmapLevelClamp;
  for (int c = 0; c < 4; ++c)
    out->borderColor[c] = s.borderColor[c];
  return cudaSuccess;
}

} // namespace

extern "C" cudaError_t cudaCreateTextureObject(
    cudaTextureObject_t *pTexObject, const cudaResourceDesc *pResDesc,
    const cudaTextureDesc *pTexDesc, const cudaResourceViewDesc *pResViewDesc) {
  const char *call = "cudaCreateTextureObject";
  if (!pTexObject || !pResDesc || !pTexDesc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  if (pResViewDesc)
    return reportError(cudaErrorNotSupported, call,
                       "resource views are not supported by respec");
  CUDA_RESOURCE_DESC resource;
  ChannelFormat format;
  if (cudaError_t error =
          toDriverResource(*pResDesc, false, &resource, &format, call))
    return error;
  CUDA_TEXTURE_DESC sampler;
  if (cudaError_t error = toDriverSampler(*pTexDesc, format, &sampler, call))
    return error;
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUtexObject texture = 0;
  status = checkDriver(
      driver().texObjectCreate(&texture, &resource, &sampler, nullptr), call);
  if (status != cudaSuccess)
    return status;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.textures[texture] = TextureInfo{*pResDesc, *pTexDesc};
  *pTexObject = texture;
  return cudaSuccess;
}

extern "C" cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  const char *call = "cudaDestroyTextureObject";
  if (!texObject)
    return cudaSuccess;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.textures.erase(texObject))
      return reportError(cudaErrorInvalidValue, call,
                         "0x%llx is not a texture object", texObject);
  }
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().texObjectDestroy(texObject), call);
}

extern "C" cudaError_t
cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaTextureObject_t texObject) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.textures.find(texObject);
  if (!pResDesc || it == r.textures.end())
    return reportError(cudaErrorInvalidValue,
                       "cudaGetTextureObjectResourceDesc");
  *pResDesc = it->second.resource;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc,
                                cudaTextureObject_t texObject) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.textures.find(texObject);
  if (!pTexDesc || it == r.textures.end())
    return reportError(cudaErrorInvalidValue,
                       "cudaGetTextureObjectTextureDesc");
  *pTexDesc = it->second.sampler;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                        const cudaResourceDesc *pResDesc) {
  const char *call = "cudaCreateSurfaceObject";
  if (!pSurfObject || !pResDesc)
    return reportError(cudaErrorInvalidValue, call, "null pointer argument");
  CUDA_RESOURCE_DESC resource;
  ChannelFormat format;
  if (cudaError_t error =
          toDriverResource(*pResDesc, true, &resource, &format, call))
    return error;
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  CUsurfObject surface = 0;
  status = checkDriver(driver().surfObjectCreate(&surface, &resource), call);
  if (status != cudaSuccess)
    return status;
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.surfaces[surface] = *pResDesc;
  *pSurfObject = surface;
  return cudaSuccess;
}

extern "C" cudaError_t
cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  const char *call = "cudaDestroySurfaceObject";
  if (!surfObject)
    return cudaSuccess;
  {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (!r.surfaces.erase(surfObject))
      return reportError(cudaErrorInvalidValue, call,
                         "0x%llx is not a surface object", surfObject);
  }
  cudaError_t status = enterContext(call);
  if (status != cudaSuccess)
    return status;
  return checkDriver(driver().surfObjectDestroy(surfObject), call);
}

extern "C" cudaError_t
cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc,
                                 cudaSurfaceObject_t surfObject) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.surfaces.find(surfObject);
  if (!pResDesc || it == r.surfaces.end())
    return reportError(cudaErrorInvalidValue,
                       "cudaGetSurfaceObjectResourceDesc");
  *pResDesc = it->second;
  return cudaSuccess;
}
