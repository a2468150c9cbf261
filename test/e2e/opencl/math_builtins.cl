// OpenCL C 1.2 math built-ins (6.12.2) against the host's C library: every
// function of Inputs/math_builtins.def for float, float3, float4, float16,
// double and double2, on inputs that include the special values (±0, ±inf,
// NaN, denormals, FLT_MAX, ...) and pairs the spec singles out (fmax with a
// NaN, copysign of -0, pown of ±0, nextafter from -0, ...), each within the
// ulps of the spec's table 7.1 (exact, bit for bit, where that is 0); ilogb,
// with ilogb(±0) == FP_ILOGB0; the vector-with-scalar forms (ldexp(floatn,
// int), fmax/fmin(gentype, scalar)); and native_* and half_* (within
// half_'s 8192 ulps). Not here, because respec gets them wrong: powr and
// rootn outside x > 0 (powr_edge_cases.cl, rootn_edge_cases.cl), ilogb(NaN)
// (ilogb_nan.cl) and double cbrt's 2 ulps (cbrt_double_accuracy.cl), all
// XFAIL.
// RUN: %respec %s %S/Inputs/math_builtins_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/math_builtins_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: float: ok
// CHECK: float3: ok
// CHECK: float4: ok
// CHECK: float16: ok
// CHECK: double: ok
// CHECK: double2: ok
// CHECK: ilogb: ok
// CHECK: vector with scalar: ok
// CHECK: native and half float: ok
// CHECK: native and half float8: ok
// CHECK: PASS

// Scalars go through the same code as vectors: W is the width of the
// kernel being defined.
#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define LOAD(W, i, p) LOAD_(W, i, p)
#define LOAD_(W, i, p) vload##W(i, p)
#define STORE(W, v, i, p) STORE_(W, v, i, p)
#define STORE_(W, v, i, p) vstore##W(v, i, p)

// Element e of the result of the f-th function of the list goes to
// out[f * n + e], n being the number of elements.
#define UN(name, ulps, domain, ref) STORE(W, name(a), i, o); o += n;
#define BIN(name, ulps, domain, ref) STORE(W, name(a, b), i, o); o += n;
#define TER(name, ulps, domain, ref) STORE(W, name(a, b, c), i, o); o += n;
#define INTN(name, ulps, domain, ref) STORE(W, name(a, kk), i, o); o += n;

#define KERNEL_BEGIN(T, V, IV)                                                 \
  __kernel void math_##V(__global const T *x, __global const T *y,             \
                         __global const T *z, __global const int *k,           \
                         __global T *out, __global int *ilogbs) {              \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y), c = LOAD(W, i, z);                 \
    IV kk = LOAD(W, i, k);                                                     \
    __global T *o = out;                                                       \
    STORE(W, ilogb(a), i, ilogbs);
#define KERNEL_END }

#define W 1
KERNEL_BEGIN(float, float, int)
#include "Inputs/math_builtins.def"
KERNEL_END
KERNEL_BEGIN(double, double, int)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
#define W 3
KERNEL_BEGIN(float, float3, int3)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
#define W 4
KERNEL_BEGIN(float, float4, int4)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
#define W 16
KERNEL_BEGIN(float, float16, int16)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
#define W 2
KERNEL_BEGIN(double, double2, int2)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W

// ilogb(0) is FP_ILOGB0 of the OpenCL C headers, not the C library's. f
// and d hold 0, -0, the largest finite value and the smallest denormal.
// (ilogb(NaN): see ilogb_nan.cl.)
__kernel void ilogb_special(__global const float *f, __global const double *d,
                            __global int *out) {
  out[0] = ilogb(f[0]) == FP_ILOGB0;
  out[1] = ilogb(f[1]) == FP_ILOGB0;
  out[2] = ilogb(f[2]) == 127;
  out[3] = ilogb(f[3]) == -149;
  out[4] = ilogb(d[0]) == FP_ILOGB0;
  out[5] = ilogb(d[1]) == FP_ILOGB0;
  out[6] = ilogb(d[2]) == 1023;
  out[7] = ilogb(d[3]) == -1074;
}

// ldexp(floatn, int), fmax/fmin(gentype, scalar), with scalars by value.
__kernel void vector_scalar(__global const float *x, __global const double *y,
                            __global const int *k, float s, double t,
                            __global float *outf, __global double *outd) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float4 a = vload4(i, x);
  double2 b = vload2(i, y);
  vstore4(ldexp(a, k[i]), i, outf);
  vstore4(fmax(a, s), i + n, outf);
  vstore4(fmin(a, s), i + 2 * n, outf);
  vstore2(ldexp(b, k[i]), i, outd);
  vstore2(fmax(b, t), i + n, outd);
  vstore2(fmin(b, t), i + 2 * n, outd);
}

// native_* and half_* for float and float8.
#define NATIVE1(name, ref)                                                     \
  STORE(W, native_##name(a), i, o); o += n;                                    \
  STORE(W, half_##name(a), i, o); o += n;
#define NATIVE2(name, ref)                                                     \
  STORE(W, native_##name(a, b), i, o); o += n;                                 \
  STORE(W, half_##name(a, b), i, o); o += n;
#undef UN
#undef BIN
#undef TER
#undef INTN
#define UN(...)
#define BIN(...)
#define TER(...)
#define INTN(...)
#define NATIVE_KERNEL_BEGIN(V)                                                 \
  __kernel void native_##V(__global const float *x, __global const float *y,   \
                           __global float *out) {                              \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y);                                    \
    __global float *o = out;
#define W 1
NATIVE_KERNEL_BEGIN(float)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
#define W 8
NATIVE_KERNEL_BEGIN(float8)
#include "Inputs/math_builtins.def"
KERNEL_END
#undef W
