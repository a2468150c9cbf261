// Host of math_builtins.cl: runs each kernel on the same inputs and checks
// every result against the C library, evaluated in a wider type, within the
// ulps OpenCL C 1.2 allows (Inputs/math_builtins.def).
#define _GNU_SOURCE
#include <respec/opencl.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

// The reference of mad's unfused form must not be fused by the host compiler.
#pragma STDC FP_CONTRACT OFF

#define N 240 // a multiple of every vector width
#define NATIVE_ULPS 8192

static int nfuncs(void) {
  return 0
#define UN(...) +1
#define BIN(...) +1
#define TER(...) +1
#define INTN(...) +1
#include "math_builtins.def"
      ;
#undef UN
#undef BIN
#undef TER
#undef INTN
}

//===--- Inputs ------------------------------------------------------------===//

// Spec-relevant tuples first (x, y, k), then pseudo-random values. M, m and
// d stand for the largest finite, the smallest normal and the smallest
// denormal value of the type.
#define INF_ INFINITY
static const struct {
  double x, y;
  int k;
} special[] = {
    {0.0, 0.0, 0},       {-0.0, 0.0, 1},      {1.0, -0.0, -1},
    {-1.0, 1.0, 2},      {INF_, -INF_, 3},    {-INF_, INF_, -3},
    {NAN, 1.0, 0},       {1.0, NAN, 5},       {NAN, NAN, -2},
    {-0.0, -0.0, 3},     {0.0, -0.0, -3},     {-0.0, 3.0, -2},
    {0.0, -3.0, 2},      {-0.0, -3.0, -5},    {-8.0, 3.0, 3},
    {27.0, 2.0, 3},      {-27.0, -1.0, 3},    {2.0, 0.5, 4},
    {-2.0, 2.0, -4},     {0.5, -0.5, 64},     {-0.5, 0.5, -64},
    {1.5, -1.5, 200},    {-1.5, 2.5, -200},   {2.5, -2.5, 1000},
    {-2.5, 3.5, -1000},  {1.0, INF_, 2},      {1.0, -INF_, 1},
    {-1.0, INF_, 5},     {INF_, 0.0, 2},      {INF_, -0.0, -1},
    {0.1, 1e-3, 2},      {-0.7, -0.3, 3},     {1e10, 1e-10, 4},
    {-1e-10, 1e10, 2},   {10.0, 3.0, 10},     {-10.0, 3.0, -10},
    {6.0, 4.0, 6},       {-6.0, -4.0, -6},    {0.4, 0.4, 1},
    {-0.4, 0.6, -1},     {4.5, 4.0, 1},       {5.5, -2.0, 2},
    {-4.5, 1.25, 3},     {-5.5, 0.25, 2},     {7.0, 2.0, 2},
    {3.0, -3.0, 2},      {-3.0, 2.0, 1},      {2.0, -2.0, 0},
    {0.75, 100.0, 3},    {100.0, -100.0, -3}, {0.3, 0.0, 7},
    {-0.3, -INF_, -7},   {-2.0, -0.0, 1},     {-0.4999, 1.0, 1},
};
#define NSPECIAL (sizeof(special) / sizeof(special[0]))
#define M_ 1e300 // stand-ins replaced by the type's own values
#define m_ 1e-300
#define d_ 1e-320
static const double limits[][2] = {
    {M_, M_}, {-M_, 2.0}, {m_, d_}, {d_, -d_}, {-d_, 0.0}, {-m_, 1.0},
};
#define NLIMITS (sizeof(limits) / sizeof(limits[0]))

static unsigned long long seed = 12345;
static double uniform(void) { // in [0, 1)
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(seed >> 11) / 9007199254740992.0;
}
static double random_value(int i) {
  double u = uniform();
  switch (i % 4) {
  case 0: return 2 * u - 1;
  case 1: return 20 * u - 10;
  case 2: return 200 * u - 100;
  default: return (uniform() < 0.5 ? -1 : 1) * exp2(80 * u - 40);
  }
}

static double limit_value(double v, double max, double min, double den) {
  double s = v < 0 ? -1 : 1, a = fabs(v);
  return a == M_ ? s * max : a == m_ ? s * min : a == d_ ? s * den : v;
}

static float xf[N], yf[N], zf[N];
static double xd[N], yd[N], zd[N];
static int kv[N];

static void make_inputs(void) {
  for (int i = 0; i < N; ++i) {
    double x, y, z = random_value(i + 1);
    int k;
    if (i < (int)NSPECIAL) {
      x = special[i].x, y = special[i].y, k = special[i].k;
    } else if (i < (int)(NSPECIAL + NLIMITS)) {
      x = limits[i - NSPECIAL][0], y = limits[i - NSPECIAL][1], k = i % 5 - 2;
    } else {
      x = random_value(i), y = random_value(i + 2);
      k = (int)(uniform() * 21) - 10;
    }
    xf[i] = (float)limit_value(x, FLT_MAX, FLT_MIN, 0x1p-149);
    yf[i] = (float)limit_value(y, FLT_MAX, FLT_MIN, 0x1p-149);
    zf[i] = (float)z;
    xd[i] = limit_value(x, DBL_MAX, DBL_MIN, 0x1p-1074);
    yd[i] = limit_value(y, DBL_MAX, DBL_MIN, 0x1p-1074);
    zd[i] = z;
    kv[i] = k;
  }
  // fma operands that cancel exactly, and special addends.
  zf[0] = -0.0f, zd[0] = -0.0;
  zf[3] = -1.0f, zd[3] = -1.0;
  zf[4] = NAN, zd[4] = NAN;
  zf[6] = INFINITY, zd[6] = INFINITY;
}

//===--- References --------------------------------------------------------===//

// sinpi, cospi: exact argument reduction, then the wider type's sin/cos.
static double sinpi_d(double x) {
  if (!isfinite(x))
    return NAN;
  double r = fmod(x, 2.0);
  if (r == trunc(r))
    return copysign(0.0, x); // sinpi(±n) is ±0
  return sin(M_PI * r);
}
static long double sinpi_l(long double x) {
  if (!isfinite(x))
    return NAN;
  long double r = fmodl(x, 2.0L);
  if (r == truncl(r))
    return copysignl(0.0L, x);
  return sinl(3.14159265358979323846264338327950288L * r);
}
static double cospi_d(double x) {
  if (!isfinite(x))
    return NAN;
  double r = fmod(fabs(x), 2.0);
  if (r == 0.5 || r == 1.5)
    return 0.0; // cospi(n + 0.5) is +0
  return cos(M_PI * r);
}
static long double cospi_l(long double x) {
  if (!isfinite(x))
    return NAN;
  long double r = fmodl(fabsl(x), 2.0L);
  if (r == 0.5L || r == 1.5L)
    return 0.0L;
  return cosl(3.14159265358979323846264338327950288L * r);
}
#define REF_SINPI(a) _Generic((a), double: sinpi_d, long double: sinpi_l)(a)
#define REF_COSPI(a) _Generic((a), double: cospi_d, long double: cospi_l)(a)

// maxmag, minmag (6.12.2): the larger (smaller) magnitude, else fmax (fmin).
static float maxmag_f(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  return ax > ay ? x : ay > ax ? y : fmaxf(x, y);
}
static double maxmag_d(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax > ay ? x : ay > ax ? y : fmax(x, y);
}
static float minmag_f(float x, float y) {
  float ax = fabsf(x), ay = fabsf(y);
  return ax < ay ? x : ay < ax ? y : fminf(x, y);
}
static double minmag_d(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  return ax < ay ? x : ay < ax ? y : fmin(x, y);
}
#define REF_MAXMAG(a, b) _Generic((a), float: maxmag_f, double: maxmag_d)(a, b)
#define REF_MINMAG(a, b) _Generic((a), float: minmag_f, double: minmag_d)(a, b)

// powr and rootn with every edge case of OpenCL C 1.2, 7.5.1; the check
// uses them only where they agree with pow (domain XPOS).
#define DEFINE_POWR_ROOTN(R, S)                                                \
  static R powr_##S(R x, R y) {                                                \
    if (isnan(x) || isnan(y) || x < 0 || (x == 0 && y == 0) ||                 \
        (isinf(x) && y == 0) || (x == 1 && isinf(y)))                          \
      return NAN;                                                              \
    if (x == 0)                                                                \
      return y < 0 ? INFINITY : 0;                                             \
    return pow(x, y);                                                          \
  }                                                                            \
  static R rootn_##S(R x, int n) {                                             \
    if (n == 0 || isnan(x) || (x < 0 && n % 2 == 0))                           \
      return NAN;                                                              \
    if (x == 0)                                                                \
      return n > 0 ? (n % 2 ? x : (R)0) : (n % 2 ? copysign(INFINITY, x)      \
                                                 : (R)INFINITY);               \
    return copysign(pow(fabs(x), (R)1 / n), x);                                \
  }
DEFINE_POWR_ROOTN(double, d)
DEFINE_POWR_ROOTN(long double, l)
#define REF_POWR(a, b) _Generic((a), double: powr_d, long double: powr_l)(a, b)
#define REF_ROOTN(a, k) _Generic((a), double: rootn_d, long double: rootn_l)(a, k)

// mad may be a correctly rounded fma or a rounded multiply and add.
#define MAD_ULPS -1
#define REF_MAD(a, b, c) fma(a, b, c)
// Correctly rounded for double; 3 ulps for float.
#define SQRT_ULPS (sizeof(ta) == sizeof(float) ? 3 : 0)
// 2 ulps in table 7.2 for double too, but respec's double cbrt (the C
// library's) is off by up to about 3.4: cbrt_double_accuracy.cl (XFAIL).
#define CBRT_ULPS (sizeof(ta) == sizeof(float) ? 2 : 4)
// lgamma's error is undefined in table 7.1; this is what glibc meets.
#define LGAMMA_ULPS 64

#define ANY 1
#define XPOS (isfinite(ta) && ta > 0 && isfinite(tb) && k != 0)

//===--- Comparison --------------------------------------------------------===//

static double ulp_f(double r) {
  r = fabs(r);
  return r < FLT_MIN ? 0x1p-149 : ldexp(1.0, ilogb(r) - 23);
}
static long double ulp_d(long double r) {
  r = fabsl(r);
  return r < DBL_MIN ? 0x1p-1074L : ldexpl(1.0L, ilogbl(r) - 52);
}

// Bit-identical, NaNs being equal.
static int same_f(float a, float b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}
static int same_d(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

// Whether `got` is within `ulps` of the reference `ref` (computed in R),
// exactly equal where ulps is 0, where the result is infinite or zero.
#define DEFINE_CLOSE(T, R, S)                                                  \
  static int close_##S(T got, R ref, double ulps, T ta, T tb, T tc) {          \
    if (isnan(ref))                                                            \
      return isnan(got);                                                       \
    T rounded = (T)ref;                                                        \
    if (ulps < 0) { /* mad */                                                  \
      T product = ta * tb;                                                     \
      return same_##S(got, rounded) || same_##S(got, product + tc);            \
    }                                                                          \
    if (ulps == 0 || ref == 0 || isinf(rounded))                               \
      return same_##S(got, rounded);                                           \
    return !isnan(got) && fabs((R)got - ref) <= ulps * ulp_##S(ref);           \
  }
DEFINE_CLOSE(float, double, f)
DEFINE_CLOSE(double, long double, d)

static int failures;
static void report(const char *type, const char *name, int e, double x,
                   double y, int k, double got, long double ref) {
  if (++failures <= 20)
    printf("  %s %s [%d] (x=%a y=%a k=%d): got %a, expected %La\n", type, name,
           e, x, y, k, got, ref);
}

// One entry of the list: checks the N results of the function at o against
// the reference, for the scalar type T (R: reference type, S: suffix of the
// helpers), then moves o to the next function's results.
#define CHECK_ENTRY(T, R, S, name, ulps, domain, ref)                          \
  for (int e = 0; e < N; ++e) {                                                \
    T ta = x[e], tb = y[e], tc = z[e];                                         \
    R a = ta, b = tb, c = tc;                                                  \
    int k = kv[e];                                                             \
    (void)a, (void)b, (void)c, (void)tc;                                       \
    if (!(domain))                                                             \
      continue;                                                                \
    R r = (R)(ref);                                                            \
    if (!close_##S(o[e], r, ulps, ta, tb, tc)) {                               \
      report(type, #name, e, ta, tb, k, o[e], r);                              \
      bad = 1;                                                                 \
    }                                                                          \
  }                                                                            \
  o += N;

//===--- Runs --------------------------------------------------------------===//

static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}

static int run(const char *name, size_t items, const void *x, const void *y,
               const void *z, void *out, int *ilogbs) {
  respec_cl_kernel *kernel = respec_cl_create_kernel(name, NULL);
  set_arg(kernel, 0, x);
  set_arg(kernel, 1, y);
  set_arg(kernel, 2, z);
  set_arg(kernel, 3, kv);
  set_arg(kernel, 4, out);
  set_arg(kernel, 5, ilogbs);
  int status = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL);
  respec_cl_release_kernel(kernel);
  return status != RESPEC_CL_SUCCESS;
}

// ilogb of finite nonzero values and of infinities (C99: INT_MAX); 0 is
// checked against FP_ILOGB0 by ilogb_special, NaN by ilogb_nan.cl (XFAIL).
static int check_ilogb(const char *type, const int *got, int is_float) {
  int bad = 0;
  for (int e = 0; e < N; ++e) {
    double v = is_float ? xf[e] : xd[e];
    if (v == 0 || isnan(v))
      continue;
    int expected = isinf(v) ? INT_MAX : is_float ? ilogbf(xf[e]) : ilogb(xd[e]);
    if (got[e] != expected) {
      report(type, "ilogb", e, v, 0, 0, got[e], expected);
      bad = 1;
    }
  }
  return bad;
}

static float outf[64 * N];
static double outd[64 * N];
static int ilogbs[N];

// The list expands into the body of each check function.
#define UN(name, ulps, domain, ref) CHECK_ENTRY(float, double, f, name, ulps, domain, ref)
#define BIN UN
#define TER UN
#define INTN UN
static int check_float(const char *type, const float *x, const float *y,
                       const float *z, const float *out) {
  int bad = 0;
  const float *o = out;
#include "math_builtins.def"
  return bad;
}
#undef UN
#define UN(name, ulps, domain, ref) CHECK_ENTRY(double, long double, d, name, ulps, domain, ref)
static int check_double(const char *type, const double *x, const double *y,
                        const double *z, const double *out) {
  int bad = 0;
  const double *o = out;
#include "math_builtins.def"
  return bad;
}
#undef UN
#undef BIN
#undef TER
#undef INTN

static int math_float(const char *kernel, const char *label, int width) {
  memset(outf, 0, sizeof outf);
  memset(ilogbs, 0, sizeof ilogbs);
  int bad = run(kernel, N / width, xf, yf, zf, outf, ilogbs);
  bad |= check_float(label, xf, yf, zf, outf);
  bad |= check_ilogb(label, ilogbs, 1);
  printf("%s: %s\n", label, bad ? "FAILED" : "ok");
  return bad;
}

static int math_double(const char *kernel, const char *label, int width) {
  memset(outd, 0, sizeof outd);
  memset(ilogbs, 0, sizeof ilogbs);
  int bad = run(kernel, N / width, xd, yd, zd, outd, ilogbs);
  bad |= check_double(label, xd, yd, zd, outd);
  bad |= check_ilogb(label, ilogbs, 0);
  printf("%s: %s\n", label, bad ? "FAILED" : "ok");
  return bad;
}

static int ilogb_special(void) {
  float f[4] = {0.0f, -0.0f, FLT_MAX, 0x1p-149f};
  double d[4] = {0.0, -0.0, DBL_MAX, 0x1p-1074};
  int out[8];
  memset(out, 0, sizeof out);
  respec_cl_kernel *kernel = respec_cl_create_kernel("ilogb_special", NULL);
  set_arg(kernel, 0, f);
  set_arg(kernel, 1, d);
  set_arg(kernel, 2, out);
  size_t one = 1;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &one, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < 8; ++i)
    if (!out[i]) {
      printf("  ilogb case %d is wrong\n", i);
      bad = 1;
    }
  printf("ilogb: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

static int vector_scalar(void) {
  float s = 0.5f;
  double t = -2.0;
  size_t items = N / 4; // float4 and double2: the double check covers N / 2
  respec_cl_kernel *kernel = respec_cl_create_kernel("vector_scalar", NULL);
  memset(outf, 0, sizeof outf);
  memset(outd, 0, sizeof outd);
  set_arg(kernel, 0, xf);
  set_arg(kernel, 1, xd);
  set_arg(kernel, 2, kv);
  respec_cl_set_kernel_arg(kernel, 3, sizeof s, &s);
  respec_cl_set_kernel_arg(kernel, 4, sizeof t, &t);
  set_arg(kernel, 5, outf);
  set_arg(kernel, 6, outd);
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (size_t i = 0; i < items; ++i) {
    for (int e = 0; e < 4; ++e) {
      size_t j = 4 * i + e, n = 4 * items;
      float ef[3] = {ldexpf(xf[j], kv[i]), fmaxf(xf[j], s), fminf(xf[j], s)};
      for (int f = 0; f < 3; ++f)
        if (!same_f(outf[f * n + j], ef[f])) {
          report("float4", f == 0 ? "ldexp" : f == 1 ? "fmax" : "fmin", j,
                 xf[j], s, kv[i], outf[f * n + j], ef[f]);
          bad = 1;
        }
    }
    for (int e = 0; e < 2; ++e) {
      size_t j = 2 * i + e, n = 2 * items;
      double ed[3] = {ldexp(xd[j], kv[i]), fmax(xd[j], t), fmin(xd[j], t)};
      for (int f = 0; f < 3; ++f)
        if (!same_d(outd[f * n + j], ed[f])) {
          report("double2", f == 0 ? "ldexp" : f == 1 ? "fmax" : "fmin", j,
                 xd[j], t, kv[i], outd[f * n + j], ed[f]);
          bad = 1;
        }
    }
  }
  printf("vector with scalar: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

// native_* and half_*: within half_'s 8192 ulps on moderate inputs.
static int in_native_range(float v) {
  return isfinite(v) && fabsf(v) >= 0x1p-20f && fabsf(v) <= 1000.0f;
}

static int native(const char *kernel_name, const char *label, int width) {
  size_t items = N / width;
  memset(outf, 0, sizeof outf);
  respec_cl_kernel *kernel = respec_cl_create_kernel(kernel_name, NULL);
  set_arg(kernel, 0, xf);
  set_arg(kernel, 1, yf);
  set_arg(kernel, 2, outf);
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;
  respec_cl_release_kernel(kernel);
  const float *o = outf;
#define NATIVE_ENTRY(prefix, name, binary, ref)                                \
  for (int e = 0; e < N; ++e) {                                                \
    float ta = xf[e], tb = yf[e];                                              \
    double a = ta, b = tb;                                                     \
    (void)b;                                                                   \
    if (!in_native_range(ta) || (binary && (!in_native_range(tb) || ta < 0)))  \
      continue;                                                                \
    double r = ref;                                                            \
    if (!close_f(o[e], r, NATIVE_ULPS, ta, tb, 0)) {                           \
      report(label, prefix #name, e, ta, tb, 0, o[e], r);                      \
      bad = 1;                                                                 \
    }                                                                          \
  }                                                                            \
  o += N;
#define NATIVE1(name, ref)                                                     \
  NATIVE_ENTRY("native_", name, 0, ref) NATIVE_ENTRY("half_", name, 0, ref)
#define NATIVE2(name, ref)                                                     \
  NATIVE_ENTRY("native_", name, 1, ref) NATIVE_ENTRY("half_", name, 1, ref)
#define UN(...)
#define BIN(...)
#define TER(...)
#define INTN(...)
#include "math_builtins.def"
  printf("native and half %s: %s\n", label, bad ? "FAILED" : "ok");
  return bad;
}

int main(void) {
  make_inputs();
  if (nfuncs() > 64)
    return 2;
  int bad = 0;
  bad |= math_float("math_float", "float", 1);
  bad |= math_float("math_float3", "float3", 3);
  bad |= math_float("math_float4", "float4", 4);
  bad |= math_float("math_float16", "float16", 16);
  bad |= math_double("math_double", "double", 1);
  bad |= math_double("math_double2", "double2", 2);
  bad |= ilogb_special();
  bad |= vector_scalar();
  bad |= native("native_float", "float", 1);
  bad |= native("native_float8", "float8", 8);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
