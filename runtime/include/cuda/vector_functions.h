//===- vector_functions.h - make_<vector>() constructors for respec -------===//

#ifndef RESPEC_CUDA_VECTOR_FUNCTIONS_H
#define RESPEC_CUDA_VECTOR_FUNCTIONS_H

#include "vector_types.h"

// Defines make_NAME1..4 for the vector types of vector_types.h.
#define RESPEC_MAKE_VECTOR_FUNCTIONS(NAME, T)                                 \
  static __inline__ __host__ __device__ NAME##1 make_##NAME##1(T x) {         \
    NAME##1 v;                                                                \
    v.x = x;                                                                  \
    return v;                                                                 \
  }                                                                           \
  static __inline__ __host__ __device__ NAME##2 make_##NAME##2(T x, T y) {    \
    NAME##2 v;                                                                \
    v.x = x;                                                                  \
    v.y = y;                                                                  \
    return v;                                                                 \
  }                                                                           \
  static __inline__ __host__ __device__ NAME##3 make_##NAME##3(T x, T y,      \
                                                               T z) {         \
    NAME##3 v;                                                                \
    v.x = x;                                                                  \
    v.y = y;                                                                  \
    v.z = z;                                                                  \
    return v;                                                                 \
  }                                                                           \
  static __inline__ __host__ __device__ NAME##4 make_##NAME##4(T x, T y, T z, \
                                                               T w) {         \
    NAME##4 v;                                                                \
    v.x = x;                                                                  \
    v.y = y;                                                                  \
    v.z = z;                                                                  \
    v.w = w;                                                                  \
    return v;                                                                 \
  }

RESPEC_MAKE_VECTOR_FUNCTIONS(char, signed char)
RESPEC_MAKE_VECTOR_FUNCTIONS(uchar, unsigned char)
RESPEC_MAKE_VECTOR_FUNCTIONS(short, short)
RESPEC_MAKE_VECTOR_FUNCTIONS(ushort, unsigned short)
RESPEC_MAKE_VECTOR_FUNCTIONS(int, int)
RESPEC_MAKE_VECTOR_FUNCTIONS(uint, unsigned int)
RESPEC_MAKE_VECTOR_FUNCTIONS(long, long)
RESPEC_MAKE_VECTOR_FUNCTIONS(ulong, unsigned long)
RESPEC_MAKE_VECTOR_FUNCTIONS(longlong, long long)
RESPEC_MAKE_VECTOR_FUNCTIONS(ulonglong, unsigned long long)
RESPEC_MAKE_VECTOR_FUNCTIONS(float, float)
RESPEC_MAKE_VECTOR_FUNCTIONS(double, double)

#undef RESPEC_MAKE_VECTOR_FUNCTIONS

#endif // RESPEC_CUDA_VECTOR_FUNCTIONS_H
