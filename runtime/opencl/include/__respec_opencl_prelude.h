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

#endif // RESPEC_OPENCL_PRELUDE_H
