//===- TextureReferences.cpp - CUDA 11's texture references ---------------===//
//
// A texture reference (a texture<> variable, removed in CUDA 12) is a device
// variable that holds a texture object (see __respec_legacy_api.h). Binding
// memory to it creates a texture object from the reference's settings and
// its read mode, stores the object in the variable's device copy, and
// destroys the object bound before; unbinding stores 0. Everything goes
// through the runtime API, so both runtimes contain this file.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "ModuleRegistry.h"
#include "TexelFormat.h"

#include <cuda_runtime.h>
// After the runtime API it extends.
#include <__respec_legacy_api.h>

#include <algorithm>
#include <climits>
#include <mutex>
#include <string>
#include <unordered_map>

using namespace respec;

namespace {

/// The texture objects bound to texture references, by host variable.
struct Bindings {
  std::mutex mutex;
  std::unordered_map<const textureReference *, cudaTextureObject_t> objects;
};

Bindings &bindings() {
  // Never destroyed: programs may unbind from static destructors.
  static Bindings *instance = new Bindings;
  return *instance;
}

/// The registration of `texref`, or an error naming `call`.
cudaError_t findReference(const textureReference *texref, SymbolInfo *info,
                          const char *call) {
  if (!texref || !lookupSymbol(texref, info) || !info->textureType)
    return reportError(cudaErrorInvalidTexture, call,
                       "%p is not a texture reference (a texture<> variable)",
                       static_cast<const void *>(texref));
  return cudaSuccess;
}

/// The sampler a texture reference describes.
cudaTextureDesc samplerOf(const textureReference &texref,
                          const SymbolInfo &info) {
  cudaTextureDesc desc = {};
  for (int i = 0; i < 3; ++i)
    desc.addressMode[i] = texref.addressMode[i];
  desc.filterMode = texref.filterMode;
  desc.readMode = info.normalizedFloatReads ? cudaReadModeNormalizedFloat
                                            : cudaReadModeElementType;
  desc.sRGB = texref.sRGB;
  desc.normalizedCoords = texref.normalized;
  desc.maxAnisotropy = texref.maxAnisotropy;
  desc.mipmapFilterMode = texref.mipmapFilterMode;
  desc.mipmapLevelBias = texref.mipmapLevelBias;
  desc.minMipmapLevelClamp = texref.minMipmapLevelClamp;
  desc.maxMipmapLevelClamp = texref.maxMipmapLevelClamp;
  desc.disableTrilinearOptimization = texref.disableTrilinearOptimization;
  return desc;
}

/// Stores `object` in the device copy of `texref` and destroys the object
/// bound before. Kernels launched earlier read the reference when they run,
/// so they finish first: each keeps the binding of its launch, as in CUDA.
cudaError_t store(const textureReference *texref, cudaTextureObject_t object) {
  Bindings &all = bindings();
  std::lock_guard<std::mutex> lock(all.mutex);
  cudaTextureObject_t &bound = all.objects[texref];
  // The C entry point: cuda_runtime.h's template would take the address of
  // the pointer.
  cudaError_t error =
      ::cudaMemcpyToSymbol(static_cast<const void *>(texref), &object,
                           sizeof object, 0, cudaMemcpyHostToDevice);
  if (error != cudaSuccess) {
    if (object)
      cudaDestroyTextureObject(object);
    return error;
  }
  if (bound)
    cudaDestroyTextureObject(bound);
  bound = object;
  return cudaSuccess;
}

cudaError_t bind(const textureReference *texref,
                 const cudaResourceDesc &resource, const char *call) {
  SymbolInfo info;
  if (cudaError_t error = findReference(texref, &info, call))
    return error;
  if (cudaError_t error = cudaDeviceSynchronize())
    return error;
  cudaTextureDesc sampler = samplerOf(*texref, info);
  cudaTextureObject_t object = 0;
  if (cudaError_t error =
          cudaCreateTextureObject(&object, &resource, &sampler, nullptr))
    return error;
  return store(texref, object);
}

} // namespace

extern "C" cudaError_t cudaBindTexture(size_t *offset,
                                       const textureReference *texref,
                                       const void *devPtr,
                                       const cudaChannelFormatDesc *desc,
                                       size_t size) {
  const char *call = "cudaBindTexture";
  if (!desc)
    return reportError(cudaErrorInvalidChannelDescriptor, call,
                       "null channel descriptor");
  // CUDA's default size, UINT_MAX, means "the rest of the allocation"; a
  // texture of linear memory spans at most 2^27 texels on every GPU.
  // A descriptor TexelFormat refuses is reported when the object is made.
  std::string problem;
  if (std::optional<TexelFormat> format = TexelFormat::of(*desc, &problem);
      size == UINT_MAX && format)
    size = std::min(size, (size_t{1} << 27) * format->bytes);
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<void *>(devPtr);
  resource.res.linear.desc = *desc;
  resource.res.linear.sizeInBytes = size;
  // Textures bind at the address given, so reads need no offset.
  if (offset)
    *offset = 0;
  return bind(texref, resource, call);
}

extern "C" cudaError_t
cudaBindTexture2D(size_t *offset, const textureReference *texref,
                  const void *devPtr, const cudaChannelFormatDesc *desc,
                  size_t width, size_t height, size_t pitch) {
  const char *call = "cudaBindTexture2D";
  if (!desc)
    return reportError(cudaErrorInvalidChannelDescriptor, call,
                       "null channel descriptor");
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypePitch2D;
  resource.res.pitch2D.devPtr = const_cast<void *>(devPtr);
  resource.res.pitch2D.desc = *desc;
  resource.res.pitch2D.width = width;
  resource.res.pitch2D.height = height;
  resource.res.pitch2D.pitchInBytes = pitch;
  if (offset)
    *offset = 0;
  return bind(texref, resource, call);
}

extern "C" cudaError_t
cudaBindTextureToArray(const textureReference *texref, cudaArray_const_t array,
                       const cudaChannelFormatDesc *desc) {
  const char *call = "cudaBindTextureToArray";
  if (!array)
    return reportError(cudaErrorInvalidResourceHandle, call, "null array");
  // The array's own format decides how its texels read; CUDA checks only
  // that a descriptor is given.
  if (!desc)
    return reportError(cudaErrorInvalidChannelDescriptor, call,
                       "null channel descriptor");
  cudaResourceDesc resource = {};
  resource.resType = cudaResourceTypeArray;
  resource.res.array.array = const_cast<cudaArray_t>(array);
  return bind(texref, resource, call);
}

extern "C" cudaError_t cudaUnbindTexture(const textureReference *texref) {
  SymbolInfo info;
  if (cudaError_t error = findReference(texref, &info, "cudaUnbindTexture"))
    return error;
  if (cudaError_t error = cudaDeviceSynchronize())
    return error;
  return store(texref, 0);
}

extern "C" cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset, const textureReference *texref) {
  const char *call = "cudaGetTextureAlignmentOffset";
  SymbolInfo info;
  if (cudaError_t error = findReference(texref, &info, call))
    return error;
  if (!offset)
    return reportError(cudaErrorInvalidValue, call, "null offset");
  *offset = 0;
  return cudaSuccess;
}

extern "C" cudaError_t cudaGetTextureReference(const textureReference **texref,
                                               const void *symbol) {
  const char *call = "cudaGetTextureReference";
  if (!texref)
    return reportError(cudaErrorInvalidValue, call, "null texref");
  SymbolInfo info;
  if (cudaError_t error = findReference(
          static_cast<const textureReference *>(symbol), &info, call))
    return error;
  *texref = static_cast<const textureReference *>(symbol);
  return cudaSuccess;
}
