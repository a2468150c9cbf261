// Vector arguments of 32 bytes or more passed by value (float8, double4,
// long4, int8, float16, double8): OpenCL C aligns these types to their size.
// RUN: %respec %s %S/Inputs/wide_vector_args_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/wide_vector_args_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: wide vector arguments: ok
// CHECK: PASS

__kernel void sums(__global double *out, float8 a, double4 b, long4 c,
                   int8 d, float16 e, double8 f) {
  size_t i = get_global_id(0);
  __global double *o = out + 6 * i;
  o[0] = a.s0 + a.s7 + (double)i;
  o[1] = b.x + b.w;
  o[2] = (double)(c.x + c.w);
  o[3] = d.s0 + d.s7;
  o[4] = e.s0 + e.sf;
  o[5] = f.s0 + f.s7;
}
