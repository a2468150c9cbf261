// powr(x, y) per OpenCL C 1.2 (6.12.2: x >= 0; 7.5.1): NaN for x < 0, for
// powr(±0, ±0), powr(+inf, ±0), powr(+1, ±inf), powr(x, NaN) and
// powr(NaN, y); +inf for powr(±0, y < 0) and +0 for powr(±0, y > 0).
// RUN: %respec %s %S/Inputs/powr_edge_cases_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/powr_edge_cases_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: float: ok
// CHECK: double: ok
// CHECK: PASS

__kernel void powers(__global const double *x, __global const double *y,
                     __global float *outf, __global double *outd) {
  size_t i = get_global_id(0);
  outf[i] = powr((float)x[i], (float)y[i]);
  outd[i] = powr(x[i], y[i]);
}
