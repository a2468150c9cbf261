//===- __respec_cuda_prelude.h - Force-included in every CUDA compilation -===//
//
// respec's counterpart of clang's __clang_cuda_runtime_wrapper.h for builds
// without a CUDA toolkit (-nocudainc): the driver passes
// `-include __respec_cuda_prelude.h`. It makes visible what nvcc makes visible
// implicitly (cuda_runtime.h, threadIdx & co., device math, atomics, printf,
// assert) by combining respec's own runtime headers with clang's CUDA
// resource headers, which declare device functions in terms of libdevice's
// __nv_* functions (implemented for the CPU by the respec runtime).
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_CUDA_PRELUDE_H
#define RESPEC_CUDA_PRELUDE_H

#if defined(__CUDA__) && defined(__clang__)

// clang's forward declarations of the math functions must precede <cmath> so
// that the device overloads below join the standard library's overload sets.
#include <__clang_cuda_math_forward_declares.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <stdlib.h>
#include <string.h>

#ifndef __CUDACC__
#define __CUDACC__
#endif

#include "cuda_runtime.h"

#include <__clang_cuda_builtin_vars.h>
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>

#pragma push_macro("__RESPEC_ATOMIC")
#define __RESPEC_ATOMIC static __inline__ __device__ __attribute__((always_inline))

//===----------------------------------------------------------------------===//
// Atomics (CUDA's device_atomic_functions.h, sm_60 and sm_32 additions),
// expressed with the helpers of __clang_cuda_device_functions.h.
//===----------------------------------------------------------------------===//

__RESPEC_ATOMIC int atomicAdd(int *p, int v) { return __iAtomicAdd(p, v); }
__RESPEC_ATOMIC unsigned int atomicAdd(unsigned int *p, unsigned int v) {
  return __uAtomicAdd(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicAdd(unsigned long long *p,
                                             unsigned long long v) {
  return __ullAtomicAdd(p, v);
}
__RESPEC_ATOMIC float atomicAdd(float *p, float v) { return __fAtomicAdd(p, v); }
__RESPEC_ATOMIC double atomicAdd(double *p, double v) {
  return __dAtomicAdd(p, v);
}

__RESPEC_ATOMIC int atomicSub(int *p, int v) { return __iAtomicAdd(p, -v); }
__RESPEC_ATOMIC unsigned int atomicSub(unsigned int *p, unsigned int v) {
  return __uAtomicAdd(p, (unsigned int)-v);
}

__RESPEC_ATOMIC int atomicExch(int *p, int v) { return __iAtomicExch(p, v); }
__RESPEC_ATOMIC unsigned int atomicExch(unsigned int *p, unsigned int v) {
  return __uAtomicExch(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicExch(unsigned long long *p,
                                              unsigned long long v) {
  return __ullAtomicExch(p, v);
}
__RESPEC_ATOMIC float atomicExch(float *p, float v) {
  return __fAtomicExch(p, v);
}

__RESPEC_ATOMIC int atomicMin(int *p, int v) { return __iAtomicMin(p, v); }
__RESPEC_ATOMIC unsigned int atomicMin(unsigned int *p, unsigned int v) {
  return __uAtomicMin(p, v);
}
__RESPEC_ATOMIC long long atomicMin(long long *p, long long v) {
  return __illAtomicMin(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicMin(unsigned long long *p,
                                             unsigned long long v) {
  return __ullAtomicMin(p, v);
}

__RESPEC_ATOMIC int atomicMax(int *p, int v) { return __iAtomicMax(p, v); }
__RESPEC_ATOMIC unsigned int atomicMax(unsigned int *p, unsigned int v) {
  return __uAtomicMax(p, v);
}
__RESPEC_ATOMIC long long atomicMax(long long *p, long long v) {
  return __illAtomicMax(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicMax(unsigned long long *p,
                                             unsigned long long v) {
  return __ullAtomicMax(p, v);
}

__RESPEC_ATOMIC unsigned int atomicInc(unsigned int *p, unsigned int v) {
  return __uAtomicInc(p, v);
}
__RESPEC_ATOMIC unsigned int atomicDec(unsigned int *p, unsigned int v) {
  return __uAtomicDec(p, v);
}

__RESPEC_ATOMIC int atomicCAS(int *p, int compare, int v) {
  return __iAtomicCAS(p, compare, v);
}
__RESPEC_ATOMIC unsigned int atomicCAS(unsigned int *p, unsigned int compare,
                                       unsigned int v) {
  return __uAtomicCAS(p, compare, v);
}
__RESPEC_ATOMIC unsigned long long atomicCAS(unsigned long long *p,
                                             unsigned long long compare,
                                             unsigned long long v) {
  return __ullAtomicCAS(p, compare, v);
}

__RESPEC_ATOMIC int atomicAnd(int *p, int v) { return __iAtomicAnd(p, v); }
__RESPEC_ATOMIC unsigned int atomicAnd(unsigned int *p, unsigned int v) {
  return __uAtomicAnd(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicAnd(unsigned long long *p,
                                             unsigned long long v) {
  return __ullAtomicAnd(p, v);
}
__RESPEC_ATOMIC int atomicOr(int *p, int v) { return __iAtomicOr(p, v); }
__RESPEC_ATOMIC unsigned int atomicOr(unsigned int *p, unsigned int v) {
  return __uAtomicOr(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicOr(unsigned long long *p,
                                            unsigned long long v) {
  return __ullAtomicOr(p, v);
}
__RESPEC_ATOMIC int atomicXor(int *p, int v) { return __iAtomicXor(p, v); }
__RESPEC_ATOMIC unsigned int atomicXor(unsigned int *p, unsigned int v) {
  return __uAtomicXor(p, v);
}
__RESPEC_ATOMIC unsigned long long atomicXor(unsigned long long *p,
                                             unsigned long long v) {
  return __ullAtomicXor(p, v);
}

#pragma pop_macro("__RESPEC_ATOMIC")

//===----------------------------------------------------------------------===//
// printf, malloc and assert on the device (same declarations as clang's
// wrapper: the compiler maps vprintf and __assertfail to the runtime's
// __respec_vprintf and __respec_assertfail).
//===----------------------------------------------------------------------===//

extern "C" {
__device__ int vprintf(const char *, const char *);
__device__ void free(void *) __attribute__((nothrow));
__device__ void *malloc(size_t) __attribute__((nothrow))
__attribute__((malloc));
__device__ void __assertfail(const char *__message, const char *__file,
                             unsigned __line, const char *__function,
                             size_t __charSize);
// glibc's assert() expands to __assert_fail; this is its device overload.
__device__ static inline void __assert_fail(const char *__message,
                                            const char *__file,
                                            unsigned __line,
                                            const char *__function) {
  __assertfail(__message, __file, __line, __function, sizeof(char));
}
__device__ int printf(const char *, ...);
} // extern "C"

namespace std {
__device__ static inline void free(void *__ptr) { ::free(__ptr); }
__device__ static inline void *malloc(size_t __size) {
  return ::malloc(__size);
}
} // namespace std

//===----------------------------------------------------------------------===//
// Conversions of the built-in index variables (declared, not defined, by
// __clang_cuda_builtin_vars.h because they need dim3 and uint3).
//===----------------------------------------------------------------------===//

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}

//===----------------------------------------------------------------------===//
// Address-space queries and conversions that __clang_cuda_intrinsics.h uses
// (CUDA's sm_20_intrinsics.h, and cuda.h for cuuint32_t).
//===----------------------------------------------------------------------===//

typedef unsigned int cuuint32_t;

static __device__ __forceinline__ unsigned int __isGlobal(const void *__p) {
  return __nvvm_isspacep_global(__p);
}
static __device__ __forceinline__ unsigned int __isShared(const void *__p) {
  return __nvvm_isspacep_shared(__p);
}
static __device__ __forceinline__ unsigned int __isConstant(const void *__p) {
  return __nvvm_isspacep_const(__p);
}
static __device__ __forceinline__ unsigned int __isLocal(const void *__p) {
  return __nvvm_isspacep_local(__p);
}
static __device__ __forceinline__ size_t
__cvta_generic_to_shared(const void *__p) {
  return (size_t)(void __attribute__((address_space(3))) *)__p;
}
static __device__ __forceinline__ size_t
__cvta_generic_to_global(const void *__p) {
  return (size_t)(void __attribute__((address_space(1))) *)__p;
}

#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>
#include <__clang_cuda_complex_builtins.h>
// Texture and surface objects (after the vector types and the runtime API's
// handle types, as in clang's wrapper).
// CUDA's min and max overloads beyond clang's, for host and device code
// (the toolkit's headers define the device side themselves).
#define __RESPEC_MIN_MAX_TARGET __host__ __device__
#include "__respec_device_extras.h"
#include "texture_indirect_functions.h"
// Runtime functions CUDA 12 and 13 removed, texture references among them
// (after the texture-object functions they use).
#include "__respec_legacy_api.h"

//===----------------------------------------------------------------------===//
// Host versions of CUDA-only math functions, which CUDA's headers make
// callable from __host__ __device__ code.
//===----------------------------------------------------------------------===//

static inline __host__ float rsqrtf(float __a) { return 1.0f / ::sqrtf(__a); }
static inline __host__ double rsqrt(double __a) { return 1.0 / ::sqrt(__a); }
static inline __host__ float rcbrtf(float __a) { return 1.0f / ::cbrtf(__a); }
static inline __host__ double rcbrt(double __a) { return 1.0 / ::cbrt(__a); }
static inline __host__ float sinpif(float __a) {
  return (float)::sin(M_PI * (double)__a);
}
static inline __host__ float cospif(float __a) {
  return (float)::cos(M_PI * (double)__a);
}
static inline __host__ double sinpi(double __a) { return ::sin(M_PI * __a); }
static inline __host__ double cospi(double __a) { return ::cos(M_PI * __a); }
static inline __host__ float normcdff(float __a) {
  return 0.5f * ::erfcf(-__a * (float)M_SQRT1_2);
}
static inline __host__ double normcdf(double __a) {
  return 0.5 * ::erfc(-__a * M_SQRT1_2);
}

//===----------------------------------------------------------------------===//
// Programmatic dependent launch (CUDA's device runtime API, sm_90): the PTX
// CUDA's headers use, which respec translates for the CPU.
//===----------------------------------------------------------------------===//

static __inline__ __device__ void cudaGridDependencySynchronize(void) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}
static __inline__ __device__ void
cudaTriggerProgrammaticLaunchCompletion(void) {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

#endif // __CUDA__ && __clang__
#endif // RESPEC_CUDA_PRELUDE_H
