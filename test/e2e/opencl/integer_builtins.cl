// OpenCL C 1.2 integer built-ins (6.12.3) for char, uchar, short, ushort,
// int, uint, long and ulong, scalar and vector (char16, uchar3, short8,
// ushort2, int4, uint8, long2, ulong4), on every pair of edge values of the
// type (MIN, MIN + 1, -1, 0, 1, MAX - 1, MAX, ...) and on random bits:
// abs, abs_diff, add_sat, sub_sat (overflow both ways), hadd, rhadd,
// popcount, rotate (amounts past the width and negative), max, min, clamp,
// and their vector-with-scalar forms; mul_hi and mad_hi for int, uint, long
// and ulong; mul24 and mad24; upsample.
// RUN: %respec %s %S/Inputs/integer_builtins_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/integer_builtins_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: char: ok
// CHECK: char16: ok
// CHECK: uchar: ok
// CHECK: uchar3: ok
// CHECK: short: ok
// CHECK: short8: ok
// CHECK: ushort: ok
// CHECK: ushort2: ok
// CHECK: int: ok
// CHECK: int4: ok
// CHECK: uint: ok
// CHECK: uint8: ok
// CHECK: long: ok
// CHECK: long2: ok
// CHECK: ulong: ok
// CHECK: ulong4: ok
// CHECK: mul int: ok
// CHECK: mul int4: ok
// CHECK: mul uint: ok
// CHECK: mul uint16: ok
// CHECK: mul long: ok
// CHECK: mul long2: ok
// CHECK: mul ulong: ok
// CHECK: mul ulong3: ok
// CHECK: upsample: ok
// CHECK: PASS

#define vload1(i, p) ((p)[i])
#define vstore1(v, i, p) ((p)[i] = (v))
#define LOAD(W, i, p) LOAD_(W, i, p)
#define LOAD_(W, i, p) vload##W(i, p)
#define STORE(W, v, i, p) STORE_(W, v, i, p)
#define STORE_(W, v, i, p) vstore##W(v, i, p)
#define PUT(v) STORE(W, v, i, o); o += n;

// Results go to out[f * n + element]; abs and abs_diff return the unsigned
// type, stored with the same bits. (clz: see clz.cl, XFAIL.)
#define INT_KERNEL(T, V)                                                       \
  __kernel void int_##V(__global const T *x, __global const T *y,             \
                        __global const T *z, T s, T t, __global T *out) {      \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y), c = LOAD(W, i, z);                 \
    V low = min(b, c), high = max(b, c);                                       \
    T slo = min(s, t), shi = max(s, t);                                        \
    __global T *o = out;                                                       \
    PUT(as_##V(abs(a)))                                                        \
    PUT(as_##V(abs_diff(a, b)))                                                \
    PUT(add_sat(a, b))                                                         \
    PUT(sub_sat(a, b))                                                         \
    PUT(hadd(a, b))                                                            \
    PUT(rhadd(a, b))                                                           \
    PUT(popcount(a))                                                           \
    PUT(rotate(a, b))                                                          \
    PUT(max(a, b))                                                             \
    PUT(min(a, b))                                                             \
    PUT(clamp(a, low, high))                                                   \
    PUT(max(a, s))                                                             \
    PUT(min(a, s))                                                             \
    PUT(clamp(a, slo, shi))                                                    \
  }

#define W 1
INT_KERNEL(char, char)
INT_KERNEL(uchar, uchar)
INT_KERNEL(short, short)
INT_KERNEL(ushort, ushort)
INT_KERNEL(int, int)
INT_KERNEL(uint, uint)
INT_KERNEL(long, long)
INT_KERNEL(ulong, ulong)
#undef W
#define W 16
INT_KERNEL(char, char16)
#undef W
#define W 3
INT_KERNEL(uchar, uchar3)
#undef W
#define W 8
INT_KERNEL(short, short8)
INT_KERNEL(uint, uint8)
#undef W
#define W 2
INT_KERNEL(ushort, ushort2)
INT_KERNEL(long, long2)
#undef W
#define W 4
INT_KERNEL(int, int4)
INT_KERNEL(ulong, ulong4)
#undef W

// mul_hi and mad_hi; for 32-bit types also mul24 and mad24 on operands in
// their range: a 24-bit first operand, an 8-bit second one (so the product
// fits in 32 bits) and an addend that cannot overflow. Signed types keep
// mad_hi's addend in half the range, so that the sum cannot overflow.
#define MUL_KERNEL(T, V, EXTRA)                                                \
  __kernel void mul_##V(__global const T *x, __global const T *y,             \
                        __global const T *z, __global T *out) {                \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y), c = LOAD(W, i, z);                 \
    __global T *o = out;                                                       \
    PUT(mul_hi(a, b))                                                          \
    PUT(mad_hi(a, b, ((T)-1 < 0) ? c >> 1 : c))                                \
    EXTRA(T)                                                                   \
  }
#define NO24(T)
#define MUL24(T)                                                               \
  PUT(mul24((a << 8) >> 8, (b << 24) >> 24))                                   \
  PUT(mad24((a << 8) >> 8, (b << 24) >> 24, ((T)-1 < 0) ? c >> 2 : c >> 1))
// mad_hi has no vector form for 64-bit types in respec yet.
#define MUL_KERNEL64(T, V)                                                     \
  __kernel void mul_##V(__global const T *x, __global const T *y,             \
                        __global const T *z, __global T *out) {                \
    size_t i = get_global_id(0), n = get_global_size(0) * W;                   \
    V a = LOAD(W, i, x), b = LOAD(W, i, y), c = LOAD(W, i, z);                 \
    V c2 = ((T)-1 < 0) ? c >> 1 : c, m;                                        \
    __global T *o = out;                                                       \
    PUT(mul_hi(a, b))                                                          \
    for (int e = 0; e < W; ++e)                                                \
      ((T *)&m)[e] = mad_hi(((T *)&a)[e], ((T *)&b)[e], ((T *)&c2)[e]);        \
    PUT(m)                                                                     \
  }

#define W 1
MUL_KERNEL(int, int, MUL24)
MUL_KERNEL(uint, uint, MUL24)
MUL_KERNEL(long, long, NO24)
MUL_KERNEL(ulong, ulong, NO24)
#undef W
#define W 4
MUL_KERNEL(int, int4, MUL24)
#undef W
#define W 16
MUL_KERNEL(uint, uint16, MUL24)
#undef W
#define W 2
MUL_KERNEL64(long, long2)
#undef W
#define W 3
MUL_KERNEL64(ulong, ulong3)
#undef W

// upsample of each pair of types, from the bits of hi[i] and lo[i]; the
// results are widened to long.
__kernel void upsample_all(__global const ulong *hi, __global const ulong *lo,
                           __global long *out) {
  size_t i = get_global_id(0);
  ulong h = hi[i], l = lo[i];
  __global long *o = out + 6 * i;
  o[0] = upsample((char)h, (uchar)l);
  o[1] = upsample((uchar)h, (uchar)l);
  o[2] = upsample((short)h, (ushort)l);
  o[3] = upsample((ushort)h, (ushort)l);
  o[4] = upsample((int)h, (uint)l);
  o[5] = (long)upsample((uint)h, (uint)l);
}
