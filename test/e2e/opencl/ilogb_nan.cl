// ilogb of a NaN is FP_ILOGBNAN (OpenCL C 1.2, 6.12.2), which the OpenCL C
// headers define as INT_MAX, for float and double, scalar and vector.
// RUN: %respec %s %S/Inputs/ilogb_nan_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/ilogb_nan_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: ilogb(NaN): ok
// CHECK: PASS

__kernel void ilogb_nan(__global const float *f, __global const double *d,
                        __global int *out) {
  out[0] = ilogb(f[0]) == FP_ILOGBNAN;
  out[1] = ilogb(d[0]) == FP_ILOGBNAN;
  int4 v = ilogb(vload4(0, f));
  out[2] = all(v == (int4)FP_ILOGBNAN);
  int2 w = ilogb(vload2(0, d));
  out[3] = all(w == (int2)FP_ILOGBNAN);
  out[4] = FP_ILOGBNAN;
  out[5] = ilogb(f[0]);
}
