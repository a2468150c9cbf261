//===- __respec_device_extras.h - Device functions clang lacks -*- C++ -*-===//
//
// CUDA declares these device functions in toolkit headers that clang's
// CUDA wrapper headers leave out (sm_32_intrinsics.h, the part of
// device_functions.h clang replaces with __clang_cuda_device_functions.h),
// so programs using them failed with "use of undeclared identifier". The
// driver force-includes this header after the toolkit's headers;
// respec's own prelude includes it. It also holds the host versions of
// CUDA's min and max, which nvcc provides and clang does not.
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

// nvcc declares CUDA's integer and mixed-type min and max (math_functions.h)
// for host code as well, where programs size their grids with them
// (`int blocks = min(32, (n + 255) / 256);`); clang's CUDA headers define
// them for device code only. These are the host overloads, with CUDA's
// conversions: a signed and an unsigned operand compare as unsigned, a
// float and a double as doubles.
#define __RESPEC_HOST_MIN_MAX(__type, __name, __pick)                          \
  static __inline__ __host__ __type __name(__type __a, __type __b) {           \
    return __pick;                                                             \
  }
#define __RESPEC_HOST_MIN_MAX_PAIR(__type, __min, __max)                       \
  __RESPEC_HOST_MIN_MAX(__type, __min, __a < __b ? __a : __b)                  \
  __RESPEC_HOST_MIN_MAX(__type, __max, __a < __b ? __b : __a)
__RESPEC_HOST_MIN_MAX_PAIR(int, min, max)
__RESPEC_HOST_MIN_MAX_PAIR(unsigned int, umin, umax)
__RESPEC_HOST_MIN_MAX_PAIR(long long int, llmin, llmax)
__RESPEC_HOST_MIN_MAX_PAIR(unsigned long long int, ullmin, ullmax)
__RESPEC_HOST_MIN_MAX_PAIR(unsigned int, min, max)
__RESPEC_HOST_MIN_MAX_PAIR(long int, min, max)
__RESPEC_HOST_MIN_MAX_PAIR(unsigned long int, min, max)
__RESPEC_HOST_MIN_MAX_PAIR(long long int, min, max)
__RESPEC_HOST_MIN_MAX_PAIR(unsigned long long int, min, max)
#undef __RESPEC_HOST_MIN_MAX_PAIR
#undef __RESPEC_HOST_MIN_MAX

#define __RESPEC_HOST_MIXED_MIN_MAX(__result, __first, __second)               \
  static __inline__ __host__ __result min(__first __a, __second __b) {         \
    return min(static_cast<__result>(__a), static_cast<__result>(__b));        \
  }                                                                            \
  static __inline__ __host__ __result max(__first __a, __second __b) {         \
    return max(static_cast<__result>(__a), static_cast<__result>(__b));        \
  }
__RESPEC_HOST_MIXED_MIN_MAX(unsigned int, int, unsigned int)
__RESPEC_HOST_MIXED_MIN_MAX(unsigned int, unsigned int, int)
__RESPEC_HOST_MIXED_MIN_MAX(unsigned long int, long int, unsigned long int)
__RESPEC_HOST_MIXED_MIN_MAX(unsigned long int, unsigned long int, long int)
__RESPEC_HOST_MIXED_MIN_MAX(unsigned long long int, long long int,
                            unsigned long long int)
__RESPEC_HOST_MIXED_MIN_MAX(unsigned long long int, unsigned long long int,
                            long long int)
#undef __RESPEC_HOST_MIXED_MIN_MAX

// Floating-point min and max are fmin and fmax: a NaN operand yields the
// other one.
static __inline__ __host__ float min(float __a, float __b) {
  return __builtin_fminf(__a, __b);
}
static __inline__ __host__ float max(float __a, float __b) {
  return __builtin_fmaxf(__a, __b);
}
static __inline__ __host__ double min(double __a, double __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ double max(double __a, double __b) {
  return __builtin_fmax(__a, __b);
}
static __inline__ __host__ double min(float __a, double __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ double max(float __a, double __b) {
  return __builtin_fmax(__a, __b);
}
static __inline__ __host__ double min(double __a, float __b) {
  return __builtin_fmin(__a, __b);
}
static __inline__ __host__ double max(double __a, float __b) {
  return __builtin_fmax(__a, __b);
}

#endif // __CUDA__ && __clang__

#endif // RESPEC_DEVICE_EXTRAS_H
