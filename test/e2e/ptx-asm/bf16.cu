// cuda_bf16.h implements __nv_bfloat16 arithmetic, comparisons and
// conversions with inline PTX (fma.rn.bf16, cvt.rz.bf16.f32, cvt.rn.bf16.f64,
// max.bf16x2, atom.add.noftz.bf16, ...), which respec translates for the
// CPU. Results are checked bit-exactly against a host reference that rounds
// the exact result to the nearest (or the directed) bfloat16 value.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>

constexpr int N = 1024;

enum Mode { RN, RZ, RD, RU };

// --- Host reference ---------------------------------------------------------

static double decode(uint16_t h) {
  uint32_t bits = uint32_t(h) << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

// The bfloat16 value of the exact `x` rounded with `mode`.
static uint16_t roundBf16(double x, Mode mode) {
  if (std::isnan(x))
    return 0x7fc0;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  const int maxFinite = 0x7f7f;
  int lo = 0, hi = maxFinite;
  if (a >= decode(maxFinite)) {
    lo = maxFinite;
  } else {
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (decode(mid) <= a) lo = mid; else hi = mid - 1;
    }
  }
  double below = decode(lo);
  if (below == a)
    return sign | lo;
  double above = lo == maxFinite ? std::ldexp(1.0, 128) : decode(lo + 1);
  bool away;
  if (mode == RN) {
    double mid = (below + above) / 2;
    away = a > mid || (a == mid && (lo & 1));
  } else if (mode == RZ) {
    away = false;
  } else {
    away = (mode == RU) != (sign != 0);
  }
  return sign | (away ? lo + 1 : lo);
}

static uint32_t lcg(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

// --- Device ------------------------------------------------------------------

struct Results {
  uint16_t add[N], sub[N], mul[N], fma[N], neg[N], abs[N], max[N], min[N];
  uint16_t add2hi[N], fma2lo[N], max2hi[N];
  int lt[N], ge[N], isnan[N];
  uint16_t fromFloat[4][N], fromDouble[N], fromInt[4][N];
  int toInt[4][N];
  float toFloat[N];
  uint16_t atomic;
  // A 32-bit atomic on a pair needs 4-byte alignment (on a GPU a misaligned
  // one fails the launch with "misaligned address").
  alignas(4) uint16_t atomic2[2];
};

__global__ void arithmetic(const uint16_t *x, const uint16_t *y,
                           const uint16_t *z, Results *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __nv_bfloat16 a = __ushort_as_bfloat16(x[i]), b = __ushort_as_bfloat16(y[i]);
  __nv_bfloat16 c = __ushort_as_bfloat16(z[i]);
  r->add[i] = __bfloat16_as_ushort(__hadd(a, b));
  r->sub[i] = __bfloat16_as_ushort(a - b);
  r->mul[i] = __bfloat16_as_ushort(a * b);
  r->fma[i] = __bfloat16_as_ushort(__hfma(a, b, c));
  r->neg[i] = __bfloat16_as_ushort(-a);
  r->abs[i] = __bfloat16_as_ushort(__habs(a));
  r->max[i] = __bfloat16_as_ushort(__hmax(a, b));
  r->min[i] = __bfloat16_as_ushort(__hmin(a, b));
  __nv_bfloat162 p = __halves2bfloat162(a, c), q = __halves2bfloat162(b, a);
  r->add2hi[i] = __bfloat16_as_ushort(__high2bfloat16(__hadd2(p, q)));
  r->fma2lo[i] = __bfloat16_as_ushort(__low2bfloat16(__hfma2(p, q, p)));
  r->max2hi[i] = __bfloat16_as_ushort(__high2bfloat16(__hmax2(p, q)));
  r->lt[i] = __hlt(a, b);
  r->ge[i] = a >= b;
  r->isnan[i] = __hisnan(a);
}

__global__ void conversions(const float *f, const double *d, const int *n,
                            const uint16_t *x, Results *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  r->fromFloat[RN][i] = __bfloat16_as_ushort(__float2bfloat16(f[i]));
  r->fromFloat[RZ][i] = __bfloat16_as_ushort(__float2bfloat16_rz(f[i]));
  r->fromFloat[RD][i] = __bfloat16_as_ushort(__float2bfloat16_rd(f[i]));
  r->fromFloat[RU][i] = __bfloat16_as_ushort(__float2bfloat16_ru(f[i]));
  r->fromDouble[i] = __bfloat16_as_ushort(__double2bfloat16(d[i]));
  r->fromInt[RN][i] = __bfloat16_as_ushort(__int2bfloat16_rn(n[i]));
  r->fromInt[RZ][i] = __bfloat16_as_ushort(__int2bfloat16_rz(n[i]));
  r->fromInt[RD][i] = __bfloat16_as_ushort(__int2bfloat16_rd(n[i]));
  r->fromInt[RU][i] = __bfloat16_as_ushort(__int2bfloat16_ru(n[i]));
  __nv_bfloat16 h = __ushort_as_bfloat16(x[i]);
  r->toInt[RN][i] = __bfloat162int_rn(h);
  r->toInt[RZ][i] = __bfloat162int_rz(h);
  r->toInt[RD][i] = __bfloat162int_rd(h);
  r->toInt[RU][i] = __bfloat162int_ru(h);
  r->toFloat[i] = __bfloat162float(h);
}

__global__ void atomics(Results *r) {
  atomicAdd(reinterpret_cast<__nv_bfloat16 *>(&r->atomic),
            __float2bfloat16(0.5f));
  atomicAdd(reinterpret_cast<__nv_bfloat162 *>(r->atomic2),
            __floats2bfloat162_rn(2.0f, -0.25f));
}

// --- Checks ------------------------------------------------------------------

static int failures = 0;

static void expectBf16(const char *what, int i, uint16_t got, uint16_t want) {
  bool nan = std::isnan(decode(want));
  if (nan ? std::isnan(decode(got)) : got == want)
    return;
  if (++failures <= 10)
    printf("%s[%d]: got 0x%04x want 0x%04x\n", what, i, got, want);
}

static void expectInt(const char *what, int i, long long got, long long want) {
  if (got != want && ++failures <= 10)
    printf("%s[%d]: got %lld want %lld\n", what, i, got, want);
}

static long long toIntegral(double v, Mode mode) {
  if (std::isnan(v))
    return 0;
  double r = mode == RN ? std::nearbyint(v) : mode == RZ ? std::trunc(v)
             : mode == RD ? std::floor(v) : std::ceil(v);
  return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (long long)r;
}

// A bfloat16 whose exponent lies within 2^-20..2^20 (so that sums are exact
// in double), or a special value.
static uint16_t operand(uint32_t &state, int i) {
  const uint16_t special[] = {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0x3f80,
                              0xbf80, 0x0001, 0x4000, 0x3f81};
  if (i < 10)
    return special[i];
  return (lcg(state) & 0x807f) | ((lcg(state) % 40 + 107) << 7);
}

int main() {
  uint16_t *x, *y, *z;
  float *f;
  double *d;
  int *n;
  Results *r;
  cudaMallocManaged(&x, N * 2);
  cudaMallocManaged(&y, N * 2);
  cudaMallocManaged(&z, N * 2);
  cudaMallocManaged(&f, N * 4);
  cudaMallocManaged(&d, N * 8);
  cudaMallocManaged(&n, N * 4);
  cudaMallocManaged(&r, sizeof(Results));
  memset(r, 0, sizeof(Results));
  uint32_t state = 777;
  for (int i = 0; i < N; ++i) {
    x[i] = operand(state, i);
    y[i] = operand(state, i < 100 ? i / 10 : i);
    z[i] = operand(state, i + 10);
    uint32_t bits = lcg(state) << 8 | (lcg(state) & 255);
    if (i % 5 == 0)
      bits &= 0x807fffff; // subnormal floats
    if (i % 5 == 1)
      bits |= 0x7f000000; // near the top of the range
    memcpy(&f[i], &bits, 4);
    d[i] = f[i] * (1.0 + std::ldexp(lcg(state), -40));
    n[i] = int(lcg(state)) << (i % 9);
  }
  arithmetic<<<N / 256, 256>>>(x, y, z, r);
  conversions<<<N / 256, 256>>>(f, d, n, x, r);
  atomics<<<2, 64>>>(r);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  for (int i = 0; i < N; ++i) {
    double a = decode(x[i]), b = decode(y[i]), c = decode(z[i]);
    expectBf16("add", i, r->add[i], roundBf16(a + b, RN));
    expectBf16("sub", i, r->sub[i], roundBf16(a - b, RN));
    expectBf16("mul", i, r->mul[i], roundBf16(a * b, RN));
    expectBf16("fma", i, r->fma[i], roundBf16(std::fma(a, b, c), RN));
    expectBf16("neg", i, r->neg[i], x[i] ^ 0x8000);
    expectBf16("abs", i, r->abs[i], x[i] & 0x7fff);
    if (!(a == 0 && b == 0)) {
      expectBf16("max", i, r->max[i], roundBf16(std::fmax(a, b), RN));
      expectBf16("min", i, r->min[i], roundBf16(std::fmin(a, b), RN));
      expectBf16("max2.hi", i, r->max2hi[i], roundBf16(std::fmax(c, a), RN));
    }
    expectBf16("add2.hi", i, r->add2hi[i], roundBf16(c + a, RN));
    expectBf16("fma2.lo", i, r->fma2lo[i], roundBf16(std::fma(a, b, a), RN));
    expectInt("lt", i, r->lt[i], a < b);
    expectInt("ge", i, r->ge[i], a >= b);
    expectInt("isnan", i, r->isnan[i], std::isnan(a));
    for (Mode mode : {RN, RZ, RD, RU}) {
      expectBf16("float2bfloat16", i, r->fromFloat[mode][i], roundBf16(f[i], mode));
      expectBf16("int2bfloat16", i, r->fromInt[mode][i], roundBf16(n[i], mode));
      expectInt("bfloat162int", i, r->toInt[mode][i], toIntegral(a, mode));
    }
    expectBf16("double2bfloat16", i, r->fromDouble[i], roundBf16(d[i], RN));
    if (!std::isnan(a))
      expectInt("bfloat162float", i, r->toFloat[i] == (float)a, 1);
  }
  expectBf16("atomicAdd(bf16)", 0, r->atomic, roundBf16(128 * 0.5, RN));
  expectBf16("atomicAdd(bf162).x", 0, r->atomic2[0], roundBf16(256.0, RN));
  expectBf16("atomicAdd(bf162).y", 0, r->atomic2[1], roundBf16(-32.0, RN));
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}
