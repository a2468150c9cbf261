//===- __respec_opencl_prelude.h - Included before every OpenCL C source --===//
//
// respec includes this header ahead of each `.cl` file it compiles. It
// declares the built-ins respec adds to OpenCL C 1.2; their definitions are
// in respec's built-in library (runtime/opencl/builtins.cl).
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_OPENCL_PRELUDE_H
#define RESPEC_OPENCL_PRELUDE_H

#define __RESPEC__ 1

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/// Work-group shuffle: returns `value` as passed by the work-item whose
/// linear local id is `lane` modulo the work-group size. Like barrier, it
/// must be reached by every work-item of the work-group.
#define __RESPEC_DECLARE_SHUFFLE(T)                                            \
  T __attribute__((overloadable, convergent)) shuffle(T value, uint lane);
__RESPEC_DECLARE_SHUFFLE(int)
__RESPEC_DECLARE_SHUFFLE(uint)
__RESPEC_DECLARE_SHUFFLE(long)
__RESPEC_DECLARE_SHUFFLE(ulong)
__RESPEC_DECLARE_SHUFFLE(float)
__RESPEC_DECLARE_SHUFFLE(double)
#undef __RESPEC_DECLARE_SHUFFLE

// Declaring `shuffle` above hides clang's declarations of OpenCL's vector
// shuffle and shuffle2 (6.12.12); they are declared again here.
#define __RESPEC_VSHUFFLE(T, U, N, M)                                          \
  T##M __attribute__((overloadable, const)) shuffle(T##N x, U##M mask);        \
  T##M __attribute__((overloadable, const)) shuffle2(T##N x, T##N y,           \
                                                     U##M mask);
#define __RESPEC_VSHUFFLE_M(T, U, N)                                           \
  __RESPEC_VSHUFFLE(T, U, N, 2) __RESPEC_VSHUFFLE(T, U, N, 4)                  \
  __RESPEC_VSHUFFLE(T, U, N, 8) __RESPEC_VSHUFFLE(T, U, N, 16)
#define __RESPEC_VSHUFFLE_T(T, U)                                              \
  __RESPEC_VSHUFFLE_M(T, U, 2) __RESPEC_VSHUFFLE_M(T, U, 4)                    \
  __RESPEC_VSHUFFLE_M(T, U, 8) __RESPEC_VSHUFFLE_M(T, U, 16)
__RESPEC_VSHUFFLE_T(char, uchar)
__RESPEC_VSHUFFLE_T(uchar, uchar)
__RESPEC_VSHUFFLE_T(short, ushort)
__RESPEC_VSHUFFLE_T(ushort, ushort)
__RESPEC_VSHUFFLE_T(int, uint)
__RESPEC_VSHUFFLE_T(uint, uint)
__RESPEC_VSHUFFLE_T(long, ulong)
__RESPEC_VSHUFFLE_T(ulong, ulong)
__RESPEC_VSHUFFLE_T(float, uint)
__RESPEC_VSHUFFLE_T(double, ulong)
#undef __RESPEC_VSHUFFLE_T
#undef __RESPEC_VSHUFFLE_M
#undef __RESPEC_VSHUFFLE

#endif // RESPEC_OPENCL_PRELUDE_H
