// Inline PTX written by the user: bit fields (bfe, bfi), byte permutes in
// every prmt mode, lop3, bfind, wide and high multiplies, saturating and
// rounding cvt, vector and sign-extending loads, scopes with `.reg`
// declarations (`r<3>`), predicated instructions, and atomics. respec
// translates the PTX for the CPU; results are checked against host code.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

constexpr int N = 256;
constexpr int kOut = 25;

__global__ void bits(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], r;
  unsigned *o = out + i * kOut;
  unsigned pos = y & 0x3f, len = (y >> 8) & 0x3f;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  o[0] = r;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len));
  o[1] = r;
  asm("bfi.b32 %0, %1, %2, %3, %4;"
      : "=r"(r) : "r"(x), "r"(y), "r"(pos), "r"(len));
  o[2] = r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(y >> 16));
  o[3] = r;
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[4] = r;
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[5] = r;
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[6] = r;
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[7] = r;
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[8] = r;
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[9] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[10] = r;
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[11] = r;
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(x >> (i % 33 == 32 ? 0 : i % 33)));
  o[12] = r;
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(int(x) >> (i % 32)));
  o[13] = r;
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(y >> (i % 32)));
  o[14] = r;
  // A scope with declared registers, a predicate and guarded moves.
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t<2>;\n\t"
      "setp.lt.s32 p, %1, %2;\n\t"
      "@p mov.b32 t0, %1;\n\t@!p mov.b32 t0, %2;\n\t"
      "mul.hi.u32 t1, %1, %2;\n\t"
      "add.u32 %0, t0, t1;\n\t}"
      : "=r"(r) : "r"(x), "r"(y));
  o[15] = r;
  unsigned long long wide;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(wide) : "r"(x), "r"(y));
  o[16] = unsigned(wide >> 32);
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(7u));
  o[17] = r;
  asm("cvt.sat.s8.s32 %0, %1;" : "=r"(r) : "r"(int(x) >> 20));
  o[18] = r;
  float f = (int(x) >> 8) / 256.0f;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[19] = r;
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(r) : "f"(f));
  o[20] = r;
  unsigned short h;
  asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(f * 1000.0f));
  o[21] = h;
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(i));
  o[22] = r;
  asm("sad.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(1u));
  o[23] = r;
  // A guarded write of another type (f32 into a register holding a b32
  // from an input) merges with the old value after the guard.
  float g = float(i);
  asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\tmov.b32 t, %1;\n\t"
      "setp.gt.f32 p, %2, 100.0;\n\t@p mov.f32 t, %2;\n\t"
      "mov.b32 %0, t;\n\t}"
      : "=r"(r) : "r"(x), "f"(g));
  o[24] = r;
}

__global__ void memory(const float2 *in, const signed char *bytes,
                       float *out, int *counters, float *sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float lo, hi;
  asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];"
               : "=f"(lo), "=f"(hi) : "l"(in + i));
  int sb;
  asm volatile("ld.global.s8 %0, [%1+1];" : "=r"(sb) : "l"(bytes + i));
  asm volatile("st.global.cs.v2.f32 [%0], {%1, %2};"
               :: "l"(out + 2 * i), "f"(hi), "f"(lo + sb) : "memory");
  int old;
  asm volatile("atom.global.add.u32 %0, [%1], 1;"
               : "=r"(old) : "l"(counters) : "memory");
  asm volatile("atom.global.max.s32 %0, [%1], %2;"
               : "=r"(old) : "l"(counters + 1), "r"(i) : "memory");
  asm volatile("atom.global.inc.u32 %0, [%1], 9;"
               : "=r"(old) : "l"(counters + 2) : "memory");
  asm volatile("red.global.add.f32 [%0], %1;" :: "l"(sum), "f"(0.5f) : "memory");
  // Every thread swaps its own slot from 0 to i + 1 exactly once.
  asm volatile("atom.global.cas.b32 %0, [%1], 0, %2;"
               : "=r"(old) : "l"(counters + 3 + i), "r"(i + 1) : "memory");
}

// --- Host reference -----------------------------------------------------------

static unsigned bfe(unsigned x, unsigned pos, unsigned len, bool isSigned) {
  unsigned result = 0;
  unsigned sbit = 0;
  if (isSigned && len != 0)
    sbit = (x >> (pos + len - 1 > 31 ? 31 : pos + len - 1)) & 1;
  for (unsigned k = 0; k < 32; ++k) {
    unsigned bit = k < len && pos + k <= 31 ? (x >> (pos + k)) & 1 : sbit;
    result |= bit << k;
  }
  return result;
}

static unsigned bfi(unsigned a, unsigned b, unsigned pos, unsigned len) {
  unsigned f = b;
  for (unsigned k = 0; k < len && pos + k <= 31; ++k)
    f = (f & ~(1u << (pos + k))) | (((a >> k) & 1) << (pos + k));
  return f;
}

static unsigned byteOf(unsigned a, unsigned b, unsigned k) {
  unsigned long long v = (unsigned long long)b << 32 | a;
  return (v >> (8 * (k & 7))) & 0xff;
}

// prmt's special modes as the PTX ISA describes them: f4e takes bytes
// s..s+3, b4e s, s-1, ..., rc8 replicates byte s, ecl/ecr clamp the byte
// index at s from the left/right, rc16 replicates half-word s&1.
static unsigned prmtMode(unsigned a, unsigned b, unsigned c, int mode) {
  unsigned s = c & 3, r = 0;
  for (unsigned k = 0; k < 4; ++k) {
    unsigned index = mode == 0 ? s + k
                     : mode == 1 ? (s + 8 - k) & 7
                     : mode == 2 ? s
                     : mode == 3 ? (k > s ? k : s)
                     : mode == 4 ? (k < s ? k : s)
                                 : 2 * (s & 1) + (k & 1);
    r |= byteOf(a, b, index) << (8 * k);
  }
  return r;
}

static unsigned bfind(unsigned x, bool isSigned, bool shiftAmount) {
  if (isSigned && int(x) < 0)
    x = ~x;
  if (x == 0)
    return 0xffffffffu;
  int msb = 31 - __builtin_clz(x);
  return shiftAmount ? 31 - msb : msb;
}

int main() {
  unsigned *a, *b, *out;
  cudaMallocManaged(&a, N * 4);
  cudaMallocManaged(&b, N * 4);
  cudaMallocManaged(&out, N * kOut * 4);
  uint32_t state = 4242;
  for (int i = 0; i < N; ++i) {
    state = state * 1664525u + 1013904223u;
    a[i] = i == 0 ? 0 : i == 1 ? 0xffffffffu : state;
    state = state * 1664525u + 1013904223u;
    b[i] = state;
  }
  bits<<<N / 64, 64>>>(a, b, out);

  float2 *in;
  signed char *bytes;
  float *stored, *sum;
  int *counters;
  cudaMallocManaged(&in, N * sizeof(float2));
  cudaMallocManaged(&bytes, N + 1);
  cudaMallocManaged(&stored, 2 * N * 4);
  cudaMallocManaged(&counters, (N + 3) * 4);
  cudaMallocManaged(&sum, 4);
  for (int i = 0; i < N; ++i)
    in[i] = make_float2(i, -i);
  for (int i = 0; i <= N; ++i)
    bytes[i] = (signed char)(i * 37);
  for (int i = 0; i < N + 3; ++i)
    counters[i] = 0;
  *sum = 0;
  memory<<<N / 64, 64>>>(in, bytes, stored, counters, sum);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, unsigned got, unsigned want) {
    if (got != want && ++failures <= 10)
      printf("%s[%d] (0x%08x, 0x%08x): got 0x%08x want 0x%08x\n", what, i,
             a[i], b[i], got, want);
  };
  for (int i = 0; i < N; ++i) {
    unsigned x = a[i], y = b[i];
    unsigned *o = out + i * kOut;
    unsigned pos = y & 0x3f, len = (y >> 8) & 0x3f;
    expect("bfe.u32", i, o[0], bfe(x, pos, len, false));
    expect("bfe.s32", i, o[1], bfe(x, pos, len, true));
    expect("bfi.b32", i, o[2], bfi(x, y, pos, len));
    unsigned byteSelect = y >> 16, perm = 0;
    for (int k = 0; k < 4; ++k) {
      unsigned nibble = byteSelect >> (4 * k) & 15;
      unsigned v = byteOf(x, y, nibble & 7);
      if (nibble & 8)
        v = v & 0x80 ? 0xff : 0;
      perm |= v << (8 * k);
    }
    expect("prmt.b32", i, o[3], perm);
    const char *modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int m = 0; m < 6; ++m)
      expect(modes[m], i, o[4 + m], prmtMode(x, y, i, m));
    expect("lop3 0x96", i, o[10], x ^ y ^ i);
    expect("lop3 0xE8", i, o[11], (x & y) | (x & i) | (y & i));
    expect("bfind.u32", i, o[12], bfind(x >> (i % 33 == 32 ? 0 : i % 33), false, false));
    expect("bfind.s32", i, o[13], bfind(int(x) >> (i % 32), true, false));
    expect("bfind.shiftamt", i, o[14], bfind(y >> (i % 32), false, true));
    unsigned minimum = int(x) < int(y) ? x : y;
    unsigned high = unsigned(((unsigned long long)x * y) >> 32);
    expect("scoped asm", i, o[15], minimum + high);
    expect("mul.wide.s32", i, o[16],
           unsigned(((long long)int(x) * int(y)) >> 32));
    expect("mad.lo.u32", i, o[17], x * y + 7);
    int shifted = int(x) >> 20;
    expect("cvt.sat.s8.s32", i, o[18],
           unsigned(shifted > 127 ? 127 : shifted < -128 ? -128 : shifted));
    float f = (int(x) >> 8) / 256.0f;
    expect("cvt.rni.s32.f32", i, o[19], unsigned(int(std::nearbyint(f))));
    expect("cvt.rmi.s32.f32", i, o[20], unsigned(int(std::floor(f))));
    // cvt.rz to binary16: truncate the float's significand to 11 bits
    // (the values are normal halves or overflow to the largest finite).
    float big = f * 1000.0f, mag = std::fabs(big);
    unsigned half;
    if (mag >= 65504.0f) {
      half = 0x7bff;
    } else if (mag < 6.103515625e-05f) {
      half = unsigned(mag / 5.9604644775390625e-08f); // subnormal halves
    } else {
      int e;
      float m = std::frexp(mag, &e);
      half = ((e + 14) << 10) | (unsigned(m * 2048) & 1023);
    }
    expect("cvt.rz.f16.f32", i, o[21], half | (big < 0 ? 0x8000 : 0));
    unsigned shift = i < 32 ? i : 32;
    unsigned long long v = (unsigned long long)y << 32 | x;
    expect("shf.r.clamp", i, o[22], unsigned(v >> shift));
    expect("sad.u32", i, o[23], (x > y ? x - y : y - x) + 1);
    float g = float(i);
    unsigned gBits;
    memcpy(&gBits, &g, 4);
    expect("guarded mov", i, o[24], i > 100 ? gBits : x);
    expect("ld.nc.v2/st.cs.v2 x", i, stored[2 * i] == -i, 1);
    expect("ld.s8/st.cs.v2 y", i, stored[2 * i + 1] == i + (signed char)((i + 1) * 37), 1);
    expect("atom.cas", i, counters[3 + i], i + 1);
  }
  expect("atom.add", 0, counters[0], N);
  expect("atom.max", 0, counters[1], N - 1);
  expect("atom.inc", 0, counters[2], N % 10);
  expect("red.add.f32", 0, *sum == N * 0.5f, 1);
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}
