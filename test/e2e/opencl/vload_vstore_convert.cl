// OpenCL C 1.2 vloadn/vstoren (6.12.7) and conversions (6.2.3, 6.2.4):
// - vload2/3/4/8/16 and vstore2/3/4/8/16 at offsets from unaligned bases in
//   __global memory for every scalar type; in __local memory (a static array
//   and a __local pointer argument, read back by the neighbouring
//   work-item); from a program-scope __constant array and a __constant
//   pointer argument; and in a __private array. Elements next to the ones
//   stored must stay untouched (vstore3 writes 3 elements, not 4).
// - convert_<type>_sat from float and double to every integer type (NaN
//   gives 0, out-of-range values the type's bounds, fractions truncate),
//   between integer types (uchar_sat of a negative value, ...), plain
//   integer conversions (modulo), integer to float with round to nearest
//   even (including longs that double rounding would get wrong), double to
//   float, scalar and vector (n = 2, 3, 4, 8, 16).
// - as_type reinterpretation of scalars and vectors.
// RUN: %respec %s %S/Inputs/vload_vstore_convert_host.c -o %t && %t | FileCheck %s
// RUN: %respec --disable-opt=all %s %S/Inputs/vload_vstore_convert_host.c -o %t.noopt && %t.noopt | FileCheck %s
// CHECK: vload/vstore global char: ok
// CHECK: vload/vstore global uchar: ok
// CHECK: vload/vstore global short: ok
// CHECK: vload/vstore global ushort: ok
// CHECK: vload/vstore global int: ok
// CHECK: vload/vstore global uint: ok
// CHECK: vload/vstore global long: ok
// CHECK: vload/vstore global ulong: ok
// CHECK: vload/vstore global float: ok
// CHECK: vload/vstore global double: ok
// CHECK: vload/vstore local: ok
// CHECK: vload constant: ok
// CHECK: vload/vstore private: ok
// CHECK: convert scalar: ok
// CHECK: convert vector: ok
// CHECK: as_type: ok
// CHECK: PASS

//===--- vloadn / vstoren --------------------------------------------------===//

// Width n reads block i from src + base_n and stores it as block
// (items - 1 - i) of dst + region_n + base_n, the bases being unaligned.
#define REGION(items) (16 * (items) + 32)
#define VLOAD_GLOBAL(T)                                                        \
  __kernel void vload_global_##T(__global const T *src, __global T *dst) {     \
    size_t i = get_global_id(0), items = get_global_size(0);                   \
    size_t j = items - 1 - i, r = REGION(items);                               \
    vstore2(vload2(i, src + 1), j, dst + 1);                                   \
    vstore3(vload3(i, src + 2), j, dst + r + 2);                               \
    vstore4(vload4(i, src + 3), j, dst + 2 * r + 3);                           \
    vstore8(vload8(i, src + 5), j, dst + 3 * r + 5);                           \
    vstore16(vload16(i, src + 7), j, dst + 4 * r + 7);                         \
  }
VLOAD_GLOBAL(char)
VLOAD_GLOBAL(uchar)
VLOAD_GLOBAL(short)
VLOAD_GLOBAL(ushort)
VLOAD_GLOBAL(int)
VLOAD_GLOBAL(uint)
VLOAD_GLOBAL(long)
VLOAD_GLOBAL(ulong)
VLOAD_GLOBAL(float)
VLOAD_GLOBAL(double)

// Each work-item stores 3 ints into the static tile and 16 into the
// argument, then after the barrier reads its neighbour's (lid + 1) back
// with every width. dst holds 5 regions of global size * 16 ints.
#define MAX_GROUP 64
__kernel void vload_local(__global const int *src, __global int *dst,
                          __local int *scratch) {
  __local int tile[3 * MAX_GROUP + 1];
  size_t lid = get_local_id(0), size = get_local_size(0);
  size_t gid = get_global_id(0), r = 16 * get_global_size(0);
  vstore3(vload3(gid, src), lid, tile + 1);
  vstore16(vload16(gid, src + 3), lid, scratch + 2);
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t next = (lid + 1) % size;
  vstore3(vload3(next, tile + 1), gid, dst);
  vstore16(vload16(next, scratch + 2), gid, dst + r);
  vstore8(vload8(2 * next + 1, scratch + 2), gid, dst + 2 * r);
  vstore4(vload4(4 * next + 1, scratch + 2), gid, dst + 3 * r);
  vstore2(vload2(8 * next + 7, scratch + 2), gid, dst + 4 * r);
}

// Program-scope __constant data: table[k] = 7 * k - 50.
__constant int table[40] = {
    -50, -43, -36, -29, -22, -15, -8,  -1,  6,   13,  20,  27,  34,  41,
    48,  55,  62,  69,  76,  83,  90,  97,  104, 111, 118, 125, 132, 139,
    146, 153, 160, 167, 174, 181, 188, 195, 202, 209, 216, 223};

// Two work-items; each width reads block i of table + 3 and of arg + 5 and
// stores them into block i of two consecutive regions of 32 ints of dst.
__kernel void vload_constant(__constant int *arg, __global int *dst) {
  size_t i = get_global_id(0);
  vstore2(vload2(i, table + 3), i, dst);
  vstore2(vload2(i, arg + 5), i, dst + 32);
  vstore3(vload3(i, table + 3), i, dst + 64);
  vstore3(vload3(i, arg + 5), i, dst + 96);
  vstore4(vload4(i, table + 3), i, dst + 128);
  vstore4(vload4(i, arg + 5), i, dst + 160);
  vstore8(vload8(i, table + 3), i, dst + 192);
  vstore8(vload8(i, arg + 5), i, dst + 224);
  vstore16(vload16(i, table + 3), i, dst + 256);
  vstore16(vload16(i, arg + 5), i, dst + 288);
}

// A __private array: filled from src (times the work-item's number),
// shuffled with vloads and vstores at offsets, and copied out.
__kernel void vload_private(__global const int *src, __global int *dst) {
  int p[40];
  size_t i = get_global_id(0);
  for (int k = 0; k < 40; ++k)
    p[k] = src[k] * (int)(i + 1);
  int16 a = vload16(1, p + 3);  // p[19..34]
  int3 b = vload3(2, p);        // p[6..8]
  int8 c = vload8(0, p + 30);   // p[30..37]
  int4 d = vload4(3, p + 1);    // p[13..16]
  int2 e = vload2(19, p);       // p[38..39]
  vstore16(a, 0, p + 1);        // p[1..16]
  vstore3(b, 6, p);             // p[18..20]
  vstore8(c, 3, p);             // p[24..31]
  vstore4(d, 8, p + 1);         // p[33..36]
  vstore2(e, 10, p + 1);        // p[21..22]
  for (int k = 0; k < 40; ++k)
    dst[40 * i + k] = p[k];
}

//===--- Conversions -------------------------------------------------------===//

// Scalar conversions of element e of f (float), d (double), w (int) and l
// (long): integer results widened to long (ulong results keep their bits),
// floating-point ones to double, into ol[f * n + e] and od[f * n + e].
#define L(v) ol[k++ * n + e] = (long)(v);
#define D(v) od[k++ * n + e] = (double)(v);
__kernel void convert_scalar(__global const float *f, __global const double *d,
                             __global const int *w, __global const long *l,
                             __global long *ol, __global double *od) {
  size_t e = get_global_id(0), n = get_global_size(0), k = 0;
  float x = f[e];
  double y = d[e];
  int i = w[e];
  long m = l[e];
  ulong u = as_ulong(m);
  L(convert_char_sat(x))   L(convert_uchar_sat(x))  L(convert_short_sat(x))
  L(convert_ushort_sat(x)) L(convert_int_sat(x))    L(convert_uint_sat(x))
  L(convert_long_sat(x))   L(convert_ulong_sat(x))
  L(convert_char_sat(y))   L(convert_uchar_sat(y))  L(convert_short_sat(y))
  L(convert_ushort_sat(y)) L(convert_int_sat(y))    L(convert_uint_sat(y))
  L(convert_long_sat(y))   L(convert_ulong_sat(y))
  L(convert_char_sat(i))   L(convert_uchar_sat(i))  L(convert_short_sat(i))
  L(convert_ushort_sat(i)) L(convert_uint_sat(i))   L(convert_ulong_sat(i))
  L(convert_char(i))       L(convert_uchar(i))      L(convert_short(i))
  L(convert_ushort(i))     L(convert_long(i))       L(convert_ulong(i))
  L(convert_int_sat(m))    L(convert_uint_sat(m))   L(convert_ulong_sat(m))
  L(convert_int(m))        L(convert_uint(m))       L(convert_long_sat(u))
  L(convert_int_sat(u))    L(convert_uint_sat(u))   L(convert_char_sat((uint)i))
  L(convert_short_sat((ushort)i)) L(convert_uchar_sat((char)i))
  L(convert_char_sat((uchar)i))
  // Plain conversions of values in range (fmin/fmax keep NaN out).
  L(convert_int(fmin(fmax(x, -2e9f), 2e9f)))
  L(convert_long(fmin(fmax(y, -9e18), 9e18)))
  L(convert_uchar(fmin(fmax(x, 0.0f), 255.0f)))
  L(convert_short(fmin(fmax(y, -3e4), 3e4)))
  k = 0;
  D(convert_float(i))          D(convert_float(m))  D(convert_float((uint)i))
  D(convert_float(u))          D(convert_double(m)) D(convert_double(u))
  D(convert_float(y))          D(convert_double(x)) D(convert_float((char)i))
  D(convert_double((ushort)i)) D(convert_float(x))  D(convert_double(i))
}

// Vector conversions over all N elements, block by block; results are
// widened as above into consecutive regions of N.
#define VCONV(W, src, convert, widen, out)                                     \
  for (size_t b = get_global_id(0); b < N / W; b += get_global_size(0))        \
    vstore##W(widen(convert(vload##W(b, src))), b, out);                       \
  out += N;
#define ID(v) (v)
__kernel void convert_vector(__global const float *f, __global const double *d,
                             __global const int *w, __global const long *l,
                             __global long *ol, __global double *od) {
  const size_t N = 96;
  VCONV(4, f, convert_int4_sat, convert_long4, ol)
  VCONV(16, f, convert_uchar16_sat, convert_long16, ol)
  VCONV(3, d, convert_char3_sat, convert_long3, ol)
  VCONV(2, d, convert_ulong2_sat, as_long2, ol)
  VCONV(8, w, convert_short8_sat, convert_long8, ol)
  VCONV(2, l, convert_uint2_sat, convert_long2, ol)
  VCONV(16, w, convert_uchar16, convert_long16, ol)
  VCONV(4, l, convert_int4, convert_long4, ol)
  VCONV(4, w, convert_float4, convert_double4, od)
  VCONV(3, l, convert_float3, convert_double3, od)
  VCONV(2, l, convert_double2, ID, od)
  VCONV(16, d, convert_float16, convert_double16, od)
  VCONV(8, f, convert_double8, ID, od)
}

// as_type: the same bytes seen as another type of the same size.
__kernel void as_type(__global const uint *bits, __global uint *out) {
  uint4 v = vload4(0, bits);
  float f = as_float(v.x);
  out[0] = as_uint(f);
  out[1] = as_int(as_float(v.y));
  float4 f4 = as_float4(v);
  vstore4(as_uint4(f4), 0, out + 2);
  char16 c = as_char16(v);
  out[6] = (uchar)c.s0 | (uchar)c.s5 << 8 | (uchar)c.sa << 16 | (uchar)c.sf << 24;
  short8 s = as_short8(v);
  out[7] = (ushort)s.s1 | (uint)(ushort)s.s6 << 16;
  ulong2 q = as_ulong2(v);
  out[8] = (uint)(q.y >> 32);
  double dv = as_double(q.x);
  out[9] = (uint)as_ulong(dv);
  long l = as_long(as_double(q.y));
  out[10] = (uint)l;
  float2 f2 = as_float2(q.x);
  out[11] = as_uint(f2.y);
  uchar4 u4 = as_uchar4(v.z);
  out[12] = u4.w;
  int3 i3 = as_int3(as_float3(v.xyz));
  out[13] = (uint)i3.z;
  ushort2 h = as_ushort2(as_float(v.w));
  out[14] = h.x;
}
