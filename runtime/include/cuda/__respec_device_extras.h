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
//
// clang's headers define min(int, int), umin, llmin and ullmin (and their
// max) for device code with either set of headers: those get host versions
// here. The other overloads (unsigned, long, mixed signedness, float and
// double) come from the toolkit's math_functions.hpp for device code, so
// they are host-only here too, unless respec's own headers (which have no
// such file) ask for both sides by defining __RESPEC_MIN_MAX_TARGET.
#ifndef __RESPEC_MIN_MAX_TARGET
#define __RESPEC_MIN_MAX_TARGET __host__
#endif
#define __RESPEC_MIN_MAX(__target, __result, __first, __second, __min, __max)  \
  static __inline__ __target __result __min(__first __a, __second __b) {       \
    return static_cast<__result>(__a) < static_cast<__result>(__b)             \
               ? static_cast<__result>(__a)                                    \
               : static_cast<__result>(__b);                                   \
  }                                                                            \
  static __inline__ __target __result __max(__first __a, __second __b) {       \
    return static_cast<__result>(__a) < static_cast<__result>(__b)             \
               ? static_cast<__result>(__b)                                    \
               : static_cast<__result>(__a);                                   \
  }
__RESPEC_MIN_MAX(__host__, int, int, int, min, max)
__RESPEC_MIN_MAX(__host__, unsigned int, unsigned int, unsigned int, umin, umax)
__RESPEC_MIN_MAX(__host__, long long int, long long int, long long int, llmin,
                 llmax)
__RESPEC_MIN_MAX(__host__, unsigned long long int, unsigned long long int,
                 unsigned long long int, ullmin, ullmax)
#define __RESPEC_OVERLOADED_MIN_MAX(__result, __first, __second)               \
  __RESPEC_MIN_MAX(__RESPEC_MIN_MAX_TARGET, __result, __first, __second, min,  \
                   max)
__RESPEC_OVERLOADED_MIN_MAX(unsigned int, unsigned int, unsigned int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned int, int, unsigned int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned int, unsigned int, int)
__RESPEC_OVERLOADED_MIN_MAX(long int, long int, long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long int, unsigned long int,
                            unsigned long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long int, long int, unsigned long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long int, unsigned long int, long int)
__RESPEC_OVERLOADED_MIN_MAX(long long int, long long int, long long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long long int, unsigned long long int,
                            unsigned long long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long long int, long long int,
                            unsigned long long int)
__RESPEC_OVERLOADED_MIN_MAX(unsigned long long int, unsigned long long int,
                            long long int)
#undef __RESPEC_OVERLOADED_MIN_MAX
#undef __RESPEC_MIN_MAX

// Floating-point min and max are fmin and fmax: a NaN operand yields the
// other one.
#define __RESPEC_FLOAT_MIN_MAX(__result, __first, __second, __fmin, __fmax)    \
  static __inline__ __RESPEC_MIN_MAX_TARGET __result min(__first __a,          \
                                                         __second __b) {       \
    return __fmin(__a, __b);                                                   \
  }                                                                            \
  static __inline__ __RESPEC_MIN_MAX_TARGET __result max(__first __a,          \
                                                         __second __b) {       \
    return __fmax(__a, __b);                                                   \
  }
__RESPEC_FLOAT_MIN_MAX(float, float, float, __builtin_fminf, __builtin_fmaxf)
__RESPEC_FLOAT_MIN_MAX(double, double, double, __builtin_fmin, __builtin_fmax)
__RESPEC_FLOAT_MIN_MAX(double, float, double, __builtin_fmin, __builtin_fmax)
__RESPEC_FLOAT_MIN_MAX(double, double, float, __builtin_fmin, __builtin_fmax)
#undef __RESPEC_FLOAT_MIN_MAX

#endif // __CUDA__ && __clang__

#endif // RESPEC_DEVICE_EXTRAS_H
