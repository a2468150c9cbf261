// Host of common_geometric.cl: the expected values are computed in long
// double from the definitions of OpenCL C 1.2, 6.12.4 and 6.12.5.
#include <respec/opencl.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 48     // elements of the common kernels: a multiple of 2, 3, 4, 16
#define ITEMS 24 // work-items of the geometric kernels

static unsigned long long seed = 2024;
static double uniform(void) { // in [0, 1)
  seed = seed * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(seed >> 11) / 9007199254740992.0;
}

static int failures;
static void report(const char *what, int e, long double got,
                   long double expected) {
  if (++failures <= 20)
    printf("  %s [%d]: got %La, expected %La\n", what, e, got, expected);
}

static void set_arg(respec_cl_kernel *kernel, unsigned i, const void *p) {
  respec_cl_set_kernel_arg(kernel, i, sizeof(p), &p);
}

static int same(long double a, long double b) {
  return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static long double ulp_of(long double r, int is_float) {
  r = fabsl(r);
  if (is_float)
    return r < FLT_MIN ? 0x1p-149L : ldexpl(1.0L, ilogbl(r) - 23);
  return r < DBL_MIN ? 0x1p-1074L : ldexpl(1.0L, ilogbl(r) - 52);
}

//===--- Common functions --------------------------------------------------===//

static const long double pi = 3.14159265358979323846264338327950288L;

// The common kernels for a scalar type T: runs `kernel` over N elements and
// checks its 15 results per element.
#define DEFINE_COMMON(T, EPS)                                                  \
  static int common_##T(const char *kernel_name, const char *label,           \
                        int width) {                                           \
    T x[N], y[N], z[N], w[N], out[15 * N];                                     \
    T lo = -2.5, hi = 3.75, u = 0.3;                                           \
    for (int e = 0; e < N; ++e) {                                              \
      x[e] = (T)(200 * uniform() - 100);                                       \
      y[e] = (T)(200 * uniform() - 100);                                       \
      z[e] = (T)(20 * uniform() - 10);                                         \
      w[e] = (T)uniform();                                                     \
    }                                                                          \
    /* Values on the edges: equal operands, zeros, the bounds themselves. */   \
    x[0] = 0, x[1] = -0.0, x[2] = y[2], x[3] = lo, x[4] = hi, x[5] = 1;        \
    x[6] = -3, x[7] = 2, x[8] = 0.5, y[8] = -0.5, z[8] = 0.5;                  \
    w[0] = 0, w[1] = 1, w[9] = 0.5;                                            \
    memset(out, 0, sizeof out);                                                \
    respec_cl_kernel *kernel = respec_cl_create_kernel(kernel_name, NULL);    \
    set_arg(kernel, 0, x);                                                     \
    set_arg(kernel, 1, y);                                                     \
    set_arg(kernel, 2, z);                                                     \
    set_arg(kernel, 3, w);                                                     \
    respec_cl_set_kernel_arg(kernel, 4, sizeof lo, &lo);                       \
    respec_cl_set_kernel_arg(kernel, 5, sizeof hi, &hi);                       \
    respec_cl_set_kernel_arg(kernel, 6, sizeof u, &u);                         \
    set_arg(kernel, 7, out);                                                   \
    size_t items = N / width;                                                  \
    int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;   \
    respec_cl_release_kernel(kernel);                                          \
    int is_float = sizeof(T) == sizeof(float);                                 \
    for (int e = 0; e < N; ++e) {                                              \
      T a = x[e], b = y[e], c = z[e], t = w[e];                                \
      T low = b < c ? b : c, high = b < c ? c : b;                             \
      long double la = a, lb = b;                                              \
      const char *names[15] = {                                                \
          "clamp",   "clamp(scalar bounds)", "degrees", "radians", "max",      \
          "min",     "max(scalar)",          "min(scalar)", "mix",             \
          "mix(scalar)", "step", "step(scalar)", "smoothstep",                 \
          "smoothstep(scalar edges)", "sign"};                                 \
      long double expected[15] = {                                             \
          fminl(fmaxl(a, low), high),                                          \
          fminl(fmaxl(a, lo), hi),                                             \
          la * (180 / pi),                                                     \
          la * (pi / 180),                                                     \
          fmaxl(a, b),                                                         \
          fminl(a, b),                                                         \
          fmaxl(a, lo),                                                        \
          fminl(a, hi),                                                        \
          la + (lb - la) * t,                                                  \
          la + (lb - la) * u,                                                  \
          a < b ? 0 : 1,                                                       \
          a < lo ? 0 : 1,                                                      \
          0,                                                                   \
          0,                                                                   \
          a > 0 ? 1 : a < 0 ? -1 : a};                                         \
      long double s = fminl(fmaxl((la - low) / ((long double)high - low), 0), \
                            1);                                                \
      expected[12] = s * s * (3 - 2 * s);                                      \
      s = fminl(fmaxl((la - lo) / ((long double)hi - lo), 0), 1);              \
      expected[13] = s * s * (3 - 2 * s);                                      \
      for (int f = 0; f < 15; ++f) {                                           \
        T got = out[f * N + e];                                                \
        long double r = expected[f], err = fabsl(got - r);                     \
        int ok;                                                                \
        if (f == 2 || f == 3) /* 2 ulps (table 7.1) */                         \
          ok = err <= 2 * ulp_of(r, is_float);                                 \
        else if (f == 8 || f == 9) /* precision implementation-defined */      \
          ok = err <= 4 * EPS * (fabsl(la) + fabsl(lb));                       \
        else if (f == 12 || f == 13) /* likewise; the result is in [0, 1] */   \
          ok = (f == 13 || low < high) ? err <= 16 * EPS : 1;                  \
        else                                                                   \
          ok = same(got, (T)r);                                                \
        if (!ok) {                                                             \
          char what[64];                                                       \
          snprintf(what, sizeof what, "%s %s", label, names[f]);               \
          report(what, e, got, r);                                             \
          bad = 1;                                                             \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    printf("common %s: %s\n", label, bad ? "FAILED" : "ok");                   \
    return bad;                                                                \
  }
DEFINE_COMMON(float, FLT_EPSILON)
DEFINE_COMMON(double, DBL_EPSILON)

static int sign_special(void) {
  float s[8] = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 0x1p-149f, -2.5f, -FLT_MAX};
  double d[8] = {0.0, -0.0, NAN, INFINITY, -INFINITY, -0x1p-1074, 7.0, DBL_MAX};
  float expected_f[8] = {0.0f, -0.0f, 0.0f, 1, -1, 1, -1, -1};
  double expected_d[8] = {0.0, -0.0, 0.0, 1, -1, -1, 1, 1};
  float sf[16];
  double sd[16];
  memset(sf, 0xff, sizeof sf);
  memset(sd, 0xff, sizeof sd);
  respec_cl_kernel *kernel = respec_cl_create_kernel("sign_special", NULL);
  set_arg(kernel, 0, s);
  set_arg(kernel, 1, d);
  set_arg(kernel, 2, sf);
  set_arg(kernel, 3, sd);
  size_t one = 1;
  int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &one, NULL) != 0;
  respec_cl_release_kernel(kernel);
  for (int i = 0; i < 16; ++i) {
    if (!same(sf[i], expected_f[i % 8])) {
      report("sign float", i, sf[i], expected_f[i % 8]);
      bad = 1;
    }
    if (!same(sd[i], expected_d[i % 8])) {
      report("sign double", i, sd[i], expected_d[i % 8]);
      bad = 1;
    }
  }
  printf("sign special values: %s\n", bad ? "FAILED" : "ok");
  return bad;
}

//===--- Geometric functions -----------------------------------------------===//

// Runs geometric_<label> over ITEMS vectors of `width` elements of T and
// checks dot, length, distance and normalize (bounded by the rounding of the
// obvious formula), cross (3 * eps * max|a| * max|b| per component), and for
// float the fast_ variants (8192 ulps, the half_ accuracy).
#define DEFINE_GEOMETRIC(T, EPS, HAS_FAST)                                     \
  static int geometric_##T(const char *label, int width) {                    \
    T x[4 * ITEMS], y[4 * ITEMS], out[20 * ITEMS];                             \
    for (int e = 0; e < 4 * ITEMS; ++e) {                                      \
      x[e] = (T)(20 * uniform() - 10);                                         \
      y[e] = (T)(20 * uniform() - 10);                                         \
    }                                                                          \
    for (int j = 0; j < width; ++j) /* a zero vector, and a = b */             \
      x[j] = 0, x[width + j] = y[width + j];                                   \
    x[2 * width] = 3, y[2 * width] = 0; /* an exact length */                  \
    if (width > 1)                                                             \
      x[2 * width + 1] = 4, y[2 * width + 1] = 0;                              \
    for (int j = 2; j < width; ++j)                                            \
      x[2 * width + j] = 0, y[2 * width + j] = 0;                              \
    memset(out, 0, sizeof out);                                                \
    char name[32];                                                             \
    snprintf(name, sizeof name, "geometric_%s", label);                        \
    respec_cl_kernel *kernel = respec_cl_create_kernel(name, NULL);            \
    set_arg(kernel, 0, x);                                                     \
    set_arg(kernel, 1, y);                                                     \
    set_arg(kernel, 2, out);                                                   \
    size_t items = ITEMS;                                                      \
    int bad = respec_cl_enqueue_ndrange(kernel, 1, NULL, &items, NULL) != 0;   \
    respec_cl_release_kernel(kernel);                                          \
    for (int i = 0; i < ITEMS; ++i) {                                          \
      const T *a = x + i * width, *b = y + i * width, *r = out + 20 * i;       \
      long double dot = 0, dot_abs = 0, sq = 0, dsq = 0, ma = 0, mb = 0;       \
      for (int j = 0; j < width; ++j) {                                        \
        long double d = (long double)a[j] - b[j];                              \
        dot += (long double)a[j] * b[j];                                       \
        dot_abs += fabsl((long double)a[j] * b[j]);                            \
        sq += (long double)a[j] * a[j];                                        \
        dsq += d * d;                                                          \
        ma = fmaxl(ma, fabsl(a[j]));                                           \
        mb = fmaxl(mb, fabsl(b[j]));                                           \
      }                                                                        \
      long double len = sqrtl(sq), dist = sqrtl(dsq);                          \
      int ok = fabsl(r[0] - dot) <= 2 * width * EPS * dot_abs;                 \
      ok &= fabsl(r[1] - len) <= (width + 2) * EPS * len;                      \
      ok &= fabsl(r[2] - dist) <= (width + 3) * EPS * dist;                    \
      for (int j = 0; j < width; ++j) {                                        \
        long double n = len == 0 ? a[j] : a[j] / len;                          \
        ok &= fabsl(r[8 + j] - n) <= (width + 3) * EPS;                        \
      }                                                                        \
      if (HAS_FAST) {                                                          \
        ok &= fabsl(r[3] - len) <= 8192 * EPS * len;                           \
        ok &= fabsl(r[4] - dist) <= 8192 * EPS * dist;                         \
        for (int j = 0; j < width; ++j) {                                      \
          long double n = len == 0 ? a[j] : a[j] / len;                        \
          ok &= fabsl(r[12 + j] - n) <= 8192 * EPS;                            \
        }                                                                      \
      }                                                                        \
      if (width >= 3) {                                                        \
        long double c[4] = {(long double)a[1] * b[2] - (long double)a[2] * b[1], \
                            (long double)a[2] * b[0] - (long double)a[0] * b[2], \
                            (long double)a[0] * b[1] - (long double)a[1] * b[0], \
                            0};                                                \
        for (int j = 0; j < width; ++j)                                        \
          ok &= fabsl(r[16 + j] - c[j]) <= 3 * EPS * ma * mb;                  \
        if (width == 4)                                                        \
          ok &= r[19] == 0;                                                    \
      }                                                                        \
      if (!ok) {                                                               \
        char what[64];                                                         \
        snprintf(what, sizeof what, "geometric %s dot/length/distance", label); \
        report(what, i, r[0], dot);                                            \
        printf("    length %La (%La), distance %La (%La), normalize.x %La\n",  \
               (long double)r[1], len, (long double)r[2], dist,                \
               (long double)r[8]);                                             \
        bad = 1;                                                               \
      }                                                                        \
    }                                                                          \
    printf("geometric %s: %s\n", label, bad ? "FAILED" : "ok");                \
    return bad;                                                                \
  }
DEFINE_GEOMETRIC(float, FLT_EPSILON, 1)
DEFINE_GEOMETRIC(double, DBL_EPSILON, 0)

int main(void) {
  int bad = 0;
  bad |= common_float("common_float", "float", 1);
  bad |= common_float("common_float3", "float3", 3);
  bad |= common_float("common_float4", "float4", 4);
  bad |= common_float("common_float16", "float16", 16);
  bad |= common_double("common_double", "double", 1);
  bad |= common_double("common_double2", "double2", 2);
  bad |= sign_special();
  bad |= geometric_float("float", 1);
  bad |= geometric_float("float2", 2);
  bad |= geometric_float("float3", 3);
  bad |= geometric_float("float4", 4);
  bad |= geometric_double("double", 1);
  bad |= geometric_double("double2", 2);
  bad |= geometric_double("double3", 3);
  bad |= geometric_double("double4", 4);
  printf(bad ? "FAIL\n" : "PASS\n");
  return bad;
}
