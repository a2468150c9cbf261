// cbrt for double is within 2 ulps of the exact result (OpenCL C 1.2,
// section 7.4, table 7.2).
// RUN: %respec %s %S/Inputs/cbrt_double_accuracy_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/cbrt_double_accuracy_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: cbrt double: ok
// CHECK: PASS

__kernel void cube_roots(__global const double *x, __global double *out) {
  size_t i = get_global_id(0);
  out[i] = cbrt(x[i]);
}
