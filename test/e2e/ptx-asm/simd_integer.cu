// CUDA's integer intrinsics that clang's headers implement with inline PTX:
// __funnelshift_{l,r,lc,rc} (shf.{l,r}.{wrap,clamp}.b32), __dp4a / __dp2a_lo
// / __dp2a_hi (dp4a, dp2a) and the SIMD video intrinsics __vadd2,
// __vabsdiffu4, __vcmpgts2, __vsads4, ... (vadd2, vabsdiff4, vset2, ...).
// Checked bit-exactly against host implementations of the CUDA math API
// definitions.
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK: PASSED

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

constexpr int N = 512;
constexpr int kFunctions = 82;

#define SIMD_FUNCTIONS(X)                                                      \
  X(__vabs2) X(__vabs4) X(__vabsss2) X(__vabsss4) X(__vneg2) X(__vneg4)        \
  X(__vnegss2) X(__vnegss4)
#define SIMD_FUNCTIONS2(X)                                                     \
  X(__vabsdiffs2) X(__vabsdiffs4) X(__vabsdiffu2) X(__vabsdiffu4)              \
  X(__vadd2) X(__vadd4) X(__vaddss2) X(__vaddss4) X(__vaddus2) X(__vaddus4)    \
  X(__vavgs2) X(__vavgs4) X(__vavgu2) X(__vavgu4) X(__vhaddu2) X(__vhaddu4)    \
  X(__vcmpeq2) X(__vcmpeq4) X(__vcmpges2) X(__vcmpges4) X(__vcmpgeu2)          \
  X(__vcmpgeu4) X(__vcmpgts2) X(__vcmpgts4) X(__vcmpgtu2) X(__vcmpgtu4)        \
  X(__vcmples2) X(__vcmples4) X(__vcmpleu2) X(__vcmpleu4) X(__vcmplts2)        \
  X(__vcmplts4) X(__vcmpltu2) X(__vcmpltu4) X(__vcmpne2) X(__vcmpne4)          \
  X(__vmaxs2) X(__vmaxs4) X(__vmaxu2) X(__vmaxu4) X(__vmins2) X(__vmins4)      \
  X(__vminu2) X(__vminu4) X(__vsads2) X(__vsads4) X(__vsadu2) X(__vsadu4)      \
  X(__vseteq2) X(__vseteq4) X(__vsetges2) X(__vsetges4) X(__vsetgeu2)          \
  X(__vsetgeu4) X(__vsetgts2) X(__vsetgts4) X(__vsetgtu2) X(__vsetgtu4)        \
  X(__vsetles2) X(__vsetles4) X(__vsetleu2) X(__vsetleu4) X(__vsetlts2)        \
  X(__vsetlts4) X(__vsetltu2) X(__vsetltu4) X(__vsetne2) X(__vsetne4)          \
  X(__vsub2) X(__vsub4) X(__vsubss2) X(__vsubss4) X(__vsubus2) X(__vsubus4)

#define NAME(f) #f,
static const char *names[] = {SIMD_FUNCTIONS(NAME) SIMD_FUNCTIONS2(NAME)};
static_assert(sizeof(names) / sizeof(names[0]) == kFunctions, "one slot each");

__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *o = out + i * kFunctions;
#define CALL1(f) *o++ = f(a[i]);
#define CALL2(f) *o++ = f(a[i], b[i]);
  SIMD_FUNCTIONS(CALL1)
  SIMD_FUNCTIONS2(CALL2)
}

__global__ void others(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = a[i], y = b[i], s = a[(i + 1) % N];
  unsigned *o = out + i * 10;
  o[0] = __funnelshift_l(x, y, s);
  o[1] = __funnelshift_r(x, y, s);
  o[2] = __funnelshift_lc(x, y, s % 40);
  o[3] = __funnelshift_rc(x, y, s % 40);
  o[4] = __dp4a(int(x), int(y), int(s));
  o[5] = __dp4a(x, y, s);
  o[6] = __dp2a_lo(int(x), int(y), int(s));
  o[7] = __dp2a_hi(int(x), int(y), int(s));
  o[8] = __dp2a_lo(x, y, s);
  o[9] = __dp2a_hi(x, y, s);
}

// --- Host reference -----------------------------------------------------------

// Lane `k` of `x` (lanes of 32/n bits), sign- or zero-extended.
static long long lane(unsigned x, int n, int k, bool isSigned) {
  int bits = 32 / n;
  unsigned v = (x >> (k * bits)) & ((1u << bits) - 1);
  if (isSigned && (v >> (bits - 1)))
    return (long long)v - (1LL << bits);
  return v;
}

static long long clampLane(long long v, int n, bool isSigned) {
  int bits = 32 / n;
  long long lo = isSigned ? -(1LL << (bits - 1)) : 0;
  long long hi = isSigned ? (1LL << (bits - 1)) - 1 : (1LL << bits) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}

template <typename F>
static unsigned lanewise(unsigned x, unsigned y, int n, bool isSigned, F f) {
  unsigned r = 0;
  int bits = 32 / n;
  for (int k = 0; k < n; ++k) {
    long long v = f(lane(x, n, k, isSigned), lane(y, n, k, isSigned));
    r |= (unsigned(v) & ((1u << bits) - 1)) << (k * bits);
  }
  return r;
}

static unsigned reference(const char *name, unsigned x, unsigned y) {
  int n = name[strlen(name) - 1] - '0';
  char kind = name[strlen(name) - 2];
  bool s = kind == 's';
  std::string f(name);
  unsigned mask = n == 2 ? 0xffff : 0xff;
  auto abs = [](long long v) { return v < 0 ? -v : v; };
  auto sum = [&](bool isSigned) {
    long long total = 0;
    for (int k = 0; k < n; ++k)
      total += abs(lane(x, n, k, isSigned) - lane(y, n, k, isSigned));
    return unsigned(total);
  };
  auto cmp = [&](auto pred, bool isSigned, unsigned yes) {
    return lanewise(x, y, n, isSigned, [&](long long p, long long q) {
      return pred(p, q) ? (long long)yes : 0LL;
    });
  };
  auto when = [&](const char *prefix) { return f.rfind(prefix, 0) == 0; };
  unsigned ones = mask;
  if (when("__vabsss")) return lanewise(x, 0, n, true, [&](long long p, long long) { return clampLane(abs(p), n, true); });
  if (when("__vabsdiff")) return lanewise(x, y, n, s, [&](long long p, long long q) { return abs(p - q); });
  if (when("__vabs")) return lanewise(x, 0, n, true, [&](long long p, long long) { return abs(p); });
  if (when("__vnegss")) return lanewise(x, 0, n, true, [&](long long p, long long) { return clampLane(-p, n, true); });
  if (when("__vneg")) return lanewise(x, 0, n, true, [&](long long p, long long) { return -p; });
  if (when("__vaddss")) return lanewise(x, y, n, true, [&](long long p, long long q) { return clampLane(p + q, n, true); });
  if (when("__vaddus")) return lanewise(x, y, n, false, [&](long long p, long long q) { return clampLane(p + q, n, false); });
  if (when("__vadd")) return lanewise(x, y, n, false, [&](long long p, long long q) { return p + q; });
  if (when("__vsubss")) return lanewise(x, y, n, true, [&](long long p, long long q) { return clampLane(p - q, n, true); });
  if (when("__vsubus")) return lanewise(x, y, n, false, [&](long long p, long long q) { return clampLane(p - q, n, false); });
  if (when("__vsub")) return lanewise(x, y, n, false, [&](long long p, long long q) { return p - q; });
  // Rounded average, ties away from zero (measured on an H200 with nvcc's
  // and respec's builds: __vavgs2(0xffffffff, 0) is 0xffffffff); __vhaddu
  // truncates.
  if (when("__vavg")) return lanewise(x, y, n, s, [&](long long p, long long q) { return (p + q + (p + q >= 0)) >> 1; });
  if (when("__vhaddu")) return lanewise(x, y, n, false, [&](long long p, long long q) { return (p + q) >> 1; });
  if (when("__vmax")) return lanewise(x, y, n, s, [&](long long p, long long q) { return p > q ? p : q; });
  if (when("__vmin")) return lanewise(x, y, n, s, [&](long long p, long long q) { return p < q ? p : q; });
  if (when("__vsad")) return sum(s);
  bool set = when("__vset");
  unsigned yes = set ? 1 : ones;
  std::string op = f.substr(set ? 6 : 6, 2);
  bool isSigned = kind == 's';
  if (op == "eq") return cmp([](long long p, long long q) { return p == q; }, false, yes);
  if (op == "ne") return cmp([](long long p, long long q) { return p != q; }, false, yes);
  if (op == "ge") return cmp([](long long p, long long q) { return p >= q; }, isSigned, yes);
  if (op == "gt") return cmp([](long long p, long long q) { return p > q; }, isSigned, yes);
  if (op == "le") return cmp([](long long p, long long q) { return p <= q; }, isSigned, yes);
  if (op == "lt") return cmp([](long long p, long long q) { return p < q; }, isSigned, yes);
  printf("no reference for %s\n", name);
  exit(1);
}

static unsigned funnel(unsigned lo, unsigned hi, unsigned shift, bool left) {
  unsigned long long v = (unsigned long long)hi << 32 | lo;
  return left ? unsigned((v << shift) >> 32) : unsigned(v >> shift);
}

static unsigned dot(unsigned x, unsigned y, unsigned c, bool isSigned,
                    int pairs, int firstByte) {
  long long total = (int)c;
  for (int k = 0; k < pairs; ++k) {
    long long p = pairs == 4 ? lane(x, 4, k, isSigned) : lane(x, 2, k, isSigned);
    long long q = lane(y, 4, firstByte + k, isSigned);
    total += p * q;
  }
  return unsigned(total);
}

int main() {
  unsigned *a, *b, *out, *out2;
  cudaMallocManaged(&a, N * 4);
  cudaMallocManaged(&b, N * 4);
  cudaMallocManaged(&out, N * kFunctions * 4);
  cudaMallocManaged(&out2, N * 10 * 4);
  uint32_t state = 99;
  const unsigned edges[] = {0, 0xffffffffu, 0x80008000u, 0x7fff7fffu,
                            0x80808080u, 0x7f7f7f7fu, 0x00010001u, 0x01010101u};
  for (int i = 0; i < N; ++i) {
    state = state * 1664525u + 1013904223u;
    a[i] = i < 64 ? edges[i % 8] : state;
    state = state * 1664525u + 1013904223u;
    b[i] = i < 64 ? edges[i / 8] : state ^ (state >> 7);
  }
  simd<<<N / 128, 128>>>(a, b, out);
  others<<<N / 128, 128>>>(a, b, out2);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("FAILED (launch)\n");
    return 1;
  }
  int failures = 0;
  auto expect = [&](const char *what, int i, unsigned got, unsigned want) {
    if (got != want && ++failures <= 10)
      printf("%s(0x%08x, 0x%08x): got 0x%08x want 0x%08x\n", what, a[i], b[i],
             got, want);
  };
  for (int i = 0; i < N; ++i) {
    for (int f = 0; f < kFunctions; ++f)
      expect(names[f], i, out[i * kFunctions + f],
             reference(names[f], a[i], f < 8 ? 0 : b[i]));
    unsigned x = a[i], y = b[i], s = a[(i + 1) % N];
    unsigned *o = out2 + i * 10;
    expect("__funnelshift_l", i, o[0], funnel(x, y, s & 31, true));
    expect("__funnelshift_r", i, o[1], funnel(x, y, s & 31, false));
    unsigned c = s % 40 < 32 ? s % 40 : 32;
    expect("__funnelshift_lc", i, o[2], funnel(x, y, c, true));
    expect("__funnelshift_rc", i, o[3], funnel(x, y, c, false));
    expect("__dp4a(int)", i, o[4], dot(x, y, s, true, 4, 0));
    expect("__dp4a(unsigned)", i, o[5], dot(x, y, s, false, 4, 0));
    expect("__dp2a_lo(int)", i, o[6], dot(x, y, s, true, 2, 0));
    expect("__dp2a_hi(int)", i, o[7], dot(x, y, s, true, 2, 2));
    expect("__dp2a_lo(unsigned)", i, o[8], dot(x, y, s, false, 2, 0));
    expect("__dp2a_hi(unsigned)", i, o[9], dot(x, y, s, false, 2, 2));
  }
  printf(failures ? "FAILED (%d mismatches)\n" : "PASSED\n", failures);
  return failures != 0;
}
