// clz counts the leading zero bits of each element in its own width
// (OpenCL C 1.2, 6.12.3): clz(1) is 7 for char, 15 for short, 31 for int,
// 63 for long; clz of a value with the top bit set is 0; clz(0) is the width.
// RUN: %respec %s %S/Inputs/clz_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/clz_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: clz: ok
// CHECK: PASS

// Each bit pattern seen as every integer type, scalar and in a vector.
__kernel void count(__global const ulong *bits, __global int *out) {
  size_t i = get_global_id(0);
  ulong b = bits[i];
  __global int *o = out + 10 * i;
  o[0] = clz((char)b);
  o[1] = clz((uchar)b);
  o[2] = clz((short)b);
  o[3] = clz((ushort)b);
  o[4] = clz((int)b);
  o[5] = clz((uint)b);
  o[6] = (int)clz((long)b);
  o[7] = (int)clz(b);
  o[8] = clz((int4)((int)b)).w;
  o[9] = (int)clz((ulong2)(b)).y;
}
