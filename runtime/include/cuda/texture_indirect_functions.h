//===- texture_indirect_functions.h - Texture and surface object functions ===//
//
// respec's counterpart of CUDA's texture_indirect_functions.h and
// surface_indirect_functions.h for builds without a toolkit: the
// texture-object fetches (tex1Dfetch, tex2D, ...) and surface-object reads
// and writes (surf2Dread, surf2Dwrite, ...), in terms of clang's
// __nv_tex_surf_handler (__clang_cuda_texture_intrinsics.h), which emits
// PTX tex/suld/sust; the CPU target translates those to calls of the
// respec runtime. Cubemaps, gathers and sparse textures are not offered.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_TEXTURE_INDIRECT_FUNCTIONS_H
#define RESPEC_TEXTURE_INDIRECT_FUNCTIONS_H

#if defined(__cplusplus) && defined(__CUDA__)

#include "cuda_runtime_api.h"
#include "vector_types.h"

#include <__clang_cuda_texture_intrinsics.h>

template <typename T> struct __nv_itex_trait {};

template <> struct __nv_itex_trait<char> { typedef void type; };
template <> struct __nv_itex_trait<signed char> { typedef void type; };
template <> struct __nv_itex_trait<char1> { typedef void type; };
template <> struct __nv_itex_trait<char2> { typedef void type; };
template <> struct __nv_itex_trait<char4> { typedef void type; };
template <> struct __nv_itex_trait<unsigned char> { typedef void type; };
template <> struct __nv_itex_trait<uchar1> { typedef void type; };
template <> struct __nv_itex_trait<uchar2> { typedef void type; };
template <> struct __nv_itex_trait<uchar4> { typedef void type; };
template <> struct __nv_itex_trait<short> { typedef void type; };
template <> struct __nv_itex_trait<short1> { typedef void type; };
template <> struct __nv_itex_trait<short2> { typedef void type; };
template <> struct __nv_itex_trait<short4> { typedef void type; };
template <> struct __nv_itex_trait<unsigned short> { typedef void type; };
template <> struct __nv_itex_trait<ushort1> { typedef void type; };
template <> struct __nv_itex_trait<ushort2> { typedef void type; };
template <> struct __nv_itex_trait<ushort4> { typedef void type; };
template <> struct __nv_itex_trait<int> { typedef void type; };
template <> struct __nv_itex_trait<int1> { typedef void type; };
template <> struct __nv_itex_trait<int2> { typedef void type; };
template <> struct __nv_itex_trait<int4> { typedef void type; };
template <> struct __nv_itex_trait<unsigned int> { typedef void type; };
template <> struct __nv_itex_trait<uint1> { typedef void type; };
template <> struct __nv_itex_trait<uint2> { typedef void type; };
template <> struct __nv_itex_trait<uint4> { typedef void type; };
template <> struct __nv_itex_trait<float> { typedef void type; };
template <> struct __nv_itex_trait<float1> { typedef void type; };
template <> struct __nv_itex_trait<float2> { typedef void type; };
template <> struct __nv_itex_trait<float4> { typedef void type; };

template <typename T> struct __nv_isurf_trait {};
template <> struct __nv_isurf_trait<char> { typedef void type; };
template <> struct __nv_isurf_trait<signed char> { typedef void type; };
template <> struct __nv_isurf_trait<char1> { typedef void type; };
template <> struct __nv_isurf_trait<char2> { typedef void type; };
template <> struct __nv_isurf_trait<char4> { typedef void type; };
template <> struct __nv_isurf_trait<unsigned char> { typedef void type; };
template <> struct __nv_isurf_trait<uchar1> { typedef void type; };
template <> struct __nv_isurf_trait<uchar2> { typedef void type; };
template <> struct __nv_isurf_trait<uchar4> { typedef void type; };
template <> struct __nv_isurf_trait<short> { typedef void type; };
template <> struct __nv_isurf_trait<short1> { typedef void type; };
template <> struct __nv_isurf_trait<short2> { typedef void type; };
template <> struct __nv_isurf_trait<short4> { typedef void type; };
template <> struct __nv_isurf_trait<unsigned short> { typedef void type; };
template <> struct __nv_isurf_trait<ushort1> { typedef void type; };
template <> struct __nv_isurf_trait<ushort2> { typedef void type; };
template <> struct __nv_isurf_trait<ushort4> { typedef void type; };
template <> struct __nv_isurf_trait<int> { typedef void type; };
template <> struct __nv_isurf_trait<int1> { typedef void type; };
template <> struct __nv_isurf_trait<int2> { typedef void type; };
template <> struct __nv_isurf_trait<int4> { typedef void type; };
template <> struct __nv_isurf_trait<unsigned int> { typedef void type; };
template <> struct __nv_isurf_trait<uint1> { typedef void type; };
template <> struct __nv_isurf_trait<uint2> { typedef void type; };
template <> struct __nv_isurf_trait<uint4> { typedef void type; };
template <> struct __nv_isurf_trait<float> { typedef void type; };
template <> struct __nv_isurf_trait<float1> { typedef void type; };
template <> struct __nv_isurf_trait<float2> { typedef void type; };
template <> struct __nv_isurf_trait<float4> { typedef void type; };
template <> struct __nv_isurf_trait<long long> { typedef void type; };
template <> struct __nv_isurf_trait<longlong1> { typedef void type; };
template <> struct __nv_isurf_trait<longlong2> { typedef void type; };
template <> struct __nv_isurf_trait<unsigned long long> { typedef void type; };
template <> struct __nv_isurf_trait<ulonglong1> { typedef void type; };
template <> struct __nv_isurf_trait<ulonglong2> { typedef void type; };

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1Dfetch(T *ptr, cudaTextureObject_t obj, int x) {
  __nv_tex_surf_handler("__itex1Dfetch", ptr, obj, x);
}
template <class T>
static __device__ T tex1Dfetch(cudaTextureObject_t texObject, int x) {
  T ret;
  tex1Dfetch(&ret, texObject, x);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1D(T *ptr, cudaTextureObject_t obj, float x) {
  __nv_tex_surf_handler("__itex1D", ptr, obj, x);
}
template <class T>
static __device__ T tex1D(cudaTextureObject_t texObject, float x) {
  T ret;
  tex1D(&ret, texObject, x);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex2D(T *ptr, cudaTextureObject_t obj, float x, float y) {
  __nv_tex_surf_handler("__itex2D", ptr, obj, x, y);
}
template <class T>
static __device__ T tex2D(cudaTextureObject_t texObject, float x, float y) {
  T ret;
  tex2D(&ret, texObject, x, y);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex3D(T *ptr, cudaTextureObject_t obj, float x, float y, float z) {
  __nv_tex_surf_handler("__itex3D", ptr, obj, x, y, z);
}
template <class T>
static __device__ T tex3D(cudaTextureObject_t texObject, float x, float y, float z) {
  T ret;
  tex3D(&ret, texObject, x, y, z);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1DLayered(T *ptr, cudaTextureObject_t obj, float x, int layer) {
  __nv_tex_surf_handler("__itex1DLayered", ptr, obj, x, layer);
}
template <class T>
static __device__ T tex1DLayered(cudaTextureObject_t texObject, float x, int layer) {
  T ret;
  tex1DLayered(&ret, texObject, x, layer);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex2DLayered(T *ptr, cudaTextureObject_t obj, float x, float y, int layer) {
  __nv_tex_surf_handler("__itex2DLayered", ptr, obj, x, y, layer);
}
template <class T>
static __device__ T tex2DLayered(cudaTextureObject_t texObject, float x, float y, int layer) {
  T ret;
  tex2DLayered(&ret, texObject, x, y, layer);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1DLod(T *ptr, cudaTextureObject_t obj, float x, float level) {
  __nv_tex_surf_handler("__itex1DLod", ptr, obj, x, level);
}
template <class T>
static __device__ T tex1DLod(cudaTextureObject_t texObject, float x, float level) {
  T ret;
  tex1DLod(&ret, texObject, x, level);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex2DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float level) {
  __nv_tex_surf_handler("__itex2DLod", ptr, obj, x, y, level);
}
template <class T>
static __device__ T tex2DLod(cudaTextureObject_t texObject, float x, float y, float level) {
  T ret;
  tex2DLod(&ret, texObject, x, y, level);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex3DLod(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float level) {
  __nv_tex_surf_handler("__itex3DLod", ptr, obj, x, y, z, level);
}
template <class T>
static __device__ T tex3DLod(cudaTextureObject_t texObject, float x, float y, float z, float level) {
  T ret;
  tex3DLod(&ret, texObject, x, y, z, level);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, int layer, float level) {
  __nv_tex_surf_handler("__itex1DLayeredLod", ptr, obj, x, layer, level);
}
template <class T>
static __device__ T tex1DLayeredLod(cudaTextureObject_t texObject, float x, int layer, float level) {
  T ret;
  tex1DLayeredLod(&ret, texObject, x, layer, level);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex2DLayeredLod(T *ptr, cudaTextureObject_t obj, float x, float y, int layer, float level) {
  __nv_tex_surf_handler("__itex2DLayeredLod", ptr, obj, x, y, layer, level);
}
template <class T>
static __device__ T tex2DLayeredLod(cudaTextureObject_t texObject, float x, float y, int layer, float level) {
  T ret;
  tex2DLayeredLod(&ret, texObject, x, y, layer, level);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex1DGrad(T *ptr, cudaTextureObject_t obj, float x, float dPdx, float dPdy) {
  __nv_tex_surf_handler("__itex1DGrad", ptr, obj, x, dPdx, dPdy);
}
template <class T>
static __device__ T tex1DGrad(cudaTextureObject_t texObject, float x, float dPdx, float dPdy) {
  T ret;
  tex1DGrad(&ret, texObject, x, dPdx, dPdy);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex2DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float2 dPdx, float2 dPdy) {
  __nv_tex_surf_handler("__itex2DGrad_v2", ptr, obj, x, y, &dPdx, &dPdy);
}
template <class T>
static __device__ T tex2DGrad(cudaTextureObject_t texObject, float x, float y, float2 dPdx, float2 dPdy) {
  T ret;
  tex2DGrad(&ret, texObject, x, y, dPdx, dPdy);
  return ret;
}

template <typename T>
static __device__ typename __nv_itex_trait<T>::type
tex3DGrad(T *ptr, cudaTextureObject_t obj, float x, float y, float z, float4 dPdx, float4 dPdy) {
  __nv_tex_surf_handler("__itex3DGrad_v2", ptr, obj, x, y, z, &dPdx, &dPdy);
}
template <class T>
static __device__ T tex3DGrad(cudaTextureObject_t texObject, float x, float y, float z, float4 dPdx, float4 dPdy) {
  T ret;
  tex3DGrad(&ret, texObject, x, y, z, dPdx, dPdy);
  return ret;
}

template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf1Dread(T *ptr, cudaSurfaceObject_t obj, int x,
          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf1Dread", ptr, obj, x, mode);
}
template <class T>
static __device__ T surf1Dread(cudaSurfaceObject_t surfObject, int x,
                    cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap) {
  T ret;
  surf1Dread(&ret, surfObject, x, boundaryMode);
  return ret;
}
template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf1Dwrite(T val, cudaSurfaceObject_t obj, int x,
           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf1Dwrite_v2", &val, obj, x, mode);
}

template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf2Dread(T *ptr, cudaSurfaceObject_t obj, int x, int y,
          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf2Dread", ptr, obj, x, y, mode);
}
template <class T>
static __device__ T surf2Dread(cudaSurfaceObject_t surfObject, int x, int y,
                    cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap) {
  T ret;
  surf2Dread(&ret, surfObject, x, y, boundaryMode);
  return ret;
}
template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf2Dwrite(T val, cudaSurfaceObject_t obj, int x, int y,
           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf2Dwrite_v2", &val, obj, x, y, mode);
}

template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf3Dread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int z,
          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf3Dread", ptr, obj, x, y, z, mode);
}
template <class T>
static __device__ T surf3Dread(cudaSurfaceObject_t surfObject, int x, int y, int z,
                    cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap) {
  T ret;
  surf3Dread(&ret, surfObject, x, y, z, boundaryMode);
  return ret;
}
template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf3Dwrite(T val, cudaSurfaceObject_t obj, int x, int y, int z,
           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf3Dwrite_v2", &val, obj, x, y, z, mode);
}

template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf1DLayeredread(T *ptr, cudaSurfaceObject_t obj, int x, int layer,
          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf1DLayeredread", ptr, obj, x, layer, mode);
}
template <class T>
static __device__ T surf1DLayeredread(cudaSurfaceObject_t surfObject, int x, int layer,
                    cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap) {
  T ret;
  surf1DLayeredread(&ret, surfObject, x, layer, boundaryMode);
  return ret;
}
template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf1DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int layer,
           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf1DLayeredwrite_v2", &val, obj, x, layer, mode);
}

template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf2DLayeredread(T *ptr, cudaSurfaceObject_t obj, int x, int y, int layer,
          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf2DLayeredread", ptr, obj, x, y, layer, mode);
}
template <class T>
static __device__ T surf2DLayeredread(cudaSurfaceObject_t surfObject, int x, int y, int layer,
                    cudaSurfaceBoundaryMode boundaryMode = cudaBoundaryModeTrap) {
  T ret;
  surf2DLayeredread(&ret, surfObject, x, y, layer, boundaryMode);
  return ret;
}
template <typename T>
static __device__ typename __nv_isurf_trait<T>::type
surf2DLayeredwrite(T val, cudaSurfaceObject_t obj, int x, int y, int layer,
           cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __nv_tex_surf_handler("__isurf2DLayeredwrite_v2", &val, obj, x, y, layer, mode);
}

#endif // __cplusplus && __CUDA__

#endif // RESPEC_TEXTURE_INDIRECT_FUNCTIONS_H
