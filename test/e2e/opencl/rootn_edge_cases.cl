// rootn(x, n) per OpenCL C 1.2: the real n-th root, negative for negative x
// and odd n (7.5.1: NaN only for x < 0 and even n, and for n = 0), ±0 and
// ±inf at ±0 by the parity and sign of n, within 16 ulps (table 7.1/7.2).
// RUN: %respec %s %S/Inputs/rootn_edge_cases_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/rootn_edge_cases_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: float: ok
// CHECK: double: ok
// CHECK: PASS

__kernel void roots(__global const double *x, __global const int *n,
                    __global float *outf, __global double *outd) {
  size_t i = get_global_id(0);
  outf[i] = rootn((float)x[i], n[i]);
  outd[i] = rootn(x[i], n[i]);
}
