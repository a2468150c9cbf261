// OpenCL C 1.2 common (6.12.4) and geometric (6.12.5) built-ins, checked on
// the host: clamp (vector bounds and scalar bounds), degrees, radians,
// max/min (vector and vector-with-scalar), mix, step, smoothstep, sign for
// float, float3, float4, float16, double and double2; sign of the special
// values; dot, length, distance, normalize for every width 1 to 4 of float
// and double, cross of float3/float4/double3/double4, and fast_length,
// fast_distance, fast_normalize.
// RUN: %respec %s %S/Inputs/common_geometric_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/common_geometric_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: common float: ok
// CHECK: common float3: ok
// CHECK: common float4: ok
// CHECK: common float16: ok
// CHECK: common double: ok
// CHECK: common double2: ok
// CHECK: sign special values: ok
// CHECK: geometric float: ok
// CHECK: geometric float2: ok
// CHECK: geometric float3: ok
// CHECK: geometric float4: ok
// CHECK: geometric double: ok
// CHECK: geometric double2: ok
// CHECK: geometric double3: ok
// CHECK: geometric double4: ok
// CHECK: PASS

#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define LOAD(W, i, p) LOAD_(W, i, p)
#define LOAD_(W, i, p) vload##W(i, p)
#define STORE(W, v, i, p) STORE_(W, v, i, p)
#define STORE_(W, v, i, p) vstore##W(v, i, p)
#define PUT(v) STORE(W, v, i, o); o += n;

// x, y, z: finite values; w: weights in [0, 1]; lo <= hi scalars, and u a
// scalar weight. Results go to out[f * n + element] in this order.
#define COMMON_KERNEL(T, V)                                                    \
  __kernel void common_##V(__global const T *x, __global const T *y,           \
                           __global const T *z, __global const T *w, T lo,     \
                           T hi, T u, __global T *out) {                       \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y), c = LOAD(W, i, z);                 \
    V t = LOAD(W, i, w);                                                       \
    V low = min(b, c), high = max(b, c);                                       \
    __global T *o = out;                                                       \
    PUT(clamp(a, low, high))                                                   \
    PUT(clamp(a, lo, hi))                                                      \
    PUT(degrees(a))                                                            \
    PUT(radians(a))                                                            \
    PUT(max(a, b))                                                             \
    PUT(min(a, b))                                                             \
    PUT(max(a, lo))                                                            \
    PUT(min(a, hi))                                                            \
    PUT(mix(a, b, t))                                                          \
    PUT(mix(a, b, u))                                                          \
    PUT(step(b, a))                                                            \
    PUT(step(lo, a))                                                           \
    PUT(smoothstep(low, high, a))                                              \
    PUT(smoothstep(lo, hi, a))                                                 \
    PUT(sign(a))                                                               \
  }

#define W 1
COMMON_KERNEL(float, float)
COMMON_KERNEL(double, double)
#undef W
#define W 3
COMMON_KERNEL(float, float3)
#undef W
#define W 4
COMMON_KERNEL(float, float4)
#undef W
#define W 16
COMMON_KERNEL(float, float16)
#undef W
#define W 2
COMMON_KERNEL(double, double2)
#undef W

// sign(±0) is ±0, sign(NaN) is 0, sign(±inf) is ±1: s holds 8 values.
__kernel void sign_special(__global const float *s, __global const double *d,
                           __global float *sf, __global double *sd) {
  float8 v = vload8(0, s);
  vstore8(sign(v), 0, sf);
  for (int i = 0; i < 8; ++i)
    sf[8 + i] = sign(s[i]);
  double4 lo = vload4(0, d), hi = vload4(1, d);
  vstore4(sign(lo), 0, sd);
  vstore4(sign(hi), 1, sd);
  for (int i = 0; i < 8; ++i)
    sd[8 + i] = sign(d[i]);
}

// Each work-item writes a record of 20 values: dot, length, distance,
// fast_length and fast_distance at 0 to 4, normalize at 8, fast_normalize
// at 12 and cross at 16 (fast_* for float only, cross for widths 3 and 4).
#define GEOMETRIC_KERNEL(T, V, EXTRA)                                          \
  __kernel void geometric_##V(__global const T *x, __global const T *y,        \
                              __global T *out) {                               \
    size_t i = get_global_id(0);                                               \
    V a = LOAD(W, i, x), b = LOAD(W, i, y);                                    \
    __global T *r = out + 20 * i;                                              \
    r[0] = dot(a, b);                                                          \
    r[1] = length(a);                                                          \
    r[2] = distance(a, b);                                                     \
    EXTRA                                                                      \
    STORE(W, normalize(a), 0, r + 8);                                          \
  }
#define FAST                                                                   \
  r[3] = fast_length(a);                                                       \
  r[4] = fast_distance(a, b);                                                  \
  STORE(W, fast_normalize(a), 0, r + 12);
#define CROSS_FAST                                                             \
  FAST                                                                         \
  STORE(W, cross(a, b), 0, r + 16);
#define CROSS STORE(W, cross(a, b), 0, r + 16);
#define W 1
GEOMETRIC_KERNEL(float, float, FAST)
GEOMETRIC_KERNEL(double, double, )
#undef W
#define W 2
GEOMETRIC_KERNEL(float, float2, FAST)
GEOMETRIC_KERNEL(double, double2, )
#undef W
#define W 3
GEOMETRIC_KERNEL(float, float3, CROSS_FAST)
GEOMETRIC_KERNEL(double, double3, CROSS)
#undef W
#define W 4
GEOMETRIC_KERNEL(float, float4, CROSS_FAST)
GEOMETRIC_KERNEL(double, double4, CROSS)
#undef W
