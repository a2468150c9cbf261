//===- vector_types.h - CUDA built-in vector types for respec -------------===//
//
// char1 ... double4, uint3 and dim3 with the sizes and alignments of CUDA 13,
// so that kernel parameters and device buffers have the same layout on every
// respec target.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_CUDA_VECTOR_TYPES_H
#define RESPEC_CUDA_VECTOR_TYPES_H

#include "host_defines.h"

// Declares NAME##1..4 with element type T. Two- and four-element vectors are
// over-aligned like CUDA's so that they can be loaded with one wide access;
// three-element vectors keep the element alignment.
#define RESPEC_VECTOR_TYPES(NAME, T, ALIGN2, ALIGN4)                          \
  struct NAME##1 {                                                            \
    T x;                                                                      \
  };                                                                          \
  struct __align__(ALIGN2) NAME##2 {                                          \
    T x, y;                                                                   \
  };                                                                          \
  struct NAME##3 {                                                            \
    T x, y, z;                                                                \
  };                                                                          \
  struct __align__(ALIGN4) NAME##4 {                                          \
    T x, y, z, w;                                                             \
  };                                                                          \
  typedef struct NAME##1 NAME##1;                                             \
  typedef struct NAME##2 NAME##2;                                             \
  typedef struct NAME##3 NAME##3;                                             \
  typedef struct NAME##4 NAME##4;

RESPEC_VECTOR_TYPES(char, signed char, 2, 4)
RESPEC_VECTOR_TYPES(uchar, unsigned char, 2, 4)
RESPEC_VECTOR_TYPES(short, short, 4, 8)
RESPEC_VECTOR_TYPES(ushort, unsigned short, 4, 8)
RESPEC_VECTOR_TYPES(int, int, 8, 16)
RESPEC_VECTOR_TYPES(uint, unsigned int, 8, 16)
RESPEC_VECTOR_TYPES(long, long, 2 * sizeof(long), 16)
RESPEC_VECTOR_TYPES(ulong, unsigned long, 2 * sizeof(unsigned long), 16)
RESPEC_VECTOR_TYPES(longlong, long long, 16, 16)
RESPEC_VECTOR_TYPES(ulonglong, unsigned long long, 16, 16)
RESPEC_VECTOR_TYPES(float, float, 8, 16)
RESPEC_VECTOR_TYPES(double, double, 16, 16)

#undef RESPEC_VECTOR_TYPES

/// Launch geometry: like uint3, but unspecified components default to 1.
struct dim3 {
  unsigned int x, y, z;
#if defined(__cplusplus)
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const {
    return uint3{x, y, z};
  }
#endif
};
typedef struct dim3 dim3;

#endif // RESPEC_CUDA_VECTOR_TYPES_H
