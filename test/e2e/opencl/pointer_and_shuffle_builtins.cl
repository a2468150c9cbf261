// Built-ins added in 0.3.0 after the first OpenCL C tests: functions that
// write through a pointer into each address space (fract, modf, sincos,
// frexp, remquo, lgamma_r), functions in units of pi, nan, islessgreater,
// mad_sat, narrow mul_hi, vector upsample, and OpenCL's vector shuffle and
// shuffle2 next to respec's work-group shuffle.
// RUN: %respec %s %S/Inputs/pointer_and_shuffle_builtins_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/pointer_and_shuffle_builtins_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: pointer outputs: ok
// CHECK: pi functions: ok
// CHECK: integer: ok
// CHECK: vector shuffles: ok
// CHECK: PASS

__kernel void pointers(__global const float *x, __global float *out,
                       __global int *iout, __local float *scratch) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  float v = x[i];
  float whole;
  out[i * 8 + 0] = fract(v, &whole); // private
  out[i * 8 + 1] = whole;
  out[i * 8 + 2] = modf(v, &out[i * 8 + 3]); // global
  out[i * 8 + 4] = sincos(v, &scratch[l]); // local
  out[i * 8 + 5] = scratch[l];
  int e, q, s;
  out[i * 8 + 6] = frexp(v, &e) + remquo(v, 0.75f, &q);
  out[i * 8 + 7] = lgamma_r(v, &s);
  iout[i * 3 + 0] = e;
  iout[i * 3 + 1] = q;
  iout[i * 3 + 2] = s;
}

__kernel void pi_functions(__global const double *x, __global double *out) {
  size_t i = get_global_id(0);
  double v = x[i];
  double4 r = (double4)(acospi(v), asinpi(v), atanpi(v), atan2pi(v, 0.5));
  vstore4(r, i, out);
  out[get_global_size(0) * 4 + i] = tanpi(v);
}

__kernel void integers(__global int *out) {
  out[0] = mad_sat(INT_MAX, 2, 5);
  out[1] = mad_sat(-100000, 100000, 7);
  out[2] = mad_sat((uchar)200, (uchar)2, (uchar)1);
  out[3] = mul_hi((short)-30000, (short)30000);
  out[4] = mul_hi((uchar)250, (uchar)250);
  int2 up = upsample((short2)(-1, 2), (ushort2)(3, 4));
  out[5] = up.x;
  out[6] = up.y;
  out[7] = islessgreater(1.0f, NAN) + 2 * islessgreater(1.0f, 2.0f);
  float n = nan(5u);
  out[8] = isnan(n) + 2 * ((as_uint(n) & 0x3fffff) == 5);
}

__kernel void shuffles(__global int *out) {
  int4 x = (int4)(10, 11, 12, 13);
  int4 y = (int4)(20, 21, 22, 23);
  int8 a = shuffle(x, (uint8)(3, 2, 1, 0, 7, 6, 5, 4)); // mask mod 4
  int2 b = shuffle2(x, y, (uint2)(5, 10)); // y[1], x[2] (10 mod 8)
  float4 f = shuffle((float2)(1.5f, 2.5f), (uint4)(1, 1, 0, 1));
  vstore8(a, 0, out);
  vstore2(b, 0, out + 8);
  out[10] = (int)(f.x * 10 + f.y * 100 + f.z * 1000 + f.w * 10000);
  // respec's work-group shuffle still works beside them.
  out[11] = shuffle((int)get_local_id(0) * 3, 2u);
}
