//===- host_defines.h - CUDA declaration specifiers for respec ------------===//
//
// The execution-space and storage macros (__global__, __device__, ...) that
// CUDA sources use. Under clang's CUDA mode they map to clang's attributes; in
// plain C++ (the runtime itself, host-only tools) they vanish so that the same
// headers describe the runtime API to ordinary C++ code.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_CUDA_HOST_DEFINES_H
#define RESPEC_CUDA_HOST_DEFINES_H

#if defined(__CUDA__) && defined(__clang__)
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
#include "__respec_managed.h"
#else
#define __host__
#define __device__
#define __global__
#define __shared__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __grid_constant__
#endif

#define __forceinline__ __inline__ __attribute__((always_inline))
// __noinline__ is not defined here: clang treats it as a keyword in CUDA
// mode, and a macro would break libstdc++'s __attribute__((__noinline__)).
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __thread__ __thread
#define __device_builtin__
#define __cudart_builtin__
#define CUDARTAPI
#define CUDART_CB

#if !defined(__restrict__) && !defined(__GNUC__)
#define __restrict__ __restrict
#endif

#endif // RESPEC_CUDA_HOST_DEFINES_H
