// cuda_fp16.h implements __half arithmetic, comparisons and conversions with
// inline PTX (add.f16, fma.rn.f16x2, set.lt.f16, cvt.rz.f16.f32, ...), which
// respec translates for the CPU. Every result is checked bit-exactly against
// a host reference that rounds the exact result to the nearest (or the
// directed) binary16 value by searching all finite halves.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>

constexpr int N = 1024;

enum Mode { RN, RZ, RD, RU };

// --- Host reference ---------------------------------------------------------

static double decodeHalf(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  if (e == 31)
    v = m ? NAN : INFINITY;
  return (h & 0x8000) ? -v : v;
}

// The binary16 value of the exact `x` rounded with `mode`.
static uint16_t roundHalf(double x, Mode mode) {
  if (std::isnan(x))
    return 0x7e00;
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  double a = std::fabs(x);
  // Largest finite magnitude <= a (bit patterns of positive halves are
  // ordered like their values).
  int lo = 0, hi = 0x7bff;
  if (a >= decodeHalf(0x7bff)) {
    lo = 0x7bff;
  } else {
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (decodeHalf(mid) <= a) lo = mid; else hi = mid - 1;
    }
  }
  double below = decodeHalf(lo);
  if (below == a)
    return sign | lo;
  // Next magnitude up (0x7c00 is infinity).
  int up = lo + 1;
  double above = lo == 0x7bff ? 65536.0 : decodeHalf(up);
  bool away;
  if (mode == RN) {
    double mid = (below + above) / 2;
    away = a > mid || (a == mid && (lo & 1));
  } else if (mode == RZ) {
    away = false;
  } else {
    away = (mode == RU) != (sign != 0);
  }
  if (!away)
    return sign | lo;
  if (lo == 0x7bff && mode != RN)
    return sign | 0x7c00;
  return sign | up;
}

static uint32_t lcg(uint32_t &state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

// --- Device ------------------------------------------------------------------

struct Results {
  uint16_t add[N], sub[N], mul[N], fma[N], neg[N], abs[N], max[N], min[N];
  uint16_t add2lo[N], add2hi[N], mul2lo[N], fma2hi[N], sat[N];
  int lt[N], eq[N], gtu[N], isnan[N], beq2[N];
  uint16_t fromFloat[4][N], fromDouble[N], fromInt[4][N], fromLong[N];
  int toInt[4][N];
  float toFloat[N], exp2[N], sqrt[N], rcp[N];
  uint16_t atomic;
  // A 32-bit atomic on a pair needs 4-byte alignment (on a GPU a misaligned
  // one fails the launch with "misaligned address").
  alignas(4) uint16_t atomic2[2];
};

__global__ void arithmetic(const uint16_t *x, const uint16_t *y,
                           const uint16_t *z, Results *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half a = __ushort_as_half(x[i]), b = __ushort_as_half(y[i]);
  __half c = __ushort_as_half(z[i]);
  r->add[i] = __half_as_ushort(__hadd(a, b));
  r->sub[i] = __half_as_ushort(a - b);
  r->mul[i] = __half_as_ushort(a * b);
  r->fma[i] = __half_as_ushort(__hfma(a, b, c));
  r->neg[i] = __half_as_ushort(-a);
  r->abs[i] = __half_as_ushort(__habs(a));
  r->max[i] = __half_as_ushort(__hmax(a, b));
  r->min[i] = __half_as_ushort(__hmin(a, b));
  r->sat[i] = __half_as_ushort(__hadd_sat(a, b));
  __half2 p = __halves2half2(a, c), q = __halves2half2(b, a);
  __half2 s = __hadd2(p, q), m = __hmul2(p, q), f = __hfma2(p, q, p);
  r->add2lo[i] = __half_as_ushort(__low2half(s));
  r->add2hi[i] = __half_as_ushort(__high2half(s));
  r->mul2lo[i] = __half_as_ushort(__low2half(m));
  r->fma2hi[i] = __half_as_ushort(__high2half(f));
  r->lt[i] = __hlt(a, b);
  r->eq[i] = a == b;
  r->gtu[i] = __hgtu(a, b);
  r->isnan[i] = __hisnan(a);
  r->beq2[i] = __hbeq2(p, q);
}

__global__ void conversions(const float *f, const double *d, const int *n,
                            const long long *l, const uint16_t *x,
                            Results *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  r->fromFloat[RN][i] = __half_as_ushort(__float2half(f[i]));
  r->fromFloat[RZ][i] = __half_as_ushort(__float2half_rz(f[i]));
  r->fromFloat[RD][i] = __half_as_ushort(__float2half_rd(f[i]));
  r->fromFloat[RU][i] = __half_as_ushort(__float2half_ru(f[i]));
  r->fromDouble[i] = __half_as_ushort(__double2half(d[i]));
  r->fromInt[RN][i] = __half_as_ushort(__int2half_rn(n[i]));
  r->fromInt[RZ][i] = __half_as_ushort(__int2half_rz(n[i]));
  r->fromInt[RD][i] = __half_as_ushort(__int2half_rd(n[i]));
  r->fromInt[RU][i] = __half_as_ushort(__int2half_ru(n[i]));
  r->fromLong[i] = __half_as_ushort(__ll2half_ru(l[i]));
  __half h = __ushort_as_half(x[i]);
  r->toInt[RN][i] = __half2int_rn(h);
  r->toInt[RZ][i] = __half2int_rz(h);
  r->toInt[RD][i] = __half2int_rd(h);
  r->toInt[RU][i] = __half2int_ru(h);
  r->toFloat[i] = __half2float(h);
  r->exp2[i] = __half2float(hexp2(h));
  r->sqrt[i] = __half2float(hsqrt(h));
  r->rcp[i] = __half2float(hrcp(h));
}

__global__ void atomics(Results *r) {
  atomicAdd(reinterpret_cast<__half *>(&r->atomic), __float2half(0.25f));
  atomicAdd(reinterpret_cast<__half2 *>(r->atomic2),
            __halves2half2(__float2half(1.0f), __float2half(-0.5f)));
}

// --- Checks ------------------------------------------------------------------

static int failures = 0;

static void expectHalf(const char *what, int i, uint16_t got, uint16_t want) {
  bool nan = std::isnan(decodeHalf(want));
  if (nan ? std::isnan(decodeHalf(got)) : got == want)
    return;
  if (++failures <= 10)
    printf("%s[%d]: got 0x%04x want 0x%04x\n", what, i, got, want);
}

static void expectInt(const char *what, int i, long long got, long long want) {
  if (got != want && ++failures <= 10)
    printf("%s[%d]: got %lld want %lld\n", what, i, got, want);
}

// Approximations (ex2, sqrt, rcp) must be within one binary16 ulp.
static void expectNear(const char *what, int i, float got, double exact) {
  uint16_t want = roundHalf(exact, RN);
  uint16_t gotBits = roundHalf(got, RN);
  if (std::isnan(exact) ? std::isnan(got)
                        : std::abs(int(gotBits) - int(want)) <= 1)
    return;
  if (++failures <= 10)
    printf("%s[%d]: got %g want %g\n", what, i, got, exact);
}

static long long toIntegral(double v, Mode mode) {
  if (std::isnan(v))
    return 0;
  double r = mode == RN ? std::nearbyint(v) : mode == RZ ? std::trunc(v)
             : mode == RD ? std::floor(v) : std::ceil(v);
  return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (long long)r;
}

int main() {
  uint16_t *x, *y, *z;
  float *f;
  double *d;
  int *n;
  long long *l;
  Results *r;
  cudaMallocManaged(&x, N * 2);
  cudaMallocManaged(&y, N * 2);
  cudaMallocManaged(&z, N * 2);
  cudaMallocManaged(&f, N * 4);
  cudaMallocManaged(&d, N * 8);
  cudaMallocManaged(&n, N * 4);
  cudaMallocManaged(&l, N * 8);
  cudaMallocManaged(&r, sizeof(Results));
  memset(r, 0, sizeof(Results));
  uint32_t state = 12345;
  const uint16_t special[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7bff,
                              0x0001, 0x8001, 0x03ff, 0x3c00, 0xbc00, 0x3555};
  for (int i = 0; i < N; ++i) {
    x[i] = i < 12 ? special[i] : lcg(state);
    y[i] = i < 144 ? special[(i / 12) % 12] : lcg(state);
    // Third operands of moderate size, so that fma results are not all
    // dominated by them.
    z[i] = (lcg(state) & 0x83ff) | ((lcg(state) % 24 + 1) << 10);
    uint32_t bits = lcg(state) << 8 | (lcg(state) & 255);
    // Floats around the binary16 range, subnormals and overflow included.
    bits = (bits & 0x807fffff) | ((lcg(state) % 48 + 96) << 23);
    memcpy(&f[i], &bits, 4);
    d[i] = f[i] * (1.0 + std::ldexp(lcg(state), -40));
    n[i] = int(lcg(state)) - (1 << 23) + (i % 7 == 0 ? int(lcg(state)) << 7 : 0);
    l[i] = (long long)lcg(state) << (i % 40) ^ (i & 1 ? -1LL : 0);
  }
  arithmetic<<<N / 256, 256>>>(x, y, z, r);
  conversions<<<N / 256, 256>>>(f, d, n, l, x, r);
  atomics<<<4, 64>>>(r);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  for (int i = 0; i < N; ++i) {
    double a = decodeHalf(x[i]), b = decodeHalf(y[i]), c = decodeHalf(z[i]);
    // Sums and products of binary16 values are exact in double.
    expectHalf("add", i, r->add[i], roundHalf(a + b, RN));
    expectHalf("sub", i, r->sub[i], roundHalf(a - b, RN));
    expectHalf("mul", i, r->mul[i], roundHalf(a * b, RN));
    expectHalf("fma", i, r->fma[i], roundHalf(std::fma(a, b, c), RN));
    expectHalf("neg", i, r->neg[i], x[i] ^ 0x8000);
    expectHalf("abs", i, r->abs[i], x[i] & 0x7fff);
    double sat = roundHalf(a + b, RN) == 0x7e00 ? 0 : decodeHalf(roundHalf(a + b, RN));
    expectHalf("add_sat", i, r->sat[i], roundHalf(std::fmin(std::fmax(sat, 0.0), 1.0), RN));
    if (!(a == 0 && b == 0)) {
      expectHalf("max", i, r->max[i], roundHalf(std::fmax(a, b), RN));
      expectHalf("min", i, r->min[i], roundHalf(std::fmin(a, b), RN));
    }
    expectHalf("add2.lo", i, r->add2lo[i], roundHalf(a + b, RN));
    expectHalf("add2.hi", i, r->add2hi[i], roundHalf(c + a, RN));
    expectHalf("mul2.lo", i, r->mul2lo[i], roundHalf(a * b, RN));
    expectHalf("fma2.hi", i, r->fma2hi[i], roundHalf(std::fma(c, a, c), RN));
    expectInt("lt", i, r->lt[i], a < b);
    expectInt("eq", i, r->eq[i], a == b);
    expectInt("gtu", i, r->gtu[i], !(a <= b));
    expectInt("isnan", i, r->isnan[i], std::isnan(a));
    expectInt("beq2", i, r->beq2[i], a == b && c == a);
    for (Mode mode : {RN, RZ, RD, RU}) {
      expectHalf("float2half", i, r->fromFloat[mode][i], roundHalf(f[i], mode));
      expectHalf("int2half", i, r->fromInt[mode][i], roundHalf(n[i], mode));
      expectInt("half2int", i, r->toInt[mode][i], toIntegral(a, mode));
    }
    expectHalf("double2half", i, r->fromDouble[i], roundHalf(d[i], RN));
    // long long to double may round; the reference rounds the exact value.
    long double exact = (long double)l[i];
    double nearest = (double)exact;
    uint16_t wantLong = roundHalf(nearest, RU);
    if ((long double)nearest < exact && decodeHalf(wantLong) < exact)
      wantLong = roundHalf(std::nextafter(nearest, INFINITY), RU);
    expectHalf("ll2half_ru", i, r->fromLong[i], wantLong);
    if (!std::isnan(a))
      expectInt("half2float", i, r->toFloat[i] == (float)a, 1);
    expectNear("hexp2", i, r->exp2[i], std::exp2(a));
    expectNear("hsqrt", i, r->sqrt[i], std::sqrt(a));
    expectNear("hrcp", i, r->rcp[i], 1.0 / a);
  }
  expectHalf("atomicAdd(__half)", 0, r->atomic, roundHalf(256 * 0.25, RN));
  expectHalf("atomicAdd(__half2).x", 0, r->atomic2[0], roundHalf(256.0, RN));
  expectHalf("atomicAdd(__half2).y", 0, r->atomic2[1], roundHalf(-128.0, RN));
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}
