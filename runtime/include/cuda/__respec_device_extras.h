//===- __respec_device_extras.h - Device functions clang lacks -*- C++ -*-===//
//
// CUDA declares these device functions in toolkit headers that clang's
// CUDA wrapper headers leave out (sm_32_intrinsics.h, the part of
// device_functions.h clang replaces with __clang_cuda_device_functions.h),
// so programs using them failed with "use of undeclared identifier". The
// driver force-includes this header after the toolkit's headers;
// respec's own prelude includes it.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_DEVICE_EXTRAS_H
#define RESPEC_DEVICE_EXTRAS_H

#if defined(__CUDA__) && defined(__clang__)

template <typename T> struct __respec_same_type { typedef T type; };

// Loads and stores with cache hints (sm_32_intrinsics.h) that clang's
// __clang_cuda_intrinsics.h does not define; it has __ldg, __ldcg, __ldcs,
// __ldcv and __stwt. A hint only tells a GPU's caches how long to keep the
// line, so these are plain loads and stores, on the CPU and on GPUs alike
// (the __half and __nv_bfloat16 overloads of cuda_fp16.h and cuda_bf16.h
// keep their hints). The stored value converts to the pointer's type, as
// with CUDA's overloads.
template <typename T> static __inline__ __device__ T __ldca(const T *__ptr) {
  return *__ptr;
}
template <typename T> static __inline__ __device__ T __ldlu(const T *__ptr) {
  return *__ptr;
}
template <typename T>
static __inline__ __device__ void
__stcg(T *__ptr, typename __respec_same_type<T>::type __value) {
  *__ptr = __value;
}
template <typename T>
static __inline__ __device__ void
__stcs(T *__ptr, typename __respec_same_type<T>::type __value) {
  *__ptr = __value;
}
template <typename T>
static __inline__ __device__ void
__stwb(T *__ptr, typename __respec_same_type<T>::type __value) {
  *__ptr = __value;
}

// The fast hyperbolic tangent (device_functions.h; `tanh.approx.f32` on
// sm_75 and later, whose maximum relative error is about 2^-11): tanhf
// itself, which is at least as accurate.
static __inline__ __device__ float __tanhf(float __x) { return tanhf(__x); }

#endif // __CUDA__ && __clang__

#endif // RESPEC_DEVICE_EXTRAS_H
