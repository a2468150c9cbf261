// OpenCL C 1.2 relational built-ins (6.12.6): isnan, isinf, isfinite,
// isnormal, signbit, isequal, isnotequal, isgreater, isgreaterequal,
// isless, islessequal, isordered, isunordered on every pair of special
// values (±0, ±inf, NaN, denormals, the extremes) for float, float3,
// float4, float16, double, double2 and double3 (scalars return 1 for true,
// vectors -1 in each true element: int for float, long for double); select
// (scalar: c != 0 picks b; vector: the most significant bit of each element
// of c picks b) and bitselect for char16/uchar16, short8, int, int4/uint4,
// ulong, long2/ulong2, float, float4, double, double2; any and all.
// RUN: %respec %s %S/Inputs/relational_select_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/relational_select_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: relational float: ok
// CHECK: relational float3: ok
// CHECK: relational float4: ok
// CHECK: relational float16: ok
// CHECK: relational double: ok
// CHECK: relational double2: ok
// CHECK: relational double3: ok
// CHECK: select char16 uchar16: ok
// CHECK: select short8 short8: ok
// CHECK: select int int: ok
// CHECK: select uchar uchar: ok
// CHECK: select int4 int4: ok
// CHECK: select int4 uint4: ok
// CHECK: select ulong ulong: ok
// CHECK: select long2 ulong2: ok
// CHECK: select float int: ok
// CHECK: select float4 int4: ok
// CHECK: select float3 uint3: ok
// CHECK: select double long: ok
// CHECK: select double2 long2: ok
// CHECK: any all: ok
// CHECK: PASS

#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define LOAD(W, i, p) LOAD_(W, i, p)
#define LOAD_(W, i, p) vload##W(i, p)
#define STORE(W, v, i, p) STORE_(W, v, i, p)
#define STORE_(W, v, i, p) vstore##W(v, i, p)
#define PUT(v) STORE(W, v, i, o); o += n;

// Results go to out[f * n + element], f in the order of the list above.
#define RELATIONAL_KERNEL(T, V, I)                                             \
  __kernel void relational_##V(__global const T *x, __global const T *y,      \
                               __global I *out) {                              \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y);                                    \
    __global I *o = out;                                                       \
    PUT(isnan(a))                                                              \
    PUT(isinf(a))                                                              \
    PUT(isfinite(a))                                                           \
    PUT(isnormal(a))                                                           \
    PUT(signbit(a))                                                            \
    PUT(isequal(a, b))                                                         \
    PUT(isnotequal(a, b))                                                      \
    PUT(isgreater(a, b))                                                       \
    PUT(isgreaterequal(a, b))                                                  \
    PUT(isless(a, b))                                                          \
    PUT(islessequal(a, b))                                                     \
    PUT(isordered(a, b))                                                       \
    PUT(isunordered(a, b))                                                     \
  }
// Scalars return int whatever the type.
#define W 1
RELATIONAL_KERNEL(float, float, int)
RELATIONAL_KERNEL(double, double, int)
#undef W
#define W 3
RELATIONAL_KERNEL(float, float3, int)
RELATIONAL_KERNEL(double, double3, long)
#undef W
#define W 4
RELATIONAL_KERNEL(float, float4, int)
#undef W
#define W 16
RELATIONAL_KERNEL(float, float16, int)
#undef W
#define W 2
RELATIONAL_KERNEL(double, double2, long)
#undef W

// select(a, b, c) into out[0, n), bitselect(a, b, c) into out[n, 2n).
#define SELECT_KERNEL(T, V, C, CV)                                             \
  __kernel void select_##V##_##CV(__global const T *a, __global const T *b,   \
                                  __global const C *c, __global T *out) {      \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V va = LOAD(W, i, a), vb = LOAD(W, i, b);                                  \
    CV vc = LOAD(W, i, c);                                                     \
    STORE(W, select(va, vb, vc), i, out);                                      \
    STORE(W, bitselect(va, vb, as_##V(vc)), i, out + n);                       \
  }
#define W 1
SELECT_KERNEL(int, int, int, int)
SELECT_KERNEL(uchar, uchar, uchar, uchar)
SELECT_KERNEL(ulong, ulong, ulong, ulong)
SELECT_KERNEL(float, float, int, int)
SELECT_KERNEL(double, double, long, long)
#undef W
#define W 16
SELECT_KERNEL(char, char16, uchar, uchar16)
#undef W
#define W 8
SELECT_KERNEL(short, short8, short, short8)
#undef W
#define W 4
SELECT_KERNEL(int, int4, int, int4)
SELECT_KERNEL(int, int4, uint, uint4)
SELECT_KERNEL(float, float4, int, int4)
#undef W
#define W 3
SELECT_KERNEL(float, float3, uint, uint3)
#undef W
#define W 2
SELECT_KERNEL(long, long2, ulong, ulong2)
SELECT_KERNEL(double, double2, long, long2)
#undef W

// any and all of the same bits seen as char16, short8, int4, long2, int3
// and the scalars int and long: 2 results per vector of each type, each
// work-item taking 16 bytes.
__kernel void any_all(__global const char *bits, __global int *out) {
  size_t i = get_global_id(0);
  __global int *o = out + 26 * i;
  char16 c = vload16(i, bits);
  short8 s = as_short8(c);
  int4 v = as_int4(c);
  long2 l = as_long2(c);
  o[0] = any(c);
  o[1] = all(c);
  o[2] = any(s);
  o[3] = all(s);
  o[4] = any(v);
  o[5] = all(v);
  o[6] = any(l);
  o[7] = all(l);
  o[8] = any(v.xyz);
  o[9] = all(v.xyz);
  for (int e = 0; e < 4; ++e) {
    o[10 + 2 * e] = any(v[e]);
    o[11 + 2 * e] = all(v[e]);
  }
  for (int e = 0; e < 2; ++e) {
    o[18 + 2 * e] = any(l[e]);
    o[19 + 2 * e] = all(l[e]);
  }
  o[22] = any(c.s0);
  o[23] = all(c.s0);
  o[24] = any(s.s7);
  o[25] = all(s.s7);
}
