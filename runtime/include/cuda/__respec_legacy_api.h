//===- __respec_legacy_api.h - Runtime API CUDA 12/13 removed -*- C++ -*-===//
//
// Programs written for CUDA 11 and older (most published benchmark suites
// among them) call runtime functions that later toolkits removed:
// cudaThreadSynchronize & co. (removed in CUDA 13), texture references
// (texture<>, cudaBindTexture, tex1Dfetch on a texture<>; removed in CUDA
// 12), and the CUDA 12 forms of cudaMemPrefetchAsync/cudaMemAdvise (a device
// number where CUDA 13 takes a cudaMemLocation). With the toolkit's CUDA 13
// headers such programs fail to compile. The driver force-includes this
// header after the toolkit's headers and respec's own prelude includes it,
// so they compile unchanged; the respec runtimes implement the functions
// (runtime/common/LegacyApi.cpp, runtime/common/TextureReferences.cpp).
//
// A texture reference is a device variable holding a texture object: the
// device compile turns clang's texture handle of the variable into a load of
// it (lib/Frontend/TextureReferences.cpp), cudaBindTexture creates a texture
// object from the reference's settings and stores it there, and the fetch
// functions below read through it with the texture-object functions.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_LEGACY_API_H
#define RESPEC_LEGACY_API_H

// No includes: this header comes after the runtime API's declarations
// (the toolkit's or respec's own), and the include path of a force-included
// header would find respec's own next to it.

#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value);
cudaError_t cudaThreadGetLimit(size_t *pValue, enum cudaLimit limit);
cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *pCacheConfig);
cudaError_t cudaSetDoubleForDevice(double *d);
cudaError_t cudaSetDoubleForHost(double *d);
#ifdef __cplusplus
}

// CUDA 12's forms, which name the device by number (cudaCpuDeviceId for the
// host).
static inline cudaMemLocation __respec_mem_location(int device) {
  cudaMemLocation location;
  location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                            : cudaMemLocationTypeDevice;
  location.id = device;
  return location;
}
static inline cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                               int dstDevice,
                                               cudaStream_t stream = 0) {
  return cudaMemPrefetchAsync(devPtr, count, __respec_mem_location(dstDevice),
                              0, stream);
}
static inline cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                        enum cudaMemoryAdvise advice,
                                        int device) {
  return cudaMemAdvise(devPtr, count, advice, __respec_mem_location(device));
}

// CUDA 12's form, before edge data.
static inline cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
                                                   const cudaGraphNode_t *from,
                                                   const cudaGraphNode_t *to,
                                                   size_t numDependencies) {
  return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);
}
#endif // __cplusplus
#endif // CUDART_VERSION >= 13000


#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000

#ifndef cudaTextureType1D
#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC
#endif

/// CUDA 11's texture reference: the sampler settings of a texture<>
/// variable, which host code sets before binding memory to it.
struct textureReference {
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int __cudaReserved[14];
};

#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaBindTexture(size_t *offset,
                            const struct textureReference *texref,
                            const void *devPtr,
                            const struct cudaChannelFormatDesc *desc,
                            size_t size);
cudaError_t cudaBindTexture2D(size_t *offset,
                              const struct textureReference *texref,
                              const void *devPtr,
                              const struct cudaChannelFormatDesc *desc,
                              size_t width, size_t height, size_t pitch);
cudaError_t cudaBindTextureToArray(const struct textureReference *texref,
                                   cudaArray_const_t array,
                                   const struct cudaChannelFormatDesc *desc);
cudaError_t cudaUnbindTexture(const struct textureReference *texref);
cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset,
                              const struct textureReference *texref);
cudaError_t cudaGetTextureReference(const struct textureReference **texref,
                                    const void *symbol);
#ifdef __cplusplus
}
#endif

#if defined(__cplusplus) && defined(__CUDA__) && defined(__clang__)

/// clang makes a variable of this type a device variable even without
/// __device__ (as nvcc did), registers it with __cudaRegisterTexture and
/// passes it to device functions as a 64-bit handle.
template <class T, int texType = cudaTextureType1D,
          enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture
    : public textureReference {
  __host__ texture(int norm = 0,
                   enum cudaTextureFilterMode fMode = cudaFilterModePoint,
                   enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
    setUp(norm, fMode, aMode, cudaCreateChannelDesc<T>());
  }
  __host__ texture(int norm, enum cudaTextureFilterMode fMode,
                   enum cudaTextureAddressMode aMode,
                   struct cudaChannelFormatDesc desc) {
    setUp(norm, fMode, aMode, desc);
  }

private:
  __host__ void setUp(int norm, enum cudaTextureFilterMode fMode,
                      enum cudaTextureAddressMode aMode,
                      struct cudaChannelFormatDesc desc) {
    normalized = norm;
    filterMode = fMode;
    addressMode[0] = addressMode[1] = addressMode[2] = aMode;
    channelDesc = desc;
    sRGB = 0;
    maxAnisotropy = 0;
    mipmapFilterMode = cudaFilterModePoint;
    mipmapLevelBias = 0;
    minMipmapLevelClamp = 0;
    maxMipmapLevelClamp = 0;
    disableTrilinearOptimization = 0;
    for (int i = 0; i < 14; ++i)
      __cudaReserved[i] = 0;
  }
};

template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                const void *devPtr, const struct cudaChannelFormatDesc &desc,
                size_t size = UINT_MAX) {
  return cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTexture(size_t *offset, const struct texture<T, dim, readMode> &tex,
                const void *devPtr, size_t size = UINT_MAX) {
  return cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, const struct cudaChannelFormatDesc &desc,
                  size_t width, size_t height, size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTexture2D(size_t *offset, const struct texture<T, dim, readMode> &tex,
                  const void *devPtr, size_t width, size_t height,
                  size_t pitch) {
  return cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width,
                           height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                       cudaArray_const_t array,
                       const struct cudaChannelFormatDesc &desc) {
  return cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaBindTextureToArray(const struct texture<T, dim, readMode> &tex,
                       cudaArray_const_t array) {
  struct cudaChannelFormatDesc desc;
  cudaError_t error = cudaGetChannelDesc(&desc, array);
  return error == cudaSuccess ? cudaBindTextureToArray(&tex, array, &desc)
                              : error;
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaUnbindTexture(const struct texture<T, dim, readMode> &tex) {
  return cudaUnbindTexture(&tex);
}
template <class T, int dim, enum cudaTextureReadMode readMode>
static inline cudaError_t
cudaGetTextureAlignmentOffset(size_t *offset,
                              const struct texture<T, dim, readMode> &tex) {
  return cudaGetTextureAlignmentOffset(offset, &tex);
}

/// What a fetch through a texture<T, dim, mode> returns: T itself, or for
/// cudaReadModeNormalizedFloat (8- and 16-bit integer texels) a float
/// vector of T's width.
template <class T, enum cudaTextureReadMode mode>
struct __respec_texref_value {
  typedef T type;
};
#define __RESPEC_NORMALIZED_TEXEL(T, R)                                        \
  template <> struct __respec_texref_value<T, cudaReadModeNormalizedFloat> {   \
    typedef R type;                                                            \
  };
#define __RESPEC_NORMALIZED_TEXELS(S, V)                                       \
  __RESPEC_NORMALIZED_TEXEL(S, float)                                          \
  __RESPEC_NORMALIZED_TEXEL(V##1, float1)                                      \
  __RESPEC_NORMALIZED_TEXEL(V##2, float2)                                      \
  __RESPEC_NORMALIZED_TEXEL(V##4, float4)
__RESPEC_NORMALIZED_TEXEL(char, float)
__RESPEC_NORMALIZED_TEXELS(signed char, char)
__RESPEC_NORMALIZED_TEXELS(unsigned char, uchar)
__RESPEC_NORMALIZED_TEXELS(short, short)
__RESPEC_NORMALIZED_TEXELS(unsigned short, ushort)
#undef __RESPEC_NORMALIZED_TEXELS
#undef __RESPEC_NORMALIZED_TEXEL

/// The texture object a texture reference holds. clang passes the reference
/// as its 64-bit handle, which is the object (see the file comment).
template <class T, int dim, enum cudaTextureReadMode mode>
static __device__ __inline__ cudaTextureObject_t
__respec_texref_object(texture<T, dim, mode> tex) {
  cudaTextureObject_t object;
  asm("mov.b64 %0, %1;" : "=l"(object) : "l"(tex));
  return object;
}

#define __RESPEC_TEXREF_FETCH(NAME, DIM, PARAMS, ARGS)                         \
  template <class T, enum cudaTextureReadMode mode>                            \
  static __device__ __inline__ typename __respec_texref_value<T, mode>::type   \
  NAME(texture<T, DIM, mode> tex, PARAMS) {                                    \
    return NAME<typename __respec_texref_value<T, mode>::type>(                \
        __respec_texref_object(tex), ARGS);                                    \
  }
#define __RESPEC_COMMA ,
__RESPEC_TEXREF_FETCH(tex1Dfetch, cudaTextureType1D, int x, x)
__RESPEC_TEXREF_FETCH(tex1D, cudaTextureType1D, float x, x)
__RESPEC_TEXREF_FETCH(tex2D, cudaTextureType2D, float x __RESPEC_COMMA float y,
                      x __RESPEC_COMMA y)
__RESPEC_TEXREF_FETCH(tex3D, cudaTextureType3D,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA float z,
                      x __RESPEC_COMMA y __RESPEC_COMMA z)
__RESPEC_TEXREF_FETCH(tex1DLayered, cudaTextureType1DLayered,
                      float x __RESPEC_COMMA int layer, x __RESPEC_COMMA layer)
__RESPEC_TEXREF_FETCH(tex2DLayered, cudaTextureType2DLayered,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA int layer,
                      x __RESPEC_COMMA y __RESPEC_COMMA layer)
__RESPEC_TEXREF_FETCH(tex1DLod, cudaTextureType1D,
                      float x __RESPEC_COMMA float level,
                      x __RESPEC_COMMA level)
__RESPEC_TEXREF_FETCH(tex2DLod, cudaTextureType2D,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA float level,
                      x __RESPEC_COMMA y __RESPEC_COMMA level)
__RESPEC_TEXREF_FETCH(tex3DLod, cudaTextureType3D,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA float z
                          __RESPEC_COMMA float level,
                      x __RESPEC_COMMA y __RESPEC_COMMA z __RESPEC_COMMA level)
__RESPEC_TEXREF_FETCH(tex1DLayeredLod, cudaTextureType1DLayered,
                      float x __RESPEC_COMMA int layer __RESPEC_COMMA float level,
                      x __RESPEC_COMMA layer __RESPEC_COMMA level)
__RESPEC_TEXREF_FETCH(tex2DLayeredLod, cudaTextureType2DLayered,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA int layer
                          __RESPEC_COMMA float level,
                      x __RESPEC_COMMA y __RESPEC_COMMA layer __RESPEC_COMMA level)
__RESPEC_TEXREF_FETCH(tex1DGrad, cudaTextureType1D,
                      float x __RESPEC_COMMA float dPdx __RESPEC_COMMA float dPdy,
                      x __RESPEC_COMMA dPdx __RESPEC_COMMA dPdy)
__RESPEC_TEXREF_FETCH(tex2DGrad, cudaTextureType2D,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA float2 dPdx
                          __RESPEC_COMMA float2 dPdy,
                      x __RESPEC_COMMA y __RESPEC_COMMA dPdx __RESPEC_COMMA dPdy)
__RESPEC_TEXREF_FETCH(tex3DGrad, cudaTextureType3D,
                      float x __RESPEC_COMMA float y __RESPEC_COMMA float z
                          __RESPEC_COMMA float4 dPdx __RESPEC_COMMA float4 dPdy,
                      x __RESPEC_COMMA y __RESPEC_COMMA z __RESPEC_COMMA dPdx
                          __RESPEC_COMMA dPdy)
#undef __RESPEC_COMMA
#undef __RESPEC_TEXREF_FETCH

#endif // __cplusplus && __CUDA__ && __clang__
#endif // CUDART_VERSION >= 12000

#endif // RESPEC_LEGACY_API_H
