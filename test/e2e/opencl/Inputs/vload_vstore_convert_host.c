// Host of vload_vstore_convert.cl: expected memory contents after the
// vloads and vstores, and expected conversions (OpenCL C 1.2, 6.2.3: to an
// integer type the default rounding is toward zero, to a floating-point type
// to nearest even; _sat clamps to the type's range and maps NaN to 0).
#include <respec/opencl.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 wide;

static int failures;
static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}
static int run(respec_cl_kernel *kernel, size_t items, size_t group) {
  int status = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items,
                                         group ? &group : NULL);
  respec_cl_release_kernel(kernel);
  return status != RESPEC_CL_SUCCESS;
}
static void mismatch(const char *what, long k, long long got,
                     long long expected) {
  if (++failures <= 20)
    printf("  %s [%ld]: got %lld (%#llx), expected %lld (%#llx)\n", what, k,
           got, (unsigned long long)got, expected,
           (unsigned long long)expected);
}

//===--- vloadn / vstoren --------------------------------------------------===//

#define ITEMS 8
#define REGION (16 * ITEMS + 32)
static const int widths[5] = {2, 3, 4, 8, 16}, bases[5] = {1, 2, 3, 5, 7};

// vload_global_<T>: block i of width n at src + base lands as block
// (ITEMS - 1 - i) of region n of dst, at the same base; nothing else moves.
#define DEFINE_GLOBAL(T, NAME)                                                 \
  static int global_##NAME(void) {                                             \
    T src[REGION], dst[5 * REGION], expected[5 * REGION];                      \
    for (int k = 0; k < REGION; ++k)                                           \
      src[k] = (T)(k * 37 + 11) + (T)0.25;                                     \
    memset(dst, 0x5a, sizeof dst);                                             \
    memcpy(expected, dst, sizeof dst);                                         \
    for (int r = 0; r < 5; ++r)                                                \
      for (int i = 0; i < ITEMS; ++i)                                          \
        for (int j = 0; j < widths[r]; ++j)                                    \
          expected[r * REGION + bases[r] + widths[r] * (ITEMS - 1 - i) + j] =  \
              src[bases[r] + widths[r] * i + j];                               \
    respec_cl_kernel *kernel =                                                 \
        respec_cl_create_kernel("vload_global_" #NAME, NULL);                  \
    set_arg(kernel, 0, src);                                                   \
    set_arg(kernel, 1, dst);                                                   \
    int bad = run(kernel, ITEMS, 0);                                           \
    for (int k = 0; k < 5 * REGION; ++k)                                       \
      if (memcmp(&dst[k], &expected[k], sizeof(T))) {                          \
        mismatch("global " #NAME, k, (long long)dst[k],                        \
                 (long long)expected[k]);                                      \
        bad = 1;                                                               \
      }                                                                        \
    printf("vload/vstore global %s: %s\n", #NAME, bad ? "FAILED" : "ok");      \
    return bad;                                                                \
  }
DEFINE_GLOBAL(int8_t, char)
DEFINE_GLOBAL(uint8_t, uchar)
DEFINE_GLOBAL(int16_t, short)
DEFINE_GLOBAL(uint16_t, ushort)
DEFINE_GLOBAL(int32_t, int)
DEFINE_GLOBAL(uint32_t, uint)
DEFINE_GLOBAL(int64_t, long)
DEFINE_GLOBAL(uint64_t, ulong)
DEFINE_GLOBAL(float, float)
DEFINE_GLOBAL(double, double)

static int compare_ints(const char *what, const int *got, const int *expected,
                        int count) {
  int bad = 0;
  for (int k = 0; k < count; ++k)
    if (got[k] != expected[k]) {
      mismatch(what, k, got[k], expected[k]);
      bad = 1;
    }
  return bad;
}

// vload_local: 32 work-items in groups of 8, each reading what its
// neighbour in the group stored in __local memory.
static int local_memory(void) {
  enum { GLOBAL = 32, GROUP = 8, R = 16 * GLOBAL };
  static int src[16 * GLOBAL + 16], dst[5 * R], expected[5 * R];
  for (int k = 0; k < 16 * GLOBAL + 16; ++k)
    src[k] = k * 3 + 1;
  memset(dst, 0x5a, sizeof dst);
  memcpy(expected, dst, sizeof dst);
  for (int gid = 0; gid < GLOBAL; ++gid) {
    int next = gid / GROUP * GROUP + (gid % GROUP + 1) % GROUP;
    for (int j = 0; j < 3; ++j)
      expected[3 * gid + j] = src[3 * next + j];
    for (int j = 0; j < 16; ++j)
      expected[R + 16 * gid + j] = src[3 + 16 * next + j];
    for (int j = 0; j < 8; ++j)
      expected[2 * R + 8 * gid + j] = src[3 + 16 * next + 8 + j];
    for (int j = 0; j < 4; ++j)
      expected[3 * R + 4 * gid + j] = src[3 + 16 * next + 4 + j];
    for (int j = 0; j < 2; ++j)
      expected[4 * R + 2 * gid + j] = src[3 + 16 * next + 14 + j];
  }
  respec_cl_kernel *kernel = respec_cl_create_kernel("vload_local", NULL);
  set_arg(kernel, 0, src);
  set_arg(kernel, 1, dst);
  respec_cl_set_kernel_arg(kernel, 2, (16 * GROUP + 2) * sizeof(int), NULL);
  int bad = run(kernel, GLOBAL, GROUP);
  bad |= compare_ints("local", dst, expected, 5 * R);
  printf("vload/vstore local: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

// vload_constant: two work-items reading the program-scope table
// (7k - 50) and the __constant argument.
static int constant_memory(void) {
  int arg[40], dst[320], expected[320];
  for (int k = 0; k < 40; ++k)
    arg[k] = 1000 + 3 * k;
  memset(dst, 0x5a, sizeof dst);
  memcpy(expected, dst, sizeof dst);
  for (int r = 0; r < 5; ++r)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < widths[r]; ++j) {
        int k = widths[r] * i + j;
        expected[64 * r + k] = 7 * (3 + k) - 50;
        expected[64 * r + 32 + k] = arg[5 + k];
      }
  respec_cl_kernel *kernel = respec_cl_create_kernel("vload_constant", NULL);
  set_arg(kernel, 0, arg);
  set_arg(kernel, 1, dst);
  int bad = run(kernel, 2, 0);
  bad |= compare_ints("constant", dst, expected, 320);
  printf("vload constant: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

// vload_private: the same moves on a copy of the array.
static int private_memory(void) {
  enum { N = 4 };
  int src[40], dst[40 * N], expected[40 * N];
  for (int k = 0; k < 40; ++k)
    src[k] = k * k - 7;
  for (int i = 0; i < N; ++i) {
    int p[40], a[16], b[3], c[8], d[4], e[2];
    for (int k = 0; k < 40; ++k)
      p[k] = src[k] * (i + 1);
    memcpy(a, p + 19, sizeof a);
    memcpy(b, p + 6, sizeof b);
    memcpy(c, p + 30, sizeof c);
    memcpy(d, p + 13, sizeof d);
    memcpy(e, p + 38, sizeof e);
    memcpy(p + 1, a, sizeof a);
    memcpy(p + 18, b, sizeof b);
    memcpy(p + 24, c, sizeof c);
    memcpy(p + 33, d, sizeof d);
    memcpy(p + 21, e, sizeof e);
    memcpy(expected + 40 * i, p, sizeof p);
  }
  memset(dst, 0, sizeof dst);
  respec_cl_kernel *kernel = respec_cl_create_kernel("vload_private", NULL);
  set_arg(kernel, 0, src);
  set_arg(kernel, 1, dst);
  int bad = run(kernel, N, 0);
  bad |= compare_ints("private", dst, expected, 40 * N);
  printf("vload/vstore private: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

//===--- Conversions -------------------------------------------------------===//

#define N 96
static float f[N];
static double d[N];
static int32_t w[N];
static int64_t l[N];

static unsigned long long seed = 31337;
static uint64_t random_bits(void) {
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return seed ^ (seed >> 29);
}
static double uniform(void) { return (double)(random_bits() >> 11) / 0x1p53; }

static void make_inputs(void) {
  static const float fs[] = {
      0.0f, -0.0f, 0.5f, -0.5f, 0.999f, -0.999f, 1.5f, -1.5f, 127.5f, 128.0f,
      -128.5f, -129.0f, 255.5f, 256.0f, 32767.5f, 32768.0f, -32768.9f,
      -32769.0f, 65535.9f, 65536.0f, 2147483520.0f, 0x1p31f, -0x1p31f,
      -2147483904.0f, 4294967040.0f, 0x1p32f, 9223371487098961920.0f, 0x1p63f,
      -0x1p63f, -9223373136366403584.0f, 18446742974197923840.0f, 0x1p64f,
      INFINITY, -INFINITY, NAN, -NAN, 0x1p-149f, -0x1p-149f, 3e38f, -3e38f,
      -1.0f, 1e10f, -1e10f, 2.5f, -2.5f, 3.5f};
  static const double ds[] = {
      0.0, -0.0, 0.5, -0.5, 127.99, 128.0, -128.0, -128.01, 255.999, 256.0,
      32767.9, 32768.0, -32768.99, -32769.0, 65535.99, 65536.0,
      2147483647.9, 2147483648.0, -2147483648.9, -2147483649.0, 4294967295.5,
      4294967296.0, 9223372036854774784.0, 0x1p63, -0x1p63,
      -9223372036854777856.0, 18446744073709549568.0, 0x1p64, INFINITY,
      -INFINITY, NAN, -NAN, 0x1p-1074, -0x1p-1074, 1e300, -1e300,
      3.4028235677973366e38, 3.4028235e38 * 2, 0x1.000001p0, 0x1.0000018p0,
      0x1.0000010000001p0, -0x1.0000030000000p0, 1e-50, -7.5, 16777217.0,
      0x1.fffffefffffffp127, 0x1.ffffffp127};
  static const int32_t ws[] = {
      0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769,
      65535, 65536, INT32_MIN, INT32_MAX, 16777217, 16777219, -16777217,
      0x7fffffc0, 0x7fffffbf, 200, -200, 0x80, 0xff80, 0x12345678};
  static const int64_t ls[] = {
      0, -1, 1, (int64_t)INT32_MIN - 1, (int64_t)INT32_MAX + 1, UINT32_MAX,
      (int64_t)UINT32_MAX + 1, INT64_MIN, INT64_MAX, 0x4000004000000001,
      (1ll << 53) + 1, -(1ll << 53) - 1, (int64_t)0x8000008000000001ull,
      (int64_t)0xffffff7fffffffffull, 0x0000010000000001, INT32_MIN,
      INT32_MAX, 0x7fffffffffffffc0, (int64_t)0x8000000000000001ull};
  for (int e = 0; e < N; ++e) {
    int n = (int)(sizeof fs / sizeof fs[0]);
    f[e] = e < n ? fs[e]
                 : (float)((uniform() < 0.5 ? -1 : 1) * exp2(70 * uniform() - 5));
    n = (int)(sizeof ds / sizeof ds[0]);
    d[e] = e < n ? ds[e]
                 : (uniform() < 0.5 ? -1 : 1) * exp2(70 * uniform() - 5);
    n = (int)(sizeof ws / sizeof ws[0]);
    w[e] = e < n ? ws[e] : (int32_t)random_bits();
    n = (int)(sizeof ls / sizeof ls[0]);
    l[e] = e < n ? ls[e] : (int64_t)(random_bits() >> (random_bits() % 64));
  }
}

static wide clampw(wide v, wide lo, wide hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
// _sat from floating point: NaN gives 0, the rest truncates and clamps.
static wide sat_fp(long double v, wide lo, wide hi) {
  if (isnan(v))
    return 0;
  if (v <= (long double)lo)
    return lo;
  if (v >= (long double)hi)
    return hi;
  return (wide)truncl(v);
}

#define NL 44
#define NDBL 12
static const char *const lnames[NL] = {
    "char_sat(float)",   "uchar_sat(float)",  "short_sat(float)",
    "ushort_sat(float)", "int_sat(float)",    "uint_sat(float)",
    "long_sat(float)",   "ulong_sat(float)",  "char_sat(double)",
    "uchar_sat(double)", "short_sat(double)", "ushort_sat(double)",
    "int_sat(double)",   "uint_sat(double)",  "long_sat(double)",
    "ulong_sat(double)", "char_sat(int)",     "uchar_sat(int)",
    "short_sat(int)",    "ushort_sat(int)",   "uint_sat(int)",
    "ulong_sat(int)",    "char(int)",         "uchar(int)",
    "short(int)",        "ushort(int)",       "long(int)",
    "ulong(int)",        "int_sat(long)",     "uint_sat(long)",
    "ulong_sat(long)",   "int(long)",         "uint(long)",
    "long_sat(ulong)",   "int_sat(ulong)",    "uint_sat(ulong)",
    "char_sat(uint)",    "short_sat(ushort)", "uchar_sat(char)",
    "char_sat(uchar)",   "int(float)",        "long(double)",
    "uchar(float)",      "short(double)"};
static const char *const dnames[NDBL] = {
    "float(int)",   "float(long)",   "float(uint)",   "float(ulong)",
    "double(long)", "double(ulong)", "float(double)", "double(float)",
    "float(char)",  "double(ushort)", "float(float)", "double(int)"};

// The expected integer results of element e, in the kernel's order.
static void expected_integers(int e, wide out[NL]) {
  float x = f[e];
  double y = d[e];
  int32_t i = w[e];
  int64_t m = l[e];
  uint64_t u = (uint64_t)m;
  const wide bounds[8][2] = {{INT8_MIN, INT8_MAX},   {0, UINT8_MAX},
                             {INT16_MIN, INT16_MAX}, {0, UINT16_MAX},
                             {INT32_MIN, INT32_MAX}, {0, UINT32_MAX},
                             {INT64_MIN, INT64_MAX}, {0, UINT64_MAX}};
  int k = 0;
  for (int t = 0; t < 8; ++t)
    out[k++] = sat_fp(x, bounds[t][0], bounds[t][1]);
  for (int t = 0; t < 8; ++t)
    out[k++] = sat_fp(y, bounds[t][0], bounds[t][1]);
  const int from_int[6] = {0, 1, 2, 3, 5, 7};
  for (int t = 0; t < 6; ++t)
    out[k++] = clampw(i, bounds[from_int[t]][0], bounds[from_int[t]][1]);
  out[k++] = (int8_t)i;
  out[k++] = (uint8_t)i;
  out[k++] = (int16_t)i;
  out[k++] = (uint16_t)i;
  out[k++] = (int64_t)i;
  out[k++] = (uint64_t)(int64_t)i;
  out[k++] = clampw(m, INT32_MIN, INT32_MAX);
  out[k++] = clampw(m, 0, UINT32_MAX);
  out[k++] = clampw(m, 0, UINT64_MAX);
  out[k++] = (int32_t)m;
  out[k++] = (uint32_t)m;
  out[k++] = clampw(u, INT64_MIN, INT64_MAX);
  out[k++] = clampw(u, INT32_MIN, INT32_MAX);
  out[k++] = clampw(u, 0, UINT32_MAX);
  out[k++] = clampw((uint32_t)i, INT8_MIN, INT8_MAX);
  out[k++] = clampw((uint16_t)i, INT16_MIN, INT16_MAX);
  out[k++] = clampw((int8_t)i, 0, UINT8_MAX);
  out[k++] = clampw((uint8_t)i, INT8_MIN, INT8_MAX);
  out[k++] = (int32_t)fminf(fmaxf(x, -2e9f), 2e9f);
  out[k++] = (int64_t)fmin(fmax(y, -9e18), 9e18);
  out[k++] = (uint8_t)fminf(fmaxf(x, 0.0f), 255.0f);
  out[k++] = (int16_t)fmin(fmax(y, -3e4), 3e4);
}

static void expected_floats(int e, double out[NDBL]) {
  int32_t i = w[e];
  int64_t m = l[e];
  int k = 0;
  out[k++] = (float)i;
  out[k++] = (float)m;
  out[k++] = (float)(uint32_t)i;
  out[k++] = (float)(uint64_t)m;
  out[k++] = (double)m;
  out[k++] = (double)(uint64_t)m;
  out[k++] = (float)d[e];
  out[k++] = (double)f[e];
  out[k++] = (float)(int8_t)i;
  out[k++] = (double)(uint16_t)i;
  out[k++] = f[e];
  out[k++] = (double)i;
}

static int same_double(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

static int convert_scalar(void) {
  static int64_t ol[NL * N];
  static double od[NDBL * N];
  memset(ol, 0x5a, sizeof ol);
  memset(od, 0x5a, sizeof od);
  respec_cl_kernel *kernel = respec_cl_create_kernel("convert_scalar", NULL);
  set_arg(kernel, 0, f);
  set_arg(kernel, 1, d);
  set_arg(kernel, 2, w);
  set_arg(kernel, 3, l);
  set_arg(kernel, 4, ol);
  set_arg(kernel, 5, od);
  int bad = run(kernel, N, 0);
  for (int e = 0; e < N; ++e) {
    wide ei[NL];
    double ed[NDBL];
    expected_integers(e, ei);
    expected_floats(e, ed);
    for (int k = 0; k < NL; ++k)
      if ((uint64_t)ol[k * N + e] != (uint64_t)ei[k]) {
        char what[128];
        snprintf(what, sizeof what, "convert_%s of f=%a d=%a i=%d l=%lld",
                 lnames[k], f[e], d[e], w[e], (long long)l[e]);
        mismatch(what, e, ol[k * N + e], (long long)(uint64_t)ei[k]);
        bad = 1;
      }
    for (int k = 0; k < NDBL; ++k)
      if (!same_double(od[k * N + e], ed[k])) {
        if (++failures <= 20)
          printf("  convert_%s [%d] (f=%a d=%a i=%d l=%lld): got %a, "
                 "expected %a\n",
                 dnames[k], e, f[e], d[e], w[e], (long long)l[e],
                 od[k * N + e], ed[k]);
        bad = 1;
      }
  }
  printf("convert scalar: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

// The vector kernel's conversions, each over all N elements: the index of
// the matching scalar result, for integer (ol) and floating (od) results.
static int convert_vector(void) {
  static const int integer_results[8] = {4, 1, 8, 15, 18, 29, 23, 31};
  static const int float_results[5] = {0, 1, 4, 6, 7};
  static int64_t ol[8 * N];
  static double od[5 * N];
  memset(ol, 0x5a, sizeof ol);
  memset(od, 0x5a, sizeof od);
  respec_cl_kernel *kernel = respec_cl_create_kernel("convert_vector", NULL);
  set_arg(kernel, 0, f);
  set_arg(kernel, 1, d);
  set_arg(kernel, 2, w);
  set_arg(kernel, 3, l);
  set_arg(kernel, 4, ol);
  set_arg(kernel, 5, od);
  int bad = run(kernel, 4, 0);
  for (int e = 0; e < N; ++e) {
    wide ei[NL];
    double ed[NDBL];
    expected_integers(e, ei);
    expected_floats(e, ed);
    for (int r = 0; r < 8; ++r)
      if ((uint64_t)ol[r * N + e] != (uint64_t)ei[integer_results[r]]) {
        char what[64];
        snprintf(what, sizeof what, "vector convert_%s",
                 lnames[integer_results[r]]);
        mismatch(what, e, ol[r * N + e],
                 (long long)(uint64_t)ei[integer_results[r]]);
        bad = 1;
      }
    for (int r = 0; r < 5; ++r)
      if (!same_double(od[r * N + e], ed[float_results[r]])) {
        if (++failures <= 20)
          printf("  vector convert_%s [%d]: got %a, expected %a\n",
                 dnames[float_results[r]], e, od[r * N + e],
                 ed[float_results[r]]);
        bad = 1;
      }
  }
  printf("convert vector: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

static int as_type(void) {
  uint32_t v[4] = {0x3f800000u, 0x7fc00001u, 0xdeadbeefu, 0x80000001u};
  uint32_t out[15];
  const uint32_t expected[15] = {
      v[0], v[1], v[0], v[1], v[2], v[3],
      (v[0] & 0xff) | (v[1] >> 8 & 0xff) << 8 | (v[2] >> 16 & 0xff) << 16 |
          (v[3] >> 24) << 24,
      (v[0] >> 16) | (v[3] & 0xffff) << 16,
      v[3], v[0], v[2], v[1], v[2] >> 24, v[2], v[3] & 0xffff};
  memset(out, 0, sizeof out);
  respec_cl_kernel *kernel = respec_cl_create_kernel("as_type", NULL);
  set_arg(kernel, 0, v);
  set_arg(kernel, 1, out);
  int bad = run(kernel, 1, 0);
  for (int k = 0; k < 15; ++k)
    if (out[k] != expected[k]) {
      mismatch("as_type", k, out[k], expected[k]);
      bad = 1;
    }
  printf("as_type: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  int bad = 0;
  bad |= global_char();
  bad |= global_uchar();
  bad |= global_short();
  bad |= global_ushort();
  bad |= global_int();
  bad |= global_uint();
  bad |= global_long();
  bad |= global_ulong();
  bad |= global_float();
  bad |= global_double();
  bad |= local_memory();
  bad |= constant_memory();
  bad |= private_memory();
  make_inputs();
  bad |= convert_scalar();
  bad |= convert_vector();
  bad |= as_type();
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
